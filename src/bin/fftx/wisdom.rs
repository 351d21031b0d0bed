//! `fftx wisdom` (also installed as `fftw-wisdom`): FFTW 3.3.10's `fftw-wisdom` tool over
//! fftx. It plans each problem (FFTW's canonical set with `-c`, and those given) and writes the
//! accumulated wisdom, which records fftx's choices (CPU or GPU, threads) and starts with FFTW's
//! own empty wisdom, so FFTW reads the file too.

use crate::libs::{self, Api, Precision};
use crate::problem::{self, Problem};
use crate::progress::Progress;
use crate::run::{input_flags, Arrays, Layout};
use std::ffi::{CStr, CString};
use std::os::raw::{c_int, c_uint};
use std::time::Instant;

pub fn usage(name: &str) -> String {
    format!(
        "\
Usage: {name} [options] [sizes]
    Create wisdom (pre-planned/optimized transforms) for specified sizes,
    writing wisdom to stdout (or to a file, using -o).

Options:
                   -h, --help: print this help
                -V, --version: print version/copyright info
                -v, --verbose: verbose output (on stderr)
              -c, --canonical: plan/optimize canonical set of sizes
     -t <h>, --time-limit=<h>: time limit in hours (default: 0, no limit)
  -o FILE, --output-file=FILE: output to FILE instead of stdout
                -m, --measure: plan in MEASURE mode (PATIENT is default)
                -p, --patient: plan in PATIENT mode (the default)
               -e, --estimate: plan in ESTIMATE mode (not recommended)
             -x, --exhaustive: plan in EXHAUSTIVE mode (may be slow)
       -n, --no-system-wisdom: don't read the system wisdom file
                               (/etc/fftw/wisdom, or FFTX_SYSTEM_WISDOM_DIR)
  -w FILE, --wisdom-file=FILE: read wisdom from FILE (stdin if -)
            -T N, --threads=N: plan with N threads
             -f, --single: single precision (fftwf_; as fftwf-wisdom)

Size syntax: <type><inplace><direction><geometry>
      <type> = c/r/k for complex/real(r2c,c2r)/r2r
   <inplace> = i/o for in/out-of place
 <direction> = f/b for forward/backward, omitted for k transforms
  <geometry> = <n1>[x<n2>[x...]], e.g. 10x12x14
               -- for k transforms, after each dimension is a <kind>:
                     <kind> = f/b/h/e00/e01/e10/e11/o00/o01/o10/o11
                              for R2HC/HC2R/DHT/REDFT00/.../RODFT11
  (and the rest of FFTW's bench syntax: vectors *V and vV, strides n:is:os)"
    )
}

struct Options {
    verbose: bool,
    canonical: bool,
    hours: f64,
    output: Option<String>,
    flags: c_uint,
    system_wisdom: bool,
    wisdom_files: Vec<String>,
    threads: Option<i32>,
    precision: Precision,
    problems: Vec<String>,
}

/// Splits `--name=value` into its parts.
fn split_long(a: &str) -> (&str, Option<&str>) {
    match a.split_once('=') {
        Some((n, v)) if a.starts_with("--") => (n, Some(v)),
        _ => (a, None),
    }
}

fn parse_args(args: &[String], single: bool) -> Result<Result<Options, i32>, String> {
    let mut o = Options {
        verbose: false,
        canonical: false,
        hours: 0.0,
        output: None,
        flags: fftx::FFTW_PATIENT,
        system_wisdom: true,
        wisdom_files: Vec::new(),
        threads: None,
        precision: if single {
            Precision::F32
        } else {
            Precision::F64
        },
        problems: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = split_long(arg);
        let mut value = || -> Result<String, String> {
            match inline {
                Some(v) => Ok(v.to_string()),
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("option {name} requires an argument")),
            }
        };
        match name {
            "-h" | "--help" => return Ok(Err(0)),
            "-V" | "--version" => return Ok(Err(-1)),
            "-v" | "--verbose" => o.verbose = true,
            "-c" | "--canonical" => o.canonical = true,
            "-t" | "--time-limit" => {
                let v = value()?;
                o.hours = v
                    .parse()
                    .map_err(|_| format!("-t {v}: a number of hours is expected"))?;
            }
            "-o" | "--output-file" => {
                let v = value()?;
                o.output = (v != "-").then_some(v);
            }
            "-m" | "--measure" | "-i" | "--impatient" => o.flags = fftx::FFTW_MEASURE,
            "-p" | "--patient" => o.flags = fftx::FFTW_PATIENT,
            "-e" | "--estimate" => o.flags = fftx::FFTW_ESTIMATE,
            "-x" | "--exhaustive" => o.flags = fftx::FFTW_EXHAUSTIVE,
            "-n" | "--no-system-wisdom" => o.system_wisdom = false,
            "-w" | "--wisdom-file" => o.wisdom_files.push(value()?),
            "-T" | "--threads" => {
                let v = value()?;
                let n: i32 = v
                    .parse()
                    .map_err(|_| format!("-T {v}: a number of threads is expected"))?;
                o.threads = Some(n.max(1));
            }
            "-f" | "--single" => o.precision = Precision::F32,
            "-" => o.problems.extend(crate::read_stdin_words()?),
            s if s.starts_with('-') && !s[1..].starts_with(|c: char| c.is_ascii_digit()) => {
                return Err(format!("unknown option {s}"))
            }
            s => o.problems.push(s.to_string()),
        }
    }
    Ok(Ok(o))
}

/// The wisdom calls of one precision of fftx.
struct Wisdom {
    import_system: extern "C" fn() -> c_int,
    import_file: unsafe extern "C" fn(*const std::os::raw::c_char) -> c_int,
    import_string: unsafe extern "C" fn(*const std::os::raw::c_char) -> c_int,
    export_string: extern "C" fn() -> *mut std::os::raw::c_char,
    set_timelimit: extern "C" fn(f64),
    init_threads: extern "C" fn() -> c_int,
    plan_with_nthreads: extern "C" fn(c_int),
}

fn wisdom_api(p: Precision) -> Wisdom {
    match p {
        Precision::F64 => Wisdom {
            import_system: fftx::fftw_import_system_wisdom,
            import_file: fftx::fftw_import_wisdom_from_filename,
            import_string: fftx::fftw_import_wisdom_from_string,
            export_string: fftx::fftw_export_wisdom_to_string,
            set_timelimit: fftx::fftw_set_timelimit,
            init_threads: fftx::fftw_init_threads,
            plan_with_nthreads: fftx::fftw_plan_with_nthreads,
        },
        Precision::F32 => Wisdom {
            import_system: fftx::fftwf_import_system_wisdom,
            import_file: fftx::fftwf_import_wisdom_from_filename,
            import_string: fftx::fftwf_import_wisdom_from_string,
            export_string: fftx::fftwf_export_wisdom_to_string,
            set_timelimit: fftx::fftwf_set_timelimit,
            init_threads: fftx::fftwf_init_threads,
            plan_with_nthreads: fftx::fftwf_plan_with_nthreads,
        },
    }
}

/// Runs the tool; `name` is how it was invoked (fftw-wisdom, fftwf-wisdom, fftx wisdom).
pub fn run(name: &str, args: &[String]) -> i32 {
    let o = match options(name, args) {
        Ok(o) => o,
        Err(status) => return status,
    };
    match create_wisdom(name, &o) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{name}: {e}");
            1
        }
    }
}

/// The options given, or the exit status once the help, the version or an option's error
/// is printed.
fn options(name: &str, args: &[String]) -> Result<Options, i32> {
    let single = name.starts_with("fftwf");
    match parse_args(args, single) {
        Ok(Ok(o)) => Ok(o),
        Ok(Err(0)) => {
            println!("{}", usage(name));
            Err(0)
        }
        Ok(Err(_)) => {
            println!(
                "{name} tool for fftx {} (FFTW version 3.3.10's fftw-wisdom, over fftx).\n\n\
                 fftx is free software under the GNU General Public License, version 2 or later.",
                env!("CARGO_PKG_VERSION")
            );
            Err(0)
        }
        Err(e) => {
            eprintln!("{name}: {e}\n\n{}", usage(name));
            Err(1)
        }
    }
}

/// Reads the wisdom asked for, plans the problems and writes the accumulated wisdom out.
fn create_wisdom(name: &str, o: &Options) -> Result<(), String> {
    let w = wisdom_api(o.precision);
    if let Some(n) = o.threads {
        (w.init_threads)();
        (w.plan_with_nthreads)(n);
    }
    read_wisdom(name, o, &w)?;
    let problems = problems(o)?;
    // Check that the output can be written before spending hours planning.
    if let Some(f) = &o.output {
        std::fs::File::create(f).map_err(|e| format!("error creating \"{f}\": {e}"))?;
    }

    let api = libs::fftx(o.precision);
    let start = Instant::now();
    let (planned, exceeded) = plan_all(name, o, &w, &api, &problems, start);
    if exceeded && o.verbose {
        eprintln!("EXCEEDED TIME LIMIT OF {} HOURS.", o.hours);
    }
    write_wisdom(o, &w)?;
    if o.verbose {
        eprintln!(
            "{name}: {planned} of {} problem(s) planned in {:.1} s",
            problems.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Imports the system wisdom (unless -n) and each wisdom file given.
fn read_wisdom(name: &str, o: &Options, w: &Wisdom) -> Result<(), String> {
    if o.system_wisdom && (w.import_system)() == 0 && o.verbose {
        eprintln!("{name}: system-wisdom import failed");
    }
    for f in &o.wisdom_files {
        let ok = if f == "-" {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).is_ok()
                && CString::new(text)
                    .map(|c| unsafe { (w.import_string)(c.as_ptr()) } != 0)
                    .unwrap_or(false)
        } else {
            CString::new(f.as_str())
                .map(|c| unsafe { (w.import_file)(c.as_ptr()) } != 0)
                .unwrap_or(false)
        };
        if !ok {
            return Err(format!("error reading wisdom from \"{f}\""));
        }
    }
    Ok(())
}

/// The problems to plan (FFTW's canonical set first with -c, then those given), smallest
/// first.
fn problems(o: &Options) -> Result<Vec<Problem>, String> {
    let mut texts = if o.canonical {
        problem::canonical()
    } else {
        Vec::new()
    };
    texts.extend(o.problems.iter().cloned());
    let mut problems: Vec<Problem> = Vec::new();
    for t in &texts {
        let p = problem::parse(t).map_err(|e| e.to_string())?;
        if p.split || p.scrambled {
            return Err(format!("{t}: split and MPI problems are not supported"));
        }
        problems.push(p);
    }
    // Smallest first, as FFTW's tool does (stable for equal sizes).
    problems.sort_by_key(|p| p.transform_points().saturating_mul(p.howmany()));
    Ok(problems)
}

/// Plans the problems in turn while the time limit (counted from `start`) allows; returns
/// how many fftx planned and whether the limit stopped it.
fn plan_all(
    name: &str,
    o: &Options,
    w: &Wisdom,
    api: &Api,
    problems: &[Problem],
    start: Instant,
) -> (usize, bool) {
    let limit = (o.hours > 0.0).then_some(o.hours * 3600.0);
    let mut progress = Progress::new(problems.len(), o.verbose || !is_tty());
    let mut planned = 0;
    let mut exceeded = false;
    for p in problems {
        let elapsed = start.elapsed().as_secs_f64();
        if let Some(l) = limit {
            if elapsed >= l {
                exceeded = true;
                break;
            }
            // fftx's planner also keeps to what is left (FFTW's tool only checks between
            // problems).
            (w.set_timelimit)(l - elapsed);
        }
        if plan_one(name, o, api, p, &mut progress) {
            planned += 1;
        }
        progress.advance();
    }
    progress.clear();
    (planned, exceeded)
}

/// Plans one problem (fftx keeps its choice as wisdom) and destroys the plan; notes on
/// `progress` what went wrong; returns whether fftx made a plan.
fn plan_one(name: &str, o: &Options, api: &Api, p: &Problem, progress: &mut Progress) -> bool {
    progress.show(&format!("planning {}", p.text));
    if o.verbose {
        progress.note(&format!("Planning transform: {}", p.text));
    }
    let arrays = match Arrays::new(api, o.precision, Layout::of(p)) {
        Ok(a) => a,
        Err(e) => {
            progress.note(&format!("{name}: {}: {e}", p.text));
            return false;
        }
    };
    let t = Instant::now();
    let plan = arrays.plan(p, o.flags | input_flags(p));
    if plan.is_null() {
        progress.note(&format!("{name}: {}: fftx returned no plan", p.text));
        return false;
    }
    if o.verbose {
        let on = crate::bench::ran_on(&libs::sprint(api, plan).unwrap_or_default());
        progress.note(&format!(
            "  {} on {on}, planned in {:.3} s",
            p.text,
            t.elapsed().as_secs_f64()
        ));
    }
    // SAFETY: a plan of fftx, destroyed once.
    unsafe { (api.destroy)(plan) };
    true
}

/// Writes the accumulated wisdom to the output file, or to stdout.
fn write_wisdom(o: &Options, w: &Wisdom) -> Result<(), String> {
    let s = (w.export_string)();
    if s.is_null() {
        return Err("exporting wisdom failed".into());
    }
    // SAFETY: a NUL-terminated string from fftw_export_wisdom_to_string, freed with free().
    let text = unsafe {
        let t = CStr::from_ptr(s).to_string_lossy().into_owned();
        libc::free(s as *mut libc::c_void);
        t
    };
    let written = match &o.output {
        Some(f) => std::fs::write(f, &text),
        None => std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes()),
    };
    written.map_err(|e| format!("writing {}: {e}", o.output.as_deref().unwrap_or("stdout")))
}

fn is_tty() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stderr())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn fftw_wisdom_options() {
        let o = parse_args(
            &args(&[
                "-c", "-n", "-t", "0.5", "-o", "w.txt", "-m", "-T", "4", "cof16",
            ]),
            false,
        )
        .unwrap()
        .unwrap();
        assert!(o.canonical && !o.system_wisdom);
        assert_eq!(o.hours, 0.5);
        assert_eq!(o.output.as_deref(), Some("w.txt"));
        assert_eq!(o.flags, fftx::FFTW_MEASURE);
        assert_eq!(o.threads, Some(4));
        assert_eq!(o.problems, vec!["cof16"]);
        let o = parse_args(&args(&["--time-limit=2", "--output-file=-", "-x"]), true)
            .unwrap()
            .unwrap();
        assert_eq!(o.hours, 2.0);
        assert_eq!(o.output, None);
        assert_eq!(o.flags, fftx::FFTW_EXHAUSTIVE);
        assert_eq!(o.precision, Precision::F32);
        assert_eq!(
            parse_args(&args(&[]), false).unwrap().unwrap().flags,
            fftx::FFTW_PATIENT
        );
        assert!(matches!(parse_args(&args(&["-h"]), false), Ok(Err(0))));
        assert!(parse_args(&args(&["-q"]), false).is_err());
        assert!(parse_args(&args(&["-o"]), false).is_err());
    }
}
