//! The distributed in-order 1-D FFTs of passes::fmm (the FMM-FFT with one all-to-all, the
//! six-step baseline with three) run by the CPU program executor over 1 to 8 virtual devices,
//! against the system FFTW 3.3.10: both precisions, both directions, powers of two and not.

mod common;

use common::{Float, P};
use fftx::exec::cpu::layout::ArrayPtr;
use fftx::exec::cpu::program::CpuProgram;
use fftx::fftw_iodim64 as Dim;
use fftx::passes::fmm::{fmm_fft, fmm_fft_with, six_step, FmmParams};
use fftx::problem::{IoDim, Kind, Precision, Problem};
use fftx::program::{Collective, Program, Step};
use fftx::real::Real;
use rand::Rng;

fn problem(n: usize, sign: i32, precision: Precision) -> Problem {
    Problem {
        kind: Kind::Dft { sign },
        dims: vec![IoDim::new(n as isize, 2, 2)],
        loops: vec![],
        precision,
        in_place: false,
    }
}

fn all_to_alls(p: &Program) -> usize {
    p.steps
        .iter()
        .filter(|s| {
            matches!(
                s,
                Step::Collective {
                    kind: Collective::AllToAll,
                    ..
                }
            )
        })
        .count()
}

/// Runs `prog` (a 1-D c2c of `n`, `sign`) on random data through the CPU executor and the same
/// transform through the system FFTW; the relative L2 difference.
fn error<T: Float + Real>(prog: &Program, n: usize, sign: i32, seed: u64) -> f64 {
    prog.validate().unwrap();
    let mut rng = common::rng(seed);
    let data: Vec<T> = (0..2 * n)
        .map(|_| <T as Float>::of(rng.gen::<f64>() - 0.5))
        .collect();
    let mut input = data.clone();
    let mut ours = vec![<T as Float>::of(0.0); 2 * n];
    let unit = std::mem::size_of::<T>();
    let ptr = |v: &mut Vec<T>| {
        let p = v.as_mut_ptr() as usize;
        ArrayPtr::Complex {
            re: p,
            im: p + unit,
        }
    };
    let exec = CpuProgram::<T>::new(prog, 1).unwrap();
    // SAFETY: both arrays hold the n elements the program addresses.
    unsafe { exec.run(ptr(&mut input), ptr(&mut ours)).unwrap() };
    let api = common::reference(if unit == 8 { "fftw_" } else { "fftwf_" });
    let (mut ra, mut rb) = (data.clone(), vec![<T as Float>::of(0.0); 2 * n]);
    let dims = [Dim {
        n: n as isize,
        is: 1,
        os: 1,
    }];
    let _lock = common::REFERENCE_LOCK
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    // SAFETY: FFTW_ESTIMATE plans of n elements on arrays of n elements.
    unsafe {
        let plan = (api.dft)(
            1,
            dims.as_ptr(),
            0,
            std::ptr::null(),
            ra.as_mut_ptr() as P,
            rb.as_mut_ptr() as P,
            sign,
            1 << 6,
        );
        assert!(!plan.is_null());
        (api.execute)(plan);
        (api.destroy)(plan);
    }
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for (x, y) in ours.iter().zip(&rb) {
        num += (x.f() - y.f()).powi(2);
        den += y.f().powi(2);
    }
    (num / den).sqrt()
}

/// The FMM-FFT's bound from the brief: 1e-13 (f64), 2e-6 (f32).
fn fmm_bound<T: Real>() -> f64 {
    if T::PRECISION == Precision::F64 {
        1e-13
    } else {
        2e-6
    }
}

/// The exact algorithms' bound: a few ulps times log2 n.
fn exact_bound<T: Real>(n: usize) -> f64 {
    let eps = if T::PRECISION == Precision::F64 {
        2e-16
    } else {
        1.2e-7
    };
    5.0 * eps * (n as f64).log2().max(1.0)
}

fn check_fmm<T: Float + Real>(n: usize, devices: usize, params: Option<FmmParams>, sign: i32) {
    let devs: Vec<usize> = (0..devices).collect();
    let prob = problem(n, sign, T::PRECISION);
    let prog = match params {
        Some(p) => fmm_fft_with(&prob, &devs, p),
        None => fmm_fft(&prob, &devs),
    }
    .unwrap_or_else(|e| panic!("n {n} devices {devices} {params:?}: {e:?}"));
    assert_eq!(all_to_alls(&prog), 1, "{}", prog.describe());
    let err = error::<T>(&prog, n, sign, n as u64 ^ devices as u64);
    let bound = fmm_bound::<T>();
    eprintln!(
        "fmm {:?} n {n} devices {devices} sign {sign} {params:?}: {err:.2e}",
        T::PRECISION
    );
    assert!(
        err <= bound,
        "FMM-FFT n {n} devices {devices} sign {sign} {params:?}: error {err:.3e} > {bound:.1e}"
    );
}

fn check_six_step<T: Float + Real>(n: usize, devices: usize, sign: i32) {
    let devs: Vec<usize> = (0..devices).collect();
    let prog = six_step(&problem(n, sign, T::PRECISION), &devs).unwrap();
    assert_eq!(all_to_alls(&prog), 3, "{}", prog.describe());
    let err = error::<T>(&prog, n, sign, 7 + n as u64);
    let bound = exact_bound::<T>(n);
    assert!(
        err <= bound,
        "six-step n {n} devices {devices} sign {sign}: error {err:.3e} > {bound:.1e}"
    );
}

fn params(p: usize, leaf: usize, precision: Precision, base: u32) -> Option<FmmParams> {
    Some(FmmParams {
        p,
        leaf,
        terms: FmmParams::terms_for(precision),
        base,
    })
}

#[test]
fn fmm_fft_over_one_to_eight_devices_matches_fftw() {
    for devices in [1, 2, 4, 8] {
        let base = if devices == 8 { 3 } else { 2 };
        for sign in [-1, 1] {
            // Two distributed levels above the base, powers of two and 3·2^k, 5·2^k leaves.
            let cases = [(8, 16), (8, 24), (16, 20)];
            for (p, leaf) in cases {
                let n = (p * leaf) << (base + 2);
                check_fmm::<f64>(n, devices, params(p, leaf, Precision::F64, base), sign);
                check_fmm::<f32>(n, devices, params(p, leaf, Precision::F32, base), sign);
            }
        }
    }
}

#[test]
fn fmm_fft_chosen_parameters() {
    for (n, devices) in [
        (1 << 14, 1),
        (1 << 15, 2),
        (3 << 13, 4),
        (1 << 16, 8),
        (1 << 20, 4),
    ] {
        check_fmm::<f64>(n, devices, None, -1);
        check_fmm::<f32>(n, devices, None, 1);
    }
}

#[test]
fn six_step_over_one_to_eight_devices_matches_fftw() {
    for devices in [1, 2, 4, 8] {
        for n in [1 << 12, 3 * 5 * 7 * 16, 1000, 1 << 15] {
            for sign in [-1, 1] {
                check_six_step::<f64>(n, devices, sign);
                check_six_step::<f32>(n, devices, sign);
            }
        }
    }
}

#[test]
fn what_the_fmm_fft_cannot_lower_says_why() {
    let prob = problem(1 << 12, -1, Precision::F64);
    // Three devices, a prime length, P below the devices.
    assert!(fmm_fft(&prob, &[0, 1, 2]).is_err());
    assert!(fmm_fft(&problem(4099, -1, Precision::F64), &[0]).is_err());
    assert!(fmm_fft_with(
        &prob,
        &[0, 1, 2, 3],
        params(2, 16, Precision::F64, 2).unwrap()
    )
    .is_err());
    assert!(six_step(&problem(13, -1, Precision::F64), &[0, 1]).is_err());
}

/// The error against Q for both precisions at 2^20 (how `FmmParams::terms_for` was chosen):
/// `cargo test --release --test fmm -- --ignored --nocapture terms`.
#[test]
#[ignore]
fn terms_sweep() {
    let n = 1 << 20;
    for q in [4, 6, 8, 10, 12, 14, 16, 18, 20] {
        for (leaf, p) in [(64, 256), (16, 64)] {
            let devs = [0, 1];
            let f = FmmParams {
                p,
                leaf,
                terms: q,
                base: 3,
            };
            let e64 = error::<f64>(
                &fmm_fft_with(&problem(n, -1, Precision::F64), &devs, f).unwrap(),
                n,
                -1,
                1,
            );
            let e32 = error::<f32>(
                &fmm_fft_with(&problem(n, -1, Precision::F32), &devs, f).unwrap(),
                n,
                -1,
                1,
            );
            eprintln!("Q {q} leaf {leaf} P {p}: f64 {e64:.2e} f32 {e32:.2e}");
        }
    }
}

/// The program prints its collectives and FMM stages, and `validate` refuses an all-to-all that
/// misses a pair of devices and an FMM stage outside its buffers.
#[test]
fn collectives_and_fmm_steps_print_and_validate() {
    let prob = problem(2048, -1, Precision::F64);
    let prog = fmm_fft_with(&prob, &[0, 1], params(8, 16, Precision::F64, 2).unwrap()).unwrap();
    let s = prog.describe();
    for what in [
        "(all-to-all (s0",
        "(halo (s0",
        "(all-gather (s0",
        "m2l",
        "post",
    ] {
        assert!(s.contains(what), "{what}: {s}");
    }
    let mut bad = prog.clone();
    for step in &mut bad.steps {
        if let Step::Collective {
            kind: Collective::AllToAll,
            parts,
        } = step
        {
            parts.pop();
        }
    }
    assert!(bad
        .validate()
        .unwrap_err()
        .message
        .contains("misses a pair"));
    let mut bad = prog.clone();
    for step in &mut bad.steps {
        if let Step::Fmm(f) = step {
            f.boxes += 1;
        }
    }
    assert!(bad.validate().unwrap_err().message.contains("outside"));
    let six = six_step(&prob, &[0, 1]).unwrap().describe();
    assert_eq!(six.matches("(all-to-all").count(), 3, "{six}");
}
