//! Concurrency (issue 11): 16 threads planning, executing (one plan, new arrays) and destroying at
//! once, through the C API, every result checked against an independent reference.
//!
//! Scenarios, each with 16 threads released together by a barrier:
//!  1. every thread plans (ESTIMATE and MEASURE, f64 and f32, c2c/r2c/c2r/r2r of rank 1 to 3, in
//!     and out of place, batched), executes each plan several times on new thread-local arrays
//!     (new-array execute) and on the plan's own arrays, and destroys it, for FFTX_TEST_SECONDS;
//!  2. one plan per problem, shared: all threads execute it at once, each on its own arrays
//!     (FFTW allows concurrent new-array executes of one plan);
//!  3. after fftw_make_planner_thread_safe() and fftwf_make_planner_thread_safe(), as 1;
//!  4. plans made under fftw_plan_with_nthreads(4) (threads inside every execute) executed by 8
//!     threads at once while 8 more plan, execute and destroy such plans of their own;
//!  5. plans handed from the thread that made them to another, which executes and destroys them
//!     (and a last batch destroyed by the main thread after their makers have exited);
//!  6. wisdom exported, imported and forgotten by 4 threads (both precisions) while 12 plan
//!     (ESTIMATE, MEASURE, MEASURE | WISDOM_ONLY) and execute.
//!
//! References: a problem's input is, batch by batch, a random combination of three base signals
//! whose exact transforms were computed before any thread started, by direct sums in f64 (small
//! sizes, O(n^2) per axis); each batch and each execute takes other coefficients, so a mix-up of
//! batches, arrays or threads changes the result. Outputs must match within TOL * log2(n)
//! relative L2 error (the differential tests' tolerances); out-of-place outputs start as NaN, so
//! an execute that was refused or wrote only part of its output fails as well.
//!
//! FFTX_TEST_SECONDS (default 1.5) is the time each time-bounded scenario runs; every scenario
//! does a minimum of work whatever it is (.ci/memcheck.sh sets it small under valgrind).

use fftx::plan::Plan;
use fftx::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_uint};
use std::sync::{mpsc, Barrier, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

const THREADS: usize = 16;
const BASES: usize = 3;

/// The scenarios change process-wide planner state (threads, wisdom): one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn seconds() -> f64 {
    std::env::var("FFTX_TEST_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(1.5)
}

fn budget() -> Duration {
    Duration::from_secs_f64(seconds())
}

/// `n` at the default budget, scaled with FFTX_TEST_SECONDS, at least `min`.
fn scaled(n: usize, min: usize) -> usize {
    ((n as f64 * seconds() / 1.5).round() as usize).max(min)
}

// ------------------------------------------------------------------------------------------
// Problems and their references.

#[derive(Clone, Copy, Debug, PartialEq)]
enum Prec {
    F64,
    F32,
}

#[derive(Clone, Debug, PartialEq)]
enum Fam {
    C2c(c_int),
    R2c,
    C2r,
    R2r(Vec<c_int>),
}

/// Where one side's logical elements are: `idx[b * count + e]` is the scalar index of element
/// `e` (row-major over the logical shape) of batch `b` (for a complex element, of its real part).
#[derive(Debug)]
struct Side {
    len: usize,
    idx: Vec<usize>,
    count: usize,
    complex: bool,
    embed: Vec<c_int>,
    dist: c_int,
}

fn side(logical: &[usize], last_embed: usize, howmany: usize, complex: bool) -> Side {
    let mut embed = logical.to_vec();
    *embed.last_mut().unwrap() = last_embed;
    let per: usize = embed.iter().product();
    let count: usize = logical.iter().product();
    let w = if complex { 2 } else { 1 };
    let mut idx = Vec::with_capacity(howmany * count);
    for b in 0..howmany {
        for e in 0..count {
            let (mut rem, mut off, mut stride) = (e, 0, 1);
            for d in (0..logical.len()).rev() {
                off += (rem % logical[d]) * stride;
                rem /= logical[d];
                stride *= embed[d];
            }
            idx.push((b * per + off) * w);
        }
    }
    Side {
        len: howmany * per * w,
        idx,
        count,
        complex,
        embed: embed.iter().map(|&x| x as c_int).collect(),
        dist: per as c_int,
    }
}

/// A problem in the advanced interface's packed layouts (FFTW's padded real rows when an r2c or
/// c2r is in place), with base inputs and their exact outputs (logical, one transform each).
struct Spec {
    name: String,
    fam: Fam,
    prec: Prec,
    n: Vec<usize>,
    howmany: usize,
    in_place: bool,
    flags: c_uint,
    input: Side,
    output: Side,
    bx: Vec<Vec<f64>>,
    by: Vec<Vec<f64>>,
    tol: f64,
}

fn turn(num: usize, den: usize) -> f64 {
    2.0 * std::f64::consts::PI * (num % den) as f64 / den as f64
}

/// Applies `f` to every line along axis `d` of a row-major array of `shape`, `w` scalars per
/// element.
fn along(
    data: &[f64],
    shape: &[usize],
    d: usize,
    w: usize,
    f: &dyn Fn(&[f64]) -> Vec<f64>,
) -> Vec<f64> {
    let n = shape[d];
    let inner: usize = shape[d + 1..].iter().product();
    let outer: usize = shape[..d].iter().product();
    let mut out = data.to_vec();
    let mut line = vec![0.0; n * w];
    for o in 0..outer {
        for i in 0..inner {
            for j in 0..n {
                for p in 0..w {
                    line[j * w + p] = data[((o * n + j) * inner + i) * w + p];
                }
            }
            let r = f(&line);
            for j in 0..n {
                for p in 0..w {
                    out[((o * n + j) * inner + i) * w + p] = r[j * w + p];
                }
            }
        }
    }
    out
}

/// Direct complex DFT of one interleaved line.
fn dft_line(x: &[f64], sign: c_int) -> Vec<f64> {
    let n = x.len() / 2;
    let mut y = vec![0.0; 2 * n];
    for k in 0..n {
        let (mut re, mut im) = (0.0, 0.0);
        for j in 0..n {
            let (s, c) = (sign as f64 * turn(j * k, n)).sin_cos();
            re += x[2 * j] * c - x[2 * j + 1] * s;
            im += x[2 * j] * s + x[2 * j + 1] * c;
        }
        y[2 * k] = re;
        y[2 * k + 1] = im;
    }
    y
}

fn dft(x: &[f64], shape: &[usize], sign: c_int) -> Vec<f64> {
    (0..shape.len()).fold(x.to_vec(), |a, d| {
        along(&a, shape, d, 2, &|l| dft_line(l, sign))
    })
}

/// The eleven r2r kinds of one line, by their definitions in FFTW's manual (unnormalized).
fn r2r_line(x: &[f64], kind: c_int) -> Vec<f64> {
    let n = x.len();
    let sum = |f: &dyn Fn(usize) -> f64, r: std::ops::Range<usize>| r.map(f).sum::<f64>();
    let sgn = |k: usize| if k.is_multiple_of(2) { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| match kind {
            FFTW_R2HC if k <= n / 2 => sum(&|j| x[j] * turn(j * k, n).cos(), 0..n),
            FFTW_R2HC => -sum(&|j| x[j] * turn(j * (n - k), n).sin(), 0..n),
            FFTW_HC2R => {
                let mut s = x[0];
                for j in 1..n.div_ceil(2) {
                    let a = turn(j * k, n);
                    s += 2.0 * (x[j] * a.cos() - x[n - j] * a.sin());
                }
                if n.is_multiple_of(2) {
                    s += x[n / 2] * turn(n / 2 * k, n).cos();
                }
                s
            }
            FFTW_DHT => sum(
                &|j| {
                    let a = turn(j * k, n);
                    x[j] * (a.cos() + a.sin())
                },
                0..n,
            ),
            FFTW_REDFT00 => {
                x[0] + sgn(k) * x[n - 1]
                    + 2.0 * sum(&|j| x[j] * turn(j * k, 2 * (n - 1)).cos(), 1..n - 1)
            }
            FFTW_REDFT10 => 2.0 * sum(&|j| x[j] * turn((2 * j + 1) * k, 4 * n).cos(), 0..n),
            FFTW_REDFT01 => x[0] + 2.0 * sum(&|j| x[j] * turn(j * (2 * k + 1), 4 * n).cos(), 1..n),
            FFTW_REDFT11 => {
                2.0 * sum(
                    &|j| x[j] * turn((2 * j + 1) * (2 * k + 1), 8 * n).cos(),
                    0..n,
                )
            }
            FFTW_RODFT00 => 2.0 * sum(&|j| x[j] * turn((j + 1) * (k + 1), 2 * (n + 1)).sin(), 0..n),
            FFTW_RODFT10 => 2.0 * sum(&|j| x[j] * turn((2 * j + 1) * (k + 1), 4 * n).sin(), 0..n),
            FFTW_RODFT01 => {
                sgn(k) * x[n - 1]
                    + 2.0
                        * sum(
                            &|j| x[j] * turn((j + 1) * (2 * k + 1), 4 * n).sin(),
                            0..n - 1,
                        )
            }
            FFTW_RODFT11 => {
                2.0 * sum(
                    &|j| x[j] * turn((2 * j + 1) * (2 * k + 1), 8 * n).sin(),
                    0..n,
                )
            }
            _ => panic!("r2r kind {kind}"),
        })
        .collect()
}

/// The first n/2+1 entries of the last axis of a full complex array of `shape`.
fn half(full: &[f64], shape: &[usize]) -> Vec<f64> {
    let nl = *shape.last().unwrap();
    let h = nl / 2 + 1;
    let rows = full.len() / 2 / nl;
    let mut out = Vec::with_capacity(rows * h * 2);
    for r in 0..rows {
        out.extend_from_slice(&full[2 * r * nl..2 * (r * nl + h)]);
    }
    out
}

fn complexify(x: &[f64]) -> Vec<f64> {
    x.iter().flat_map(|&v| [v, 0.0]).collect()
}

impl Spec {
    fn new(
        fam: Fam,
        prec: Prec,
        n: &[usize],
        howmany: usize,
        in_place: bool,
        flags: c_uint,
        rng: &mut SmallRng,
    ) -> Spec {
        let nl = *n.last().unwrap();
        let h = nl / 2 + 1;
        let mut halfn = n.to_vec();
        *halfn.last_mut().unwrap() = h;
        let pad = if in_place { 2 * h } else { nl };
        let (input, output) = match fam {
            Fam::C2c(_) => (side(n, nl, howmany, true), side(n, nl, howmany, true)),
            Fam::R2c => (side(n, pad, howmany, false), side(&halfn, h, howmany, true)),
            Fam::C2r => (side(&halfn, h, howmany, true), side(n, pad, howmany, false)),
            Fam::R2r(_) => (side(n, nl, howmany, false), side(n, nl, howmany, false)),
        };
        assert!(!in_place || input.len == output.len);
        let round = |x: f64| match prec {
            Prec::F64 => x,
            Prec::F32 => x as f32 as f64,
        };
        let total: usize = n.iter().product();
        let mut random = |len: usize| -> Vec<f64> {
            (0..len).map(|_| round(rng.gen_range(-1.0..1.0))).collect()
        };
        let (mut bx, mut by) = (Vec::new(), Vec::new());
        for _ in 0..BASES {
            let (x, y) = match &fam {
                Fam::C2c(sign) => {
                    let x = random(2 * total);
                    let y = dft(&x, n, *sign);
                    (x, y)
                }
                Fam::R2c => {
                    let x = random(total);
                    let y = half(&dft(&complexify(&x), n, -1), n);
                    (x, y)
                }
                Fam::C2r => {
                    // The spectrum of a real signal s (Hermitian), whose c2r is N s.
                    let s = random(total);
                    let x: Vec<f64> = half(&dft(&complexify(&s), n, -1), n)
                        .into_iter()
                        .map(round)
                        .collect();
                    (x, s.iter().map(|v| v * total as f64).collect())
                }
                Fam::R2r(kinds) => {
                    let x = random(total);
                    let y = (0..n.len()).fold(x.clone(), |a, d| {
                        along(&a, n, d, 1, &|l| r2r_line(l, kinds[d]))
                    });
                    (x, y)
                }
            };
            bx.push(x);
            by.push(y);
        }
        let tol = match prec {
            Prec::F64 => 1e-12,
            Prec::F32 => 2e-6,
        } * (total as f64).log2().max(1.0);
        let name = format!(
            "{:?} {fam:?} n={n:?} howmany={howmany} {} {}",
            prec,
            if in_place { "in-place" } else { "out-of-place" },
            flag_name(flags)
        );
        Spec {
            name,
            fam,
            prec,
            n: n.to_vec(),
            howmany,
            in_place,
            flags,
            input,
            output,
            bx,
            by,
            tol,
        }
    }
}

fn flag_name(flags: c_uint) -> String {
    let mut s = if flags & FFTW_ESTIMATE != 0 {
        "ESTIMATE".to_string()
    } else if flags & FFTW_PATIENT != 0 {
        "PATIENT".to_string()
    } else {
        "MEASURE".to_string()
    };
    if flags & FFTW_WISDOM_ONLY != 0 {
        s += "|WISDOM_ONLY";
    }
    s
}

/// The small problems of scenarios 1, 3, 5 and 6: every family, both precisions, ranks 1-3,
/// in and out of place, batches of 1-3, ESTIMATE and MEASURE.
fn small_specs() -> &'static [Spec] {
    static SPECS: OnceLock<Vec<Spec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut v = Vec::new();
        let mut i = 0usize;
        let c2c: &[&[usize]] = &[
            &[16],
            &[15],
            &[7],
            &[64],
            &[60],
            &[8, 6],
            &[5, 12],
            &[4, 6, 5],
        ];
        let real: &[&[usize]] = &[&[16], &[15], &[9], &[32], &[12, 10], &[7, 8], &[6, 4, 5]];
        let r2r: &[(&[usize], &[c_int])] = &[
            (&[16], &[FFTW_R2HC]),
            (&[15], &[FFTW_HC2R]),
            (&[12], &[FFTW_DHT]),
            (&[9], &[FFTW_REDFT00]),
            (&[10], &[FFTW_REDFT01]),
            (&[8], &[FFTW_REDFT10]),
            (&[7], &[FFTW_REDFT11]),
            (&[6], &[FFTW_RODFT00]),
            (&[11], &[FFTW_RODFT01]),
            (&[13], &[FFTW_RODFT10]),
            (&[5], &[FFTW_RODFT11]),
            (&[6, 8], &[FFTW_REDFT10, FFTW_RODFT11]),
            (&[5, 4], &[FFTW_DHT, FFTW_R2HC]),
            (&[4, 3, 5], &[FFTW_REDFT00, FFTW_HC2R, FFTW_RODFT01]),
        ];
        for prec in [Prec::F64, Prec::F32] {
            let mut next = |fam: Fam, n: &[usize], v: &mut Vec<Spec>| {
                i += 1;
                let flags = if i.is_multiple_of(3) {
                    FFTW_MEASURE
                } else {
                    FFTW_ESTIMATE
                };
                let howmany = [1, 3, 2, 1, 2][i % 5];
                v.push(Spec::new(
                    fam,
                    prec,
                    n,
                    howmany,
                    i % 2 == 1,
                    flags,
                    &mut rng,
                ));
            };
            for n in c2c {
                let sign = if v.len() % 2 == 0 {
                    FFTW_FORWARD
                } else {
                    FFTW_BACKWARD
                };
                next(Fam::C2c(sign), n, &mut v);
            }
            for n in real {
                next(Fam::R2c, n, &mut v);
                next(Fam::C2r, n, &mut v);
            }
            for (n, kinds) in r2r {
                next(Fam::R2r(kinds.to_vec()), n, &mut v);
            }
        }
        v
    })
}

/// Problems of 2^17 points and more: ESTIMATE gives them 4 threads under
/// fftw_plan_with_nthreads(4) (a thread per 4096 points).
fn big_specs() -> &'static [Spec] {
    static SPECS: OnceLock<Vec<Spec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        let mut rng = SmallRng::seed_from_u64(12);
        let e = FFTW_ESTIMATE;
        vec![
            Spec::new(
                Fam::C2c(FFTW_FORWARD),
                Prec::F64,
                &[32, 64],
                64,
                false,
                e,
                &mut rng,
            ),
            Spec::new(
                Fam::C2c(FFTW_BACKWARD),
                Prec::F32,
                &[256],
                512,
                true,
                e,
                &mut rng,
            ),
            Spec::new(Fam::R2c, Prec::F32, &[64, 64], 32, true, e, &mut rng),
            Spec::new(Fam::C2r, Prec::F64, &[512], 256, false, e, &mut rng),
            Spec::new(
                Fam::R2r(vec![FFTW_REDFT10, FFTW_RODFT10]),
                Prec::F32,
                &[64, 64],
                32,
                false,
                e,
                &mut rng,
            ),
        ]
    })
}

// ------------------------------------------------------------------------------------------
// The C API, per precision.

trait Fp: Copy + Send + Sync + 'static {
    const PREC: Prec;
    fn of(x: f64) -> Self;
    fn f(self) -> f64;
    unsafe fn plan(s: &Spec, flags: c_uint, i: *mut Self, o: *mut Self) -> usize;
    unsafe fn execute_new(s: &Spec, p: usize, i: *mut Self, o: *mut Self);
    unsafe fn execute(p: usize);
    unsafe fn destroy(p: usize);
    unsafe fn describe(p: usize) -> String;
}

macro_rules! fp {
    ($t:ty, $prec:expr, $pfx:ident) => {
        paste::paste! {
            impl Fp for $t {
                const PREC: Prec = $prec;
                fn of(x: f64) -> Self {
                    x as $t
                }
                fn f(self) -> f64 {
                    self as f64
                }
                unsafe fn plan(s: &Spec, flags: c_uint, i: *mut $t, o: *mut $t) -> usize {
                    let n: Vec<c_int> = s.n.iter().map(|&x| x as c_int).collect();
                    let (rank, hm) = (n.len() as c_int, s.howmany as c_int);
                    let (ie, oe) = (s.input.embed.as_ptr(), s.output.embed.as_ptr());
                    let (id, od) = (s.input.dist, s.output.dist);
                    let p = match &s.fam {
                        Fam::C2c(sign) => [<$pfx plan_many_dft>](
                            rank, n.as_ptr(), hm, i as *mut [$t; 2], ie, 1, id,
                            o as *mut [$t; 2], oe, 1, od, *sign, flags,
                        ),
                        Fam::R2c => [<$pfx plan_many_dft_r2c>](
                            rank, n.as_ptr(), hm, i, ie, 1, id, o as *mut [$t; 2], oe, 1, od,
                            flags,
                        ),
                        Fam::C2r => [<$pfx plan_many_dft_c2r>](
                            rank, n.as_ptr(), hm, i as *mut [$t; 2], ie, 1, id, o, oe, 1, od,
                            flags,
                        ),
                        Fam::R2r(k) => [<$pfx plan_many_r2r>](
                            rank, n.as_ptr(), hm, i, ie, 1, id, o, oe, 1, od, k.as_ptr(), flags,
                        ),
                    };
                    p as usize
                }
                unsafe fn execute_new(s: &Spec, p: usize, i: *mut $t, o: *mut $t) {
                    let p = p as *mut Plan;
                    match &s.fam {
                        Fam::C2c(_) => [<$pfx execute_dft>](p, i as *mut [$t; 2], o as *mut [$t; 2]),
                        Fam::R2c => [<$pfx execute_dft_r2c>](p, i, o as *mut [$t; 2]),
                        Fam::C2r => [<$pfx execute_dft_c2r>](p, i as *mut [$t; 2], o),
                        Fam::R2r(_) => [<$pfx execute_r2r>](p, i, o),
                    }
                }
                unsafe fn execute(p: usize) {
                    [<$pfx execute>](p as *mut Plan)
                }
                unsafe fn destroy(p: usize) {
                    [<$pfx destroy_plan>](p as *mut Plan)
                }
                unsafe fn describe(p: usize) -> String {
                    let s = [<$pfx sprint_plan>](p as *mut Plan);
                    assert!(!s.is_null());
                    let text = CStr::from_ptr(s).to_string_lossy().into_owned();
                    libc::free(s as *mut libc::c_void);
                    text
                }
            }
        }
    };
}

fp!(f64, Prec::F64, fftw_);
fp!(f32, Prec::F32, fftwf_);

/// Runs `$f::<T>(args)` with T the precision of `$spec`.
macro_rules! dispatch {
    ($spec:expr, $f:ident ( $($a:expr),* )) => {
        match $spec.prec {
            Prec::F64 => $f::<f64>($($a),*),
            Prec::F32 => $f::<f32>($($a),*),
        }
    };
}

// ------------------------------------------------------------------------------------------
// Planning, executing, checking.

type Coef = Vec<[f64; BASES]>;

/// Fills the input side of `a` with a fresh random combination of the bases per batch (other
/// scalars, the padding of in-place r2c rows, get junk).
fn fill<T: Fp>(s: &Spec, a: &mut [T], rng: &mut SmallRng) -> Coef {
    a.iter_mut().for_each(|v| *v = T::of(1e3));
    let coef: Coef = (0..s.howmany)
        .map(|_| std::array::from_fn(|_| rng.gen_range(-1.0..1.0)))
        .collect();
    let w = if s.input.complex { 2 } else { 1 };
    let count = s.input.count;
    for (b, c) in coef.iter().enumerate() {
        for e in 0..count {
            let at = s.input.idx[b * count + e];
            for p in 0..w {
                let v: f64 = (0..BASES).map(|k| c[k] * s.bx[k][e * w + p]).sum();
                a[at + p] = T::of(v);
            }
        }
    }
    coef
}

/// The output side of `a` against the combination `coef` of the bases' transforms.
fn check<T: Fp>(s: &Spec, a: &[T], coef: &Coef, what: &str) -> Result<(), String> {
    let w = if s.output.complex { 2 } else { 1 };
    let count = s.output.count;
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for (b, c) in coef.iter().enumerate() {
        for e in 0..count {
            let at = s.output.idx[b * count + e];
            for p in 0..w {
                let r: f64 = (0..BASES).map(|k| c[k] * s.by[k][e * w + p]).sum();
                let v = a[at + p].f();
                num += (v - r) * (v - r);
                den += r * r;
            }
        }
    }
    let err = (num / den.max(f64::MIN_POSITIVE)).sqrt();
    if err <= s.tol {
        Ok(())
    } else {
        Err(format!(
            "{}: {what}: relative error {err:e} > {:e}",
            s.name, s.tol
        ))
    }
}

/// One execute on new arrays (fresh allocations, this thread's).
fn execute_new<T: Fp>(s: &Spec, p: usize, rng: &mut SmallRng) -> Result<(), String> {
    let mut i = vec![T::of(0.0); s.input.len];
    let coef = fill(s, &mut i, rng);
    if s.in_place {
        let ip = i.as_mut_ptr();
        unsafe { T::execute_new(s, p, ip, ip) };
        check(s, &i, &coef, "new-array execute, in place")
    } else {
        let mut o = vec![T::of(f64::NAN); s.output.len];
        unsafe { T::execute_new(s, p, i.as_mut_ptr(), o.as_mut_ptr()) };
        check(s, &o, &coef, "new-array execute")
    }
}

/// A plan with its own arrays (alive as long as it is).
struct Owned<T> {
    p: usize,
    i: Vec<T>,
    o: Vec<T>,
}

/// Plans `s` with `flags` on fresh arrays; `Ok(None)` only for a WISDOM_ONLY plan FFTW's rules
/// allow to be NULL.
fn make<T: Fp>(s: &Spec, flags: c_uint) -> Result<Option<Owned<T>>, String> {
    assert_eq!(s.prec, T::PREC);
    let mut i = vec![T::of(0.0); s.input.len];
    let mut o = vec![T::of(0.0); if s.in_place { 0 } else { s.output.len }];
    let ip = i.as_mut_ptr();
    let op = if s.in_place { ip } else { o.as_mut_ptr() };
    let p = unsafe { T::plan(s, flags, ip, op) };
    if p == 0 {
        return if flags & FFTW_WISDOM_ONLY != 0 {
            Ok(None)
        } else {
            Err(format!(
                "{}: planning ({}) failed",
                s.name,
                flag_name(flags)
            ))
        };
    }
    Ok(Some(Owned { p, i, o }))
}

/// `fftw_execute` on the plan's own arrays, filled afresh (MEASURE overwrote them).
fn execute_own<T: Fp>(s: &Spec, own: &mut Owned<T>, rng: &mut SmallRng) -> Result<(), String> {
    let coef = fill(s, &mut own.i, rng);
    if !s.in_place {
        own.o.iter_mut().for_each(|v| *v = T::of(f64::NAN));
    }
    unsafe { T::execute(own.p) };
    let out = if s.in_place { &own.i } else { &own.o };
    check(s, out, &coef, "fftw_execute on the plan's arrays")
}

/// Plans, executes `executes` times (mostly new arrays, every fourth on the plan's own),
/// destroys. Returns whether a plan was made.
fn plan_run_destroy<T: Fp>(
    s: &Spec,
    flags: c_uint,
    executes: usize,
    rng: &mut SmallRng,
) -> Result<bool, String> {
    let Some(mut own) = make::<T>(s, flags)? else {
        return Ok(false);
    };
    let mut r = Ok(());
    for e in 0..executes {
        r = if e % 4 == 3 {
            execute_own(s, &mut own, rng)
        } else {
            execute_new::<T>(s, own.p, rng)
        };
        if r.is_err() {
            break;
        }
    }
    unsafe { T::destroy(own.p) };
    r.map(|_| true)
}

fn run_threads<F>(f: F) -> Vec<usize>
where
    F: Fn(usize, &mut SmallRng, Instant) -> Result<usize, String> + Sync,
{
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (f, barrier) = (&f, &barrier);
                sc.spawn(move || {
                    let mut rng = SmallRng::seed_from_u64(1000 + t as u64);
                    barrier.wait();
                    let end = Instant::now() + budget();
                    f(t, &mut rng, end).unwrap_or_else(|e| panic!("thread {t}: {e}"))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

// ------------------------------------------------------------------------------------------
// Scenarios.

/// Scenarios 1 and 3: every thread plans, executes and destroys, for the time budget.
fn plan_execute_destroy_everywhere() {
    let specs = small_specs();
    let counts = run_threads(|t, rng, end| {
        let mut k = t * 5;
        let mut plans = 0;
        while plans < 3 || Instant::now() < end {
            let s = &specs[k % specs.len()];
            k += 7;
            dispatch!(s, plan_run_destroy(s, s.flags, 6, rng))?;
            plans += 1;
        }
        Ok(plans)
    });
    eprintln!(
        "{} plans made, run 6 times each and destroyed by {THREADS} threads",
        counts.iter().sum::<usize>()
    );
}

#[test]
fn threads_plan_execute_and_destroy_at_once() {
    let _s = serial();
    plan_execute_destroy_everywhere();
}

#[test]
fn threads_plan_at_once_with_a_thread_safe_planner() {
    let _s = serial();
    fftw_make_planner_thread_safe();
    fftwf_make_planner_thread_safe();
    plan_execute_destroy_everywhere();
}

/// Scenario 2: one plan per problem, executed by every thread at once on its own arrays.
#[test]
fn one_plan_executed_by_all_threads_on_new_arrays() {
    let _s = serial();
    let specs = small_specs();
    let mut rng = SmallRng::seed_from_u64(2);
    // Every other problem: all families, both precisions, in and out of place.
    let shared: Vec<(usize, usize)> = (0..specs.len())
        .step_by(2)
        .map(|k| {
            let s = &specs[k];
            (k, dispatch!(s, plan_only(s)).unwrap())
        })
        .collect();
    let counts = run_threads(|t, rng, end| {
        let mut rounds = 0;
        while rounds < 2 || Instant::now() < end {
            for j in 0..shared.len() {
                let (k, p) = shared[(j + t) % shared.len()];
                let s = &specs[k];
                dispatch!(s, execute_new(s, p, rng))?;
            }
            rounds += 1;
        }
        Ok(rounds * shared.len())
    });
    for &(k, p) in &shared {
        let s = &specs[k];
        dispatch!(s, execute_new(s, p, &mut rng)).unwrap();
        dispatch!(s, destroy_plan(p));
    }
    eprintln!(
        "{} executes of {} shared plans by {THREADS} threads",
        counts.iter().sum::<usize>(),
        shared.len()
    );
}

fn threads_of(text: &str) -> usize {
    text.split("threads=")
        .nth(1)
        .and_then(|t| {
            t.split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|d| d.parse().ok())
        })
        .unwrap_or(1)
}

/// Scenario 4: plans with threads of their own, executed by many threads at once.
#[test]
fn threaded_plans_executed_by_all_threads() {
    let _s = serial();
    assert_eq!(fftw_init_threads(), 1);
    assert_eq!(fftwf_init_threads(), 1);
    fftw_plan_with_nthreads(4);
    fftwf_plan_with_nthreads(4);
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            fftw_plan_with_nthreads(1);
            fftwf_plan_with_nthreads(1);
        }
    }
    let _reset = Reset;
    let specs = big_specs();
    let shared: Vec<usize> = specs
        .iter()
        .map(|s| {
            let p = dispatch!(s, plan_only(s)).unwrap();
            let text = dispatch!(s, describe_plan(p));
            // (A plan the planner gave to a GPU has no host threads to check.)
            assert!(
                threads_of(&text) > 1 || !text.contains("(cpu "),
                "{}: ESTIMATE with 4 threads allowed planned one thread: {text}",
                s.name
            );
            p
        })
        .collect();
    let reps = scaled(3, 1);
    let counts = run_threads(|t, rng, _end| {
        let mut done = 0;
        for r in 0..reps {
            if t < THREADS / 2 {
                // Execute every shared threaded plan on new arrays.
                for j in 0..specs.len() {
                    let k = (j + t + r) % specs.len();
                    let s = &specs[k];
                    dispatch!(s, execute_new(s, shared[k], rng))?;
                    done += 1;
                }
            } else {
                // Plan one of one's own (4 threads), execute it, destroy it.
                let s = &specs[(t + r) % specs.len()];
                dispatch!(s, plan_run_destroy(s, s.flags, 2, rng))?;
                done += 2;
            }
        }
        Ok(done)
    });
    let mut rng = SmallRng::seed_from_u64(4);
    for (s, &p) in specs.iter().zip(&shared) {
        dispatch!(s, execute_new(s, p, &mut rng)).unwrap();
        dispatch!(s, destroy_plan(p));
    }
    eprintln!(
        "{} executes of plans with 4 threads by {THREADS} threads",
        counts.iter().sum::<usize>()
    );
}

/// Scenario 5: plans destroyed by another thread than the one that made them.
#[test]
fn plans_destroyed_by_other_threads() {
    let _s = serial();
    let specs = small_specs();
    let rounds = scaled(30, 2);
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..THREADS)
        .map(|_| mpsc::channel::<(usize, usize)>())
        .unzip();
    let receivers: Vec<Mutex<mpsc::Receiver<(usize, usize)>>> =
        receivers.into_iter().map(Mutex::new).collect();
    // Plans left for the main thread to destroy once their makers have exited.
    let leftovers: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());
    let counts = run_threads(|t, rng, _end| {
        let to = senders[(t + 1) % THREADS].clone();
        let from = receivers[t].lock().unwrap();
        let mut handed = 0;
        for r in 0..rounds {
            // Make a plan, run it here once, hand it on.
            let k = (t * 5 + r * 3) % specs.len();
            let s = &specs[k];
            let p = dispatch!(s, make_run_keep(s, rng))?;
            to.send((k, p)).map_err(|e| e.to_string())?;
            // Take the previous thread's, run it on new arrays, destroy it.
            let (k, p) = from.recv().map_err(|e| e.to_string())?;
            let s = &specs[k];
            dispatch!(s, execute_new(s, p, rng))?;
            dispatch!(s, execute_new(s, p, rng))?;
            dispatch!(s, destroy_plan(p));
            handed += 1;
        }
        let k = (t * 11) % specs.len();
        let s = &specs[k];
        let p = dispatch!(s, make_run_keep(s, rng))?;
        leftovers.lock().unwrap().push((k, p));
        Ok(handed)
    });
    let mut rng = SmallRng::seed_from_u64(5);
    for (k, p) in leftovers.into_inner().unwrap() {
        let s = &specs[k];
        dispatch!(s, execute_new(s, p, &mut rng)).unwrap();
        dispatch!(s, destroy_plan(p));
    }
    eprintln!(
        "{} plans handed to another thread and destroyed there, {THREADS} by the main thread",
        counts.iter().sum::<usize>()
    );
}

/// Makes a plan, runs it once on its arrays and once on new ones, and returns it (its arrays
/// are freed: from now on it runs on new arrays only).
fn make_run_keep<T: Fp>(s: &Spec, rng: &mut SmallRng) -> Result<usize, String> {
    let mut own = make::<T>(s, s.flags)?.ok_or("NULL plan")?;
    execute_own(s, &mut own, rng)?;
    execute_new::<T>(s, own.p, rng)?;
    Ok(own.p)
}

fn destroy_plan<T: Fp>(p: usize) {
    unsafe { T::destroy(p) }
}

fn describe_plan<T: Fp>(p: usize) -> String {
    unsafe { T::describe(p) }
}

/// A plan of `s` made on arrays freed at once: it runs on new arrays only.
fn plan_only<T: Fp>(s: &Spec) -> Result<usize, String> {
    Ok(make::<T>(s, s.flags)?.ok_or("NULL plan")?.p)
}

/// Scenario 6: wisdom exported, imported and forgotten while other threads plan.
#[test]
fn wisdom_traffic_while_planning() {
    let _s = serial();
    let specs = small_specs();
    fftw_forget_wisdom();
    fftwf_forget_wisdom();
    let planners = THREADS - 4;
    let counts = run_threads(|t, rng, end| {
        let mut n = 0;
        if t < planners {
            let mut k = t * 3;
            while n < 3 || Instant::now() < end {
                let s = &specs[k % specs.len()];
                k += 5;
                let flags = match n % 3 {
                    0 => FFTW_ESTIMATE,
                    1 => FFTW_MEASURE,
                    _ => FFTW_MEASURE | FFTW_WISDOM_ONLY,
                };
                dispatch!(s, plan_run_destroy(s, flags, 3, rng))?;
                n += 1;
            }
        } else {
            let f64_side = t % 2 == 0;
            let mut saved: Option<String> = None;
            while n < 4 || Instant::now() < end {
                let text = unsafe {
                    let p = if f64_side {
                        fftw_export_wisdom_to_string()
                    } else {
                        fftwf_export_wisdom_to_string()
                    };
                    if p.is_null() {
                        return Err("export_wisdom_to_string gave NULL".into());
                    }
                    let text = CStr::from_ptr(p).to_string_lossy().into_owned();
                    libc::free(p as *mut libc::c_void);
                    text
                };
                if !text.starts_with("(fftw-3.3.10") {
                    return Err(format!("exported wisdom does not read as FFTW's: {text}"));
                }
                match n % 4 {
                    0 | 2 => {
                        let back = saved.as_deref().unwrap_or(&text);
                        let c = std::ffi::CString::new(back).unwrap();
                        let ok = unsafe {
                            if f64_side {
                                fftw_import_wisdom_from_string(c.as_ptr() as *const c_char)
                            } else {
                                fftwf_import_wisdom_from_string(c.as_ptr() as *const c_char)
                            }
                        };
                        if ok != 1 {
                            return Err(format!("importing exported wisdom failed: {back}"));
                        }
                    }
                    1 => {
                        if f64_side {
                            fftw_forget_wisdom()
                        } else {
                            fftwf_forget_wisdom()
                        }
                    }
                    _ => saved = Some(text),
                }
                n += 1;
                if rng.gen_range(0..4) == 0 {
                    std::thread::yield_now();
                }
            }
        }
        Ok(n)
    });
    // Afterwards, wisdom still works: MEASURE, export, forget, WISDOM_ONLY fails, import, and
    // WISDOM_ONLY plans (a correct plan).
    let mut rng = SmallRng::seed_from_u64(6);
    let s = specs
        .iter()
        .find(|s| s.prec == Prec::F64 && matches!(s.fam, Fam::C2c(_)))
        .unwrap();
    assert!(plan_run_destroy::<f64>(s, FFTW_MEASURE, 2, &mut rng).unwrap());
    let text = unsafe {
        let p = fftw_export_wisdom_to_string();
        let t = CStr::from_ptr(p).to_owned();
        libc::free(p as *mut libc::c_void);
        t
    };
    fftw_forget_wisdom();
    assert!(!plan_run_destroy::<f64>(s, FFTW_MEASURE | FFTW_WISDOM_ONLY, 2, &mut rng).unwrap());
    assert_eq!(unsafe { fftw_import_wisdom_from_string(text.as_ptr()) }, 1);
    assert!(
        plan_run_destroy::<f64>(s, FFTW_MEASURE | FFTW_WISDOM_ONLY, 2, &mut rng).unwrap(),
        "no plan from imported wisdom"
    );
    fftw_forget_wisdom();
    fftwf_forget_wisdom();
    eprintln!(
        "{} plans and {} wisdom operations by {THREADS} threads",
        counts[..planners].iter().sum::<usize>(),
        counts[planners..].iter().sum::<usize>()
    );
}

/// The references themselves, against properties they must have (so that a wrong reference
/// cannot pass wrong results): Parseval for c2c, r2c/c2r round trip, r2r kinds against their
/// inverses (R2HC/HC2R, REDFT10/REDFT01, RODFT10/RODFT01, REDFT11, RODFT11, DHT: themselves;
/// REDFT00, RODFT00: themselves) with FFTW's normalizations.
#[test]
fn references_are_right() {
    let mut rng = SmallRng::seed_from_u64(9);
    let x: Vec<f64> = (0..2 * 12).map(|_| rng.gen_range(-1.0..1.0)).collect();
    let y = dft(&x, &[3, 4], -1);
    let e = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>();
    assert!((e(&y) - 12.0 * e(&x)).abs() < 1e-12 * e(&y));
    let back = dft(&y, &[3, 4], 1);
    for (a, b) in back.iter().zip(&x) {
        assert!((a / 12.0 - b).abs() < 1e-14);
    }
    for n in [1usize, 2, 5, 8, 9] {
        let x: Vec<f64> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let pairs = [
            (FFTW_R2HC, FFTW_HC2R, n as f64),
            (FFTW_HC2R, FFTW_R2HC, n as f64),
            (FFTW_DHT, FFTW_DHT, n as f64),
            (FFTW_REDFT10, FFTW_REDFT01, 2.0 * n as f64),
            (FFTW_REDFT01, FFTW_REDFT10, 2.0 * n as f64),
            (FFTW_REDFT11, FFTW_REDFT11, 2.0 * n as f64),
            (FFTW_RODFT10, FFTW_RODFT01, 2.0 * n as f64),
            (FFTW_RODFT01, FFTW_RODFT10, 2.0 * n as f64),
            (FFTW_RODFT11, FFTW_RODFT11, 2.0 * n as f64),
            (FFTW_RODFT00, FFTW_RODFT00, 2.0 * (n + 1) as f64),
            (FFTW_REDFT00, FFTW_REDFT00, 2.0 * (n as f64 - 1.0)),
        ];
        for (a, b, norm) in pairs {
            if a == FFTW_REDFT00 && n < 2 {
                continue;
            }
            let z = r2r_line(&r2r_line(&x, a), b);
            for (u, v) in z.iter().zip(&x) {
                assert!((u / norm - v).abs() < 1e-13, "kinds {a} {b} n={n}");
            }
        }
        // R2HC is the DFT in halfcomplex order.
        let full = dft_line(&complexify(&x), -1);
        let hc = r2r_line(&x, FFTW_R2HC);
        for k in 0..=n / 2 {
            assert!((hc[k] - full[2 * k]).abs() < 1e-13);
            if k > 0 && k < n - k {
                assert!((hc[n - k] - full[2 * k + 1]).abs() < 1e-13);
            }
        }
    }
    // A wrong result fails the check.
    let s = &small_specs()[0];
    let mut rng = SmallRng::seed_from_u64(10);
    let mut a = vec![0.0f64; s.input.len];
    let coef = fill(s, &mut a, &mut rng);
    let mut out = vec![0.0f64; s.output.len];
    for (e, &at) in s.output.idx.iter().enumerate() {
        let (b, e) = (e / s.output.count, e % s.output.count);
        for p in 0..2 {
            out[at + p] = (0..BASES).map(|k| coef[b][k] * s.by[k][2 * e + p]).sum();
        }
    }
    check(s, &out, &coef, "exact").unwrap();
    out[s.output.idx[s.output.idx.len() / 2]] += 1e-6;
    assert!(check(s, &out, &coef, "perturbed").is_err());
}
