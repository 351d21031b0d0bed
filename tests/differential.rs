//! fftx against FFTW 3.3.10 on random guru64 problems of every family, both precisions: any
//! rank (0 included), howmany rank 0..2, strides with padding and negative signs, in-place and
//! out-of-place, interleaved and split arrays. Relative L2 error <= TOL * log2(N), and nothing
//! outside the addressed elements may change.

mod common;
use common::*;
use fftx::fftw_iodim64 as Dim;
use std::os::raw::c_uint;

const ESTIMATE: c_uint = fftx::FFTW_ESTIMATE;

/// Makes a c2r input a real signal's spectrum (FFTW's multi-dimensional c2r assumes Hermitian
/// input; on other input its result depends on its algorithm). `input` is a canonical side.
fn make_hermitian<T: Float>(reference: &Api, case: &Case, input: &mut Side) {
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

fn check_family<T: Float>(family: Family, split: bool, cases: usize, seed: u64) {
    let ours = if T::PREFIX == "fftw_" {
        ours_f64()
    } else {
        ours_f32()
    };
    let reference = reference(T::PREFIX);
    let mut rng = rng(seed);
    let mut planned = 0;
    for c in 0..cases {
        let case = random_case(&mut rng, &family, split);
        let canon = case.canonical();
        let mut cin = canon.side(true, &mut rng);
        if case.family == Family::C2r && case.dims.len() > 1 {
            let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
            make_hermitian::<T>(&reference, &canon, &mut cin);
        }
        let cout = canon.side(false, &mut rng);
        let mut input = case.side(true, &mut rng);
        copy_logical(&cin, &mut input);
        let output = case.side(false, &mut rng);
        if std::env::var_os("FFTX_TEST_TRACE").is_some() {
            eprintln!("case {c}: {case:?}");
        }
        let theirs = {
            let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
            run::<T>(&reference, &canon, &cin, &cout, ESTIMATE)
        };
        let mine = run::<T>(&ours, &case, &input, &output, ESTIMATE);
        let (Some((_, to)), Some((mi, mo))) = (&theirs, &mine) else {
            assert_eq!(
                theirs.is_some(),
                mine.is_some(),
                "case {c}: FFTW planned it: {}, fftx: {}; {case:?}",
                theirs.is_some(),
                mine.is_some()
            );
            continue;
        };
        planned += 1;
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
            "case {c}: relative error {err:e} > {tol:e}; {case:?}"
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
                    "case {c}: element {i} outside the output changed; {case:?}"
                );
            }
        }
        // Out-of-place input is preserved (FFTW's default for every kind but c2r; fftx always).
        if !case.in_place {
            let orig: Vec<T> = input.data.iter().map(|&x| T::of(x)).collect();
            assert_eq!(mi, &orig, "case {c}: input modified; {case:?}");
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
