//! The planner: problem + flags -> plan. Checks, normalizes, consults wisdom, chooses (by the
//! cost model under ESTIMATE, by timing under MEASURE/PATIENT/EXHAUSTIVE) and lowers to a program.

use crate::abi::*;
use crate::backend::{backend_setting, tensor_cores_setting, BackendSetting, TensorCores};
use crate::error::{Error, Result};
use crate::exec::cpu::fourstep;
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cpu::split_half;
use crate::exec::cpu::{CpuTransform, PAR_GRAIN};
use crate::exec::cuda::run::CudaRun;
use crate::exec::cuda::{self, Memory};
use crate::exec::{Executable, Executor};
use crate::passes::distribute;
use crate::passes::normalize::normalize;
use crate::passes::out_of_card::{self, Budget, HostArrays};
use crate::passes::stream;
use crate::plan::{on_device, Plan};
use crate::problem::{Kind, Precision, Problem};
use crate::program::{Backend, Lowered, Program, Step};
use crate::real::Real;
use crate::wisdom::{self, Choice, Rigor};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Planner settings of one precision (FFTW keeps them per library).
pub struct Settings {
    nthreads: AtomicUsize,
    /// Seconds; negative = no limit (FFTW_NO_TIMELIMIT).
    timelimit: Mutex<f64>,
}

static SETTINGS_F32: Settings = Settings {
    nthreads: AtomicUsize::new(1),
    timelimit: Mutex::new(-1.0),
};
static SETTINGS_F64: Settings = Settings {
    nthreads: AtomicUsize::new(1),
    timelimit: Mutex::new(-1.0),
};

pub fn settings(p: Precision) -> &'static Settings {
    match p {
        Precision::F32 => &SETTINGS_F32,
        Precision::F64 => &SETTINGS_F64,
    }
}

impl Settings {
    pub fn set_nthreads(&self, n: i32) {
        self.nthreads.store(n.max(1) as usize, Ordering::Relaxed);
    }
    pub fn nthreads(&self) -> usize {
        self.nthreads.load(Ordering::Relaxed)
    }
    pub fn set_timelimit(&self, seconds: f64) {
        *self.timelimit.lock() = seconds;
    }
    fn timelimit(&self) -> Option<Duration> {
        // Negative (FFTW_NO_TIMELIMIT), NaN and infinite mean no limit.
        Duration::try_from_secs_f64(*self.timelimit.lock()).ok()
    }
}

/// How many candidate timings the planner has run (tests check that wisdom avoids them).
static MEASUREMENTS: AtomicU64 = AtomicU64::new(0);

pub fn measurements() -> u64 {
    MEASUREMENTS.load(Ordering::Relaxed)
}

/// A candidate's scratch arrays bigger than this are not allocated for timing; the cost model
/// decides instead.
const MEASURE_BYTES_LIMIT: usize = 1 << 30;

fn rigor_of(flags: u32) -> Rigor {
    if flags & FFTW_ESTIMATE != 0 {
        Rigor::Estimate
    } else if flags & FFTW_EXHAUSTIVE != 0 {
        Rigor::Exhaustive
    } else if flags & FFTW_PATIENT != 0 {
        Rigor::Patient
    } else {
        Rigor::Measure
    }
}

/// Where the plan's arrays live, as the GPU candidate sees them (None without a usable GPU).
fn gpu_memory(problem: &Problem, input: ArrayPtr, output: ArrayPtr) -> Option<(Memory, Memory)> {
    let g = cuda::default_device()?;
    if !cuda::transform::supports(problem) {
        return None;
    }
    let side = |a: ArrayPtr, input: bool| {
        if a.is_null() {
            return Memory::Pageable; // planned on NULL arrays: new-array execute decides
        }
        let (lo, hi) = problem.extent(input);
        let unit = problem.precision.bytes() as isize;
        cuda::memory_of(
            &g,
            (a.base() as isize + lo * unit) as usize,
            ((hi - lo + 1) * unit) as usize,
        )
    };
    Some((side(input, true), side(output, false)))
}

/// Plans `problem` for the given arrays.
pub fn plan<T: Real>(
    problem: Problem,
    input: ArrayPtr,
    output: ArrayPtr,
    flags: u32,
) -> Result<Plan> {
    debug_assert_eq!(problem.precision, T::PRECISION);
    // FFTW ignores flag bits it does not know, and FFTW_PRESERVE_INPUT wins over
    // FFTW_DESTROY_INPUT; fftx overwrites an out-of-place input only in a multi-dimensional
    // c2r without FFTW_PRESERVE_INPUT (`lower`), so the rigor, FFTW_WISDOM_ONLY and that
    // matter. NULL arrays plan too (FFTW never reads the arrays under ESTIMATE, and fftx times
    // on scratch arrays): the caller executes with new arrays.
    problem.validate().map_err(|e| e.0)?;
    let problem = normalize(&problem);
    let max_threads = settings(T::PRECISION).nthreads();
    let rigor = rigor_of(flags);
    let setting = backend_setting();
    let device_arrays = on_device(input, output);
    // The GPU is a candidate when imposed, or when even its best case (arrays already on the
    // device) could beat the CPU; otherwise CUDA is never started for this plan.
    let gpu_candidate = device_arrays
        || match setting {
            BackendSetting::Cpu => false,
            BackendSetting::Gpu => true,
            BackendSetting::Auto => gpu_might_win(&problem, max_threads, rigor),
        };
    let memory = if gpu_candidate {
        gpu_memory(&problem, input, output)
    } else {
        None
    };
    if device_arrays && memory.is_none() {
        return Err(Error::unsupported(format!(
            "the arrays are in GPU memory but the GPU cannot run {} ({})",
            problem.describe(),
            cuda::why_no_gpu().unwrap_or_else(|| "rank-0 and r2r problems run on the CPU".into())
        )));
    }
    let parts = memory.map_or(1, |mem| spread_parts(&problem, mem));
    // The GPU's choice depends on where the arrays live (and how many devices may share the
    // transform), so that is part of the key.
    let key = wisdom_key(&problem, max_threads, memory, parts);
    let wisdom = wisdom::of(T::PRECISION);
    let choice = match wisdom.lookup(&key, rigor) {
        Some(c) => {
            crate::log::log_info!(
                "plan {key}: from wisdom ({}), {} thread(s)",
                c.rigor.name(),
                c.threads
            );
            c
        }
        None if flags & FFTW_WISDOM_ONLY != 0 => {
            return Err(Error::unsupported(format!(
                "FFTW_WISDOM_ONLY and no {} wisdom for {key}",
                rigor.name()
            )));
        }
        None => {
            let c = choose::<T>(
                &problem,
                (setting, max_threads),
                rigor,
                memory,
                parts,
                device_arrays,
            );
            crate::log::log_info!(
                "plan {key}: {} chose {} with {} thread(s){}",
                rigor.name(),
                c.backend.name(),
                c.threads,
                if c.cost_ns > 0.0 {
                    format!(", {:.0} ns", c.cost_ns)
                } else {
                    String::new()
                }
            );
            wisdom.remember(&key, c);
            c
        }
    };
    // Wisdom from a machine with a GPU, used on one without: the CPU runs it.
    let backend = if memory.is_none() {
        Backend::Cpu
    } else {
        choice.backend
    };
    let backend = tensor_cores::<T>(&problem, backend, rigor, memory, device_arrays, &key);
    let choice = Choice { backend, ..choice };
    let arrays = (!device_arrays).then(|| host_arrays(memory));
    make_ready::<T>(problem, (input, output), choice, flags, arrays, &key)
}

/// How the plan's host arrays reach a GPU: by DMA alone where both are pinned.
fn host_arrays(memory: Option<(Memory, Memory)>) -> HostArrays {
    match memory {
        Some((Memory::Pinned, Memory::Pinned)) => HostArrays::Pinned,
        _ => HostArrays::Pageable,
    }
}

/// The planner's choice for `problem` without wisdom: estimated or timed (as `rigor` says),
/// among the CPU (up to `max_threads`) and, where `memory` says where the arrays are for the
/// GPU, the GPU (over `parts` devices); the GPU alone where `setting` imposes it or it holds
/// the arrays. `setting` and `max_threads` are those the plan's wisdom key was made with.
fn choose<T: Real>(
    problem: &Problem,
    (setting, max_threads): (BackendSetting, usize),
    rigor: Rigor,
    memory: Option<(Memory, Memory)>,
    parts: usize,
    device_arrays: bool,
) -> Choice {
    let timelimit = settings(T::PRECISION).timelimit();
    match (setting, memory) {
        (_, None) => match rigor {
            Rigor::Estimate => estimate(problem, max_threads),
            _ => measure::<T>(problem, max_threads, rigor, timelimit)
                .unwrap_or_else(|| estimate(problem, max_threads)),
        },
        // The GPU is imposed (FFTX_BACKEND=gpu, or the arrays are on it): time it
        // under MEASURE, so the plan's cost is real.
        (s, Some(mem)) if s == BackendSetting::Gpu || device_arrays => {
            let c = Choice {
                backend: estimate_gpu_only(problem, max_threads, mem, parts),
                ..estimate(problem, max_threads)
            };
            match (rigor, measure_gpus::<T>(problem, mem, rigor, parts)) {
                (Rigor::Estimate, _) | (_, None) => c,
                (_, Some((backend, ns))) => Choice {
                    rigor,
                    cost_ns: ns,
                    backend,
                    ..c
                },
            }
        }
        (_, Some(mem)) => match rigor {
            Rigor::Estimate => estimate_with_gpu(problem, max_threads, mem, parts),
            _ => measure_with_gpu::<T>(problem, max_threads, rigor, timelimit, mem, parts)
                .unwrap_or_else(|| estimate_with_gpu(problem, max_threads, mem, parts)),
        },
    }
}

/// The key of a plan's choice in wisdom: the problem, the threads it may use and, for the GPU,
/// where the arrays live and over how many devices (the GPU's choice depends on both).
fn wisdom_key(
    problem: &Problem,
    max_threads: usize,
    memory: Option<(Memory, Memory)>,
    parts: usize,
) -> String {
    match memory {
        None => format!("{} threads<={}", problem.describe(), max_threads),
        Some((i, o)) => format!(
            "{} threads<={} gpu:{:?}/{:?}{}",
            problem.describe(),
            max_threads,
            i,
            o,
            if parts > 1 {
                format!(" devices={parts}")
            } else {
                String::new()
            }
        ),
    }
}

/// The plan for `choice` made ready. What the choice needs that this machine cannot give (the
/// split-half kernels on an old card, device memory for cuFFT's plans) falls back: the
/// split-half kernels to cuFFT, a GPU on host arrays to the CPU.
fn make_ready<T: Real>(
    problem: Problem,
    (input, output): (ArrayPtr, ArrayPtr),
    choice: Choice,
    flags: u32,
    arrays: Option<HostArrays>,
    key: &str,
) -> Result<Plan> {
    let device_arrays = arrays.is_none();
    let backend = choice.backend;
    let mut candidates = vec![backend];
    if backend == Backend::GpuSplitHalf {
        candidates.push(Backend::Gpu);
    }
    if backend != Backend::Cpu && !device_arrays {
        candidates.push(Backend::Cpu);
    }
    let mut why = Error::internal("no backend to plan for");
    for (k, &backend) in candidates.iter().enumerate() {
        let program = lower(&problem, backend, choice.threads, flags);
        match prepare::<T>(&program, arrays) {
            Ok(exec) => {
                return Ok(Plan {
                    problem,
                    input,
                    output,
                    program,
                    exec,
                    choice: Choice { backend, ..choice },
                    device_arrays,
                })
            }
            Err(e) => {
                // Expected fallbacks (a size the kernels do not take, a card too small) at
                // info level; a failing CUDA call or a bug of ours at warn or error.
                if let Some(next) = candidates.get(k + 1) {
                    crate::log::emit(
                        e.log_level(),
                        format_args!(
                            "plan {key}: {} cannot take it ({e}); planning for {}",
                            backend.name(),
                            next.name()
                        ),
                    );
                }
                why = e;
            }
        }
    }
    Err(why)
}

/// The plan's program made ready for its executors: on a GPU backend with the program
/// [`gpu_program`] lowers for host arrays of kind `arrays` (None: device arrays, for which it
/// is made ready only if the plan is ever given host arrays).
fn prepare<T: Real>(program: &Program, arrays: Option<HostArrays>) -> Result<Executable> {
    let host = arrays.unwrap_or(HostArrays::Pageable);
    let lowered = match &program.steps[..] {
        [Step::Transform {
            problem, backend, ..
        }] if !matches!(backend, Backend::Cpu | Backend::CpuSplitHalf) => {
            match gpu_program(problem, *backend, host) {
                Ok(l) => Some(l),
                Err(e) if arrays.is_some() => return Err(e),
                Err(_) => None,
            }
        }
        _ => None,
    };
    Ok(Box::new(Executor::<T>::new(
        program,
        lowered,
        arrays.is_some(),
    )?))
}

/// What the GPU runs for a transform on `backend` over host arrays: on `Gpus`, the transform
/// spread over the devices `FFTX_DEVICES` selects (`passes::distribute`); else streamed
/// through device buffers a tile at a time (`passes::stream`), or, where those exceed what the
/// device gives a plan ([`cuda::usable_device_bytes`]: nine tenths of the card, or
/// `FFTX_GPU_MEMORY`), out of card (`passes::out_of_card`: rounds of tiles, copied as suits
/// host arrays of kind `host`). `Err` where the GPU cannot take it.
fn gpu_program(problem: &Problem, backend: Backend, host: HostArrays) -> cuda::Result<Lowered> {
    let device = cuda::default_device().ok_or_else(|| cuda::Error::unsupported("no GPU"))?;
    let untiled = |program: Program| Lowered {
        program,
        tiles: Vec::new(),
    };
    if backend == Backend::Gpus {
        let count = cuda::devices().len();
        if count > 1 {
            let program = distribute::spread(problem, &(0..count).collect::<Vec<_>>())?;
            crate::log::log_info!(
                "plan: the transform spread over {count} devices, {} steps",
                program.steps.len()
            );
            return Ok(untiled(program));
        }
        crate::log::log_info!("plan: FFTX_DEVICES selects one device: the transform stays on it");
    }
    let bytes = cuda::usable_device_bytes(&device);
    match stream::lower(problem, Budget { device: 0, bytes }) {
        Err(e) if e.kind == crate::error::ErrorKind::OutOfDeviceMemory => {}
        streamed => return streamed,
    }
    if backend == Backend::GpuSplitHalf {
        return Err(cuda::Error::unsupported(
            "the transform runs out of card, which the split-half kernels do not",
        ));
    }
    let program = out_of_card::lower(problem, Budget { device: 0, bytes }, host)?;
    crate::log::log_info!(
        "plan: the transform exceeds the {bytes} device bytes a plan may use: out of card, {} steps",
        program.steps.len()
    );
    Ok(untiled(program))
}

/// Issue 17's split-half path (`FFTX_TENSOR_CORES`, `exec::cpu::split_half`): the backend of a
/// plan whose ordinary choice is `backend`. The one place it is chosen:
/// - `split`: a plan the planner put on one GPU takes the tensor-core kernels, under ESTIMATE
///   wherever they can run it, under MEASURE and above where they time faster than cuFFT (the
///   outcome remembered in wisdom under the key plus ` tensor-cores=split`);
/// - `split-twin` (a test hook): a plan on host arrays runs the CPU twin, GPU or not;
/// - anything the path cannot take keeps the ordinary backend, said at `FFTX_LOG=info`.
fn tensor_cores<T: Real>(
    p: &Problem,
    backend: Backend,
    rigor: Rigor,
    memory: Option<(Memory, Memory)>,
    device_arrays: bool,
    key: &str,
) -> Backend {
    // Only this function hands out the split-half backends (imported wisdom could name them).
    let ordinary = match backend {
        Backend::GpuSplitHalf => Backend::Gpu,
        Backend::CpuSplitHalf => Backend::Cpu,
        b => b,
    };
    let setting = tensor_cores_setting();
    if setting == TensorCores::Off {
        return ordinary;
    }
    let ordinary_path = |why: Error| {
        crate::log::log_info!("plan {key}: FFTX_TENSOR_CORES: {why}: the ordinary path");
        ordinary
    };
    if let Err(why) = split_half::shape_of(p) {
        return ordinary_path(why);
    }
    match (setting, ordinary, memory) {
        (TensorCores::Twin, _, _) if device_arrays => ordinary_path(Error::unsupported(
            "device arrays (the split-half twin runs on host arrays)",
        )),
        (TensorCores::Twin, _, _) => {
            crate::log::log_info!("plan {key}: FFTX_TENSOR_CORES=split-twin: the CPU twin");
            Backend::CpuSplitHalf
        }
        (_, Backend::Gpu, Some(mem)) => split_or_cufft::<T>(p, rigor, mem, key),
        (_, b, None) => ordinary_path(Error::unsupported(format!(
            "the plan runs on the {} (no usable GPU, or none could win at this size)",
            b.name()
        ))),
        (_, b, Some(_)) => ordinary_path(Error::unsupported(format!(
            "the planner chose {} (the split-half kernels take plans on one GPU)",
            b.name()
        ))),
    }
}

/// `FFTX_TENSOR_CORES=split` on a GPU plan: the split-half kernels or cuFFT (see
/// [`tensor_cores`]).
fn split_or_cufft<T: Real>(p: &Problem, rigor: Rigor, mem: (Memory, Memory), key: &str) -> Backend {
    if rigor == Rigor::Estimate {
        let ready = cuda::default_device()
            .ok_or_else(|| Error::unsupported("no GPU"))
            .and_then(|g| cuda::split_half::SplitHalf::new(&g, p));
        return match ready {
            Ok(_) => {
                crate::log::log_info!("plan {key}: FFTX_TENSOR_CORES=split: split-half kernels");
                Backend::GpuSplitHalf
            }
            Err(why) => {
                crate::log::log_info!("plan {key}: FFTX_TENSOR_CORES=split: {why}: cuFFT");
                Backend::Gpu
            }
        };
    }
    let key = format!("{key} tensor-cores=split");
    let wisdom = wisdom::of(T::PRECISION);
    if let Some(c) = wisdom.lookup(&key, rigor) {
        crate::log::log_info!("plan {key}: from wisdom: {}", c.backend.name());
        return c.backend;
    }
    let split = measure_gpu::<T>(p, mem, rigor, Backend::GpuSplitHalf);
    let cufft = measure_gpu::<T>(p, mem, rigor, Backend::Gpu);
    let show = |t: Option<f64>| t.map_or("failed".to_string(), show_ns);
    crate::log::log_info!(
        "measure: split-half tensor cores {}, cuFFT {} for {}",
        show(split),
        show(cufft),
        p.describe()
    );
    let (backend, cost_ns) = match (split, cufft) {
        (Some(s), Some(c)) if s < c => (Backend::GpuSplitHalf, s),
        (Some(s), None) => (Backend::GpuSplitHalf, s),
        (_, c) => (Backend::Gpu, c.unwrap_or(0.0)),
    };
    wisdom.remember(
        &key,
        Choice {
            rigor,
            threads: 1,
            cost_ns,
            backend,
            fusion: None,
        },
    );
    backend
}

/// An FFTW plan's program: its one transform step. FFTW's c2r plans may overwrite an
/// out-of-place input unless `FFTW_PRESERVE_INPUT` (`FFTW_DESTROY_INPUT` is their default);
/// fftx's multi-dimensional c2r then runs its complex passes in the input instead of a buffer.
fn lower(problem: &Problem, backend: Backend, threads: usize, flags: u32) -> Program {
    let destroy_input = problem.kind == Kind::C2r && flags & crate::abi::FFTW_PRESERVE_INPUT == 0;
    Program::transform(problem, backend, threads, destroy_input)
}

/// ESTIMATE on the CPU: a thread per [`PAR_GRAIN`] points, the executor's per-stage grain (each
/// stage then takes as many of them as its work fills). At 2^15 points per thread (until
/// 2026-11-26) mid-size multi-dimensional transforms ran on a fraction of the cores: on the
/// 16-core H100 host, c2c f64 64^3 in place on 8 threads (1.38-1.97x FFTW's time at 16) and
/// r2c f32 32^3 on 1 (1.66-1.75x); on 16 and 8 threads their own times fell to about 0.76x and
/// 0.33-0.49x, the ratios to 1.21x and 0.45x (bench/results/2026-11-26-h100-host-cpu-outliers.md).
fn estimate(problem: &Problem, max_threads: usize) -> Choice {
    Choice {
        rigor: Rigor::Estimate,
        threads: cpu_threads(problem, max_threads, PAR_GRAIN),
        cost_ns: 0.0,
        backend: Backend::Cpu,
        fusion: None,
    }
}

/// The threads the cost model's CPU term counts: 2^15 points per thread, those it was fitted
/// with (bench/results/2026-11-26-h200-placement.md). The executor runs mid-size problems on
/// more now, but they gain less than `threads^0.7` would say (c2c f64 64^3: 8 -> 16 threads
/// about 1.3x faster, not 1.6x), and counting them would move placements to a CPU slower than
/// the GPU.
fn model_threads(problem: &Problem, max_threads: usize) -> usize {
    cpu_threads(problem, max_threads, 1 << 15)
}

/// Threads for `problem` at `per_thread` points each, 1 to `max_threads`.
fn cpu_threads(problem: &Problem, max_threads: usize, per_thread: usize) -> usize {
    let points = problem.transform_size().max(1) * problem.howmany();
    let mut threads = (points / per_thread).clamp(1, max_threads.max(1));
    // Fewer 1-D transforms than threads, each long enough for the four-step: it splits each
    // over all of them (c2c f32 2^16 got 2 threads here, where the four-step starts at 4, and
    // ran on one: 1.95x FFTW's time at 16 threads on the H200 box's host, 2026-11-26).
    if let [d] = &problem.dims[..] {
        // r2c and c2r run a complex transform of half the (even) length.
        let complex_len = match problem.kind {
            Kind::Dft { .. } => Some(d.n as usize),
            Kind::R2c | Kind::C2r if d.n % 2 == 0 => Some(d.n as usize / 2),
            _ => None,
        };
        let four_step = |n| fourstep::applies_in(problem.precision, n, max_threads);
        if problem.howmany() < max_threads && complex_len.is_some_and(four_step) {
            threads = max_threads;
        }
    }
    threads
}

/// Constants of the CPU/GPU cost model, fitted on the H200 box's placement table
/// (bench/results/2026-11-26-h200-placement.md: every problem of the CPU table timed at 16
/// threads on the CPU and forced to the GPU, from malloc and fftw_malloc arrays); the host
/// transfer rates, the four-step's f32 cost and `GPU_MARGIN` refitted on the H100 box's
/// (bench/results/2026-11-27-h100-placement.md), after the copy threads took every copy in
/// parts.
///
/// CPU: `CPU_NS_PER_WORK` ns per unit of work (points · log2 n, doubled for f64 and for a
/// four-step in f32, halved for real-data transforms, ×1.5 for the DCT/DST kinds, ×4 for
/// lengths whose FFT has a prime factor above 31), divided by threads^0.7 (16 threads run 7×
/// faster, not 16×), plus one pass over the arrays per 2^16 of transform length at
/// `HOST_BW_PER_THREAD` per thread up to `HOST_BW`; a long 1-D transform split by the
/// four-step makes three strided passes at `FOUR_STEP_BW`.
///
/// GPU: `GPU_FIXED_NS` per execute of host arrays (launches, synchronization, the staging
/// threads; 60-90 µs measured for 16-point transforms), `GPU_DEVICE_FIXED_NS` for device arrays,
/// DMA at `H2D_PINNED`/`D2H_PINNED` from pinned packed arrays (a batch streamed in several
/// tiles moves both ways at once, at `BOTH_WAYS_PINNED`, but for its first tile in and its
/// last out), strided (padded in-place real)
/// arrays through the staging gather at `STRIDED`, pageable arrays through the staging blocks
/// at a rate that grows with the bytes moved ([`pageable_rate`]: 4.6 GB/s for 2 MB, 13 for
/// 8 MB, 23 for 32 MB, 27 for 67 MB), and cuFFT's time per unit of work.
mod model {
    pub const CPU_NS_PER_WORK: f64 = 0.15;
    pub const THREAD_SCALING: f64 = 0.7;
    pub const HOST_BW_PER_THREAD: f64 = 10.0; // bytes per ns
    pub const HOST_BW: f64 = 120.0;
    pub const FOUR_STEP_BW: f64 = 60.0;
    pub const H2D_PINNED: f64 = 45.0;
    pub const D2H_PINNED: f64 = 54.0;
    /// Both ways at once from pinned arrays (the H100 box, issue 14: 80.5 GB/s).
    pub const BOTH_WAYS_PINNED: f64 = 80.0;
    /// The copy threads gather a padded array beside the DMA (r2c f64 128^3 in place from
    /// pinned arrays: 0.76 ms on the GPU, 34 MB moved; 10 GB/s until 2026-11-27).
    pub const STRIDED: f64 = 40.0;
    pub const GPU_NS_PER_WORK: f64 = 0.0008;
    pub const GPU_FIXED_NS: f64 = 60_000.0;
    pub const GPU_DEVICE_FIXED_NS: f64 = 12_000.0;
    /// ESTIMATE takes the GPU only when the model puts it below this fraction of the CPU's
    /// time: a wrong GPU choice for a small problem costs several times its CPU time, a wrong
    /// CPU choice near the boundary at most the inverse of this (0.8 until 2026-11-27, when
    /// c2c f32 2048^2 from malloc arrays stayed on a CPU 1.28x slower).
    pub const GPU_MARGIN: f64 = 0.85;
    /// Spread over several devices (`Backend::Gpus`): the fixed cost of the program's streams
    /// and events across the cards, and the bytes per ns of the all-to-all between them
    /// (peer copies: 372 GB/s between two H200s over NVLink, 2026-11-26; PCIe-only cards
    /// move far less, so the model assumes a quarter of it).
    pub const SPREAD_FIXED_NS: f64 = 150_000.0;
    pub const PEER_BW: f64 = 90.0;
    /// Pageable arrays through the staging blocks ([`super::pageable_rate`]): bytes per ns
    /// once the pipeline runs, and the bytes whose time its filling costs (0.37 ms).
    pub const PAGEABLE_BW: f64 = 32.0;
    pub const PAGEABLE_FILL_BYTES: f64 = 11.9e6;
}

/// Bytes per ns of pageable host arrays through the staging blocks, for `bytes` moved in all:
/// as if the transfer moved `PAGEABLE_FILL_BYTES` more at `PAGEABLE_BW` (thread start-up and
/// pipeline fill dominate small transfers). Measured on the H100 box, 2026-11-27 (GPU time
/// less 60 µs): 4.0-5.6 GB/s for 2 MB, 11-14.5 for 8 MB, 15-17 for 17 MB, 20-25 for 34 MB,
/// 26-27 for 67 MB. A square-root curve (4.7 GB/s at 2 MB) put 8 MB at 9.6 and left r2c f32
/// 2^20 on a CPU 1.14-1.25x slower.
fn pageable_rate(bytes: f64) -> f64 {
    model::PAGEABLE_BW * bytes / (bytes + model::PAGEABLE_FILL_BYTES)
}

/// Largest prime factor of `n` (1 for n <= 1).
fn largest_prime_factor(mut n: usize) -> usize {
    let (mut p, mut largest) = (2, 1);
    while p * p <= n {
        while n.is_multiple_of(p) {
            largest = p;
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        n
    } else {
        largest
    }
}

/// Is one side of `p` laid out packed (row-major, interleaved, transforms one after the
/// other), so it moves as one byte range? Strides are in real scalars.
fn side_packed(p: &Problem, input: bool) -> bool {
    let (shape, complex) = if input {
        (p.input_shape(), p.kind.input_is_complex())
    } else {
        (p.output_shape(), p.kind.output_is_complex())
    };
    let stride = |d: &crate::problem::IoDim| if input { d.is } else { d.os };
    let mut expect: isize = if complex { 2 } else { 1 };
    let dims = shape.iter().copied().zip(p.dims.iter().map(stride));
    let loops = p.loops.iter().map(|d| (d.n, stride(d)));
    let all: Vec<(isize, isize)> = dims.chain(loops).collect();
    // Innermost first: the transform's last dim, then outward, then the loops' last first.
    let (dims, loops) = all.split_at(p.dims.len());
    for &(n, s) in dims.iter().rev().chain(loops.iter().rev()) {
        if n > 1 && s != expect {
            return false;
        }
        expect *= n;
    }
    true
}

/// Work units of one execute (see [`model`]).
fn model_work(p: &Problem) -> f64 {
    let n = p.transform_size().max(2) as f64;
    let wide = if p.precision == Precision::F64 {
        2.0
    } else {
        1.0
    };
    let kind = match &p.kind {
        Kind::Dft { .. } => 1.0,
        Kind::R2c | Kind::C2r => 0.5,
        Kind::R2r(kinds) if kinds.iter().all(|k| (*k as i32) <= 2) => 0.5, // R2HC, HC2R, DHT
        Kind::R2r(_) => 1.5,
    };
    // An r2r axis runs FFTs of its logical size (REDFT00 of n points: 2(n-1)).
    let fft_len = |axis: usize, n: isize| match &p.kind {
        Kind::R2r(kinds) => kinds.get(axis).map_or(n, |k| k.logical_size(n)),
        _ => n,
    };
    let slow = if p
        .dims
        .iter()
        .enumerate()
        .any(|(axis, d)| largest_prime_factor(fft_len(axis, d.n).max(0) as usize) > 31)
    {
        4.0
    } else {
        1.0
    };
    n * p.howmany() as f64 * n.log2() * wide * kind * slow
}

/// Estimated ns of one execute on the CPU with `threads` threads and on the GPU.
fn model_costs(p: &Problem, threads: usize, mem: (Memory, Memory)) -> (f64, f64) {
    let m = model_parts(p, threads, mem);
    (m.cpu, m.gpu())
}

/// The cost model's terms, in ns: the CPU's time, and the GPU's fixed cost, host transfers
/// and compute.
struct ModelParts {
    cpu: f64,
    gpu_fixed: f64,
    gpu_transfers: f64,
    gpu_compute: f64,
    /// Bytes of the complex array the transform's exchange moves when spread.
    complex_bytes: f64,
}

impl ModelParts {
    /// The time on one GPU.
    fn gpu(&self) -> f64 {
        self.gpu_fixed + self.gpu_transfers + self.gpu_compute
    }
}

/// The time of `Backend::Gpus` over `parts` devices by the model: each card moves and
/// transforms its share (the host transfers of pinned arrays run side by side as DMA; pageable
/// ones are staged by one host thread, so they do not shrink), and the all-to-all moves all but
/// a card's own share between them.
fn model_spread(m: &ModelParts, mem: (Memory, Memory), parts: usize) -> f64 {
    let p = parts as f64;
    let transfers = if mem == (Memory::Pinned, Memory::Pinned) {
        m.gpu_transfers / p
    } else {
        m.gpu_transfers
    };
    model::SPREAD_FIXED_NS
        + transfers
        + m.gpu_compute / p
        + m.complex_bytes * (p - 1.0) / p / model::PEER_BW
}

fn model_parts(p: &Problem, threads: usize, mem: (Memory, Memory)) -> ModelParts {
    let n = p.transform_size().max(2) as f64;
    let work = model_work(p);
    let unit = p.precision.bytes() as f64;
    let bytes = |shape: Vec<isize>, complex: bool| {
        shape.iter().product::<isize>() as f64
            * p.howmany() as f64
            * unit
            * if complex { 2.0 } else { 1.0 }
    };
    let (bin, bout) = (
        bytes(p.input_shape(), p.kind.input_is_complex()),
        bytes(p.output_shape(), p.kind.output_is_complex()),
    );
    // One 1-D transform runs on several threads only through the four-step.
    let single_1d = p.dims.len() == 1 && p.howmany() == 1;
    let four_step = single_1d && threads > 1;
    // The four-step's strided passes cost f32 as much as f64 per point (c2c f32 2^20 in place
    // 1.56 ms and r2c f32 2^20 0.87 ms at 16 threads, 1.2-1.35x the model that halved them).
    let cpu_work = if four_step && p.precision == Precision::F32 {
        2.0 * work
    } else {
        work
    };
    let threads = threads.max(1) as f64;
    let (passes, bw) = if four_step {
        (3.0, model::FOUR_STEP_BW)
    } else {
        (
            (n.log2() / 16.0).ceil().max(1.0),
            (model::HOST_BW_PER_THREAD * threads).min(model::HOST_BW),
        )
    };
    let cpu = cpu_work * model::CPU_NS_PER_WORK / threads.powf(model::THREAD_SCALING)
        + passes * (bin + bout) / bw;
    let pageable = pageable_rate(bin + bout);
    let time = |b: f64, m: Memory, packed: bool, pinned_rate: f64| match (m, packed) {
        (Memory::Device, _) => 0.0,
        (Memory::Pinned, true) => b / pinned_rate,
        (Memory::Pinned, false) => b / model::STRIDED,
        (Memory::Pageable, true) => b / pageable,
        (Memory::Pageable, false) => b / pageable.min(model::STRIDED),
    };
    let packed = (side_packed(p, true), side_packed(p, false));
    let pinned_packed = mem == (Memory::Pinned, Memory::Pinned) && packed == (true, true);
    let tiles = if pinned_packed {
        stream::tile_count(p)
    } else {
        1
    };
    let transfers = if tiles > 1 {
        // A batch streamed in several tiles copies tile c + 1 in while tile c - 1 goes out
        // (`passes::stream`): from pinned packed arrays both ways run at once, all but the
        // first tile's copy in and the last one's copy out.
        let (tin, tout) = (bin / model::H2D_PINNED, bout / model::D2H_PINNED);
        tin.max(tout).max((bin + bout) / model::BOTH_WAYS_PINNED) + (tin + tout) / tiles as f64
    } else {
        time(bin, mem.0, packed.0, model::H2D_PINNED)
            + time(bout, mem.1, packed.1, model::D2H_PINNED)
    };
    let fixed = if mem == (Memory::Device, Memory::Device) {
        model::GPU_DEVICE_FIXED_NS
    } else {
        model::GPU_FIXED_NS
    };
    ModelParts {
        cpu,
        gpu_fixed: fixed,
        gpu_transfers: transfers,
        gpu_compute: work * model::GPU_NS_PER_WORK,
        complex_bytes: if p.kind.input_is_complex() { bin } else { bout },
    }
}

/// Could the GPU beat the CPU on this problem at all? Its best case against the CPU's cost, by
/// the model: arrays already on the device if the caller could have device arrays (the program
/// loaded CUDA, or fftx opened it: `fftw_malloc` pins through it), else pageable host arrays,
/// the only kind a program without CUDA has. MEASURE and above keep a margin for the model's
/// error, since they time the candidates anyway.
fn gpu_might_win(p: &Problem, max_threads: usize, rigor: Rigor) -> bool {
    let best = if cuda::device_pointers_possible() {
        (Memory::Device, Memory::Device)
    } else {
        (Memory::Pageable, Memory::Pageable)
    };
    gpu_might_win_from(p, max_threads, rigor, best)
}

fn gpu_might_win_from(
    p: &Problem,
    max_threads: usize,
    rigor: Rigor,
    best: (Memory, Memory),
) -> bool {
    let (cpu, gpu_best) = model_costs(p, model_threads(p, max_threads), best);
    let margin = if rigor == Rigor::Estimate {
        model::GPU_MARGIN
    } else {
        4.0
    };
    gpu_best < cpu * margin
}

/// ESTIMATE with a GPU: the CPU's thread choice against the GPU (and, where `parts` > 1
/// devices may share the transform, against spreading it over them), by the cost model.
fn estimate_with_gpu(
    p: &Problem,
    max_threads: usize,
    mem: (Memory, Memory),
    parts: usize,
) -> Choice {
    let c = estimate(p, max_threads);
    let model_threads = model_threads(p, max_threads);
    let m = model_parts(p, model_threads, mem);
    let gpu = m.gpu();
    let gpus = (parts > 1).then(|| model_spread(&m, mem, parts));
    crate::log::log_info!(
        "estimate: cpu {:.0} ns (modelled on {} thread(s)), gpu {:.0} ns{} ({:?} -> {:?})",
        m.cpu,
        model_threads,
        gpu,
        gpus.map_or(String::new(), |g| format!(", {parts} gpus {g:.0} ns")),
        mem.0,
        mem.1
    );
    let (backend, best) = match gpus {
        Some(g) if g < gpu => (Backend::Gpus, g),
        _ => (Backend::Gpu, gpu),
    };
    if best < m.cpu * model::GPU_MARGIN {
        Choice { backend, ..c }
    } else {
        c
    }
}

/// Of the GPU's ways, one card or `parts` of them, the faster by the model (ESTIMATE on a
/// GPU the caller imposed).
fn estimate_gpu_only(
    p: &Problem,
    max_threads: usize,
    mem: (Memory, Memory),
    parts: usize,
) -> Backend {
    let m = model_parts(p, model_threads(p, max_threads), mem);
    let gpu = m.gpu();
    if parts > 1 && model_spread(&m, mem, parts) < gpu {
        Backend::Gpus
    } else {
        Backend::Gpu
    }
}

/// How many devices a plan of `p` on host arrays may spread over: those `FFTX_DEVICES`
/// selects when it selects several and `passes::distribute` takes the problem (rank >= 2
/// c2c/r2c/c2r, or one 1-D c2c of composite length); else 1.
fn spread_parts(p: &Problem, mem: (Memory, Memory)) -> usize {
    if mem.0 == Memory::Device || mem.1 == Memory::Device {
        return 1;
    }
    if std::env::var("FFTX_DEVICES").map_or(true, |v| v.trim().is_empty()) {
        return 1;
    }
    let spreadable = match (&p.kind, &p.dims[..]) {
        (Kind::R2r(_), _) | (_, []) => false,
        (Kind::Dft { .. }, [d]) if p.loops.is_empty() => {
            (2..).take_while(|f| f * f <= d.n).any(|f| d.n % f == 0)
        }
        (_, [_]) => false,
        _ => true,
    };
    if !spreadable {
        return 1;
    }
    let parts = cuda::devices().len();
    if parts > 1 && distribute::spread(p, &(0..parts).collect::<Vec<_>>()).is_err() {
        return 1;
    }
    parts.max(1)
}

/// Scratch arrays shaped like the problem's, so timing never touches the caller's arrays.
struct Scratch<T> {
    /// The memory `in_at` and `out_at` point into, kept alive with them.
    _memory: (Vec<T>, Vec<T>),
    in_at: ArrayPtr,
    out_at: ArrayPtr,
}

fn scratch<T: Real>(p: &Problem) -> Option<Scratch<T>> {
    let ic = p.kind.input_is_complex();
    let oc = p.kind.output_is_complex();
    let (mut ilo, mut ihi) = p.extent(true);
    let (olo, ohi) = p.extent(false);
    if p.in_place {
        // One array seen both ways: it must hold what either side addresses (an in-place r2c
        // writes n/2+1 complex values over n reals).
        (ilo, ihi) = (ilo.min(olo), ihi.max(ohi));
    }
    let ilen = (ihi - ilo + 1) as usize;
    let olen = if p.in_place {
        0
    } else {
        (ohi - olo + 1) as usize
    };
    if (ilen + olen).saturating_mul(std::mem::size_of::<T>()) > MEASURE_BYTES_LIMIT {
        return None;
    }
    let mut input: Vec<T> = (0..ilen)
        .map(|i| T::cast(((i * 7919) % 1000) as f64 * 1e-3 - 0.5))
        .collect();
    let mut output: Vec<T> = vec![T::zero(); olen];
    let at = |v: &mut Vec<T>, lo: isize, complex: bool| {
        let base = v.as_mut_ptr().wrapping_offset(-lo) as usize;
        if complex {
            ArrayPtr::Complex {
                re: base,
                im: base + std::mem::size_of::<T>(),
            }
        } else {
            ArrayPtr::Real(base)
        }
    };
    let in_at = at(&mut input, ilo, ic);
    let out_at = if p.in_place {
        // Same memory, seen as the output's kind.
        let base = in_at.base();
        if oc {
            ArrayPtr::Complex {
                re: base,
                im: base + std::mem::size_of::<T>(),
            }
        } else {
            ArrayPtr::Real(base)
        }
    } else {
        at(&mut output, olo, oc)
    };
    Some(Scratch {
        _memory: (input, output),
        in_at,
        out_at,
    })
}

/// MEASURE with a GPU: the fastest CPU thread count, then the GPU on scratch memory of the same
/// kind as the caller's arrays; the faster wins.
fn measure_with_gpu<T: Real>(
    p: &Problem,
    max_threads: usize,
    rigor: Rigor,
    limit: Option<Duration>,
    mem: (Memory, Memory),
    parts: usize,
) -> Option<Choice> {
    let cpu = measure::<T>(p, max_threads, rigor, limit)?;
    // The model rules out hopeless GPU candidates without timing them (small transforms).
    let (cpu_model, gpu_model) = model_costs(p, cpu.threads, mem);
    if gpu_model > 4.0 * cpu_model.max(cpu.cost_ns) {
        crate::log::log_info!(
            "measure: gpu not timed (model {gpu_model:.0} ns vs cpu {:.0} ns)",
            cpu.cost_ns
        );
        return Some(cpu);
    }
    let gpu = measure_gpus::<T>(p, mem, rigor, parts);
    crate::log::log_info!(
        "measure: cpu {:.0} ns ({} thread(s)), {}",
        cpu.cost_ns,
        cpu.threads,
        gpu.map_or("gpu failed".to_string(), |(b, g)| format!(
            "{} {g:.0} ns",
            b.name()
        ))
    );
    match gpu {
        Some((backend, g)) if g < cpu.cost_ns => Some(Choice {
            backend,
            cost_ns: g,
            ..cpu
        }),
        _ => Some(cpu),
    }
}

/// Times the GPU on one card and, where `parts` > 1 devices may share the transform, spread
/// over them; the faster with its time (None if neither runs).
fn measure_gpus<T: Real>(
    p: &Problem,
    mem: (Memory, Memory),
    rigor: Rigor,
    parts: usize,
) -> Option<(Backend, f64)> {
    let one = measure_gpu::<T>(p, mem, rigor, Backend::Gpu).map(|ns| (Backend::Gpu, ns));
    let spread = (parts > 1)
        .then(|| measure_gpu::<T>(p, mem, rigor, Backend::Gpus))
        .flatten()
        .map(|ns| (Backend::Gpus, ns));
    match (one, spread) {
        (Some(a), Some(b)) => Some(if b.1 < a.1 { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Times the GPU step on `backend` (`Gpu`, `Gpus`: over the selected devices, `GpuSplitHalf`)
/// on scratch arrays in memory of the given kinds (None if it fails).
fn measure_gpu<T: Real>(
    p: &Problem,
    mem: (Memory, Memory),
    rigor: Rigor,
    backend: Backend,
) -> Option<f64> {
    if rigor == Rigor::Estimate {
        return None;
    }
    let s = scratch::<T>(p)?;
    let on_host = mem.0 != Memory::Device && mem.1 != Memory::Device;
    let step = if on_host {
        let lowered = gpu_program(p, backend, host_arrays(Some(mem))).ok()?;
        CudaRun::<T>::new(&lowered.program, &lowered.tiles, backend)
    } else {
        CudaRun::<T>::new(&lower(p, backend, 1, 0), &[], backend)
    }
    .ok()?;
    // Copies of the scratch arrays in the caller's kinds of memory, at the same offsets.
    let copy = |v: &Vec<T>, m: Memory| {
        let bytes = unsafe {
            std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * std::mem::size_of::<T>())
        };
        cuda::Mirror::new(bytes, m)
    };
    let moved = |a: ArrayPtr, from: &Vec<T>, to: &cuda::Mirror| {
        let shift = |x: usize| (x as isize - from.as_ptr() as isize + to.ptr as isize) as usize;
        match a {
            ArrayPtr::Real(x) => ArrayPtr::Real(shift(x)),
            ArrayPtr::Complex { re, im } => ArrayPtr::Complex {
                re: shift(re),
                im: shift(im),
            },
        }
    };
    let min = copy(&s._memory.0, mem.0)?;
    let input = moved(s.in_at, &s._memory.0, &min);
    let mout;
    let output = if p.in_place {
        moved(s.out_at, &s._memory.0, &min)
    } else {
        mout = copy(&s._memory.1, mem.1)?;
        moved(s.out_at, &s._memory.1, &mout)
    };
    MEASUREMENTS.fetch_add(1, Ordering::Relaxed);
    let run = || unsafe { step.execute(input, output, p.in_place) };
    run().ok()?; // warm-up: module loads, plan work areas, staging blocks
    let target = match rigor {
        Rigor::Measure => Duration::from_millis(20),
        _ => Duration::from_millis(100),
    };
    let mut fastest = f64::INFINITY;
    let t0 = Instant::now();
    let mut reps = 0;
    while reps < 3 || (t0.elapsed() < target && reps < 100) {
        let t = Instant::now();
        run().ok()?;
        fastest = fastest.min(t.elapsed().as_nanos() as f64);
        reps += 1;
    }
    crate::log::log_progress!(
        "measure: {} ({:?} -> {:?}) {} (best of {reps} runs) for {}",
        backend.name(),
        mem.0,
        mem.1,
        show_ns(fastest),
        p.describe()
    );
    Some(fastest)
}

/// A time in ns as a person reads it.
fn show_ns(ns: f64) -> String {
    match ns {
        _ if ns >= 1e9 => format!("{:.2} s", ns / 1e9),
        _ if ns >= 1e6 => format!("{:.2} ms", ns / 1e6),
        _ if ns >= 1e3 => format!("{:.1} us", ns / 1e3),
        _ => format!("{ns:.0} ns"),
    }
}

/// Times each candidate thread count on scratch arrays and keeps the fastest.
fn measure<T: Real>(
    p: &Problem,
    max_threads: usize,
    rigor: Rigor,
    limit: Option<Duration>,
) -> Option<Choice> {
    let s = scratch::<T>(p)?;
    let start = Instant::now();
    let mut candidates = vec![1usize];
    let mut t = 2;
    while t < max_threads {
        candidates.push(t);
        t *= 2;
    }
    if max_threads > 1 {
        candidates.push(max_threads);
    }
    // One candidate needs no contest: a few runs give the plan its measured cost.
    let reps_target = match rigor {
        _ if candidates.len() == 1 => Duration::ZERO,
        Rigor::Measure => Duration::from_millis(2),
        _ => Duration::from_millis(10),
    };
    let mut best: Option<Choice> = None;
    for &threads in &candidates {
        if limit.is_some_and(|l| start.elapsed() > l) && best.is_some() {
            break;
        }
        let exec = CpuTransform::<T>::new(p, threads);
        MEASUREMENTS.fetch_add(1, Ordering::Relaxed);
        let run = || unsafe { exec.execute(s.in_at, s.out_at) };
        run().ok()?; // warm-up: caches, page faults; out of memory: the cost model decides
        let mut reps = 0u32;
        let mut fastest = f64::INFINITY;
        let t0 = Instant::now();
        while reps < 3 || (t0.elapsed() < reps_target && reps < 1000) {
            let t = Instant::now();
            let _ = run();
            fastest = fastest.min(t.elapsed().as_nanos() as f64);
            reps += 1;
            if limit.is_some_and(|l| start.elapsed() > l) {
                break;
            }
        }
        crate::log::log_progress!(
            "measure: cpu with {threads} thread(s) {} (best of {reps} runs) for {}",
            show_ns(fastest),
            p.describe()
        );
        if best.is_none_or(|b| fastest < b.cost_ns) {
            best = Some(Choice {
                rigor,
                threads,
                cost_ns: fastest,
                backend: Backend::Cpu,
                fusion: None,
            });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{IoDim, Kind, R2rKind};

    fn c2c(n: isize, howmany: isize, precision: Precision) -> Problem {
        Problem {
            kind: Kind::Dft { sign: -1 },
            dims: vec![IoDim::new(n, 2, 2)],
            loops: if howmany > 1 {
                vec![IoDim::new(howmany, 2 * n, 2 * n)]
            } else {
                vec![]
            },
            precision,
            in_place: false,
        }
    }

    #[test]
    fn cost_model_keeps_small_transforms_on_the_cpu() {
        let pinned = (Memory::Pinned, Memory::Pinned);
        for n in [16, 256, 1024, 4096] {
            let (cpu, gpu) = model_costs(&c2c(n, 1, Precision::F32), 1, pinned);
            assert!(cpu < gpu, "n={n}: cpu {cpu} gpu {gpu}");
        }
        // Even on device arrays a tiny transform costs the GPU its fixed overhead.
        let (cpu, gpu) = model_costs(
            &c2c(64, 1, Precision::F64),
            1,
            (Memory::Device, Memory::Device),
        );
        assert!(cpu < gpu);
    }

    /// Under ESTIMATE a single 1-D transform long enough for the four-step gets every thread
    /// (2^16 and 3^10 got 2 and 1 from the points-per-thread rule); short ones and batches as
    /// many as threads keep that rule.
    #[test]
    fn estimate_gives_a_long_1d_transform_every_thread() {
        for n in [1 << 16, 59049] {
            assert_eq!(
                estimate(&c2c(n, 1, Precision::F32), 16).threads,
                16,
                "n={n}"
            );
        }
        let mut r2c = c2c(1 << 17, 1, Precision::F64);
        r2c.kind = Kind::R2c;
        assert_eq!(estimate(&r2c, 16).threads, 16);
        assert_eq!(estimate(&c2c(4096, 1, Precision::F32), 16).threads, 1);
        assert_eq!(estimate(&c2c(1 << 16, 32, Precision::F32), 16).threads, 16);
        assert_eq!(estimate(&c2c(1 << 15, 1, Precision::F32), 16).threads, 16);
        // Below the four-step's length: the rule's 4 (2^14 points, 4 grains).
        assert_eq!(estimate(&c2c(1 << 14, 1, Precision::F64), 16).threads, 4);
    }

    /// A mid-size multi-dimensional transform gets a thread per `PAR_GRAIN` points (c2c f64 64^3
    /// ran on 8 of 16 threads and r2c f32 32^3 on 1, 1.4-2.0x FFTW's time), while the cost
    /// model still counts the threads it was fitted with, so placements do not move.
    #[test]
    fn estimate_gives_mid_size_transforms_a_thread_per_grain() {
        let cube = |n: isize, kind, precision| Problem::packed(&[n, n, n], kind, precision);
        let c64 = cube(64, Kind::Dft { sign: -1 }, Precision::F64);
        let r32 = cube(32, Kind::R2c, Precision::F32);
        assert_eq!(estimate(&c64, 16).threads, 16);
        assert_eq!(estimate(&r32, 16).threads, 8);
        assert_eq!(estimate(&r32, 2).threads, 2);
        assert_eq!(
            estimate(&cube(16, Kind::R2c, Precision::F32), 16).threads,
            1
        );
        assert_eq!(model_threads(&c64, 16), 8);
        assert_eq!(model_threads(&r32, 16), 1);
    }

    #[test]
    fn small_problems_never_consider_the_gpu() {
        let device = (Memory::Device, Memory::Device);
        let pageable = (Memory::Pageable, Memory::Pageable);
        // A first plan of 1024 points on one thread must not start CUDA (200-300 ms).
        for n in [16, 64, 256, 1024] {
            let p = c2c(n, 1, Precision::F64);
            assert!(!gpu_might_win_from(&p, 1, Rigor::Estimate, device), "n={n}");
            assert!(
                !gpu_might_win_from(&p, 16, Rigor::Estimate, device),
                "n={n}"
            );
        }
        // Without CUDA in the process the arrays are pageable: r2c f64 4096 took 74 µs on the
        // GPU and 9 µs on the CPU (2026-11-26, H200 box).
        let r2c = Problem::packed(&[4096], Kind::R2c, Precision::F64);
        assert!(!gpu_might_win_from(&r2c, 16, Rigor::Estimate, pageable));
        assert!(gpu_might_win_from(
            &c2c(1 << 24, 1, Precision::F32),
            16,
            Rigor::Estimate,
            pageable
        ));
    }

    /// The model's choices at 16 threads on problems of the H100 box's placement table
    /// (bench/results/2026-11-27-h100-placement.md), where the measured winner was clear.
    #[test]
    fn cost_model_picks_the_measured_winner() {
        use Backend::{Cpu, Gpu};
        let pinned = (Memory::Pinned, Memory::Pinned);
        let pageable = (Memory::Pageable, Memory::Pageable);
        let r2c_in_place = |n: isize| {
            let mut p = Problem::packed(&[n, n, n], Kind::R2c, Precision::F64);
            let pad = 2 * (n / 2 + 1);
            p.dims[2] = IoDim::new(n, 1, 2);
            p.dims[1] = IoDim::new(n, pad, pad);
            p.dims[0] = IoDim::new(n, pad * n, pad * n);
            p.in_place = true;
            p
        };
        let r2r = |shape: &[isize], kind: R2rKind| Problem {
            kind: Kind::R2r(vec![kind; shape.len()]),
            ..Problem::packed(shape, Kind::Dft { sign: -1 }, Precision::F32)
        };
        let packed =
            |shape: &[isize], kind: Kind, precision| Problem::packed(shape, kind, precision);
        let c2c_f32 = Kind::Dft { sign: -1 };
        let cases = [
            // (problem, memory, winner): measured ms GPU vs CPU (16 threads)
            (c2c(1 << 24, 1, Precision::F32), pageable, Gpu), // 8.70 vs 29.7
            (c2c(1 << 20, 1, Precision::F32), pinned, Gpu),   // 0.38 vs 1.22 (in place)
            (c2c(1 << 20, 1, Precision::F64), pageable, Gpu), // 1.73 vs 2.15
            (c2c(64, 100000, Precision::F32), pinned, Cpu),   // 2.31 vs 0.70
            // Streamed in 8 tiles, copies both ways at once (2026-12-06: CPU 3.89)
            (c2c(4096, 4096, Precision::F32), pinned, Gpu),
            (c2c(4096, 4096, Precision::F32), pageable, Cpu), // 4.09 on the CPU
            (c2c(1024, 1024, Precision::F64), pinned, Cpu),   // 1.34 vs 0.32
            (c2c(1024, 1024, Precision::F64), pageable, Cpu), // 1.45 vs 0.46
            (packed(&[4096], Kind::R2c, Precision::F64), pinned, Cpu), // 0.149 vs 0.008
            (
                packed(&[64, 64, 64], Kind::R2c, Precision::F32),
                pageable,
                Cpu,
            ), // 0.435 vs 0.177
            (
                packed(&[2048, 2048], c2c_f32.clone(), Precision::F32),
                pageable,
                Gpu,
            ), // 2.56 vs 3.27
            (packed(&[1 << 20], Kind::R2c, Precision::F32), pageable, Gpu), // 0.64 vs 0.74-0.87
            (
                packed(&[256, 256, 256], c2c_f32, Precision::F32),
                pinned,
                Gpu,
            ), // 5.31 vs 13.6
            (r2c_in_place(128), pinned, Gpu), // 0.76 vs 1.35 (strided: gathered beside the DMA)
            (r2r(&[256, 256, 256], R2rKind::Redft10), pinned, Gpu), // 4.69 vs 26.0
            (r2r(&[511, 511], R2rKind::Rodft00), pageable, Cpu), // 0.59 vs 0.47 (FFTs of 1024)
        ];
        for (p, mem, winner) in cases {
            let got = estimate_with_gpu(&p, 16, mem, 1).backend;
            assert_eq!(
                got,
                winner,
                "{} from {:?}: {:?}",
                p.describe(),
                mem,
                model_costs(&p, 16, mem)
            );
        }
    }

    /// Spreading over several devices pays where each card's share of the host transfers runs
    /// beside the others' (pinned arrays) and the problem is large; pageable arrays go through
    /// one staging thread, and small problems are dominated by the fixed cost.
    #[test]
    fn the_model_spreads_large_pinned_transforms_over_devices() {
        let pinned = (Memory::Pinned, Memory::Pinned);
        let pageable = (Memory::Pageable, Memory::Pageable);
        let cube = |n: isize| Problem::packed(&[n, n, n], Kind::Dft { sign: -1 }, Precision::F32);
        // (n, memory, devices, what ESTIMATE takes); 512³ measured on 4 H100s: 18.1 ms spread,
        // 42.7 on one card (bench/results/2026-11-26-4xh100-spread.md).
        let cases = [
            (512, pinned, 4, Backend::Gpus),
            (512, pinned, 1, Backend::Gpu),
            (512, pageable, 4, Backend::Gpu),
            (64, pinned, 4, Backend::Gpu),
        ];
        for (n, mem, parts, want) in cases {
            let got = estimate_with_gpu(&cube(n), 16, mem, parts).backend;
            assert_eq!(got, want, "{n}^3 {mem:?} over {parts}");
        }
        assert_eq!(estimate_gpu_only(&cube(64), 16, pinned, 4), Backend::Gpu);
        assert_eq!(estimate_gpu_only(&cube(512), 16, pinned, 2), Backend::Gpus);
    }

    #[test]
    fn in_place_scratch_holds_what_either_side_addresses() {
        // In-place r2c, n = 4: 4 reals in, 3 complex (6 reals) out, in one array.
        let p = Problem {
            kind: Kind::R2c,
            dims: vec![IoDim::new(4, 1, 2)],
            loops: vec![],
            precision: Precision::F64,
            in_place: true,
        };
        let s = scratch::<f64>(&p).unwrap();
        assert!(
            s._memory.0.len() >= 6,
            "scratch of {} reals",
            s._memory.0.len()
        );
        // Negative output strides reach below the pointer.
        let p = Problem {
            kind: Kind::Dft { sign: -1 },
            dims: vec![IoDim::new(5, 2, -2)],
            loops: vec![],
            precision: Precision::F64,
            in_place: true,
        };
        let s = scratch::<f64>(&p).unwrap();
        let base = s._memory.0.as_ptr() as usize;
        assert!(s.in_at.base() >= base + 8 * 8 && s._memory.0.len() >= 18);
    }
}
