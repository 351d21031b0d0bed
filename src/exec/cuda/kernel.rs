//! The `Kernel` steps of Programs on the GPU (what FFTX plans lower to, `fftx::exec`), made
//! ready by the CUDA executor of Programs (`program.rs`) as [`KernelStep`]s over its device
//! buffers, on its stream:
//!
//! - A chain runs as its pencil program (`program::pencil`): one batched 1-D pass per axis over
//!   the live pencils only, with the zero padding, the loads, the stores and the pointwise
//!   programs in generated code (`cudagen`), one of three ways ([`Fusion`]): our pass kernels,
//!   cuFFT plans with LTO callbacks, or gather and scatter kernels around plain cuFFT plans.
//!   Which runs is measured at plan time (each that builds is timed, unless FFTX_ESTIMATE,
//!   `FFTX_GPU_FUSION` or the chain's fusion from wisdom decides), and printed; the front end
//!   records the measured choice in wisdom (`CudaProgram::measured_fusions`).
//! - A `Map` kernel is one generated kernel.
//! - An `Fft` step that the executor does not plan itself (FFTX's, which keep their inputs, or
//!   one whose layout its cuFFT plans cannot take) runs as the CUDA executor's transform over
//!   the device addresses (`transform::GpuTransform`: gather and scatter kernels around cuFFT,
//!   a device input of a c2r copied first).

use super::cudagen;
use super::cufft::{jit_callbacks_available, CufftPlan, FftType, JitCallbacks};
use super::kernels::{self, compile_generated, generated_function, Generated};
use super::transform::GpuTransform;
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cuda::{self, check, Device, Error, Result};
use crate::problem::{Kind1d, Precision, Problem};
use crate::program::kernel::{Access, Chain, Fusion, Kernel};
use crate::program::pencil::PencilProgram;
use crate::program::BufId;
use cudarc::driver::sys as cu;
use once_cell::sync::Lazy;
use std::ffi::c_void;
use std::sync::Arc;
use std::time::Instant;

/// Device memory owned by a plan, on the device it was allocated on.
pub struct DevBuf {
    ptr: u64,
    dev: Arc<Device>,
}

impl DevBuf {
    /// `bytes` on `dev` (bound by the caller).
    fn new(dev: &Arc<Device>, bytes: usize) -> Result<DevBuf> {
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
        Ok(DevBuf {
            ptr: d,
            dev: dev.clone(),
        })
    }
    fn with(dev: &Arc<Device>, words: &[u64]) -> Result<DevBuf> {
        let b = DevBuf::new(dev, words.len() * 8)?;
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
        if !self.dev.is_lost() && self.dev.bind().is_ok() {
            // SAFETY: allocated by DevBuf::new, freed once.
            unsafe { cu::cuMemFree_v2(self.ptr) };
        }
    }
}

/// `FFTX_GPU_FUSION=fused|callback|kernel` forces one; unset or `auto`: measured.
fn fusion_setting() -> Option<Fusion> {
    Fusion::parse(std::env::var("FFTX_GPU_FUSION").ok()?.trim())
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
        let g = cuda::default_device().ok_or("no GPU")?;
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
    dev: Arc<Device>,
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
        dev: &Arc<Device>,
    ) -> Result<Variant> {
        let prog = crate::program::pencil::lower(chain, precision, f == Fusion::Fused)?;
        // Bytes of one complex element in the plan's precision.
        let cbytes = 2 * prog.precision().bytes();
        let inter = [
            DevBuf::new(dev, prog.inter_len * cbytes)?,
            DevBuf::new(dev, prog.inter_len * cbytes)?,
        ];
        let mut words = vec![inter[0].ptr, inter[1].ptr];
        words.extend(prog.buffers.iter().map(|&b| addr(b)));
        let table = DevBuf::with(dev, &words)?;
        let mut v = Variant {
            dev: dev.clone(),
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
            v.virt = Some((DevBuf::new(dev, bytes)?, DevBuf::new(dev, bytes)?));
        }
        Ok(v)
    }

    fn make_passes(&self, stream: cu::CUstream) -> Result<Vec<GpuPass>> {
        let f = self.fusion;
        let src = cudagen::chain_source(&self.prog, f != Fusion::Callback);
        let compiled = compile_generated(&self.dev, &src, f == Fusion::Callback)?;
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
                    if let (Fusion::Fused, Some(shape)) = (
                        f,
                        crate::program::pencil::fused_shape(p.n, self.prog.precision()),
                    ) {
                        let kernel = generated_function(*m, &format!("fftx_pass{k}"))? as usize;
                        let grid = p.batch().div_ceil(cudagen::pencils_per_block(p, &shape));
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
            compile_generated(&self.dev, &cudagen::chain_source(&self.prog, true), false)?
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
                let f = f as cu::CUfunction;
                kernels::launch_pass(f, (grid, block, 0), stream, p.batch, table)?;
                continue;
            }
            let plan = p.plan.as_ref().expect("a cuFFT pass has its plan");
            if let Some(gather) = p.gather {
                let mut n = p.batch * p.len_in;
                kernels::launch(
                    &self.dev,
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
                    &self.dev,
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

pub struct GpuChain {
    variant: Variant,
    /// (fusion, ms per run) of the variants timed at plan time.
    timings: Vec<(Fusion, f64)>,
    /// The chain's fusion came with it (from wisdom) and built.
    from_wisdom: bool,
}

impl GpuChain {
    fn build(
        chain: &Chain,
        precision: Precision,
        addr: &dyn Fn(BufId) -> u64,
        stream: cu::CUstream,
        dev: &Arc<Device>,
        measure: bool,
    ) -> Result<GpuChain> {
        let setting = fusion_setting();
        if let (None, Some(f)) = (setting, chain.fusion) {
            match Variant::new(chain, precision, f, addr, stream, dev) {
                Ok(variant) => {
                    crate::log::log_info!("fftx gpu: chain runs with {} fusion (wisdom)", f.name());
                    return Ok(GpuChain {
                        variant,
                        timings: Vec::new(),
                        from_wisdom: true,
                    });
                }
                Err(e) => crate::log::log_info!(
                    "fftx gpu: the {} fusion that wisdom names does not build here ({e}): choosing again",
                    f.name()
                ),
            }
        }
        let candidates: Vec<Fusion> = match setting {
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
            let v = match Variant::new(chain, precision, f, addr, stream, dev) {
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
        Ok(GpuChain {
            variant,
            timings,
            from_wisdom: false,
        })
    }

    /// The fusion it runs with and its measured ms per run, where it was timed (for wisdom).
    pub fn measured(&self) -> Option<(Fusion, f64)> {
        let f = self.variant.fusion;
        let ms = self.timings.iter().find(|t| t.0 == f)?.1;
        Some((f, ms))
    }

    fn describe(&self) -> String {
        let v = &self.variant;
        let measured = if self.from_wisdom {
            " from wisdom".to_string()
        } else if self.timings.is_empty() {
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

/// A `Kernel` step made ready on the device (or an `Fft` step that cuFFT's layouts cannot
/// take, as the CUDA executor's transform), run on the executor's stream.
pub enum KernelStep {
    Chain(Box<GpuChain>),
    Map { f: usize, total: u64, table: DevBuf },
    Transform(GpuFft),
}

impl KernelStep {
    /// A `Kernel` step over the device buffers at `addr` (complex data in `precision`) of
    /// `dev` (bound by the caller), launching on `stream`. `measure`: time the ways to fuse a
    /// chain and keep the fastest.
    pub fn kernel(
        kernel: &Kernel,
        precision: Precision,
        addr: &dyn Fn(BufId) -> u64,
        (stream, dev): (cu::CUstream, &Arc<Device>),
        measure: bool,
    ) -> Result<KernelStep> {
        Ok(match kernel {
            Kernel::Chain(c) => KernelStep::Chain(Box::new(GpuChain::build(
                c, precision, addr, stream, dev, measure,
            )?)),
            map @ Kernel::Map { .. } => map_step(map, precision, addr, dev)?,
        })
    }

    /// An `Fft` step on the device addresses `input`, `output` of `dev` (the executor's
    /// transform: gather and scatter kernels around cuFFT where the layout needs them; with
    /// `split_half`, the tensor-core kernels where they take the problem).
    pub fn transform(
        problem: &Problem,
        (input, output): (u64, u64),
        dev: &Arc<Device>,
        split_half: bool,
    ) -> Result<KernelStep> {
        let ptr = |at: u64, complex: bool| {
            let at = at as usize;
            if complex {
                ArrayPtr::Complex {
                    re: at,
                    im: at + problem.precision.bytes(),
                }
            } else {
                ArrayPtr::Real(at)
            }
        };
        let i = ptr(input, problem.kind.input_is_complex());
        let o = ptr(output, problem.kind.output_is_complex());
        Ok(KernelStep::Transform(GpuFft::new(
            problem, i, o, dev, split_half,
        )?))
    }

    /// Runs the step on `stream`.
    ///
    /// # Safety
    /// The device buffers the step was made for must still be allocated.
    pub unsafe fn run(&self, stream: cu::CUstream) -> Result<()> {
        match self {
            KernelStep::Chain(c) => c.variant.run(stream),
            KernelStep::Map { f, total, table } => {
                let (mut n, mut t) = (*total, table.ptr);
                kernels::launch(
                    &table.dev,
                    *f as cu::CUfunction,
                    n,
                    stream,
                    &mut [
                        &mut n as *mut u64 as *mut c_void,
                        &mut t as *mut u64 as *mut c_void,
                    ],
                )
            }
            KernelStep::Transform(t) => t.enqueue(stream),
        }
    }

    /// The printout's line for the step.
    pub fn describe(&self) -> String {
        match self {
            KernelStep::Chain(c) => c.describe(),
            KernelStep::Map { total, .. } => format!("(gpu kernel over {total} elements)"),
            KernelStep::Transform(t) => format!("(gpu fft {})", t.describe()),
        }
    }
}

/// An `Fft` step over device addresses, in the plan's precision.
pub enum GpuFft {
    F64(Box<GpuTransform<f64>>, ArrayPtr, ArrayPtr),
    F32(Box<GpuTransform<f32>>, ArrayPtr, ArrayPtr),
}

impl GpuFft {
    fn new(
        problem: &Problem,
        input: ArrayPtr,
        output: ArrayPtr,
        dev: &Arc<Device>,
        split_half: bool,
    ) -> Result<GpuFft> {
        if !super::transform::supports(problem) {
            return Err(Error::unsupported(format!(
                "{} runs on the CPU only",
                problem.describe()
            )));
        }
        Ok(match problem.precision {
            Precision::F64 => {
                GpuFft::F64(Box::new(GpuTransform::new(problem, dev)?), input, output)
            }
            Precision::F32 => {
                let t = if split_half {
                    GpuTransform::split_half(problem, dev).or_else(|why| {
                        crate::log::log_info!(
                            "fftxf: FFTX_TENSOR_CORES=split: {}: {why}: cuFFT",
                            problem.describe()
                        );
                        GpuTransform::new(problem, dev)
                    })?
                } else {
                    GpuTransform::new(problem, dev)?
                };
                GpuFft::F32(Box::new(t), input, output)
            }
        })
    }
    /// Queues the transform on `stream`.
    ///
    /// # Safety
    /// The device addresses must hold what the problem addresses.
    unsafe fn enqueue(&self, stream: cu::CUstream) -> Result<()> {
        match self {
            GpuFft::F64(t, i, o) => t.enqueue(*i, *o, stream),
            GpuFft::F32(t, i, o) => t.enqueue(*i, *o, stream),
        }
    }
    fn describe(&self) -> String {
        match self {
            GpuFft::F64(t, ..) => t.describe(),
            GpuFft::F32(t, ..) => t.describe(),
        }
    }
}

/// A `Kernel::Map` as one generated kernel over the buffers at `addr`.
fn map_step(
    map: &Kernel,
    precision: Precision,
    addr: &dyn Fn(BufId) -> u64,
    dev: &Arc<Device>,
) -> Result<KernelStep> {
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
    let Generated::Module(m) = compile_generated(dev, &src_text, false)? else {
        unreachable!("PTX was asked for")
    };
    let f = generated_function(m, "fftx_elem")? as usize;
    let words = [
        addr(src.buf.buf),
        addr(dst.buf.buf),
        data.as_ref().map_or(0, |d| addr(d.buf.buf)),
    ];
    Ok(KernelStep::Map {
        f,
        total: shape.iter().map(|&x| x as u64).product(),
        table: DevBuf::with(dev, &words)?,
    })
}
