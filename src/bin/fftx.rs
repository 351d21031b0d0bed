//! `fftx`: the command-line tool installed beside the library.
//!
//! - `fftx info`: what fftx finds here (CPU, GPUs, CUDA libraries, MPI) and where it would run
//!   typical problems, with the planner's reasons;
//! - `fftx bench PROBLEM...`: fftx against the system's FFTW 3.3.10 and cuFFTW, in FFTW's
//!   problem syntax, with a table and an SVG plot;
//! - `fftx wisdom`: FFTW's `fftw-wisdom` over fftx (also installed as `fftw-wisdom`, and run
//!   as such when called by that name).
#![warn(clippy::too_many_lines)] // over 100 lines of code only with a stated reason (clippy.toml)

#[path = "fftx/bench.rs"]
mod bench;
#[path = "fftx/info.rs"]
mod info;
#[path = "fftx/libs.rs"]
mod libs;
#[path = "fftx/plot.rs"]
mod plot;
#[path = "fftx/problem.rs"]
mod problem;
#[path = "fftx/progress.rs"]
mod progress;
#[path = "fftx/run.rs"]
mod run;
#[path = "fftx/wisdom.rs"]
mod wisdom;

const USAGE: &str = "\
usage: fftx COMMAND [ARGS...]

commands:
  info [PROBLEM...]     library version, CPU, GPUs and CUDA libraries, MPI, and the backend the
                        planner picks for typical problems (or those given), with its reasons
  bench PROBLEM...      fftx against the system's FFTW 3.3.10 (and cuFFTW when present): times,
                        speed-ups, errors; --svg FILE plots them
  wisdom [OPTIONS] [PROBLEM...]
                        FFTW's fftw-wisdom over fftx: plans the problems (-c: FFTW's canonical
                        set) and writes wisdom (also installed as fftw-wisdom)
  help [COMMAND]        this text, or a command's
  version               fftx's version

PROBLEM is in FFTW's bench syntax: cf1024, ib256x256, rf256x256x256, if4096*4096, ok64e10, ...
(fftx bench --help tells more). Docs: docs/ in the source tree; FFTX_LOG=info shows the
library's planning decisions.";

/// Whitespace-separated words from standard input (a problem list given as `-`).
pub fn read_stdin_words() -> Result<Vec<String>, String> {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
        .map_err(|e| format!("reading standard input: {e}"))?;
    Ok(text.split_whitespace().map(String::from).collect())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let invoked = std::path::Path::new(args.first().map(String::as_str).unwrap_or("fftx"))
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "fftx".into());
    // Called as fftw-wisdom (the installed symbolic link): FFTW's tool, FFTW's options.
    if invoked.starts_with("fftw-wisdom") || invoked.starts_with("fftwf-wisdom") {
        std::process::exit(wisdom::run(&invoked, &args[1..]));
    }
    let rest = if args.len() > 2 { &args[2..] } else { &[] };
    let code = match args.get(1).map(String::as_str) {
        Some("info") => info::run(rest),
        Some("bench") => bench::run(rest),
        Some("wisdom") => wisdom::run("fftx wisdom", rest),
        Some("version" | "--version" | "-V") => {
            println!("fftx {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("help" | "--help" | "-h") => match rest.first().map(String::as_str) {
            Some("info") => info::run(&["--help".into()]),
            Some("bench") => bench::run(&["--help".into()]),
            Some("wisdom") => wisdom::run("fftx wisdom", &["--help".into()]),
            _ => {
                println!("{USAGE}");
                0
            }
        },
        None => {
            eprintln!("{USAGE}");
            1
        }
        Some(other) => {
            eprintln!("fftx: unknown command {other}\n\n{USAGE}");
            1
        }
    };
    std::process::exit(code);
}
