//! FFTW 3.3.10's observable behaviour where fftx used to differ (issue 11), each checked against
//! the system FFTW: NULL arrays at plan time, signs other than +-1, unknown r2r kinds and flag
//! bits, in-place layouts whose input and output strides differ, in-place r2c under MEASURE on
//! exactly sized arrays, exact +0 at self-conjugate r2c bins, and embed[0] never read.

mod common;
use common::*;
use fftx::*;
use std::os::raw::{c_int, c_uint, c_void};
use std::ptr::{null, null_mut};

type ManyDft = unsafe extern "C" fn(
    c_int,
    *const c_int,
    c_int,
    P,
    *const c_int,
    c_int,
    c_int,
    P,
    *const c_int,
    c_int,
    c_int,
    c_int,
    c_uint,
) -> P;
type ManyRdft = unsafe extern "C" fn(
    c_int,
    *const c_int,
    c_int,
    P,
    *const c_int,
    c_int,
    c_int,
    P,
    *const c_int,
    c_int,
    c_int,
    c_uint,
) -> P;
type ManyR2r = unsafe extern "C" fn(
    c_int,
    *const c_int,
    c_int,
    P,
    *const c_int,
    c_int,
    c_int,
    P,
    *const c_int,
    c_int,
    c_int,
    *const c_int,
    c_uint,
) -> P;

/// The system FFTW's advanced-interface planners (double precision), execute and destroy.
struct Fftw {
    many_dft: ManyDft,
    many_r2c: ManyRdft,
    many_c2r: ManyRdft,
    many_r2r: ManyR2r,
    guru: Api,
}

fn fftw() -> Fftw {
    let h = dlopen("libfftw3.so.3");
    Fftw {
        many_dft: dlsym(h, "fftw_plan_many_dft"),
        many_r2c: dlsym(h, "fftw_plan_many_dft_r2c"),
        many_c2r: dlsym(h, "fftw_plan_many_dft_c2r"),
        many_r2r: dlsym(h, "fftw_plan_many_r2r"),
        guru: reference("fftw_"),
    }
}

impl Fftw {
    /// Runs a plan the closure makes (on the reference, one thread at a time) and destroys it.
    fn run(&self, make: impl FnOnce(&Fftw) -> P) {
        let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let p = make(self);
        assert!(!p.is_null(), "the reference FFTW plans this");
        unsafe {
            (self.guru.execute)(p);
            (self.guru.destroy)(p);
        }
    }
}

fn random(n: usize, seed: u64) -> Vec<f64> {
    use rand::Rng;
    let mut r = rng(seed);
    (0..n).map(|_| r.gen_range(-1.0..1.0)).collect()
}

fn rel_err(a: &[f64], b: &[f64]) -> f64 {
    let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
    let den: f64 = b.iter().map(|y| y * y).sum();
    (num / den).sqrt()
}

const FLAGS: [c_uint; 3] = [FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT];

/// LAMMPS's PPPM plans: `fftw_plan_many_dft` on NULL arrays, executed later with
/// `fftw_execute_dft` on the real (in-place) data. Every advanced planner, every rigor.
#[test]
fn plans_made_on_null_arrays_run_on_new_arrays() {
    let r = fftw();
    let (n, howmany): ([c_int; 2], c_int) = ([12, 10], 3);
    let (n0, n1) = (n[0] as usize, n[1] as usize);
    let total = n0 * n1 * howmany as usize;
    let rdist = n0 * 2 * (n1 / 2 + 1);
    let cdist = n0 * (n1 / 2 + 1);
    for flags in FLAGS {
        unsafe {
            // c2c in place, as LAMMPS does.
            let p = fftw_plan_many_dft(
                2,
                n.as_ptr(),
                howmany,
                null_mut(),
                null(),
                1,
                total as c_int / howmany,
                null_mut(),
                null(),
                1,
                total as c_int / howmany,
                FFTW_FORWARD,
                flags,
            );
            assert!(!p.is_null(), "c2c on NULL arrays, flags {flags:#x}");
            fftw_execute(p); // its own arrays are NULL: logged, nothing done, no crash
            let x = random(2 * total, 1);
            let mut ours = x.clone();
            fftw_execute_dft(p, ours.as_mut_ptr() as _, ours.as_mut_ptr() as _);
            fftw_destroy_plan(p);
            let mut want = x.clone();
            let w = want.as_mut_ptr() as P;
            r.run(|f| {
                (f.many_dft)(
                    2,
                    n.as_ptr(),
                    howmany,
                    w,
                    null(),
                    1,
                    total as c_int / howmany,
                    w,
                    null(),
                    1,
                    total as c_int / howmany,
                    FFTW_FORWARD as c_int,
                    FFTW_ESTIMATE,
                )
            });
            assert!(rel_err(&ours, &want) < 1e-14, "c2c flags {flags:#x}");

            // r2c in place (FFTW's padded layout for NULL == NULL) and c2r out of place.
            let p = fftw_plan_many_dft_r2c(
                2,
                n.as_ptr(),
                howmany,
                null_mut(),
                null(),
                1,
                rdist as c_int,
                null_mut(),
                null(),
                1,
                cdist as c_int,
                flags,
            );
            assert!(!p.is_null(), "r2c on NULL arrays, flags {flags:#x}");
            let x = random(rdist * howmany as usize, 2);
            let mut ours = x.clone();
            fftw_execute_dft_r2c(p, ours.as_mut_ptr(), ours.as_mut_ptr() as _);
            fftw_destroy_plan(p);
            let mut want = x.clone();
            let w = want.as_mut_ptr() as P;
            r.run(|f| {
                (f.many_r2c)(
                    2,
                    n.as_ptr(),
                    howmany,
                    w,
                    null(),
                    1,
                    rdist as c_int,
                    w,
                    null(),
                    1,
                    cdist as c_int,
                    FFTW_ESTIMATE,
                )
            });
            assert!(rel_err(&ours, &want) < 1e-14, "r2c flags {flags:#x}");

            // c2r: NULL and NULL is in place, so the real rows are padded as for r2c.
            let p = fftw_plan_many_dft_c2r(
                2,
                n.as_ptr(),
                howmany,
                null_mut(),
                null(),
                1,
                cdist as c_int,
                null_mut(),
                null(),
                1,
                rdist as c_int,
                flags,
            );
            assert!(!p.is_null(), "c2r on NULL arrays, flags {flags:#x}");
            let spectrum = want.clone(); // a real signal's spectrum (the r2c above)
            let mut ours = spectrum.clone();
            fftw_execute_dft_c2r(p, ours.as_mut_ptr() as _, ours.as_mut_ptr());
            fftw_destroy_plan(p);
            let mut want = spectrum.clone();
            let w = want.as_mut_ptr() as P;
            r.run(|f| {
                (f.many_c2r)(
                    2,
                    n.as_ptr(),
                    howmany,
                    w,
                    null(),
                    1,
                    cdist as c_int,
                    w,
                    null(),
                    1,
                    rdist as c_int,
                    FFTW_ESTIMATE,
                )
            });
            let real_part = |v: &[f64]| -> Vec<f64> {
                v.chunks(n1 / 2 * 2 + 2)
                    .flat_map(|row| row[..n1].to_vec())
                    .collect()
            };
            assert!(
                rel_err(&real_part(&ours), &real_part(&want)) < 1e-14,
                "c2r flags {flags:#x}"
            );

            // r2r, and the basic and guru planners.
            let kinds = [FFTW_REDFT10 as c_int, FFTW_RODFT11 as c_int];
            let p = fftw_plan_many_r2r(
                2,
                n.as_ptr(),
                howmany,
                null_mut(),
                null(),
                1,
                (n0 * n1) as c_int,
                null_mut(),
                null(),
                1,
                (n0 * n1) as c_int,
                kinds.as_ptr() as _,
                flags,
            );
            assert!(!p.is_null(), "r2r on NULL arrays");
            let x = random(total, 3);
            let mut ours = vec![0.0; total];
            let mut xin = x.clone();
            fftw_execute_r2r(p, xin.as_mut_ptr(), ours.as_mut_ptr());
            fftw_destroy_plan(p);
            let mut xin = x.clone();
            let mut want = vec![0.0; total];
            let (i, o) = (xin.as_mut_ptr() as P, want.as_mut_ptr() as P);
            r.run(|f| {
                (f.many_r2r)(
                    2,
                    n.as_ptr(),
                    howmany,
                    i,
                    null(),
                    1,
                    (n0 * n1) as c_int,
                    o,
                    null(),
                    1,
                    (n0 * n1) as c_int,
                    kinds.as_ptr(),
                    FFTW_ESTIMATE,
                )
            });
            assert!(rel_err(&ours, &want) < 1e-14, "r2r flags {flags:#x}");

            for p in [
                fftw_plan_dft_1d(16, null_mut(), null_mut(), FFTW_BACKWARD, flags),
                fftw_plan_dft_r2c_3d(4, 5, 6, null_mut(), null_mut(), flags),
                fftw_plan_r2r_1d(9, null_mut(), null_mut(), FFTW_DHT, flags),
                fftw_plan_guru_dft(
                    1,
                    [fftw_iodim { n: 8, is: 1, os: 1 }].as_ptr(),
                    0,
                    null(),
                    null_mut(),
                    null_mut(),
                    FFTW_FORWARD,
                    flags,
                ),
                fftw_plan_guru64_split_dft(
                    1,
                    [fftw_iodim64 { n: 8, is: 1, os: 1 }].as_ptr(),
                    0,
                    null(),
                    null_mut(),
                    null_mut(),
                    null_mut(),
                    null_mut(),
                    flags,
                ),
            ] {
                assert!(
                    !p.is_null(),
                    "basic/guru planner on NULL arrays, flags {flags:#x}"
                );
                fftw_execute(p);
                fftw_destroy_plan(p);
            }
        }
    }
}

/// FFTW_WISDOM_ONLY never touches the arrays either: with wisdom, NULL arrays plan.
#[test]
fn wisdom_only_plans_on_null_arrays() {
    let mut a = vec![[0.0f64; 2]; 20];
    unsafe {
        let p = fftw_plan_dft_1d(
            20,
            a.as_mut_ptr(),
            a.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_MEASURE,
        );
        fftw_destroy_plan(p);
        let q = fftw_plan_dft_1d(
            20,
            null_mut(),
            null_mut(),
            FFTW_FORWARD,
            FFTW_MEASURE | FFTW_WISDOM_ONLY,
        );
        assert!(!q.is_null());
        fftw_destroy_plan(q);
    }
}

/// FFTW computes a forward transform for FFTW_FORWARD (-1) and a backward one for every other
/// sign (it swaps real and imaginary parts unless sign == -1).
#[test]
fn signs_other_than_forward_are_backward() {
    let x = random(2 * 30, 4);
    let run = |sign: c_int| unsafe {
        let mut input = x.clone();
        let mut out = vec![0.0; 60];
        let p = fftw_plan_dft_1d(
            30,
            input.as_mut_ptr() as _,
            out.as_mut_ptr() as _,
            sign,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null(), "sign {sign}");
        fftw_execute(p);
        fftw_destroy_plan(p);
        out
    };
    let backward = run(FFTW_BACKWARD);
    let mut want = vec![0.0; 60];
    let mut input = x.clone();
    let (i, o) = (input.as_mut_ptr() as P, want.as_mut_ptr() as P);
    fftw().run(|f| unsafe {
        (f.many_dft)(
            1,
            [30].as_ptr(),
            1,
            i,
            null(),
            1,
            30,
            o,
            null(),
            1,
            30,
            2,
            FFTW_ESTIMATE,
        )
    });
    assert!(
        rel_err(&backward, &want) < 1e-14,
        "sign 2 in FFTW is backward"
    );
    for sign in [0, 2, -5, 7] {
        assert_eq!(run(sign), backward, "sign {sign}");
    }
}

/// FFTW maps an r2r kind it does not know to FFTW_R2HC.
#[test]
fn unknown_r2r_kinds_compute_r2hc() {
    let x = random(24, 5);
    let run = |kind: c_int| unsafe {
        let mut input = x.clone();
        let mut out = vec![0.0; 24];
        let p = fftw_plan_r2r_1d(
            24,
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            kind as _,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null(), "kind {kind}");
        fftw_execute(p);
        fftw_destroy_plan(p);
        out
    };
    let r2hc = run(FFTW_R2HC as c_int);
    for kind in [11, -1, 1000] {
        assert_eq!(run(kind), r2hc, "kind {kind}");
    }
}

/// Flag bits FFTW does not know, and FFTW_DESTROY_INPUT with FFTW_PRESERVE_INPUT, plan.
#[test]
fn unknown_flag_bits_and_contradictory_flags_plan() {
    let mut a = random(32, 6);
    let mut b = vec![0.0; 32];
    for flags in [
        FFTW_ESTIMATE | (1 << 25),
        FFTW_ESTIMATE | (1 << 31),
        FFTW_ESTIMATE | FFTW_DESTROY_INPUT | FFTW_PRESERVE_INPUT,
        1 << 30,
    ] {
        unsafe {
            let p = fftw_plan_dft_1d(
                16,
                a.as_mut_ptr() as _,
                b.as_mut_ptr() as _,
                FFTW_FORWARD,
                flags,
            );
            assert!(!p.is_null(), "flags {flags:#x}");
            fftw_destroy_plan(p);
        }
    }
}

/// Runs the same guru64 c2c/r2c problem in place on both libraries and compares.
fn same_in_place(
    kind: Family,
    dims: &[fftw_iodim64],
    loops: &[fftw_iodim64],
    len: usize,
    seed: u64,
) {
    let x = random(len, seed);
    let mut ours = x.clone();
    let mut want = x.clone();
    let ours_api = ours_f64();
    let plan = |api: &Api, a: P| unsafe {
        match kind {
            Family::Dft(sign) => (api.dft)(
                dims.len() as c_int,
                dims.as_ptr(),
                loops.len() as c_int,
                loops.as_ptr(),
                a,
                a,
                sign,
                FFTW_ESTIMATE,
            ),
            Family::R2c => (api.r2c)(
                dims.len() as c_int,
                dims.as_ptr(),
                loops.len() as c_int,
                loops.as_ptr(),
                a,
                a,
                FFTW_ESTIMATE,
            ),
            Family::C2r => (api.c2r)(
                dims.len() as c_int,
                dims.as_ptr(),
                loops.len() as c_int,
                loops.as_ptr(),
                a,
                a,
                FFTW_ESTIMATE,
            ),
            Family::R2r(_) => unreachable!(),
        }
    };
    let p = plan(&ours_api, ours.as_mut_ptr() as P);
    assert!(
        !p.is_null(),
        "fftx plans {kind:?} {dims:?} {loops:?} in place"
    );
    unsafe {
        (ours_api.execute)(p);
        (ours_api.destroy)(p);
    }
    let w = want.as_mut_ptr() as P;
    fftw().run(|f| plan(&f.guru, w));
    assert!(
        rel_err(&ours, &want) < 1e-14,
        "{kind:?} {dims:?} {loops:?}: {}",
        rel_err(&ours, &want)
    );
}

fn d(n: isize, is: isize, os: isize) -> fftw_iodim64 {
    fftw_iodim64 { n, is, os }
}

/// In-place problems whose input and output strides differ, which FFTW 3.3.10 plans (its
/// `make check` has them): rank-0 transposes, r2c/c2r with a vector loop and unpadded
/// strides, a 2-D transform written transposed.
#[test]
fn in_place_layouts_with_other_strides_match_fftw() {
    // bench's i1v2:2:30x15:4:2x2:1:1: a 2 x 15 transpose of pairs, in place.
    same_in_place(
        Family::Dft(-1),
        &[],
        &[d(2, 2, 30), d(15, 4, 2), d(2, 1, 1)],
        2 * 60,
        7,
    );
    for (i, j, v) in [(3, 5, 1), (4, 4, 2), (16, 7, 3), (5, 16, 5)] {
        same_in_place(
            Family::Dft(1),
            &[],
            &[d(i, v, j * v), d(j, i * v, v), d(v, 1, 1)],
            2 * (i * j * v) as usize,
            8,
        );
    }
    // ifr144v72 and ibr8x10v6 as bench lays them out.
    same_in_place(Family::R2c, &[d(144, 1, 1)], &[d(72, 146, 73)], 146 * 72, 9);
    same_in_place(Family::C2r, &[d(10, 1, 1)], &[d(6, 6, 10)], 2 * 6 * 6, 10);
    // A 2-D c2c written transposed, in place.
    same_in_place(Family::Dft(-1), &[d(4, 1, 4), d(4, 4, 1)], &[], 2 * 16, 11);
}

/// In-place layouts FFTW itself refuses still compute the transform in fftx (a superset:
/// reading all input before writing any output).
#[test]
fn in_place_layouts_fftw_refuses_are_still_transforms() {
    let x = random(2 * 16, 12);
    let mut a = x.clone();
    let dims = [fftw_iodim { n: 8, is: 1, os: 2 }];
    unsafe {
        let p = fftw_plan_guru_dft(
            1,
            dims.as_ptr(),
            0,
            null(),
            a.as_mut_ptr() as _,
            a.as_mut_ptr() as _,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        fftw_execute(p);
        fftw_destroy_plan(p);
    }
    let mut want = vec![0.0; 16];
    let mut input: Vec<f64> = x[..16].to_vec();
    let (i, o) = (input.as_mut_ptr() as P, want.as_mut_ptr() as P);
    fftw().run(|f| unsafe {
        (f.many_dft)(
            1,
            [8].as_ptr(),
            1,
            i,
            null(),
            1,
            8,
            o,
            null(),
            1,
            8,
            -1,
            FFTW_ESTIMATE,
        )
    });
    let got: Vec<f64> = (0..8).flat_map(|k| [a[4 * k], a[4 * k + 1]]).collect();
    assert!(rel_err(&got, &want) < 1e-14);
}

/// In-place r2c on arrays of exactly FFTW's documented size, under every planner rigor (the
/// planner's timing scratch once held only the input's n reals: a heap overflow that the
/// memory checker run of this test catches).
#[test]
fn in_place_r2c_under_measure_on_exact_arrays() {
    for flags in [FFTW_MEASURE, FFTW_PATIENT, FFTW_EXHAUSTIVE] {
        for n in [3usize, 4, 5, 16, 64, 100] {
            let len = 2 * (n / 2 + 1);
            let x = random(len, n as u64);
            let mut buf = x.clone();
            buf.shrink_to_fit();
            let mut want = x.clone();
            unsafe {
                let p = fftw_plan_dft_r2c_1d(
                    n as c_int,
                    buf.as_mut_ptr(),
                    buf.as_mut_ptr() as _,
                    flags,
                );
                assert!(!p.is_null());
                buf.copy_from_slice(&x); // MEASURE may overwrite the arrays, as in FFTW
                fftw_execute(p);
                fftw_destroy_plan(p);
                let w = want.as_mut_ptr() as P;
                fftw().run(|f| {
                    (f.many_r2c)(
                        1,
                        [n as c_int].as_ptr(),
                        1,
                        w,
                        null(),
                        1,
                        len as c_int,
                        w,
                        null(),
                        1,
                        len as c_int / 2,
                        FFTW_ESTIMATE,
                    )
                });
            }
            assert!(rel_err(&buf, &want) < 1e-14, "n = {n}, flags {flags:#x}");
        }
    }
}

/// Bit patterns of the imaginary parts at the self-conjugate bins of an r2c output.
fn self_conjugate_imaginary_bits<T: Copy>(
    out: &[T],
    shape: &[usize],
    bits: impl Fn(T) -> u64,
) -> Vec<u64> {
    fftx::problem::self_conjugate_bins(shape)
        .iter()
        .map(|&k| bits(out[2 * k + 1]))
        .collect()
}

/// FFTW's r2c gives exactly +0 (bit pattern 0) as the imaginary part of every bin that is its
/// own conjugate, in every rank and both precisions; ImageMagick's phase images depend on it.
#[test]
fn self_conjugate_bins_are_exactly_plus_zero() {
    let shapes: [&[usize]; 7] = [
        &[8],
        &[9],
        &[70, 70],
        &[6, 7],
        &[4, 6, 8],
        &[5, 4, 10],
        &[2, 2, 2, 6],
    ];
    let refs = (fftw(), dlopen("libfftw3f.so.3"));
    let many_r2c_f: ManyRdft = dlsym(refs.1, "fftwf_plan_many_dft_r2c");
    for shape in shapes {
        let n: Vec<c_int> = shape.iter().map(|&x| x as c_int).collect();
        let (real, complex) = (
            shape.iter().product::<usize>(),
            shape[..shape.len() - 1].iter().product::<usize>() * (shape[shape.len() - 1] / 2 + 1),
        );
        for seed in 0..3 {
            let x = random(real, 20 + seed);
            // f64, out of place, against FFTW.
            let mut input = x.clone();
            let mut out = vec![7.0; 2 * complex];
            unsafe {
                let p = fftw_plan_dft_r2c(
                    n.len() as c_int,
                    n.as_ptr() as _,
                    input.as_mut_ptr(),
                    out.as_mut_ptr() as _,
                    FFTW_ESTIMATE,
                );
                fftw_execute(p);
                fftw_destroy_plan(p);
            }
            let mut want = vec![0.0; 2 * complex];
            let (i, o) = (input.as_mut_ptr() as P, want.as_mut_ptr() as P);
            refs.0.run(|f| unsafe {
                (f.many_r2c)(
                    n.len() as c_int,
                    n.as_ptr(),
                    1,
                    i,
                    null(),
                    1,
                    real as c_int,
                    o,
                    null(),
                    1,
                    complex as c_int,
                    FFTW_ESTIMATE,
                )
            });
            let ours = self_conjugate_imaginary_bits(&out, shape, f64::to_bits);
            assert_eq!(
                ours,
                self_conjugate_imaginary_bits(&want, shape, f64::to_bits),
                "f64 {shape:?}: FFTW's bits"
            );
            assert!(ours.iter().all(|&b| b == 0), "f64 {shape:?}: {ours:x?}");
            // f32, in place (FFTW's padded rows).
            let last = shape[shape.len() - 1];
            let rows = real / last;
            let padded = 2 * (last / 2 + 1);
            let mut buf = vec![0.0f32; rows * padded];
            for r in 0..rows {
                for c in 0..last {
                    buf[r * padded + c] = x[r * last + c] as f32;
                }
            }
            let mut theirs = buf.clone();
            unsafe {
                let p = fftwf_plan_dft_r2c(
                    n.len() as c_int,
                    n.as_ptr() as _,
                    buf.as_mut_ptr(),
                    buf.as_mut_ptr() as _,
                    FFTW_ESTIMATE,
                );
                fftwf_execute(p);
                fftwf_destroy_plan(p);
            }
            let t = theirs.as_mut_ptr() as P;
            let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
            unsafe {
                let p = many_r2c_f(
                    n.len() as c_int,
                    n.as_ptr(),
                    1,
                    t,
                    null(),
                    1,
                    (rows * padded) as c_int,
                    t,
                    null(),
                    1,
                    complex as c_int,
                    FFTW_ESTIMATE,
                );
                (refs.0.guru.execute)(p); // same signature in both precisions
                (refs.0.guru.destroy)(p);
            }
            let bits32 = |v: f32| v.to_bits() as u64;
            let ours = self_conjugate_imaginary_bits(&buf, shape, bits32);
            assert_eq!(
                ours,
                self_conjugate_imaginary_bits(&theirs, shape, bits32),
                "f32 {shape:?}: FFTW's bits"
            );
            assert!(ours.iter().all(|&b| b == 0), "f32 {shape:?}: {ours:x?}");
        }
    }
}

/// FFTW never reads `inembed[0]` or `onembed[0]`: garbage there changes nothing.
#[test]
fn embed_zero_is_never_read() {
    let (n, howmany) = ([5, 6], 2);
    let embed = [5, 8];
    let garbage = [i32::MIN, 8];
    let len = 2 * howmany * 40;
    let x = random(len, 30);
    let run = |ie: *const c_int, oe: *const c_int| unsafe {
        let mut input = x.clone();
        let mut out = vec![0.0; len];
        let p = fftw_plan_many_dft(
            2,
            n.as_ptr(),
            howmany as c_int,
            input.as_mut_ptr() as _,
            ie,
            1,
            40,
            out.as_mut_ptr() as _,
            oe,
            1,
            40,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        fftw_execute(p);
        fftw_destroy_plan(p);
        out
    };
    assert_eq!(
        run(garbage.as_ptr(), garbage.as_ptr()),
        run(embed.as_ptr(), embed.as_ptr())
    );
    // Rank 1: the embed array is never read at all.
    let one = |e: *const c_int| unsafe {
        let mut input = x.clone();
        let mut out = vec![0.0; len];
        let p = fftw_plan_many_dft(
            1,
            [20].as_ptr(),
            2,
            input.as_mut_ptr() as _,
            e,
            1,
            20,
            out.as_mut_ptr() as _,
            e,
            1,
            20,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        fftw_execute(p);
        fftw_destroy_plan(p);
        out
    };
    let bad = [-3];
    assert_eq!(one(bad.as_ptr()), one(null()));
    let _ = null::<c_void>();
}
