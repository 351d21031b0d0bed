//! FFTX's C interface. `build.rs` runs cbindgen on this file to make `include/fftx.h`; the
//! helper macros of the header are in `build.rs` too. Every entry point runs inside [`guard`]:
//! a failure returns NULL (or does nothing), and `fftx_last_error()` says which call failed and
//! why; no panic crosses the boundary. Both precisions (`fftx_*` double, `fftxf_*` float) are
//! one body, the `entry_points!` macro, instantiated twice.
#![allow(
    non_camel_case_types,
    clippy::missing_safety_doc,
    clippy::too_many_arguments
)]

use super::graph::Graph;
use super::plan::{self, DimX, FftxPlan};
use super::recorder::{self, OpCode};
use crate::problem::Kind;
use crate::real::Real;
use std::cell::RefCell;
use std::ffi::{c_void, CString};
use std::os::raw::{c_char, c_int, c_uint};
use std::ptr::null_mut;

/// `fftx_real`: double precision.
pub type fftx_real = f64;
/// `fftx_complex`: `double[2]`, as `fftw_complex`.
pub type fftx_complex = [f64; 2];
/// `fftxf_real`: single precision, the real of the `fftxf_*` interface (every `fftx_*` call has
/// an `fftxf_*` twin over `float` arrays; the iodims, kinds, callbacks and flags are shared).
pub type fftxf_real = f32;
/// `fftxf_complex`: `float[2]`, as `fftwf_complex`.
pub type fftxf_complex = [f32; 2];

/// One dimension of a transform: length, input and output strides in elements (as `fftw_iodim`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct fftx_iodim {
    pub n: c_int,
    pub is: c_int,
    pub os: c_int,
}

/// One dimension of a copy or pointwise operation: length; input, output and data offsets (in
/// indices: index j is at (ofs + j)*s for s >= 0 and (ofs - j)*|s| for s < 0, so a negative
/// stride walks down from index ofs); input, output and data strides.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct fftx_iodimx {
    pub n: c_int,
    pub iofs: c_int,
    pub oofs: c_int,
    pub dofs: c_int,
    pub is: c_int,
    pub os: c_int,
    pub ds: c_int,
}

/// `fftx_iodim` with `ptrdiff_t` fields (the guru64 calls).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct fftx_iodim64 {
    pub n: isize,
    pub is: isize,
    pub os: isize,
}

/// `fftx_iodimx` with `ptrdiff_t` fields (the guru64 calls).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct fftx_iodimx64 {
    pub n: isize,
    pub iofs: isize,
    pub oofs: isize,
    pub dofs: isize,
    pub is: isize,
    pub os: isize,
    pub ds: isize,
}

/// The opaque plan type.
pub struct fftx_plan_s {
    plan: FftxPlan,
}

/// The opaque single-precision plan type (plans of the `fftxf_*` calls).
pub struct fftxf_plan_s {
    _opaque: [u8; 0],
}

/// A plan: a subplan, or a composition of subplans.
pub type fftx_plan = *mut fftx_plan_s;
/// A single-precision plan; `fftx_*` calls refuse it, as `fftxf_*` calls refuse an `fftx_plan`.
pub type fftxf_plan = *mut fftxf_plan_s;
/// A real temporary; accepted wherever an `fftx_real *` array is.
pub type fftx_temp_real = *mut fftx_real;
/// A complex temporary; accepted wherever an `fftx_complex *` array is.
pub type fftx_temp_complex = *mut fftx_complex;
/// A single-precision real temporary; accepted wherever an `fftxf_real *` array is.
pub type fftxf_temp_real = *mut fftxf_real;
/// A single-precision complex temporary; accepted wherever an `fftxf_complex *` array is.
pub type fftxf_temp_complex = *mut fftxf_complex;
/// A pointwise function `f(in, out, data)` written with the `FFTX_*` helper macros.
pub type fftx_callback = Option<unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void)>;
/// An r2r kind (FFTW's values).
pub type fftx_r2r_kind = c_int;

pub const FFTX_FORWARD: c_int = -1;
pub const FFTX_BACKWARD: c_int = 1;
/// Plan by time measurements (the plain transforms use FFTW_MEASURE).
pub const FFTX_MEASURE: c_uint = 0;
/// Plan by the cost model (the plain transforms use FFTW_ESTIMATE).
pub const FFTX_ESTIMATE: c_uint = 1 << 6;
/// The plan is a step of a larger plan: checked now, compiled when composed (or first executed).
pub const FFTX_SUBPLAN: c_uint = 1 << 24;
/// Report what the planner did: the optimized plan is logged (FFTX_LOG=info shows it).
pub const FFTX_OBSERVE: c_uint = 1 << 25;
/// `fftx_init`: optimize composed plans (symbolic analysis, pruning, fusion). Composition always
/// optimizes on the CPU backend; the flag is accepted and recorded.
pub const FFTX_HIGH_PERFORMANCE: c_uint = 1 << 26;
/// `fftx_plan_compose`: keep the graph as given, without pruning or fusion (a reference).
pub const FFTX_NO_OPTIMIZE: c_uint = 1 << 27;

pub const FFTX_R2HC: fftx_r2r_kind = 0;
pub const FFTX_HC2R: fftx_r2r_kind = 1;
pub const FFTX_DHT: fftx_r2r_kind = 2;
pub const FFTX_REDFT00: fftx_r2r_kind = 3;
pub const FFTX_REDFT01: fftx_r2r_kind = 4;
pub const FFTX_REDFT10: fftx_r2r_kind = 5;
pub const FFTX_REDFT11: fftx_r2r_kind = 6;
pub const FFTX_RODFT00: fftx_r2r_kind = 7;
pub const FFTX_RODFT01: fftx_r2r_kind = 8;
pub const FFTX_RODFT10: fftx_r2r_kind = 9;
pub const FFTX_RODFT11: fftx_r2r_kind = 10;

const KNOWN_FLAGS: c_uint = crate::abi::FFTW_KNOWN_FLAGS
    | FFTX_SUBPLAN
    | FFTX_OBSERVE
    | FFTX_HIGH_PERFORMANCE
    | FFTX_NO_OPTIMIZE;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

static INIT_FLAGS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

fn set_error(msg: String) {
    set_error_at(crate::log::Level::Warn, msg)
}

/// The thread's last error, logged at `level`.
fn set_error_at(level: crate::log::Level, msg: String) {
    crate::log::emit(level, format_args!("{msg}"));
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs an entry point (`crate::error::guard`): `Err` and panics become `fail` and the
/// thread's last error.
fn guard<R>(what: &str, fail: R, f: impl FnOnce() -> crate::error::Result<R>) -> R {
    crate::error::guard(fail, |e| set_error(format!("{what}: {e}")), f)
}

/// `guard` for the execute calls: an output left uncomputed is an error, which `FFTX_LOG`'s
/// default shows, besides the thread's last error.
fn guard_execute(what: &str, f: impl FnOnce() -> crate::error::Result<()>) {
    let report = |e| set_error_at(crate::log::Level::Error, format!("{what}: {e}"));
    crate::error::guard((), report, f)
}

static LIVE: once_cell::sync::Lazy<parking_lot::Mutex<std::collections::HashSet<usize>>> =
    once_cell::sync::Lazy::new(Default::default);

fn register(plan: FftxPlan) -> fftx_plan {
    if plan.flags & FFTX_OBSERVE != 0 {
        crate::log::log_info!("{}", plan.describe());
    }
    let p = Box::into_raw(Box::new(fftx_plan_s { plan }));
    LIVE.lock().insert(p as usize);
    p
}

/// A live plan of the interface of `T` (`fftx_*` plans are f64, `fftxf_*` plans f32): a plan of
/// the other precision is refused.
fn live<'a, T: Real>(p: fftx_plan) -> crate::error::Result<&'a FftxPlan> {
    if p.is_null() {
        return Err("NULL plan".into());
    }
    if !LIVE.lock().contains(&(p as usize)) {
        return Err(format!("{p:p} is not a live FFTX plan").into());
    }
    // SAFETY: registered plans stay allocated until fftx_destroy_plan.
    let plan = unsafe { &(*p).plan };
    let precision = plan.graph.precision();
    if precision != T::PRECISION {
        return Err(format!(
            "{p:p} is a {} plan, given to the {} interface (the precisions cannot be mixed)",
            recorder::precision_name(precision),
            recorder::precision_name(T::PRECISION)
        )
        .into());
    }
    Ok(plan)
}

fn check_flags(flags: c_uint) -> crate::error::Result<()> {
    if flags & !KNOWN_FLAGS != 0 {
        return Err(format!("unknown flag bits {:#x}", flags & !KNOWN_FLAGS).into());
    }
    Ok(())
}

trait ReadDim: Copy {
    fn get(&self) -> DimX;
}
impl ReadDim for fftx_iodim {
    fn get(&self) -> DimX {
        DimX::plain(self.n as isize, self.is as isize, self.os as isize)
    }
}
impl ReadDim for fftx_iodim64 {
    fn get(&self) -> DimX {
        DimX::plain(self.n, self.is, self.os)
    }
}
impl ReadDim for fftx_iodimx {
    fn get(&self) -> DimX {
        let c = |x: c_int| x as isize;
        DimX {
            n: c(self.n),
            iofs: c(self.iofs),
            oofs: c(self.oofs),
            dofs: c(self.dofs),
            is: c(self.is),
            os: c(self.os),
            ds: c(self.ds),
        }
    }
}
impl ReadDim for fftx_iodimx64 {
    fn get(&self) -> DimX {
        DimX {
            n: self.n,
            iofs: self.iofs,
            oofs: self.oofs,
            dofs: self.dofs,
            is: self.is,
            os: self.os,
            ds: self.ds,
        }
    }
}

unsafe fn dims<D: ReadDim>(
    rank: c_int,
    p: *const D,
    what: &str,
) -> crate::error::Result<Vec<DimX>> {
    if rank < 0 {
        return Err(format!("negative {what} rank {rank}").into());
    }
    if rank > 0 && p.is_null() {
        return Err(format!("{what} dims are NULL with rank {rank}").into());
    }
    Ok((0..rank as usize).map(|i| (*p.add(i)).get()).collect())
}

fn single(node: super::graph::Node, flags: c_uint) -> crate::error::Result<fftx_plan> {
    let plan = FftxPlan::new(Graph { nodes: vec![node] }, flags)?;
    Ok(register(plan))
}

unsafe fn temp<T: Real, D: ReadDim>(
    rank: c_int,
    d: *const D,
    complex: bool,
    zero: bool,
) -> crate::error::Result<usize> {
    plan::create_temp(&dims(rank, d, "temporary")?, complex, zero, T::PRECISION)
}

unsafe fn guru_transform<T: Real, D: ReadDim>(
    name: &str,
    kind: Kind,
    (rank, d): (c_int, *const D),
    (hr, hd): (c_int, *const D),
    (input, ic): (usize, bool),
    (output, oc): (usize, bool),
    flags: c_uint,
) -> crate::error::Result<fftx_plan> {
    check_flags(flags)?;
    let (d, l) = (dims(rank, d, "transform")?, dims(hr, hd, "howmany")?);
    let p = T::PRECISION;
    let node = plan::transform(
        name,
        kind,
        &d,
        &l,
        plan::buffer(input, ic, "in", p)?,
        plan::buffer(output, oc, "out", p)?,
    )?;
    single(node, flags)
}

unsafe fn guru_copy<T: Real, D: ReadDim>(
    name: &str,
    (rank, d): (c_int, *const D),
    input: usize,
    output: usize,
    complex: bool,
    flags: c_uint,
) -> crate::error::Result<fftx_plan> {
    check_flags(flags)?;
    let p = T::PRECISION;
    let node = plan::copy(
        name,
        &dims(rank, d, "copy")?,
        plan::buffer(input, complex, "in", p)?,
        plan::buffer(output, complex, "out", p)?,
    )?;
    single(node, flags)
}

unsafe fn guru_pointwise<T: Real, D: ReadDim>(
    name: &str,
    (rank, d): (c_int, *const D),
    (hr, hd): (c_int, *const D),
    (input, output, data): (usize, usize, usize),
    func: fftx_callback,
    complex: bool,
    flags: c_uint,
) -> crate::error::Result<fftx_plan> {
    check_flags(flags)?;
    let f = func.ok_or("the pointwise function is NULL")?;
    let (d, l) = (dims(rank, d, "pointwise")?, dims(hr, hd, "howmany")?);
    let p = T::PRECISION;
    let prog = recorder::record(f, ty::<T>(complex), data != 0)?;
    let data = if data == 0 {
        None
    } else {
        Some(plan::buffer(data, complex, "data", p)?)
    };
    let node = plan::pointwise(
        name,
        prog,
        &d,
        &l,
        plan::buffer(input, complex, "in", p)?,
        plan::buffer(output, complex, "out", p)?,
        data,
    )?;
    single(node, flags)
}

fn ty<T: Real>(complex: bool) -> recorder::Ty {
    recorder::Ty {
        complex,
        precision: T::PRECISION,
    }
}

unsafe fn r2r_kinds(
    rank: c_int,
    kind: *const fftx_r2r_kind,
) -> crate::error::Result<Vec<crate::problem::R2rKind>> {
    if rank > 0 && kind.is_null() {
        return Err("kind is NULL".into());
    }
    plan::r2r_kinds(
        &(0..rank.max(0) as usize)
            .map(|i| *kind.add(i))
            .collect::<Vec<_>>(),
    )
}

/// `*_plan_compose` of either precision: the subplans must be of the call's.
unsafe fn compose<T: Real>(
    n: c_int,
    plans: *const fftx_plan,
    flags: c_uint,
) -> crate::error::Result<fftx_plan> {
    check_flags(flags)?;
    if n < 1 || plans.is_null() {
        return Err(format!("needs at least one plan (n = {n})").into());
    }
    let mut nodes = Vec::new();
    for k in 0..n as usize {
        let p = live::<T>(*plans.add(k)).map_err(|e| format!("subplan {k}: {e}"))?;
        for node in &p.graph.nodes {
            let mut node = node.clone();
            node.label = match node.label.strip_prefix("subplan ") {
                Some(rest) => format!("subplan {k}.{rest}"),
                None => format!("subplan {k} ({})", node.label),
            };
            nodes.push(node);
        }
    }
    let plan = FftxPlan::new(Graph { nodes }, flags & !FFTX_SUBPLAN)?;
    Ok(register(plan))
}

unsafe fn destroy<T: Real>(p: fftx_plan) -> crate::error::Result<()> {
    if p.is_null() {
        return Ok(());
    }
    live::<T>(p)?;
    LIVE.lock().remove(&(p as usize));
    drop(Box::from_raw(p));
    Ok(())
}

unsafe fn print<T: Real>(p: fftx_plan) -> crate::error::Result<()> {
    use std::io::Write;
    let s = live::<T>(p)?.describe();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{s}")
        .and_then(|_| out.flush())
        .map_err(|e| e.to_string().into())
}

unsafe fn sprint<T: Real>(p: fftx_plan) -> crate::error::Result<*mut c_char> {
    let s = CString::new(live::<T>(p)?.describe()).map_err(|e| e.to_string())?;
    let bytes = s.as_bytes_with_nul();
    let m = libc::malloc(bytes.len()) as *mut u8;
    if m.is_null() {
        return Err("out of memory".into());
    }
    std::ptr::copy_nonoverlapping(bytes.as_ptr(), m, bytes.len());
    Ok(m as *mut c_char)
}

fn init(flags: c_uint) {
    INIT_FLAGS.store(flags, std::sync::atomic::Ordering::Relaxed);
}

fn shutdown() {
    INIT_FLAGS.store(0, std::sync::atomic::Ordering::Relaxed);
    // The generated GPU modules (compiled once per process for every plan) go with it.
    let _ = std::panic::catch_unwind(crate::exec::cuda::kernels::forget_generated);
}

/// The C interface of one precision: `$p` the prefix (`fftx`, `fftxf`), `$T` the real type.
/// Every entry point of both is this one body. `build.rs` expands it (between the BEGIN and
/// END lines, `[<$p _name>]` and `$T` only) for cbindgen, which makes the header from it.
macro_rules! entry_points {
    ($p:ident, $T:ty) => {
        paste::paste! {
// BEGIN ENTRY POINTS
/// Starts an FFTX region. `flags`: FFTX_HIGH_PERFORMANCE and the planner flags.
#[no_mangle]
pub extern "C" fn [<$p _init>](flags: c_uint) {
    guard(concat!(stringify!($p), "_init"), (), || {
        init(flags);
        Ok(())
    })
}

/// Ends the FFTX region. Plans and temporaries still alive stay valid until released.
#[no_mangle]
pub extern "C" fn [<$p _shutdown>]() {
    guard(concat!(stringify!($p), "_shutdown"), (), || {
        shutdown();
        Ok(())
    })
}

/// The last failure on this thread ("" if none): which call, which subplan, why. Valid until the
/// next failure on this thread.
#[no_mangle]
pub extern "C" fn [<$p _last_error>]() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

#[no_mangle]
pub unsafe extern "C" fn [<$p _create_temp_real>](
    rank: c_int,
    dims: *const fftx_iodim,
) -> [<$p _temp_real>] {
    guard(concat!(stringify!($p), "_create_temp_real"), null_mut(), || {
        Ok(temp::<$T, _>(rank, dims, false, false)? as [<$p _temp_real>])
    })
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _create_temp_complex>](
    rank: c_int,
    dims: *const fftx_iodim,
) -> [<$p _temp_complex>] {
    guard(concat!(stringify!($p), "_create_temp_complex"), null_mut(), || {
        Ok(temp::<$T, _>(rank, dims, true, false)? as [<$p _temp_complex>])
    })
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _create_zero_temp_real>](
    rank: c_int,
    dims: *const fftx_iodim,
) -> [<$p _temp_real>] {
    guard(concat!(stringify!($p), "_create_zero_temp_real"), null_mut(), || {
        Ok(temp::<$T, _>(rank, dims, false, true)? as [<$p _temp_real>])
    })
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _create_zero_temp_complex>](
    rank: c_int,
    dims: *const fftx_iodim,
) -> [<$p _temp_complex>] {
    guard(concat!(stringify!($p), "_create_zero_temp_complex"), null_mut(), || {
        Ok(temp::<$T, _>(rank, dims, true, true)? as [<$p _temp_complex>])
    })
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _create_temp_real64>](
    rank: c_int,
    dims: *const fftx_iodim64,
) -> [<$p _temp_real>] {
    guard(concat!(stringify!($p), "_create_temp_real64"), null_mut(), || {
        Ok(temp::<$T, _>(rank, dims, false, false)? as [<$p _temp_real>])
    })
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _create_temp_complex64>](
    rank: c_int,
    dims: *const fftx_iodim64,
) -> [<$p _temp_complex>] {
    guard(concat!(stringify!($p), "_create_temp_complex64"), null_mut(), || {
        Ok(temp::<$T, _>(rank, dims, true, false)? as [<$p _temp_complex>])
    })
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _create_zero_temp_real64>](
    rank: c_int,
    dims: *const fftx_iodim64,
) -> [<$p _temp_real>] {
    guard(concat!(stringify!($p), "_create_zero_temp_real64"), null_mut(), || {
        Ok(temp::<$T, _>(rank, dims, false, true)? as [<$p _temp_real>])
    })
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _create_zero_temp_complex64>](
    rank: c_int,
    dims: *const fftx_iodim64,
) -> [<$p _temp_complex>] {
    guard(concat!(stringify!($p), "_create_zero_temp_complex64"), null_mut(), || {
        Ok(temp::<$T, _>(rank, dims, true, true)? as [<$p _temp_complex>])
    })
}
/// Releases a temporary. Plans that use it keep what they need.
#[no_mangle]
pub unsafe extern "C" fn [<$p _destroy_temp_real>](t: [<$p _temp_real>]) {
    guard(concat!(stringify!($p), "_destroy_temp_real"), (), || {
        plan::destroy_temp(t as usize, false, <$T as Real>::PRECISION)
    })
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _destroy_temp_complex>](t: [<$p _temp_complex>]) {
    guard(concat!(stringify!($p), "_destroy_temp_complex"), (), || {
        plan::destroy_temp(t as usize, true, <$T as Real>::PRECISION)
    })
}

/// Complex DFT (FFTX_FORWARD or FFTX_BACKWARD, unnormalized), FFTW's guru form.
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru_dft>](
    rank: c_int,
    dims: *const fftx_iodim,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodim,
    input: *mut [<$p _complex>],
    output: *mut [<$p _complex>],
    sign: c_int,
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru_dft");
    guard(name, null_mut(), || {
        let (i, o) = ((input as usize, true), (output as usize, true));
        let k = Kind::Dft { sign };
        guru_transform::<$T, _>(name, k, (rank, dims), (howmany_rank, howmany_dims), i, o, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru_dft_r2c>](
    rank: c_int,
    dims: *const fftx_iodim,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodim,
    input: *mut [<$p _real>],
    output: *mut [<$p _complex>],
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru_dft_r2c");
    guard(name, null_mut(), || {
        let (i, o) = ((input as usize, false), (output as usize, true));
        let k = Kind::R2c;
        guru_transform::<$T, _>(name, k, (rank, dims), (howmany_rank, howmany_dims), i, o, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru_dft_c2r>](
    rank: c_int,
    dims: *const fftx_iodim,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodim,
    input: *mut [<$p _complex>],
    output: *mut [<$p _real>],
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru_dft_c2r");
    guard(name, null_mut(), || {
        let (i, o) = ((input as usize, true), (output as usize, false));
        let k = Kind::C2r;
        guru_transform::<$T, _>(name, k, (rank, dims), (howmany_rank, howmany_dims), i, o, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru_r2r>](
    rank: c_int,
    dims: *const fftx_iodim,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodim,
    input: *mut [<$p _real>],
    output: *mut [<$p _real>],
    kind: *const fftx_r2r_kind,
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru_r2r");
    guard(name, null_mut(), || {
        let (i, o) = ((input as usize, false), (output as usize, false));
        let k = Kind::R2r(r2r_kinds(rank, kind)?);
        guru_transform::<$T, _>(name, k, (rank, dims), (howmany_rank, howmany_dims), i, o, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru64_dft>](
    rank: c_int,
    dims: *const fftx_iodim64,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodim64,
    input: *mut [<$p _complex>],
    output: *mut [<$p _complex>],
    sign: c_int,
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru64_dft");
    guard(name, null_mut(), || {
        let (i, o) = ((input as usize, true), (output as usize, true));
        let k = Kind::Dft { sign };
        guru_transform::<$T, _>(name, k, (rank, dims), (howmany_rank, howmany_dims), i, o, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru64_dft_r2c>](
    rank: c_int,
    dims: *const fftx_iodim64,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodim64,
    input: *mut [<$p _real>],
    output: *mut [<$p _complex>],
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru64_dft_r2c");
    guard(name, null_mut(), || {
        let (i, o) = ((input as usize, false), (output as usize, true));
        let k = Kind::R2c;
        guru_transform::<$T, _>(name, k, (rank, dims), (howmany_rank, howmany_dims), i, o, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru64_dft_c2r>](
    rank: c_int,
    dims: *const fftx_iodim64,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodim64,
    input: *mut [<$p _complex>],
    output: *mut [<$p _real>],
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru64_dft_c2r");
    guard(name, null_mut(), || {
        let (i, o) = ((input as usize, true), (output as usize, false));
        let k = Kind::C2r;
        guru_transform::<$T, _>(name, k, (rank, dims), (howmany_rank, howmany_dims), i, o, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru64_r2r>](
    rank: c_int,
    dims: *const fftx_iodim64,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodim64,
    input: *mut [<$p _real>],
    output: *mut [<$p _real>],
    kind: *const fftx_r2r_kind,
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru64_r2r");
    guard(name, null_mut(), || {
        let (i, o) = ((input as usize, false), (output as usize, false));
        let k = Kind::R2r(r2r_kinds(rank, kind)?);
        guru_transform::<$T, _>(name, k, (rank, dims), (howmany_rank, howmany_dims), i, o, flags)
    }) as [<$p _plan>]
}

/// Copies a (sub-)box: out[oofs-shifted box] = in[iofs-shifted box]; other entries of out keep
/// their values.
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru_copy_real>](
    rank: c_int,
    dims: *const fftx_iodimx,
    input: *mut [<$p _real>],
    output: *mut [<$p _real>],
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru_copy_real");
    guard(name, null_mut(), || {
        guru_copy::<$T, _>(name, (rank, dims), input as usize, output as usize, false, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru_copy_complex>](
    rank: c_int,
    dims: *const fftx_iodimx,
    input: *mut [<$p _complex>],
    output: *mut [<$p _complex>],
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru_copy_complex");
    guard(name, null_mut(), || {
        guru_copy::<$T, _>(name, (rank, dims), input as usize, output as usize, true, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru64_copy_real>](
    rank: c_int,
    dims: *const fftx_iodimx64,
    input: *mut [<$p _real>],
    output: *mut [<$p _real>],
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru64_copy_real");
    guard(name, null_mut(), || {
        guru_copy::<$T, _>(name, (rank, dims), input as usize, output as usize, false, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru64_copy_complex>](
    rank: c_int,
    dims: *const fftx_iodimx64,
    input: *mut [<$p _complex>],
    output: *mut [<$p _complex>],
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru64_copy_complex");
    guard(name, null_mut(), || {
        guru_copy::<$T, _>(name, (rank, dims), input as usize, output as usize, true, flags)
    }) as [<$p _plan>]
}

/// out = func(in, data) element by element; `func` is recorded at plan time (see the FFTX_*
/// helper macros); `data` may be NULL if `func` does not read it.
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru_pointwise_c2c>](
    rank: c_int,
    dims: *const fftx_iodimx,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodimx,
    input: *mut [<$p _complex>],
    output: *mut [<$p _complex>],
    data: *mut [<$p _complex>],
    func: fftx_callback,
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru_pointwise_c2c");
    guard(name, null_mut(), || {
        let io = (input as usize, output as usize, data as usize);
        let h = (howmany_rank, howmany_dims);
        guru_pointwise::<$T, _>(name, (rank, dims), h, io, func, true, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru_pointwise_r2r>](
    rank: c_int,
    dims: *const fftx_iodimx,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodimx,
    input: *mut [<$p _real>],
    output: *mut [<$p _real>],
    data: *mut [<$p _real>],
    func: fftx_callback,
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru_pointwise_r2r");
    guard(name, null_mut(), || {
        let io = (input as usize, output as usize, data as usize);
        let h = (howmany_rank, howmany_dims);
        guru_pointwise::<$T, _>(name, (rank, dims), h, io, func, false, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru64_pointwise_c2c>](
    rank: c_int,
    dims: *const fftx_iodimx64,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodimx64,
    input: *mut [<$p _complex>],
    output: *mut [<$p _complex>],
    data: *mut [<$p _complex>],
    func: fftx_callback,
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru64_pointwise_c2c");
    guard(name, null_mut(), || {
        let io = (input as usize, output as usize, data as usize);
        let h = (howmany_rank, howmany_dims);
        guru_pointwise::<$T, _>(name, (rank, dims), h, io, func, true, flags)
    }) as [<$p _plan>]
}
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_guru64_pointwise_r2r>](
    rank: c_int,
    dims: *const fftx_iodimx64,
    howmany_rank: c_int,
    howmany_dims: *const fftx_iodimx64,
    input: *mut [<$p _real>],
    output: *mut [<$p _real>],
    data: *mut [<$p _real>],
    func: fftx_callback,
    flags: c_uint,
) -> [<$p _plan>] {
    let name = concat!(stringify!($p), "_plan_guru64_pointwise_r2r");
    guard(name, null_mut(), || {
        let io = (input as usize, output as usize, data as usize);
        let h = (howmany_rank, howmany_dims);
        guru_pointwise::<$T, _>(name, (rank, dims), h, io, func, false, flags)
    }) as [<$p _plan>]
}

/// One plan running `plans[0..n]` in order (each may itself be composed). The subplans stay
/// the caller's to destroy; they must all be plans of this precision's interface.
#[no_mangle]
pub unsafe extern "C" fn [<$p _plan_compose>](
    n: c_int,
    plans: *const [<$p _plan>],
    flags: c_uint,
) -> [<$p _plan>] {
    guard(concat!(stringify!($p), "_plan_compose"), null_mut(), || {
        compose::<$T>(n, plans as *const fftx_plan, flags)
    }) as [<$p _plan>]
}

#[no_mangle]
pub unsafe extern "C" fn [<$p _execute>](p: [<$p _plan>]) {
    guard_execute(concat!(stringify!($p), "_execute"), || {
        live::<$T>(p as fftx_plan)?.execute()
    })
}

#[no_mangle]
pub unsafe extern "C" fn [<$p _destroy_plan>](p: [<$p _plan>]) {
    guard(concat!(stringify!($p), "_destroy_plan"), (), || {
        destroy::<$T>(p as fftx_plan)
    })
}

/// Prints the (optimized) plan to stdout.
#[no_mangle]
pub unsafe extern "C" fn [<$p _print_plan>](p: [<$p _plan>]) {
    guard(concat!(stringify!($p), "_print_plan"), (), || {
        print::<$T>(p as fftx_plan)
    })
}

/// The printout as a string; release it with free().
#[no_mangle]
pub unsafe extern "C" fn [<$p _sprint_plan>](p: [<$p _plan>]) -> *mut c_char {
    guard(concat!(stringify!($p), "_sprint_plan"), null_mut(), || {
        sprint::<$T>(p as fftx_plan)
    })
}

// The pointwise helpers behind the FFTX_* macros: they record, they compute nothing.

/// `FFTX_COMPLEX_TEMP(t)`: a complex temporary register of the pointwise function.
#[no_mangle]
pub extern "C" fn [<$p _pointwise_temp_complex>]() -> *mut [<$p _complex>] {
    guard("FFTX_COMPLEX_TEMP", null_mut(), || {
        Ok(recorder::new_temp(ty::<$T>(true)) as *mut [<$p _complex>])
    })
}
#[no_mangle]
pub extern "C" fn [<$p _pointwise_temp_real>]() -> *mut [<$p _real>] {
    guard("FFTX_REAL_TEMP", null_mut(), || {
        Ok(recorder::new_temp(ty::<$T>(false)) as *mut [<$p _real>])
    })
}
/// `FFTX_COMPLEX_<OP>(d, s)` for op 0 = MOV, 1 = ADD, 2 = SUB, 3 = MULT, 4 = DIV, 5 = CONJ
/// (d = conj d), 6 = NEG (d = -d).
#[no_mangle]
pub extern "C" fn [<$p _pointwise_complex>](
    op: c_int,
    d: *mut [<$p _complex>],
    s: *mut [<$p _complex>],
) {
    guard("FFTX_COMPLEX", (), || {
        record_op(ty::<$T>(true), op, d as usize, s as usize)
    })
}
/// `FFTX_REAL_<OP>(d, s)`, ops as for complex (CONJ is refused).
#[no_mangle]
pub extern "C" fn [<$p _pointwise_real>](op: c_int, d: *mut [<$p _real>], s: *mut [<$p _real>]) {
    guard("FFTX_REAL", (), || {
        record_op(ty::<$T>(false), op, d as usize, s as usize)
    })
}
/// `FFTX_COMPLEX_SCALE(d, c)`: d = c*d, c a real constant (given in double precision, rounded
/// to the plan's when it runs).
#[no_mangle]
pub extern "C" fn [<$p _pointwise_complex_scale>](d: *mut [<$p _complex>], c: f64) {
    guard("FFTX_COMPLEX_SCALE", (), || {
        recorder::scale(ty::<$T>(true), d as usize, c);
        stray()
    })
}
#[no_mangle]
pub extern "C" fn [<$p _pointwise_real_scale>](d: *mut [<$p _real>], c: f64) {
    guard("FFTX_REAL_SCALE", (), || {
        recorder::scale(ty::<$T>(false), d as usize, c);
        stray()
    })
}
/// `FFTX_COMPLEX_SET(d, re, im)`: d = re + i im, constants.
#[no_mangle]
pub extern "C" fn [<$p _pointwise_complex_set>](d: *mut [<$p _complex>], re: f64, im: f64) {
    guard("FFTX_COMPLEX_SET", (), || {
        recorder::set(ty::<$T>(true), d as usize, re, im);
        stray()
    })
}
#[no_mangle]
pub extern "C" fn [<$p _pointwise_real_set>](d: *mut [<$p _real>], c: f64) {
    guard("FFTX_REAL_SET", (), || {
        recorder::set(ty::<$T>(false), d as usize, c, 0.0);
        stray()
    })
}
// END ENTRY POINTS
        }
    };
}

entry_points!(fftx, f64);
entry_points!(fftxf, f32);

/// `fftxh_real`: one IEEE binary16 (half-precision) value, as its bits. The `fftxh_*` plans
/// transform arrays of these, computing in single precision (fp32 accumulation; with
/// FFTX_HALF_COMPUTE=f16, powers of two on the GPU take cuFFT's fp16 transform instead).
pub type fftxh_real = u16;
/// `fftxh_complex`: a complex binary16 value, `uint16_t[2]` (real part, then imaginary part).
pub type fftxh_complex = [u16; 2];

/// The opaque half-storage plan type (plans of the `fftxh_*` calls).
pub struct fftxh_plan_s {
    plan: crate::half::HalfPlan,
}

/// A half-storage plan: FFTW's advanced-interface transforms over binary16 arrays (host or
/// device memory), any size, computed in f32.
pub type fftxh_plan = *mut fftxh_plan_s;

static HALF_LIVE: once_cell::sync::Lazy<parking_lot::Mutex<std::collections::HashSet<usize>>> =
    once_cell::sync::Lazy::new(Default::default);

fn half_live<'a>(p: fftxh_plan) -> crate::error::Result<&'a crate::half::HalfPlan> {
    if p.is_null() {
        return Err("NULL plan".into());
    }
    if !HALF_LIVE.lock().contains(&(p as usize)) {
        return Err(format!("{p:p} is not a live fftxh plan").into());
    }
    // SAFETY: registered plans stay allocated until fftxh_destroy_plan.
    Ok(unsafe { &(*p).plan })
}

#[allow(clippy::too_many_arguments)]
unsafe fn half_many(
    kind: Kind,
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    (input, inembed, istride, idist): (usize, *const c_int, c_int, c_int),
    (output, onembed, ostride, odist): (usize, *const c_int, c_int, c_int),
    flags: c_uint,
) -> crate::error::Result<fftxh_plan> {
    check_flags(flags)?;
    let (dims, loops) = crate::api::advanced::many_layouts(
        &kind,
        rank,
        n,
        howmany,
        (inembed, istride, idist),
        (onembed, ostride, odist),
        input == output,
    )?;
    let plan = crate::half::HalfPlan::new(kind, dims, loops, input, output, flags)?;
    if flags & FFTX_OBSERVE != 0 {
        crate::log::log_info!("{}", plan.describe());
    }
    let p = Box::into_raw(Box::new(fftxh_plan_s { plan }));
    HALF_LIVE.lock().insert(p as usize);
    Ok(p)
}

/// `howmany` complex DFTs of binary16 data, FFTW's `fftw_plan_many_dft` layout (rank 1 to 3 on
/// the GPU, any rank on the CPU; any sizes). `sign`: FFTX_FORWARD or FFTX_BACKWARD; unnormalized.
#[no_mangle]
pub unsafe extern "C" fn fftxh_plan_many_dft(
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    input: *mut fftxh_complex,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    output: *mut fftxh_complex,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    sign: c_int,
    flags: c_uint,
) -> fftxh_plan {
    guard("fftxh_plan_many_dft", null_mut(), || {
        half_many(
            Kind::Dft { sign },
            rank,
            n,
            howmany,
            (input as usize, inembed, istride, idist),
            (output as usize, onembed, ostride, odist),
            flags,
        )
    })
}

/// `howmany` real-to-complex DFTs of binary16 data (n/2+1 outputs on the last axis), FFTW's
/// `fftw_plan_many_dft_r2c` layout.
#[no_mangle]
pub unsafe extern "C" fn fftxh_plan_many_dft_r2c(
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    input: *mut fftxh_real,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    output: *mut fftxh_complex,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    flags: c_uint,
) -> fftxh_plan {
    guard("fftxh_plan_many_dft_r2c", null_mut(), || {
        half_many(
            Kind::R2c,
            rank,
            n,
            howmany,
            (input as usize, inembed, istride, idist),
            (output as usize, onembed, ostride, odist),
            flags,
        )
    })
}

/// `howmany` complex-to-real DFTs of binary16 data, FFTW's `fftw_plan_many_dft_c2r` layout.
#[no_mangle]
pub unsafe extern "C" fn fftxh_plan_many_dft_c2r(
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    input: *mut fftxh_complex,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    output: *mut fftxh_real,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    flags: c_uint,
) -> fftxh_plan {
    guard("fftxh_plan_many_dft_c2r", null_mut(), || {
        half_many(
            Kind::C2r,
            rank,
            n,
            howmany,
            (input as usize, inembed, istride, idist),
            (output as usize, onembed, ostride, odist),
            flags,
        )
    })
}

/// Runs a half-storage plan on the arrays it was made for. On device arrays the transform is
/// queued on CUDA's legacy default stream (as a cuFFT call on stream 0) and the call returns
/// without waiting for it; on managed or host arrays it is complete when the call returns.
/// The new-array executes below do the same.
#[no_mangle]
pub unsafe extern "C" fn fftxh_execute(p: fftxh_plan) {
    guard_execute("fftxh_execute", || half_live(p)?.execute())
}

/// Runs a complex half-storage plan on new arrays of its layout (in place iff the plan is).
#[no_mangle]
pub unsafe extern "C" fn fftxh_execute_dft(
    p: fftxh_plan,
    input: *mut fftxh_complex,
    output: *mut fftxh_complex,
) {
    guard_execute("fftxh_execute_dft", || {
        half_new_arrays(p, input as usize, output as usize, Kind::Dft { sign: 0 })
    })
}

/// Runs an r2c half-storage plan on new arrays.
#[no_mangle]
pub unsafe extern "C" fn fftxh_execute_dft_r2c(
    p: fftxh_plan,
    input: *mut fftxh_real,
    output: *mut fftxh_complex,
) {
    guard_execute("fftxh_execute_dft_r2c", || {
        half_new_arrays(p, input as usize, output as usize, Kind::R2c)
    })
}

/// Runs a c2r half-storage plan on new arrays (it may overwrite its input, as FFTW's may).
#[no_mangle]
pub unsafe extern "C" fn fftxh_execute_dft_c2r(
    p: fftxh_plan,
    input: *mut fftxh_complex,
    output: *mut fftxh_real,
) {
    guard_execute("fftxh_execute_dft_c2r", || {
        half_new_arrays(p, input as usize, output as usize, Kind::C2r)
    })
}

unsafe fn half_new_arrays(
    p: fftxh_plan,
    input: usize,
    output: usize,
    kind: Kind,
) -> crate::error::Result<()> {
    let plan = half_live(p)?;
    let same = match (&plan.problem.kind, &kind) {
        (Kind::Dft { .. }, Kind::Dft { .. }) => true,
        (a, b) => a == b,
    };
    if !same {
        return Err(format!(
            "a {} plan given to the {} execute",
            plan.problem.kind.name(),
            kind.name()
        )
        .into());
    }
    plan.execute_on(input, output)
}

/// Destroys a half-storage plan (NULL: nothing).
#[no_mangle]
pub unsafe extern "C" fn fftxh_destroy_plan(p: fftxh_plan) {
    guard("fftxh_destroy_plan", (), || {
        if p.is_null() {
            return Ok(());
        }
        if !HALF_LIVE.lock().remove(&(p as usize)) {
            return Err(format!("{p:p} is not a live fftxh plan").into());
        }
        drop(Box::from_raw(p));
        Ok(())
    })
}

/// Prints what a half-storage plan runs (the device, or the CPU twin's f32 plan) to stdout.
#[no_mangle]
pub unsafe extern "C" fn fftxh_print_plan(p: fftxh_plan) {
    guard("fftxh_print_plan", (), || {
        use std::io::Write;
        let s = half_live(p)?.describe();
        let mut out = std::io::stdout().lock();
        writeln!(out, "{s}")
            .and_then(|_| out.flush())
            .map_err(|e| e.to_string().into())
    })
}

/// What a half-storage plan runs, as a string the caller frees with `free()` (NULL on error).
#[no_mangle]
pub unsafe extern "C" fn fftxh_sprint_plan(p: fftxh_plan) -> *mut c_char {
    guard("fftxh_sprint_plan", null_mut(), || {
        let s = CString::new(half_live(p)?.describe()).map_err(|e| e.to_string())?;
        let bytes = s.as_bytes_with_nul();
        let m = libc::malloc(bytes.len()) as *mut u8;
        if m.is_null() {
            return Err("out of memory".into());
        }
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), m, bytes.len());
        Ok(m as *mut c_char)
    })
}

fn record_op(ty: recorder::Ty, op: c_int, d: usize, s: usize) -> crate::error::Result<()> {
    let code = match op {
        0 => OpCode::Mov,
        1 => OpCode::Add,
        2 => OpCode::Sub,
        3 => OpCode::Mul,
        4 => OpCode::Div,
        5 => OpCode::Conj,
        6 => OpCode::Neg,
        _ => return Err(format!("unknown pointwise operation {op}").into()),
    };
    recorder::op(ty, code, d, s);
    stray()
}

/// A helper called outside any recording is an error of that call.
fn stray() -> crate::error::Result<()> {
    recorder::take_stray().map_or(Ok(()), |e| Err(e.into()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn flag_bits_are_the_ones_the_library_acts_on() {
        use super::super::graph::flags;
        assert_eq!(super::FFTX_ESTIMATE, flags::ESTIMATE);
        assert_eq!(super::FFTX_SUBPLAN, flags::SUBPLAN);
        assert_eq!(super::FFTX_NO_OPTIMIZE, flags::NO_OPTIMIZE);
    }
}
