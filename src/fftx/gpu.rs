//! FFTX plans on the GPU: the optimized steps lowered to the CUDA executor. (Still from the
//! passes' steps, not from the Program `exec` lowers them to: the CPU runs that Program when
//! the GPU fails.)
//!
//! - Temporaries live on the device. A caller's host array gets one device mirror over the
//!   bytes the plan touches: one copy in before the steps, one copy out of the arrays written
//!   (device arrays are used where they are).
//! - A chain runs as its pencil program (`program::pencil`): one batched 1-D cuFFT plan per pass over
//!   the live pencils only, with the zero padding, the loads, the stores and the pointwise
//!   programs in generated load/store functions (`cudagen`): cuFFT LTO callbacks, or gather and
//!   scatter kernels around plain plans. Which of the two runs is measured at plan time (both
//!   are built and timed, unless FFTX_ESTIMATE or `FFTX_GPU_FUSION` decides), and printed.
//! - Copy and pointwise nodes are one generated kernel each; plain transform nodes are FFTW
//!   plans over the device addresses (the FFTW path's GPU executor).

use super::cudagen;
use super::decompose::unpruned_count;
use super::graph::{array, problem_of};
use super::graph::{Access, Buf, Op, Temp};
use super::passes::{Chain, Stage, Step};
use crate::exec::cuda::cufft::{jit_callbacks_available, CufftPlan, FftType, JitCallbacks};
use crate::exec::cuda::kernels::{self, compile_generated, generated_function, Generated};
use crate::exec::cuda::{self, check, Error, Memory, Result};
use crate::plan::Plan;
use crate::problem::Kind1d;
use crate::problem::{Kind, Precision};
use crate::program::pencil::PencilProgram;
use cudarc::driver::sys as cu;
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Arc;
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
        f: Fusion,
        addr: &dyn Fn(&Buf) -> u64,
        stream: cu::CUstream,
    ) -> Result<Variant> {
        let (chain, bufs, precision) = super::exec::chain_of(chain);
        let prog = crate::program::pencil::lower(&chain, precision, f == Fusion::Fused)
            .map_err(Error::unsupported)?;
        // Bytes of one complex element in the plan's precision.
        let cbytes = 2 * prog.precision().bytes();
        let inter = [
            DevBuf::new(prog.inter_len * cbytes)?,
            DevBuf::new(prog.inter_len * cbytes)?,
        ];
        let mut words = vec![inter[0].ptr, inter[1].ptr];
        words.extend(prog.buffers.iter().map(|&b| addr(&bufs[b])));
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
        crate::log_info!("fftx gpu: {both}; the store runs as a scatter kernel");
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
            crate::log_info!(
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
                let mut batch = p.batch;
                kernels::launch_grid(
                    f as cu::CUfunction,
                    grid,
                    block,
                    stream,
                    &mut [
                        &mut batch as *mut u64 as *mut c_void,
                        &mut table as *mut u64 as *mut c_void,
                    ],
                )?;
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
        addr: &dyn Fn(&Buf) -> u64,
        stream: cu::CUstream,
        measure: bool,
    ) -> Result<GpuChain> {
        let candidates: Vec<Fusion> = match fusion_setting() {
            Some(f) => vec![f],
            None => {
                let mut v = vec![Fusion::Fused];
                match callbacks_usable() {
                    Ok(()) => v.push(Fusion::Callback),
                    Err(e) => crate::log_info!("fftx gpu: no cuFFT callbacks: {e}"),
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
            let v = match Variant::new(chain, f, addr, stream) {
                Ok(v) => v,
                Err(e) => {
                    crate::log_info!("fftx gpu: {} fusion unavailable: {e}", f.name());
                    errors.push(format!("{}: {e}", f.name()));
                    continue;
                }
            };
            if !measure || candidates.len() == 1 {
                best = Some((0.0, v));
                break;
            }
            let ms = v.time(stream)?;
            crate::log_progress!(
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
        crate::log_info!(
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
    Fftw(Box<Plan>),
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
    _temps: Vec<(Arc<Temp>, DevBuf)>,
    mirrors: Vec<HostSpan>,
    /// Some caller array is device memory (used in place: only the GPU can compute the plan).
    device_arrays: bool,
    steps: Vec<GpuStep>,
    pub counts: Vec<u64>,
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

/// Every access of the steps with its index shape and whether it is written.
fn accesses(steps: &[Step]) -> Vec<(&Access, Vec<usize>, bool)> {
    let mut v = Vec::new();
    for s in steps {
        match s {
            Step::Node(n) => {
                v.push((&n.input, n.in_shape.clone(), false));
                v.push((&n.output, n.out_shape.clone(), true));
                if let Some(d) = &n.data {
                    v.push((d, n.in_shape.clone(), false));
                }
            }
            Step::Chain(c) => {
                let cshape = crate::program::kernel::shape_of(
                    &c.n,
                    !matches!(c.first_kind(), Kind::Dft { .. }),
                );
                for l in &c.loads {
                    v.push((&l.access, l.extent.clone(), false));
                }
                for l in &c.stores {
                    v.push((&l.access, l.extent.clone(), true));
                }
                for st in &c.stages {
                    if let Stage::Pointwise { data: Some(d), .. } = st {
                        v.push((d, cshape.clone(), false));
                    }
                }
            }
        }
    }
    v
}

/// Byte spans `[lo, hi)` of each caller's array (by address) and whether it is written.
fn user_spans(steps: &[Step]) -> HashMap<usize, Span> {
    let mut m: HashMap<usize, Span> = HashMap::new();
    for (a, shape, written) in accesses(steps) {
        if let (Buf::User { addr, .. }, Some((lo, hi))) = (&a.buf, a.user_bytes(&shape)) {
            if shape.contains(&0) {
                continue;
            }
            let e = m.entry(*addr).or_insert(Span {
                lo,
                hi,
                read: false,
                written: false,
                dense_writes: Vec::new(),
            });
            e.lo = e.lo.min(lo);
            e.hi = e.hi.max(hi);
            if written {
                e.written = true;
                if dense(a, &shape) {
                    e.dense_writes.push((lo, hi));
                }
            } else {
                e.read = true;
            }
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

/// Whether the plan should run on the GPU: `Some(true)` when it must (a caller's array is on
/// the device), `Some(false)` when it should, None when the CPU runs it.
pub fn wanted(steps: &[Step]) -> Option<bool> {
    use crate::backend::{backend_setting, BackendSetting};
    if backend_setting() == BackendSetting::Cpu {
        return None;
    }
    let g = cuda::default_device()?;
    let spans = user_spans(steps);
    if spans
        .values()
        .any(|s| cuda::memory_of(&g, s.lo as usize, (s.hi - s.lo) as usize) == Memory::Device)
    {
        return Some(true);
    }
    if backend_setting() == BackendSetting::Gpu {
        return Some(false);
    }
    // Auto: the GPU pays off once the transforms touch about a million points.
    let work: usize = steps
        .iter()
        .map(|s| match s {
            Step::Chain(c) => c.n.iter().product::<usize>(),
            Step::Node(n) if n.op.is_fft() => n.in_shape.iter().product::<usize>(),
            _ => 0,
        })
        .sum();
    (work >= 1 << 20).then_some(false)
}

/// Lowers the optimized steps to the GPU, in the plan's precision (every buffer's).
pub fn lower(
    steps: &[Step],
    fftw_flags: u32,
    measure: bool,
    precision: Precision,
) -> Result<GpuCompiled> {
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
        counts: Vec::new(),
    };
    // Device addresses of the caller's arrays: their own, or a mirror's.
    let mut user: HashMap<usize, u64> = HashMap::new();
    let mut spans: Vec<(usize, Span)> = user_spans(steps).into_iter().collect();
    spans.sort_by_key(|s| s.1.lo);
    for w in spans.windows(2) {
        if w[0].1.hi > w[1].1.lo {
            return Err(Error::bad_input("two of the caller's arrays overlap"));
        }
    }
    for (addr, span) in spans {
        let bytes = (span.hi - span.lo) as usize;
        if cuda::memory_of(&g, span.lo as usize, bytes) == Memory::Device {
            user.insert(addr, addr as u64);
            out.device_arrays = true;
            continue;
        }
        let dev = DevBuf::new(bytes)?;
        user.insert(addr, (dev.ptr as isize + (addr as isize - span.lo)) as u64);
        out.mirrors.push(HostSpan {
            host: span.lo as usize,
            dev,
            copy_in: span.needs_copy_in(),
            written: span.written,
        });
    }
    let mut temps: HashMap<u64, u64> = HashMap::new();
    for (a, _, _) in accesses(steps) {
        if let Buf::Temp(t) = &a.buf {
            if let std::collections::hash_map::Entry::Vacant(e) = temps.entry(t.id) {
                let bytes = t.len * t.precision.bytes() * if t.complex { 2 } else { 1 };
                let d = DevBuf::new(bytes)?;
                e.insert(d.ptr);
                if t.zero {
                    out.zero_temps.push((d.ptr, bytes));
                }
                out._temps.push((t.clone(), d));
            }
        }
    }
    let addr = |b: &Buf| -> u64 {
        match b {
            Buf::User { addr, .. } => user[addr],
            Buf::Temp(t) => temps[&t.id],
        }
    };
    for s in steps {
        let (step, count) = match s {
            Step::Chain(c) => {
                let chain = GpuChain::build(c, &addr, stream, measure)?;
                let count = chain.variant.prog.transforms();
                (GpuStep::Chain(Box::new(chain)), count)
            }
            Step::Node(n) if n.op.is_fft() => {
                let p = problem_of(n);
                let i = array(
                    addr(&n.input.buf) as usize,
                    n.input.buf.complex(),
                    n.input.base,
                    precision,
                );
                let o = array(
                    addr(&n.output.buf) as usize,
                    n.output.buf.complex(),
                    n.output.base,
                    precision,
                );
                let plan = match precision {
                    Precision::F64 => crate::planner::plan::<f64>(p, i, o, fftw_flags),
                    Precision::F32 => crate::planner::plan::<f32>(p, i, o, fftw_flags),
                }
                .map_err(|e| Error::unsupported(format!("{}: {e}", n.label)))?;
                (GpuStep::Fftw(Box::new(plan)), unpruned_count(n))
            }
            Step::Node(n) => {
                if n.output
                    .strides
                    .iter()
                    .zip(&n.out_shape)
                    .any(|(&s, &len)| s == 0 && len > 1)
                {
                    return Err(Error::unsupported(format!(
                        "{}: an output stride of 0 (the last write wins on the CPU only)",
                        n.label
                    )));
                }
                let prog = if let Op::Pointwise(p) = &n.op {
                    Some(&**p)
                } else {
                    None
                };
                let side = |a: &Access| (a.buf.complex(), a.base, a.strides.clone());
                let (si, so, sd) = (side(&n.input), side(&n.output), n.data.as_ref().map(side));
                let src = cudagen::elementwise_source(
                    precision,
                    &n.in_shape,
                    (si.0, si.1, &si.2),
                    (so.0, so.1, &so.2),
                    sd.as_ref().map(|d| (d.0, d.1, &d.2[..])),
                    prog,
                );
                let Generated::Module(m) = compile_generated(&*dev()?, &src, false)? else {
                    unreachable!("PTX was asked for")
                };
                let f = generated_function(m, "fftx_elem")? as usize;
                let mut words = vec![addr(&n.input.buf), addr(&n.output.buf)];
                words.push(n.data.as_ref().map_or(0, |d| addr(&d.buf)));
                let total = n.in_shape.iter().map(|&x| x as u64).product();
                (
                    GpuStep::Elementwise {
                        f,
                        total,
                        table: DevBuf::with(&words)?,
                    },
                    0,
                )
            }
        };
        out.steps.push(step);
        out.counts.push(count);
    }
    Ok(out)
}

impl GpuCompiled {
    /// Runs the steps; returns the 1-D transforms computed.
    ///
    /// # Safety
    /// The caller's arrays the plan was made for must still be valid.
    pub unsafe fn execute(&self) -> Result<u64, ChainFailure> {
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
        Ok(self.counts.iter().sum())
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
                GpuStep::Fftw(p) => {
                    check(cu::cuStreamSynchronize(s), "cuStreamSynchronize")?;
                    p.execute().map_err(Error::unsupported)?;
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
                GpuStep::Fftw(p) => format!(
                    "step {k}: (gpu fftw-plan {})",
                    p.describe().lines().next().unwrap_or("")
                ),
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
            buf: Buf::User {
                addr: 0x1000,
                complex: false,
                precision: Precision::F64,
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
