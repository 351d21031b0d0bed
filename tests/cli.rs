//! The `fftx` command-line tool, run as a user runs it (the built binary): `info`, `bench`
//! (table, error column, SVG), `wisdom` (a file fftx and the system's FFTW 3.3.10 both
//! import) and its `fftw-wisdom` name. No GPU is needed: without one, `info` says why.

use std::ffi::{c_void, CString};
use std::os::raw::{c_char, c_int};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EXE: &str = env!("CARGO_BIN_EXE_fftx");

fn fftx(args: &[&str]) -> Output {
    Command::new(EXE)
        .args(args)
        .env_remove("FFTX_LOG")
        .output()
        .expect("running the fftx binary")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A fresh directory of this test's own under the target directory.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn help_and_unknown_commands() {
    let o = fftx(&["help"]);
    assert!(o.status.success());
    let (out, _) = text(&o);
    for c in ["info", "bench", "wisdom"] {
        assert!(out.contains(c), "help lacks {c}:\n{out}");
    }
    let o = fftx(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("unknown command"));
    let o = fftx(&["bench", "--help"]);
    assert!(o.status.success());
    assert!(text(&o).0.contains("rf256x256x256"));
    let o = fftx(&["version"]);
    assert_eq!(
        text(&o).0.trim(),
        format!("fftx {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn info_reports_the_machine_and_the_planners_choices() {
    let o = fftx(&["info"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "fftx info failed:\n{out}\n{err}");
    assert!(out.starts_with(&format!("fftx {}", env!("CARGO_PKG_VERSION"))));
    for section in ["\nCPU\n", "\nGPU\n", "\nMPI\n", "\nPlanner ("] {
        assert!(out.contains(section), "no {section:?} section:\n{out}");
    }
    assert!(out.contains("  model: ") && out.contains("  threads: "));
    // Without a GPU (CI) it says why; with one, it lists the devices.
    assert!(
        out.contains("no usable GPU: ") || out.contains("  device 0: "),
        "{out}"
    );
    assert!(out.contains("MPI library") || out.contains("  found: "));
    assert!(out.contains("  FFTW-MPI interface: fftw_mpi_*"), "{out}");
    // Each typical problem: where it runs, and the planner's own log line.
    for p in ["icf1024", "icf4096*4096", "irf512x512x512"] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(p))
            .unwrap_or_else(|| panic!("{p} not planned:\n{out}"));
        assert!(line.contains("-> cpu") || line.contains("-> gpu"), "{line}");
    }
    assert!(out.contains("estimate chose"), "no planner reasons:\n{out}");
    // Problems of one's own, out of place too (planned on real arrays).
    let o = fftx(&["info", "cf64", "ok16e10"]);
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(
        out.contains("  cf64 ") && out.contains("  ok16e10 "),
        "{out}"
    );
    assert!(!out.contains("icf1024"));
    assert_eq!(fftx(&["info", "c16q"]).status.code(), Some(1));
}

#[test]
fn info_never_starts_cuda_when_told_cpu() {
    let o = Command::new(EXE)
        .args(["info", "cf32"])
        .env("FFTX_BACKEND", "cpu")
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(out.contains("not probed: FFTX_BACKEND=cpu"), "{out}");
    assert!(out.contains("-> cpu"));
}

/// Checks that an SVG document's tags nest and close (a small XML well-formedness check:
/// elements, self-closing tags, text; no DTD or CDATA in what plotters writes).
fn assert_well_formed_svg(svg: &str) {
    assert!(svg.trim_start().starts_with("<svg"), "not an SVG document");
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    let mut roots = 0;
    while let Some(i) = rest.find('<') {
        let j = rest[i..].find('>').expect("unclosed tag") + i;
        let tag = &rest[i + 1..j];
        assert!(!tag.contains('<'), "'<' inside a tag: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().expect("closing tag without an open one");
            assert_eq!(open, name.trim(), "mismatched tags");
        } else if !tag.starts_with('?') && !tag.starts_with('!') {
            let name = tag.split_whitespace().next().unwrap_or("").to_string();
            if !tag.ends_with('/') {
                if stack.is_empty() {
                    roots += 1;
                }
                stack.push(name);
            }
            // Attribute quotes are balanced.
            assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes: {tag}");
        }
        rest = &rest[j + 1..];
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    assert_eq!(roots, 1, "one root element");
}

/// A cell of the bench table: the row of `problem`, the column headed `col` (cells are apart
/// by two spaces or more, and hold single spaces only).
fn cell(table: &str, problem: &str, col: &str) -> String {
    let split = |l: &str| -> Vec<String> {
        l.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect()
    };
    let head = split(table.lines().next().unwrap());
    let at = head
        .iter()
        .position(|h| h == col)
        .unwrap_or_else(|| panic!("no column {col}: {head:?}"));
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(problem))
        .unwrap_or_else(|| panic!("no row for {problem}:\n{table}"));
    split(row)[at].clone()
}

#[test]
fn bench_times_checks_and_plots() {
    let dir = scratch("bench");
    let svg = dir.join("bench.svg");
    let problems = [
        "cf64", "ib16x16", "rf8x8x8", "rb32", "irb6x10", "if64*4", "cf16v3", "ok16e10",
    ];
    let mut args = vec!["bench", "-t", "0.005", "--svg", svg.to_str().unwrap()];
    args.extend(problems);
    let o = fftx(&args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "fftx bench failed:\n{out}\n{err}");
    // Progress went to stderr while it ran (one line per step off a terminal).
    assert!(err.contains("[1/"), "no progress:\n{err}");
    let mut lines = out.lines();
    let head = lines.next().unwrap();
    for col in [
        "problem",
        "fftx",
        "FFTW",
        "vs FFTW",
        "error fftx",
        "fftx ran on",
    ] {
        assert!(head.contains(col), "no {col} column: {head}");
    }
    assert!(lines.next().unwrap().starts_with("----"));
    for p in problems {
        // The error column: fftx's result against FFTW's, relative L2.
        let e = cell(&out, p, "error fftx");
        let err: f64 = e.parse().unwrap_or_else(|_| panic!("{p}: error {e}"));
        assert!(err < 1e-12, "{p}: error {err}");
        let on = cell(&out, p, "fftx ran on");
        assert!(on.starts_with("cpu") || on.starts_with("gpu"), "{p}: {on}");
        for lib in ["fftx", "FFTW"] {
            let t = cell(&out, p, lib);
            assert!(t.ends_with(" us") || t.ends_with(" ms"), "{p}: {lib} {t}");
        }
        assert!(cell(&out, p, "vs FFTW").ends_with('x'));
    }
    let svg = std::fs::read_to_string(&svg).expect("the SVG was not written");
    assert_well_formed_svg(&svg);
    for p in problems {
        assert!(svg.contains(p), "{p} not in the plot");
    }
    assert!(svg.contains("speed-up of fftx") && svg.contains("<rect"));
}

#[test]
fn bench_single_precision_and_measure() {
    let o = fftx(&["bench", "-q", "-f", "-m", "-t", "0.005", "cf128", "rf64"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("single precision, FFTW_MEASURE"), "{out}");
    assert!(err.is_empty(), "-q printed progress: {err}");
    for p in ["cf128", "rf64"] {
        let err: f64 = cell(&out, p, "error fftx").parse().unwrap();
        assert!(err < 1e-5, "{p}: {err}");
    }
}

#[test]
fn bench_refuses_bad_input() {
    let o = fftx(&["bench", "cf16q"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("cf16q"));
    let o = fftx(&["bench"]);
    assert_eq!(o.status.code(), Some(1));
    let o = fftx(&["bench", "/cf16"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("split"));
}

/// The system's FFTW 3.3.10 `fftw_import_wisdom_from_filename`, loaded apart from fftx.
fn fftw_imports(file: &Path) -> c_int {
    let lib = CString::new("libfftw3.so.3").unwrap();
    // SAFETY: dlopen/dlsym of FFTW's documented function; its symbols bind to itself.
    unsafe {
        let h = libc::dlopen(
            lib.as_ptr(),
            libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
        );
        assert!(!h.is_null(), "the system FFTW (libfftw3-dev) is needed");
        let f = libc::dlsym(h, c"fftw_import_wisdom_from_filename".as_ptr());
        assert!(!f.is_null());
        let f: unsafe extern "C" fn(*const c_char) -> c_int =
            std::mem::transmute::<*mut c_void, _>(f);
        let name = CString::new(file.to_str().unwrap()).unwrap();
        f(name.as_ptr())
    }
}

#[test]
fn wisdom_writes_what_fftx_and_fftw_import() {
    let dir = scratch("wisdom");
    let file = dir.join("wisdom");
    let o = fftx(&[
        "wisdom",
        "-n",
        "-m",
        "-o",
        file.to_str().unwrap(),
        "cof16",
        "rib8x8",
        "ok32e01",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.is_empty(), "wisdom went to a file, not stdout");
    let w = std::fs::read_to_string(&file).unwrap();
    // FFTW's empty wisdom first (with the installed FFTW's signature), then fftx's choices.
    assert!(w.starts_with("(fftw-3.3.10 fftw_wisdom"), "{w}");
    assert!(w.contains("fftx_wisdom"), "{w}");
    let choices = w.matches("(choice ").count();
    assert_eq!(choices, 3, "{w}");
    assert!(
        w.contains(" cpu)") || w.contains(" gpu)"),
        "no backend recorded: {w}"
    );
    assert!(w.contains("measure"), "{w}");
    assert_eq!(fftw_imports(&file), 1, "FFTW refused fftx's wisdom:\n{w}");
    let name = CString::new(file.to_str().unwrap()).unwrap();
    // SAFETY: fftx's own import, linked into this test.
    assert_eq!(
        unsafe { fftx::fftw_import_wisdom_from_filename(name.as_ptr()) },
        1
    );

    // Standard output by default; -e; problems from standard input.
    let mut child = Command::new(EXE)
        .args(["wisdom", "-n", "-e", "cif32", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"rof64\n ok8o10 ").unwrap();
    let o = child.wait_with_output().unwrap();
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert_eq!(out.matches("(choice ").count(), 3, "{out}");
    assert!(out.contains("estimate"));
}

#[test]
fn wisdom_canonical_set_and_time_limit() {
    let dir = scratch("canonical");
    let file = dir.join("w");
    let o = fftx(&["wisdom", "-n", "-c", "-e", "-o", file.to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", text(&o));
    let w = std::fs::read_to_string(&file).unwrap();
    // FFTW's canonical set: 27 1-D sizes x 8 kinds, 21 multi-dimensional ones x 4 (in place).
    assert_eq!(w.matches("(choice ").count(), 27 * 8 + 21 * 4);
    assert_eq!(fftw_imports(&file), 1);
    // A time limit already spent: nothing is planned, the (empty) wisdom is still written.
    let o = fftx(&[
        "wisdom",
        "-n",
        "-t",
        "0.0000000001",
        "-o",
        file.to_str().unwrap(),
        "cof1024",
        "cof2048",
    ]);
    assert!(o.status.success());
    let w = std::fs::read_to_string(&file).unwrap();
    assert!(w.matches("(choice ").count() <= 1, "{w}");
    assert_eq!(fftx(&["wisdom", "-q"]).status.code(), Some(1));
}

#[test]
fn wisdom_answers_to_fftw_wisdom() {
    let dir = scratch("fftw-wisdom");
    let link = dir.join("fftw-wisdom");
    std::os::unix::fs::symlink(EXE, &link).unwrap();
    let o = Command::new(&link).arg("--help").output().unwrap();
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(
        out.starts_with("Usage: fftw-wisdom [options] [sizes]"),
        "{out}"
    );
    assert!(out.contains("-c, --canonical"));
    let o = Command::new(&link)
        .args(["-n", "-e", "cof8"])
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(out.starts_with("(fftw-3.3.10 fftw_wisdom") && out.contains("(choice "));
    assert!(out.contains(" f64 "), "{out}");
    // fftwf-wisdom: single precision.
    let link = dir.join("fftwf-wisdom");
    std::os::unix::fs::symlink(EXE, &link).unwrap();
    let o = Command::new(&link)
        .args(["-n", "-e", "cof8"])
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert!(out.contains(" f32 "), "{out}");
}
