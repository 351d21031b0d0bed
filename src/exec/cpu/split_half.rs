//! Issue 17's split-half FFT (fp32 accuracy from binary16 tensor-core products): the CPU twin
//! of the GPU kernel of `exec::cuda::split_half`, the eligibility rule both share, and the
//! `FFTX_TENSOR_CORES` setting.
//!
//! The transform: batched 1-D c2c f32 of N = 16^K points (K = 1..6), or N = 16^K r (r = 2, 4,
//! 8; K >= 3; N <= 2^26): K radix-16 Stockham stages, then (r > 1) one radix-r stage, the tail.
//! Stage s (p = 16^s) takes item i of a transform (i < N/16, k = i mod p), the column
//! x[i + r N/16] (r = 0..15) times the twiddles exp(sign 2 pi i r k / (16 p)) (f32, by
//! [`sincospi`]; the product rounded as a multiply then a subtract / add, as the kernel's
//! `__fmul_rn`/`__fadd_rn`), and writes its 16-point DFT to y[(i - k) 16 + k + q p]. The DFT is
//! the seed's Algorithm 1: the column's scale s is the least power of two >= its largest
//! |re| or |im| ([`scale_of`]); each part of x/s is split as hi + lo/2048 (hi, lo binary16,
//! rounded to nearest even), the DFT matrix F likewise (`Fhi + Flo/2048`, [`dft_parts`]), and
//! the result is s (Fhi.hi + (Fhi.lo + Flo.hi)/2048): twelve real 16x16 products (binary16
//! products are exact in f32), each a 16-term sum added to its accumulator in the kernel's
//! order, combined in f32. Dropping the lo terms gives binary16 accuracy (about 3e-4); with
//! them the error is f32's (2e-7 - 4e-7 on an H100, `bench/results/2026-11-26-h100-split-half.md`).
//! The tail ([`tail_stage`]) is plain f32 on the CUDA cores: a DFT of at most 8 points is a
//! few additions, which the tensor cores and the split would only slow.
//!
//! The twin differs from the kernel only where the hardware does: the tensor cores' f32
//! accumulation inside a product (the twin adds in order with f32 rounding) and CUDA's
//! `sincospif` (within 1 ulp of the twin's correctly rounded twiddles); `tests/gpu.rs` holds
//! them within 1e-6 relative.
//!
//! `FFTX_TENSOR_CORES` (`backend::tensor_cores_setting`): `split` lets an `fftwf_` plan the planner places on the
//! GPU run the kernel (under ESTIMATE always, under MEASURE where it times faster); plans on
//! the CPU are unchanged. `split-twin` is a test hook: every eligible plan on host arrays runs
//! this twin on the CPU (`cpu-split-half` in the printed plan), so CI exercises the planner's
//! wiring and the printed plan without a GPU. Anything the path cannot take ([`shape_of`])
//! takes the ordinary path, said at `FFTX_LOG=info`.

use crate::binary16::{f16_from_f32, f32_from_f16};
use crate::error::{Error, Result};
use crate::exec::cpu::layout::{gather_complex, instance_offsets, scatter_complex};
use crate::exec::cpu::layout::{ArrayPtr, Strided};
use crate::problem::{Kind, Precision, Problem};
use num_complex::Complex;

/// The lo parts' factor: x = hi + lo / 2048.
pub const LO: f32 = 2048.0;
/// At most 16^6 radix-16 stages.
pub const MAX_STAGES: u32 = 6;
/// At most 2^26 points: the kernels' twiddle angles, in 2^-32 turns, are multiples of 2^6,
/// whose 24 significant bits convert to f32 exactly.
pub const MAX_LOG_N: u32 = 26;

/// How the split-half path takes a length: `stages` radix-16 stages (16^K), then, for a length
/// 16^K r, a radix-`tail` stage (`tail` = 1: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub stages: u32,
    pub tail: u32,
}

impl Shape {
    /// The shape of length n, or why the path cannot take it: 16^K (K = 1..6), or 16^K r (r =
    /// 2, 4, 8) with K >= 3 (the radix-16 passes of such a length take whole runs of groups, 2
    /// or 16 a tile: `exec::cuda::split_half::passes`), up to 2^26.
    pub fn of(n: u64) -> std::result::Result<Shape, String> {
        let log = n.trailing_zeros();
        let shape = Shape {
            stages: log / 4,
            tail: 1 << (log % 4),
        };
        let takes = n.is_power_of_two()
            && log <= MAX_LOG_N
            && (1..=MAX_STAGES).contains(&shape.stages)
            && (shape.tail == 1 || shape.stages >= 3);
        if takes {
            Ok(shape)
        } else {
            Err(format!(
                "length {n} (the split-half path takes 16^K, K = 1..6, and 16^K r, r = 2, 4, 8, K >= 3, up to 2^{MAX_LOG_N})"
            ))
        }
    }

    /// The length: 16^stages tail.
    pub fn n(&self) -> usize {
        (1usize << (4 * self.stages)) * self.tail as usize
    }

    /// "16^K", or "16^K x r".
    pub fn name(&self) -> String {
        match self.tail {
            1 => format!("16^{}", self.stages),
            r => format!("16^{} x {r}", self.stages),
        }
    }
}

/// The shape of `p` on the split-half path, or why the path cannot take it.
pub fn shape_of(p: &Problem) -> Result<Shape> {
    if p.precision != Precision::F32 {
        return Err(Error::unsupported(
            "double precision (the split-half path is f32)",
        ));
    }
    if !matches!(p.kind, Kind::Dft { .. }) {
        return Err(Error::unsupported(format!(
            "{} (the split-half path is c2c)",
            p.kind.name()
        )));
    }
    let [d] = &p.dims[..] else {
        return Err(Error::unsupported(format!(
            "rank {} (the split-half path is 1-D)",
            p.dims.len()
        )));
    };
    let shape = Shape::of(d.n as u64).map_err(Error::unsupported)?;
    if p.howmany() == 0 {
        return Err(Error::unsupported("an empty batch"));
    }
    if p.in_place && !p.batches_independent_in_place() {
        return Err(Error::unsupported(
            "an in-place layout whose transforms share memory",
        ));
    }
    Ok(shape)
}

/// (sin(pi x), cos(pi x)) rounded to f32: reduced exactly to [-1/4, 1/4] around a multiple of
/// 1/2 (exact values there), then f64 `sin_cos`.
pub fn sincospi(x: f64) -> (f32, f32) {
    let r = x - 2.0 * (x / 2.0).round(); // [-1, 1], exact
    let q = (2.0 * r).round();
    let t = r - q / 2.0; // [-1/4, 1/4], exact
    let (s, c) = (std::f64::consts::PI * t).sin_cos();
    let (s, c) = match (q as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    };
    (s as f32, c as f32)
}

/// `v` as hi + lo/2048, each binary16 (rounded to nearest even).
pub fn split(v: f32) -> (u16, u16) {
    let hi = f16_from_f32(v);
    (hi, f16_from_f32((v - f32_from_f16(hi)) * LO))
}

/// The least power of two >= `mx` (>= 0): the scale of a column (1 for 0; at most 2^127).
pub fn scale_of(mx: f32) -> f32 {
    let u = mx.to_bits();
    if u == 0 {
        return 1.0;
    }
    let mut e = u & 0x7f80_0000;
    if u & 0x7f_ffff != 0 {
        e += 0x80_0000;
    }
    f32::from_bits(e.min(0x7f00_0000))
}

/// The binary16 parts of the 16-point DFT matrix, by j = (q r) mod 16: rows Fr hi, Fi hi,
/// -Fi hi, Fr lo, Fi lo, -Fi lo (F = exp(sign 2 pi i j / 16) = Fr + i Fi); the kernel's
/// fragments are built from this table.
pub fn dft_parts(sign: i32) -> [[u16; 16]; 6] {
    let mut t = [[0u16; 16]; 6];
    for (row, part) in t.iter_mut().enumerate() {
        for (j, h) in part.iter_mut().enumerate() {
            let (s, c) = sincospi(2.0 * sign as f64 * j as f64 / 16.0);
            let (hi, lo) = split([c, s, -s][row % 3]);
            *h = if row < 3 { hi } else { lo };
        }
    }
    t
}

/// The stage twiddle exp(sign 2 pi i j / span) in f32, as the kernel computes it (the angle
/// exact in f64).
pub fn twiddle(sign: i32, j: u64, span: u64) -> Complex<f32> {
    let (s, c) = sincospi(2.0 * sign as f64 * j as f64 / span as f64);
    Complex::new(c, s)
}

/// u w in f32, each part a multiply then a subtract / add (the kernels' `__fmul_rn`,
/// `__fsub_rn`, `__fadd_rn`).
fn mul(u: Complex<f32>, w: Complex<f32>) -> Complex<f32> {
    Complex::new(u.re * w.re - u.im * w.im, u.re * w.im + u.im * w.re)
}

/// One k = 16 product of the tensor cores' m16n8k16 for one output: the 16 exact products
/// summed in order in f32.
fn dot(a: &[f32; 16], b: &[f32; 16]) -> f32 {
    a.iter().zip(b).fold(0.0f32, |s, (x, y)| s + x * y)
}

/// The DFT matrix parts as f32, [part][q][r].
fn matrix(sign: i32) -> Box<[[[f32; 16]; 16]; 6]> {
    let t = dft_parts(sign);
    let mut f = Box::new([[[0f32; 16]; 16]; 6]);
    for (w, row) in t.iter().enumerate() {
        for q in 0..16 {
            for r in 0..16 {
                f[w][q][r] = f32_from_f16(row[(q * r) % 16]);
            }
        }
    }
    f
}

/// The 16-point split DFT of one twiddled column into `out[q]` (`lo`: with the lo terms;
/// without them, binary16 accuracy: for tests that the split matters).
fn dft16(
    f: &[[[f32; 16]; 16]; 6],
    col: &[Complex<f32>; 16],
    lo: bool,
    out: &mut [Complex<f32>; 16],
) {
    let mx = col
        .iter()
        .fold(0f32, |m, v| m.max(v.re.abs()).max(v.im.abs()));
    let scale = scale_of(mx);
    let inv = 1.0 / scale;
    let (mut xrh, mut xih, mut xrl, mut xil) = ([0f32; 16], [0f32; 16], [0f32; 16], [0f32; 16]);
    for r in 0..16 {
        let (rh, rl) = split(col[r].re * inv);
        let (ih, il) = split(col[r].im * inv);
        (xrh[r], xih[r]) = (f32_from_f16(rh), f32_from_f16(ih));
        (xrl[r], xil[r]) = (f32_from_f16(rl), f32_from_f16(il));
    }
    for q in 0..16 {
        // The kernel's mma order: r1 = F0.Xrh + F2.Xih; i1 = F0.Xih + F1.Xrh;
        // r2 = F0.Xrl + F2.Xil + F3.Xrh + F5.Xih; i2 = F0.Xil + F1.Xrl + F4.Xrh + F3.Xih.
        let r1 = dot(&f[0][q], &xrh) + dot(&f[2][q], &xih);
        let i1 = dot(&f[0][q], &xih) + dot(&f[1][q], &xrh);
        let (mut r2, mut i2) = (0f32, 0f32);
        if lo {
            r2 = dot(&f[0][q], &xrl) + dot(&f[2][q], &xil);
            r2 = r2 + dot(&f[3][q], &xrh) + dot(&f[5][q], &xih);
            i2 = dot(&f[0][q], &xil) + dot(&f[1][q], &xrl);
            i2 = i2 + dot(&f[4][q], &xrh) + dot(&f[3][q], &xih);
        }
        out[q] = Complex::new(
            scale * (r1 + r2 * (1.0 / LO)),
            scale * (i1 + i2 * (1.0 / LO)),
        );
    }
}

/// One radix-16 Stockham stage (`p` = 16^s) over the packed transforms of `x` into `y`.
pub fn stage(x: &[Complex<f32>], y: &mut [Complex<f32>], n: usize, p: usize, sign: i32, lo: bool) {
    let f = matrix(sign);
    let m = n / 16;
    let mut col = [Complex::new(0f32, 0f32); 16];
    let mut out = col;
    for (xb, yb) in x.chunks_exact(n).zip(y.chunks_exact_mut(n)) {
        for i in 0..m {
            let k = i % p;
            for (r, c) in col.iter_mut().enumerate() {
                let u = xb[i + r * m];
                *c = if p > 1 {
                    mul(u, twiddle(sign, ((r * k) % (16 * p)) as u64, 16 * p as u64))
                } else {
                    u
                };
            }
            dft16(&f, &col, lo, &mut out);
            for (q, v) in out.iter().enumerate() {
                yb[(i - k) * 16 + k + q * p] = *v;
            }
        }
    }
}

/// The radix-r stage that ends a transform of n = 16^K r points (p = n / r, the tail): item i
/// (< p) of each transform takes x[i + j p] (j < r) times exp(sign 2 pi i j i / n) and writes
/// its r-point DFT, y[i + q p] = sum over j, in order, of u_j exp(sign 2 pi i j q / r), in f32
/// (each product as `mul` does, the sum from 0): the kernel's `fxs_tail`, which reads and writes
/// the same r elements and so may run in place.
pub fn tail_stage(x: &[Complex<f32>], y: &mut [Complex<f32>], n: usize, r: usize, sign: i32) {
    let p = n / r;
    let w: Vec<Complex<f32>> = (0..r).map(|j| twiddle(sign, j as u64, r as u64)).collect();
    let mut u = [Complex::new(0f32, 0f32); 8];
    for (xb, yb) in x.chunks_exact(n).zip(y.chunks_exact_mut(n)) {
        for i in 0..p {
            for (j, uj) in u[..r].iter_mut().enumerate() {
                *uj = mul(xb[i + j * p], twiddle(sign, (j * i) as u64, n as u64));
            }
            for q in 0..r {
                yb[i + q * p] =
                    u[..r]
                        .iter()
                        .enumerate()
                        .fold(Complex::new(0f32, 0f32), |acc, (j, &uj)| {
                            let t = mul(uj, w[(j * q) % r]);
                            Complex::new(acc.re + t.re, acc.im + t.im)
                        });
            }
        }
    }
}

/// The whole transform of the packed transforms in `data` (a multiple of n points, n = 16^K
/// or 16^K r as [`Shape`] says), in place, through a scratch of the same size (`lo`: as
/// [`stage`]).
pub fn transform(data: &mut [Complex<f32>], n: usize, sign: i32, lo: bool) {
    let mut other = vec![Complex::new(0f32, 0f32); data.len()];
    let (mut src, mut dst) = (&mut *data, &mut other[..]);
    let mut p = 1;
    let mut swapped = false;
    while p < n {
        if 16 * p <= n {
            stage(src, dst, n, p, sign, lo);
        } else {
            tail_stage(src, dst, n, n / p, sign);
        }
        std::mem::swap(&mut src, &mut dst);
        swapped = !swapped;
        p = (16 * p).min(n);
    }
    if swapped {
        dst.copy_from_slice(src); // dst is `data` again
    }
}

/// The twin as a plan's step on the caller's arrays (any strides, in place or not): every
/// transform gathered, transformed, scattered.
pub struct SplitHalfCpu {
    problem: Problem,
    sign: i32,
    shape: Shape,
}

impl SplitHalfCpu {
    pub fn new(problem: &Problem) -> Result<SplitHalfCpu> {
        let shape = shape_of(problem)?;
        let Kind::Dft { sign } = problem.kind else {
            unreachable!("shape_of takes c2c only")
        };
        Ok(SplitHalfCpu {
            problem: problem.clone(),
            sign,
            shape,
        })
    }

    pub fn describe(&self) -> String {
        let tail = match self.shape.tail {
            1 => String::new(),
            r => format!(", then a radix-{r} stage in f32"),
        };
        format!(
            "cpu twin of the split-half tensor-core kernel, {}: {} radix-16 stage(s), binary16 hi + lo/2048 products in f32{tail} (FFTX_TENSOR_CORES=split-twin)",
            self.shape.name(),
            self.shape.stages
        )
    }

    /// # Safety
    /// The arrays must hold every element the problem addresses (f32 complex).
    pub unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
        let (ArrayPtr::Complex { re: ir, im: ii }, ArrayPtr::Complex { re: or, im: oi }) =
            (input, output)
        else {
            return Err(Error::bad_input("the split-half twin takes complex arrays"));
        };
        let (n, howmany) = (self.shape.n(), self.problem.howmany());
        let d = self.problem.dims[0];
        let mut data = Vec::new();
        data.try_reserve_exact(n * howmany).map_err(|_| {
            Error::out_of_host_memory(format!(
                "out of host memory for {} complex values",
                n * howmany
            ))
        })?;
        data.resize(n * howmany, Complex::new(0f32, 0f32));
        for (t, chunk) in data.chunks_exact_mut(n).enumerate() {
            let (io, _) = instance_offsets(&self.problem.loops, t);
            let dims = [Strided { n, s: d.is }];
            gather_complex(ir as *const f32, ii as *const f32, io, &dims, chunk);
        }
        transform(&mut data, n, self.sign, true);
        for (t, chunk) in data.chunks_exact(n).enumerate() {
            let (_, oo) = instance_offsets(&self.problem.loops, t);
            let dims = [Strided { n, s: d.os }];
            scatter_complex(chunk, or as *mut f32, oi as *mut f32, oo, &dims);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::IoDim;
    use rand::{Rng, SeedableRng};

    fn random(len: usize, seed: u64) -> Vec<Complex<f32>> {
        let mut r = rand::rngs::SmallRng::seed_from_u64(seed);
        (0..len)
            .map(|_| Complex::new(r.gen_range(-1.0f32..1.0), r.gen_range(-1.0f32..1.0)))
            .collect()
    }

    /// Relative L2 distance of `a` from `b`.
    fn rel(a: &[Complex<f32>], b: &[Complex<f64>]) -> f64 {
        let e: f64 = a
            .iter()
            .zip(b)
            .map(|(x, y)| (Complex::new(x.re as f64, x.im as f64) - y).norm_sqr())
            .sum();
        let w: f64 = b.iter().map(|y| y.norm_sqr()).sum();
        (e / w).sqrt()
    }

    /// A direct f64 DFT of each transform (small n).
    fn direct(x: &[Complex<f32>], n: usize, sign: i32) -> Vec<Complex<f64>> {
        let mut y = vec![Complex::new(0.0, 0.0); x.len()];
        for (xb, yb) in x.chunks_exact(n).zip(y.chunks_exact_mut(n)) {
            for (q, out) in yb.iter_mut().enumerate() {
                for (j, v) in xb.iter().enumerate() {
                    let a =
                        sign as f64 * 2.0 * std::f64::consts::PI * ((q * j) % n) as f64 / n as f64;
                    *out += Complex::new(v.re as f64, v.im as f64) * Complex::from_polar(1.0, a);
                }
            }
        }
        y
    }

    /// rustfft in f64 (an independent reference for large n).
    fn fft64(x: &[Complex<f32>], n: usize, sign: i32) -> Vec<Complex<f64>> {
        let dir = if sign < 0 {
            rustfft::FftDirection::Forward
        } else {
            rustfft::FftDirection::Inverse
        };
        let fft = rustfft::FftPlanner::<f64>::new().plan_fft(n, dir);
        let mut y: Vec<Complex<f64>> = x
            .iter()
            .map(|v| Complex::new(v.re as f64, v.im as f64))
            .collect();
        fft.process(&mut y);
        y
    }

    #[test]
    fn sincospi_is_exact_at_quarter_turns_and_accurate_between() {
        assert_eq!(sincospi(0.0), (0.0, 1.0));
        assert_eq!(sincospi(0.5), (1.0, 0.0));
        assert_eq!(sincospi(-1.0).1, -1.0);
        assert_eq!(sincospi(-1.5), (1.0, 0.0));
        for j in 0..200 {
            let x = j as f64 / 64.0 - 1.7;
            let (s, c) = sincospi(x);
            let (s64, c64) = (std::f64::consts::PI * x).sin_cos();
            assert!(
                (s as f64 - s64).abs() <= 6e-8 && (c as f64 - c64).abs() <= 6e-8,
                "{x}"
            );
        }
    }

    #[test]
    fn scales_and_splits() {
        assert_eq!(scale_of(0.0), 1.0);
        assert_eq!(scale_of(1.0), 1.0);
        assert_eq!(scale_of(1.0001), 2.0);
        assert_eq!(scale_of(0.3), 0.5);
        assert_eq!(scale_of(f32::MAX), 2f32.powi(127));
        assert_eq!(scale_of(1e-45), 2f32.powi(-126));
        // hi + lo/2048 holds 22 bits of the value.
        for v in [0.1f32, -0.6180339, 0.99999, 1.0 / 3.0] {
            let (h, l) = split(v);
            let back = f32_from_f16(h) + f32_from_f16(l) / LO;
            assert!(((back - v) / v).abs() < 2f32.powi(-21), "{v}: {back}");
        }
        let t = dft_parts(-1);
        assert_eq!(t[0][0], f16_from_f32(1.0));
        assert_eq!(t[1][4], f16_from_f32(-1.0), "exp(-2 pi i 4/16) = -i");
        assert_eq!(t[2][4], f16_from_f32(1.0));
        assert_eq!((t[3][0], t[4][4]), (0, 0), "exact entries have no lo part");
    }

    /// The twin against an independent f64 reference: the direct DFT for n = 16 and 256, f64
    /// rustfft up to 2^20; within 1e-6 relative L2 (scaled by log2 n / 12 beyond 2^12), both
    /// signs, batches. Without the lo terms the same error is above 1e-4: the test sees the
    /// split.
    #[test]
    fn twin_matches_an_f64_reference_at_fp32_accuracy() {
        for (k, batch) in [(1u32, 7usize), (2, 5), (3, 3), (4, 2), (5, 1)] {
            let n = 1usize << (4 * k);
            for sign in [-1, 1] {
                let x = random(n * batch, 17 + k as u64);
                let reference = if n <= 256 {
                    direct(&x, n, sign)
                } else {
                    x.chunks_exact(n).flat_map(|c| fft64(c, n, sign)).collect()
                };
                let mut y = x.clone();
                transform(&mut y, n, sign, true);
                let e = rel(&y, &reference);
                let bound = 1e-6 * (4.0 * k as f64 / 12.0).max(1.0);
                assert!(e <= bound, "16^{k} sign {sign}: {e:.3e} > {bound:.1e}");
                let mut hi_only = x.clone();
                transform(&mut hi_only, n, sign, false);
                let e_hi = rel(&hi_only, &reference);
                assert!(e_hi > 1e-4, "16^{k}: without the split {e_hi:.3e}");
                eprintln!("16^{k} sign {sign}: split {e:.2e}, hi only {e_hi:.2e}");
            }
        }
    }

    /// Against a plain f32 FFT (rustfft f32) the twin differs at f32 rounding level only.
    #[test]
    fn twin_differs_from_a_plain_f32_fft_at_rounding_level() {
        let n = 4096;
        let x = random(2 * n, 5);
        let fft = rustfft::FftPlanner::<f32>::new().plan_fft_forward(n);
        let mut plain = x.clone();
        fft.process(&mut plain);
        let mut y = x.clone();
        transform(&mut y, n, -1, true);
        let plain64: Vec<Complex<f64>> = plain
            .iter()
            .map(|v| Complex::new(v.re as f64, v.im as f64))
            .collect();
        let d = rel(&y, &plain64);
        assert!(d < 1e-6 && d > 0.0, "{d:.3e}");
    }

    /// The plan step gathers strided transforms and scatters them, in place too.
    #[test]
    fn plan_step_on_strided_and_in_place_arrays() {
        let (n, howmany) = (256usize, 3usize);
        // Input: element j of transform t at complex index j howmany + t (interleaved
        // transforms); output packed.
        let p = Problem {
            kind: Kind::Dft { sign: -1 },
            dims: vec![IoDim::new(n as isize, 2 * howmany as isize, 2)],
            loops: vec![IoDim::new(howmany as isize, 2, 2 * n as isize)],
            precision: Precision::F32,
            in_place: false,
        };
        let x = random(n * howmany, 9);
        let step = SplitHalfCpu::new(&p).unwrap();
        let mut out = vec![Complex::new(0f32, 0f32); n * howmany];
        let ip = ArrayPtr::Complex {
            re: x.as_ptr() as usize,
            im: x.as_ptr() as usize + 4,
        };
        let op = ArrayPtr::Complex {
            re: out.as_mut_ptr() as usize,
            im: out.as_mut_ptr() as usize + 4,
        };
        unsafe { step.execute(ip, op).unwrap() };
        for t in 0..howmany {
            let mut col: Vec<Complex<f32>> = (0..n).map(|j| x[j * howmany + t]).collect();
            transform(&mut col, n, -1, true);
            assert_eq!(&out[t * n..(t + 1) * n], &col[..], "transform {t}");
        }
        // In place, packed.
        let q = Problem::packed(&[n as isize], Kind::Dft { sign: 1 }, Precision::F32);
        let mut q = Problem {
            loops: vec![IoDim::new(2, 2 * n as isize, 2 * n as isize)],
            ..q
        };
        q.in_place = true;
        let mut a = random(2 * n, 4);
        let mut want = a.clone();
        transform(&mut want, n, 1, true);
        let ap = ArrayPtr::Complex {
            re: a.as_mut_ptr() as usize,
            im: a.as_mut_ptr() as usize + 4,
        };
        unsafe { SplitHalfCpu::new(&q).unwrap().execute(ap, ap).unwrap() };
        assert_eq!(a, want);
    }

    /// 16^K r lengths (the radix-r tail after the radix-16 stages) against f64 rustfft, both
    /// signs, every tail radix: fp32 accuracy; and the tail alone against a direct DFT of its
    /// definition (the Stockham stage that ends a transform of n = p r points).
    #[test]
    fn tails_complete_the_transform_at_fp32_accuracy() {
        for (n, batch) in [
            (4096 * 2, 2usize),
            (4096 * 4, 1),
            (4096 * 8, 1),
            (1 << 17, 1),
        ] {
            for sign in [-1, 1] {
                let x = random(n * batch, n as u64 + 3);
                let reference: Vec<Complex<f64>> =
                    x.chunks_exact(n).flat_map(|c| fft64(c, n, sign)).collect();
                let mut y = x.clone();
                transform(&mut y, n, sign, true);
                let e = rel(&y, &reference);
                let bound = 1e-6 * ((n as f64).log2() / 12.0).max(1.0);
                assert!(e <= bound, "{n} sign {sign}: {e:.3e} > {bound:.1e}");
            }
        }
        for r in [2usize, 4, 8] {
            let (p, sign) = (32usize, -1);
            let n = p * r;
            let x = random(2 * n, r as u64);
            let mut y = vec![Complex::new(0f32, 0f32); 2 * n];
            tail_stage(&x, &mut y, n, r, sign);
            for b in 0..2 {
                for i in 0..p {
                    for q in 0..r {
                        let want: Complex<f64> = (0..r)
                            .map(|j| {
                                let v = x[b * n + i + j * p];
                                let a = sign as f64
                                    * 2.0
                                    * std::f64::consts::PI
                                    * ((j * i * r + j * q * n) % (n * r)) as f64
                                    / (n * r) as f64;
                                Complex::new(v.re as f64, v.im as f64) * Complex::from_polar(1.0, a)
                            })
                            .sum();
                        let got = y[b * n + i + q * p];
                        let d = (Complex::new(got.re as f64, got.im as f64) - want).norm();
                        assert!(d < 1e-6, "r {r} i {i} q {q}: {got} vs {want}");
                    }
                }
            }
        }
    }

    #[test]
    fn what_the_path_takes() {
        let c2c = |n: isize| Problem::packed(&[n], Kind::Dft { sign: -1 }, Precision::F32);
        let shape = |stages, tail| Ok(Shape { stages, tail });
        assert_eq!(shape_of(&c2c(16)), shape(1, 1));
        assert_eq!(shape_of(&c2c(1 << 24)), shape(6, 1));
        assert_eq!(shape_of(&c2c(1 << 13)), shape(3, 2));
        assert_eq!(shape_of(&c2c(1 << 21)), shape(5, 2));
        assert_eq!(shape_of(&c2c(1 << 26)), shape(6, 4));
        assert_eq!(Shape::of(1 << 23).unwrap().name(), "16^5 x 8");
        assert_eq!(Shape::of(1 << 25).unwrap().n(), 1 << 25);
        for n in [8, 32, 512, 2048, 1 << 27, 1 << 28, 48, 1000] {
            assert!(shape_of(&c2c(n)).is_err(), "{n}");
        }
        let f64p = Problem::packed(&[256], Kind::Dft { sign: -1 }, Precision::F64);
        let e = shape_of(&f64p).unwrap_err();
        assert!(e.message.contains("double"));
        assert_eq!(e.kind, crate::error::ErrorKind::Unsupported);
        let r2c = Problem::packed(&[256], Kind::R2c, Precision::F32);
        assert!(shape_of(&r2c).is_err());
        let two_d = Problem::packed(&[16, 16], Kind::Dft { sign: -1 }, Precision::F32);
        assert!(shape_of(&two_d).unwrap_err().message.contains("rank 2"));
    }
}
