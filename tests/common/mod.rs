#![allow(clippy::missing_transmute_annotations)]
//! Test support: the system FFTW 3.3.10 as the reference (loaded with dlopen + RTLD_DEEPBIND so
//! its symbols never mix with ours), the same untyped call table over fftx, and random problems.
#![allow(dead_code)]

use fftx::fftw_iodim64 as Dim;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::ffi::{c_void, CString};
use std::os::raw::{c_int, c_uint};

pub type P = *mut c_void;
type Dp = *const Dim;

/// The guru64 entry points of one precision, untyped, from either library.
pub struct Api {
    pub dft: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, c_int, c_uint) -> P,
    pub r2c: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, c_uint) -> P,
    pub c2r: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, c_uint) -> P,
    pub r2r: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, *const c_int, c_uint) -> P,
    pub split_dft: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, P, P, c_uint) -> P,
    pub split_r2c: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, P, c_uint) -> P,
    pub split_c2r: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, P, c_uint) -> P,
    pub execute: unsafe extern "C" fn(P),
    pub destroy: unsafe extern "C" fn(P),
}

macro_rules! ours {
    ($p:ident) => { paste::paste! {
        // SAFETY: same C ABI; array pointer types differ only in pointee.
        unsafe {
            Api {
                dft: std::mem::transmute(fftx::[<$p plan_guru64_dft>] as *const ()),
                r2c: std::mem::transmute(fftx::[<$p plan_guru64_dft_r2c>] as *const ()),
                c2r: std::mem::transmute(fftx::[<$p plan_guru64_dft_c2r>] as *const ()),
                r2r: std::mem::transmute(fftx::[<$p plan_guru64_r2r>] as *const ()),
                split_dft: std::mem::transmute(fftx::[<$p plan_guru64_split_dft>] as *const ()),
                split_r2c: std::mem::transmute(fftx::[<$p plan_guru64_split_dft_r2c>] as *const ()),
                split_c2r: std::mem::transmute(fftx::[<$p plan_guru64_split_dft_c2r>] as *const ()),
                execute: std::mem::transmute(fftx::[<$p execute>] as *const ()),
                destroy: std::mem::transmute(fftx::[<$p destroy_plan>] as *const ()),
            }
        }
    }};
}

pub fn ours_f64() -> Api {
    ours!(fftw_)
}
pub fn ours_f32() -> Api {
    ours!(fftwf_)
}

/// Opens a system library privately; its own symbols bind before any of the process's.
pub fn dlopen(name: &str) -> *mut c_void {
    let c = CString::new(name).unwrap();
    let h = unsafe {
        libc::dlopen(
            c.as_ptr(),
            libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
        )
    };
    assert!(
        !h.is_null(),
        "cannot dlopen {name}: install libfftw3-dev (FFTW 3.3.10), the reference"
    );
    h
}

pub fn dlsym<F: Copy>(h: *mut c_void, name: &str) -> F {
    let c = CString::new(name).unwrap();
    let f = unsafe { libc::dlsym(h, c.as_ptr()) };
    assert!(!f.is_null(), "{name} missing from the reference FFTW");
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    unsafe { std::mem::transmute_copy(&f) }
}

pub fn reference(prefix: &str) -> Api {
    let lib = if prefix == "fftw_" {
        "libfftw3.so.3"
    } else {
        "libfftw3f.so.3"
    };
    let h = dlopen(lib);
    let s = |n: &str| format!("{prefix}{n}");
    Api {
        dft: dlsym(h, &s("plan_guru64_dft")),
        r2c: dlsym(h, &s("plan_guru64_dft_r2c")),
        c2r: dlsym(h, &s("plan_guru64_dft_c2r")),
        r2r: dlsym(h, &s("plan_guru64_r2r")),
        split_dft: dlsym(h, &s("plan_guru64_split_dft")),
        split_r2c: dlsym(h, &s("plan_guru64_split_dft_r2c")),
        split_c2r: dlsym(h, &s("plan_guru64_split_dft_c2r")),
        execute: dlsym(h, &s("execute")),
        destroy: dlsym(h, &s("destroy_plan")),
    }
}

/// f32 or f64 test data.
pub trait Float: Copy + PartialEq + std::fmt::Debug + Default + 'static {
    const PREFIX: &'static str;
    /// Tolerance factor: relative L2 error allowed per log2(N).
    const TOL: f64;
    fn of(x: f64) -> Self;
    fn f(self) -> f64;
}
impl Float for f64 {
    const PREFIX: &'static str = "fftw_";
    const TOL: f64 = 1e-12;
    fn of(x: f64) -> Self {
        x
    }
    fn f(self) -> f64 {
        self
    }
}
impl Float for f32 {
    const PREFIX: &'static str = "fftwf_";
    const TOL: f64 = 2e-6;
    fn of(x: f64) -> Self {
        x as f32
    }
    fn f(self) -> f64 {
        self as f64
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Family {
    Dft(i32),
    R2c,
    C2r,
    R2r(Vec<c_int>),
}

/// A guru64 problem over real-scalar arrays; complex arrays are interleaved (strides below in
/// complex elements) or split (strides in reals, `im` = `re` + `split_gap`).
#[derive(Clone, Debug)]
pub struct Case {
    pub family: Family,
    pub dims: Vec<Dim>,
    pub loops: Vec<Dim>,
    pub split: bool,
    pub in_place: bool,
}

/// One side's array: reals, with `base` the index the plan's pointer points at.
pub struct Side {
    pub data: Vec<f64>,
    pub base: usize,
    /// Indices (into `data`) the problem addresses.
    pub addressed: Vec<usize>,
    /// Offset of imaginary parts from real parts, in reals (1 interleaved; the gap when split).
    pub im: isize,
    /// Reals per element offset (2 interleaved complex, else 1).
    pub scale: isize,
    pub complex: bool,
    /// Element offsets in logical order (dims then loops, row-major).
    pub offsets: Vec<isize>,
}

impl Side {
    /// Index into `data` of logical element `i`, real (0) or imaginary (1) part.
    pub fn index(&self, i: usize, part: usize) -> usize {
        (self.base as isize + self.offsets[i] * self.scale + part as isize * self.im) as usize
    }
    pub fn parts(&self) -> usize {
        if self.complex {
            2
        } else {
            1
        }
    }
}

pub const SENTINEL: f64 = 1234.5;

impl Case {
    pub fn n_total(&self) -> f64 {
        self.dims
            .iter()
            .map(|d| d.n as f64)
            .product::<f64>()
            .max(2.0)
    }

    fn in_complex(&self) -> bool {
        matches!(self.family, Family::Dft(_) | Family::C2r)
    }
    fn out_complex(&self) -> bool {
        matches!(self.family, Family::Dft(_) | Family::R2c)
    }

    /// Logical lengths of the input (true) or output (false) array per transform dim.
    pub fn shape(&self, input: bool) -> Vec<isize> {
        let halve = match self.family {
            Family::R2c => !input,
            Family::C2r => input,
            _ => false,
        };
        let mut s: Vec<isize> = self.dims.iter().map(|d| d.n).collect();
        if halve {
            if let Some(l) = s.last_mut() {
                *l = *l / 2 + 1;
            }
        }
        s
    }

    /// Element offsets (in the array's elements) that one side addresses.
    pub fn offsets(&self, input: bool) -> Vec<isize> {
        let shape = self.shape(input);
        let mut dims: Vec<(isize, isize)> = shape
            .iter()
            .zip(&self.dims)
            .map(|(&n, d)| (n, if input { d.is } else { d.os }))
            .collect();
        dims.extend(
            self.loops
                .iter()
                .map(|d| (d.n, if input { d.is } else { d.os })),
        );
        let mut offs = vec![0isize];
        for (n, s) in dims {
            offs = offs
                .iter()
                .flat_map(|&o| (0..n).map(move |i| o + i * s))
                .collect();
        }
        offs
    }

    /// Allocates one side with random addressed values and sentinels elsewhere.
    pub fn side(&self, input: bool, rng: &mut SmallRng) -> Side {
        let complex = if input {
            self.in_complex()
        } else {
            self.out_complex()
        };
        let offs = self.offsets(input);
        let offs = offs.clone();
        let (lo, hi) = (*offs.iter().min().unwrap(), *offs.iter().max().unwrap());
        // Real-scalar index of element offset o: interleaved 2o (+1 for im); split o (+gap).
        let (scale, im) = if !complex {
            (1, 0)
        } else if self.split {
            (1, (hi - lo + 1) + 3)
        } else {
            (2, 1)
        };
        let base = (-lo * scale + 2) as usize;
        let len = base as isize + hi * scale + im + 3;
        let mut data = vec![SENTINEL; len as usize];
        let mut addressed = Vec::new();
        for o in offs {
            let i = (base as isize + o * scale) as usize;
            addressed.push(i);
            if complex {
                addressed.push((i as isize + im) as usize);
            }
        }
        addressed.sort_unstable();
        addressed.dedup();
        if input {
            for &i in &addressed {
                data[i] = rng.gen_range(-1.0..1.0);
            }
        }
        let offsets = self.offsets(input);
        Side {
            data,
            base,
            addressed,
            im,
            scale,
            complex,
            offsets,
        }
    }
}

impl Case {
    /// The same transforms on contiguous row-major arrays (dims then loops), out of place: what
    /// the reference runs, so that FFTW's own limits on exotic layouts never decide a test.
    pub fn canonical(&self) -> Case {
        let mut c = self.clone();
        c.in_place = false;
        let strides = |shape: Vec<isize>| {
            let mut all = shape;
            all.extend(self.loops.iter().map(|d| d.n));
            let mut st = vec![0isize; all.len()];
            let mut s = 1;
            for i in (0..all.len()).rev() {
                st[i] = s;
                s *= all[i];
            }
            st
        };
        let (is, os) = (strides(self.shape(true)), strides(self.shape(false)));
        let rank = self.dims.len();
        c.dims = (0..rank)
            .map(|i| Dim {
                n: self.dims[i].n,
                is: is[i],
                os: os[i],
            })
            .collect();
        c.loops = (0..self.loops.len())
            .map(|i| Dim {
                n: self.loops[i].n,
                is: is[rank + i],
                os: os[rank + i],
            })
            .collect();
        c
    }
}

/// Copies the logical elements of `from` into `to` (same logical shape, other layout).
pub fn copy_logical(from: &Side, to: &mut Side) {
    for i in 0..from.offsets.len() {
        for part in 0..from.parts() {
            let j = to.index(i, part);
            to.data[j] = from.data[from.index(i, part)];
        }
    }
}

/// Runs a case through an API on the given sides (T-typed copies); returns the output side's
/// data and whether a plan was made.
pub fn run<T: Float>(
    api: &Api,
    case: &Case,
    input: &Side,
    output: &Side,
    flags: c_uint,
) -> Option<(Vec<T>, Vec<T>)> {
    let mut i: Vec<T> = input.data.iter().map(|&x| T::of(x)).collect();
    let mut o: Vec<T> = output.data.iter().map(|&x| T::of(x)).collect();
    let ip = unsafe { i.as_mut_ptr().add(input.base) } as P;
    let (op, op_im) = if case.in_place {
        (ip, unsafe { (ip as *mut T).offset(input.im) } as P)
    } else {
        let p = unsafe { o.as_mut_ptr().add(output.base) };
        (p as P, unsafe { p.offset(output.im) } as P)
    };
    let ip_im = unsafe { (ip as *mut T).offset(input.im) } as P;
    let (r, d, hr, hd) = (
        case.dims.len() as c_int,
        case.dims.as_ptr(),
        case.loops.len() as c_int,
        case.loops.as_ptr(),
    );
    let plan = unsafe {
        match (&case.family, case.split) {
            (Family::Dft(sign), false) => (api.dft)(r, d, hr, hd, ip, op, *sign, flags),
            (Family::Dft(sign), true) => {
                // Split plans are forward; backward swaps real and imaginary parts.
                if *sign < 0 {
                    (api.split_dft)(r, d, hr, hd, ip, ip_im, op, op_im, flags)
                } else {
                    (api.split_dft)(r, d, hr, hd, ip_im, ip, op_im, op, flags)
                }
            }
            (Family::R2c, false) => (api.r2c)(r, d, hr, hd, ip, op, flags),
            (Family::R2c, true) => (api.split_r2c)(r, d, hr, hd, ip, op, op_im, flags),
            (Family::C2r, false) => (api.c2r)(r, d, hr, hd, ip, op, flags),
            (Family::C2r, true) => (api.split_c2r)(r, d, hr, hd, ip, ip_im, op, flags),
            (Family::R2r(k), _) => (api.r2r)(r, d, hr, hd, ip, op, k.as_ptr(), flags),
        }
    };
    if plan.is_null() {
        return None;
    }
    unsafe {
        (api.execute)(plan);
        (api.destroy)(plan);
    }
    Some((i, o))
}

/// Relative L2 distance of `a` from `b` over `idx`.
pub fn rel_err<T: Float>(a: &[T], b: &[T], idx: &[usize]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for &i in idx {
        num += (a[i].f() - b[i].f()).powi(2);
        den += b[i].f().powi(2);
    }
    if den == 0.0 {
        num.sqrt()
    } else {
        (num / den).sqrt()
    }
}

/// FFTW's planner is not thread-safe; tests run in parallel, so reference calls take this.
pub static REFERENCE_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

pub const SIZES: &[isize] = &[
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 20, 24, 25, 27, 30, 31, 32, 36, 49, 64,
    97, 100, 101, 128,
];

/// A random injective layout of the given (n) dims in a random order, with padding and random
/// stride signs; returns strides (elements) per dim.
pub fn random_layout(ns: &[isize], rng: &mut SmallRng) -> Vec<isize> {
    let mut order: Vec<usize> = (0..ns.len()).collect();
    for i in (1..order.len()).rev() {
        let j = rng.gen_range(0..=i);
        order.swap(i, j);
    }
    let mut strides = vec![0isize; ns.len()];
    let mut s = if rng.gen_bool(0.3) {
        rng.gen_range(2..4)
    } else {
        1
    };
    for &d in order.iter().rev() {
        strides[d] = if rng.gen_bool(0.2) { -s } else { s };
        s *= ns[d]
            + if rng.gen_bool(0.3) {
                rng.gen_range(1..3)
            } else {
                0
            };
    }
    strides
}

/// A random guru problem of `family`'s type.
pub fn random_case(rng: &mut SmallRng, family: &Family, split: bool) -> Case {
    let rank = rng.gen_range(0..=3usize);
    let hrank = rng.gen_range(0..=2usize);
    let big = rank <= 1 && rng.gen_bool(0.3);
    let mut ns: Vec<isize> = (0..rank)
        .map(|_| {
            if big {
                [256, 1000, 1024, 4096, 1009, 4099, 65536][rng.gen_range(0..7)]
            } else {
                SIZES[rng.gen_range(0..SIZES.len())]
            }
        })
        .collect();
    if rank >= 3 {
        for n in &mut ns {
            *n = (*n).min(17);
        }
    }
    let mut kinds = Vec::new();
    if let Family::R2r(_) = family {
        kinds = (0..rank).map(|_| rng.gen_range(0..11)).collect();
        for (k, n) in kinds.iter().zip(ns.iter_mut()) {
            if *k == 3 && *n < 2 {
                *n = 2; // REDFT00 needs n >= 2
            }
        }
    }
    let hs: Vec<isize> = (0..hrank).map(|_| rng.gen_range(1..5)).collect();
    let family = match family {
        Family::R2r(_) => Family::R2r(kinds),
        f => f.clone(),
    };
    let mut case = Case {
        family,
        dims: vec![],
        loops: vec![],
        split,
        in_place: false,
    };
    // Layout over the input's and output's shapes, dims then loops.
    case.dims = ns.iter().map(|&n| Dim { n, is: 0, os: 0 }).collect();
    let mut ish = case.shape(true);
    ish.extend(&hs);
    let mut osh = case.shape(false);
    osh.extend(&hs);
    let in_place = rng.gen_bool(0.25) && matches!(case.family, Family::Dft(_) | Family::R2r(_));
    let mut is = random_layout(&ish, rng);
    if in_place {
        // FFTW 3.3.10's planner recurses without end on in-place problems with negative
        // strides, so the reference cannot judge them.
        is.iter_mut().for_each(|s| *s = s.abs());
    }
    let os = if in_place {
        is.clone()
    } else {
        random_layout(&osh, rng)
    };
    case.in_place = in_place;
    case.dims = (0..rank)
        .map(|i| Dim {
            n: ns[i],
            is: is[i],
            os: os[i],
        })
        .collect();
    case.loops = (0..hrank)
        .map(|i| Dim {
            n: hs[i],
            is: is[rank + i],
            os: os[rank + i],
        })
        .collect();
    case
}

pub const ESTIMATE: c_uint = fftx::FFTW_ESTIMATE;

/// Makes a c2r input a real signal's spectrum (FFTW's multi-dimensional c2r assumes Hermitian
/// input; on other input its result depends on its algorithm). `input` is a canonical side.
pub fn make_hermitian<T: Float>(reference: &Api, case: &Case, input: &mut Side) {
    let mut r2c = case.clone();
    r2c.family = Family::R2c;
    let mut shape: Vec<isize> = case.dims.iter().map(|d| d.n).collect();
    shape.extend(case.loops.iter().map(|d| d.n));
    let mut s = 1;
    let mut strides = vec![0; shape.len()];
    for i in (0..shape.len()).rev() {
        strides[i] = s;
        s *= shape[i];
    }
    let rank = case.dims.len();
    r2c.dims = (0..rank)
        .map(|i| Dim {
            n: case.dims[i].n,
            is: strides[i],
            os: case.dims[i].is,
        })
        .collect();
    r2c.loops = (0..case.loops.len())
        .map(|i| Dim {
            n: case.loops[i].n,
            is: strides[rank + i],
            os: case.loops[i].is,
        })
        .collect();
    let mut rng = rng(7);
    let src = r2c.side(true, &mut rng);
    let (_, out) = run::<T>(reference, &r2c, &src, input, ESTIMATE).expect("reference r2c plans");
    input.data = out.iter().map(|x| x.f()).collect();
}

/// Runs `case` through fftx (`ours`, FFTW_ESTIMATE, with whatever thread setting is current)
/// on random input, and the same transforms on contiguous arrays through the reference FFTW;
/// asserts that they agree (relative L2 error <= TOL * log2 N), that nothing outside the
/// output's addressed elements changed, and that an out-of-place input is intact. Returns
/// whether the case was planned (by both; asserts that both or neither did). `label` names the
/// case in failures.
pub fn check_case<T: Float>(
    ours: &Api,
    reference: &Api,
    case: &Case,
    rng: &mut SmallRng,
    label: &str,
) -> bool {
    let canon = case.canonical();
    let mut cin = canon.side(true, rng);
    if case.family == Family::C2r && case.dims.len() > 1 {
        let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        make_hermitian::<T>(reference, &canon, &mut cin);
    }
    let cout = canon.side(false, rng);
    let mut input = case.side(true, rng);
    copy_logical(&cin, &mut input);
    let output = case.side(false, rng);
    let theirs = {
        let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        run::<T>(reference, &canon, &cin, &cout, ESTIMATE)
    };
    let mine = run::<T>(ours, case, &input, &output, ESTIMATE);
    let (Some((_, to)), Some((mi, mo))) = (&theirs, &mine) else {
        assert_eq!(
            theirs.is_some(),
            mine.is_some(),
            "{label}: FFTW planned it: {}, fftx: {}; {case:?}",
            theirs.is_some(),
            mine.is_some()
        );
        return false;
    };
    let (m, side) = if case.in_place {
        (mi, &input)
    } else {
        (mo, &output)
    };
    // Our output, in the canonical layout, against FFTW's.
    let mut mine_canon: Vec<T> = to.clone();
    for i in 0..side.offsets.len() {
        for part in 0..side.parts() {
            mine_canon[cout.index(i, part)] = m[side.index(i, part)];
        }
    }
    let tol = T::TOL * case.n_total().log2().max(1.0);
    let err = rel_err(&mine_canon, to, &cout.addressed);
    assert!(
        err <= tol,
        "{label}: relative error {err:e} > {tol:e}; {case:?}"
    );
    // Nothing outside the addressed elements changes.
    let written: std::collections::HashSet<usize> = side.addressed.iter().copied().collect();
    let before: Vec<T> = if case.in_place {
        input.data.iter().map(|&x| T::of(x)).collect()
    } else {
        output.data.iter().map(|&x| T::of(x)).collect()
    };
    for (i, (&a, &b)) in m.iter().zip(before.iter()).enumerate() {
        if !written.contains(&i) {
            assert_eq!(
                a, b,
                "{label}: element {i} outside the output changed; {case:?}"
            );
        }
    }
    // Out-of-place input is preserved: FFTW's default for every kind but c2r, whose default is
    // FFTW_DESTROY_INPUT (these plans are ESTIMATE), and fftx's multi-dimensional c2r then
    // works in it. Nothing outside the input's elements changes either way.
    if !case.in_place {
        let orig: Vec<T> = input.data.iter().map(|&x| T::of(x)).collect();
        if case.family == Family::C2r {
            let elements: std::collections::HashSet<usize> =
                input.addressed.iter().copied().collect();
            for (i, (&a, &b)) in mi.iter().zip(orig.iter()).enumerate() {
                if !elements.contains(&i) {
                    assert_eq!(
                        a, b,
                        "{label}: input scalar {i} outside the input changed; {case:?}"
                    );
                }
            }
        } else {
            assert_eq!(mi, &orig, "{label}: input modified; {case:?}");
        }
    }
    true
}

/// A GPU program's resident runs (`CudaProgram::run_resident`: every step but the copies from
/// and to the caller's arrays), after one warm-up: the median of `reps` in ms, and, when the
/// environment variable `profile` is `1`, the program's steps timed one at a time, summed per
/// kind (`what ms; ...`). The multi-GPU benchmarks (tests/fmm_bench.rs, tests/dist_bench.rs)
/// time their programs so.
pub fn time_resident<T: fftx::real::Real>(
    exec: &fftx::exec::cuda::program::CudaProgram<T>,
    reps: usize,
    profile: &str,
) -> Result<(f64, String), String> {
    use std::fmt::Write;
    exec.run_resident().map_err(|e| format!("{e:?}"))?;
    let mut ms: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let t = std::time::Instant::now();
            exec.run_resident()
                .map(|()| t.elapsed().as_secs_f64() * 1e3)
        })
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{e:?}"))?;
    ms.sort_by(f64::total_cmp);
    let mut steps = String::new();
    if std::env::var(profile).as_deref() == Ok("1") {
        for (what, t) in exec.profile_resident().map_err(|e| format!("{e:?}"))? {
            let _ = write!(steps, "{what} {t:.3}; ");
        }
    }
    Ok((ms[ms.len() / 2], steps))
}

/// The benches' settings: a whitespace-separated list from the environment, or `default`'s.
pub fn env_list(name: &str, default: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_else(|_| default.into())
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// A number from the environment, or `default` when unset or unparsable.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Where [`run_fftwf_many`] puts a plan's arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alloc {
    /// A `Vec` (pageable host memory).
    Vec,
    /// `fftwf_malloc` (pinned where a GPU is usable).
    FftwMalloc,
    /// `cudaMalloc`-like device memory (needs a GPU).
    Device,
}

/// A batched 1-D c2c layout, strides and distances in complex elements (FFTW's advanced
/// interface); in place: one array, `is == os` and `idist == odist`.
#[derive(Clone, Copy, Debug)]
pub struct Many1d {
    pub n: usize,
    pub howmany: usize,
    pub is: usize,
    pub idist: usize,
    pub os: usize,
    pub odist: usize,
    pub in_place: bool,
}

impl Many1d {
    pub fn packed(n: usize, howmany: usize, in_place: bool) -> Many1d {
        Many1d {
            n,
            howmany,
            is: 1,
            idist: n,
            os: 1,
            odist: n,
            in_place,
        }
    }
    /// `x` (howmany x n complex, packed) laid out as the input side, in `scalars` reals.
    fn place(&self, x: &[f32], scalars: usize) -> Vec<f32> {
        let mut v = vec![0f32; scalars];
        for t in 0..self.howmany {
            for j in 0..self.n {
                let (at, from) = (2 * (t * self.idist + j * self.is), 2 * (t * self.n + j));
                v[at..at + 2].copy_from_slice(&x[from..from + 2]);
            }
        }
        v
    }
    /// The output side's elements of `raw`, packed.
    fn packed_output(&self, raw: &[f32]) -> Vec<f32> {
        let mut out = vec![0f32; 2 * self.n * self.howmany];
        for t in 0..self.howmany {
            for j in 0..self.n {
                let (at, to) = (2 * (t * self.odist + j * self.os), 2 * (t * self.n + j));
                out[to..to + 2].copy_from_slice(&raw[at..at + 2]);
            }
        }
        out
    }
    /// Complex elements a side's array spans.
    fn len(&self, input: bool) -> usize {
        let (s, d) = if input {
            (self.is, self.idist)
        } else {
            (self.os, self.odist)
        };
        (self.n - 1) * s + (self.howmany - 1) * d + 1
    }
}

/// Plans `fftwf_plan_many_dft` on arrays of `alloc` in layout `l` (planning first, as FFTW
/// may overwrite the arrays), fills the input with `x` (howmany x n complex, packed,
/// interleaved), executes; returns the output packed and the plan's printout.
///
/// # Safety
/// Calls the C API on arrays made here.
pub unsafe fn run_fftwf_many(
    l: &Many1d,
    x: &[f32],
    sign: i32,
    flags: c_uint,
    alloc: Alloc,
) -> (Vec<f32>, String) {
    use fftx::exec::cuda::{Memory, Mirror};
    let (ilen, olen) = (l.len(true), l.len(false));
    let scalars = |len: usize| 2 * len;
    let host_in = l.place(x, scalars(if l.in_place { ilen.max(olen) } else { ilen }));
    let host_out = vec![0f32; scalars(olen)];
    let bytes = |v: &[f32]| std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * 4);
    // Each array: its address and what keeps it alive.
    enum Keep {
        Vec(Vec<f32>),
        Fftw(*mut f32),
        Device(Mirror),
    }
    let make = |v: &[f32]| -> (usize, Keep) {
        match alloc {
            Alloc::Vec => {
                let v = vec![0f32; v.len()];
                (v.as_ptr() as usize, Keep::Vec(v))
            }
            Alloc::FftwMalloc => {
                let p = fftx::fftwf_malloc(v.len() * 4) as *mut f32;
                (p as usize, Keep::Fftw(p))
            }
            Alloc::Device => {
                let m = Mirror::new(bytes(v), Memory::Device).expect("device memory");
                (m.ptr, Keep::Device(m))
            }
        }
    };
    let upload = |at: usize, v: &[f32]| match alloc {
        Alloc::Device => {
            cudarc::driver::sys::cuMemcpyHtoD_v2(at as u64, v.as_ptr() as *const _, v.len() * 4);
        }
        _ => std::ptr::copy_nonoverlapping(v.as_ptr(), at as *mut f32, v.len()),
    };
    let download = |at: usize, len: usize| -> Vec<f32> {
        let mut v = vec![0f32; len];
        match alloc {
            Alloc::Device => {
                cudarc::driver::sys::cuMemcpyDtoH_v2(v.as_mut_ptr() as *mut _, at as u64, len * 4);
            }
            _ => std::ptr::copy_nonoverlapping(at as *const f32, v.as_mut_ptr(), len),
        }
        v
    };
    let (a, keep_a) = make(&host_in);
    let (b, keep_b) = if l.in_place {
        (a, None)
    } else {
        let (b, k) = make(&host_out);
        (b, Some(k))
    };
    let n = [l.n as c_int];
    let p = fftx::fftwf_plan_many_dft(
        1,
        n.as_ptr(),
        l.howmany as c_int,
        a as *mut _,
        std::ptr::null(),
        l.is as c_int,
        l.idist as c_int,
        b as *mut _,
        std::ptr::null(),
        l.os as c_int,
        l.odist as c_int,
        sign,
        flags,
    );
    assert!(!p.is_null(), "fftwf_plan_many_dft failed for {l:?}");
    upload(a, &host_in);
    fftx::fftwf_execute(p);
    let raw = download(
        b,
        if l.in_place {
            host_in.len()
        } else {
            scalars(olen)
        },
    );
    let s = fftx::fftwf_sprint_plan(p);
    let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
    libc::free(s as *mut _);
    fftx::fftwf_destroy_plan(p);
    let out = l.packed_output(&raw);
    for k in [Some(keep_a), keep_b].into_iter().flatten() {
        if let Keep::Fftw(p) = k {
            fftx::fftwf_free(p as *mut _);
        }
    }
    (out, text)
}

/// The system FFTW's double-precision transform of `x` (howmany x n complex f32, packed).
pub fn fftw_c2c_f64(x: &[f32], n: usize, howmany: usize, sign: i32) -> Vec<f64> {
    let api = reference("fftw_");
    let mut i: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let mut o = vec![0f64; i.len()];
    let dims = [Dim {
        n: n as isize,
        is: 1,
        os: 1,
    }];
    let loops = [Dim {
        n: howmany as isize,
        is: n as isize,
        os: n as isize,
    }];
    let _lock = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    unsafe {
        let p = (api.dft)(
            1,
            dims.as_ptr(),
            1,
            loops.as_ptr(),
            i.as_mut_ptr() as P,
            o.as_mut_ptr() as P,
            sign,
            ESTIMATE,
        );
        assert!(!p.is_null());
        (api.execute)(p);
        (api.destroy)(p);
    }
    o
}

/// Relative L2 distance of `a` (f32) from `b` (f64).
pub fn rel_l2_f32(a: &[f32], b: &[f64]) -> f64 {
    let num: f64 = a.iter().zip(b).map(|(&x, y)| (x as f64 - y).powi(2)).sum();
    let den: f64 = b.iter().map(|y| y * y).sum();
    (num / den.max(1e-300)).sqrt()
}
