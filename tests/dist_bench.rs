//! The distributed 3-D benchmark of issue 16: c2c (and r2c) transforms of N³ by slabs and by
//! pencils as `passes::distribute` lowers them, over 1, 2 and 4 cards (strong scaling), beside
//! one card's plain cuFFT 3-D transform (a one-device program of one `Fft` step). Ignored (it
//! needs GPUs and minutes); on the device box:
//!
//! ```sh
//! FFTX_DEVICES=all .device/dist_bench --ignored --nocapture --test-threads=1
//! ```
//!
//! What is timed: `CudaProgram::run_resident`, i.e. every step but the transfers from and to
//! the caller's host arrays, on the data a first `run` left in the devices' buffers: the slab
//! (or first pencil) FFTs in place on the distributed input, the exchanges between the cards,
//! the last FFTs; the result stays distributed on the cards (in the last phase's layout, as
//! FFTW-MPI's `TRANSPOSED_OUT`). The cuFFT row times its one `Fft` step alike (the data on the
//! card). Median of `DIST_REPS` runs after one warm-up. The error is that of the first run's
//! output (host in, host out) against the reference.
//!
//! Environment:
//! - `DIST_SIZES`: N list (default "256 512 1024");
//! - `DIST_PRECISIONS`: "f32 f64" (default both), f64 only up to `DIST_F64_MAX` (default 512);
//! - `DIST_KINDS`: "c2c r2c" (default both; forward transforms);
//! - `DIST_DECOMPS`: "slabs pencils" (default both);
//! - `DIST_CARDS`: card counts, each the first k cards of `FFTX_DEVICES` (default "1 2 4",
//!   counts above the cards there are dropped);
//! - `DIST_PARTITIONS=1`: a count may exceed the cards: its devices are the cards round robin
//!   (on one card, `DIST_CARDS="1 2"` runs 2 partitions of it: the schedule and the copy engine
//!   beside the FFTs, not the link);
//! - `DIST_REPS`: timed resident runs (default 5);
//! - `DIST_CPU_MAX`: up to this N the reference is the CPU executor's transform of the whole
//!   problem (all cores; default 256); above, the one-card cuFFT result;
//! - `DIST_OUT`, `DIST_CSV`: the markdown tables' and the CSV's files (default `$OUT/dist.md`
//!   and `$OUT/dist.csv`, or stdout only);
//! - `DIST_PROFILE=1`: each program's steps also timed one at a time, summed per kind
//!   (`CudaProgram::profile_resident`), printed as `profile ...` lines;
//! - `DIST_ON_CPU=1`: every program on the CPU executor instead (virtual devices, no GPU, host
//!   to host: a dry run of the harness, e.g. `DIST_ON_CPU=1 DIST_SIZES="16 24"`).

mod common;

use common::{env_list, env_usize};
use fftx::exec::cpu::layout::ArrayPtr;
use fftx::exec::cpu::program::CpuProgram;
use fftx::exec::cuda;
use fftx::exec::cuda::program::CudaProgram;
use fftx::passes::distribute;
use fftx::problem::{IoDim, Kind, Precision, Problem};
use fftx::program::{At, Backend, Placement, Program, Step, INPUT, OUTPUT};
use fftx::real::Real;
use std::fmt::Write;
use std::sync::Arc;
use std::time::Instant;

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |t| t.get())
}

/// A caller array: complex (interleaved) or real scalars. The programs only read their input
/// array; the output is taken `&mut`.
fn ptr<T>(v: &[T], complex: bool) -> ArrayPtr {
    let p = v.as_ptr() as usize;
    array(p, complex, std::mem::size_of::<T>())
}

fn out_ptr<T>(v: &mut [T]) -> ArrayPtr {
    array(v.as_mut_ptr() as usize, true, std::mem::size_of::<T>())
}

fn array(p: usize, complex: bool, unit: usize) -> ArrayPtr {
    if complex {
        ArrayPtr::Complex {
            re: p,
            im: p + unit,
        }
    } else {
        ArrayPtr::Real(p)
    }
}

/// Uniform values in [-1, 1) from a hash of the index (the same on any thread count).
fn fill<T: Real>(v: &mut [T], seed: u64) {
    let chunk = v.len().div_ceil(threads()).max(1 << 16);
    std::thread::scope(|s| {
        for (c, part) in v.chunks_mut(chunk).enumerate() {
            s.spawn(move || {
                for (i, x) in part.iter_mut().enumerate() {
                    let mut h = (c * chunk + i) as u64 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    h ^= h >> 31;
                    *x = T::cast((h >> 11) as f64 / (1u64 << 52) as f64 - 1.0);
                }
            });
        }
    });
}

/// Relative L2 distance of `a` from `b`, summed in f64 on every core.
fn rel_l2<T: Real>(a: &[T], b: &[T]) -> f64 {
    let chunk = a.len().div_ceil(threads()).max(1 << 16);
    let sums: Vec<(f64, f64)> = std::thread::scope(|s| {
        let hs: Vec<_> = a
            .chunks(chunk)
            .zip(b.chunks(chunk))
            .map(|(a, b)| {
                s.spawn(move || {
                    let (mut num, mut den) = (0.0f64, 0.0f64);
                    for (x, y) in a.iter().zip(b) {
                        let (x, y) = (x.to_f64().unwrap(), y.to_f64().unwrap());
                        num += (x - y) * (x - y);
                        den += y * y;
                    }
                    (num, den)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let (num, den) = sums
        .iter()
        .fold((0.0, 0.0), |(n, d), &(a, b)| (n + a, d + b));
    // A reference of zeros says nothing: NaN, not 0.
    if den == 0.0 {
        f64::NAN
    } else {
        (num / den).sqrt()
    }
}

/// One card's plain transform: the input copied to the card, ONE `Fft` step of the whole
/// problem (cuFFT's 3-D plan; in place for c2c, real to complex buffer for r2c), copied back.
fn plain(problem: &Problem) -> Program {
    let mut prog = Program::new();
    // The box of one side: its shape (n/2 + 1 along the last axis on the complex side of an
    // r2c) with the problem's strides on both ends.
    let same = |is_in: bool| -> Vec<IoDim> {
        let shape = if is_in {
            problem.input_shape()
        } else {
            problem.output_shape()
        };
        problem
            .dims
            .iter()
            .zip(shape)
            .map(|(d, n)| {
                let s = if is_in { d.is } else { d.os };
                IoDim::new(n, s, s)
            })
            .collect()
    };
    let span = |is_in: bool| -> usize {
        same(is_in)
            .iter()
            .map(|d| (d.n - 1) as usize * d.is as usize)
            .sum::<usize>()
            + 1
    };
    let real = problem.kind == Kind::R2c;
    let input = prog.temp(span(true) + usize::from(!real), Placement::Device(0));
    let output = if real {
        prog.temp(span(false) + 1, Placement::Device(0))
    } else {
        input
    };
    let at = |buf| At { buf, offset: 0 };
    prog.steps.push(Step::Transfer {
        from: at(INPUT),
        to: at(input),
        dims: same(true),
        complex: !real,
        stream: 0,
    });
    prog.steps.push(Step::Fft {
        problem: Problem {
            in_place: input == output,
            ..problem.clone()
        },
        input: at(input),
        output: at(output),
        stream: 0,
    });
    prog.steps.push(Step::Transfer {
        from: at(output),
        to: at(OUTPUT),
        dims: same(false),
        complex: true,
        stream: 0,
    });
    prog
}

/// One program's result: its output (the first run, host to host), the median ms of its
/// resident runs, and with `DIST_PROFILE=1` where a run's time goes.
struct Timed<T> {
    out: Vec<T>,
    ms: f64,
    profile: String,
}

fn time<T: Real>(
    prog: &Program,
    map: &[Arc<cuda::Device>],
    x: &[T],
    out_len: usize,
    real_in: bool,
    reps: usize,
) -> Result<Timed<T>, String> {
    let mut out = vec![T::zero(); out_len];
    if map.is_empty() {
        // The dry run: the CPU executor (one thread), host to host each run.
        let exec = CpuProgram::<T>::new(prog, 1)?;
        let mut ms: Vec<f64> = (0..reps.max(1))
            .map(|_| {
                let t = Instant::now();
                // SAFETY: the arrays hold what the program addresses; the input is only read.
                unsafe { exec.run(ptr(x, !real_in), out_ptr(&mut out)) }
                    .map(|()| t.elapsed().as_secs_f64() * 1e3)
            })
            .collect::<Result<_, _>>()?;
        ms.sort_by(f64::total_cmp);
        return Ok(Timed {
            out,
            ms: ms[ms.len() / 2],
            profile: String::new(),
        });
    }
    let exec = CudaProgram::<T>::new(prog, map).map_err(|e| format!("{e:?}"))?;
    // SAFETY: as above (the program reads the input array and writes the output array).
    unsafe { exec.run(ptr(x, !real_in), out_ptr(&mut out)) }.map_err(|e| format!("{e:?}"))?;
    let (ms, profile) = common::time_resident(&exec, reps, "DIST_PROFILE")?;
    Ok(Timed { out, ms, profile })
}

/// A measured row: (N, problem, decomposition, cards, ms, error).
struct Row {
    n: usize,
    problem: String,
    decomp: String,
    cards: usize,
    grid: String,
    ms: Option<f64>,
    err: Option<f64>,
    reference: &'static str,
    note: String,
}

#[allow(clippy::too_many_arguments)]
fn rows<T: Real>(
    n: usize,
    kind: &str,
    cards: &[Arc<cuda::Device>],
    counts: &[usize],
    decomps: &[String],
    on_cpu: bool,
    reps: usize,
    cpu_max: usize,
    out: &mut Vec<Row>,
) {
    let prec = if T::PRECISION == Precision::F64 {
        "f64"
    } else {
        "f32"
    };
    let real = kind == "r2c";
    let problem = Problem::packed(
        &[n as isize; 3],
        if real {
            Kind::R2c
        } else {
            Kind::Dft { sign: -1 }
        },
        T::PRECISION,
    );
    let name = format!("{kind} {prec}");
    let (in_len, out_len) = (
        n * n * n * if real { 1 } else { 2 },
        2 * n * n * if real { n / 2 + 1 } else { n },
    );
    let t0 = Instant::now();
    let mut x = vec![T::zero(); in_len];
    fill(&mut x, n as u64 + 17 * u64::from(real));
    let map_of = |k: usize| -> Vec<Arc<cuda::Device>> {
        if on_cpu {
            Vec::new()
        } else {
            (0..k).map(|i| cards[i % cards.len()].clone()).collect()
        }
    };
    let mut push = |decomp: &str, k: usize, grid: String, r: Result<(f64, f64), String>, what| {
        let (ms, err, note) = match r {
            Ok((ms, err)) => (Some(ms), Some(err), String::new()),
            Err(e) => (None, None, e),
        };
        let row = Row {
            n,
            problem: name.clone(),
            decomp: decomp.into(),
            cards: k,
            grid,
            ms,
            err,
            reference: what,
            note,
        };
        println!("{}", line(&row, None, None));
        out.push(row);
    };
    // The one-card cuFFT transform, and the reference.
    let base = time(&plain(&problem), &map_of(1), &x, out_len, real, reps);
    let (reference, what): (Option<Vec<T>>, &'static str) = if n <= cpu_max || on_cpu {
        let cpu = Program::transform(&problem, Backend::Cpu, threads(), false);
        let mut want = vec![T::zero(); out_len];
        let exec = CpuProgram::<T>::new(&cpu, threads()).expect("a CPU plan");
        // SAFETY: the arrays hold the problem's elements; the input is only read.
        unsafe { exec.run(ptr(&x, !real), out_ptr(&mut want)) }.expect("the CPU reference");
        (Some(want), "cpu")
    } else {
        (None, "cuFFT 1 card")
    };
    let reference = match (&reference, &base) {
        (Some(r), _) => Some(r),
        (None, Ok(b)) => Some(&b.out),
        (None, Err(_)) => None,
    };
    let check = |t: Result<Timed<T>, String>, label: &str| -> Result<(f64, f64), String> {
        let t = t?;
        if !t.profile.is_empty() {
            println!("profile {n}^3 {name} {label}: {}", t.profile);
        }
        let r = reference.ok_or("no reference (the one-card cuFFT run failed)")?;

        Ok((t.ms, rel_l2(&t.out, r)))
    };
    let base_row = base.as_ref().map_err(Clone::clone).map(|b| {
        if !b.profile.is_empty() {
            println!("profile {n}^3 {name} cuFFT: {}", b.profile);
        }
        (b.ms, reference.map_or(f64::NAN, |r| rel_l2(&b.out, r)))
    });
    push("cuFFT 3-D", 1, "-".into(), base_row, what);
    for decomp in decomps {
        for &k in counts {
            let devices: Vec<usize> = (0..k).collect();
            let (prog, grid) = match decomp.as_str() {
                "pencils" => {
                    let (p1, p2) = distribute::pencil_grid(k);
                    (
                        distribute::pencils(&problem, &devices),
                        format!("{p1}x{p2}"),
                    )
                }
                _ => (distribute::slabs(&problem, &devices), format!("{k}")),
            };
            let r = prog.map_err(|e| format!("{e:?}")).and_then(|p| {
                check(
                    time(&p, &map_of(k), &x, out_len, real, reps),
                    &format!("{decomp} {k}"),
                )
            });
            push(decomp, k, grid, r, what);
        }
    }
    eprintln!("{n}^3 {name}: {:.1} s", t0.elapsed().as_secs_f64());
}

fn line(r: &Row, one: Option<f64>, cufft: Option<f64>) -> String {
    let ms = r.ms.map_or("failed".into(), |m| format!("{m:.3}"));
    let ratio = |b: Option<f64>| match (b, r.ms) {
        (Some(b), Some(m)) => format!("{:.2}", b / m),
        _ => "-".into(),
    };
    format!(
        "| {}³ | {} | {} | {} | {} | {ms} | {} | {} | {} | {} |{}",
        r.n,
        r.problem,
        r.decomp,
        r.cards,
        r.grid,
        ratio(one),
        ratio(cufft),
        r.err.map_or("-".into(), |e| format!("{e:.1e}")),
        r.reference,
        if r.note.is_empty() {
            String::new()
        } else {
            format!(" {}", r.note.replace('|', "/"))
        }
    )
}

#[test]
#[ignore]
fn distributed_3d_strong_scaling() {
    let on_cpu = std::env::var("DIST_ON_CPU").as_deref() == Ok("1");
    let partitions = std::env::var("DIST_PARTITIONS").as_deref() == Ok("1");
    let cards = if on_cpu { Vec::new() } else { cuda::devices() };
    if cards.is_empty() && !on_cpu {
        eprintln!("no GPU ({:?}): nothing to time", cuda::why_no_gpu());
        assert!(std::env::var("FFTX_REQUIRE_GPU").as_deref() != Ok("1"));
        return;
    }
    let mut counts: Vec<usize> = env_list("DIST_CARDS", "1 2 4")
        .iter()
        .filter_map(|c| c.parse().ok())
        .filter(|&c| c >= 1 && (on_cpu || partitions || c <= cards.len()))
        .collect();
    counts.dedup();
    let decomps = env_list("DIST_DECOMPS", "slabs pencils");
    let (reps, cpu_max, f64_max) = (
        env_usize("DIST_REPS", 5),
        env_usize("DIST_CPU_MAX", 256),
        env_usize("DIST_F64_MAX", 512),
    );
    let cards_text: Vec<String> = cards
        .iter()
        .map(|c| format!("{} {}", c.ordinal, c.name))
        .collect();
    let mut all = Vec::new();
    for n in env_list("DIST_SIZES", "256 512 1024") {
        let Ok(n) = n.parse::<usize>() else { continue };
        for prec in env_list("DIST_PRECISIONS", "f32 f64") {
            for kind in env_list("DIST_KINDS", "c2c r2c") {
                if prec == "f64" {
                    if n <= f64_max {
                        rows::<f64>(
                            n, &kind, &cards, &counts, &decomps, on_cpu, reps, cpu_max, &mut all,
                        );
                    }
                } else {
                    rows::<f32>(
                        n, &kind, &cards, &counts, &decomps, on_cpu, reps, cpu_max, &mut all,
                    );
                }
            }
        }
    }
    let mut table = String::new();
    let _ = writeln!(
        table,
        "Cards: {}; {}, median of {reps} runs. Timed: {}\n",
        if on_cpu {
            "none".into()
        } else {
            cards_text.join(", ")
        },
        if on_cpu {
            "CPU executor dry run (virtual devices, one thread), host to host"
        } else {
            "device-resident"
        },
        if on_cpu {
            "the whole program, host arrays in and out."
        } else {
            "CudaProgram::run_resident (every step but the copies from and to the host arrays: \
             the first FFTs in place on the distributed input, the exchanges, the last FFTs; the \
             result left distributed in the last phase's layout); cuFFT 3-D: its one Fft step, \
             the data on card 0."
        }
    );
    table.push_str("| N³ | problem | decomposition | cards | grid | ms | speed-up over 1 card | over cuFFT 1 card | rel. L2 err | reference |\n");
    table.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
    let mut csv = String::from("n,problem,decomposition,cards,grid,ms,rel_l2_err,reference\n");
    for r in &all {
        let same = |d: &str, k: usize| {
            all.iter()
                .find(|o| o.n == r.n && o.problem == r.problem && o.decomp == d && o.cards == k)
                .and_then(|o| o.ms)
        };
        let _ = writeln!(
            table,
            "{}",
            line(r, same(&r.decomp, 1), same("cuFFT 3-D", 1))
        );
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{}",
            r.n,
            r.problem,
            r.decomp,
            r.cards,
            r.grid,
            r.ms.map_or(String::new(), |m| format!("{m:.4}")),
            r.err.map_or(String::new(), |e| format!("{e:.3e}")),
            r.reference
        );
    }
    // Strong scaling: ms per card count, one line per problem and decomposition.
    let _ = writeln!(
        table,
        "\nStrong scaling (ms; in brackets the speed-up over the same decomposition on 1 card)\n"
    );
    let head: Vec<String> = counts.iter().map(|k| format!("{k} card(s)")).collect();
    let _ = writeln!(
        table,
        "| N³ | problem | decomposition | cuFFT 1 card | {} |",
        head.join(" | ")
    );
    let _ = writeln!(table, "|---|---|---|---|{}", "---|".repeat(counts.len()));
    let mut seen = Vec::new();
    for r in all.iter().filter(|r| r.decomp != "cuFFT 3-D") {
        let key = (r.n, r.problem.clone(), r.decomp.clone());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let get = |d: &str, k: usize| {
            all.iter()
                .find(|o| o.n == r.n && o.problem == r.problem && o.decomp == d && o.cards == k)
                .and_then(|o| o.ms)
        };
        let one = get(&r.decomp, 1);
        let cells: Vec<String> = counts
            .iter()
            .map(|&k| match (get(&r.decomp, k), one) {
                (Some(m), Some(o)) => format!("{m:.3} ({:.2}x)", o / m),
                (Some(m), None) => format!("{m:.3}"),
                _ => "-".into(),
            })
            .collect();
        let _ = writeln!(
            table,
            "| {}³ | {} | {} | {} | {} |",
            r.n,
            r.problem,
            r.decomp,
            get("cuFFT 3-D", 1).map_or("-".into(), |m| format!("{m:.3}")),
            cells.join(" | ")
        );
    }
    println!("\n{table}");
    let dir = std::env::var("OUT").ok();
    let path = |var: &str, file: &str| {
        std::env::var(var)
            .ok()
            .or_else(|| dir.as_ref().map(|o| format!("{o}/{file}")))
    };
    if let Some(p) = path("DIST_OUT", "dist.md") {
        std::fs::write(&p, &table).unwrap_or_else(|e| panic!("writing {p}: {e}"));
    }
    if let Some(p) = path("DIST_CSV", "dist.csv") {
        std::fs::write(&p, &csv).unwrap_or_else(|e| panic!("writing {p}: {e}"));
    }
    assert!(
        all.iter().all(|r| r.ms.is_some()),
        "some programs failed (see the table)"
    );
}
