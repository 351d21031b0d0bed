//! Programs with `Kernel` steps on the GPU (what FFTX plans lower to, `fftx::exec`): the caller's
//! arrays are `Role::Array` buffers, the temporaries host `Temp`/`ZeroTemp` buffers placed on
//! the device here. (`CudaProgram` in `program.rs` runs the placed Programs of FFTW plans; the
//! two become one executor when this one takes placements from the Program.)
//!
//! - Temporaries live on the device. A caller's host array gets one device mirror over the
//!   bytes the plan touches: one copy in before the steps, one copy out of the arrays written
//!   (device arrays are used where they are).
//! - A chain runs as its pencil program (`program::pencil`): one batched 1-D pass per axis over
//!   the live pencils only, with the zero padding, the loads, the stores and the pointwise
//!   programs in generated code (`cudagen`), one of three ways ([`Fusion`]): our pass kernels,
//!   cuFFT plans with LTO callbacks, or gather and scatter kernels around plain cuFFT plans.
//!   Which runs is measured at plan time (each that builds is timed, unless FFTX_ESTIMATE or
//!   `FFTX_GPU_FUSION` decides), and printed.
//! - `Map` kernels are one generated kernel each; `Fft` steps are the CUDA executor's transforms
//!   over the device addresses (`transform::GpuTransform`).

use super::cudagen;
use super::cufft::{jit_callbacks_available, CufftPlan, FftType, JitCallbacks};
use super::kernels::{self, compile_generated, generated_function, Generated};
use super::transform::GpuTransform;
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cuda::{self, check, Error, Memory, Result};
use crate::problem::{Kind, Kind1d, Precision, Problem};
use crate::program::kernel::{shape_of, Access, Chain, Elements, Kernel, Stage};
use crate::program::pencil::PencilProgram;
use crate::program::{BufId, Program, Role, Step};
use cudarc::driver::sys as cu;
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::ffi::c_void;
use std::time::Instant;

/// Device memory owned by a plan.
struct DevBuf {
    ptr: u64,
    bytes: usize,
}

impl DevBuf {
    fn new(bytes: usize) -> Result<DevBuf> {
        if bytes > cuda::device_budget() {
            return Err(Error::new(
                crate::error::ErrorKind::OutOfDeviceMemory,
                format!("out of memory: {bytes} bytes over the FFTX_GPU_MEMORY budget"),
            ));
        }
        let mut d = 0;
        // SAFETY: cuMemAlloc writes the address of a new block.
        check(
            unsafe { cu::cuMemAlloc_v2(&mut d, bytes.max(16)) },
            "cuMemAlloc",
        )?;
        Ok(DevBuf { ptr: d, bytes })
    }
    fn with(words: &[u64]) -> Result<DevBuf> {
        let b = DevBuf::new(words.len() * 8)?;
        // SAFETY: a block of that many bytes.
        check(
            unsafe { cu::cuMemcpyHtoD_v2(b.ptr, words.as_ptr() as *const c_void, words.len() * 8) },
            "cuMemcpyHtoD",
        )?;
        Ok(b)
    }
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        if let Some(g) = cuda::default_device() {
            let _ = g.bind();
            // SAFETY: allocated by DevBuf::new, freed once.
            unsafe { cu::cuMemFree_v2(self.ptr) };
        }
    }
}

/// How a chain's load/store functions run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fusion {
    /// Our pass kernels: loads, a shared-memory FFT of whole pencils, stores (passes whose
    /// length has no split run as `Kernel`).
    Fused,
    /// cuFFT LTO callbacks: inside cuFFT's own loads and stores.
    Callback,
    /// A gather kernel before and a scatter kernel after each plain cuFFT plan.
    Kernel,
}

impl Fusion {
    fn name(self) -> &'static str {
        match self {
            Fusion::Fused => "fused",
            Fusion::Callback => "callback",
            Fusion::Kernel => "kernel",
        }
    }
}

/// `FFTX_GPU_FUSION=fused|callback|kernel` forces one; unset or `auto`: measured.
fn fusion_setting() -> Option<Fusion> {
    match std::env::var("FFTX_GPU_FUSION")
        .ok()
        .as_deref()
        .map(str::trim)
    {
        Some("callback") => Some(Fusion::Callback),
        Some("kernel") => Some(Fusion::Kernel),
        Some("fused") => Some(Fusion::Fused),
        _ => None,
    }
}

/// Whether this cuFFT makes plans with LTO callbacks (cuFFT of CUDA 12.8 or later, an
/// nvJitLink at least as new as the NVRTC that compiles them): tried once on a small r2c plan
/// with a load and a store callback compiled by NVRTC. `fftx info` reports it too.
pub fn callbacks_usable() -> Result<(), String> {
    static PROBE: Lazy<Result<(), String>> = Lazy::new(|| {
        if !jit_callbacks_available() {
            return Err(
                "this cuFFT has no cufftXtSetJITCallback (LTO callbacks need the cuFFT of CUDA 12.8 or later)"
                    .into(),
            );
        }
        let g = dev().map_err(|e| e.message)?;
        g.bind().map_err(|e| e.message)?;
        let src = "__device__ double fftx_probe_ld(void* d, unsigned long long off, void* info, void* s) { return ((double*)d)[off]; }\n__device__ void fftx_probe_st(void* d, unsigned long long off, double2 e, void* info, void* s) { ((double2*)d)[off] = e; }\n";
        let Generated::Lto(image) = compile_generated(&g, src, true).map_err(|e| e.message)? else {
            return Err("no LTO-IR".into());
        };
        let cb = JitCallbacks {
            image,
            load: Some("fftx_probe_ld".into()),
            store: Some("fftx_probe_st".into()),
            real_in: true,
            real_out: false,
            precision: Precision::F64,
            info: 0,
        };
        CufftPlan::batched_1d(64, 2, FftType::R2c, Precision::F64, Some(&cb))
            .map(drop)
            .map_err(|e| format!("a cuFFT plan with LTO callbacks fails: {e}"))
    });
    PROBE.clone()
}

struct GpuPass {
    plan: Option<CufftPlan>,
    sign: i32,
    batch: u64,
    len_in: u64,
    len_out: u64,
    /// The gather kernel that writes the pass's virtual input, and the scatter kernel that
    /// reads its virtual output: kernel fusion has both; callback fusion none, or the scatter
    /// alone where cuFFT takes the load callback but not both (see `callback_plan`).
    gather: Option<usize>,
    scatter: Option<usize>,
    /// Our pass kernel, its grid and block (fused).
    fused: Option<(usize, u32, u32)>,
}

/// A chain built for one way of fusing: its pencil program, device buffers and passes.
struct Variant {
    fusion: Fusion,
    prog: PencilProgram,
    table: DevBuf,
    _inter: [DevBuf; 2],
    /// The virtual input and output of passes that run through cuFFT (none when every pass is
    /// a fused kernel).
    virt: Option<(DevBuf, DevBuf)>,
    passes: Vec<GpuPass>,
}

impl Variant {
    fn new(
        chain: &Chain,
        precision: Precision,
        f: Fusion,
        addr: &dyn Fn(BufId) -> u64,
        stream: cu::CUstream,
    ) -> Result<Variant> {
        let prog = crate::program::pencil::lower(chain, precision, f == Fusion::Fused)
            .map_err(Error::unsupported)?;
        // Bytes of one complex element in the plan's precision.
        let cbytes = 2 * prog.precision().bytes();
        let inter = [
            DevBuf::new(prog.inter_len * cbytes)?,
            DevBuf::new(prog.inter_len * cbytes)?,
        ];
        let mut words = vec![inter[0].ptr, inter[1].ptr];
        words.extend(prog.buffers.iter().map(|&b| addr(b)));
        let table = DevBuf::with(&words)?;
        let mut v = Variant {
            fusion: f,
            prog,
            table,
            _inter: inter,
            virt: None,
            passes: Vec::new(),
        };
        v.passes = v.make_passes(stream)?;
        let virt = v
            .prog
            .passes
            .iter()
            .zip(&v.passes)
            .filter(|(_, g)| g.fused.is_none())
            .map(|(p, _)| p.batch() * p.len_in().max(p.len_out()) * cbytes)
            .max();
        if let Some(bytes) = virt {
            v.virt = Some((DevBuf::new(bytes)?, DevBuf::new(bytes)?));
        }
        Ok(v)
    }

    fn make_passes(&self, stream: cu::CUstream) -> Result<Vec<GpuPass>> {
        let f = self.fusion;
        let src = cudagen::chain_source(&self.prog, f != Fusion::Callback);
        let compiled = compile_generated(&*dev()?, &src, f == Fusion::Callback)?;
        let mut out = Vec::new();
        for (k, p) in self.prog.passes.iter().enumerate() {
            let (ty, sign) = match p.kind {
                Kind1d::Dft { sign } => (FftType::C2c, sign),
                Kind1d::R2c => (FftType::R2c, -1),
                Kind1d::C2r => (FftType::C2r, 1),
            };
            let (plan, gather, scatter) = match &compiled {
                Generated::Lto(image) => {
                    let (plan, scatter) = self.callback_plan(k, p, ty, image)?;
                    (plan, None, scatter)
                }
                Generated::Module(m) => {
                    if let (Fusion::Fused, Some(shape)) =
                        (f, crate::program::pencil::fused_shape(p.n))
                    {
                        let kernel = generated_function(*m, &format!("fftx_pass{k}"))? as usize;
                        let grid = p
                            .batch()
                            .div_ceil(cudagen::pencils_per_block(p).unwrap_or(shape.pencils));
                        if grid > i32::MAX as usize {
                            return Err(Error::unsupported(format!("pass {k}: {grid} blocks")));
                        }
                        out.push(GpuPass {
                            plan: None,
                            sign,
                            batch: p.batch() as u64,
                            len_in: 0,
                            len_out: 0,
                            gather: None,
                            scatter: None,
                            fused: Some((kernel, grid as u32, shape.threads as u32)),
                        });
                        continue;
                    }
                    let g = generated_function(*m, &format!("fftx_gather{k}"))? as usize;
                    let s = generated_function(*m, &format!("fftx_scatter{k}"))? as usize;
                    (
                        CufftPlan::batched_1d(
                            p.n as i64,
                            p.batch() as i64,
                            ty,
                            self.prog.precision(),
                            None,
                        )?,
                        Some(g),
                        Some(s),
                    )
                }
            };
            plan.set_stream(stream)?;
            out.push(GpuPass {
                plan: Some(plan),
                sign,
                batch: p.batch() as u64,
                len_in: p.len_in() as u64,
                len_out: p.len_out() as u64,
                gather,
                scatter,
                fused: None,
            });
        }
        Ok(out)
    }

    /// The cuFFT plan of pass `k` with its load and store as LTO callbacks. cuFFT 12.0 (CUDA
    /// 13.0) refuses a load and a store callback together on power-of-two c2c sizes
    /// (CUFFT_INTERNAL_ERROR; either alone, any other size, r2c and c2r plan): such a pass
    /// keeps the load callback and stores through the scatter kernel (the pass's source
    /// compiled to PTX), which is returned with the plan.
    fn callback_plan(
        &self,
        k: usize,
        p: &crate::program::pencil::Pass,
        ty: FftType,
        image: &std::sync::Arc<Vec<u8>>,
    ) -> Result<(CufftPlan, Option<usize>)> {
        let plan = |store: bool| {
            let cb = JitCallbacks {
                image: image.clone(),
                load: Some(format!("fftx_ld{k}")),
                store: store.then(|| format!("fftx_st{k}")),
                real_in: p.kind.real_in(),
                real_out: p.kind.real_out(),
                precision: self.prog.precision(),
                info: self.table.ptr,
            };
            let precision = self.prog.precision();
            CufftPlan::batched_1d(p.n as i64, p.batch() as i64, ty, precision, Some(&cb))
                .map_err(|e| e.context(format!("pass {k} ({ty:?} n={} batch={})", p.n, p.batch())))
        };
        let both = match plan(true) {
            Ok(plan) => return Ok((plan, None)),
            Err(e) => e,
        };
        let load_only = plan(false).map_err(|e| e.context(format!("{both}; load alone")))?;
        crate::log::log_info!("fftx gpu: {both}; the store runs as a scatter kernel");
        let Generated::Module(m) =
            compile_generated(&*dev()?, &cudagen::chain_source(&self.prog, true), false)?
        else {
            unreachable!("PTX compilation gives a module")
        };
        let scatter = generated_function(m, &format!("fftx_scatter{k}"))? as usize;
        Ok((load_only, Some(scatter)))
    }

    /// Logs each pass's time and the bandwidth it reaches (FFTX_LOG=info).
    fn profile(&self, stream: cu::CUstream) -> Result<()> {
        // SAFETY: as `time`.
        unsafe { self.run(stream)? };
        for (k, (p, g)) in self.prog.passes.iter().zip(&self.passes).enumerate() {
            let mut best = f64::INFINITY;
            for _ in 0..3 {
                check(
                    unsafe { cu::cuStreamSynchronize(stream) },
                    "cuStreamSynchronize",
                )?;
                let t = Instant::now();
                // SAFETY: as `time`; one pass of the variant.
                unsafe { self.run_passes(std::slice::from_ref(g), stream)? };
                check(
                    unsafe { cu::cuStreamSynchronize(stream) },
                    "cuStreamSynchronize",
                )?;
                best = best.min(t.elapsed().as_secs_f64());
            }
            // What the pass moves: the live part of each pencil in and out, and each data
            // operand over the elements it is applied to.
            let rb = self.prog.precision().bytes() as f64;
            let elem = |real: bool| if real { rb } else { 2.0 * rb };
            let live_in = p.live_in.len().min(p.len_in()) as f64;
            let live_out = p.live_out.len().min(p.len_out()) as f64;
            let data_in = |f: Option<&crate::program::pencil::Fused>, len: f64| {
                if f.is_some_and(|f| f.data.is_some()) {
                    len * 2.0 * rb
                } else {
                    0.0
                }
            };
            let mid = p
                .mid
                .as_ref()
                .map_or(0.0, |m| data_in(m.fused.as_ref(), m.keep.len() as f64));
            let bytes = p.batch() as f64
                * (live_in * elem(p.kind.real_in())
                    + live_out * elem(p.kind_out().real_out())
                    + data_in(p.head.as_ref(), live_in)
                    + data_in(p.tail.as_ref(), live_out)
                    + mid);
            crate::log::log_info!(
                "fftx gpu: pass {k} ({} n={} axis {} batch {}{}): {:.3} ms, {:.0} GB/s",
                self.fusion.name(),
                p.n,
                p.axis,
                p.batch(),
                if p.mid.is_some() { " merged" } else { "" },
                best * 1e3,
                bytes / best / 1e9
            );
        }
        Ok(())
    }

    /// Best of three runs after one warm-up, in ms.
    fn time(&self, stream: cu::CUstream) -> Result<f64> {
        let mut best = f64::INFINITY;
        for i in 0..4 {
            let t = Instant::now();
            // SAFETY: the variant's buffers are allocated; the caller's arrays are valid at plan
            // time (as FFTW_MEASURE, a measurement may overwrite them).
            unsafe { self.run(stream)? };
            check(
                unsafe { cu::cuStreamSynchronize(stream) },
                "cuStreamSynchronize",
            )?;
            if i > 0 {
                best = best.min(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        Ok(best)
    }

    unsafe fn run(&self, stream: cu::CUstream) -> Result<()> {
        self.run_passes(&self.passes, stream)
    }

    unsafe fn run_passes(&self, passes: &[GpuPass], stream: cu::CUstream) -> Result<()> {
        let (mut vin, mut vout) = self.virt.as_ref().map_or((0, 0), |(i, o)| (i.ptr, o.ptr));
        let mut table = self.table.ptr;
        for p in passes {
            if let Some((f, grid, block)) = p.fused {
                kernels::launch_pass(f as cu::CUfunction, (grid, block), stream, p.batch, table)?;
                continue;
            }
            let plan = p.plan.as_ref().expect("a cuFFT pass has its plan");
            if let Some(gather) = p.gather {
                let mut n = p.batch * p.len_in;
                kernels::launch(
                    &*dev()?,
                    gather as cu::CUfunction,
                    n,
                    stream,
                    &mut [
                        &mut n as *mut u64 as *mut c_void,
                        &mut table as *mut u64 as *mut c_void,
                        &mut vin as *mut u64 as *mut c_void,
                    ],
                )?;
            }
            plan.exec(vin, vout, p.sign)?;
            if let Some(scatter) = p.scatter {
                let mut n = p.batch * p.len_out;
                kernels::launch(
                    &*dev()?,
                    scatter as cu::CUfunction,
                    n,
                    stream,
                    &mut [
                        &mut n as *mut u64 as *mut c_void,
                        &mut table as *mut u64 as *mut c_void,
                        &mut vout as *mut u64 as *mut c_void,
                    ],
                )?;
            }
        }
        Ok(())
    }
}

struct GpuChain {
    variant: Variant,
    /// (fusion, ms per run) of the variants timed at plan time.
    timings: Vec<(Fusion, f64)>,
}

impl GpuChain {
    fn build(
        chain: &Chain,
        precision: Precision,
        addr: &dyn Fn(BufId) -> u64,
        stream: cu::CUstream,
        measure: bool,
    ) -> Result<GpuChain> {
        let candidates: Vec<Fusion> = match fusion_setting() {
            Some(f) => vec![f],
            None => {
                let mut v = vec![Fusion::Fused];
                match callbacks_usable() {
                    Ok(()) => v.push(Fusion::Callback),
                    Err(e) => crate::log::log_info!("fftx gpu: no cuFFT callbacks: {e}"),
                }
                v.push(Fusion::Kernel);
                v
            }
        };
        let mut timings = Vec::new();
        let mut best: Option<(f64, Variant)> = None;
        let mut errors = Vec::new();
        for f in candidates.iter().copied() {
            let built = Instant::now();
            let v = match Variant::new(chain, precision, f, addr, stream) {
                Ok(v) => v,
                Err(e) => {
                    crate::log::log_info!("fftx gpu: {} fusion unavailable: {e}", f.name());
                    errors.push(format!("{}: {e}", f.name()));
                    continue;
                }
            };
            if !measure || candidates.len() == 1 {
                best = Some((0.0, v));
                break;
            }
            let ms = v.time(stream)?;
            crate::log::log_progress!(
                "fftx gpu: {} fusion {ms:.3} ms for a chain of {} passes (built and timed in {:.0} ms)",
                f.name(),
                v.prog.passes.len(),
                built.elapsed().as_secs_f64() * 1e3
            );
            timings.push((f, ms));
            if best.as_ref().is_none_or(|b| ms < b.0) {
                best = Some((ms, v));
            }
        }
        let (_, variant) = best.ok_or_else(|| {
            Error::unsupported(format!("no way to run the chain: {}", errors.join("; ")))
        })?;
        if crate::log::enabled(crate::log::Level::Info) {
            variant.profile(stream)?;
        }
        crate::log::log_info!(
            "fftx gpu: chain of {} passes runs with {} fusion{}",
            variant.prog.passes.len(),
            variant.fusion.name(),
            timings
                .iter()
                .map(|(f, ms)| format!(" ({} {ms:.3} ms)", f.name()))
                .collect::<String>()
        );
        Ok(GpuChain { variant, timings })
    }

    fn describe(&self) -> String {
        let v = &self.variant;
        let measured = if self.timings.is_empty() {
            String::new()
        } else {
            format!(
                " measured {}",
                self.timings
                    .iter()
                    .map(|(f, ms)| format!("{}={ms:.3}ms", f.name()))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        };
        let passes: Vec<String> = v
            .prog
            .passes
            .iter()
            .map(|p| {
                let name = |k: Kind1d| match k {
                    Kind1d::Dft { sign } if sign < 0 => "fwd",
                    Kind1d::Dft { .. } => "bwd",
                    Kind1d::R2c => "r2c",
                    Kind1d::C2r => "c2r",
                };
                let mid = p
                    .mid
                    .as_ref()
                    .map(|m| {
                        format!(
                            "+{}{}",
                            if m.fused.is_some() { "pointwise+" } else { "" },
                            name(m.kind)
                        )
                    })
                    .unwrap_or_default();
                format!("{}{}{mid}:axis{}x{}", name(p.kind), p.n, p.axis, p.batch())
            })
            .collect();
        let no_callbacks = match callbacks_usable() {
            Ok(()) => String::new(),
            Err(e) => format!(" (no callbacks: {e})"),
        };
        format!(
            "(gpu passes [{}] fusion={}{measured}{no_callbacks})",
            passes.join(" "),
            v.fusion.name()
        )
    }
}

enum GpuStep {
    Chain(Box<GpuChain>),
    Elementwise { f: usize, total: u64, table: DevBuf },
    Fft(GpuFft),
}

/// An `Fft` step over device addresses, in the plan's precision.
enum GpuFft {
    F64(Box<GpuTransform<f64>>, ArrayPtr, ArrayPtr),
    F32(Box<GpuTransform<f32>>, ArrayPtr, ArrayPtr),
}

impl GpuFft {
    fn new(problem: &Problem, input: ArrayPtr, output: ArrayPtr) -> Result<GpuFft> {
        if !super::transform::supports(problem) {
            return Err(Error::unsupported(format!(
                "{} runs on the CPU only",
                problem.describe()
            )));
        }
        Ok(match problem.precision {
            Precision::F64 => GpuFft::F64(Box::new(GpuTransform::new(problem, 1)?), input, output),
            Precision::F32 => GpuFft::F32(Box::new(GpuTransform::new(problem, 1)?), input, output),
        })
    }
    /// # Safety
    /// The device addresses must hold what the problem addresses.
    unsafe fn execute(&self) -> Result<()> {
        match self {
            GpuFft::F64(t, i, o) => t.execute(*i, *o),
            GpuFft::F32(t, i, o) => t.execute(*i, *o),
        }
        .map_err(|f| f.error)
    }
    fn describe(&self) -> String {
        match self {
            GpuFft::F64(t, ..) => t.describe(),
            GpuFft::F32(t, ..) => t.describe(),
        }
    }
}

/// The device copy of the bytes of a caller's host array the plan touches: from host address
/// `host`, at `dev`. Copied in before the steps unless the plan only writes all of it (`copy_in`),
/// out after them if written.
struct HostSpan {
    host: usize,
    dev: DevBuf,
    copy_in: bool,
    written: bool,
}

pub struct GpuCompiled {
    stream: cu::CUstream,
    zero_temps: Vec<(u64, usize)>,
    _temps: Vec<DevBuf>,
    mirrors: Vec<HostSpan>,
    /// Some caller array is device memory (used in place: only the GPU can compute the plan).
    device_arrays: bool,
    /// Per step of the Program.
    steps: Vec<GpuStep>,
}

/// A failed GPU execute. `recomputable`: every caller array is host memory and none that the
/// plan reads has been written, so the CPU can compute the plan from the start.
pub struct ChainFailure {
    pub error: Error,
    pub recomputable: bool,
}

// The compiled plan holds device addresses and a stream, used under the plan's lock.
unsafe impl Send for GpuCompiled {}

impl Drop for GpuCompiled {
    fn drop(&mut self) {
        self.steps.clear();
        if let Some(g) = cuda::default_device() {
            let _ = g.bind();
            // SAFETY: made in `lower`, destroyed once.
            unsafe { cu::cuStreamDestroy_v2(self.stream) };
        }
    }
}

/// An `Fft` step's input or output as an element access over its index shape (loops, then the
/// transform axes; the complex side of r2c/c2r halved).
fn fft_side(problem: &Problem, at: &crate::program::At, input: bool) -> (Access, Vec<usize>) {
    let complex = if input {
        problem.kind.input_is_complex()
    } else {
        problem.kind.output_is_complex()
    };
    let per = if complex { 2 } else { 1 };
    let halved = match problem.kind {
        Kind::C2r => input,
        Kind::R2c => !input,
        _ => false,
    };
    let dims: Vec<usize> = problem.dims.iter().map(|d| d.n as usize).collect();
    let shape = problem
        .loops
        .iter()
        .map(|d| d.n as usize)
        .chain(shape_of(&dims, halved))
        .collect();
    let strides = problem
        .loops
        .iter()
        .chain(&problem.dims)
        .map(|d| if input { d.is } else { d.os } / per)
        .collect();
    let access = Access {
        buf: Elements {
            buf: at.buf,
            complex,
        },
        base: at.offset / per,
        strides,
    };
    (access, shape)
}

/// Every access of the Program's steps with its index shape and whether it is written.
fn accesses(program: &Program) -> Vec<(Access, Vec<usize>, bool)> {
    let mut v = Vec::new();
    for s in &program.steps {
        match s {
            Step::Fft {
                problem,
                input,
                output,
                ..
            } => {
                let (i, si) = fft_side(problem, input, true);
                let (o, so) = fft_side(problem, output, false);
                v.push((i, si, false));
                v.push((o, so, true));
            }
            Step::Kernel {
                kernel:
                    Kernel::Map {
                        shape,
                        src,
                        dst,
                        data,
                        ..
                    },
                ..
            } => {
                v.push((src.clone(), shape.clone(), false));
                v.push((dst.clone(), shape.clone(), true));
                if let Some(d) = data {
                    v.push((d.clone(), shape.clone(), false));
                }
            }
            Step::Kernel {
                kernel: Kernel::Chain(c),
                ..
            } => {
                let cshape = shape_of(&c.n, !matches!(c.first_kind(), Kind::Dft { .. }));
                for l in &c.loads {
                    v.push((l.access.clone(), l.extent.clone(), false));
                }
                for l in &c.stores {
                    v.push((l.access.clone(), l.extent.clone(), true));
                }
                for st in &c.stages {
                    if let Stage::Pointwise { data: Some(d), .. } = st {
                        v.push((d.clone(), cshape.clone(), false));
                    }
                }
            }
            _ => {}
        }
    }
    v
}

/// Byte spans `[lo, hi)` of each caller's array (`Role::Array` buffer) and how the steps use
/// them; `precision`: the plan's.
fn array_spans(program: &Program, precision: Precision) -> HashMap<BufId, Span> {
    let mut m: HashMap<BufId, Span> = HashMap::new();
    for (a, shape, written) in accesses(program) {
        let Role::Array { addr } = program.buffers[a.buf.buf].role else {
            continue;
        };
        if shape.contains(&0) {
            continue;
        }
        let (lo, hi) = a.span(&shape);
        let e = (precision.bytes() * if a.buf.complex { 2 } else { 1 }) as isize;
        let (lo, hi) = (addr as isize + lo * e, addr as isize + (hi + 1) * e);
        let s = m.entry(a.buf.buf).or_insert(Span {
            lo,
            hi,
            read: false,
            written: false,
            dense_writes: Vec::new(),
        });
        s.lo = s.lo.min(lo);
        s.hi = s.hi.max(hi);
        if written {
            s.written = true;
            if dense(&a, &shape) {
                s.dense_writes.push((lo, hi));
            }
        } else {
            s.read = true;
        }
    }
    m
}

/// The bytes `[lo, hi)` of a caller's array the steps touch, and how.
struct Span {
    lo: isize,
    hi: isize,
    read: bool,
    written: bool,
    /// Byte ranges that writes cover without gaps.
    dense_writes: Vec<(isize, isize)>,
}

impl Span {
    /// Whether the device copy must start as the host's: something is read, or a write leaves
    /// gaps the copy out would otherwise overwrite.
    fn needs_copy_in(&self) -> bool {
        self.read
            || !self
                .dense_writes
                .iter()
                .any(|&(lo, hi)| lo == self.lo && hi == self.hi)
    }
}

/// An access that covers its span without gaps or repeats: sorted by stride, every stride is the
/// extent of the axes inside it.
fn dense(a: &Access, shape: &[usize]) -> bool {
    let mut axes: Vec<(isize, usize)> = a
        .strides
        .iter()
        .map(|s| s.abs())
        .zip(shape.iter().copied())
        .filter(|&(_, n)| n > 1)
        .collect();
    axes.sort();
    let mut extent = 1isize;
    for (s, n) in axes {
        if s != extent {
            return false;
        }
        extent *= n as isize;
    }
    true
}

/// Whether a caller's array of the Program is device memory (then only the GPU may run it).
pub fn touches_device_memory(program: &Program, precision: Precision) -> bool {
    let Some(g) = cuda::default_device() else {
        return false;
    };
    array_spans(program, precision)
        .values()
        .any(|s| cuda::memory_of(&g, s.lo as usize, (s.hi - s.lo) as usize) == Memory::Device)
}

/// A `Kernel::Map` as one generated kernel over the buffers at `addr`.
fn map_step(map: &Kernel, precision: Precision, addr: &dyn Fn(BufId) -> u64) -> Result<GpuStep> {
    let Kernel::Map {
        shape,
        src,
        dst,
        data,
        code,
    } = map
    else {
        unreachable!("a map")
    };
    if dst
        .strides
        .iter()
        .zip(shape)
        .any(|(&s, &len)| s == 0 && len > 1)
    {
        return Err(Error::unsupported(
            "an output stride of 0 (the last write wins on the CPU only)",
        ));
    }
    let side = |a: &Access| (a.buf.complex, a.base, a.strides.clone());
    let (si, so, sd) = (side(src), side(dst), data.as_ref().map(side));
    let src_text = cudagen::elementwise_source(
        precision,
        shape,
        (si.0, si.1, &si.2),
        (so.0, so.1, &so.2),
        sd.as_ref().map(|d| (d.0, d.1, &d.2[..])),
        code.as_deref(),
    );
    let Generated::Module(m) = compile_generated(&*dev()?, &src_text, false)? else {
        unreachable!("PTX was asked for")
    };
    let f = generated_function(m, "fftx_elem")? as usize;
    let words = [
        addr(src.buf.buf),
        addr(dst.buf.buf),
        data.as_ref().map_or(0, |d| addr(d.buf.buf)),
    ];
    Ok(GpuStep::Elementwise {
        f,
        total: shape.iter().map(|&x| x as u64).product(),
        table: DevBuf::with(&words)?,
    })
}

/// Makes a Program of `Fft` and `Kernel` steps over `Role::Array` buffers and host temporaries
/// runnable on the default device, in the plan's precision (every buffer's). `measure`: time
/// the ways to fuse a chain and keep the fastest.
pub fn lower(program: &Program, measure: bool, precision: Precision) -> Result<GpuCompiled> {
    cuda::fault::at_plan()?;
    let g = cuda::default_device().ok_or_else(|| Error::unsupported("no GPU"))?;
    g.check_alive()?;
    let mut stream = std::ptr::null_mut();
    // SAFETY: cuStreamCreate writes a new stream; GpuCompiled's Drop destroys it (below, every
    // error path goes through a GpuCompiled).
    check(
        unsafe {
            cu::cuStreamCreate(
                &mut stream,
                cu::CUstream_flags::CU_STREAM_NON_BLOCKING as u32,
            )
        },
        "cuStreamCreate",
    )?;
    let mut out = GpuCompiled {
        stream,
        zero_temps: Vec::new(),
        _temps: Vec::new(),
        mirrors: Vec::new(),
        device_arrays: false,
        steps: Vec::new(),
    };
    let addrs = out.place(program, precision, &g)?;
    let addr = |b: BufId| addrs[b];
    for (k, s) in program.steps.iter().enumerate() {
        out.steps.push(match s {
            Step::Kernel {
                kernel: Kernel::Chain(c),
                ..
            } => GpuStep::Chain(Box::new(GpuChain::build(
                c, precision, &addr, stream, measure,
            )?)),
            Step::Kernel {
                kernel: map @ Kernel::Map { .. },
                ..
            } => map_step(map, precision, &addr).map_err(|e| e.context(format!("step {k}")))?,
            Step::Fft {
                problem,
                input,
                output,
                ..
            } => {
                let ptr = |a: &crate::program::At, complex: bool| {
                    let at =
                        (addr(a.buf) as isize + a.offset * precision.bytes() as isize) as usize;
                    if complex {
                        ArrayPtr::Complex {
                            re: at,
                            im: at + precision.bytes(),
                        }
                    } else {
                        ArrayPtr::Real(at)
                    }
                };
                let i = ptr(input, problem.kind.input_is_complex());
                let o = ptr(output, problem.kind.output_is_complex());
                GpuStep::Fft(
                    GpuFft::new(problem, i, o).map_err(|e| e.context(format!("step {k}")))?,
                )
            }
            s => {
                return Err(Error::unsupported(format!(
                    "step {k}: {} (not an FFTX program's)",
                    crate::program::Program {
                        buffers: Vec::new(),
                        steps: vec![s.clone()],
                    }
                    .describe()
                )))
            }
        });
    }
    Ok(out)
}

impl GpuCompiled {
    /// Device addresses of the Program's buffers: a caller's device array itself, a device
    /// mirror of the bytes of a host array the steps touch, a device block per temporary.
    fn place(
        &mut self,
        program: &Program,
        precision: Precision,
        g: &cuda::Device,
    ) -> Result<Vec<u64>> {
        let mut addrs = vec![0u64; program.buffers.len()];
        let mut spans: Vec<(BufId, Span)> = array_spans(program, precision).into_iter().collect();
        spans.sort_by_key(|s| s.1.lo);
        for w in spans.windows(2) {
            if w[0].1.hi > w[1].1.lo {
                return Err(Error::bad_input("two of the caller's arrays overlap"));
            }
        }
        for (b, span) in spans {
            let Role::Array { addr } = program.buffers[b].role else {
                unreachable!("spans are of arrays")
            };
            let bytes = (span.hi - span.lo) as usize;
            if cuda::memory_of(g, span.lo as usize, bytes) == Memory::Device {
                addrs[b] = addr as u64;
                self.device_arrays = true;
                continue;
            }
            let dev = DevBuf::new(bytes)?;
            addrs[b] = (dev.ptr as isize + (addr as isize - span.lo)) as u64;
            self.mirrors.push(HostSpan {
                host: span.lo as usize,
                dev,
                copy_in: span.needs_copy_in(),
                written: span.written,
            });
        }
        for (b, buffer) in program.buffers.iter().enumerate() {
            let (scalars, zero) = match buffer.role {
                Role::Temp { scalars } => (scalars, false),
                Role::ZeroTemp { scalars } => (scalars, true),
                Role::Array { .. } => continue,
                _ => return Err(Error::unsupported("the caller's input and output buffers")),
            };
            let bytes = scalars * precision.bytes();
            let d = DevBuf::new(bytes)?;
            addrs[b] = d.ptr;
            if zero {
                self.zero_temps.push((d.ptr, bytes));
            }
            self._temps.push(d);
        }
        Ok(addrs)
    }

    /// Runs the steps.
    ///
    /// # Safety
    /// The caller's arrays the plan was made for must still be valid.
    pub unsafe fn execute(&self) -> Result<(), ChainFailure> {
        // Until the copies out start, no caller array has been written.
        let before_outputs = |error| ChainFailure {
            error,
            recomputable: !self.device_arrays,
        };
        let g =
            cuda::default_device().ok_or_else(|| before_outputs(Error::unsupported("no GPU")))?;
        self.run_steps(&g).map_err(before_outputs)?;
        let s = self.stream;
        let copied_out = (|| {
            for m in self.mirrors.iter().filter(|m| m.written) {
                check(
                    cu::cuMemcpyDtoHAsync_v2(m.host as *mut c_void, m.dev.ptr, m.dev.bytes, s),
                    "cuMemcpyDtoHAsync",
                )?;
            }
            check(cu::cuStreamSynchronize(s), "cuStreamSynchronize")
        })();
        copied_out.map_err(|error| ChainFailure {
            error,
            // Outputs are written again whole by the CPU; an array also read is not intact.
            recomputable: !self.device_arrays
                && !self.mirrors.iter().any(|m| m.written && m.copy_in),
        })?;
        Ok(())
    }

    /// The copies in and the steps (everything before the copies out).
    unsafe fn run_steps(&self, g: &cuda::Device) -> Result<()> {
        cuda::fault::at_execute(g.ordinal)?;
        g.check_alive()?;
        let s = self.stream;
        for m in self.mirrors.iter().filter(|m| m.copy_in) {
            check(
                cu::cuMemcpyHtoDAsync_v2(m.dev.ptr, m.host as *const c_void, m.dev.bytes, s),
                "cuMemcpyHtoDAsync",
            )?;
        }
        for &(p, bytes) in &self.zero_temps {
            check(cu::cuMemsetD8Async(p, 0, bytes, s), "cuMemsetD8Async")?;
        }
        for step in &self.steps {
            match step {
                GpuStep::Chain(c) => c.variant.run(s)?,
                GpuStep::Elementwise { f, total, table } => {
                    let (mut n, mut t) = (*total, table.ptr);
                    kernels::launch(
                        &*dev()?,
                        *f as cu::CUfunction,
                        n,
                        s,
                        &mut [
                            &mut n as *mut u64 as *mut c_void,
                            &mut t as *mut u64 as *mut c_void,
                        ],
                    )?;
                }
                GpuStep::Fft(t) => {
                    check(cu::cuStreamSynchronize(s), "cuStreamSynchronize")?;
                    t.execute()?;
                }
            }
        }
        Ok(())
    }

    /// The printout's GPU lines, one per step.
    pub fn describe(&self) -> Vec<String> {
        let mut v = vec![format!(
            "(gpu mirrors={} device-temporaries={})",
            self.mirrors.len(),
            self._temps.len()
        )];
        for (k, s) in self.steps.iter().enumerate() {
            v.push(match s {
                GpuStep::Chain(c) => format!("step {k}: {}", c.describe()),
                GpuStep::Elementwise { total, .. } => {
                    format!("step {k}: (gpu kernel over {total} elements)")
                }
                GpuStep::Fft(t) => format!("step {k}: (gpu fft {})", t.describe()),
            });
        }
        v
    }
}

/// The device FFTX chains run on: the default device.
fn dev() -> Result<std::sync::Arc<cuda::Device>> {
    cuda::default_device().ok_or_else(|| Error::unsupported("no GPU"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(strides: &[isize]) -> Access {
        Access {
            buf: Elements {
                buf: 0,
                complex: false,
            },
            base: 0,
            strides: strides.to_vec(),
        }
    }

    #[test]
    fn dense_accesses_cover_their_span_once() {
        assert!(dense(&acc(&[12, 1]), &[3, 12]));
        assert!(dense(&acc(&[1, -4]), &[4, 5])); // reversed, transposed
        assert!(dense(&acc(&[7, 1]), &[1, 4])); // a length-1 axis strides anywhere
        assert!(!dense(&acc(&[16, 1]), &[3, 12])); // gaps between rows
        assert!(!dense(&acc(&[2, 1]), &[3, 4])); // rows overlap
        assert!(!dense(&acc(&[0, 1]), &[2, 4])); // repeats
    }

    /// The spans of the caller's arrays a Program's steps touch are the graph's (`Fft` steps
    /// read back from their problems: an r2c with a reversed, offset real input and a padded
    /// complex output; the unoptimized Fig. 2's maps).
    #[test]
    fn array_spans_are_the_graphs() {
        use crate::fftx::graph::{Access as GraphAccess, Buf};
        use crate::fftx::passes::{tests, Step as GraphStep};
        let user = |addr, complex| Buf::User {
            addr,
            complex,
            precision: Precision::F64,
        };
        let (x, y) = (user(0x1000, false), user(0x8000, true));
        let input = GraphAccess {
            buf: x,
            base: 3 * 12 + 11,
            strides: vec![-12, -1],
        };
        let output = GraphAccess {
            buf: y,
            base: 2,
            strides: vec![8, 1],
        };
        let node = tests::fft("r2c", Kind::R2c, &[4, 12], input.clone(), output.clone());
        let steps = [GraphStep::Node(node.clone())];
        let (program, ..) = crate::fftx::exec::lower_program(&steps).unwrap();
        let spans = array_spans(&program, Precision::F64);
        let want = |a: &GraphAccess, shape: &[usize]| a.user_bytes(shape).unwrap();
        assert_eq!((spans[&0].lo, spans[&0].hi), want(&input, &node.in_shape));
        assert_eq!((spans[&1].lo, spans[&1].hi), want(&output, &node.out_shape));
        assert!(spans[&0].read && !spans[&0].written);
        assert!(spans[&1].written && spans[&1].needs_copy_in()); // rows of 7 in 8
        let g = tests::fig2(16, 5, 7);
        let steps: Vec<GraphStep> = g.nodes.iter().cloned().map(GraphStep::Node).collect();
        let (program, ..) = crate::fftx::exec::lower_program(&steps).unwrap();
        let spans = array_spans(&program, Precision::F64);
        let arrays: Vec<(usize, isize, isize, bool)> = program
            .buffers
            .iter()
            .enumerate()
            .filter_map(|(b, buf)| match buf.role {
                Role::Array { addr } => Some((addr, spans[&b].lo, spans[&b].hi, spans[&b].written)),
                _ => None,
            })
            .collect();
        assert_eq!(
            arrays,
            vec![
                (0x1000, 0x1000, 0x1000 + 25 * 8, false),
                (0x200000, 0x200000, 0x200000 + 144 * 16, false),
                (0x100000, 0x100000, 0x100000 + 49 * 8, true),
            ]
        );
    }

    #[test]
    fn only_a_gapless_write_of_the_whole_span_skips_the_copy_in() {
        let span = |read, dense_writes: Vec<(isize, isize)>| Span {
            lo: 0,
            hi: 64,
            read,
            written: true,
            dense_writes,
        };
        assert!(!span(false, vec![(0, 64)]).needs_copy_in());
        assert!(span(true, vec![(0, 64)]).needs_copy_in());
        assert!(span(false, vec![(0, 32)]).needs_copy_in());
        assert!(span(false, vec![]).needs_copy_in());
    }
}
