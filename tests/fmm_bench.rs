//! The multi-GPU benchmark of issue 16: the FMM-FFT (one all-to-all) against six-step (three),
//! c2c f32 and f64, N = 2^24 .. 2^28, device-resident (`CudaProgram::run_resident`: the data
//! in the devices' buffers, no host transfers), on the cards `FFTX_DEVICES` names (`0,1`,
//! `all`). Ignored (it needs GPUs and minutes); on the device box:
//!
//! ```sh
//! FFTX_DEVICES=all .device/tests/fmm_bench --ignored --nocapture --test-threads=1
//! ```
//!
//! (`bash tools/device-verify.sh fmm` runs it so.) Environment:
//! - `FMM_SIZES`: log2 N list (default "24 25 26 27 28");
//! - `FMM_PRECISIONS`: "f32 f64" (default both);
//! - `FMM_PARTS`: virtual devices, round robin over the cards (default: the cards; on one card
//!   `FMM_PARTS=2` runs partitions [0, 0]);
//! - `FMM_REPS`: timed resident runs, the median reported (default 5, after one warm-up);
//! - `FMM_CPU_MAX`: up to this log2 N the reference is the CPU executor's six-step (all
//!   cores; default 25); above, the GPU six-step (exact up to rounding: tests/fmm.rs);
//! - `FMM_OUT`: the markdown table's file (default `$OUT/fmm.md`, or stdout only);
//! - `FMM_PROFILE=1`: also each program's steps timed one at a time, summed per kind
//!   (`CudaProgram::profile_resident`), printed as `profile ...` lines;
//! - `FMM_ON_CPU=1`: both programs on the CPU executor instead (virtual devices, no GPU: a dry
//!   run of the harness, e.g. `FMM_ON_CPU=1 FMM_PARTS=2 FMM_SIZES="16 18"`).
//!
//! Prints a markdown table: ms per transform (median), ratio six-step/FMM, and each one's
//! relative L2 error against the reference.

mod common;

use common::{env_list, env_usize};
use fftx::exec::cpu::layout::ArrayPtr;
use fftx::exec::cpu::program::CpuProgram;
use fftx::exec::cuda;
use fftx::exec::cuda::program::CudaProgram;
use fftx::passes::fmm::{fmm_fft, six_step, FmmParams};
use fftx::problem::{Kind, Precision, Problem};
use fftx::program::Program;
use fftx::real::Real;
use rand::{Rng, SeedableRng};
use std::fmt::Write;
use std::sync::Arc;
use std::time::Instant;

fn ptr<T>(v: &mut [T]) -> ArrayPtr {
    let p = v.as_mut_ptr() as usize;
    ArrayPtr::Complex {
        re: p,
        im: p + std::mem::size_of::<T>(),
    }
}

fn rel_l2<T: Real>(a: &[T], b: &[T]) -> f64 {
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (x.to_f64().unwrap(), y.to_f64().unwrap());
        num += (x - y) * (x - y);
        den += y * y;
    }
    (num / den.max(1e-300)).sqrt()
}

/// One algorithm's result: its output (first run, from the host input), the median ms of
/// its resident runs and, with `FMM_PROFILE=1`, where a run's time goes (each step waited for).
struct Timed<T> {
    out: Vec<T>,
    ms: f64,
    profile: String,
}

fn time_gpu<T: Real>(
    prog: &Program,
    map: &[Arc<cuda::Device>],
    x: &[T],
    reps: usize,
) -> Result<Timed<T>, String> {
    if map.is_empty() {
        return time_cpu(prog, x, reps);
    }
    let exec = CudaProgram::<T>::new(prog, map).map_err(|e| format!("{e:?}"))?;
    let (mut a, mut b) = (x.to_vec(), vec![T::zero(); x.len()]);
    // SAFETY: both arrays hold the N elements the program addresses.
    unsafe { exec.run(ptr(&mut a), ptr(&mut b)) }.map_err(|e| format!("{e:?}"))?;
    let (ms, profile) = common::time_resident(&exec, reps, "FMM_PROFILE")?;
    Ok(Timed {
        out: b,
        ms,
        profile,
    })
}

/// The dry run's timing: the CPU executor (one thread), input to output each run.
fn time_cpu<T: Real>(prog: &Program, x: &[T], reps: usize) -> Result<Timed<T>, String> {
    let exec = CpuProgram::<T>::new(prog, 1)?;
    let (mut a, mut b) = (x.to_vec(), vec![T::zero(); x.len()]);
    let mut ms: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            a.copy_from_slice(x);
            let t = Instant::now();
            // SAFETY: both arrays hold the N elements the program addresses.
            unsafe { exec.run(ptr(&mut a), ptr(&mut b)) }.map(|()| t.elapsed().as_secs_f64() * 1e3)
        })
        .collect::<Result<_, _>>()?;
    ms.sort_by(f64::total_cmp);
    Ok(Timed {
        out: b,
        ms: ms[ms.len() / 2],
        profile: String::new(),
    })
}

/// One row of the table for N = 2^log_n in precision T over `map`.
fn row<T: Real>(
    log_n: u32,
    map: &[Arc<cuda::Device>],
    parts: usize,
    reps: usize,
    cpu_max: u32,
) -> String {
    let n = 1usize << log_n;
    let devices: Vec<usize> = (0..parts).collect();
    let problem = Problem::packed(&[n as isize], Kind::Dft { sign: -1 }, T::PRECISION);
    let name = if T::PRECISION == Precision::F64 {
        "f64"
    } else {
        "f32"
    };
    let head = format!("| 2^{log_n} | c2c {name} | {parts} |");
    let mut rng = rand::rngs::SmallRng::seed_from_u64(log_n as u64);
    let x: Vec<T> = (0..2 * n)
        .map(|_| T::cast(rng.gen_range(-1.0..1.0)))
        .collect();
    let six = six_step(&problem, &devices).map_err(|e| format!("{e:?}"));
    let fmm = fmm_fft(&problem, &devices).map_err(|e| format!("{e:?}"));
    let params = FmmParams::choose(n, parts, T::PRECISION);
    let six = six.and_then(|p| time_gpu(&p, map, &x, reps));
    let fmm = fmm.and_then(|p| time_gpu(&p, map, &x, reps));
    let (six, fmm) = match (six, fmm) {
        (Ok(s), Ok(f)) => (s, f),
        (s, f) => {
            let why = [s.err(), f.err()].into_iter().flatten().collect::<Vec<_>>();
            return format!("{head} failed: {} | | | | | |", why.join("; "));
        }
    };
    let (reference, what) = if log_n <= cpu_max {
        let cpu = six_step(&problem, &devices).unwrap();
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
        let (mut a, mut b) = (x.clone(), vec![T::zero(); 2 * n]);
        let exec = CpuProgram::<T>::new(&cpu, threads).unwrap();
        // SAFETY: both arrays hold the N elements the program addresses.
        unsafe { exec.run(ptr(&mut a), ptr(&mut b)).unwrap() };
        (b, "cpu six-step")
    } else {
        (six.out.clone(), "gpu six-step")
    };
    for (name, t) in [("six-step", &six), ("fmm-fft", &fmm)] {
        if !t.profile.is_empty() {
            println!("profile 2^{log_n} {name} on {parts}: {}", t.profile);
        }
    }
    format!(
        "{head} {:.3} | {:.3} | {:.2} | {:.1e} | {:.1e} | {what} | {} |",
        six.ms,
        fmm.ms,
        six.ms / fmm.ms,
        rel_l2(&six.out, &reference),
        rel_l2(&fmm.out, &reference),
        params.map_or("-".into(), |p| format!(
            "P={} M_L={} Q={} B={}",
            p.p, p.leaf, p.terms, p.base
        )),
    )
}

#[test]
#[ignore]
fn fmm_fft_against_six_step() {
    let on_cpu = std::env::var("FMM_ON_CPU").as_deref() == Ok("1");
    let cards = if on_cpu { Vec::new() } else { cuda::devices() };
    if cards.is_empty() && !on_cpu {
        eprintln!("no GPU ({:?}): nothing to time", cuda::why_no_gpu());
        assert!(std::env::var("FFTX_REQUIRE_GPU").as_deref() != Ok("1"));
        return;
    }
    let parts = env_usize("FMM_PARTS", cards.len().max(1));
    let map: Vec<Arc<cuda::Device>> = (0..parts)
        .filter_map(|p| cards.get(p % cards.len().max(1)).cloned())
        .collect();
    let (reps, cpu_max) = (
        env_usize("FMM_REPS", 5),
        env_usize("FMM_CPU_MAX", 25) as u32,
    );
    let mut table = String::new();
    let cards_text: Vec<String> = cards
        .iter()
        .map(|c| format!("{} {}", c.ordinal, c.name))
        .collect();
    let ordinals: Vec<i32> = map.iter().map(|c| c.ordinal).collect();
    let _ = writeln!(
        table,
        "Cards: {}; device map {ordinals:?} ({parts} devices); {}, median of {reps} runs\n",
        cards_text.join(", "),
        if on_cpu {
            "CPU executor dry run, host to host"
        } else {
            "device-resident"
        }
    );
    table.push_str("| N | problem | devices | six-step ms | FMM-FFT ms | six-step/FMM | six-step err | FMM err | reference | FMM parameters |\n");
    table.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
    for log_n in env_list("FMM_SIZES", "24 25 26 27 28") {
        let Ok(log_n) = log_n.parse::<u32>() else {
            continue;
        };
        for prec in env_list("FMM_PRECISIONS", "f32 f64") {
            let line = if prec == "f64" {
                row::<f64>(log_n, &map, parts, reps, cpu_max)
            } else {
                row::<f32>(log_n, &map, parts, reps, cpu_max)
            };
            println!("{line}");
            table.push_str(&line);
            table.push('\n');
        }
    }
    println!("\n{table}");
    let out = std::env::var("FMM_OUT")
        .ok()
        .or_else(|| std::env::var("OUT").ok().map(|o| format!("{o}/fmm.md")));
    if let Some(path) = out {
        std::fs::write(&path, &table).unwrap_or_else(|e| panic!("writing {path}: {e}"));
    }
}
