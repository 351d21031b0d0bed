//! Runs a [`Program`] on the GPU: its device temporaries in device memory, one CUDA stream per
//! program stream, one CUDA event per event id, `Fft` steps as cuFFT plans, `Twiddle` steps and
//! device-side strided copies as NVRTC kernels of this file.
//!
//! The caller's arrays (and host or pinned temporaries) are host memory: a transfer between
//! host and device travels through a pinned staging block of its stream, the host side
//! gathered into it (or scattered out of it) by the host thread in program order. A
//! device-to-host transfer waits for its stream before scattering, so host memory is always
//! what the steps so far made it, and only device memory is ordered by the streams and events
//! of the program. The reference semantics are `exec::cpu::program` (the twiddle kernel
//! computes exactly what its twin there does).
//!
//! Not run on a GPU yet where this was written: checked by compilation and by the unit tests
//! of the layout mappings below; `tests/gpu.rs` compares it with the CPU program on a device.

use super::cufft::{CufftPlan, FftType, Layout};
use super::kernels::{compile_generated, generated_function, launch, Generated};
use super::{check, default_device, device_budget, Device, Error, ErrorKind, Result};
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cpu::program::{host_transfer, Base};
use crate::problem::{IoDim, Kind, Problem};
use crate::program::{Placement, Program, Role, Step};
use crate::real::Real;
use cudarc::driver::sys as cu;
use parking_lot::Mutex;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::Arc;

/// Most axes of a device-side strided copy.
const MAX_RANK: usize = 6;
/// Most `rest` axes of a twiddle step.
const MAX_REST: usize = 4;

/// The copy kernel's box (layout shared with `CopyBox` in [`SOURCE`]).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CopyBox {
    n: [i64; MAX_RANK],
    is: [i64; MAX_RANK],
    os: [i64; MAX_RANK],
    rank: i64,
    complex: i64,
}

/// The twiddle kernel's arguments (layout shared with `TwiddleArgs` in [`SOURCE`]).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct TwiddleArgs {
    rows_n: i64,
    rows_s: i64,
    cols_n: i64,
    cols_s: i64,
    first_col: u64,
    n: u64,
    sign: i64,
    rest_rank: i64,
    rest_n: [i64; MAX_REST],
    rest_s: [i64; MAX_REST],
}

/// The kernels, `REAL` replaced by `float` or `double`. The twiddle is the CPU twin's:
/// k·(first_col + j) mod n in 64-bit integers, the angle in double, rounded to `real` once,
/// then the complex product in `real` without contraction into FMAs.
const SOURCE: &str = r#"
typedef REAL real;
struct CopyBox { long long n[6]; long long is[6]; long long os[6]; long long rank; long long complex; };
struct TwiddleArgs {
    long long rows_n, rows_s, cols_n, cols_s;
    unsigned long long first_col, n;
    long long sign, rest_rank;
    long long rest_n[4]; long long rest_s[4];
};
__device__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ float sub_rn(float a, float b) { return __fsub_rn(a, b); }
__device__ double sub_rn(double a, double b) { return __dsub_rn(a, b); }
__device__ unsigned long long mulmod(unsigned long long a, unsigned long long b,
                                     unsigned long long n) {
    a %= n; b %= n;
    if (n <= 4294967296ULL) return (a * b) % n;
    unsigned long long r = 0;
    while (b) {
        if (b & 1) { r += a; if (r >= n) r -= n; }
        a += a; if (a >= n) a -= n;
        b >>= 1;
    }
    return r;
}
extern "C" __global__ void fftx_program_copy(const real* src, real* dst, CopyBox b,
                                             unsigned long long total) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < total; i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long r = i;
        long long s = 0, d = 0;
        for (int k = (int)b.rank - 1; k >= 0; --k) {
            long long c = (long long)(r % (unsigned long long)b.n[k]);
            r /= (unsigned long long)b.n[k];
            s += c * b.is[k];
            d += c * b.os[k];
        }
        dst[d] = src[s];
        if (b.complex) dst[d + 1] = src[s + 1];
    }
}
extern "C" __global__ void fftx_program_twiddle(real* x, TwiddleArgs t, unsigned long long total) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < total; i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long r = i;
        long long o = 0;
        for (int k = (int)t.rest_rank - 1; k >= 0; --k) {
            long long c = (long long)(r % (unsigned long long)t.rest_n[k]);
            r /= (unsigned long long)t.rest_n[k];
            o += c * t.rest_s[k];
        }
        unsigned long long j = r % (unsigned long long)t.cols_n;
        unsigned long long k = r / (unsigned long long)t.cols_n;
        o += (long long)k * t.rows_s + (long long)j * t.cols_s;
        unsigned long long m = mulmod(k, t.first_col + j, t.n);
        double a = (double)t.sign * 2.0 * 3.141592653589793 * (double)m / (double)t.n;
        real wr = (real)cos(a), wi = (real)sin(a);
        real xr = x[o], xi = x[o + 1];
        x[o] = sub_rn(mul_rn(xr, wr), mul_rn(xi, wi));
        x[o + 1] = add_rn(mul_rn(xr, wi), mul_rn(xi, wr));
    }
}
"#;

/// A stream's pinned staging block, and a device scratch block for transfers whose device side
/// is not contiguous (packed there, then scattered by the copy kernel).
struct Staging {
    host: usize,
    bytes: usize,
    scratch: u64,
    /// Recorded after the last copy out of `host`: the host waits for it before refilling.
    free: cu::CUevent,
}

/// A program made ready on the GPU.
pub struct CudaProgram<T: Real> {
    program: Program,
    g: Arc<Device>,
    /// Per buffer: its device address (0 unless a device temporary).
    device: Vec<u64>,
    streams: Vec<cu::CUstream>,
    events: Vec<cu::CUevent>,
    plans: Vec<CufftPlan>,
    /// Per step: the index in `plans` of an `Fft` step's plan.
    step_plan: Vec<Option<usize>>,
    staging: Vec<Staging>,
    copy: cu::CUfunction,
    twiddle: cu::CUfunction,
    /// One run at a time (the staging blocks are shared).
    running: Mutex<()>,
    _t: PhantomData<T>,
}

// SAFETY: the handles belong to the process's primary context; runs are serialized by `running`.
unsafe impl<T: Real> Send for CudaProgram<T> {}
unsafe impl<T: Real> Sync for CudaProgram<T> {}

/// What a transfer is, by where its two sides are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Route {
    HostToHost,
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

fn on_device(p: &Program, buf: usize) -> bool {
    matches!(p.buffers[buf].placement, Placement::Device(_))
}

fn route(p: &Program, from: usize, to: usize) -> Route {
    match (on_device(p, from), on_device(p, to)) {
        (false, false) => Route::HostToHost,
        (false, true) => Route::HostToDevice,
        (true, false) => Route::DeviceToHost,
        (true, true) => Route::DeviceToDevice,
    }
}

fn elements(dims: &[IoDim]) -> usize {
    dims.iter().map(|d| d.n.max(0) as usize).product()
}

/// Is the box, with strides `stride(d)`, `step` scalars apart in element order (row-major)?
fn contiguous(dims: &[IoDim], stride: impl Fn(&IoDim) -> isize, step: isize) -> bool {
    let mut expected = step;
    for d in dims.iter().rev().filter(|d| d.n != 1) {
        if stride(d) != expected {
            return false;
        }
        expected *= d.n;
    }
    true
}

/// Row-major strides of the packed box, `step` scalars per element.
fn packed_strides(dims: &[IoDim], step: isize) -> Vec<isize> {
    let mut s = step;
    let mut out: Vec<isize> = dims
        .iter()
        .rev()
        .map(|d| {
            let here = s;
            s *= d.n.max(1);
            here
        })
        .collect();
    out.reverse();
    out
}

/// Checks that the program is one this executor runs (precision `T`).
fn supported<T: Real>(p: &Program) -> Result<()> {
    p.validate().map_err(Error::bad_input)?;
    for (i, b) in p.buffers.iter().enumerate() {
        match (b.role, b.placement) {
            (Role::Input | Role::Output, Placement::Host) => {}
            (Role::Input | Role::Output, pl) => {
                return Err(Error::unsupported(format!(
                    "gpu program: the caller's array b{i} must be host memory, not {}",
                    pl.name()
                )))
            }
            (_, Placement::Device(d)) if d != 0 => {
                return Err(Error::unsupported(format!(
                    "gpu program: buffer b{i} is on device {d}; this executor runs one device"
                )))
            }
            _ => {}
        }
    }
    for (i, s) in p.steps.iter().enumerate() {
        let bad = |what: String| Err(Error::unsupported(format!("gpu program: step {i}: {what}")));
        match s {
            Step::Transform { .. } => return bad("a whole-plan Transform step".into()),
            Step::Fft {
                problem,
                input,
                output,
                ..
            } => {
                if !on_device(p, input.buf) || !on_device(p, output.buf) {
                    return bad("an Fft step on host buffers".into());
                }
                if problem.precision != T::PRECISION {
                    return bad("an Fft step of the other precision".into());
                }
            }
            Step::Twiddle { at, rest, .. } => {
                if !on_device(p, at.buf) {
                    return bad("a Twiddle step on a host buffer".into());
                }
                if rest.len() > MAX_REST {
                    return bad(format!("a Twiddle step of more than {MAX_REST} rest axes"));
                }
            }
            Step::Transfer { dims, .. } if dims.len() > MAX_RANK => {
                return bad(format!("a Transfer of more than {MAX_RANK} axes"))
            }
            _ => {}
        }
    }
    Ok(())
}

/// cuFFT's view of one side of a transform: `embed` and `stride` (elements of `unit` scalars)
/// from the dims' strides (real scalars), which must nest (each a multiple of the next inner).
fn side_layout(strides: &[isize], shape: &[isize], unit: isize) -> Result<(Vec<i64>, i64)> {
    let r = strides.len();
    let mut s = vec![0isize; r];
    for i in (0..r).rev() {
        s[i] = if shape[i] == 1 {
            // A length-1 axis: any stride that nests.
            if i + 1 < r {
                s[i + 1] * shape[i + 1]
            } else {
                1
            }
        } else {
            if strides[i] <= 0 || strides[i] % unit != 0 {
                return Err(Error::unsupported(format!(
                    "gpu program: an Fft stride of {} real scalars is not a positive whole number of elements",
                    strides[i]
                )));
            }
            strides[i] / unit
        };
    }
    let mut embed = vec![shape[0] as i64];
    for i in 1..r {
        let ratio = s[i - 1] / s[i];
        if s[i - 1] % s[i] != 0 || ratio < shape[i] {
            return Err(Error::unsupported(format!(
                "gpu program: Fft strides {strides:?} (real scalars) do not nest as cuFFT's embed layout needs"
            )));
        }
        embed.push(ratio as i64);
    }
    Ok((embed, s[r - 1] as i64))
}

/// The loops as one batch of `n` transforms `idist`/`odist` elements apart; refuses loops that
/// do not collapse to one such dimension.
fn collapse_loops(loops: &[IoDim], iu: isize, ou: isize) -> Result<Option<(i64, i64, i64)>> {
    let mut l: Vec<IoDim> = loops.iter().copied().filter(|d| d.n != 1).collect();
    if l.is_empty() {
        return Ok(None);
    }
    l.sort_by_key(|d| std::cmp::Reverse(d.is));
    let mut cur = *l.last().expect("not empty");
    for d in l.iter().rev().skip(1) {
        if d.is != cur.is * cur.n || d.os != cur.os * cur.n {
            return Err(Error::unsupported(format!(
                "gpu program: the Fft loops {loops:?} do not collapse to one batch dimension"
            )));
        }
        cur.n *= d.n;
    }
    if cur.is <= 0 || cur.os <= 0 || cur.is % iu != 0 || cur.os % ou != 0 {
        return Err(Error::unsupported(format!(
            "gpu program: the Fft loops {loops:?} are not a positive whole number of elements apart"
        )));
    }
    Ok(Some((
        cur.n as i64,
        (cur.is / iu) as i64,
        (cur.os / ou) as i64,
    )))
}

/// A cuFFT plan's arguments for `p`: shape, input and output layouts, batch, type.
fn cufft_args(p: &Problem) -> Result<(Vec<i64>, Layout, Layout, i64, FftType)> {
    let ty = match p.kind {
        Kind::Dft { .. } => FftType::C2c,
        Kind::R2c => FftType::R2c,
        Kind::C2r => FftType::C2r,
        Kind::R2r(_) => return Err(Error::unsupported("gpu program: an r2r Fft step")),
    };
    if !(1..=3).contains(&p.dims.len()) {
        return Err(Error::unsupported(format!(
            "gpu program: an Fft step of rank {} (cuFFT: 1 to 3)",
            p.dims.len()
        )));
    }
    let iu = if ty == FftType::R2c { 1 } else { 2 };
    let ou = if ty == FftType::C2r { 1 } else { 2 };
    let is: Vec<isize> = p.dims.iter().map(|d| d.is).collect();
    let os: Vec<isize> = p.dims.iter().map(|d| d.os).collect();
    let (ie, istride) = side_layout(&is, &p.input_shape(), iu)?;
    let (oe, ostride) = side_layout(&os, &p.output_shape(), ou)?;
    let span = |e: &[i64], s: i64| e.iter().product::<i64>() * s;
    let (batch, idist, odist) =
        collapse_loops(&p.loops, iu, ou)?.unwrap_or((1, span(&ie, istride), span(&oe, ostride)));
    let n = p.dims.iter().map(|d| d.n as i64).collect();
    let layout = |embed, stride, dist| Layout {
        embed,
        stride,
        dist,
    };
    Ok((
        n,
        layout(ie, istride, idist),
        layout(oe, ostride, odist),
        batch,
        ty,
    ))
}

impl<T: Real> CudaProgram<T> {
    /// Makes the program ready: device memory, streams, events, cuFFT plans, kernels.
    pub fn new(program: &Program) -> Result<Self> {
        supported::<T>(program)?;
        let g = default_device().ok_or_else(|| Error::unsupported("no GPU"))?;
        g.check_alive()?;
        let mut me = CudaProgram {
            program: program.clone(),
            g,
            device: vec![0; program.buffers.len()],
            streams: Vec::new(),
            events: Vec::new(),
            plans: Vec::new(),
            step_plan: vec![None; program.steps.len()],
            staging: Vec::new(),
            copy: std::ptr::null_mut(),
            twiddle: std::ptr::null_mut(),
            running: Mutex::new(()),
            _t: PhantomData,
        };
        // From here on, dropping `me` frees what was made (on errors too).
        me.make_kernels()?;
        me.make_streams_and_events()?;
        me.make_plans()?;
        me.allocate()?;
        Ok(me)
    }

    fn make_kernels(&mut self) -> Result<()> {
        let real = if std::mem::size_of::<T>() == 8 {
            "double"
        } else {
            "float"
        };
        let module = match compile_generated(&self.g, &SOURCE.replace("REAL", real), false)? {
            Generated::Module(m) => m,
            Generated::Lto(_) => return Err(Error::new(ErrorKind::Internal, "LTO-IR, not PTX")),
        };
        self.copy = generated_function(module, "fftx_program_copy")?;
        self.twiddle = generated_function(module, "fftx_program_twiddle")?;
        Ok(())
    }

    fn make_streams_and_events(&mut self) -> Result<()> {
        let steps = &self.program.steps;
        let n_streams = steps.iter().map(|s| s.stream() + 1).max().unwrap_or(1);
        let n_events = steps
            .iter()
            .filter_map(|s| match s {
                Step::Record { event, .. } | Step::Wait { event, .. } => Some(event + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        // SAFETY: creation calls with valid out-pointers; each handle is kept to be destroyed.
        unsafe {
            for _ in 0..n_streams {
                let mut s = std::ptr::null_mut();
                let flags = cu::CUstream_flags::CU_STREAM_NON_BLOCKING as u32;
                check(cu::cuStreamCreate(&mut s, flags), "cuStreamCreate")?;
                self.streams.push(s);
            }
            for _ in 0..n_events + n_streams {
                let mut e = std::ptr::null_mut();
                let flags = cu::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32;
                check(cu::cuEventCreate(&mut e, flags), "cuEventCreate")?;
                self.events.push(e);
            }
        }
        Ok(())
    }

    /// One cuFFT plan per distinct (problem, stream): tiles of one round share it (a plan's
    /// work area must not be shared by two streams).
    fn make_plans(&mut self) -> Result<()> {
        let mut made: Vec<(Problem, usize)> = Vec::new();
        for (i, step) in self.program.steps.iter().enumerate() {
            let Step::Fft {
                problem, stream, ..
            } = step
            else {
                continue;
            };
            let key = (problem.clone(), *stream);
            if let Some(k) = made.iter().position(|m| *m == key) {
                self.step_plan[i] = Some(k);
                continue;
            }
            let (n, il, ol, batch, ty) = cufft_args(problem)?;
            let plan = CufftPlan::new(&n, &il, &ol, batch, ty, problem.precision)
                .map_err(|e| e.context(format!("gpu program: step {i}")))?;
            plan.set_stream(self.streams[*stream])?;
            self.plans.push(plan);
            made.push(key);
            self.step_plan[i] = Some(self.plans.len() - 1);
        }
        Ok(())
    }

    /// Device temporaries, and per stream a pinned staging block (and device scratch where a
    /// transfer's device side is strided), within the device budget.
    fn allocate(&mut self) -> Result<()> {
        let unit = std::mem::size_of::<T>();
        let p = &self.program;
        let mut stage = vec![(0usize, 0usize); self.streams.len()];
        for s in &p.steps {
            let Step::Transfer {
                from,
                to,
                dims,
                complex,
                stream,
            } = s
            else {
                continue;
            };
            let (r, step) = (route(p, from.buf, to.buf), 1 + *complex as isize);
            let bytes = elements(dims) * step as usize * unit;
            let strided = match r {
                Route::HostToDevice => !contiguous(dims, |d| d.os, step),
                Route::DeviceToHost => !contiguous(dims, |d| d.is, step),
                _ => continue,
            };
            let st = &mut stage[*stream];
            st.0 = st.0.max(bytes);
            if strided {
                st.1 = st.1.max(bytes);
            }
        }
        let temps: usize = p.device_scalars(0) * unit;
        let scratch: usize = stage.iter().map(|s| s.1).sum();
        let work: usize = self.plans.iter().map(|q| q.work_bytes).sum();
        if temps + scratch + work > device_budget() {
            return Err(Error::new(
                ErrorKind::OutOfDeviceMemory,
                format!(
                    "gpu program: {} bytes over the device budget",
                    temps + scratch + work
                ),
            ));
        }
        for b in 0..p.buffers.len() {
            if let (Role::Temp { scalars }, Placement::Device(_)) =
                (p.buffers[b].role, p.buffers[b].placement)
            {
                self.device[b] = device_alloc(scalars * unit)?;
            }
        }
        for (i, &(host, scratch)) in stage.iter().enumerate() {
            let free = self.events[self.events.len() - self.streams.len() + i];
            self.staging.push(Staging {
                host: 0,
                bytes: host,
                scratch: 0,
                free,
            });
            let st = self.staging.last_mut().expect("pushed");
            st.host = pinned_alloc(host)?;
            st.scratch = if scratch > 0 {
                device_alloc(scratch)?
            } else {
                0
            };
        }
        Ok(())
    }

    /// Runs the program on the caller's host arrays (complex ones, interleaved or split). On a
    /// CUDA failure it returns the error after the streams are idle; the output may then be
    /// partly written (in place: the input too), and the caller recomputes on the CPU.
    ///
    /// # Safety
    /// The arrays must hold every element the program's steps address in them.
    pub unsafe fn run(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
        let _one = self.running.lock();
        self.g.check_alive()?;
        let unit = std::mem::size_of::<T>();
        let mut temps: Vec<Vec<T>> = Vec::new();
        let caller = |a: ArrayPtr| match a {
            ArrayPtr::Real(p) => Base {
                re: p,
                im: p + unit,
            },
            ArrayPtr::Complex { re, im } => Base { re, im },
        };
        let mut bases = Vec::new();
        for b in &self.program.buffers {
            bases.push(match (b.role, b.placement) {
                (Role::Input, _) => caller(input),
                (Role::Output, _) => caller(output),
                (Role::Temp { .. }, Placement::Device(_)) => Base { re: 0, im: 0 },
                (Role::Temp { scalars }, _) => {
                    let mut v = Vec::new();
                    v.try_reserve_exact(scalars).map_err(|_| {
                        Error::new(ErrorKind::OutOfHostMemory, "gpu program: a host temporary")
                    })?;
                    v.resize(scalars, T::zero());
                    let p = v.as_mut_ptr() as usize;
                    temps.push(v);
                    Base {
                        re: p,
                        im: p + unit,
                    }
                }
            });
        }
        let r = self.steps(&bases);
        let synced = self.synchronize();
        drop(temps);
        r.and(synced)
    }

    unsafe fn steps(&self, bases: &[Base]) -> Result<()> {
        for (i, step) in self.program.steps.iter().enumerate() {
            self.step(i, step, bases)
                .map_err(|e| e.context(format!("gpu program: step {i}")))?;
        }
        Ok(())
    }

    /// A device buffer's address at `offset` real scalars.
    fn dev(&self, buf: usize, offset: isize) -> u64 {
        (self.device[buf] as i64 + offset as i64 * std::mem::size_of::<T>() as i64) as u64
    }

    unsafe fn step(&self, i: usize, step: &Step, bases: &[Base]) -> Result<()> {
        match step {
            Step::Transform { .. } => Err(Error::new(ErrorKind::Internal, "refused in new")),
            Step::Fft {
                problem,
                input,
                output,
                ..
            } => {
                let plan = &self.plans[self.step_plan[i].expect("planned in new")];
                let sign = problem.kind.sign().unwrap_or(-1);
                plan.exec(
                    self.dev(input.buf, input.offset),
                    self.dev(output.buf, output.offset),
                    sign,
                )
            }
            Step::Transfer { .. } => self.transfer(step, bases),
            Step::Twiddle { .. } => self.twiddle(step),
            Step::Record { event, stream } => check(
                cu::cuEventRecord(self.events[*event], self.streams[*stream]),
                "cuEventRecord",
            ),
            Step::Wait { event, stream } => check(
                cu::cuStreamWaitEvent(self.streams[*stream], self.events[*event], 0),
                "cuStreamWaitEvent",
            ),
        }
    }

    unsafe fn twiddle(&self, step: &Step) -> Result<()> {
        let Step::Twiddle {
            at,
            rows,
            cols,
            first_col,
            rest,
            n,
            sign,
            stream,
        } = step
        else {
            unreachable!()
        };
        let mut t = TwiddleArgs {
            rows_n: rows.n as i64,
            rows_s: rows.stride as i64,
            cols_n: cols.n as i64,
            cols_s: cols.stride as i64,
            first_col: *first_col as u64,
            n: *n as u64,
            sign: *sign as i64,
            rest_rank: rest.len() as i64,
            ..Default::default()
        };
        for (k, a) in rest.iter().enumerate() {
            t.rest_n[k] = a.n as i64;
            t.rest_s[k] = a.stride as i64;
        }
        let total = (rows.n * cols.n * rest.iter().map(|a| a.n).product::<usize>()) as u64;
        if total == 0 {
            return Ok(());
        }
        let mut x = self.dev(at.buf, at.offset);
        let mut total_p = total;
        let mut params = [
            &mut x as *mut u64 as *mut c_void,
            &mut t as *mut TwiddleArgs as *mut c_void,
            &mut total_p as *mut u64 as *mut c_void,
        ];
        launch(
            &self.g,
            self.twiddle,
            total,
            self.streams[*stream],
            &mut params,
        )
    }

    /// The copy kernel on `stream`: element (i...) of `dims` from `src + Σ i·is` to `dst + Σ i·os`.
    unsafe fn copy_kernel(
        &self,
        src: u64,
        dst: u64,
        dims: &[IoDim],
        complex: bool,
        stream: cu::CUstream,
    ) -> Result<()> {
        let total = elements(dims) as u64;
        if total == 0 {
            return Ok(());
        }
        let mut b = CopyBox {
            rank: dims.len() as i64,
            complex: complex as i64,
            ..Default::default()
        };
        for (k, d) in dims.iter().enumerate() {
            (b.n[k], b.is[k], b.os[k]) = (d.n as i64, d.is as i64, d.os as i64);
        }
        let (mut s, mut d, mut t) = (src, dst, total);
        let mut params = [
            &mut s as *mut u64 as *mut c_void,
            &mut d as *mut u64 as *mut c_void,
            &mut b as *mut CopyBox as *mut c_void,
            &mut t as *mut u64 as *mut c_void,
        ];
        launch(&self.g, self.copy, total, stream, &mut params)
    }

    unsafe fn transfer(&self, step: &Step, bases: &[Base]) -> Result<()> {
        let Step::Transfer {
            from,
            to,
            dims,
            complex,
            stream,
        } = step
        else {
            unreachable!()
        };
        let (c, s) = (*complex, *stream);
        match route(&self.program, from.buf, to.buf) {
            Route::HostToHost => {
                host_transfer::<T>(
                    (bases[from.buf], from.offset),
                    (bases[to.buf], to.offset),
                    dims,
                    c,
                );
                Ok(())
            }
            Route::HostToDevice => self.host_to_device(
                (bases[from.buf], from.offset),
                self.dev(to.buf, to.offset),
                dims,
                c,
                s,
            ),
            Route::DeviceToHost => self.device_to_host(
                self.dev(from.buf, from.offset),
                (bases[to.buf], to.offset),
                dims,
                c,
                s,
            ),
            Route::DeviceToDevice => self.copy_kernel(
                self.dev(from.buf, from.offset),
                self.dev(to.buf, to.offset),
                dims,
                c,
                self.streams[s],
            ),
        }
    }

    /// Gathers the host box into the stream's staging block, then copies it to the device
    /// (directly, or through the scratch block and the copy kernel when the device side is
    /// strided).
    unsafe fn host_to_device(
        &self,
        from: (Base, isize),
        to: u64,
        dims: &[IoDim],
        complex: bool,
        s: usize,
    ) -> Result<()> {
        let st = &self.staging[s];
        let step = 1 + complex as isize;
        let bytes = elements(dims) * step as usize * std::mem::size_of::<T>();
        if bytes == 0 {
            return Ok(());
        }
        debug_assert!(bytes <= st.bytes, "staging sized in new");
        check(cu::cuEventSynchronize(st.free), "cuEventSynchronize")?;
        let packed = packed_strides(dims, step);
        let gather: Vec<IoDim> = dims
            .iter()
            .zip(&packed)
            .map(|(d, &p)| IoDim::new(d.n, d.is, p))
            .collect();
        let host = Base {
            re: st.host,
            im: st.host + std::mem::size_of::<T>(),
        };
        host_transfer::<T>(from, (host, 0), &gather, complex);
        let direct = contiguous(dims, |d| d.os, step);
        let target = if direct { to } else { st.scratch };
        check(
            cu::cuMemcpyHtoDAsync_v2(target, st.host as *const c_void, bytes, self.streams[s]),
            "cuMemcpyHtoDAsync",
        )?;
        check(cu::cuEventRecord(st.free, self.streams[s]), "cuEventRecord")?;
        if !direct {
            let scatter: Vec<IoDim> = dims
                .iter()
                .zip(&packed)
                .map(|(d, &p)| IoDim::new(d.n, p, d.os))
                .collect();
            self.copy_kernel(st.scratch, to, &scatter, complex, self.streams[s])?;
        }
        Ok(())
    }

    /// Copies the device box to the stream's staging block (packed by the copy kernel first
    /// when it is strided), waits for the stream, and scatters it into host memory.
    unsafe fn device_to_host(
        &self,
        from: u64,
        to: (Base, isize),
        dims: &[IoDim],
        complex: bool,
        s: usize,
    ) -> Result<()> {
        let st = &self.staging[s];
        let step = 1 + complex as isize;
        let bytes = elements(dims) * step as usize * std::mem::size_of::<T>();
        if bytes == 0 {
            return Ok(());
        }
        debug_assert!(bytes <= st.bytes, "staging sized in new");
        let packed = packed_strides(dims, step);
        let source = if contiguous(dims, |d| d.is, step) {
            from
        } else {
            let pack: Vec<IoDim> = dims
                .iter()
                .zip(&packed)
                .map(|(d, &p)| IoDim::new(d.n, d.is, p))
                .collect();
            self.copy_kernel(from, st.scratch, &pack, complex, self.streams[s])?;
            st.scratch
        };
        check(
            cu::cuMemcpyDtoHAsync_v2(st.host as *mut c_void, source, bytes, self.streams[s]),
            "cuMemcpyDtoHAsync",
        )?;
        check(
            cu::cuStreamSynchronize(self.streams[s]),
            "cuStreamSynchronize",
        )?;
        let scatter: Vec<IoDim> = dims
            .iter()
            .zip(&packed)
            .map(|(d, &p)| IoDim::new(d.n, p, d.os))
            .collect();
        let host = Base {
            re: st.host,
            im: st.host + std::mem::size_of::<T>(),
        };
        host_transfer::<T>((host, 0), to, &scatter, complex);
        Ok(())
    }

    /// Waits for every stream; the first failure, after all were waited for.
    fn synchronize(&self) -> Result<()> {
        let mut r = Ok(());
        for &s in &self.streams {
            // SAFETY: a stream of this program.
            let q = check(unsafe { cu::cuStreamSynchronize(s) }, "cuStreamSynchronize");
            r = r.and(q);
        }
        r
    }
}

fn device_alloc(bytes: usize) -> Result<u64> {
    let mut d = 0;
    // SAFETY: cuMemAlloc writes the address of a new block.
    check(
        unsafe { cu::cuMemAlloc_v2(&mut d, bytes.max(1)) },
        "cuMemAlloc",
    )?;
    Ok(d)
}

fn pinned_alloc(bytes: usize) -> Result<usize> {
    if bytes == 0 {
        return Ok(0);
    }
    let mut p = std::ptr::null_mut();
    // SAFETY: cuMemHostAlloc writes the address of a new pinned block.
    check(
        unsafe { cu::cuMemHostAlloc(&mut p, bytes, cu::CU_MEMHOSTALLOC_PORTABLE) },
        "cuMemHostAlloc",
    )?;
    Ok(p as usize)
}

/// Calls `f(input offset, output offset)` for every element of the box `dims`.
impl<T: Real> Drop for CudaProgram<T> {
    fn drop(&mut self) {
        // After a device reset every handle is gone: touch none (as `Gpu::check_alive` says).
        if self.g.is_lost() || self.g.bind().is_err() {
            return;
        }
        let _ = self.synchronize();
        self.plans.clear();
        // SAFETY: handles made in `new`, each released once.
        unsafe {
            for st in &self.staging {
                if st.host != 0 {
                    cu::cuMemFreeHost(st.host as *mut c_void);
                }
                if st.scratch != 0 {
                    cu::cuMemFree_v2(st.scratch);
                }
            }
            for &d in self.device.iter().filter(|&&d| d != 0) {
                cu::cuMemFree_v2(d);
            }
            for &e in &self.events {
                cu::cuEventDestroy_v2(e);
            }
            for &s in &self.streams {
                cu::cuStreamDestroy_v2(s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Precision;

    fn dft(dims: &[(isize, isize, isize)], loops: &[(isize, isize, isize)]) -> Problem {
        let d = |&(n, is, os): &(isize, isize, isize)| IoDim::new(n, is, os);
        Problem {
            kind: Kind::Dft { sign: -1 },
            dims: dims.iter().map(d).collect(),
            loops: loops.iter().map(d).collect(),
            precision: Precision::F64,
            in_place: true,
        }
    }

    /// A batch of packed 2-D tiles (strides in real scalars) maps to cuFFT's packed layout.
    #[test]
    fn contiguous_tiles_map_to_one_batch() {
        let p = dft(&[(8, 2 * 6, 2 * 6), (6, 2, 2)], &[(3, 2 * 48, 2 * 48)]);
        let (n, i, o, batch, ty) = cufft_args(&p).unwrap();
        assert_eq!((n, batch, ty), (vec![8, 6], 3, FftType::C2c));
        assert_eq!(i, Layout::packed(&[8, 6]));
        assert_eq!(o, i);
        // Two loops that nest collapse too; strided rows keep their stride.
        let p = dft(&[(16, 2 * 10, 2 * 10)], &[(2, 2 * 5, 2 * 5), (5, 2, 2)]);
        let (_, i, _, batch, _) = cufft_args(&p).unwrap();
        assert_eq!((batch, i.stride, i.dist, i.embed), (10, 10, 1, vec![16]));
    }

    #[test]
    fn loops_that_do_not_collapse_are_refused() {
        let p = dft(&[(16, 2, 2)], &[(3, 2 * 100, 2 * 16), (2, 2 * 16, 2 * 48)]);
        let e = cufft_args(&p).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported);
        assert!(e.message.contains("collapse"), "{}", e.message);
        // Transposed dims do not nest.
        let p = dft(&[(4, 2, 2), (6, 2 * 4, 2 * 4)], &[]);
        assert!(cufft_args(&p).unwrap_err().message.contains("nest"));
    }

    #[test]
    fn r2c_sides_count_their_own_elements() {
        let mut p = dft(&[(4, 18, 18), (16, 1, 2)], &[]);
        p.kind = Kind::R2c;
        // In place: real rows of 18 scalars (16 used), complex rows of 9 elements.
        let (_, i, o, _, ty) = cufft_args(&p).unwrap();
        assert_eq!(ty, FftType::R2c);
        assert_eq!((i.embed, i.stride), (vec![4, 18], 1));
        assert_eq!((o.embed, o.stride), (vec![4, 9], 1));
    }

    /// Every Fft step of the out-of-card programs that tests/gpu.rs runs maps to a cuFFT plan.
    #[test]
    fn out_of_card_programs_are_supported() {
        use crate::passes::out_of_card::{lower, Budget};
        let cases: [(&[isize], usize, bool); 4] = [
            (&[1 << 16], 64 << 10, false),
            (&[128, 96], 48 << 10, false),
            (&[16, 24, 20], 24 << 10, true),
            (&[1 << 16], 64 << 10, true),
        ];
        for (ns, bytes, in_place) in cases {
            let mut s = 2;
            let mut dims: Vec<IoDim> = ns
                .iter()
                .rev()
                .map(|&n| {
                    let d = IoDim::new(n, s, s);
                    s *= n;
                    d
                })
                .collect();
            dims.reverse();
            let p = Problem {
                dims,
                loops: vec![],
                in_place,
                ..dft(&[(1, 2, 2)], &[])
            };
            let prog = lower(&p, Budget { device: 0, bytes }).unwrap();
            supported::<f64>(&prog).unwrap();
            for step in &prog.steps {
                if let Step::Fft { problem, .. } = step {
                    cufft_args(problem).unwrap_or_else(|e| panic!("{e:?}\n{}", prog.describe()));
                }
            }
        }
    }

    #[test]
    fn boxes_are_contiguous_when_packed_in_element_order() {
        let d = [
            IoDim::new(3, 2 * 8, 99),
            IoDim::new(1, 7, 7),
            IoDim::new(8, 2, 1),
        ];
        assert!(contiguous(&d, |d| d.is, 2));
        assert!(!contiguous(&d, |d| d.os, 2));
        assert_eq!(packed_strides(&d, 2), vec![16, 16, 2]);
    }
}
