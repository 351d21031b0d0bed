//! Issue 17's half-storage transforms on tensor cores: the CPU twin of the GPU kernel
//! (`exec::cuda::tensor_half`, source `src/exec/cuda/tensor_half.cu`) and the lengths it takes.
//!
//! A c2c transform of N = 256 R points (R = 2..16) over binary16 data, by decimation in
//! frequency (n = a + R m, k = K + 256 k1):
//! - step A: for each a < R, the 256-point DFT of y[m] = x[a + R m] as 16 x 16:
//!   C[k1][c] = sum_b F[k1][b] y[16 b + c] (F the 16-point DFT matrix in binary16, a
//!   tensor-core product: binary16 operands, exact products, f32 sums), times
//!   exp(sign 2 pi i k1 c / 256) in f32, rounded to binary16 (the next product's operand);
//!   Y[k1 + 16 k2] = sum_c C[k1][c] F[c][k2]; then Z_a[K] = Y[K] exp(sign 2 pi i a K / N) in
//!   f32, rounded to binary16.
//! - step B: X[K + 256 k1] = sum_a F_R[k1][a] Z_a[K]: for R <= 4 in f32 on the CUDA cores (the
//!   butterflies of [`small_dft`]), for R > 4 a product with the R x R DFT matrix rounded to
//!   binary16; rounded to binary16.
//!
//! The twin differs from the kernel only where the hardware does: the tensor cores' order of
//! f32 accumulation (the twin sums exactly and rounds once) and the twiddles (the kernel's
//! `sincospif` / `__sincosf`, within 1e-6 of the twin's). Each rounding to binary16 the kernel
//! makes, the twin makes; `tests/gpu.rs` holds the two within 1e-4 relative L2. Errors against
//! an f64 DFT: 3.9e-4 - 4.1e-4 relative L2 (H100, `bench/results/2026-12-06-h100-tensor-half.md`),
//! issue 17's bound is 1e-3 log2 N.

use crate::binary16::{f16_from_f32, f32_from_f16};
use num_complex::Complex;

/// R of a length N = 256 R the kernel takes (R = 2..16: step B is one 16 x 16 product), or
/// `None`.
pub fn radix_of(n: usize) -> Option<usize> {
    (n.is_multiple_of(256) && (2..=16).contains(&(n / 256))).then_some(n / 256)
}

fn round16(x: f32) -> f32 {
    f32_from_f16(f16_from_f32(x))
}

fn round16c(z: Complex<f32>) -> Complex<f32> {
    Complex::new(round16(z.re), round16(z.im))
}

/// exp(sign 2 pi i k / n) in f32 (from f64).
fn root(sign: i32, k: usize, n: usize) -> Complex<f32> {
    let a = 2.0 * std::f64::consts::PI * (k % n) as f64 / n as f64;
    Complex::new(a.cos() as f32, (sign as f64 * a.sin()) as f32)
}

/// The R x R DFT matrix's entry (i, j) as a tensor-core operand: binary16 parts.
fn dft16(sign: i32, i: usize, j: usize, r: usize) -> Complex<f32> {
    round16c(root(sign, i * j % r, r))
}

/// A product of binary16 operands summed exactly, then rounded to f32 (the tensor cores' f32
/// accumulation, up to its order).
fn dot(a: impl Iterator<Item = (Complex<f32>, Complex<f32>)>) -> Complex<f32> {
    let mut s = Complex::new(0.0f64, 0.0f64);
    for (x, y) in a {
        s += Complex::new(x.re as f64, x.im as f64) * Complex::new(y.re as f64, y.im as f64);
    }
    Complex::new(s.re as f32, s.im as f32)
}

/// f32 complex product as the kernel writes it (re = a.re b.re - a.im b.im, ...).
fn mul(a: Complex<f32>, b: Complex<f32>) -> Complex<f32> {
    Complex::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
}

/// The kernel's f32 butterflies of R = 2, 3, 4 points (`fxt_small_dft`).
pub fn small_dft(x: &mut [Complex<f32>], sign: i32) {
    let s = sign as f32;
    match x.len() {
        2 => {
            let (a, b) = (x[0], x[1]);
            x[0] = a + b;
            x[1] = a - b;
        }
        3 => {
            let (c, si) = (-0.5f32, s * 0.866_025_4_f32);
            let (a, b, d) = (x[0], x[1], x[2]);
            let (p, m) = (b + d, b - d);
            x[0] = a + p;
            let q = Complex::new(a.re + c * p.re, a.im + c * p.im);
            x[1] = Complex::new(q.re - si * m.im, q.im + si * m.re);
            x[2] = Complex::new(q.re + si * m.im, q.im - si * m.re);
        }
        4 => {
            let (a, b, c, d) = (x[0], x[1], x[2], x[3]);
            let (p, q, u, v) = (a + c, a - c, b + d, b - d);
            let iv = Complex::new(-s * v.im, s * v.re);
            x[0] = p + u;
            x[2] = p - u;
            x[1] = q + iv;
            x[3] = q - iv;
        }
        _ => unreachable!("small_dft takes 2, 3 or 4 points"),
    }
}

/// Step A on one column y (256 binary16 values): its DFT with the kernel's roundings, each
/// output K times exp(sign 2 pi i a K / n) in f32, rounded to binary16.
fn step_a(y: &[Complex<f32>], sign: i32, a: usize, n: usize) -> Vec<Complex<f32>> {
    let mut c = vec![Complex::new(0.0f32, 0.0); 256];
    for k1 in 0..16 {
        for cc in 0..16 {
            let s = dot((0..16).map(|b| (dft16(sign, k1, b, 16), y[16 * b + cc])));
            c[16 * k1 + cc] = round16c(mul(s, root(sign, k1 * cc, 256)));
        }
    }
    let mut z = vec![Complex::new(0.0f32, 0.0); 256];
    for k1 in 0..16 {
        for k2 in 0..16 {
            let s = dot((0..16).map(|cc| (c[16 * k1 + cc], dft16(sign, cc, k2, 16))));
            let k = k1 + 16 * k2;
            z[k] = round16c(mul(s, root(sign, a * k, n)));
        }
    }
    z
}

/// The kernel's transform of one length-N vector `x` of binary16 values (N = 256 R,
/// [`radix_of`]), with the kernel's roundings: binary16 values out.
pub fn transform(x: &[Complex<f32>], sign: i32) -> Vec<Complex<f32>> {
    let n = x.len();
    let r = radix_of(n).expect("a length the tensor-core kernel takes");
    let z: Vec<Vec<Complex<f32>>> = (0..r)
        .map(|a| {
            let y: Vec<Complex<f32>> = (0..256).map(|m| x[a + r * m]).collect();
            step_a(&y, sign, a, n)
        })
        .collect();
    let mut out = vec![Complex::new(0.0f32, 0.0); n];
    for k in 0..256 {
        let col: Vec<Complex<f32>> = (0..r).map(|a| z[a][k]).collect();
        let x: Vec<Complex<f32>> = if r <= 4 {
            let mut c = col;
            small_dft(&mut c, sign);
            c
        } else {
            (0..r)
                .map(|k1| dot((0..r).map(|a| (dft16(sign, k1, a, r), col[a]))))
                .collect()
        };
        for (k1, v) in x.into_iter().enumerate() {
            out[k + 256 * k1] = round16c(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The exact DFT of binary16 values (f64).
    fn dft64(x: &[Complex<f32>], sign: i32) -> Vec<Complex<f64>> {
        let wide: Vec<Complex<f64>> = x
            .iter()
            .map(|v| Complex::new(v.re as f64, v.im as f64))
            .collect();
        crate::exec::twins::direct_dft(&wide, sign)
    }

    #[test]
    fn lengths_are_256_r() {
        for (n, r) in [(512, 2), (768, 3), (3072, 12), (4096, 16)] {
            assert_eq!(radix_of(n), Some(r));
        }
        for n in [128, 256, 255, 257, 1000, 256 * 17, 8192, 16384, 0] {
            assert_eq!(radix_of(n), None, "{n}");
        }
    }

    /// The twin (the kernel's decomposition and roundings) against an f64 DFT on random
    /// binary16 data: within issue 17's 1e-3 log2 N, and at binary16's level (the roundings of
    /// a two- or three-step product, not a wrong index or twiddle, which would give O(1)).
    #[test]
    fn the_twin_is_a_dft_at_binary16_accuracy() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1717);
        for r in [2usize, 3, 4, 5, 8, 12, 16] {
            let n = 256 * r;
            for sign in [-1, 1] {
                let x: Vec<Complex<f32>> = (0..n)
                    .map(|_| {
                        Complex::new(
                            round16(rng.gen_range(-1.0f32..1.0)),
                            round16(rng.gen_range(-1.0f32..1.0)),
                        )
                    })
                    .collect();
                let got = transform(&x, sign);
                let want = dft64(&x, sign);
                let (mut e, mut w) = (0.0f64, 0.0f64);
                for (g, v) in got.iter().zip(&want) {
                    e += (Complex::new(g.re as f64, g.im as f64) - v).norm_sqr();
                    w += v.norm_sqr();
                }
                let rel = (e / w).sqrt();
                assert!(
                    rel < 1e-3 && rel < 1e-3 * (n as f64).log2(),
                    "R {r} sign {sign}: {rel:e}"
                );
                assert!(rel > 1e-5, "R {r}: {rel:e}: the roundings were not made");
            }
        }
    }

    #[test]
    fn small_dfts_are_dfts() {
        for r in 2..=4 {
            for sign in [-1, 1] {
                let x: Vec<Complex<f32>> = (0..r)
                    .map(|i| Complex::new(i as f32 + 0.5, 1.0 - i as f32 * 0.25))
                    .collect();
                let mut y = x.clone();
                small_dft(&mut y, sign);
                for (g, w) in y.iter().zip(dft64(&x, sign)) {
                    assert!((g.re as f64 - w.re).abs() < 1e-5 && (g.im as f64 - w.im).abs() < 1e-5);
                }
            }
        }
    }
}
