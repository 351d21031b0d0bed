//! Large 1-D transforms, where the CPU executor runs one transform on several threads (the
//! four-step FFT, src/exec/cpu/fourstep.rs, also inside the r2c/c2r of even lengths), against
//! FFTW 3.3.10: c2c of both signs, r2c and c2r, f32 and f64, in place and out of place, strided
//! and batched, planned after fftw_plan_with_nthreads(1, 2, 4). FFTW_ESTIMATE gives a problem of
//! P points P/4096 threads, up to the setting (a length the four-step splits, all of them): all
//! of these get 4.

mod common;
use common::*;
use fftx::fftw_iodim64 as Dim;
use std::sync::Mutex;

/// The thread setting is global: one test at a time plans under it.
static THREADS: Mutex<()> = Mutex::new(());

fn set_threads(t: i32) {
    fftx::fftw_plan_with_nthreads(t);
    fftx::fftwf_plan_with_nthreads(t);
}

/// `howmany` 1-D transforms of length `n`: the input `stride` elements apart along the
/// transform, the output contiguous (in place: the input's layout), batches one transform
/// apart.
fn case(family: Family, n: isize, howmany: isize, stride: isize, in_place: bool) -> Case {
    let h = n / 2 + 1;
    let (is, os, bi, bo) = match family {
        Family::R2c => (stride, 1, n * stride, h),
        Family::C2r => (stride, 1, h * stride, n),
        _ if in_place => (stride, stride, n * stride, n * stride),
        _ => (stride, 1, n * stride, n),
    };
    let loops = if howmany > 1 {
        vec![Dim {
            n: howmany,
            is: bi,
            os: bo,
        }]
    } else {
        vec![]
    };
    Case {
        family,
        dims: vec![Dim { n, is, os }],
        loops,
        split: false,
        in_place,
    }
}

fn ours<T: Float>() -> Api {
    if T::PREFIX == "fftw_" {
        ours_f64()
    } else {
        ours_f32()
    }
}

/// Each case through [`check_case`] at each thread setting.
fn check<T: Float>(cases: &[(Family, isize, isize, isize, bool)], threads: &[i32], seed: u64) {
    let _one = THREADS.lock().unwrap_or_else(|e| e.into_inner());
    let (ours, reference) = (ours::<T>(), reference(T::PREFIX));
    let mut rng = rng(seed);
    for &t in threads {
        set_threads(t);
        for (family, n, howmany, stride, in_place) in cases {
            let c = case(family.clone(), *n, *howmany, *stride, *in_place);
            let label = format!("{} threads, {}{c:?}", t, T::PREFIX);
            assert!(check_case::<T>(&ours, &reference, &c, &mut rng, &label));
        }
    }
    set_threads(1);
}

const FWD: Family = Family::Dft(-1);
const BWD: Family = Family::Dft(1);

#[test]
fn c2c_f64() {
    let cases = [
        (FWD, 1 << 15, 1, 1, false),
        (BWD, 1 << 17, 1, 1, true),
        (FWD, 1 << 20, 1, 1, false),
        (BWD, 59049, 1, 1, false),   // 3^10
        (FWD, 3 << 16, 1, 1, true),  // 2^16 * 3
        (BWD, 177147, 1, 1, false),  // 3^11
        (FWD, 1 << 18, 1, 2, false), // strided input
        (BWD, 1 << 16, 3, 1, false), // a few batches
        (FWD, 1 << 17, 2, 3, true),  // strided batches in place
    ];
    check::<f64>(&cases, &[4], 1);
    check::<f64>(&cases[1..2], &[1, 2], 2);
}

#[test]
fn c2c_f32() {
    let cases = [
        (FWD, 1 << 18, 1, 1, false),
        (BWD, 1 << 17, 1, 1, false),
        (FWD, 1 << 20, 1, 1, true),
        (BWD, 3 << 16, 1, 1, false),
        (FWD, 177147, 1, 1, true),
        (BWD, 1 << 18, 2, 2, false),
    ];
    check::<f32>(&cases, &[2, 4], 3);
    check::<f32>(&cases[..2], &[1], 4);
}

#[test]
fn r2c_c2r_out_of_place() {
    let cases = [
        (Family::R2c, 1 << 20, 1, 1, false),
        (Family::R2c, 3 << 16, 1, 2, false),
        (Family::C2r, 1 << 17, 1, 1, false),
        (Family::C2r, 1 << 18, 2, 1, false),
        (Family::R2c, 59049 * 4, 1, 1, false), // half length 2 * 3^10
    ];
    check::<f64>(&cases, &[4], 5);
    check::<f32>(&cases, &[2], 6);
    check::<f32>(&cases[..1], &[1], 7);
}

/// In place (FFTW's layout: the real row in the complex array), one transform: the output
/// against FFTW's out of place. (`check_case`'s test of untouched elements does not apply:
/// the complex side is longer than the real one.)
fn r2c_c2r_in_place<T: Float>(n: isize, t: i32, seed: u64) {
    let _one = THREADS.lock().unwrap_or_else(|e| e.into_inner());
    let (ours, reference) = (ours::<T>(), reference(T::PREFIX));
    let mut rng = rng(seed);
    set_threads(t);
    for family in [Family::R2c, Family::C2r] {
        let canon = case(family.clone(), n, 1, 1, false);
        let (cin, cout) = (canon.side(true, &mut rng), canon.side(false, &mut rng));
        let theirs = {
            let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
            run::<T>(&reference, &canon, &cin, &cout, ESTIMATE).expect("FFTW plans it")
        };
        let mut inplace = canon.clone();
        inplace.in_place = true;
        // the sides start at the same index (2): the output is read at the input's array
        let (mine, _) = run::<T>(&ours, &inplace, &cin, &cout, ESTIMATE).expect("fftx plans it");
        let err = rel_err(&mine, &theirs.1, &cout.addressed);
        let tol = T::TOL * (n as f64).log2();
        assert!(
            err <= tol,
            "{family:?} n={n} in place, {t} threads: {err:e} > {tol:e}"
        );
    }
    set_threads(1);
}

#[test]
fn r2c_c2r_in_place_f64() {
    r2c_c2r_in_place::<f64>(1 << 20, 4, 8);
    r2c_c2r_in_place::<f64>(3 << 16, 2, 9);
}

#[test]
fn r2c_c2r_in_place_f32() {
    r2c_c2r_in_place::<f32>(1 << 20, 2, 10);
    r2c_c2r_in_place::<f32>(1 << 19, 4, 11);
}
