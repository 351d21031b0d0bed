//! The planner: problem + flags -> plan. Checks, normalizes, consults wisdom, chooses (by the
//! cost model under ESTIMATE, by timing under MEASURE/PATIENT/EXHAUSTIVE) and lowers to a program.

use crate::abi::*;
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cpu::CpuTransform;
use crate::passes::normalize::normalize;
use crate::plan::{prepare, Plan};
use crate::problem::{Precision, Problem};
use crate::program::{Backend, Program, Step};
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

static SETTINGS_F32: Settings = Settings { nthreads: AtomicUsize::new(1), timelimit: Mutex::new(-1.0) };
static SETTINGS_F64: Settings = Settings { nthreads: AtomicUsize::new(1), timelimit: Mutex::new(-1.0) };

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

pub fn check_flags(flags: u32) -> Result<(), String> {
    if flags & !FFTW_KNOWN_FLAGS != 0 {
        return Err(format!("unknown planner flag bits {:#x}", flags & !FFTW_KNOWN_FLAGS));
    }
    if flags & FFTW_DESTROY_INPUT != 0 && flags & FFTW_PRESERVE_INPUT != 0 {
        return Err("FFTW_DESTROY_INPUT and FFTW_PRESERVE_INPUT contradict each other".into());
    }
    Ok(())
}

/// Plans `problem` for the given arrays.
pub fn plan<T: Real>(problem: Problem, input: ArrayPtr, output: ArrayPtr, flags: u32) -> Result<Plan, String> {
    debug_assert_eq!(problem.precision, T::PRECISION);
    check_flags(flags)?;
    if input.is_null() || output.is_null() {
        return Err("NULL array".into());
    }
    problem.validate().map_err(|e| e.0)?;
    let problem = normalize(&problem);
    let settings = settings(T::PRECISION);
    let max_threads = settings.nthreads();
    let rigor = rigor_of(flags);
    let key = format!("{} threads<={}", problem.describe(), max_threads);
    let wisdom = wisdom::of(T::PRECISION);
    let choice = match wisdom.lookup(&key, rigor) {
        Some(c) => {
            crate::log_info!("plan {key}: from wisdom ({}), {} thread(s)", c.rigor.name(), c.threads);
            c
        }
        None if flags & FFTW_WISDOM_ONLY != 0 => {
            return Err(format!("FFTW_WISDOM_ONLY and no {} wisdom for {key}", rigor.name()));
        }
        None => {
            let c = match rigor {
                Rigor::Estimate => estimate(&problem, max_threads),
                _ => measure::<T>(&problem, max_threads, rigor, settings.timelimit()).unwrap_or_else(|| estimate(&problem, max_threads)),
            };
            crate::log_info!("plan {key}: {} chose {} thread(s){}", rigor.name(), c.threads,
                if c.cost_ns > 0.0 { format!(", {:.0} ns", c.cost_ns) } else { String::new() });
            wisdom.remember(&key, c);
            c
        }
    };
    let program = lower(&problem, choice.threads);
    let exec = T::executable(prepare::<T>(&program));
    Ok(Plan { problem, input, output, program, exec, choice })
}

fn lower(problem: &Problem, threads: usize) -> Program {
    Program { steps: vec![Step::Transform { problem: problem.clone(), backend: Backend::Cpu, threads }] }
}

/// The cost model: a thread pays off once it gets enough work to hide its start-up (about
/// 20 µs, some 32 Ki points of FFT work).
fn estimate(problem: &Problem, max_threads: usize) -> Choice {
    let points = problem.transform_size().max(1) * problem.howmany();
    let threads = (points / (1 << 15)).clamp(1, max_threads.max(1));
    Choice { rigor: Rigor::Estimate, threads, cost_ns: 0.0 }
}

/// Extent of the elements a problem addresses on one side: (lowest offset, highest offset), in
/// real scalars.
fn extent(problem: &Problem, shape: &[isize], input: bool, complex: bool) -> (isize, isize) {
    let (mut lo, mut hi) = (0isize, 0isize);
    let strides = problem.dims.iter().map(|d| if input { d.is } else { d.os });
    let dims = shape.iter().copied().zip(strides).chain(problem.loops.iter().map(|d| (d.n, if input { d.is } else { d.os })));
    for (n, s) in dims {
        let span = (n - 1).max(0) * s;
        if span < 0 {
            lo += span
        } else {
            hi += span
        }
    }
    (lo, hi + if complex { 1 } else { 0 })
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
    let (ilo, ihi) = extent(p, &p.input_shape(), true, ic);
    let (olo, ohi) = extent(p, &p.output_shape(), false, oc);
    let ilen = (ihi - ilo + 1) as usize;
    let olen = if p.in_place { 0 } else { (ohi - olo + 1) as usize };
    if (ilen + olen).saturating_mul(std::mem::size_of::<T>()) > MEASURE_BYTES_LIMIT {
        return None;
    }
    let mut input: Vec<T> = (0..ilen).map(|i| T::cast(((i * 7919) % 1000) as f64 * 1e-3 - 0.5)).collect();
    let mut output: Vec<T> = vec![T::zero(); olen];
    let at = |v: &mut Vec<T>, lo: isize, complex: bool| {
        let base = unsafe { v.as_mut_ptr().offset(-lo) } as usize;
        if complex {
            ArrayPtr::Complex { re: base, im: base + std::mem::size_of::<T>() }
        } else {
            ArrayPtr::Real(base)
        }
    };
    let in_at = at(&mut input, ilo, ic);
    let out_at = if p.in_place {
        // Same memory, seen as the output's kind.
        let base = in_at.base();
        if oc { ArrayPtr::Complex { re: base, im: base + std::mem::size_of::<T>() } } else { ArrayPtr::Real(base) }
    } else {
        at(&mut output, olo, oc)
    };
    Some(Scratch { _memory: (input, output), in_at, out_at })
}

/// Times each candidate thread count on scratch arrays and keeps the fastest.
fn measure<T: Real>(p: &Problem, max_threads: usize, rigor: Rigor, limit: Option<Duration>) -> Option<Choice> {
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
    let reps_target = match rigor {
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
        run(); // warm-up: caches, page faults
        let mut reps = 0u32;
        let mut fastest = f64::INFINITY;
        let t0 = Instant::now();
        while reps < 3 || (t0.elapsed() < reps_target && reps < 1000) {
            let t = Instant::now();
            run();
            fastest = fastest.min(t.elapsed().as_nanos() as f64);
            reps += 1;
            if limit.is_some_and(|l| start.elapsed() > l) {
                break;
            }
        }
        if best.is_none_or(|b| fastest < b.cost_ns) {
            best = Some(Choice { rigor, threads, cost_ns: fastest });
        }
    }
    best
}
