//! Half-storage transforms on the GPU (`fftxh_` plans) over IEEE binary16 arrays in the
//! caller's layout. Three ways, tried in this order:
//!
//! - **cuFFT fp16**, opt-in by `FFTX_HALF_COMPUTE=f16` (every axis a power of two, a layout
//!   cuFFT's advanced interface expresses): `cufftXtMakePlanMany` with CUDA_C_16F on the
//!   caller's arrays. fp16 arithmetic inside cuFFT, not the f32 accumulation `fftxh_` plans
//!   promise: errors of 1e-3-2e-3 on an H200 (the f32 ways: 2e-4), but the f32 ways below are
//!   1.2-3.9x slower there.
//! - **pass kernels** (1-D, and r2c/c2r of rank 2-3, when every axis's length has radices up
//!   to 16 and fits a block's shared memory, `pencil::fused_shape`): one FFTX pass kernel (`cudagen::fused_pass`) per axis,
//!   f32 Stockham stages in shared memory, whose element loads widen binary16 and whose stores
//!   round to nearest even (1-D: one kernel, 4 bytes in and 4 out a complex element; rank 2-3:
//!   a packed f32 scratch between the passes);
//! - **gather, cuFFT f32, scatter** (c2c of rank 2-3, and anything else of rank 1 to 3;
//!   estimated faster than the passes through a scratch for c2c there): a kernel widens the input
//!   into packed f32, cuFFT transforms it, a kernel rounds it into the output.
//!
//! (cuFFT f32 with LTO load/store callbacks that convert was the first design: on an H200 it
//! ran at 0.3-0.6x cuFFT fp16 and cuFFT refused the callbacks for large batches of short
//! transforms, CUFFT_INTERNAL_ERROR; bench/results/2026-11-26-h200-tensor-cores-half-callbacks.md.)
//! Our kernels reach the caller's arrays through a device table of addresses (input, output,
//! scratch), so new-array executes only rewrite the table. The CPU twin is `half::HalfPlan`'s
//! (widen, the f32 plan, round).

use super::cudagen;
use super::cufft::{CufftPlan, FftType, Layout};
use super::kernels::{compile_generated, generated_function, resident_grid, Generated};
use super::{check, Device, Error, ErrorKind, Result};
use crate::problem::{Kind, Kind1d, Precision, Problem};
use crate::program::pencil::{fused_shape, Pass, SegMap, Side};
use cudarc::driver::sys as cu;
use parking_lot::Mutex;
use std::fmt::Write;
use std::sync::Arc;

/// binary16 <-> f32 in PTX (`cvt`), so the source needs no `cuda_fp16.h` (after
/// `cudagen::prelude(F32)`: `u64`, `i64`, `fx_cplx` = float2, `fx_real` = float).
pub(crate) const CONVERT: &str = r#"__device__ __forceinline__ float fxh_f(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ unsigned short fxh_h(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
"#;

/// Code that turns the element offset `off` into the scalar position `pos`, for axes given
/// innermost first as (length, stride): the offset's digits in those lengths (the last axis
/// takes the rest).
fn position(order: &[(isize, isize)]) -> String {
    let mut s = String::from("  i64 pos = 0; u64 r = off, i;\n");
    for (k, &(n, stride)) in order.iter().enumerate() {
        if k + 1 == order.len() {
            let _ = writeln!(s, "  pos += (i64)r * (i64){stride};");
        } else {
            let _ = writeln!(
                s,
                "  i = r % {n}ULL; r /= {n}ULL; pos += (i64)i * (i64){stride};"
            );
        }
    }
    s
}

/// Where a pass reads or writes: the caller's binary16 array (its side of the problem) or the
/// packed f32 complex scratch (row-major: the loops, then the complex shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    User { input: bool },
    Scratch,
}

/// The axes of a side innermost first for a pass along `axis` (that axis, then the others
/// from the last, then the loops from the last), as (length, stride): strides in binary16
/// scalars for the caller's arrays, in complex elements for the scratch.
fn order(p: &Problem, place: Place, shape: &[isize], axis: usize) -> Vec<(isize, isize)> {
    let (strides, loops): (Vec<isize>, Vec<(isize, isize)>) = match place {
        Place::User { input } => (
            p.dims
                .iter()
                .map(|d| if input { d.is } else { d.os })
                .collect(),
            p.loops
                .iter()
                .map(|d| (d.n, if input { d.is } else { d.os }))
                .collect(),
        ),
        Place::Scratch => {
            let c = complex_shape(p);
            let mut st = vec![1isize; c.len()];
            for d in (0..c.len().saturating_sub(1)).rev() {
                st[d] = st[d + 1] * c[d + 1];
            }
            let mut l = Vec::new();
            let mut stride: isize = c.iter().product();
            for d in p.loops.iter().rev() {
                l.push((d.n, stride));
                stride *= d.n;
            }
            l.reverse();
            (st, l)
        }
    };
    let mut o = vec![(shape[axis], strides[axis])];
    o.extend(
        (0..shape.len())
            .rev()
            .filter(|&d| d != axis)
            .map(|d| (shape[d], strides[d])),
    );
    o.extend(loops.iter().rev().copied());
    o
}

/// The shape of the complex data (the c2c's, r2c's output, c2r's input).
fn complex_shape(p: &Problem) -> Vec<isize> {
    match p.kind {
        Kind::C2r => p.input_shape(),
        _ => p.output_shape(),
    }
}

/// Code that sets the scalar position `pos` of element `j` of pencil `b`, for axes given
/// innermost first as (length, stride), the pass axis first: `j` along it, `b`'s digits in the
/// others (the last takes the rest), in 32-bit divisions where the pencils number under 2^32
/// (a 64-bit division by a constant costs several times the instructions, paid per element).
fn pencil_position(order: &[(isize, isize)]) -> String {
    let pencils: u128 = order[1..].iter().map(|&(n, _)| n as u128).product();
    let ty = if pencils <= u32::MAX as u128 {
        "unsigned"
    } else {
        "u64"
    };
    // The farthest scalar from the origin (and its neighbour): 32-bit positions when it fits.
    let reach: u128 = order
        .iter()
        .map(|&(n, stride)| (n.max(1) - 1) as u128 * stride.unsigned_abs() as u128)
        .sum::<u128>()
        + 1;
    let pt = if reach <= i32::MAX as u128 {
        "int"
    } else {
        "i64"
    };
    let mut s = format!(
        "  {pt} pos = ({pt})j * {};\n  {ty} c = ({ty})b;\n",
        order[0].1
    );
    for (k, &(n, stride)) in order.iter().enumerate().skip(1) {
        if k + 1 == order.len() {
            let _ = writeln!(s, "  pos += ({pt})c * {stride};");
        } else {
            let _ = writeln!(s, "  pos += ({pt})(c % {n}u) * {stride}; c /= {n}u;");
        }
    }
    s
}

/// How an access is addressed: element `off` of the packed pencils (cuFFT's callback form,
/// `fftx_ld{k}` / `fftx_st{k}`, for the gather/scatter way) or element `j` of pencil `b` (the
/// pencil form `fftx_ldp{k}` / `fftx_stp{k}` that `cudagen::fused_pass` calls).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Offset,
    Pencil,
}

/// The load and store of pass `k` along `axis` in `form`: one element of the pass's pencils
/// (the axis fastest) from `load` and to `store`, through the table `info` = {input, output,
/// scratch}. A complex binary16 element whose scalars are all an even number apart is read and
/// written as one 32-bit word when the array is 4-byte aligned (a test of the table's address,
/// the same in every thread): half the memory instructions of two 16-bit accesses.
fn access(p: &Problem, k: usize, axis: usize, load: Place, store: Place, form: Form) -> String {
    let mut s = String::new();
    let real_in = load == (Place::User { input: true }) && !p.kind.input_is_complex();
    let real_out = store == (Place::User { input: false }) && !p.kind.output_is_complex();
    let shape_of = |place: Place| match place {
        Place::User { input: true } => p.input_shape(),
        Place::User { input: false } => p.output_shape(),
        Place::Scratch => complex_shape(p),
    };
    for (place, is_load) in [(load, true), (store, false)] {
        let real = if is_load { real_in } else { real_out };
        let ty = if real { "fx_real" } else { "fx_cplx" };
        let slot = match place {
            Place::User { input: true } => 0,
            Place::User { input: false } => 1,
            Place::Scratch => 2,
        };
        let order = order(p, place, &shape_of(place), axis);
        let pos = match form {
            Form::Offset => position(&order),
            Form::Pencil => pencil_position(&order),
        };
        let words = order.iter().all(|&(_, stride)| stride % 2 == 0);
        let body = match (place, is_load, real) {
            (Place::Scratch, true, _) => "  return ((const fx_cplx*)a)[pos];".to_string(),
            (Place::Scratch, false, _) => "  ((fx_cplx*)a)[pos] = e;".to_string(),
            (_, true, true) => "  return fxh_f(((const unsigned short*)a)[pos]);".to_string(),
            (_, false, true) => "  ((unsigned short*)a)[pos] = fxh_h(e);".to_string(),
            (_, true, false) => format!(
                "{}  const unsigned short* h = (const unsigned short*)a; return make_float2(fxh_f(h[pos]), fxh_f(h[pos + 1]));",
                if words { "  if (!(a & 3)) { const unsigned w = ((const unsigned*)a)[pos >> 1]; return make_float2(fxh_f((unsigned short)w), fxh_f((unsigned short)(w >> 16))); }\n" } else { "" }
            ),
            (_, false, false) => format!(
                "{}  unsigned short* h = (unsigned short*)a; h[pos] = fxh_h(e.x); h[pos + 1] = fxh_h(e.y);",
                if words { "  if (!(a & 3)) { ((unsigned*)a)[pos >> 1] = (unsigned)fxh_h(e.x) | ((unsigned)fxh_h(e.y) << 16); return; }\n" } else { "" }
            ),
        };
        let head = match (form, is_load) {
            (Form::Offset, true) => {
                format!("__device__ {ty} fftx_ld{k}(void* dataIn, u64 off, void* info, void* smem)")
            }
            (Form::Offset, false) => format!(
                "__device__ void fftx_st{k}(void* dataOut, u64 off, {ty} e, void* info, void* smem)"
            ),
            (Form::Pencil, true) => {
                format!(
                    "__device__ __forceinline__ {ty} fftx_ldp{k}(const u64* info, u64 b, i64 j)"
                )
            }
            (Form::Pencil, false) => format!(
                "__device__ __forceinline__ void fftx_stp{k}(const u64* info, u64 b, i64 j, {ty} e)"
            ),
        };
        let _ = writeln!(
            s,
            "{head} {{\n  const u64 a = ((const u64*)info)[{slot}];\n{pos}{body}\n}}"
        );
    }
    s
}

/// The element accesses of the gather/scatter way: `fftx_ld0` (element `off` of the packed
/// input, widened) and `fftx_st0` (element `off` of the packed output, rounded), the caller's
/// layout through the table `info` = {input address, output address}.
pub fn access_source(p: &Problem) -> String {
    let mut s = cudagen::prelude(Precision::F32);
    s += CONVERT;
    let last = p.dims.len() - 1;
    s += &access(
        p,
        0,
        last,
        Place::User { input: true },
        Place::User { input: false },
        Form::Offset,
    );
    s
}

/// The passes of the pass-kernel way, when every axis has one: (kind, axis, load, store), the
/// last axis first (the caller's contiguous axis) for c2c and r2c, the last axis last for c2r.
/// A 1-D in-place transform whose transforms share memory takes the gather/scatter way (a
/// block stores its pencils after loading them, but other blocks' pencils would overlap).
fn pass_plan(p: &Problem) -> Option<Vec<(Kind1d, usize, Place, Place)>> {
    let rank = p.dims.len();
    if rank == 1 && p.in_place && !p.batches_independent_in_place() {
        return None;
    }
    if p.dims
        .iter()
        .any(|d| fused_shape(d.n as usize, Precision::F32).is_none())
    {
        return None;
    }
    let axes: Vec<usize> = match p.kind {
        Kind::C2r => (0..rank).collect(),
        _ => (0..rank).rev().collect(),
    };
    let mut out = Vec::new();
    for (i, &axis) in axes.iter().enumerate() {
        let kind = match p.kind {
            Kind::Dft { sign } => Kind1d::Dft { sign },
            Kind::R2c if i == 0 => Kind1d::R2c,
            Kind::R2c => Kind1d::Dft { sign: -1 },
            Kind::C2r if i + 1 == rank => Kind1d::C2r,
            Kind::C2r => Kind1d::Dft { sign: 1 },
            _ => return None,
        };
        let load = if i == 0 {
            Place::User { input: true }
        } else {
            Place::Scratch
        };
        let store = if i + 1 == rank {
            Place::User { input: false }
        } else {
            Place::Scratch
        };
        out.push((kind, axis, load, store));
    }
    Some(out)
}

/// A pass kernel's name, its Pass, its batch (pencils) and whether its blocks loop over
/// groups of pencils (`cudagen::fused_pass`'s `looped`).
type PassLaunch = (String, Pass, u64, bool);

/// Whether the pass kernel of length `n` loops over groups of pencils, loading the next
/// group's inputs while it transforms the current one. That costs two registers an input of
/// the first stage; measured on the H100 (bench/results/2026-11-27-h100-half-direct-io.md,
/// 2^24 elements) it won where the first radix is at most 8 or every radix is a power of two
/// (256: 0.102 -> 0.077 ms, 768: 0.100 -> 0.077, 1024: 0.115 -> 0.088, 4096: 0.121 -> 0.107)
/// and lost for 1000 = 10^3 (0.116 -> 0.119) and 3072 = 16 x 12 x 16 (0.129 -> 0.143).
fn prefetches(n: usize) -> bool {
    crate::program::fftgen::radices(n)
        .is_some_and(|r| r[0] <= 8 || r.iter().all(|x| x.is_power_of_two()))
}

/// The pass kernels' source and each pass's launch.
fn pass_source(p: &Problem) -> Option<(String, Vec<PassLaunch>)> {
    let plan = pass_plan(p)?;
    let mut s = cudagen::prelude(Precision::F32);
    s += CONVERT;
    let mut passes = Vec::new();
    let cshape = complex_shape(p);
    let elems: isize = cshape.iter().product::<isize>() * p.howmany() as isize;
    for (k, &(kind, axis, load, store)) in plan.iter().enumerate() {
        let n = p.dims[axis].n as usize;
        let unit = |place: Place| match place {
            Place::Scratch => axis + 1 == p.dims.len(),
            Place::User { input } => {
                let (st, complex) = if input {
                    (p.dims[axis].is, p.kind.input_is_complex())
                } else {
                    (p.dims[axis].os, p.kind.output_is_complex())
                };
                st == 1 + complex as isize
            }
        };
        let seg = |contig: bool| SegMap {
            slot: 0,
            complex: true,
            base: 0,
            origin: vec![0, 0],
            strides: vec![0, if contig { 1 } else { 2 }],
            clip: vec![0..1, 0..n],
        };
        // One pencil per line of the complex data along the axis (the real side of an r2c's
        // first pass or a c2r's last has as many lines).
        let batch = (elems / cshape[axis]) as u64;
        let pass = Pass {
            kind,
            axis: 1,
            n,
            pencils: vec![0..batch as usize, 0..1],
            live_in: 0..kind.len_in(n),
            live_out: 0..kind.len_out(n),
            load: Side::Segments(vec![seg(unit(load))]),
            head: None,
            store: Side::Segments(vec![seg(unit(store))]),
            tail: None,
            mid: None,
        };
        s += &access(p, k, axis, load, store, Form::Pencil);
        let looped = prefetches(n) && cudagen::first_stage_direct(&pass, Precision::F32);
        s += &cudagen::fused_pass(k, &pass, Precision::F32, looped)?;
        passes.push((format!("fftx_pass{k}"), pass, batch, looped));
    }
    Some((s, passes))
}

/// The gather and scatter kernels around cuFFT: `fxh_gather(total, P, out)` widens the input
/// into packed f32, `fxh_scatter(total, P, in)` rounds packed f32 into the output.
fn gather_scatter_source(p: &Problem) -> String {
    const GRID: &str = "for (u64 off = (u64)blockIdx.x * blockDim.x + threadIdx.x; off < total; off += (u64)gridDim.x * blockDim.x)";
    let ti = if p.kind.input_is_complex() {
        "fx_cplx"
    } else {
        "fx_real"
    };
    let to = if p.kind.output_is_complex() {
        "fx_cplx"
    } else {
        "fx_real"
    };
    format!(
        "{}extern \"C\" __global__ void fxh_gather(u64 total, const u64* P, {ti}* out) {{ {GRID} out[off] = fftx_ld0(0, off, (void*)P, 0); }}\nextern \"C\" __global__ void fxh_scatter(u64 total, const u64* P, const {ti2}* in) {{ {GRID} fftx_st0(0, off, in[off], (void*)P, 0); }}\n",
        access_source(p),
        ti2 = to
    )
}

/// cuFFT's own half-precision transform (`cufftXtMakePlanMany` with CUDA_C_16F / CUDA_R_16F:
/// powers of two only, fp16 arithmetic inside cuFFT): on an H200 1.2-3.9x faster than the f32
/// ways (bench/results/2026-11-26-h200-tensor-cores-half.md), with errors of 1e-3-2e-3 (the f32
/// ways: 2e-4), inside the 1e-3 log2 N of fftxh plans. Taken for powers of two under
/// `FFTX_HALF_COMPUTE=f16` only: by default plans accumulate in f32, as `fftx.h` says.
struct XtPlan {
    handle: i32,
    device: Arc<Device>,
    sign: i32,
}

type XtMakePlanMany = unsafe extern "C" fn(
    i32,
    i32,
    *mut i64,
    *mut i64,
    i64,
    i64,
    i32,
    *mut i64,
    i64,
    i64,
    i32,
    i64,
    *mut usize,
    i32,
) -> cudarc::cufft::sys::cufftResult;
type XtExec = unsafe extern "C" fn(
    i32,
    *mut std::ffi::c_void,
    *mut std::ffi::c_void,
    i32,
) -> cudarc::cufft::sys::cufftResult;

/// The two cufftXt entry points, loaded by hand (cudarc does not bind cufftXt).
fn xt() -> Option<(XtMakePlanMany, XtExec)> {
    static F: once_cell::sync::Lazy<Option<(usize, usize)>> = once_cell::sync::Lazy::new(|| {
        std::panic::catch_unwind(|| {
            // SAFETY: the symbols have the declared C signatures in cufftXt.h (CUDA 12, 13).
            unsafe {
                let lib = cudarc::cufft::sys::culib();
                let make = lib.get::<XtMakePlanMany>(b"cufftXtMakePlanMany\0").ok()?;
                let exec = lib.get::<XtExec>(b"cufftXtExec\0").ok()?;
                Some((*make as usize, *exec as usize))
            }
        })
        .ok()
        .flatten()
    });
    // SAFETY: addresses of functions of those types (above).
    F.map(|(m, e)| unsafe {
        (
            std::mem::transmute::<usize, XtMakePlanMany>(m),
            std::mem::transmute::<usize, XtExec>(e),
        )
    })
}

/// cuFFT's advanced layout (embed, stride, dist in elements) of one side, when its strides are
/// one: positive, row-major with whole embeddings, one loop at most.
fn advanced(
    shape: &[isize],
    strides: &[isize],
    loops: &[(isize, isize)],
    unit: isize,
) -> Option<(Vec<i64>, i64, i64)> {
    if strides.iter().any(|&s| s <= 0 || s % unit != 0) {
        return None;
    }
    let s: Vec<isize> = strides.iter().map(|&x| x / unit).collect();
    let r = s.len();
    let mut embed = vec![shape[0] as i64; r];
    for d in 1..r {
        if s[d - 1] % s[d] != 0 || s[d - 1] / s[d] < shape[d] {
            return None;
        }
        embed[d] = (s[d - 1] / s[d]) as i64;
    }
    let live: Vec<&(isize, isize)> = loops.iter().filter(|l| l.0 > 1).collect();
    let dist = match live.as_slice() {
        [] => 1,
        [(_, st)] if *st > 0 && st % unit == 0 => st / unit,
        _ => return None,
    };
    Some((embed, s[r - 1] as i64, dist as i64))
}

impl XtPlan {
    fn new(p: &Problem, device: &Arc<Device>) -> Result<XtPlan> {
        let (make, _) = xt().ok_or_else(|| Error::unsupported("no cufftXtMakePlanMany"))?;
        let unsupported = |why: &str| Err(Error::unsupported(why.to_string()));
        if !p
            .dims
            .iter()
            .all(|d| d.n >= 2 && (d.n as u64).is_power_of_two())
        {
            return unsupported("cuFFT fp16 takes powers of two");
        }
        let side = |input: bool| {
            let (shape, complex) = if input {
                (p.input_shape(), p.kind.input_is_complex())
            } else {
                (p.output_shape(), p.kind.output_is_complex())
            };
            let strides: Vec<isize> = p
                .dims
                .iter()
                .map(|d| if input { d.is } else { d.os })
                .collect();
            let loops: Vec<(isize, isize)> = p
                .loops
                .iter()
                .map(|d| (d.n, if input { d.is } else { d.os }))
                .collect();
            advanced(&shape, &strides, &loops, 1 + complex as isize)
        };
        let (Some((mut ie, is, id)), Some((mut oe, os, od))) = (side(true), side(false)) else {
            return unsupported("a layout cuFFT's advanced interface cannot express");
        };
        let (c16, r16) = (6, 2); // cudaDataType CUDA_C_16F, CUDA_R_16F
        let (ti, to, sign) = match p.kind {
            Kind::Dft { sign } => (c16, c16, sign),
            Kind::R2c => (r16, c16, -1),
            _ => (c16, r16, 1),
        };
        let batch: i64 = p.loops.iter().map(|d| d.n as i64).product();
        let mut n: Vec<i64> = p.dims.iter().map(|d| d.n as i64).collect();
        device.bind()?;
        let _lock = super::CREATE_LOCK.lock();
        let mut handle = 0;
        // SAFETY: cufftCreate writes a handle.
        let r = unsafe { cudarc::cufft::sys::cufftCreate(&mut handle) };
        if r != cudarc::cufft::sys::cufftResult::CUFFT_SUCCESS {
            return Err(Error::cuda(format!("cufftCreate: {r:?}")));
        }
        let plan = XtPlan {
            handle,
            device: device.clone(),
            sign,
        };
        let mut work = 0usize;
        // SAFETY: arrays of rank elements, read during the call; the execution type of half
        // data is CUDA_C_16F.
        let r = unsafe {
            make(
                handle,
                n.len() as i32,
                n.as_mut_ptr(),
                ie.as_mut_ptr(),
                is,
                id,
                ti,
                oe.as_mut_ptr(),
                os,
                od,
                to,
                batch,
                &mut work,
                c16,
            )
        };
        if r != cudarc::cufft::sys::cufftResult::CUFFT_SUCCESS {
            return Err(Error::cuda(format!("cufftXtMakePlanMany (fp16): {r:?}")));
        }
        Ok(plan)
    }

    unsafe fn exec(&self, input: u64, output: u64) -> Result<()> {
        let (_, exec) = xt().ok_or_else(|| Error::unsupported("no cufftXtExec"))?;
        let r = exec(self.handle, input as *mut _, output as *mut _, self.sign);
        if r != cudarc::cufft::sys::cufftResult::CUFFT_SUCCESS {
            return Err(Error::cuda(format!("cufftXtExec: {r:?}")));
        }
        Ok(())
    }
}

impl Drop for XtPlan {
    fn drop(&mut self) {
        if !self.device.is_lost() && self.device.bind().is_ok() {
            // SAFETY: created by cufftCreate, destroyed once.
            unsafe { cudarc::cufft::sys::cufftDestroy(self.handle) };
        }
    }
}

/// `FFTX_HALF_COMPUTE=f16`: cuFFT's fp16 arithmetic for powers of two (faster, less
/// accurate); otherwise only the f32 ways.
fn fp16_arithmetic() -> bool {
    std::env::var("FFTX_HALF_COMPUTE").is_ok_and(|v| v.trim() == "f16")
}

/// Why the GPU cannot run `p` as a half-storage transform (None: it can try).
pub fn unsupported(p: &Problem) -> Option<String> {
    if !(1..=3).contains(&p.dims.len()) {
        return Some(format!(
            "rank {} (the GPU's half transforms take rank 1 to 3)",
            p.dims.len()
        ));
    }
    if !matches!(p.kind, Kind::Dft { .. } | Kind::R2c | Kind::C2r) {
        return Some(format!("{} transforms", p.kind.name()));
    }
    let elements: isize = p.dims.iter().chain(&p.loops).map(|d| d.n).product();
    if elements <= 0 {
        return Some("an empty transform".into());
    }
    None
}

/// Device memory owned by a half plan.
struct Block {
    ptr: u64,
    device: Arc<Device>,
}

impl Block {
    fn new(device: &Arc<Device>, bytes: usize) -> Result<Block> {
        if bytes > super::device_budget() {
            return Err(Error::new(
                ErrorKind::OutOfDeviceMemory,
                format!("out of memory: {bytes} bytes over the FFTX_GPU_MEMORY budget"),
            ));
        }
        device.bind()?;
        let mut d = 0;
        // SAFETY: cuMemAlloc writes the address of a new block.
        check(
            unsafe { cu::cuMemAlloc_v2(&mut d, bytes.max(16)) },
            "cuMemAlloc",
        )?;
        Ok(Block {
            ptr: d,
            device: device.clone(),
        })
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        if !self.device.is_lost() && self.device.bind().is_ok() {
            // SAFETY: allocated by Block::new, freed once.
            unsafe { cu::cuMemFree_v2(self.ptr) };
        }
    }
}

/// How a half transform runs.
enum Way {
    /// cuFFT's fp16 transform on the caller's arrays.
    Fp16(XtPlan),
    /// Pass kernels, one per axis: (function, grid, block, batch) each, and the f32 scratch
    /// between them (rank 2 and 3).
    Passes(Vec<(usize, u32, u32, u64)>, Option<Block>),
    /// Gather into `scratch[0]`, cuFFT (`scratch[0]` -> `scratch.last()`), scatter.
    Cufft {
        plan: CufftPlan,
        gather: usize,
        scatter: usize,
        sign: i32,
        scratch: Vec<Block>,
        total_in: u64,
        total_out: u64,
    },
}

/// A half-storage transform on one device.
pub struct HalfGpu {
    way: Way,
    device: Arc<Device>,
    /// The kernels' table: the caller's input and output addresses.
    table: Block,
    /// The addresses in `table`; held while a transform runs (one at a time per plan).
    current: Mutex<(u64, u64)>,
}

fn module(device: &Device, source: &str) -> Result<usize> {
    match compile_generated(device, source, false)? {
        Generated::Module(m) => Ok(m),
        Generated::Lto(_) => Err(Error::new(ErrorKind::Internal, "NVRTC gave LTO-IR")),
    }
}

/// The pass kernels' way.
fn passes_way(
    p: &Problem,
    device: &Arc<Device>,
    source: &str,
    passes: &[PassLaunch],
) -> Result<Way> {
    let m = module(device, source)?;
    let mut launches = Vec::new();
    for (name, pass, batch, looped) in passes {
        let shape = fused_shape(pass.n, Precision::F32).expect("pass_plan checked the shape");
        let per_block =
            cudagen::pencils_per_block(pass, Precision::F32).unwrap_or(shape.pencils) as u64;
        let f = generated_function(m, name)? as usize;
        let groups = batch.div_ceil(per_block);
        let grid = if *looped {
            resident_grid(device, f, shape.threads as u32, groups)
        } else {
            groups
        };
        if grid > i32::MAX as u64 {
            return Err(Error::unsupported(format!("{grid} blocks")));
        }
        launches.push((f, grid as u32, shape.threads as u32, *batch));
    }
    let scratch = if passes.len() > 1 {
        let elems: isize = complex_shape(p).iter().product::<isize>() * p.howmany() as isize;
        Some(Block::new(device, elems as usize * 8)?)
    } else {
        None
    };
    Ok(Way::Passes(launches, scratch))
}

/// The gather, cuFFT f32, scatter way.
fn cufft_way(p: &Problem, device: &Arc<Device>) -> Result<Way> {
    let m = module(device, &gather_scatter_source(p))?;
    let n: Vec<i64> = p.dims.iter().map(|d| d.n as i64).collect();
    let batch: i64 = p.loops.iter().map(|d| d.n as i64).product();
    let (ty, sign) = match p.kind {
        Kind::Dft { sign } => (FftType::C2c, sign),
        Kind::R2c => (FftType::R2c, -1),
        _ => (FftType::C2r, 1),
    };
    let (ishape, oshape) = (p.input_shape(), p.output_shape());
    let count = |s: &[isize]| s.iter().product::<isize>() as i64 * batch;
    let layout = |s: &[isize]| Layout::packed(&s.iter().map(|&x| x as i64).collect::<Vec<_>>());
    let plan = CufftPlan::new(
        &n,
        &layout(&ishape),
        &layout(&oshape),
        batch,
        ty,
        Precision::F32,
    )?;
    let (ci, co) = (p.kind.input_is_complex(), p.kind.output_is_complex());
    let (bi, bo) = (
        count(&ishape) as usize * if ci { 8 } else { 4 },
        count(&oshape) as usize * if co { 8 } else { 4 },
    );
    let scratch = if ty == FftType::C2c {
        vec![Block::new(device, bi)?]
    } else {
        vec![Block::new(device, bi)?, Block::new(device, bo)?]
    };
    Ok(Way::Cufft {
        plan,
        gather: generated_function(m, "fxh_gather")? as usize,
        scatter: generated_function(m, "fxh_scatter")? as usize,
        sign,
        scratch,
        total_in: count(&ishape) as u64,
        total_out: count(&oshape) as u64,
    })
}

impl HalfGpu {
    /// Plans `p` (strides in binary16 scalars) on the default device.
    pub fn new(p: &Problem) -> Result<HalfGpu> {
        if let Some(why) = unsupported(p) {
            return Err(Error::unsupported(why));
        }
        let device = super::default_device().ok_or_else(|| Error::unsupported("no GPU"))?;
        device.bind()?;
        let table = Block::new(&device, 24)?;
        let fp16 = if !fp16_arithmetic() {
            None
        } else {
            XtPlan::new(p, &device)
                .map_err(|e| {
                    crate::log::log_info!(
                        "fftxh: no cuFFT fp16 for {}: {}",
                        p.describe(),
                        e.message
                    )
                })
                .ok()
        };
        // Our pass kernels for 1-D transforms, gather + cuFFT f32 + scatter for c2c of rank 2-3
        // (r2c and c2r of rank 2-3 keep the pass kernels, the way the device tests ran). On
        // an H200 (bench/results/2026-11-26-h200-tensor-cores-half.md) gather and scatter cost
        // about 0.13 ms over cuFFT f32's time at 2^24 elements (4096 ... 2^20, 3125 points), so
        // that way is estimated at 0.20-0.22 ms for 256-1024 and 768 points, where the pass
        // kernels took 0.14-0.18 ms (1000 points: 0.23 against 0.20), and at 0.26-0.39 ms for
        // the 2-D and 3-D cases, where the passes through an f32 scratch took 0.29-0.72 ms
        // (estimates from measured parts; the rank 2-3 gather way itself was not timed). The
        // pass kernels remain the way when cuFFT cannot plan.
        let passes = pass_source(p);
        let way = match (fp16, passes) {
            (Some(plan), _) => Way::Fp16(plan),
            (None, Some((source, passes)))
                if p.dims.len() == 1 || !matches!(p.kind, Kind::Dft { .. }) =>
            {
                passes_way(p, &device, &source, &passes)?
            }
            (None, passes) => match (cufft_way(p, &device), passes) {
                (Ok(way), _) => way,
                (Err(e), Some((source, passes))) => {
                    crate::log::log_info!(
                        "fftxh: cuFFT f32 cannot plan {} ({}): pass kernels",
                        p.describe(),
                        e.message
                    );
                    passes_way(p, &device, &source, &passes)?
                }
                (Err(e), None) => return Err(e),
            },
        };
        Ok(HalfGpu {
            way,
            device,
            table,
            current: Mutex::new((u64::MAX, u64::MAX)),
        })
    }

    /// Transforms the device arrays at `input` and `output` (binary16, the problem's layout;
    /// the addresses are those of scalar 0, as the caller's pointers).
    ///
    /// # Safety
    /// Both must be device memory holding every element the problem addresses.
    pub unsafe fn run(&self, input: u64, output: u64) -> Result<()> {
        use std::ffi::c_void;
        let mut current = self.current.lock();
        self.device.bind()?;
        if *current != (input, output) {
            let scratch = match &self.way {
                Way::Passes(_, Some(b)) => b.ptr,
                _ => 0,
            };
            let words = [input, output, scratch];
            check(
                cu::cuMemcpyHtoD_v2(self.table.ptr, words.as_ptr() as *const _, 24),
                "cuMemcpyHtoD",
            )?;
            *current = (input, output);
        }
        let stream = std::ptr::null_mut();
        let mut table = self.table.ptr;
        match &self.way {
            Way::Fp16(plan) => plan.exec(input, output)?,
            Way::Passes(launches, _) => {
                for &(f, grid, block, batch) in launches {
                    let f = f as cu::CUfunction;
                    super::kernels::launch_pass(f, (grid, block), stream, batch, table)?;
                }
            }
            Way::Cufft {
                plan,
                gather,
                scatter,
                sign,
                scratch,
                total_in,
                total_out,
            } => {
                let a = scratch[0].ptr;
                let b = scratch.last().map_or(a, |s| s.ptr);
                let (mut ti, mut to, mut pa, mut pb) = (*total_in, *total_out, a, b);
                super::kernels::launch(
                    &self.device,
                    *gather as cu::CUfunction,
                    ti,
                    stream,
                    &mut [
                        &mut ti as *mut u64 as *mut c_void,
                        &mut table as *mut u64 as *mut c_void,
                        &mut pa as *mut u64 as *mut c_void,
                    ],
                )?;
                plan.exec(a, b, *sign)?;
                super::kernels::launch(
                    &self.device,
                    *scatter as cu::CUfunction,
                    to,
                    stream,
                    &mut [
                        &mut to as *mut u64 as *mut c_void,
                        &mut table as *mut u64 as *mut c_void,
                        &mut pb as *mut u64 as *mut c_void,
                    ],
                )?;
            }
        }
        check(cu::cuStreamSynchronize(stream), "cuStreamSynchronize")
    }

    pub fn describe(&self) -> String {
        match &self.way {
            Way::Fp16(_) => format!(
                "gpu {}: cuFFT fp16 (cufftXtMakePlanMany, CUDA_C_16F: fp16 arithmetic, about 1e-3 relative error, as FFTX_HALF_COMPUTE=f16 asks)",
                self.device.name
            ),
            Way::Passes(l, _) => format!(
                "gpu {}: {} pass kernel{} (shared-memory Stockham in f32, one per axis{}), binary16 widened on load and rounded to nearest even on store",
                self.device.name,
                l.len(),
                if l.len() > 1 { "s" } else { "" },
                if l.len() > 1 { ", f32 scratch between" } else { "" }
            ),
            Way::Cufft { plan, .. } => format!(
                "gpu {}: gather kernel (binary16 -> packed f32), cuFFT f32 (work {} bytes), scatter kernel (f32 -> binary16, nearest even)",
                self.device.name, plan.work_bytes
            ),
        }
    }

    /// Copies `bytes` bytes from host `src` to device `dst` (host-array executes).
    ///
    /// # Safety
    /// Valid ranges on both sides.
    pub unsafe fn upload(&self, dst: u64, src: *const u8, bytes: usize) -> Result<()> {
        self.device.bind()?;
        check(
            cu::cuMemcpyHtoD_v2(dst, src as *const _, bytes),
            "cuMemcpyHtoD",
        )
    }

    /// Copies `bytes` bytes from device `src` to host `dst`.
    ///
    /// # Safety
    /// Valid ranges on both sides.
    pub unsafe fn download(&self, dst: *mut u8, src: u64, bytes: usize) -> Result<()> {
        self.device.bind()?;
        check(
            cu::cuMemcpyDtoH_v2(dst as *mut _, src, bytes),
            "cuMemcpyDtoH",
        )
    }

    /// A device block of `bytes` bytes owned by the returned handle (host-array staging).
    pub fn block(&self, bytes: usize) -> Result<DeviceBlock> {
        Block::new(&self.device, bytes).map(DeviceBlock)
    }
}

/// Device memory a host-array execute stages binary16 data through.
pub struct DeviceBlock(Block);

impl DeviceBlock {
    pub fn ptr(&self) -> u64 {
        self.0.ptr
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::IoDim;

    fn problem(kind: Kind, dims: Vec<IoDim>, loops: Vec<IoDim>) -> Problem {
        Problem {
            kind,
            dims,
            loops,
            precision: Precision::F32,
            in_place: false,
        }
    }

    /// The element accesses address the caller's layout: the packed offset's axes from the
    /// last, the batch over the loops, strides as given (in binary16 scalars).
    #[test]
    fn accesses_follow_the_callers_strides() {
        let p = problem(
            Kind::Dft { sign: -1 },
            vec![IoDim::new(12, 2 * 5, 2 * 3), IoDim::new(5, 2, 2 * 40)],
            vec![IoDim::new(7, 2 * 60, 2)],
        );
        let s = access_source(&p);
        assert!(
            s.contains("i = r % 5ULL; r /= 5ULL; pos += (i64)i * (i64)2;"),
            "{s}"
        );
        assert!(
            s.contains("i = r % 12ULL; r /= 12ULL; pos += (i64)i * (i64)10;"),
            "{s}"
        );
        assert!(s.contains("pos += (i64)r * (i64)120;"), "{s}");
        assert!(s.contains("pos += (i64)r * (i64)2;"), "{s}");
        assert!(s.contains("make_float2(fxh_f(h[pos]), fxh_f(h[pos + 1]))"));
        assert!(gather_scatter_source(&p)
            .contains("fxh_scatter(u64 total, const u64* P, const fx_cplx* in)"));
        // Two passes: the last axis (5) from the caller's input into the scratch, then the
        // first (12) from the scratch (packed: 5 complex apart along it, 60 between
        // transforms) into the caller's output.
        let (src, passes) = pass_source(&p).expect("12 and 5 have pass kernels");
        assert_eq!(passes.len(), 2);
        assert_eq!((passes[0].1.n, passes[0].2), (5, 12 * 7));
        assert_eq!((passes[1].1.n, passes[1].2), (12, 5 * 7));
        // The pass kernels address element j of pencil b (32-bit divisions of b over the
        // other axes and the loops), complex binary16 elements as one 32-bit word.
        let st0 = &src[src.find("fftx_stp0").unwrap()..];
        assert!(
            st0.contains("[2];")
                && st0.contains("int pos = (int)j * 1;")
                && st0.contains("pos += (int)(c % 12u) * 5; c /= 12u;")
                && st0.contains("pos += (int)c * 60;"),
            "{st0}"
        );
        let ld1 = &src[src.find("fftx_ldp1").unwrap()..];
        assert!(
            ld1.contains("int pos = (int)j * 5;")
                && ld1.contains("pos += (int)(c % 5u) * 1; c /= 5u;"),
            "{ld1}"
        );
        let st1 = &src[src.find("fftx_stp1").unwrap()..];
        assert!(
            st1.contains("[1];")
                && st1.contains("int pos = (int)j * 6;")
                && st1.contains("pos += (int)(c % 5u) * 80; c /= 5u;")
                && st1.contains("pos += (int)c * 2;")
                && st1.contains("if (!(a & 3)) { ((unsigned*)a)[pos >> 1] ="),
            "{st1}"
        );
        let ld0 = &src[src.find("fftx_ldp0").unwrap()..];
        assert!(ld0.contains("const unsigned w = ((const unsigned*)a)[pos >> 1];"));
        // r2c: real loads, complex stores over n/2+1 on the last axis; one pass.
        let p = problem(
            Kind::R2c,
            vec![IoDim::new(10, 1, 2)],
            vec![IoDim::new(3, 10, 12)],
        );
        let s = access_source(&p);
        assert!(s.contains("__device__ fx_real fftx_ld0"), "{s}");
        assert!(s.contains("fx_cplx e"), "{s}");
        assert!(s.contains("i = r % 6ULL;"), "{s}");
        assert_eq!(unsupported(&p), None);
        let (_, passes) = pass_source(&p).expect("n = 10 is one pass");
        assert_eq!((passes.len(), passes[0].1.n, passes[0].2), (1, 10, 3));
        // A c2r of rank 2: the first axis first (c2c backward), the real last axis last.
        let p = problem(
            Kind::C2r,
            vec![IoDim::new(6, 2 * 5, 8), IoDim::new(8, 2, 1)],
            vec![],
        );
        let plan = pass_plan(&p).unwrap();
        assert_eq!(plan[0].0, Kind1d::Dft { sign: 1 });
        assert_eq!((plan[1].0, plan[1].1), (Kind1d::C2r, 1));
        // Lengths with a prime factor over 16 take cuFFT.
        let p17 = problem(
            Kind::Dft { sign: 1 },
            vec![IoDim::new(17 * 3, 2, 2)],
            vec![],
        );
        assert!(pass_source(&p17).is_none());
        let p4 = problem(Kind::Dft { sign: 1 }, vec![IoDim::new(2, 2, 2); 4], vec![]);
        assert!(unsupported(&p4).unwrap().contains("rank 4"));
    }

    /// The pass kernels loop over groups of pencils, prefetching the next group's inputs, only
    /// for the lengths where that measured faster; the others keep one group a block.
    #[test]
    fn pass_kernels_prefetch_where_it_measured_faster() {
        for (n, looped) in [
            (256, true),
            (768, true),
            (1024, true),
            (4096, true),
            (1000, false),
            (3072, false),
        ] {
            assert_eq!(prefetches(n), looped, "n = {n}");
            let p = problem(
                Kind::Dft { sign: -1 },
                vec![IoDim::new(n as isize, 2, 2)],
                vec![IoDim::new(64, 2 * n as isize, 2 * n as isize)],
            );
            let (src, passes) = pass_source(&p).unwrap();
            assert_eq!(passes[0].3, looped);
            assert_eq!(
                src.contains("for (u64 g = blockIdx.x; g < groups; g += gridDim.x)"),
                looped
            );
            assert_eq!(
                src.contains("    pf0 = (live ? fftx_ldp0(P, b, (t + 0))"),
                looped
            );
            assert!(
                src.contains("u0 = pf0;") == looped
                    && src.contains("u0 = (live ? fftx_ldp0(P, b, (t + 0))") != looped
            );
        }
        // 16 points: a power of two, but one stage of one thread a pencil, loaded through
        // shared memory: nothing to prefetch, no loop.
        assert!(prefetches(16));
        let p16 = problem(
            Kind::Dft { sign: -1 },
            vec![IoDim::new(16, 2, 2)],
            vec![IoDim::new(64, 32, 32)],
        );
        let (src, passes) = pass_source(&p16).unwrap();
        assert!(!passes[0].3 && !src.contains("groups"));
        // An r2c of rank 2: the packed real pass and the strided pass over the scratch load
        // through shared memory: no loop.
        let p = problem(
            Kind::R2c,
            vec![IoDim::new(256, 2 * 256, 2 * 129), IoDim::new(256, 1, 2)],
            vec![],
        );
        let (_, passes) = pass_source(&p).unwrap();
        assert_eq!(
            passes.iter().map(|l| l.3).collect::<Vec<_>>(),
            [false, false]
        );
    }

    /// cuFFT's advanced layouts: row-major with whole embeddings, one loop at most, positive
    /// strides; anything else takes the f32 ways.
    #[test]
    fn advanced_layouts() {
        // 2-D 8x4 complex, rows padded to 6 elements, element stride 1, 60 apart (scalars x2).
        assert_eq!(
            advanced(&[8, 4], &[12, 2], &[(3, 120)], 2),
            Some((vec![8, 6], 1, 60))
        );
        // Strided: 3 elements apart.
        assert_eq!(advanced(&[16], &[6], &[], 2), Some((vec![16], 3, 1)));
        // Real side of an in-place r2c of 16: padded to 18.
        assert_eq!(
            advanced(&[4, 16], &[18, 1], &[], 1),
            Some((vec![4, 18], 1, 1))
        );
        assert_eq!(advanced(&[16], &[-2], &[], 2), None);
        assert_eq!(advanced(&[4, 8], &[2, 8], &[], 2), None, "column-major");
        assert_eq!(
            advanced(&[8], &[2], &[(2, 16), (3, 32)], 2),
            None,
            "two loops"
        );
    }
}
