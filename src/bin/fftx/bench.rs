//! `fftx bench PROBLEM...`: times fftx (through its own FFTW API) against the system's FFTW
//! 3.3.10 and, when present, cuFFTW, on problems in FFTW's syntax; checks every result against
//! FFTW's; prints a table and optionally writes an SVG plot.

use crate::libs::{self, Api, Precision, P};
use crate::problem::{self, Kind, Problem};
use crate::progress::Progress;
use crate::run::{input_flags, rel_l2, Arrays, Layout, Rng};
use std::os::raw::c_uint;
use std::time::{Duration, Instant};

pub const USAGE: &str = "\
usage: fftx bench [options] PROBLEM...

Times fftx against the system's FFTW 3.3.10 (and NVIDIA's cuFFTW when it is installed), each
through its FFTW API, and checks every result against FFTW's (relative L2 error).

PROBLEM is in the syntax of FFTW's bench and fftw-wisdom, e.g.
  cf1024          complex, forward, out of place, 1024 points
  ib256x256       complex, backward, in place, 256 x 256
  rf256x256x256   real to complex (r2c), 256^3;  rb...: complex to real (c2r)
  if4096*4096     4096 in-place transforms of 4096 points, one after the other
  cf64v16         16 transforms of 64 points, interleaved (the vector innermost)
  ok64e10         r2r, out of place, 64 points of REDFT10 (DCT-II); kinds f b h e00..e11 o00..o11
  c1024:2:2       explicit strides (input:output, in elements); k and m suffixes: c4k, c1m
  '-' reads problems from standard input.

options:
  -e, --estimate       plan with FFTW_ESTIMATE (the default)
  -m, --measure        plan with FFTW_MEASURE
  -p, --patient        plan with FFTW_PATIENT
  -x, --exhaustive     plan with FFTW_EXHAUSTIVE
  -T, --threads N      plan with N threads (fftw_plan_with_nthreads; default 1)
  -f, --single         single precision (fftwf_); the default is double (fftw_)
  -t, --time SECONDS   time spent executing each problem on each library (default 0.5);
                       the median of repeated executes is reported
      --svg FILE       write an SVG plot of the times and speed-ups
      --fftw FILE      the FFTW library to compare with (default: the system's libfftw3.so.3)
      --cufftw FILE    the cuFFTW library (default: /usr/local/cuda/lib64/libcufftw.so*)
      --no-cufftw      leave cuFFTW out
  -q, --quiet          no progress on stderr

Times are per execute; \"vs FFTW\" is FFTW's time over fftx's (above 1: fftx is faster); \"ran on\"
is where fftx's plan runs (its fftw_print_plan). The exit status is 2 if a result differs from
FFTW's by more than the precision allows.";

/// What `fftx bench` was asked.
pub struct Options {
    pub problems: Vec<String>,
    pub flags: c_uint,
    pub threads: i32,
    pub precision: Precision,
    pub time: f64,
    pub svg: Option<String>,
    pub fftw: Option<String>,
    pub cufftw: Option<String>,
    pub no_cufftw: bool,
    pub quiet: bool,
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        problems: Vec::new(),
        flags: fftx::FFTW_ESTIMATE,
        threads: 1,
        precision: Precision::F64,
        time: 0.5,
        svg: None,
        fftw: None,
        cufftw: None,
        no_cufftw: false,
        quiet: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| -> Result<String, String> {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "-e" | "--estimate" => o.flags = fftx::FFTW_ESTIMATE,
            "-m" | "--measure" => o.flags = fftx::FFTW_MEASURE,
            "-p" | "--patient" => o.flags = fftx::FFTW_PATIENT,
            "-x" | "--exhaustive" => o.flags = fftx::FFTW_EXHAUSTIVE,
            "-f" | "--single" => o.precision = Precision::F32,
            "--double" => o.precision = Precision::F64,
            "-q" | "--quiet" => o.quiet = true,
            "--no-cufftw" => o.no_cufftw = true,
            "-T" | "--threads" => {
                let v = value(a)?;
                o.threads = v
                    .parse()
                    .ok()
                    .filter(|&n: &i32| n >= 1)
                    .ok_or_else(|| format!("--threads {v}: a positive integer is expected"))?;
            }
            "-t" | "--time" => {
                let v = value(a)?;
                o.time = v
                    .parse()
                    .ok()
                    .filter(|t: &f64| *t >= 0.0 && t.is_finite())
                    .ok_or_else(|| format!("--time {v}: seconds (>= 0) are expected"))?;
            }
            "--svg" => o.svg = Some(value(a)?),
            "--fftw" => o.fftw = Some(value(a)?),
            "--cufftw" => o.cufftw = Some(value(a)?),
            "-" => o.problems.extend(crate::read_stdin_words()?),
            s if s.starts_with("--svg=") => o.svg = Some(s[6..].to_string()),
            s if s.starts_with('-') && s.len() > 1 && !looks_like_problem(s) => {
                return Err(format!("unknown option {s}"))
            }
            s => o.problems.push(s.to_string()),
        }
    }
    if o.problems.is_empty() {
        return Err("no problem given (e.g. fftx bench cf1024 rf256x256)".into());
    }
    Ok(o)
}

/// FFTW's syntax allows a leading `-` (forward): `-16` is a problem, not an option.
fn looks_like_problem(s: &str) -> bool {
    s[1..].starts_with(|c: char| c.is_ascii_digit())
}

/// One library's result on one problem.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Median seconds per execute.
    pub seconds: f64,
    /// Seconds spent planning.
    pub plan_seconds: f64,
    /// Relative L2 distance from FFTW's result (None for FFTW itself or without FFTW).
    pub error: Option<f64>,
    /// Where the plan runs, from fftw_sprint_plan (fftx only).
    pub ran_on: Option<String>,
}

/// One problem's results, one entry per library in `Report::libraries` order.
pub struct Row {
    pub problem: String,
    pub results: Vec<Result<Timing, String>>,
    /// Largest error the precision allows here.
    pub tolerance: f64,
}

pub struct Report {
    pub libraries: Vec<String>,
    pub rows: Vec<Row>,
    pub title: String,
}

/// The error a correct result stays under: a few dozen roundings per log2 of the size.
fn tolerance(p: &Problem, prec: Precision) -> f64 {
    let eps = match prec {
        Precision::F64 => f64::EPSILON,
        Precision::F32 => f32::EPSILON as f64,
    };
    let n = p.transform_points().max(2) as f64;
    64.0 * eps * n.log2().max(1.0)
}

/// Where fftx's plan runs, from its `fftw_print_plan` text: `cpu x4`, `gpu`, or both.
pub fn ran_on(printed: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for (i, _) in printed.match_indices('(') {
        let rest = &printed[i + 1..];
        for b in ["cpu", "gpu"] {
            if let Some(t) = rest
                .strip_prefix(b)
                .and_then(|r| r.strip_prefix(" threads="))
            {
                let n: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
                let what = if b == "cpu" {
                    format!("cpu x{n}")
                } else {
                    "gpu".to_string()
                };
                if !out.contains(&what) {
                    out.push(what);
                }
            }
        }
    }
    if out.is_empty() {
        "cpu".into()
    } else {
        out.join("+")
    }
}

/// Times `execute` for about `budget`: batches of executes long enough for the clock, the
/// median of their per-execute times.
fn time_it(execute: &mut dyn FnMut(), first: Duration, budget: f64) -> (f64, usize) {
    let per = first.as_secs_f64().max(1e-8);
    let batch = ((2e-4 / per).ceil() as usize).clamp(1, 1 << 20);
    let mut samples = Vec::new();
    let start = Instant::now();
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            execute();
        }
        samples.push(t.elapsed().as_secs_f64() / batch as f64);
        let spent = start.elapsed().as_secs_f64();
        if (samples.len() >= 3 && spent >= budget) || spent >= 10.0 * budget.max(0.05) {
            break;
        }
        if samples.len() >= 10_000 {
            break;
        }
    }
    samples.sort_by(f64::total_cmp);
    (samples[samples.len() / 2], samples.len() * batch)
}

/// The input every library gets (the whole input buffer, in reals): random values, and for a
/// c2r problem the r2c of random reals, so that the input is a real signal's spectrum.
fn make_input(p: &Problem, layout: &Layout, prec: Precision, reference: &Api) -> Vec<f64> {
    let mut rng = Rng::new(p.text.len() as u64 * 7919 + 17);
    if p.kind == Kind::Real && p.sign > 0 {
        let Ok(mut a) = Arrays::new(reference, prec, layout.clone()) else {
            return vec![0.0; layout.in_reals];
        };
        let reals: Vec<f64> = (0..layout.out_reals.max(layout.in_reals))
            .map(|_| rng.next())
            .collect();
        // The real side: the output buffer (or the one buffer, in place).
        a.write(layout.out_reals == 0, &reals);
        let plan = a.plan_hermitian_maker(p);
        if !plan.is_null() {
            // SAFETY: a plan of this library over `a`, destroyed after one execute.
            unsafe {
                (reference.execute)(plan);
                (reference.destroy)(plan);
            }
        }
        return a.read(true);
    }
    (0..layout.in_reals).map(|_| rng.next()).collect()
}

/// Plans, checks and times one problem on one library. Returns the timing and the output
/// elements in logical order.
fn run_one(
    api: &Api,
    p: &Problem,
    layout: &Layout,
    input: &[f64],
    o: &Options,
    progress: &mut Progress,
) -> Result<(Timing, Vec<f64>), String> {
    progress.show(&format!("{}: {} planning", p.text, api.name));
    let mut a = Arrays::new(api, o.precision, layout.clone())?;
    let t = Instant::now();
    let plan: P = a.plan(p, o.flags | input_flags(p));
    let plan_seconds = t.elapsed().as_secs_f64();
    if plan.is_null() {
        return Err(format!("{} returned no plan", api.name));
    }
    struct Guard<'a>(&'a Api, P);
    impl Drop for Guard<'_> {
        fn drop(&mut self) {
            // SAFETY: a plan of this library, destroyed once.
            unsafe { (self.0.destroy)(self.1) }
        }
    }
    let _guard = Guard(api, plan);
    let ran = (api.name == "fftx").then(|| ran_on(&libs::sprint(api, plan).unwrap_or_default()));
    // FFTW may write the arrays while planning: the input goes in after.
    a.write(true, input);
    progress.show(&format!("{}: {} checking", p.text, api.name));
    let t = Instant::now();
    // SAFETY: a live plan over live arrays.
    unsafe { (api.execute)(plan) };
    let first = t.elapsed();
    let buf = a.read(layout.out_reals == 0);
    let out: Vec<f64> = layout.indices(p, false).iter().map(|&i| buf[i]).collect();
    progress.show(&format!("{}: {} timing", p.text, api.name));
    let mut exec = || unsafe { (api.execute)(plan) };
    let (seconds, _executes) = time_it(&mut exec, first, o.time);
    Ok((
        Timing {
            seconds,
            plan_seconds,
            error: None,
            ran_on: ran,
        },
        out,
    ))
}

/// Runs `fftx bench`; returns the exit status.
pub fn run(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return 0;
    }
    let o = match parse_args(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fftx bench: {e}\n\n{USAGE}");
            return 1;
        }
    };
    match bench(&o) {
        Ok(status) => status,
        Err(e) => {
            eprintln!("fftx bench: {e}");
            1
        }
    }
}

/// Times the problems on each library, prints the table and writes the plot; returns the
/// exit status (2 when fftx's result differs from FFTW's).
fn bench(o: &Options) -> Result<i32, String> {
    let problems = problems(o)?;
    let (apis, fftw_at) = libraries(o)?;
    set_threads(&apis, o.threads);
    let title = title(o);
    if !o.quiet {
        for a in &apis {
            eprintln!("{:7} {} ({})", a.name, a.version, a.path);
        }
        eprintln!("{title}");
    }
    let mut progress = Progress::new(problems.len() * apis.len(), o.quiet);
    let rows: Vec<Row> = problems
        .iter()
        .map(|p| bench_problem(p, &apis, fftw_at, o, &mut progress))
        .collect();
    progress.clear();
    let failed = rows.iter().any(mismatch);
    let report = Report {
        libraries: apis.iter().map(|a| a.name.to_string()).collect(),
        rows,
        title,
    };
    print!("{}", table(&report));
    for a in &apis {
        if let Some(c) = a.cleanup {
            // SAFETY: every plan of the library is destroyed.
            unsafe { c() };
        }
    }
    if let Some(path) = &o.svg {
        crate::plot::svg(&report, path).map_err(|e| format!("writing {path}: {e}"))?;
        if !o.quiet {
            eprintln!("wrote {path}");
        }
    }
    if failed {
        eprintln!("fftx bench: fftx's result differs from FFTW's beyond rounding (MISMATCH above)");
        return Ok(2);
    }
    Ok(0)
}

/// The problems given, parsed; split and MPI problems are refused.
fn problems(o: &Options) -> Result<Vec<Problem>, String> {
    let mut problems = Vec::new();
    for s in &o.problems {
        let p = problem::parse(s).map_err(|e| e.to_string())?;
        if p.split {
            return Err(format!("{s}: split arrays ('/') are not supported here"));
        }
        if p.scrambled {
            return Err(format!("{s}: MPI problems ('[', ']') are not supported"));
        }
        problems.push(p);
    }
    Ok(problems)
}

/// The libraries to time: fftx, FFTW when found (its index comes too) and cuFFTW when found
/// and not left out.
fn libraries(o: &Options) -> Result<(Vec<Api>, Option<usize>), String> {
    let prec = o.precision;
    let mut apis: Vec<Api> = vec![libs::fftx(prec)];
    let fftw_at = match libs::fftw(prec, o.fftw.as_deref()) {
        Ok(a) => {
            apis.push(a);
            Some(1)
        }
        Err(e) => {
            eprintln!("fftx bench: {e}; timing fftx alone, results unchecked");
            None
        }
    };
    if !o.no_cufftw {
        match libs::cufftw(prec, o.cufftw.as_deref()) {
            Ok(a) => apis.push(a),
            Err(e) if o.cufftw.is_some() => return Err(format!("cuFFTW: {e}")),
            Err(_) => {}
        }
    }
    Ok((apis, fftw_at))
}

/// Has each library plan with `threads` threads (where it has FFTW's threads interface).
fn set_threads(apis: &[Api], threads: i32) {
    for a in apis {
        // SAFETY: FFTW's threads set-up, before any plan of the library.
        unsafe {
            match (a.init_threads, a.plan_with_nthreads) {
                (Some(init), Some(with)) if init() != 0 => with(threads),
                (Some(_), Some(_)) => {}
                _ if threads > 1 => {
                    eprintln!("fftx bench: {} has no threads interface: 1 thread", a.name)
                }
                _ => {}
            }
        }
    }
}

/// The run's title: precision, planner rigor, threads and the CPU.
fn title(o: &Options) -> String {
    let rigor = match o.flags {
        fftx::FFTW_MEASURE => "FFTW_MEASURE",
        fftx::FFTW_PATIENT => "FFTW_PATIENT",
        fftx::FFTW_EXHAUSTIVE => "FFTW_EXHAUSTIVE",
        _ => "FFTW_ESTIMATE",
    };
    format!(
        "{} precision, {rigor}, {} thread(s), {}",
        o.precision.name(),
        o.threads,
        crate::info::cpu_model()
    )
}

/// Runs one problem on each library (the library at `fftw_at` first: its output is the
/// reference the others are checked against).
fn bench_problem(
    p: &Problem,
    apis: &[Api],
    fftw_at: Option<usize>,
    o: &Options,
    progress: &mut Progress,
) -> Row {
    let layout = Layout::of(p);
    let reference = fftw_at.map_or(&apis[0], |i| &apis[i]);
    let input = make_input(p, &layout, o.precision, reference);
    // FFTW first: its output is the reference.
    let mut order: Vec<usize> = (0..apis.len()).collect();
    if let Some(i) = fftw_at {
        order.retain(|&j| j != i);
        order.insert(0, i);
    }
    let mut results: Vec<Result<Timing, String>> =
        (0..apis.len()).map(|_| Err("not run".into())).collect();
    let mut reference_out: Option<Vec<f64>> = None;
    for &j in &order {
        let api = &apis[j];
        let r = match run_one(api, p, &layout, &input, o, progress) {
            Ok((mut t, out)) => {
                if Some(j) == fftw_at {
                    reference_out = Some(out);
                } else if let Some(r) = &reference_out {
                    t.error = Some(rel_l2(&out, r));
                }
                Ok(t)
            }
            Err(e) => Err(e),
        };
        progress.advance();
        results[j] = r;
    }
    Row {
        problem: p.text.clone(),
        results,
        tolerance: tolerance(p, o.precision),
    }
}

/// Whether fftx's result differs from the reference by more than the row's tolerance.
fn mismatch(row: &Row) -> bool {
    match &row.results[0] {
        Ok(Timing { error: Some(e), .. }) => e.is_nan() || *e > row.tolerance,
        _ => false,
    }
}

/// A time in the unit that suits it.
pub fn human(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.3} s")
    } else if seconds >= 1e-3 {
        format!("{:.3} ms", seconds * 1e3)
    } else {
        format!("{:.3} us", seconds * 1e6)
    }
}

/// The results as a text table.
pub fn table(r: &Report) -> String {
    let mut head: Vec<String> = vec!["problem".into()];
    head.extend(r.libraries.iter().cloned());
    let others: Vec<usize> = (1..r.libraries.len()).collect();
    for &j in &others {
        head.push(format!("vs {}", r.libraries[j]));
    }
    head.push("error fftx".into());
    if r.libraries.len() > 2 {
        for j in 2..r.libraries.len() {
            head.push(format!("error {}", r.libraries[j]));
        }
    }
    head.push("fftx ran on".into());
    head.push("plan fftx".into());
    let mut lines = vec![head];
    for row in &r.rows {
        let mut l = vec![row.problem.clone()];
        for res in &row.results {
            l.push(match res {
                Ok(t) => human(t.seconds),
                Err(_) => "-".into(),
            });
        }
        let ours = row.results[0].as_ref().ok();
        for &j in &others {
            l.push(match (ours, &row.results[j]) {
                (Some(a), Ok(b)) => format!("{:.2}x", b.seconds / a.seconds),
                _ => "-".into(),
            });
        }
        let err = |res: &Result<Timing, String>| match res {
            Ok(Timing { error: Some(e), .. }) => {
                if *e <= row.tolerance {
                    format!("{e:.1e}")
                } else {
                    format!("{e:.1e} MISMATCH")
                }
            }
            Ok(_) => "-".into(),
            Err(e) => format!("({e})"),
        };
        l.push(err(&row.results[0]));
        for j in 2..r.libraries.len() {
            l.push(err(&row.results[j]));
        }
        l.push(
            ours.and_then(|t| t.ran_on.clone())
                .unwrap_or_else(|| "-".into()),
        );
        l.push(ours.map_or("-".into(), |t| human(t.plan_seconds)));
        lines.push(l);
    }
    let cols = lines[0].len();
    let width: Vec<usize> = (0..cols)
        .map(|c| lines.iter().map(|l| l[c].len()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        let cells: Vec<String> = l
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c == 0 {
                    format!("{s:<w$}", w = width[c])
                } else {
                    format!("{s:>w$}", w = width[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if i == 0 {
            out.push_str(&"-".repeat(width.iter().sum::<usize>() + 2 * (cols - 1)));
            out.push('\n');
        }
    }
    out.push_str(&format!("({})\n", r.title));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ran_on_reads_print_plan() {
        assert_eq!(
            ran_on("(fftx-program\n  (cpu threads=4 (dft ...)))"),
            "cpu x4"
        );
        assert_eq!(ran_on("(fftx-program\n  (gpu threads=1 (dft ...)))"), "gpu");
        assert_eq!(ran_on(""), "cpu");
    }

    #[test]
    fn options() {
        let a = |v: &[&str]| parse_args(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let o = a(&["-m", "-T", "2", "cf16", "-16", "--svg", "x.svg"]).unwrap();
        assert_eq!(o.flags, fftx::FFTW_MEASURE);
        assert_eq!(o.threads, 2);
        assert_eq!(o.problems, vec!["cf16", "-16"]);
        assert_eq!(o.svg.as_deref(), Some("x.svg"));
        assert!(a(&["--bogus", "cf16"]).is_err());
        assert!(a(&[]).is_err());
        assert!(a(&["-T", "0", "cf16"]).is_err());
        assert_eq!(a(&["-f", "cf16"]).unwrap().precision, Precision::F32);
    }

    #[test]
    fn timing_takes_the_median() {
        let mut n = 0;
        let (t, count) = time_it(&mut || n += 1, Duration::from_micros(1), 0.0);
        assert!(t >= 0.0);
        assert!(count >= 3);
    }
}
