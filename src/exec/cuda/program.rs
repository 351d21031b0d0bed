//! Runs a [`Program`] on GPUs: its device temporaries in device memory, one CUDA stream per
//! program stream, one CUDA event per event id, `Fft` steps as cuFFT plans, `Twiddle` steps as
//! an NVRTC kernel of this file, device-side box copies by `exec::cuda::copy` (a copy-engine
//! run, a tiled transpose or one thread per element). The one CUDA interpreter of Programs:
//! FFTW plans' placed Programs (out of card, distributed, FMM) and FFTX plans' (placed by
//! `passes::place`) both run here.
//!
//! FFTX Programs add `Kernel` steps, the caller's arrays as `Role::Array` buffers and zero
//! temporaries. A `Kernel` step is a [`KernelStep`] of `exec::cuda::kernel` made in `new` over
//! the device addresses on its stream's card (a chain as its pencil program, with the way of
//! fusing measured then unless [`Options::measure`] is off; a map as one generated kernel). A
//! `Role::Array` buffer placed on a device is the caller's device memory, used where it is; a
//! host one is reached by transfers only, each a single `cuMemcpy` where both sides are
//! contiguous (the pageable array where it is, as the driver stages it). A `ZeroTemp` is
//! zeroed on the stream of its first step at the start of every run. An `Fft` step whose
//! layout cuFFT's plans cannot take, and every `Fft` step with [`Options::keep_fft_inputs`]
//! (FFTX's), runs as the executor's transform (`transform::GpuTransform`) over the device
//! addresses. [`CudaProgram::run_arrays`] runs such a program and, on a
//! failure, says whether the caller's arrays still allow the CPU to recompute it
//! ([`RunFailure`]).
//!
//! Devices: the program's placements `Device(d)` name entries of the device map handed to
//! [`CudaProgram::new`] (`&[Arc<Device>]`). Several entries may be the same card (partitions
//! of one card: a transfer between them is a box copy on that card); between different
//! cards a transfer is a box copy on the destination's stream reading the source's memory when
//! peer access is possible (`cuDeviceCanAccessPeer`, enabled once), and otherwise staged
//! through pinned host memory (packed and copied out on the source card's side stream, copied
//! in and scattered on the destination's stream, ordered by events). Each stream runs on the
//! card of the buffers its device steps touch; an event lives on the card of the stream that
//! records it. An `Fft` step whose loops do not collapse to one cuFFT batch runs as one
//! execution per element of the remaining loops; empty shares (a loop of length 0) do nothing.
//!
//! A `Collective` runs as its parts, each a transfer between device buffers on its stream (so
//! partitions of one card copy on it, cards with peer access read each other,
//! others stage through the host); an `Fmm` step is its stage's kernel (`exec::cuda::fmm`) on
//! its stream, with its operator table uploaded to the card in `new`.
//!
//! The caller's arrays (and host or pinned temporaries) are host memory: a run whose arrays
//! are pinned moves them as DMA alone (`exec::cuda::direct`); otherwise a transfer between
//! host and device travels through pinned staging blocks that copy threads fill ahead of the
//! steps and empty behind them (`exec::cuda::host_copies`), while every host access still sees
//! what the steps before it made; device memory is ordered by the streams and events of the
//! program. Consecutive copies in are issued as their blocks fill. The reference semantics are
//! `exec::cpu::program` (the twiddle kernel computes exactly what its twin there does).
//!
//! The device maps (partitions of one card, several cards, peer and staged copies) were written
//! without a GPU at hand: checked by compilation and by the unit tests below (layout mappings,
//! streams and events per card for every distributed program the GPU tests run);
//! `tests/gpu.rs` compares the executor with the CPU program on one card and on every card.

use super::copy::MAX_RANK;
use super::cufft::{CufftPlan, FftType, Layout};
use super::direct::{self, copy_rows, device_takes_rows, host_rows};
pub use super::host_copies::Landing;
use super::host_copies::{Extent, Gather, HostCopies, Scatter};
use super::kernel::KernelStep;
use super::kernels::{compile_generated, generated_function, launch, Generated};
use super::{check, memory_of, Device, Error, ErrorKind, Memory, Result};
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cpu::program::{host_transfer, Base};
use crate::problem::{IoDim, Kind, Problem};
use crate::program::kernel::Fusion;
use crate::program::{for_each_in_box, BufId, Placement, Program, Role, Step, INPUT, OUTPUT};
use crate::real::Real;
use cudarc::driver::sys as cu;
use parking_lot::Mutex;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Most `rest` axes of a twiddle step.
const MAX_REST: usize = 4;

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
    /// 1: consecutive threads take consecutive rows (the smaller stride), else columns.
    rows_inner: i64,
}

/// The kernels, `REAL` replaced by `float` or `double`. The twiddle is the CPU twin's:
/// k·(first_col + j) mod n in 64-bit integers, the angle in double, rounded to `real` once,
/// then the complex product in `real` without contraction into FMAs.
const SOURCE: &str = r#"
typedef REAL real;
struct TwiddleArgs {
    long long rows_n, rows_s, cols_n, cols_s;
    unsigned long long first_col, n;
    long long sign, rest_rank;
    long long rest_n[4]; long long rest_s[4];
    long long rows_inner;
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
        unsigned long long j, k;
        if (t.rows_inner) {
            k = r % (unsigned long long)t.rows_n;
            j = r / (unsigned long long)t.rows_n;
        } else {
            j = r % (unsigned long long)t.cols_n;
            k = r / (unsigned long long)t.cols_n;
        }
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

/// A stream's pinned staging block, and a device scratch block (on the stream's card) for
/// transfers whose device side is not contiguous (packed there, then scattered by the copy
/// kernel).
struct Staging {
    /// The pinned block, made at the first run that stages (0 until then): pinning is slow
    /// (some 0.3 s per GiB), and a run from pinned arrays moves its data as DMA alone.
    host: AtomicUsize,
    bytes: usize,
    scratch: u64,
    /// The cuFFT work area that the stream's plans share (they run one after another).
    work: u64,
    /// Recorded after the last copy out of `host`: the host waits for it before refilling.
    free: cu::CUevent,
    /// Recorded before a copy staged from another card: that card's side stream waits for it.
    ready: cu::CUevent,
}

impl Staging {
    fn host(&self) -> usize {
        self.host.load(Ordering::Relaxed)
    }
}

/// One physical card of the device map, and what the program keeps on it.
struct Card {
    dev: Arc<Device>,
    /// The box copies (loaded in `new`).
    /// The box copies, compiled at their first use (a streamed program between pinned arrays
    /// and packed buffers needs none; NVRTC would add to the first plan's time).
    copy: once_cell::sync::OnceCell<super::copy::Kernels>,
    /// The twiddle kernel, where the program has `Twiddle` steps.
    twiddle: cu::CUfunction,
    /// For copies staged out of this card (no peer access to the destination): a side stream,
    /// the event after each pack and copy out, and the block strided sources are packed into.
    aux: cu::CUstream,
    packed: cu::CUevent,
    scratch: u64,
    /// The FMM-FFT's kernels, where the program has `Fmm` steps.
    fmm: Option<super::fmm::Kernels>,
}

/// A program made ready on its devices.
pub struct CudaProgram<T: Real> {
    program: Program,
    /// The physical cards of the device map, each once.
    cards: Vec<Card>,
    /// Per device-map entry (a placement's `d`): its index in `cards`.
    card_of: Vec<usize>,
    /// Per buffer: its device address (0 unless a device temporary).
    device: Vec<u64>,
    streams: Vec<cu::CUstream>,
    /// Per stream: the card it runs on.
    stream_card: Vec<usize>,
    events: Vec<cu::CUevent>,
    /// Per event: the card of the stream that records it (where it was created).
    event_card: Vec<usize>,
    plans: Vec<Planned>,
    /// Per step: the index in `plans` of an `Fft` step's plan (None: an empty share).
    step_plan: Vec<Option<usize>>,
    /// Per step: how a device-to-device transfer between two cards goes.
    crossing: Vec<Crossing>,
    staging: Vec<Staging>,
    /// Per buffer, the caller's arrays' extents (lowest, highest real scalar) that transfers
    /// address, when every host transfer of the program can run as DMA alone
    /// ([`direct`]): then a run whose caller arrays are pinned and interleaved does so.
    direct_extents: Option<Vec<Option<(isize, isize)>>>,
    /// Per step: for a transfer into host memory that may run as DMA alone, the event after
    /// it (a failed run's recovery asks whether it fired); null otherwise.
    landing_events: Vec<cu::CUevent>,
    /// Per step: an `Fmm` step's table and (post) reduction scratch, device addresses.
    fmm: Vec<(u64, u64)>,
    /// Device blocks of the `Fmm` steps (tables, scratch), with their card, freed on drop.
    fmm_blocks: Vec<(usize, u64)>,
    /// Per step: a `Kernel` step made ready, or an `Fft` step cuFFT's layouts cannot take as
    /// the executor's transform.
    kernels: Vec<Option<KernelStep>>,
    /// The `ZeroTemp` device buffers: (stream that zeroes it at the start of a run, address,
    /// bytes).
    zero: Vec<(usize, u64, usize)>,
    options: Options,
    /// One run at a time (the staging blocks are shared).
    running: Mutex<()>,
    _t: PhantomData<T>,
}

/// A chain step's fusion, chosen by timing: the one it runs with, and its ms per run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredFusion {
    pub step: usize,
    pub fusion: Fusion,
    pub ms: f64,
}

/// How [`CudaProgram::with_options`] makes a program ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transfers between cards read the peer's memory where the cards can (else staged through
    /// pinned host memory).
    pub peer: bool,
    /// Time the ways to fuse each chain `Kernel` and keep the fastest (else the first that
    /// builds: `FFTX_ESTIMATE`).
    pub measure: bool,
    /// `Fft` steps leave their input as it was (FFTX semantics; a c2r cuFFT plan overwrites
    /// its input): each runs as the executor's transform (`transform::GpuTransform`, which
    /// copies a device input of a c2r first) instead of a plan of this executor.
    pub keep_fft_inputs: bool,
    /// `Fft` steps that the split-half tensor-core kernels take (1-D c2c f32 of 16^K points,
    /// `exec::cuda::split_half`) run on them instead of cuFFT (`FFTX_TENSOR_CORES=split` on an
    /// `fftxf_` plan).
    pub split_half: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            peer: true,
            measure: true,
            keep_fft_inputs: false,
            split_half: false,
        }
    }
}

/// A failed [`CudaProgram::run_arrays`]. `recomputable`: every caller array is host memory and
/// none that the program reads has been written, so the CPU can compute the program from the
/// start. `landing`: per step, how far its write into host memory got (`Landed` or
/// `NotStarted` where that is known, else `Unknown`).
pub struct RunFailure {
    pub error: Error,
    pub recomputable: bool,
    pub landing: Vec<Landing>,
}

/// A cuFFT plan and the loops its executions iterate over (offsets in real scalars).
struct Planned {
    plan: CufftPlan,
    outer: Vec<IoDim>,
    stream: usize,
}

/// How a transfer between device buffers goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Crossing {
    /// Not a transfer between two cards (one card: the copy kernel).
    None,
    /// The destination card reads the source's memory directly (peer access).
    Peer,
    /// Through pinned host memory (no peer access).
    Staged,
}

// SAFETY: the handles belong to the cards' primary contexts; runs are serialized by `running`.
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

/// The device-map entry a buffer is placed on.
fn device_of(p: &Program, buf: usize) -> Option<usize> {
    match p.buffers[buf].placement {
        Placement::Device(d) => Some(d),
        _ => None,
    }
}

/// How many device-map entries the program names (the largest `d` of `Device(d)`, plus one).
pub fn devices_needed(p: &Program) -> usize {
    p.buffers
        .iter()
        .filter_map(|b| match b.placement {
            Placement::Device(d) => Some(d + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The device-map entry a step runs on: an `Fft`'s or a `Twiddle`'s buffer, a transfer's
/// device side (the destination's when both are).
fn step_device(p: &Program, step: &Step) -> Option<usize> {
    match step {
        Step::Fft { input, .. } => device_of(p, input.buf),
        Step::Twiddle { at, .. } => device_of(p, at.buf),
        Step::Fmm(f) => device_of(p, f.dst.buf),
        Step::Transfer { from, to, .. } => device_of(p, to.buf).or(device_of(p, from.buf)),
        Step::Kernel { kernel, .. } => kernel.buffers().iter().find_map(|&b| device_of(p, b)),
        _ => None,
    }
}

/// After a failure at step `reached` of `p` (or before it): may the CPU recompute the plan
/// from the start? Every caller array must be host memory and none that the recomputation
/// reads written so far (by a transfer out): for an FFTX plan (`Role::Array`s) the arrays the
/// program reads; for an FFTW plan the input, which its CPU transform reads (the output too
/// when the run is `in_place`: they are one array then).
fn recomputable(p: &Program, reached: usize, in_place: bool) -> bool {
    let same = |b: BufId| if in_place && b == OUTPUT { INPUT } else { b };
    let array = |b: usize| {
        matches!(
            p.buffers[b].role,
            Role::Array { .. } | Role::Input | Role::Output
        )
    };
    if (0..p.buffers.len()).any(|b| array(b) && on_device(p, b)) {
        return false;
    }
    let transfers = |steps: &[Step]| -> Vec<(usize, usize)> {
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Transfer { from, to, .. } => Some((same(from.buf), same(to.buf))),
                _ => None,
            })
            .collect()
    };
    let fftw = p.buffers.iter().any(|b| b.role == Role::Input);
    let read: Vec<usize> = if fftw {
        vec![INPUT]
    } else {
        transfers(&p.steps)
            .into_iter()
            .filter_map(|(from, _)| array(from).then_some(from))
            .collect()
    };
    let upto = (reached + 1).min(p.steps.len());
    transfers(&p.steps[..upto])
        .into_iter()
        .all(|(_, to)| !array(to) || !read.contains(&to))
}

/// Does the step address buffer `b`?
fn uses(step: &Step, b: usize) -> bool {
    match step {
        Step::Fft { input, output, .. } => input.buf == b || output.buf == b,
        Step::Transfer { from, to, .. } => from.buf == b || to.buf == b,
        Step::Twiddle { at, .. } => at.buf == b,
        Step::Kernel { kernel, .. } => kernel.buffers().contains(&b),
        Step::Fmm(f) => f.src.buf == b || f.dst.buf == b,
        _ => false,
    }
}

/// Does the step do nothing (a box or batch with an axis of length 0: an empty share)?
fn empty(step: &Step) -> bool {
    match step {
        Step::Fft { problem, .. } => problem.dims.iter().chain(&problem.loops).any(|d| d.n <= 0),
        Step::Transfer { dims, .. } => dims.iter().any(|d| d.n <= 0),
        Step::Twiddle {
            rows, cols, rest, ..
        } => rows.n == 0 || cols.n == 0 || rest.iter().any(|a| a.n == 0),
        _ => false,
    }
}

fn route(p: &Program, from: usize, to: usize) -> Route {
    match (on_device(p, from), on_device(p, to)) {
        (false, false) => Route::HostToHost,
        (false, true) => Route::HostToDevice,
        (true, false) => Route::DeviceToHost,
        (true, true) => Route::DeviceToDevice,
    }
}

/// Per buffer, the extent (lowest, highest real scalar) the program's host transfers address
/// in the caller's arrays, if every host transfer can run as DMA alone: between a caller's
/// array and a device buffer (no host temporaries, no host-to-host copies), its box rows on
/// the host side ([`host_rows`]). `None` otherwise.
fn direct_extents(p: &Program) -> Option<Vec<Option<(isize, isize)>>> {
    let mut ext: Vec<Option<(isize, isize)>> = vec![None; p.buffers.len()];
    for step in &p.steps {
        let Step::Transfer {
            from,
            to,
            dims,
            complex,
            ..
        } = step
        else {
            continue;
        };
        if dims.iter().any(|d| d.n <= 0) {
            continue;
        }
        let r = route(p, from.buf, to.buf);
        let (host, to_device) = match r {
            Route::HostToDevice => (from, true),
            Route::DeviceToHost => (to, false),
            Route::HostToHost => return None,
            Route::DeviceToDevice => continue,
        };
        if !matches!(p.buffers[host.buf].role, Role::Input | Role::Output) {
            return None;
        }
        let side = |d: &IoDim| if to_device { d.is } else { d.os };
        let step = 1 + *complex as isize;
        host_rows(&host_order(dims, r), side, step)?;
        // Strides are non-negative (host_rows): the box spans offset .. offset + Σ (n-1)·s.
        let hi = host.offset + dims.iter().map(|d| (d.n - 1) * side(d)).sum::<isize>() + step - 1;
        let e = ext[host.buf].get_or_insert((host.offset, hi));
        *e = (e.0.min(host.offset), e.1.max(hi));
    }
    Some(ext)
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
    p.validate()?;
    for (i, b) in p.buffers.iter().enumerate() {
        match (b.role, b.placement) {
            (Role::Input | Role::Output, Placement::Host) => {}
            (Role::Input | Role::Output, pl) => {
                return Err(Error::unsupported(format!(
                    "gpu program: the caller's array b{i} must be host memory, not {}",
                    pl.name()
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
            Step::Kernel { kernel, .. } if kernel.buffers().iter().any(|&b| !on_device(p, b)) => {
                return bad("a Kernel step on host buffers".into())
            }
            Step::Collective { .. } => return bad("a Collective (expanded in new)".into()),
            Step::Fmm(f) if !on_device(p, f.src.buf) || !on_device(p, f.dst.buf) => {
                return bad("an Fmm step on host buffers".into())
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

/// Splits the loops into one batch of `n` transforms `idist`/`odist` elements apart (the
/// largest group of loops that nest; of groups as large, the one closest together, so that a
/// batch of strided transforms reads neighbouring elements together) and the loops left over,
/// which the executor iterates over (one cuFFT execution per element). Loops of length 1 drop
/// out; no loops: no batch. (A slab decomposition's pencil FFT on one card, 1024³: loops of
/// 1024 planes 2^20 elements apart and 1024 columns 1 apart; the planes as the batch took 129 ms
/// against 17 ms for the columns, on an H100.)
#[allow(clippy::type_complexity)]
fn split_loops(
    loops: &[IoDim],
    iu: isize,
    ou: isize,
) -> Result<(Option<(i64, i64, i64)>, Vec<IoDim>)> {
    let l: Vec<IoDim> = loops.iter().copied().filter(|d| d.n != 1).collect();
    if l.is_empty() {
        return Ok((None, Vec::new()));
    }
    let whole = |d: &IoDim| d.is > 0 && d.os > 0 && d.is % iu == 0 && d.os % ou == 0;
    let mut best: Option<(IoDim, Vec<usize>)> = None;
    for seed in (0..l.len()).filter(|&k| whole(&l[k])) {
        let (mut cur, mut used) = (l[seed], vec![seed]);
        while let Some(k) = (0..l.len())
            .find(|&k| !used.contains(&k) && l[k].is == cur.is * cur.n && l[k].os == cur.os * cur.n)
        {
            cur.n *= l[k].n;
            used.push(k);
        }
        let spread = |d: &IoDim| d.is.abs() + d.os.abs();
        if best
            .as_ref()
            .is_none_or(|(b, _)| cur.n > b.n || (cur.n == b.n && spread(&cur) < spread(b)))
        {
            best = Some((cur, used));
        }
    }
    let Some((b, used)) = best else {
        return Err(Error::unsupported(format!(
            "gpu program: none of the Fft loops {loops:?} is a positive whole number of elements apart"
        )));
    };
    let outer = (0..l.len())
        .filter(|k| !used.contains(k))
        .map(|k| l[k])
        .collect();
    Ok((
        Some((b.n as i64, (b.is / iu) as i64, (b.os / ou) as i64)),
        outer,
    ))
}

/// A cuFFT plan's arguments for `p`: shape, input and output layouts, batch, type; and the
/// loops each execution is repeated over (strides in real scalars).
#[allow(clippy::type_complexity)]
fn cufft_args(p: &Problem) -> Result<(Vec<i64>, Layout, Layout, i64, FftType, Vec<IoDim>)> {
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
    let (batch, outer) = split_loops(&p.loops, iu, ou)?;
    let (batch, idist, odist) = batch.unwrap_or((1, span(&ie, istride), span(&oe, ostride)));
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
        outer,
    ))
}

impl<T: Real> CudaProgram<T> {
    /// Makes the program ready on `devices`, the device map its placements `Device(d)` index
    /// (entries may repeat a card: partitions of it): device memory, streams, events, cuFFT
    /// plans, kernels. A map shorter than the program needs is refused (`BadInput`).
    pub fn new(program: &Program, devices: &[Arc<Device>]) -> Result<Self> {
        Self::with_options(program, devices, Options::default())
    }

    /// As [`CudaProgram::new`], but transfers between cards are staged through pinned host
    /// memory even where peer access is possible (tests run that path on peer-capable boxes).
    pub fn without_peer_access(program: &Program, devices: &[Arc<Device>]) -> Result<Self> {
        let options = Options {
            peer: false,
            ..Options::default()
        };
        Self::with_options(program, devices, options)
    }

    /// As [`CudaProgram::new`], with `options`.
    pub fn with_options(
        program: &Program,
        devices: &[Arc<Device>],
        options: Options,
    ) -> Result<Self> {
        let peer = options.peer;
        super::fault::at_plan()?;
        program.validate()?;
        let program = &expand_collectives(program);
        supported::<T>(program)?;
        let needed = devices_needed(program).max(1);
        if devices.len() < needed {
            return Err(Error::bad_input(format!(
                "gpu program: the program places buffers on {needed} device(s) (Device(0) to Device({})), but the device map has {}",
                needed - 1,
                devices.len()
            )));
        }
        let mut cards: Vec<Card> = Vec::new();
        let mut card_of = Vec::new();
        for d in devices {
            d.check_alive()?;
            let c = match cards.iter().position(|c| c.dev.ordinal == d.ordinal) {
                Some(c) => c,
                None => {
                    cards.push(Card {
                        dev: d.clone(),
                        copy: once_cell::sync::OnceCell::new(),
                        twiddle: std::ptr::null_mut(),
                        aux: std::ptr::null_mut(),
                        packed: std::ptr::null_mut(),
                        scratch: 0,
                        fmm: None,
                    });
                    cards.len() - 1
                }
            };
            card_of.push(c);
        }
        let (stream_card, event_card) = Self::map_streams(program, &card_of)?;
        let mut crossing = vec![Crossing::None; program.steps.len()];
        for (i, step) in program.steps.iter().enumerate() {
            if let Step::Transfer { from, to, .. } = step {
                if let (Some(a), Some(b)) =
                    (device_of(program, from.buf), device_of(program, to.buf))
                {
                    let (a, b) = (card_of[a], card_of[b]);
                    if a != b {
                        crossing[i] = if peer && cards[b].dev.reaches(&cards[a].dev) {
                            Crossing::Peer
                        } else {
                            Crossing::Staged
                        };
                    }
                }
            }
        }
        let mut me = CudaProgram {
            program: program.clone(),
            cards,
            card_of,
            device: vec![0; program.buffers.len()],
            streams: Vec::new(),
            stream_card,
            events: Vec::new(),
            event_card,
            plans: Vec::new(),
            step_plan: vec![None; program.steps.len()],
            crossing,
            staging: Vec::new(),
            direct_extents: direct_extents(program),
            landing_events: vec![std::ptr::null_mut(); program.steps.len()],
            fmm: vec![(0, 0); program.steps.len()],
            fmm_blocks: Vec::new(),
            kernels: (0..program.steps.len()).map(|_| None).collect(),
            zero: Vec::new(),
            options,
            running: Mutex::new(()),
            _t: PhantomData,
        };
        // From here on, dropping `me` frees what was made (on errors too).
        let t0 = std::time::Instant::now();
        me.make_kernels()?;
        me.make_streams_and_events()?;
        let t1 = t0.elapsed();
        me.make_plans()?;
        let t2 = t0.elapsed();
        me.allocate()?;
        me.allocate_fmm()?;
        let t3 = t0.elapsed();
        me.make_kernel_steps()?;
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        crate::log::log_info!(
            "gpu program: {} steps ready in {:.1} ms (kernels, streams {:.1}; {} cuFFT plans {:.1}; allocations {:.1}; kernel steps {:.1})",
            me.program.steps.len(),
            ms(t0.elapsed()),
            ms(t1),
            me.plans.len(),
            ms(t2 - t1),
            ms(t3 - t2),
            ms(t0.elapsed() - t3)
        );
        Ok(me)
    }

    /// The card each stream runs on (that of its device steps; a stream with none: the first
    /// entry's), and the card of each event (that of the stream recording it).
    fn map_streams(p: &Program, card_of: &[usize]) -> Result<(Vec<usize>, Vec<usize>)> {
        let n_streams = p.steps.iter().map(|s| s.stream() + 1).max().unwrap_or(1);
        let mut stream_card: Vec<Option<(usize, usize)>> = vec![None; n_streams];
        for (i, step) in p.steps.iter().enumerate() {
            let Some(d) = step_device(p, step) else {
                continue;
            };
            let s = step.stream();
            match stream_card[s] {
                None => stream_card[s] = Some((card_of[d], d)),
                Some((c, e)) if c != card_of[d] => {
                    return Err(Error::unsupported(format!(
                        "gpu program: step {i} runs on device {d}, but stream {s} runs on device {e}, another card"
                    )))
                }
                _ => {}
            }
            if let Step::Fft { output, .. } = step {
                let o = device_of(p, output.buf).unwrap_or(d);
                if card_of[o] != card_of[d] {
                    return Err(Error::unsupported(format!(
                        "gpu program: step {i} transforms from device {d} into device {o}, another card"
                    )));
                }
            }
        }
        let stream_card: Vec<usize> = stream_card
            .iter()
            .map(|c| c.map_or(card_of[0], |c| c.0))
            .collect();
        let n_events = p
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Record { event, .. } | Step::Wait { event, .. } => Some(event + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let mut event_card: Vec<Option<usize>> = vec![None; n_events];
        for (i, step) in p.steps.iter().enumerate() {
            if let Step::Record { event, stream } = step {
                let c = stream_card[*stream];
                match event_card[*event] {
                    Some(e) if e != c => {
                        return Err(Error::unsupported(format!(
                        "gpu program: step {i} records event {event} on another card than before"
                    )))
                    }
                    _ => event_card[*event] = Some(c),
                }
            }
        }
        Ok((
            stream_card,
            event_card.iter().map(|c| c.unwrap_or(card_of[0])).collect(),
        ))
    }

    fn make_kernels(&mut self) -> Result<()> {
        let real = real_name::<T>();
        let source = SOURCE.replace("REAL", real);
        let twiddles = self
            .program
            .steps
            .iter()
            .any(|s| matches!(s, Step::Twiddle { .. }));
        for card in self.cards.iter_mut().filter(|_| twiddles) {
            let module = match compile_generated(&card.dev, &source, false)? {
                Generated::Module(m) => m,
                Generated::Lto(_) => {
                    return Err(Error::new(ErrorKind::Internal, "LTO-IR, not PTX"))
                }
            };
            card.twiddle = generated_function(module, "fftx_program_twiddle")?;
        }
        if self.program.steps.iter().any(|s| matches!(s, Step::Fmm(_))) {
            for card in &mut self.cards {
                card.fmm = Some(super::fmm::Kernels::load(&card.dev, real)?);
            }
        }
        Ok(())
    }

    fn make_streams_and_events(&mut self) -> Result<()> {
        // SAFETY: creation calls with valid out-pointers, each in its card's context; each
        // handle is kept to be destroyed.
        unsafe {
            let stream = |out: &mut cu::CUstream| {
                let flags = cu::CUstream_flags::CU_STREAM_NON_BLOCKING as u32;
                check(cu::cuStreamCreate(out, flags), "cuStreamCreate")
            };
            let event = |out: &mut cu::CUevent| {
                let flags = cu::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32;
                check(cu::cuEventCreate(out, flags), "cuEventCreate")
            };
            for s in 0..self.stream_card.len() {
                self.cards[self.stream_card[s]].dev.bind()?;
                self.streams.push(std::ptr::null_mut());
                stream(self.streams.last_mut().expect("pushed"))?;
            }
            for e in 0..self.event_card.len() {
                self.cards[self.event_card[e]].dev.bind()?;
                self.events.push(std::ptr::null_mut());
                event(self.events.last_mut().expect("pushed"))?;
            }
            // Per stream, its staging block's `free` and `ready` events.
            for s in 0..self.stream_card.len() {
                self.cards[self.stream_card[s]].dev.bind()?;
                self.staging.push(Staging {
                    host: AtomicUsize::new(0),
                    bytes: 0,
                    scratch: 0,
                    work: 0,
                    free: std::ptr::null_mut(),
                    ready: std::ptr::null_mut(),
                });
                let st = self.staging.last_mut().expect("pushed");
                event(&mut st.free)?;
                event(&mut st.ready)?;
            }
            // The events after transfers into host memory that may run as DMA alone.
            for (i, step) in self.program.steps.iter().enumerate() {
                let Step::Transfer { from, to, .. } = step else {
                    continue;
                };
                let into_host = route(&self.program, from.buf, to.buf) == Route::DeviceToHost;
                if into_host && self.direct_extents.is_some() {
                    self.cards[self.stream_card[step.stream()]].dev.bind()?;
                    event(&mut self.landing_events[i])?;
                }
            }
            // Side streams of the cards that copies are staged out of.
            for (i, step) in self.program.steps.iter().enumerate() {
                if self.crossing[i] != Crossing::Staged {
                    continue;
                }
                let Step::Transfer { from, .. } = step else {
                    continue;
                };
                let d = device_of(&self.program, from.buf).expect("a device side");
                let card = &mut self.cards[self.card_of[d]];
                if card.aux.is_null() {
                    card.dev.bind()?;
                    stream(&mut card.aux)?;
                    event(&mut card.packed)?;
                }
            }
        }
        Ok(())
    }

    /// One cuFFT plan per distinct (problem, stream): tiles of one round share it. Made on the
    /// stream's card, without a work area: the plans of a stream share one (`allocate`).
    fn make_plans(&mut self) -> Result<()> {
        let mut made: Vec<(Problem, usize)> = Vec::new();
        for (i, step) in self.program.steps.iter().enumerate() {
            let Step::Fft {
                problem, stream, ..
            } = step
            else {
                continue;
            };
            if empty(step) {
                continue;
            }
            let key = (problem.clone(), *stream);
            if let Some(k) = made.iter().position(|m| *m == key) {
                self.step_plan[i] = Some(k);
                continue;
            }
            if self.options.keep_fft_inputs && super::transform::supports(problem) {
                continue; // made in `make_kernel_steps`
            }
            let split_half = crate::exec::cpu::split_half::shape_of(problem).is_ok();
            if self.options.split_half && split_half && super::transform::supports(problem) {
                continue; // made in `make_kernel_steps`, on the tensor-core kernels
            }
            // An r2c as the executor's transform, which leaves FFTW's exact zeros in the
            // imaginary parts of the self-conjugate bins (cuFFT leaves rounding noise).
            if problem.kind == Kind::R2c && super::transform::supports(problem) {
                continue;
            }
            let (n, il, ol, batch, ty, outer) = match cufft_args(problem) {
                Ok(args) => args,
                // Made in `make_kernel_steps` as the executor's transform.
                Err(_) if super::transform::supports(problem) => continue,
                Err(e) => return Err(e),
            };
            self.cards[self.stream_card[*stream]].dev.bind()?;
            let plan = CufftPlan::without_work_area(&n, &il, &ol, batch, ty, problem.precision)
                .map_err(|e| e.context(format!("gpu program: step {i}")))?;
            plan.set_stream(self.streams[*stream])?;
            self.plans.push(Planned {
                plan,
                outer,
                stream: *stream,
            });
            made.push(key);
            self.step_plan[i] = Some(self.plans.len() - 1);
        }
        Ok(())
    }

    /// Device temporaries, per stream a pinned staging block (and device scratch where a
    /// transfer's device side is strided), per card staged out of a scratch block to pack
    /// into; each card's share within the device budget (`FFTX_GPU_MEMORY` applies per card).
    fn allocate(&mut self) -> Result<()> {
        let (stage, packs) = self.staging_sizes();
        self.check_card_budgets(&stage, &packs)?;
        self.allocate_temps()?;
        self.allocate_stream_blocks(&stage)?;
        for (c, &bytes) in packs.iter().enumerate() {
            if bytes > 0 {
                self.cards[c].dev.bind()?;
                self.cards[c].scratch = device_alloc(bytes)?;
            }
        }
        Ok(())
    }

    /// Per stream, the bytes of its pinned staging block and of its device scratch (the
    /// largest transfer it stages, and the largest whose device side is strided); per card,
    /// the bytes of the block that strided sources of copies staged out of it are packed into.
    fn staging_sizes(&self) -> (Vec<(usize, usize)>, Vec<usize>) {
        let unit = std::mem::size_of::<T>();
        let p = &self.program;
        let mut stage = vec![(0usize, 0usize); self.streams.len()];
        let mut packs = vec![0usize; self.cards.len()];
        for (i, s) in p.steps.iter().enumerate() {
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
            let dims = &host_order(dims, r);
            // Host transfers stage through the run's blocks (`host_copies`); a stream's own
            // pinned block serves copies staged between cards.
            let (host, strided) = match r {
                Route::HostToDevice => (false, !contiguous(dims, |d| d.os, step)),
                Route::DeviceToHost => (false, !contiguous(dims, |d| d.is, step)),
                Route::DeviceToDevice if self.crossing[i] == Crossing::Staged => {
                    if !contiguous(dims, |d| d.is, step) {
                        let c = self.card_of[device_of(p, from.buf).expect("device side")];
                        packs[c] = packs[c].max(bytes);
                    }
                    (true, !contiguous(dims, |d| d.os, step))
                }
                _ => continue,
            };
            let st = &mut stage[*stream];
            if host {
                st.0 = st.0.max(bytes);
            }
            if strided {
                st.1 = st.1.max(bytes);
            }
        }
        (stage, packs)
    }

    /// `Err` (out of device memory) where a card's temporaries, scratch blocks and cuFFT work
    /// areas pass what a plan may use of it.
    fn check_card_budgets(&self, stage: &[(usize, usize)], packs: &[usize]) -> Result<()> {
        let unit = std::mem::size_of::<T>();
        let p = &self.program;
        for (c, card) in self.cards.iter().enumerate() {
            let temps: usize = (0..self.card_of.len())
                .filter(|&d| self.card_of[d] == c)
                .map(|d| p.device_scalars(d) * unit)
                .sum();
            let scratch: usize = (0..stage.len())
                .filter(|&s| self.stream_card[s] == c)
                .map(|s| stage[s].1)
                .sum::<usize>()
                + packs[c];
            let work: usize = (0..stage.len())
                .filter(|&s| self.stream_card[s] == c)
                .map(|s| self.work_bytes(s))
                .sum();
            let usable = super::usable_device_bytes(&card.dev);
            if temps + scratch + work > usable {
                return Err(Error::new(
                    ErrorKind::OutOfDeviceMemory,
                    format!(
                        "gpu program: {} bytes on device {} over the {usable} a plan may use",
                        temps + scratch + work,
                        card.dev.ordinal
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The device temporaries (the zeroed ones queued for zeroing at the start of a run), and
    /// the addresses of the caller's arrays in device memory.
    fn allocate_temps(&mut self) -> Result<()> {
        let unit = std::mem::size_of::<T>();
        let p = &self.program;
        for b in 0..p.buffers.len() {
            let Placement::Device(d) = p.buffers[b].placement else {
                continue;
            };
            let scalars = match p.buffers[b].role {
                Role::Temp { scalars } | Role::ZeroTemp { scalars } => scalars,
                // A caller's array in device memory: used where it is.
                Role::Array { addr } => {
                    self.device[b] = addr as u64;
                    continue;
                }
                _ => continue,
            };
            self.cards[self.card_of[d]].dev.bind()?;
            self.device[b] = device_alloc(scalars * unit)?;
            if let Role::ZeroTemp { .. } = p.buffers[b].role {
                // Zeroed on the stream of the first step that uses it.
                let stream = p.steps.iter().find(|s| uses(s, b)).map_or(0, Step::stream);
                self.zero.push((stream, self.device[b], scalars * unit));
            }
        }
        Ok(())
    }

    /// Per stream: its staging block's size (the block is pinned at the first run that
    /// stages), its device scratch, and the cuFFT work area its plans share.
    fn allocate_stream_blocks(&mut self, stage: &[(usize, usize)]) -> Result<()> {
        for (i, &(host, scratch)) in stage.iter().enumerate() {
            self.cards[self.stream_card[i]].dev.bind()?;
            let st = &mut self.staging[i];
            st.bytes = host;
            if scratch > 0 {
                st.scratch = device_alloc(scratch)?;
            }
            let work = self.work_bytes(i);
            if work > 0 {
                let area = device_alloc(work)?;
                self.staging[i].work = area;
                for planned in self.plans.iter().filter(|pl| pl.stream == i) {
                    planned.plan.set_work_area(area)?;
                }
            }
        }
        Ok(())
    }

    /// The cuFFT work area stream `s` needs: the largest of its plans'.
    fn work_bytes(&self, s: usize) -> usize {
        let plans = self.plans.iter().filter(|pl| pl.stream == s);
        plans.map(|pl| pl.plan.work_bytes).max().unwrap_or(0)
    }

    /// The `Fmm` steps' operator tables on their cards (one per card and table), and a
    /// reduction scratch per post-processing step.
    fn allocate_fmm(&mut self) -> Result<()> {
        let mut made: Vec<(usize, (u8, crate::program::FmmGeom, u32), u64)> = Vec::new();
        for (i, step) in self.program.steps.iter().enumerate() {
            let Step::Fmm(f) = step else { continue };
            let c = self.stream_card[f.stream];
            self.cards[c].dev.bind()?;
            let key = super::fmm::table_key(f);
            let table = match made.iter().find(|m| m.0 == c && m.1 == key) {
                Some(m) => m.2,
                None => {
                    let d = super::fmm::upload(&crate::exec::cpu::fmm::table(f))?;
                    self.fmm_blocks.push((c, d));
                    made.push((c, key, d));
                    d
                }
            };
            let mut scratch = 0;
            if f.op == crate::program::FmmOp::Post {
                scratch = device_alloc(16 * f.geom.p)?;
                self.fmm_blocks.push((c, scratch));
            }
            self.fmm[i] = (table, scratch);
        }
        Ok(())
    }

    /// The `Kernel` steps over the device buffers (chains measured unless `options.measure` is
    /// off), and the `Fft` steps `make_plans` left to the executor's transform.
    fn make_kernel_steps(&mut self) -> Result<()> {
        let mut made = Vec::new();
        for (i, step) in self.program.steps.iter().enumerate() {
            let built = match step {
                Step::Kernel { kernel, stream } => {
                    let dev = &self.card(*stream).dev;
                    dev.bind()?;
                    let addr = |b: usize| self.device[b];
                    let (stream, measure) = (self.streams[*stream], self.options.measure);
                    KernelStep::kernel(kernel, T::PRECISION, &addr, (stream, dev), measure)
                }
                Step::Fft {
                    problem,
                    input,
                    output,
                    stream,
                } if self.step_plan[i].is_none() && !empty(step) => {
                    let dev = &self.card(*stream).dev;
                    let io = (
                        self.dev(input.buf, input.offset),
                        self.dev(output.buf, output.offset),
                    );
                    KernelStep::transform(problem, io, dev, self.options.split_half)
                }
                _ => continue,
            };
            made.push((
                i,
                built.map_err(|e| e.context(format!("gpu program: step {i}")))?,
            ));
        }
        for (i, k) in made {
            self.kernels[i] = Some(k);
        }
        Ok(())
    }

    /// Runs a program over the caller's arrays as `Role::Array` buffers (an FFTX plan's: host
    /// arrays reached by its transfers, device arrays addressed where they are). On failure it
    /// says whether the CPU may recompute the program from the start.
    ///
    /// # Safety
    /// The arrays must hold every element the program's steps address in them.
    pub unsafe fn run_arrays(&self) -> std::result::Result<(), RunFailure> {
        let none = ArrayPtr::Real(0);
        self.run_recoverable(none, none, false)
    }

    /// [`CudaProgram::run`], saying on failure whether the CPU may recompute the program from
    /// the start (an out-of-card program in place: until its first transfer into the array).
    /// `in_place`: the output overlaps the input (they are then one array to the recovery).
    ///
    /// # Safety
    /// As [`CudaProgram::run`].
    pub unsafe fn run_recoverable(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        in_place: bool,
    ) -> std::result::Result<(), RunFailure> {
        let mut reached = 0;
        let mut landing = Vec::new();
        let r = super::fault::at_execute(self.cards[0].dev.ordinal)
            .and_then(|()| self.run_with(input, output, false, &mut reached, &mut landing));
        r.map_err(|error| RunFailure {
            recomputable: recomputable(&self.program, reached, in_place),
            landing: self.settle(landing),
            error,
        })
    }

    /// The landings of a failed run, its DMAs into the caller's memory settled: whole where
    /// their event fired, else unknown.
    fn settle(&self, mut landing: Vec<Landing>) -> Vec<Landing> {
        for (k, l) in landing.iter_mut().enumerate() {
            if *l == Landing::Queued {
                let event = self.landing_events[k];
                let card = self.card(self.program.steps[k].stream());
                // SAFETY: an event of this program, recorded in its card's context.
                let fired = card.dev.bind().is_ok()
                    && unsafe { cu::cuEventQuery(event) } == cu::CUresult::CUDA_SUCCESS;
                *l = if fired {
                    Landing::Landed
                } else {
                    Landing::Unknown
                };
            }
        }
        landing
    }

    /// The distinct kinds of the steps made ready as kernels (how a plan's printout says what
    /// runs its transforms).
    pub fn kernel_kinds(&self) -> Vec<String> {
        let mut kinds: Vec<String> = Vec::new();
        for k in self.kernels.iter().flatten() {
            let d = k.describe();
            if !kinds.contains(&d) {
                kinds.push(d);
            }
        }
        kinds
    }

    /// The chain steps whose ways of fusing were timed at plan time (what the front end
    /// records in wisdom).
    pub fn measured_fusions(&self) -> Vec<MeasuredFusion> {
        let chains = self
            .kernels
            .iter()
            .enumerate()
            .filter_map(|(step, k)| match k {
                Some(KernelStep::Chain(c)) => {
                    c.measured()
                        .map(|(fusion, ms)| MeasuredFusion { step, fusion, ms })
                }
                _ => None,
            });
        chains.collect()
    }

    /// The printout's lines of the steps made ready as kernels (`step k: ...`).
    pub fn describe_kernels(&self) -> Vec<String> {
        let steps = self.kernels.iter().enumerate();
        steps
            .filter_map(|(k, s)| s.as_ref().map(|s| format!("step {k}: {}", s.describe())))
            .collect()
    }

    /// Runs the program on the caller's host arrays (complex ones, interleaved or split). On a
    /// CUDA failure it returns the error after the streams are idle; the output may then be
    /// partly written (in place: the input too), and the caller recomputes on the CPU.
    ///
    /// # Safety
    /// The arrays must hold every element the program's steps address in them.
    pub unsafe fn run(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
        self.run_with(input, output, false, &mut 0, &mut Vec::new())
    }

    /// Runs every step but the transfers from and to the caller's arrays, on the data the
    /// device buffers hold (what an earlier [`CudaProgram::run`] left there): the
    /// device-resident time of a distributed program (`examples/fmm_bench.rs`).
    pub fn run_resident(&self) -> Result<()> {
        let none = ArrayPtr::Real(0);
        // SAFETY: no step that addresses the caller's arrays runs.
        unsafe { self.run_with(none, none, true, &mut 0, &mut Vec::new()) }
    }

    /// As [`CudaProgram::run_resident`] (device steps alone), but waits for every stream after
    /// each step: per kind
    /// of step (`fft`, `twiddle`, `fmm <stage>`, `copy on a card`, `copy between cards`,
    /// `copy staged`), its steps' summed milliseconds, in order of first appearance. With
    /// nothing overlapping, the sum exceeds a plain run's time; it says where the time goes.
    pub fn profile_resident(&self) -> Result<Vec<(String, f64)>> {
        let _one = self.running.lock();
        let dev = self.cards[0].dev.clone();
        let mut host = HostCopies::<T>::new(dev, Vec::new(), Vec::new());
        let r = self.profile_steps(&mut host);
        host.release();
        r
    }

    fn profile_steps(&self, host: &mut HostCopies<T>) -> Result<Vec<(String, f64)>> {
        let mut out: Vec<(String, f64)> = Vec::new();
        for (i, step) in self.program.steps.iter().enumerate() {
            let device = |b: usize| on_device(&self.program, b);
            let what = match step {
                Step::Transfer { from, to, .. } if !device(from.buf) || !device(to.buf) => continue,
                Step::Record { .. } | Step::Wait { .. } => continue,
                _ if empty(step) => continue,
                Step::Transfer { .. } => match self.crossing[i] {
                    Crossing::None => "copy on a card".to_string(),
                    Crossing::Peer => "copy between cards".to_string(),
                    Crossing::Staged => "copy staged".to_string(),
                },
                Step::Fft { .. } => "fft".to_string(),
                Step::Twiddle { .. } => "twiddle".to_string(),
                Step::Fmm(f) => format!("fmm {}", f.op.name()),
                Step::Kernel { .. } => "kernel".to_string(),
                _ => "other".to_string(),
            };
            let t = std::time::Instant::now();
            self.card(step.stream()).dev.bind()?;
            // SAFETY: no step that addresses host memory runs.
            unsafe { self.step(i, step, &[], false, host) }?;
            self.synchronize()?;
            let ms = t.elapsed().as_secs_f64() * 1e3;
            match out.iter_mut().find(|(w, _)| *w == what) {
                Some(e) => e.1 += ms,
                None => out.push((what, ms)),
            }
        }
        Ok(out)
    }

    /// Runs the steps (`resident`: not the transfers from and to the caller's arrays);
    /// `reached`: the index of the last step started; `landing`: per step, how far its write
    /// into host memory got.
    unsafe fn run_with(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        resident: bool,
        reached: &mut usize,
        landing: &mut Vec<Landing>,
    ) -> Result<()> {
        let _one = self.running.lock();
        for card in &self.cards {
            card.dev.check_alive()?;
        }
        let unit = std::mem::size_of::<T>();
        let mut temps: Vec<Vec<T>> = Vec::new();
        let caller = |a: ArrayPtr| Base::of(a, unit);
        let mut bases = Vec::new();
        for b in &self.program.buffers {
            bases.push(match (b.role, b.placement) {
                (Role::Input, _) => caller(input),
                (Role::Output, _) => caller(output),
                // Host arrays (device ones are addressed through `device`).
                (Role::Array { addr }, _) => Base {
                    re: addr,
                    im: addr + unit,
                },
                (Role::Temp { .. } | Role::ZeroTemp { .. }, Placement::Device(_)) => {
                    Base { re: 0, im: 0 }
                }
                (Role::Temp { scalars } | Role::ZeroTemp { scalars }, _) => {
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
        let direct = self.runs_direct(input, output);
        // A resident run moves nothing between host and device: nothing to gather.
        let (gathers, writes_host) = self.host_copies(&bases, direct || resident);
        let dev = self.cards[0].dev.clone();
        let mut host = HostCopies::<T>::new(dev, gathers, writes_host);
        let r = self
            .zero_temps()
            .and_then(|()| self.steps(&bases, resident, direct, reached, &mut host));
        let drained = host.drain();
        let synced = self.synchronize();
        *landing = host.release();
        drop(temps);
        r.and(drained).and(synced)
    }

    /// Per step, the gather of a host-to-device transfer through staging blocks (none in a
    /// run of DMA alone), and whether the step writes host memory.
    fn host_copies(&self, bases: &[Base], direct: bool) -> (Vec<Option<Gather>>, Vec<bool>) {
        let unit = std::mem::size_of::<T>();
        let p = &self.program;
        let mut gathers = Vec::new();
        let mut writes = Vec::new();
        for step in &p.steps {
            let (gather, write) = match step {
                Step::Transfer {
                    from,
                    to,
                    dims,
                    complex,
                    ..
                } if !empty(step) => {
                    let r = route(p, from.buf, to.buf);
                    let dims = host_order(dims, r);
                    let staged = r == Route::HostToDevice
                        && !direct
                        && !self.single_copy(from, &dims, *complex);
                    let gather = staged.then(|| {
                        let cstep = 1 + *complex as isize;
                        let packed = packed_strides(&dims, cstep);
                        Gather {
                            from: (bases[from.buf], from.offset),
                            dims: dims
                                .iter()
                                .zip(&packed)
                                .map(|(d, &q)| IoDim::new(d.n, d.is, q))
                                .collect(),
                            complex: *complex,
                            bytes: elements(&dims) * cstep as usize * unit,
                            extent: Extent::of(
                                bases[from.buf],
                                from.offset,
                                &dims,
                                |d| d.is,
                                *complex,
                                unit,
                            ),
                        }
                    });
                    (gather, matches!(r, Route::DeviceToHost | Route::HostToHost))
                }
                _ => (None, false),
            };
            gathers.push(gather);
            writes.push(write);
        }
        (gathers, writes)
    }

    /// Do these caller arrays take a run's host transfers as DMA alone: the program allows it,
    /// and every caller array is interleaved (or real) and pinned over what it addresses?
    pub fn runs_direct(&self, input: ArrayPtr, output: ArrayPtr) -> bool {
        let Some(extents) = &self.direct_extents else {
            return false;
        };
        let unit = std::mem::size_of::<T>();
        let dev = &self.cards[0].dev;
        let mut buffers = self.program.buffers.iter().zip(extents);
        buffers.all(|(buf, e)| match (buf.role, e) {
            (_, None) => true,
            (role, Some((lo, hi))) => {
                let b = Base::of(if role == Role::Input { input } else { output }, unit);
                let start = (b.re as isize + lo * unit as isize) as usize;
                let bytes = (hi - lo + 1) as usize * unit;
                b.im == b.re + unit && memory_of(dev, start, bytes) == Memory::Pinned
            }
        })
    }

    /// Zeroes the `ZeroTemp` device buffers, each on its stream.
    unsafe fn zero_temps(&self) -> Result<()> {
        for &(s, at, bytes) in &self.zero {
            self.card(s).dev.bind()?;
            check(
                cu::cuMemsetD8Async(at, 0, bytes, self.streams[s]),
                "cuMemsetD8Async",
            )?;
        }
        Ok(())
    }

    unsafe fn steps(
        &self,
        bases: &[Base],
        resident: bool,
        direct: bool,
        reached: &mut usize,
        host: &mut HostCopies<T>,
    ) -> Result<()> {
        let caller = |b: usize| {
            b == INPUT
                || b == OUTPUT
                || (matches!(self.program.buffers[b].role, Role::Array { .. })
                    && !on_device(&self.program, b))
        };
        let run_step = |i: usize, host: &mut HostCopies<T>| {
            let step = &self.program.steps[i];
            // Every step runs in its stream's card's context (an event is recorded in its own).
            self.card(step.stream())
                .dev
                .bind()
                .and_then(|()| self.step(i, step, bases, direct, host))
                .map_err(|e| e.context(format!("gpu program: step {i}")))
        };
        let mut i = 0;
        while i < self.program.steps.len() {
            // Copies in through staging, one after another: each as soon as its gather is done
            // (they are independent: different device boxes, nothing between them).
            let run = if resident { 0 } else { host.staged_run(i) };
            if run > 1 {
                let mut left: Vec<usize> = (i..i + run).collect();
                while !left.is_empty() {
                    let k = host.next_gathered(&left)?;
                    left.retain(|&x| x != k);
                    *reached = (*reached).max(k);
                    run_step(k, host)?;
                }
                i += run;
                continue;
            }
            *reached = i;
            let step = &self.program.steps[i];
            let skip = match step {
                Step::Transfer { from, to, .. } => resident && (caller(from.buf) || caller(to.buf)),
                _ => false,
            };
            if !empty(step) && !skip {
                run_step(i, host)?;
            }
            i += 1;
        }
        Ok(())
    }

    /// The card stream `s` runs on.
    fn card(&self, s: usize) -> &Card {
        &self.cards[self.stream_card[s]]
    }

    /// A device buffer's address at `offset` real scalars.
    fn dev(&self, buf: usize, offset: isize) -> u64 {
        (self.device[buf] as i64 + offset as i64 * std::mem::size_of::<T>() as i64) as u64
    }

    unsafe fn step(
        &self,
        i: usize,
        step: &Step,
        bases: &[Base],
        direct: bool,
        host: &mut HostCopies<T>,
    ) -> Result<()> {
        match step {
            Step::Kernel { stream, .. } | Step::Fft { stream, .. } if self.kernels[i].is_some() => {
                let k = self.kernels[i].as_ref().expect("made in new");
                k.run(self.streams[*stream])
            }
            Step::Transform { .. } | Step::Collective { .. } | Step::Kernel { .. } => {
                Err(Error::new(ErrorKind::Internal, "refused in new"))
            }
            Step::Fmm(f) => {
                let card = self.card(f.stream);
                let kernels = card.fmm.as_ref().expect("loaded in new");
                let (table, scratch) = self.fmm[i];
                let (src, dst) = (
                    self.dev(f.src.buf, f.src.offset),
                    self.dev(f.dst.buf, f.dst.offset),
                );
                let stream = self.streams[f.stream];
                super::fmm::run(kernels, &card.dev, f, (src, dst, table, scratch), stream)
            }
            Step::Fft {
                problem,
                input,
                output,
                ..
            } => {
                let planned = &self.plans[self.step_plan[i].expect("planned in new")];
                let sign = problem.kind.sign().unwrap_or(-1);
                let mut r = Ok(());
                for_each_in_box(&planned.outer, 0, 0, &mut |io, oo| {
                    if r.is_ok() {
                        r = planned.plan.exec(
                            self.dev(input.buf, input.offset + io),
                            self.dev(output.buf, output.offset + oo),
                            sign,
                        );
                    }
                });
                r
            }
            // Device-to-device copies (gathers on one card, peer copies) are the same in both
            // ways of running.
            Step::Transfer { from, to, .. }
                if direct && route(&self.program, from.buf, to.buf) != Route::DeviceToDevice =>
            {
                self.transfer_direct(i, step, bases, host)
            }
            Step::Transfer { .. } => self.transfer(i, step, bases, host),
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
            // Coalesced: the six-step's rows are contiguous and its columns n1 apart (taking
            // columns innermost, its twiddle step took as long as its three all-to-alls).
            rows_inner: i64::from(rows.stride.abs() < cols.stride.abs()),
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
        let card = self.card(*stream);
        launch(
            &card.dev,
            card.twiddle,
            total,
            self.streams[*stream],
            &mut params,
        )
    }

    /// Copies the box `dims` of `card` (current context) on `stream` (of that card): element
    /// (i...) from `src + Σ i·is` to `dst + Σ i·os` (`exec::cuda::copy` chooses how).
    unsafe fn copy_kernel(
        &self,
        card: &Card,
        src: u64,
        dst: u64,
        dims: &[IoDim],
        complex: bool,
        stream: cu::CUstream,
    ) -> Result<()> {
        self.copy_box(card, (src, dst), dims, (complex, false), stream)
    }

    /// [`CudaProgram::copy_kernel`], and with `between_devices` (an exchange between two of the
    /// program's devices: cards over their link, or partitions of one card) long rows by the
    /// copy engine.
    unsafe fn copy_box(
        &self,
        card: &Card,
        (src, dst): (u64, u64),
        dims: &[IoDim],
        (complex, between_devices): (bool, bool),
        stream: cu::CUstream,
    ) -> Result<()> {
        let kernels = card
            .copy
            .get_or_try_init(|| super::copy::Kernels::load(&card.dev, real_name::<T>()))?;
        let unit = std::mem::size_of::<T>();
        super::copy::copy(
            kernels,
            &card.dev,
            (src, dst),
            dims,
            (complex, unit, between_devices),
            stream,
        )
    }

    /// A transfer through staging (a run whose arrays are not all pinned), its host copies
    /// done by `host`'s copy threads; a direct copy of host memory waits for the copies in
    /// flight that reach the bytes it reads or writes.
    unsafe fn transfer(
        &self,
        i: usize,
        step: &Step,
        bases: &[Base],
        host: &mut HostCopies<T>,
    ) -> Result<()> {
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
        let r = route(&self.program, from.buf, to.buf);
        let dims = &host_order(dims, r);
        let unit = std::mem::size_of::<T>();
        let reach = |a: &crate::program::At, stride: fn(&IoDim) -> isize| {
            Extent::of(bases[a.buf], a.offset, dims, stride, c, unit)
        };
        // Writes into host memory that end before the step does land with it.
        let host_write = matches!(r, Route::DeviceToHost | Route::HostToHost);
        if host_write {
            host.mark(i, Landing::Unknown);
        }
        let host_side = match r {
            Route::HostToDevice => Some(from),
            Route::DeviceToHost => Some(to),
            _ => None,
        };
        if let Some(h) = host_side.filter(|h| self.single_copy(h, dims, c)) {
            let stride = if r == Route::HostToDevice {
                |d: &IoDim| d.is
            } else {
                |d: &IoDim| d.os
            };
            host.wait_reaching(reach(h, stride))?;
            self.array_transfer(step, r, dims, bases)?;
            if host_write {
                host.mark(i, Landing::Landed);
            }
            return Ok(());
        }
        match r {
            Route::HostToHost => {
                host.wait_reaching(reach(from, |d| d.is))?;
                host.wait_reaching(reach(to, |d| d.os))?;
                host_transfer::<T>(
                    (bases[from.buf], from.offset),
                    (bases[to.buf], to.offset),
                    dims,
                    c,
                );
                host.mark(i, Landing::Landed);
                Ok(())
            }
            Route::HostToDevice => {
                self.host_to_device(i, self.dev(to.buf, to.offset), dims, c, s, host)
            }
            Route::DeviceToHost => {
                // Nothing is in host memory until a copy thread scatters it.
                host.mark(i, Landing::NotStarted);
                self.device_to_host(
                    i,
                    self.dev(from.buf, from.offset),
                    (bases[to.buf], to.offset),
                    dims,
                    c,
                    s,
                    host,
                )
            }
            Route::DeviceToDevice if self.crossing[i] == Crossing::Staged => self.staged(
                self.dev(from.buf, from.offset),
                &self.cards[self.card_of[device_of(&self.program, from.buf).expect("device")]],
                self.dev(to.buf, to.offset),
                dims,
                c,
                s,
            ),
            // One card, or the destination card reading its peer's memory.
            Route::DeviceToDevice => self.copy_box(
                self.card(s),
                (self.dev(from.buf, from.offset), self.dev(to.buf, to.offset)),
                dims,
                (
                    c,
                    device_of(&self.program, from.buf) != device_of(&self.program, to.buf),
                ),
                self.streams[s],
            ),
        }
    }

    /// Is a transfer whose host side is `host` one `cuMemcpy` ([`CudaProgram::array_transfer`]):
    /// a caller's array of an FFTX plan (`Role::Array`), both sides contiguous?
    fn single_copy(&self, host: &crate::program::At, dims: &[IoDim], complex: bool) -> bool {
        let cstep = 1 + complex as isize;
        let whole = contiguous(dims, |d| d.is, cstep) && contiguous(dims, |d| d.os, cstep);
        matches!(self.program.buffers[host.buf].role, Role::Array { .. }) && whole
    }

    /// A [`CudaProgram::single_copy`] transfer, from or to the array where it is (pageable
    /// memory: the driver stages it; host memory is as the steps so far made it when a copy out
    /// returns).
    unsafe fn array_transfer(
        &self,
        step: &Step,
        r: Route,
        dims: &[IoDim],
        bases: &[Base],
    ) -> Result<()> {
        let Step::Transfer {
            from,
            to,
            complex,
            stream,
            ..
        } = step
        else {
            unreachable!()
        };
        let cstep = 1 + *complex as isize;
        let unit = std::mem::size_of::<T>();
        let bytes = elements(dims) * cstep as usize * unit;
        let at = |a: &crate::program::At| bases[a.buf].re as isize + a.offset * unit as isize;
        let stream = self.streams[*stream];
        if r == Route::HostToDevice {
            let dev = self.dev(to.buf, to.offset);
            check(
                cu::cuMemcpyHtoDAsync_v2(dev, at(from) as *const c_void, bytes, stream),
                "cuMemcpyHtoDAsync",
            )
        } else {
            let dev = self.dev(from.buf, from.offset);
            check(
                cu::cuMemcpyDtoHAsync_v2(at(to) as *mut c_void, dev, bytes, stream),
                "cuMemcpyDtoHAsync",
            )
            .and_then(|()| check(cu::cuStreamSynchronize(stream), "cuStreamSynchronize"))
        }
    }

    /// A host transfer as DMA alone (a run where [`CudaProgram::runs_direct`]): rows between
    /// the caller's pinned array and the device side, through the stream's scratch block
    /// (packed there, and the copy kernel between it and the buffer) where the device side
    /// does not take the rows as they are.
    unsafe fn transfer_direct(
        &self,
        i: usize,
        step: &Step,
        bases: &[Base],
        host: &mut HostCopies<T>,
    ) -> Result<()> {
        let Step::Transfer {
            from, to, stream, ..
        } = step
        else {
            unreachable!()
        };
        if route(&self.program, from.buf, to.buf) != Route::DeviceToHost {
            return self.dma(step, bases);
        }
        // Into host memory: whole once the event after it fires.
        host.mark(i, Landing::Unknown);
        self.dma(step, bases)?;
        check(
            cu::cuEventRecord(self.landing_events[i], self.streams[*stream]),
            "cuEventRecord",
        )?;
        host.mark(i, Landing::Queued);
        Ok(())
    }

    /// [`CudaProgram::transfer_direct`]'s copies.
    unsafe fn dma(&self, step: &Step, bases: &[Base]) -> Result<()> {
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
        let (c, s, stream) = (*complex, *stream, self.streams[*stream]);
        let (cstep, unit) = (1 + c as isize, std::mem::size_of::<T>());
        let r = route(&self.program, from.buf, to.buf);
        let to_device = r == Route::HostToDevice;
        let host_side = |d: &IoDim| if to_device { d.is } else { d.os };
        let rows = host_rows(&host_order(dims, r), host_side, cstep).expect("checked in new");
        let host_strides: Vec<isize> = rows.iter().map(host_side).collect();
        let dev_strides: Vec<isize> = rows
            .iter()
            .map(|d| if to_device { d.os } else { d.is })
            .collect();
        let (host_at, dev_at) = if to_device { (from, to) } else { (to, from) };
        let host = direct::Side {
            addr: (bases[host_at.buf].re as isize + host_at.offset * unit as isize) as u64,
            strides: &host_strides,
        };
        let dev = self.dev(dev_at.buf, dev_at.offset);
        if device_takes_rows(&rows, &dev_strides, cstep) {
            let dev = direct::Side {
                addr: dev,
                strides: &dev_strides,
            };
            return copy_rows(to_device, host, dev, &rows, cstep, unit, stream);
        }
        // The device side packed in the rows' order in the scratch block.
        let packed = packed_strides(&rows, cstep);
        let scratch = self.staging[s].scratch;
        let box_of = |a: &[isize], b: &[isize]| -> Vec<IoDim> {
            rows.iter()
                .zip(a.iter().zip(b))
                .map(|(d, (&x, &y))| IoDim::new(d.n, x, y))
                .collect()
        };
        let packed_side = direct::Side {
            addr: scratch,
            strides: &packed,
        };
        if to_device {
            copy_rows(true, host, packed_side, &rows, cstep, unit, stream)?;
            self.copy_kernel(
                self.card(s),
                scratch,
                dev,
                &box_of(&packed, &dev_strides),
                c,
                stream,
            )
        } else {
            self.copy_kernel(
                self.card(s),
                dev,
                scratch,
                &box_of(&dev_strides, &packed),
                c,
                stream,
            )?;
            copy_rows(false, host, packed_side, &rows, cstep, unit, stream)
        }
    }

    /// Stream `s`'s staging block, the box's element step in real scalars and its bytes; `None`
    /// for an empty box (nothing to move).
    fn staging_for(
        &self,
        s: usize,
        dims: &[IoDim],
        complex: bool,
    ) -> Result<Option<(&Staging, isize, usize)>> {
        let step = 1 + complex as isize;
        let bytes = elements(dims) * step as usize * std::mem::size_of::<T>();
        let st = &self.staging[s];
        debug_assert!(bytes <= st.bytes, "staging sized in new");
        if bytes == 0 {
            return Ok(None);
        }
        // One run at a time (`running`): no other thread makes the block meanwhile.
        if st.host() == 0 {
            self.card(s).dev.bind()?;
            st.host.store(pinned_alloc(st.bytes)?, Ordering::Relaxed);
        }
        Ok(Some((st, step, bytes)))
    }

    /// Copies step `i`'s host box, gathered into a staging block by a copy thread, to the
    /// device (directly, or through the stream's scratch block and the copy kernel when the
    /// device side is strided).
    unsafe fn host_to_device(
        &self,
        i: usize,
        to: u64,
        dims: &[IoDim],
        complex: bool,
        s: usize,
        host: &mut HostCopies<T>,
    ) -> Result<()> {
        let step = 1 + complex as isize;
        let bytes = elements(dims) * step as usize * std::mem::size_of::<T>();
        let (b, block) = host.gathered(i)?;
        let stream = self.streams[s];
        let direct = contiguous(dims, |d| d.os, step);
        let target = if direct { to } else { self.staging[s].scratch };
        check(
            cu::cuMemcpyHtoDAsync_v2(target, block as *const c_void, bytes, stream),
            "cuMemcpyHtoDAsync",
        )?;
        host.dma_queued(b, stream)?;
        if !direct {
            let packed = packed_strides(dims, step);
            let scatter: Vec<IoDim> = dims
                .iter()
                .zip(&packed)
                .map(|(d, &p)| IoDim::new(d.n, p, d.os))
                .collect();
            self.copy_kernel(self.card(s), target, to, &scatter, complex, stream)?;
        }
        Ok(())
    }

    /// Copies the device box (packed by the copy kernel into the stream's scratch block first
    /// when it is strided) into a staging block, whose scatter into host memory a copy thread
    /// does once the copy is done.
    #[allow(clippy::too_many_arguments)]
    unsafe fn device_to_host(
        &self,
        i: usize,
        from: u64,
        to: (Base, isize),
        dims: &[IoDim],
        complex: bool,
        s: usize,
        host: &mut HostCopies<T>,
    ) -> Result<()> {
        let step = 1 + complex as isize;
        let unit = std::mem::size_of::<T>();
        let bytes = elements(dims) * step as usize * unit;
        if bytes == 0 {
            return Ok(());
        }
        let stream = self.streams[s];
        let packed = packed_strides(dims, step);
        let source = if contiguous(dims, |d| d.is, step) {
            from
        } else {
            let pack: Vec<IoDim> = dims
                .iter()
                .zip(&packed)
                .map(|(d, &p)| IoDim::new(d.n, d.is, p))
                .collect();
            let scratch = self.staging[s].scratch;
            self.copy_kernel(self.card(s), from, scratch, &pack, complex, stream)?;
            scratch
        };
        let (b, block) = host.block_for(bytes)?;
        check(
            cu::cuMemcpyDtoHAsync_v2(block as *mut c_void, source, bytes, stream),
            "cuMemcpyDtoHAsync",
        )?;
        let scatter = Scatter {
            step: i,
            to,
            dims: dims
                .iter()
                .zip(&packed)
                .map(|(d, &p)| IoDim::new(d.n, p, d.os))
                .collect(),
            complex,
            extent: Extent::of(to.0, to.1, dims, |d| d.os, complex, unit),
        };
        host.scatter(b, stream, scatter)
    }

    /// A transfer between two cards without peer access, on stream `s` (of the destination
    /// card), through the stream's pinned staging block: once the stream's steps so far are
    /// done (its waits included), the source card's side stream packs the box (when strided)
    /// and copies it out to the block; then stream `s` copies it in and scatters it (when
    /// strided). Events order the two streams; the host does not wait.
    unsafe fn staged(
        &self,
        from: u64,
        source: &Card,
        to: u64,
        dims: &[IoDim],
        complex: bool,
        s: usize,
    ) -> Result<()> {
        let Some((st, step, bytes)) = self.staging_for(s, dims, complex)? else {
            return Ok(());
        };
        let packed = packed_strides(dims, step);
        let stream = self.streams[s];
        check(cu::cuEventRecord(st.ready, stream), "cuEventRecord")?;
        source.dev.bind()?;
        check(
            cu::cuStreamWaitEvent(source.aux, st.ready, 0),
            "cuStreamWaitEvent",
        )?;
        let out = if contiguous(dims, |d| d.is, step) {
            from
        } else {
            let pack: Vec<IoDim> = dims
                .iter()
                .zip(&packed)
                .map(|(d, &p)| IoDim::new(d.n, d.is, p))
                .collect();
            self.copy_kernel(source, from, source.scratch, &pack, complex, source.aux)?;
            source.scratch
        };
        check(
            cu::cuMemcpyDtoHAsync_v2(st.host() as *mut c_void, out, bytes, source.aux),
            "cuMemcpyDtoHAsync",
        )?;
        check(
            cu::cuEventRecord(source.packed, source.aux),
            "cuEventRecord",
        )?;
        self.card(s).dev.bind()?;
        check(
            cu::cuStreamWaitEvent(stream, source.packed, 0),
            "cuStreamWaitEvent",
        )?;
        let direct = contiguous(dims, |d| d.os, step);
        let target = if direct { to } else { st.scratch };
        check(
            cu::cuMemcpyHtoDAsync_v2(target, st.host() as *const c_void, bytes, stream),
            "cuMemcpyHtoDAsync",
        )?;
        check(cu::cuEventRecord(st.free, stream), "cuEventRecord")?;
        if !direct {
            let scatter: Vec<IoDim> = dims
                .iter()
                .zip(&packed)
                .map(|(d, &p)| IoDim::new(d.n, p, d.os))
                .collect();
            self.copy_kernel(self.card(s), st.scratch, to, &scatter, complex, stream)?;
        }
        Ok(())
    }

    /// Waits for every stream (the cards' side streams too); the first failure, after all
    /// were waited for.
    fn synchronize(&self) -> Result<()> {
        let mut r = Ok(());
        let sides = self
            .cards
            .iter()
            .filter(|c| !c.aux.is_null())
            .map(|c| (c, c.aux));
        let streams = (0..self.streams.len()).map(|s| (self.card(s), self.streams[s]));
        for (card, s) in streams.chain(sides) {
            // SAFETY: a stream of this program, waited for in its card's context.
            let q = card
                .dev
                .bind()
                .and_then(|()| check(unsafe { cu::cuStreamSynchronize(s) }, "cuStreamSynchronize"));
            r = r.and(q);
        }
        r
    }
}

/// The program with each collective's parts as transfers on their streams (device to device:
/// the copy kernel on one card, peer or staged copies between cards).
fn expand_collectives(p: &Program) -> Program {
    let steps = p
        .steps
        .iter()
        .flat_map(|s| match s {
            Step::Collective { parts, .. } => parts
                .iter()
                .map(|pt| Step::Transfer {
                    from: pt.from,
                    to: pt.to,
                    dims: pt.dims.clone(),
                    complex: true,
                    stream: pt.stream,
                })
                .collect(),
            s => vec![s.clone()],
        })
        .collect();
    Program {
        buffers: p.buffers.clone(),
        steps,
    }
}

/// A transfer's axes reordered so that the host side's is innermost where it is smallest:
/// the host then gathers or scatters contiguous runs (memcpy, `host_transfer`) and the device
/// side, if strided, is packed by the copy kernel. A box is a set of element moves, so any
/// order of its axes means the same. (Round A of an out-of-card four-step writes its tile
/// transposed; in the pass's order the host scattered single elements 128 KiB apart.)
fn host_order(dims: &[IoDim], r: Route) -> Vec<IoDim> {
    let mut d = dims.to_vec();
    match r {
        Route::HostToDevice => d.sort_by_key(|a| std::cmp::Reverse(a.is.abs())),
        Route::DeviceToHost => d.sort_by_key(|a| std::cmp::Reverse(a.os.abs())),
        _ => {}
    }
    d
}

/// The kernels' name of `T`.
fn real_name<T>() -> &'static str {
    if std::mem::size_of::<T>() == 8 {
        "double"
    } else {
        "float"
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

impl<T: Real> Drop for CudaProgram<T> {
    fn drop(&mut self) {
        // After a device reset every handle is gone: touch none (as `Device::check_alive`
        // says); a program over several cards frees nothing once one of them was reset.
        if self
            .cards
            .iter()
            .any(|c| c.dev.is_lost() || c.dev.bind().is_err())
        {
            return;
        }
        let _ = self.synchronize();
        // Each plan is destroyed in the context it was made in.
        self.plans.clear();
        if let Some(c) = self.cards.first() {
            let _ = c.dev.bind();
        }
        self.kernels.clear();
        // SAFETY: handles made in `new`, each released once, in its card's context.
        unsafe {
            for (i, st) in self.staging.iter().enumerate() {
                let _ = self.cards[self.stream_card[i]].dev.bind();
                if st.host() != 0 {
                    cu::cuMemFreeHost(st.host() as *mut c_void);
                }
                for block in [st.scratch, st.work].into_iter().filter(|&b| b != 0) {
                    cu::cuMemFree_v2(block);
                }
                for e in [st.free, st.ready].into_iter().filter(|e| !e.is_null()) {
                    cu::cuEventDestroy_v2(e);
                }
            }
            let owned = |b: usize| !matches!(self.program.buffers[b].role, Role::Array { .. });
            for (b, &d) in self
                .device
                .iter()
                .enumerate()
                .filter(|&(b, &d)| d != 0 && owned(b))
            {
                if let Some(v) = device_of(&self.program, b) {
                    let _ = self.cards[self.card_of[v]].dev.bind();
                }
                cu::cuMemFree_v2(d);
            }
            for (e, &ev) in self.events.iter().enumerate() {
                let _ = self.cards[self.event_card[e]].dev.bind();
                cu::cuEventDestroy_v2(ev);
            }
            for (i, &ev) in self.landing_events.iter().enumerate() {
                if !ev.is_null() {
                    let _ = self.cards[self.stream_card[self.program.steps[i].stream()]]
                        .dev
                        .bind();
                    cu::cuEventDestroy_v2(ev);
                }
            }
            for (s, &st) in self.streams.iter().enumerate() {
                let _ = self.cards[self.stream_card[s]].dev.bind();
                cu::cuStreamDestroy_v2(st);
            }
            for &(c, d) in &self.fmm_blocks {
                let _ = self.cards[c].dev.bind();
                cu::cuMemFree_v2(d);
            }
            for card in &self.cards {
                let _ = card.dev.bind();
                if card.scratch != 0 {
                    cu::cuMemFree_v2(card.scratch);
                }
                if !card.packed.is_null() {
                    cu::cuEventDestroy_v2(card.packed);
                }
                if !card.aux.is_null() {
                    cu::cuStreamDestroy_v2(card.aux);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Precision;

    /// The CPU may recompute a placed FFTX program after a failure until a transfer out has
    /// written an array that the program also reads; never with a caller's device array.
    #[test]
    fn a_failure_is_recomputable_until_an_array_read_is_written() {
        use crate::passes::place::place;
        use crate::program::kernel::{Access, Elements, Kernel};
        use crate::program::Buffer;
        let array = |addr| Buffer {
            role: Role::Array { addr },
            placement: Placement::Host,
        };
        let acc = |buf, base| Access {
            buf: Elements {
                buf,
                complex: false,
            },
            base,
            strides: vec![1],
        };
        let map = |src, dst| Step::Kernel {
            kernel: Kernel::Map {
                shape: vec![8],
                src,
                dst,
                data: None,
                code: None,
            },
            stream: 0,
        };
        // b0 -> b1, then b1 -> b0's second half: both read and written.
        let program = Program {
            buffers: vec![array(0x1000), array(0x2000)],
            steps: vec![map(acc(0, 0), acc(1, 0)), map(acc(1, 0), acc(0, 8))],
        };
        let none = std::collections::BTreeSet::new();
        let placed = place(&program, Precision::F64, 0, &none).unwrap();
        // Steps: in b0, in b1, kernel, kernel, out b0, out b1.
        let kinds: Vec<bool> = placed
            .steps
            .iter()
            .map(|s| matches!(s, Step::Transfer { .. }))
            .collect();
        let six = [true, true, false, false, true, true];
        assert_eq!(kinds, six, "{}", placed.describe());
        assert!((0..4).all(|k| recomputable(&placed, k, false)));
        assert!(!recomputable(&placed, 4, false) && !recomputable(&placed, 5, false));
        // b1 only written, whole (no copy in): recomputable to the end. (Two writes of its
        // halves would copy it in: the pass takes one write of the whole span as covering.)
        let program = Program {
            buffers: program.buffers.clone(),
            steps: vec![map(acc(0, 0), acc(1, 0))],
        };
        let placed = place(&program, Precision::F64, 0, &none).unwrap();
        assert!((0..placed.steps.len()).all(|k| recomputable(&placed, k, false)));
        // A device array: never.
        let on_device = [1].into();
        let placed = place(&program, Precision::F64, 0, &on_device).unwrap();
        assert!(!recomputable(&placed, 0, false));
    }

    /// An FFTW plan's out-of-card program in place may be recomputed by the CPU until its first
    /// transfer into the caller's array (the output buffer is the input's memory then); out of
    /// place, always (it never writes what it reads).
    #[test]
    fn an_fftw_program_is_recomputable_until_it_writes_its_input() {
        use crate::passes::out_of_card::{lower, Budget, HostArrays};
        let budget = Budget {
            device: 0,
            bytes: 64 << 10,
        };
        for in_place in [true, false] {
            let p = Problem {
                kind: crate::problem::Kind::Dft { sign: -1 },
                dims: vec![IoDim::new(1 << 16, 2, 2)],
                loops: vec![],
                precision: Precision::F64,
                in_place,
            };
            let prog = lower(&p, budget, HostArrays::Pageable).unwrap();
            let writes = |s: &Step| matches!(s, Step::Transfer { to, .. } if to.buf == INPUT || to.buf == OUTPUT);
            let first = prog.steps.iter().position(writes).expect("a transfer out");
            assert!(first > 0, "{}", prog.describe());
            if in_place {
                assert!((0..first).all(|k| recomputable(&prog, k, true)));
                assert!((first..prog.steps.len()).all(|k| !recomputable(&prog, k, true)));
            } else {
                assert!((0..prog.steps.len()).all(|k| recomputable(&prog, k, false)));
            }
        }
    }

    /// Out-of-card programs of the c2c cases run as DMA alone from pinned arrays (their host
    /// transfers are rows); a program with a host temporary is not.
    #[test]
    fn out_of_card_programs_can_run_as_dma_alone() {
        use crate::passes::out_of_card::{lower, Budget, HostArrays};
        for precision in [Precision::F64, Precision::F32] {
            for (ns, budget, in_place) in [
                (&[1isize << 16][..], 64usize << 10, false),
                (&[1 << 16][..], 64 << 10, true),
                (&[128, 96][..], 48 << 10, false),
                (&[16, 24, 20][..], 24 << 10, true),
            ] {
                let mut p = Problem::packed(ns, Kind::Dft { sign: -1 }, precision);
                p.in_place = in_place;
                let budget = Budget {
                    device: 0,
                    bytes: budget,
                };
                let prog = lower(&p, budget, HostArrays::Pinned).unwrap();
                assert!(
                    direct_extents(&prog).is_some(),
                    "{ns:?} {precision:?} in place {in_place}:\n{}",
                    prog.describe()
                );
            }
        }
        let mut prog = Program::new();
        let t = prog.temp(8, Placement::Host);
        let d = prog.temp(8, Placement::Device(0));
        prog.steps.push(Step::Transfer {
            from: crate::program::At { buf: t, offset: 0 },
            to: crate::program::At { buf: d, offset: 0 },
            dims: vec![IoDim::new(4, 2, 2)],
            complex: true,
            stream: 0,
        });
        assert!(direct_extents(&prog).is_none());
    }

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
        let (n, i, o, batch, ty, outer) = cufft_args(&p).unwrap();
        assert_eq!((n, batch, ty), (vec![8, 6], 3, FftType::C2c));
        assert!(outer.is_empty());
        assert_eq!(i, Layout::packed(&[8, 6]));
        assert_eq!(o, i);
        // Two loops that nest collapse too; strided rows keep their stride.
        let p = dft(&[(16, 2 * 10, 2 * 10)], &[(2, 2 * 5, 2 * 5), (5, 2, 2)]);
        let (_, i, _, batch, _, outer) = cufft_args(&p).unwrap();
        assert_eq!((batch, i.stride, i.dist, i.embed), (10, 10, 1, vec![16]));
        assert!(outer.is_empty());
    }

    /// Loops that do not collapse to one batch: the largest group that does is the batch, the
    /// others are executions; loops of no whole elements apart are refused.
    #[test]
    fn loops_that_do_not_collapse_split_into_executions() {
        let p = dft(&[(16, 2, 2)], &[(3, 2 * 100, 2 * 16), (2, 2 * 16, 2 * 48)]);
        let (_, i, o, batch, _, outer) = cufft_args(&p).unwrap();
        assert_eq!((batch, i.dist, o.dist), (3, 100, 16));
        assert_eq!(outer, vec![IoDim::new(2, 2 * 16, 2 * 48)]);
        // A pencil of a 3-D slab: the transform axis between two loops.
        let p = dft(&[(8, 2 * 5, 2 * 5)], &[(4, 2 * 40, 2 * 40), (5, 2, 2)]);
        let (n, i, _, batch, _, outer) = cufft_args(&p).unwrap();
        assert_eq!((n, batch, i.stride, i.dist), (vec![8], 5, 5, 1));
        assert_eq!(outer, vec![IoDim::new(4, 2 * 40, 2 * 40)]);
        // Length-1 loops drop out.
        let p = dft(&[(8, 2, 2)], &[(1, 2 * 8, 2 * 8), (3, 2 * 8, 2 * 8)]);
        let (_, _, _, batch, _, outer) = cufft_args(&p).unwrap();
        assert_eq!((batch, outer.len()), (3, 0));
        let p = dft(&[(16, 2, 2)], &[(3, 3, 3)]);
        let e = cufft_args(&p).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported);
        assert!(e.message.contains("whole number"), "{}", e.message);
        // Transposed dims do not nest.
        let p = dft(&[(4, 2, 2), (6, 2 * 4, 2 * 4)], &[]);
        assert!(cufft_args(&p).unwrap_err().message.contains("nest"));
    }

    #[test]
    fn r2c_sides_count_their_own_elements() {
        let mut p = dft(&[(4, 18, 18), (16, 1, 2)], &[]);
        p.kind = Kind::R2c;
        // In place: real rows of 18 scalars (16 used), complex rows of 9 elements.
        let (_, i, o, _, ty, _) = cufft_args(&p).unwrap();
        assert_eq!(ty, FftType::R2c);
        assert_eq!((i.embed, i.stride), (vec![4, 18], 1));
        assert_eq!((o.embed, o.stride), (vec![4, 9], 1));
    }

    /// Every Fft step of the out-of-card programs that tests/gpu.rs runs maps to a cuFFT plan.
    #[test]
    fn out_of_card_programs_are_supported() {
        use crate::passes::out_of_card::{lower, Budget, HostArrays};
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
            let prog = lower(&p, Budget { device: 0, bytes }, HostArrays::Pageable).unwrap();
            supported::<f64>(&prog).unwrap();
            for step in &prog.steps {
                if let Step::Fft { problem, .. } = step {
                    cufft_args(problem).unwrap_or_else(|e| panic!("{e:?}\n{}", prog.describe()));
                }
            }
        }
    }

    /// Every Fft step of the distributed programs that tests/gpu.rs runs (1 to 4 virtual
    /// devices, more devices than planes included: empty shares) maps to cuFFT plans, the
    /// streams each map to one card whether the devices are partitions of one card or cards of
    /// their own, and the program names exactly its devices.
    #[test]
    fn distributed_programs_are_supported() {
        use crate::passes::distribute;
        for (ns, kind) in distributed_cases() {
            for parts in 1..=4 {
                let p = Problem::packed(ns, kind.clone(), Precision::F64);
                let devices: Vec<usize> = (0..parts).collect();
                let prog = if ns.len() == 1 {
                    distribute::one_dimension(&p, &devices)
                } else {
                    distribute::slabs(&p, &devices)
                }
                .unwrap();
                let ctx = || format!("{ns:?} {kind:?} over {parts}\n{}", prog.describe());
                supported::<f64>(&prog).unwrap_or_else(|e| panic!("{e:?} {}", ctx()));
                assert_eq!(devices_needed(&prog), parts, "{}", ctx());
                for step in prog.steps.iter().filter(|s| !empty(s)) {
                    if let Step::Fft { problem, .. } = step {
                        cufft_args(problem).unwrap_or_else(|e| panic!("{e:?} {}", ctx()));
                    }
                }
                let one_card = vec![0; parts];
                let (streams, _) = CudaProgram::<f64>::map_streams(&prog, &one_card).unwrap();
                assert!(streams.iter().all(|&c| c == 0));
                let (streams, events) = CudaProgram::<f64>::map_streams(&prog, &devices).unwrap();
                // Stream p computes on device p, stream P + p moves device p's parts.
                let expected = [&devices[..], &devices].concat();
                assert_eq!(streams, expected, "stream p runs on device p: {}", ctx());
                for step in &prog.steps {
                    if let Step::Record { event, stream } = step {
                        assert_eq!(events[*event], streams[*stream], "{}", ctx());
                    }
                }
            }
        }
    }

    /// Of two loops as long, the batch is the one whose transforms lie closest together (the
    /// pencil FFT of a one-card slab decomposition: columns 1 apart, not planes n² apart).
    #[test]
    fn the_batch_of_equal_loops_is_the_densest() {
        let planes = IoDim::new(1024, 2 << 20, 2 << 20);
        let columns = IoDim::new(1024, 2, 2);
        for loops in [[planes, columns], [columns, planes]] {
            let (batch, outer) = split_loops(&loops, 2, 2).unwrap();
            assert_eq!(batch, Some((1024, 1, 1)));
            assert_eq!(outer, vec![planes]);
        }
        // A longer loop still wins.
        let more = IoDim::new(2048, 2 << 20, 2 << 20);
        let (batch, outer) = split_loops(&[columns, more], 2, 2).unwrap();
        assert_eq!(batch, Some((2048, 1 << 20, 1 << 20)));
        assert_eq!(outer, vec![columns]);
    }

    /// The pencil decompositions of the 3-D cases (and of a 1024³ c2c and r2c, the bench's
    /// largest) map to cuFFT plans: each phase one batch of 1-D transforms along the packed
    /// innermost axis; stream p and events p, P + p on device p.
    #[test]
    fn pencil_programs_are_supported() {
        use crate::passes::distribute;
        let big: [(&[isize], Kind); 2] = [
            (&[1024, 1024, 1024], Kind::Dft { sign: -1 }),
            (&[1024, 1024, 1024], Kind::R2c),
        ];
        let cases = distributed_cases()
            .into_iter()
            .filter(|(ns, _)| ns.len() == 3);
        for (ns, kind) in cases.chain(big) {
            for parts in [1, 2, 3, 4, 8] {
                let p = Problem::packed(ns, kind.clone(), Precision::F32);
                let devices: Vec<usize> = (0..parts).collect();
                let prog = distribute::pencils(&p, &devices).unwrap();
                let ctx = || format!("{ns:?} {kind:?} over {parts}\n{}", prog.describe());
                supported::<f32>(&prog).unwrap_or_else(|e| panic!("{e:?} {}", ctx()));
                assert_eq!(devices_needed(&prog), parts, "{}", ctx());
                for step in prog.steps.iter().filter(|s| !empty(s)) {
                    if let Step::Fft { problem, .. } = step {
                        let (_, _, _, batch, ..) =
                            cufft_args(problem).unwrap_or_else(|e| panic!("{e:?} {}", ctx()));
                        assert_eq!(
                            batch as usize,
                            problem.howmany(),
                            "one batch per phase: {}",
                            ctx()
                        );
                    }
                }
                let (streams, events) = CudaProgram::<f32>::map_streams(&prog, &devices).unwrap();
                // Stream p computes on device p, stream P + p moves device p's parts.
                let want = [&devices[..], &devices].concat();
                assert_eq!(streams, want, "{}", ctx());
                for step in &prog.steps {
                    if let Step::Record { event, stream } = step {
                        assert_eq!(events[*event], streams[*stream], "{}", ctx());
                    }
                }
            }
        }
    }

    /// The FMM-FFT and six-step programs run here once their collectives are transfers:
    /// stream g on device g's card (one card: every stream), FFTs that cuFFT plans.
    #[test]
    fn fmm_and_six_step_programs_are_supported() {
        use crate::passes::fmm;
        for parts in [1, 2, 4] {
            let devices: Vec<usize> = (0..parts).collect();
            let p = Problem::packed(&[1 << 12], Kind::Dft { sign: -1 }, Precision::F64);
            for prog in [
                fmm::fmm_fft(&p, &devices).unwrap(),
                fmm::six_step(&p, &devices).unwrap(),
            ] {
                let prog = expand_collectives(&prog);
                supported::<f64>(&prog).unwrap_or_else(|e| panic!("{e:?}\n{}", prog.describe()));
                for step in prog.steps.iter().filter(|s| !empty(s)) {
                    if let Step::Fft { problem, .. } = step {
                        cufft_args(problem).unwrap();
                    }
                }
                let (streams, _) = CudaProgram::<f64>::map_streams(&prog, &devices).unwrap();
                assert_eq!(streams, devices, "{}", prog.describe());
                let (streams, _) = CudaProgram::<f64>::map_streams(&prog, &vec![0; parts]).unwrap();
                assert!(streams.iter().all(|&c| c == 0));
            }
        }
    }

    /// The shapes and kinds the distributed GPU tests run: 1-D (four-step), 2-D and 3-D c2c,
    /// r2c and c2r, a 2-D problem with fewer planes than devices.
    pub(crate) fn distributed_cases() -> Vec<(&'static [isize], Kind)> {
        vec![
            (&[240], Kind::Dft { sign: -1 }),
            (&[24, 20], Kind::Dft { sign: 1 }),
            (&[3, 10], Kind::Dft { sign: -1 }),
            (&[6, 8, 10], Kind::Dft { sign: -1 }),
            (&[12, 10], Kind::R2c),
            (&[6, 4, 10], Kind::R2c),
            (&[12, 10], Kind::C2r),
            (&[6, 4, 10], Kind::C2r),
        ]
    }

    #[test]
    fn transfers_run_along_the_host_sides_smallest_stride() {
        // Round A of a four-step writes its tile transposed: (k1, n2) to k1·2 + n2·32768.
        let d2h = [IoDim::new(16384, 5460, 2), IoDim::new(2730, 2, 32768)];
        let o = host_order(&d2h, Route::DeviceToHost);
        assert_eq!(o, vec![d2h[1], d2h[0]]);
        assert!(contiguous(&o[1..], |d| d.os, 2) && !contiguous(&o, |d| d.is, 2));
        // Already host-major, and device-to-device: left as they are.
        let h2d = [IoDim::new(16384, 32768, 5460), IoDim::new(2730, 2, 2)];
        assert_eq!(host_order(&h2d, Route::HostToDevice), h2d.to_vec());
        assert_eq!(host_order(&d2h, Route::DeviceToDevice), d2h.to_vec());
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
