//! fftx against FFTW 3.3.10 on random guru64 problems of every family, both precisions: any
//! rank (0 included), howmany rank 0..2, strides with padding and negative signs, in-place and
//! out-of-place, interleaved and split arrays. Relative L2 error <= TOL * log2(N), and nothing
//! outside the addressed elements may change.
//!
//! The cases are the same on every run (CI is repeatable). To look further, a soak sets
//! `FFTX_DIFF_SEED=<k>` (mixed into every family's seed; a failure names it) and
//! `FFTX_DIFF_CASES=<m>` (m times the cases).

mod common;
use common::*;

fn check_family<T: Float>(family: Family, split: bool, cases: usize, seed: u64) {
    let ours = if T::PREFIX == "fftw_" {
        ours_f64()
    } else {
        ours_f32()
    };
    let reference = reference(T::PREFIX);
    let soak = env_usize("FFTX_DIFF_SEED", 0) as u64;
    let cases = cases * env_usize("FFTX_DIFF_CASES", 1);
    let mut rng = rng(seed ^ soak.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut planned = 0;
    for c in 0..cases {
        let case = random_case(&mut rng, &family, split);
        if std::env::var_os("FFTX_TEST_TRACE").is_some() {
            eprintln!("case {c}: {case:?}");
        }
        let name = format!("case {c} (FFTX_DIFF_SEED={soak})");
        if check_case::<T>(&ours, &reference, &case, &mut rng, &name) {
            planned += 1;
        }
    }
    assert!(
        planned >= cases / 2,
        "only {planned} of {cases} cases planned"
    );
}

#[test]
fn c2c_forward_f64() {
    check_family::<f64>(Family::Dft(-1), false, 150, 1);
}
#[test]
fn c2c_backward_f64() {
    check_family::<f64>(Family::Dft(1), false, 150, 2);
}
#[test]
fn c2c_f32() {
    check_family::<f32>(Family::Dft(-1), false, 100, 3);
    check_family::<f32>(Family::Dft(1), false, 100, 4);
}
#[test]
fn r2c_f64() {
    check_family::<f64>(Family::R2c, false, 150, 5);
}
#[test]
fn r2c_f32() {
    check_family::<f32>(Family::R2c, false, 100, 6);
}
#[test]
fn c2r_f64() {
    check_family::<f64>(Family::C2r, false, 150, 7);
}
#[test]
fn c2r_f32() {
    check_family::<f32>(Family::C2r, false, 100, 8);
}
#[test]
fn r2r_f64() {
    check_family::<f64>(Family::R2r(vec![]), false, 250, 9);
}
#[test]
fn r2r_f32() {
    check_family::<f32>(Family::R2r(vec![]), false, 150, 10);
}
#[test]
fn split_dft_both_signs() {
    check_family::<f64>(Family::Dft(-1), true, 80, 11);
    check_family::<f64>(Family::Dft(1), true, 80, 12);
    check_family::<f32>(Family::Dft(-1), true, 60, 13);
}
#[test]
fn split_r2c_c2r() {
    check_family::<f64>(Family::R2c, true, 80, 14);
    check_family::<f64>(Family::C2r, true, 80, 15);
    check_family::<f32>(Family::R2c, true, 60, 16);
    check_family::<f32>(Family::C2r, true, 60, 17);
}
