//! CPU twins of the CUDA kernels in `kernels/r2r.cu` and `kernels/layout.cu`.
//!
//! Every function here has exactly the semantics of one kernel (named in its doc comment), and
//! its index math is written with the same helper names, so that a reader can check the `.cu`
//! file line by line against this one. CI (no GPU) tests the twins; device tests compare each
//! kernel with its twin.
//!
//! # Real-to-real kinds as one complex DFT per line
//!
//! Each of FFTW's eleven r2r kinds (unnormalized, FFTW manual "What FFTW Really Computes") of a
//! line of `n` reals is computed as
//!
//! 1. PRE ([`r2r_pre`], kernel `r2r_pre_*`): the line `x` (read with a stride) becomes a complex
//!    line `z` of the logical length `N` ([`r2r_logical_size`]): a symmetric or antisymmetric
//!    extension `z_m = s_m x_{j(m)}` (`s_m` ∈ {-1, 0, +1}, [`r2r_extend`]), times the pre-twiddle
//!    `e^{-iπm/N}` for the kinds whose *output* is shifted by half a sample (REDFT01, RODFT01,
//!    REDFT11, RODFT11); HC2R instead builds the full Hermitian spectrum of its halfcomplex input.
//! 2. a batched complex DFT of size `N`, `Z_k = Σ_m z_m e^{sign·2πimk/N}` with
//!    `sign = r2r_fft_sign(kind)`: -1 (forward) for every kind but HC2R, which uses +1 (backward)
//!    on the Hermitian spectrum (its output is then real, no conjugation needed);
//! 3. POST ([`r2r_post`], kernel `r2r_post_*`): `y_k` (k < n, written with a stride) is one real
//!    number read from `Z` ([`r2r_post_value`]): a real or imaginary part, after the post-twiddle
//!    `e^{-iπk/N}` (type 2, input shifted by half a sample) or `e^{-iπ(2k+1)/(2N)}` (type 4, both
//!    shifted).
//!
//! Derivation: each kind is `y_k = Σ_{m<N} z_m e^{-2πi(m+a)(k+b)/N}` (times 1 or i) with
//! `a, b ∈ {0, 1/2}`; expanding `(m+a)(k+b)` gives the pre-twiddle `e^{-2πimb/N}`, the
//! post-twiddle `e^{-2πi(k+b)a/N}` (`e^{-iπ(2k+1)/(2N)}` when a = b = 1/2). With `b = 1/2` the
//! kernel `e^{-2πim(k+1/2)/N}` is anti-periodic in `m` (period N, factor -1), which fixes the
//! signs of the extension: `cos` terms `x(e^{-iφ}+e^{iφ})` fold the mirrored sample with sign
//! `-1`, `sin` terms `i·x(e^{-iφ}-e^{iφ})` with sign `+1`. Table (`Z` computed with sign -1
//! except HC2R):
//!
//! | kind    | N      | z_m (m < N), zero elsewhere                          | pre tw.   | y_k                                    |
//! |---------|--------|------------------------------------------------------|-----------|----------------------------------------|
//! | R2HC    | n      | x_m                                                  | -         | Re Z_k (k ≤ n/2), Im Z_{n-k} (k > n/2) |
//! | HC2R    | n      | x_0; (x_m, x_{n-m}) m<n-m; x_{n/2}; (x_{n-m}, -x_m)  | -         | Re Z_k (DFT sign +1)                   |
//! | DHT     | n      | x_m                                                  | -         | Re Z_k - Im Z_k                        |
//! | REDFT00 | 2(n-1) | x_m (m<n), x_{N-m} (m≥n)                             | -         | Re Z_k                                 |
//! | RODFT00 | 2(n+1) | 0 (m=0, n+1), x_{m-1} (m≤n), -x_{N-m-1} (m>n+1)      | -         | -Im Z_{k+1}                            |
//! | REDFT10 | 2n     | x_m (m<n), x_{N-1-m} (m≥n)                           | -         | Re(e^{-iπk/N} Z_k)                     |
//! | RODFT10 | 2n     | x_m (m<n), -x_{N-1-m} (m≥n)                          | -         | -Im(e^{-iπ(k+1)/N} Z_{k+1})            |
//! | REDFT01 | 2n     | x_m (m<n), 0 (m=n), -x_{N-m} (m>n)                   | e^{-iπm/N}| Re Z_k                                 |
//! | RODFT01 | 2n     | 0 (m=0), x_{m-1} (1≤m≤n), x_{N-m-1} (m>n)            | e^{-iπm/N}| -Im Z_k                                |
//! | REDFT11 | 2n     | x_m (m<n), -x_{N-1-m} (m≥n)                          | e^{-iπm/N}| Re(e^{-iπ(2k+1)/(2N)} Z_k)             |
//! | RODFT11 | 2n     | x_m (m<n), x_{N-1-m} (m≥n)                           | e^{-iπm/N}| -Im(e^{-iπ(2k+1)/(2N)} Z_k)            |
//!
//! Twiddles are `e^{iπ·num/den}` from exact integers ([`cis_pi`]): `num` is reduced modulo
//! `2·den` in integers first, so the angle keeps full accuracy for large `N` (the kernels use
//! `sincospi` / `sincospif` on the reduced quotient; the twin evaluates in f64 and rounds to T).
//!
//! REDFT00 needs `n ≥ 2` (FFTW refuses n = 1: N would be 0).

use crate::problem::R2rKind;
use crate::real::Real;
use num_complex::Complex;

/// Kernel entry points of `kernels/r2r.cu` (NVRTC names, `extern "C"`).
pub const R2R_KERNELS: [&str; 4] = ["r2r_pre_f32", "r2r_pre_f64", "r2r_post_f32", "r2r_post_f64"];
/// Kernel entry points of `kernels/layout.cu`.
pub const LAYOUT_KERNELS: [&str; 4] = [
    "strided_copy_f32",
    "strided_copy_f64",
    "strided_copy_c32",
    "strided_copy_c64",
];
/// Largest rank of [`strided_copy`] (`FFTX_MAX_RANK` in `kernels/layout.cu`).
pub const MAX_RANK: usize = 8;

// FFTW's kind numbers, as the kernels see them (`FFTX_R2HC` ... in kernels/r2r.cu).
const R2HC: i32 = 0;
const HC2R: i32 = 1;
const DHT: i32 = 2;
const REDFT00: i32 = 3;
const REDFT01: i32 = 4;
const REDFT10: i32 = 5;
const REDFT11: i32 = 6;
const RODFT00: i32 = 7;
const RODFT01: i32 = 8;
const RODFT10: i32 = 9;
const RODFT11: i32 = 10;

/// Logical DFT size N of the complex line for a real line of `n` (kernel helper
/// `r2r_logical_size`). 0 for REDFT00 with n < 2, which is not a valid transform.
pub fn r2r_logical_size(kind: R2rKind, n: usize) -> usize {
    r2r_logical(kind as i32, n as i64) as usize
}

/// Sign of the complex DFT between [`r2r_pre`] and [`r2r_post`]: +1 (backward, cuFFT
/// `CUFFT_INVERSE`) for HC2R, -1 (forward, `CUFFT_FORWARD`) for every other kind.
pub fn r2r_fft_sign(kind: R2rKind) -> i32 {
    if kind == R2rKind::Hc2r {
        1
    } else {
        -1
    }
}

/// Kernel helper `r2r_logical`.
fn r2r_logical(kind: i32, n: i64) -> i64 {
    match kind {
        R2HC | HC2R | DHT => n,
        REDFT00 => {
            if n < 2 {
                0
            } else {
                2 * (n - 1)
            }
        }
        RODFT00 => 2 * (n + 1),
        _ => 2 * n,
    }
}

/// Kernel helper `r2r_pre_twiddled`: kinds whose output frequencies are k + 1/2.
fn r2r_pre_twiddled(kind: i32) -> bool {
    matches!(kind, REDFT01 | RODFT01 | REDFT11 | RODFT11)
}

/// Kernel helper `r2r_extend`: the extension `z_m = s · x_j` of a real line (all kinds but
/// HC2R). Returns `(j, s)`, `s` ∈ {-1, 0, +1}; `j` is meaningless when `s == 0`.
pub fn r2r_extend(kind: i32, n: i64, big_n: i64, m: i64) -> (i64, i32) {
    match kind {
        REDFT00 => {
            if m < n {
                (m, 1)
            } else {
                (big_n - m, 1)
            }
        }
        RODFT00 => {
            if m == 0 || m == n + 1 {
                (0, 0)
            } else if m <= n {
                (m - 1, 1)
            } else {
                (big_n - m - 1, -1)
            }
        }
        REDFT10 => {
            if m < n {
                (m, 1)
            } else {
                (big_n - 1 - m, 1)
            }
        }
        RODFT10 | REDFT11 => {
            if m < n {
                (m, 1)
            } else {
                (big_n - 1 - m, -1)
            }
        }
        RODFT11 => {
            if m < n {
                (m, 1)
            } else {
                (big_n - 1 - m, 1)
            }
        }
        REDFT01 => {
            if m < n {
                (m, 1)
            } else if m == n {
                (0, 0)
            } else {
                (big_n - m, -1)
            }
        }
        RODFT01 => {
            if m == 0 {
                (0, 0)
            } else if m <= n {
                (m - 1, 1)
            } else {
                (big_n - m - 1, 1)
            }
        }
        // R2HC, DHT: the line itself.
        _ => (m, 1),
    }
}

/// Kernel helper `cis_pi`: `(cos, sin)` of `π·num/den` (`den > 0`), with `num` first reduced
/// exactly to `(-den, den]`. The kernels evaluate `sincospi(r/den)` in the kernel's precision;
/// the twin evaluates in f64.
pub fn cis_pi(num: i64, den: i64) -> (f64, f64) {
    let two_den = 2 * den;
    let mut r = num % two_den;
    if r < 0 {
        r += two_den;
    }
    if r > den {
        r -= two_den;
    }
    // sincospi(r / den), evaluated in f64 as an accurate sincospi does: the angle
    // π·r/den = q·π/2 + π·rem/(2·den) with |rem| ≤ den/2, all in exact integers.
    let (r, den) = (r as i128, den as i128);
    let mut q = (2 * r).div_euclid(den);
    let mut rem = 2 * r - q * den;
    if 2 * rem > den {
        q += 1;
        rem -= den;
    }
    let (s0, c0) = (std::f64::consts::PI * (rem as f64 / (2 * den) as f64)).sin_cos();
    match q.rem_euclid(4) {
        0 => (c0, s0),
        1 => (-s0, c0),
        2 => (-c0, -s0),
        _ => (s0, -c0),
    }
}

#[inline]
fn at(offset: isize) -> usize {
    usize::try_from(offset).expect("strided offset points before the array")
}

/// Kernel helper `r2r_pre_value`: element `m` of the complex line of batch `b`; `x(j)` reads
/// input sample `j` of that line.
pub fn r2r_pre_value<T: Real>(
    kind: i32,
    n: i64,
    big_n: i64,
    m: i64,
    x: impl Fn(i64) -> T,
) -> Complex<T> {
    let zero = T::zero();
    if kind == HC2R {
        // Hermitian spectrum of the halfcomplex line r0, r1, ..., r_{n/2}, i_{(n+1)/2-1}, ..., i1.
        return if m == 0 || 2 * m == n {
            Complex::new(x(m), zero)
        } else if 2 * m < n {
            Complex::new(x(m), x(n - m))
        } else {
            Complex::new(x(n - m), -x(m))
        };
    }
    let (j, s) = r2r_extend(kind, n, big_n, m);
    let v = match s {
        0 => zero,
        1 => x(j),
        _ => -x(j),
    };
    if r2r_pre_twiddled(kind) {
        // e^{-iπm/N} = e^{iπ(-2m)/(2N)}
        let (c, sn) = cis_pi(-2 * m, 2 * big_n);
        Complex::new(v * T::cast(c), v * T::cast(sn))
    } else {
        Complex::new(v, zero)
    }
}

/// Kernel helper `r2r_post_value`: output `y_k` from the line `Z` (`z(i)` reads `Z_i`).
pub fn r2r_post_value<T: Real>(
    kind: i32,
    n: i64,
    big_n: i64,
    k: i64,
    z: impl Fn(i64) -> Complex<T>,
) -> T {
    match kind {
        R2HC => {
            if 2 * k <= n {
                z(k).re
            } else {
                z(n - k).im
            }
        }
        DHT => {
            let v = z(k);
            v.re - v.im
        }
        RODFT00 => -z(k + 1).im,
        RODFT01 => -z(k).im,
        REDFT10 | RODFT10 | REDFT11 | RODFT11 => {
            // Post-twiddle e^{iπ·num/(2N)}: num = -2k (type 2, k+1 for RODFT10), -(2k+1) (type 4).
            let (i, num) = match kind {
                REDFT10 => (k, -2 * k),
                RODFT10 => (k + 1, -2 * (k + 1)),
                _ => (k, -(2 * k + 1)),
            };
            let (c, s) = cis_pi(num, 2 * big_n);
            let (c, s) = (T::cast(c), T::cast(s));
            let v = z(i);
            if kind == REDFT10 || kind == REDFT11 {
                v.re * c - v.im * s // Re(w Z)
            } else {
                -(v.re * s + v.im * c) // -Im(w Z)
            }
        }
        // HC2R, REDFT00, REDFT01
        _ => z(k).re,
    }
}

/// Where the real lines of an r2r kernel lie: line `b` starts at
/// `offset + (b / group)·group_dist + (b % group)·dist` and its samples are `stride` apart. Lines
/// come in groups of `group`, as an array's middle axis has them (`group` lines `dist` apart,
/// groups `group_dist` apart), so one launch takes every line of an axis; [`Lines::new`] is one
/// group.
#[derive(Clone, Copy, Debug)]
pub struct Lines {
    pub offset: isize,
    pub stride: isize,
    pub dist: isize,
    pub group: isize,
    pub group_dist: isize,
}

impl Lines {
    /// Lines `dist` apart, samples `stride` apart, from `offset`: one group.
    pub fn new(offset: isize, stride: isize, dist: isize) -> Lines {
        Lines {
            offset,
            stride,
            dist,
            group: isize::MAX,
            group_dist: 0,
        }
    }

    /// The lines along an axis of `n` points with `inner` points after it in a row-major array
    /// (from its start): groups of `inner` consecutive lines, samples `inner` apart, groups
    /// `n·inner` apart (for `inner` = 1, lines `n` apart). One launch takes the whole axis.
    pub fn along_axis(n: isize, inner: isize) -> Lines {
        Lines {
            offset: 0,
            stride: inner,
            dist: 1,
            group: inner,
            group_dist: n * inner,
        }
    }

    fn start(&self, b: i64) -> isize {
        let b = b as isize;
        self.offset + (b / self.group) * self.group_dist + (b % self.group) * self.dist
    }
}

/// Twin of kernel `r2r_pre_f32` / `r2r_pre_f64` (kernels/r2r.cu): `batch` real lines of `n`,
/// sample `j` of line `b` at `input[lines.start(b) + j·lines.stride]`, become `batch` complex
/// lines of `N = r2r_logical_size(kind, n)`, contiguous in `z` (line `b` at `z[b·N..]`).
pub fn r2r_pre<T: Real>(
    kind: R2rKind,
    n: usize,
    batch: usize,
    input: &[T],
    lines: Lines,
    z: &mut [Complex<T>],
) {
    let kind = kind as i32;
    assert!(kind != REDFT00 || n >= 2, "REDFT00 needs n >= 2");
    let (n, batch) = (n as i64, batch as i64);
    let big_n = r2r_logical(kind, n);
    let total = batch * big_n;
    assert!(z.len() as i64 >= total, "z holds batch × N complex numbers");
    // One kernel thread per i (grid-stride loop).
    for i in 0..total {
        let b = i / big_n;
        let m = i - b * big_n;
        let base = lines.start(b);
        z[i as usize] = r2r_pre_value(kind, n, big_n, m, |j| {
            input[at(base + j as isize * lines.stride)]
        });
    }
}

/// Twin of kernel `r2r_post_f32` / `r2r_post_f64` (kernels/r2r.cu): reads the `batch` transformed
/// complex lines of `N` in `z` (contiguous) and writes `y_k` of line `b` to
/// `output[lines.start(b) + k·lines.stride]`, k < n; nothing else is written.
pub fn r2r_post<T: Real>(
    kind: R2rKind,
    n: usize,
    batch: usize,
    z: &[Complex<T>],
    output: &mut [T],
    lines: Lines,
) {
    let kind = kind as i32;
    assert!(kind != REDFT00 || n >= 2, "REDFT00 needs n >= 2");
    let (n, batch) = (n as i64, batch as i64);
    let big_n = r2r_logical(kind, n);
    assert!(
        z.len() as i64 >= batch * big_n,
        "z holds batch × N complex numbers"
    );
    let total = batch * n;
    for i in 0..total {
        let b = i / n;
        let k = i - b * n;
        let line = &z[(b * big_n) as usize..((b + 1) * big_n) as usize];
        let y = r2r_post_value(kind, n, big_n, k, |j| line[j as usize]);
        output[at(lines.start(b) + k as isize * lines.stride)] = y;
    }
}

/// Shape and strides of a strided copy, laid out exactly as the kernel's by-value parameter
/// `StridedShape` of `kernels/layout.cu` (`#[repr(C)]`: three arrays of `FFTX_MAX_RANK` int64);
/// entries at and past `rank` are ignored.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StridedShape {
    pub n: [i64; MAX_RANK],
    pub src_stride: [i64; MAX_RANK],
    pub dst_stride: [i64; MAX_RANK],
}

impl StridedShape {
    pub fn new(n: &[i64], src_strides: &[i64], dst_strides: &[i64]) -> Self {
        let rank = n.len();
        assert!(rank <= MAX_RANK, "strided copy of rank {rank} > {MAX_RANK}");
        assert!(src_strides.len() >= rank && dst_strides.len() >= rank);
        let mut s = StridedShape::default();
        s.n[..rank].copy_from_slice(n);
        s.src_stride[..rank].copy_from_slice(&src_strides[..rank]);
        s.dst_stride[..rank].copy_from_slice(&dst_strides[..rank]);
        s
    }
}

/// Kernel helper `strided_total`: number of elements (1 for rank 0, 0 if any n ≤ 0 or the
/// rank is not in 0..=MAX_RANK).
pub fn strided_total(rank: i32, shape: &StridedShape) -> i64 {
    if rank < 0 || rank as usize > MAX_RANK {
        return 0;
    }
    let mut total = 1i64;
    for d in 0..rank as usize {
        if shape.n[d] <= 0 {
            return 0;
        }
        total *= shape.n[d];
    }
    total
}

/// Kernel helper `strided_offsets`: (source, destination) offsets, relative to the offsets, of
/// row-major element `i` (last dimension fastest).
pub fn strided_offsets(rank: i32, shape: &StridedShape, i: i64) -> (i64, i64) {
    let mut rest = i;
    let (mut so, mut dof) = (0i64, 0i64);
    for d in (0..rank as usize).rev() {
        let c = rest % shape.n[d];
        rest /= shape.n[d];
        so += c * shape.src_stride[d];
        dof += c * shape.dst_stride[d];
    }
    (so, dof)
}

/// Twin of kernels `strided_copy_f32/f64/c32/c64` (kernels/layout.cu): for every index
/// `(i_0, ..., i_{rank-1})` of the box `n`, `dst[dst_offset + Σ i_d·dst_strides[d]] =
/// src[src_offset + Σ i_d·src_strides[d]]`, in element units (a complex number is one element);
/// strides may be negative or zero (a zero destination stride is a race on the device).
#[allow(clippy::too_many_arguments)]
pub fn strided_copy<T: Copy>(
    rank: usize,
    n: &[i64],
    src: &[T],
    src_offset: i64,
    src_strides: &[i64],
    dst: &mut [T],
    dst_offset: i64,
    dst_strides: &[i64],
) {
    let shape = StridedShape::new(&n[..rank], src_strides, dst_strides);
    strided_copy_shape(rank as i32, &shape, src, src_offset, dst, dst_offset);
}

/// [`strided_copy`] with the kernel's exact parameters.
pub fn strided_copy_shape<T: Copy>(
    rank: i32,
    shape: &StridedShape,
    src: &[T],
    src_offset: i64,
    dst: &mut [T],
    dst_offset: i64,
) {
    let total = strided_total(rank, shape);
    for i in 0..total {
        let (so, dof) = strided_offsets(rank, shape, i);
        dst[at((dst_offset + dof) as isize)] = src[at((src_offset + so) as isize)];
    }
}

/// Plain O(N^2) f64 DFT of one line: the reference of the twins' tests.
#[cfg(test)]
pub(crate) fn direct_dft(z: &[Complex<f64>], sign: i32) -> Vec<Complex<f64>> {
    let n = z.len();
    (0..n)
        .map(|k| {
            z.iter()
                .enumerate()
                .map(|(m, v)| {
                    let (c, s) = cis_pi(2 * sign as i64 * ((m * k) % n) as i64, n as i64);
                    v * Complex::new(c, s)
                })
                .sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines in groups (an array's middle axis: `group` lines `dist` apart, groups `group_dist`
    /// apart) are the lines each group gives as a batch of its own.
    #[test]
    fn grouped_lines_are_each_groups_lines() {
        // A 4 x 6 x 3 array: the middle axis (n = 6) has groups of 3 lines 1 apart, 18 apart;
        // a 4 x 6 array's last axis (inner = 1): lines 6 apart.
        for group in [3usize, 1] {
            lines_along_an_axis(6, group, 4);
        }
    }

    fn lines_along_an_axis(n: usize, group: usize, groups: usize) {
        let kind = R2rKind::Redft10;
        let big_n = r2r_logical_size(kind, n);
        let input: Vec<f64> = (0..groups * n * group)
            .map(|i| ((i * 7) % 11) as f64 - 5.0)
            .collect();
        let grouped = Lines::along_axis(n as isize, group as isize);
        let mut z = vec![Complex::new(0.0, 0.0); groups * group * big_n];
        r2r_pre(kind, n, groups * group, &input, grouped, &mut z);
        let mut out = vec![0.0; input.len()];
        r2r_post(kind, n, groups * group, &z, &mut out, grouped);
        for g in 0..groups {
            let each = Lines::new((g * n * group) as isize, group as isize, 1);
            let mut zg = vec![Complex::new(0.0, 0.0); group * big_n];
            r2r_pre(kind, n, group, &input, each, &mut zg);
            assert_eq!(
                zg[..],
                z[g * group * big_n..(g + 1) * group * big_n],
                "group {g}"
            );
            let mut og = vec![0.0; input.len()];
            r2r_post(kind, n, group, &zg, &mut og, each);
            let span = g * n * group..(g + 1) * n * group;
            assert_eq!(og[span.clone()], out[span], "group {g}");
        }
    }
    use crate::exec::cpu::r2r::{R2rOp, R2rScratch};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use rustfft::{FftDirection, FftPlanner};
    use std::f64::consts::PI;

    const SIZES: [usize; 9] = [1, 2, 3, 5, 8, 17, 64, 100, 1000];

    fn valid(kind: R2rKind, n: usize) -> bool {
        kind != R2rKind::Redft00 || n >= 2
    }

    /// FFTW's definition of each kind, evaluated directly in f64 (O(n^2)).
    fn direct(kind: R2rKind, x: &[f64]) -> Vec<f64> {
        let n = x.len();
        let nf = n as f64;
        (0..n)
            .map(|k| {
                let kf = k as f64;
                match kind {
                    R2rKind::R2hc => {
                        // halfcomplex: r_k at k ≤ n/2, i_{n-k} at k > n/2
                        let (kk, im) = if 2 * k <= n {
                            (k, false)
                        } else {
                            (n - k, true)
                        };
                        (0..n)
                            .map(|j| {
                                let a = -2.0 * PI * ((j * kk) % n) as f64 / nf;
                                x[j] * if im { a.sin() } else { a.cos() }
                            })
                            .sum()
                    }
                    R2rKind::Hc2r => {
                        let mut s = x[0];
                        for j in 1..n {
                            if 2 * j < n {
                                let a = 2.0 * PI * ((j * k) % n) as f64 / nf;
                                s += 2.0 * (x[j] * a.cos() - x[n - j] * a.sin());
                            } else if 2 * j == n {
                                s += x[j] * if k % 2 == 0 { 1.0 } else { -1.0 };
                            }
                        }
                        s
                    }
                    R2rKind::Dht => (0..n)
                        .map(|j| {
                            let a = 2.0 * PI * ((j * k) % n) as f64 / nf;
                            x[j] * (a.cos() + a.sin())
                        })
                        .sum(),
                    R2rKind::Redft00 => {
                        let sgn = if k % 2 == 0 { 1.0 } else { -1.0 };
                        x[0] + sgn * x[n - 1]
                            + (1..n - 1)
                                .map(|j| 2.0 * x[j] * (PI * (j * k) as f64 / (nf - 1.0)).cos())
                                .sum::<f64>()
                    }
                    R2rKind::Rodft00 => (0..n)
                        .map(|j| 2.0 * x[j] * (PI * ((j + 1) * (k + 1)) as f64 / (nf + 1.0)).sin())
                        .sum(),
                    R2rKind::Redft10 => (0..n)
                        .map(|j| 2.0 * x[j] * (PI * (j as f64 + 0.5) * kf / nf).cos())
                        .sum(),
                    R2rKind::Redft01 => {
                        x[0] + (1..n)
                            .map(|j| 2.0 * x[j] * (PI * j as f64 * (kf + 0.5) / nf).cos())
                            .sum::<f64>()
                    }
                    R2rKind::Redft11 => (0..n)
                        .map(|j| 2.0 * x[j] * (PI * (j as f64 + 0.5) * (kf + 0.5) / nf).cos())
                        .sum(),
                    R2rKind::Rodft10 => (0..n)
                        .map(|j| 2.0 * x[j] * (PI * (j as f64 + 0.5) * (kf + 1.0) / nf).sin())
                        .sum(),
                    R2rKind::Rodft01 => {
                        let sgn = if k % 2 == 0 { 1.0 } else { -1.0 };
                        sgn * x[n - 1]
                            + (0..n - 1)
                                .map(|j| {
                                    2.0 * x[j] * (PI * (j as f64 + 1.0) * (kf + 0.5) / nf).sin()
                                })
                                .sum::<f64>()
                    }
                    R2rKind::Rodft11 => (0..n)
                        .map(|j| 2.0 * x[j] * (PI * (j as f64 + 0.5) * (kf + 0.5) / nf).sin())
                        .sum(),
                }
            })
            .collect()
    }

    /// The CPU executor's r2r (verified against FFTW), in f64: the reference.
    fn reference(kind: R2rKind, x: &[f64]) -> Vec<f64> {
        let mut y = x.to_vec();
        R2rOp::<f64>::new(kind, x.len()).apply(&mut y, 1, &mut R2rScratch::default());
        y
    }

    fn rel_err(a: &[f64], b: &[f64]) -> f64 {
        let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
        let den: f64 = b.iter().map(|y| y * y).sum();
        if den == 0.0 {
            num.sqrt()
        } else {
            (num / den).sqrt()
        }
    }

    fn random(n: usize, rng: &mut SmallRng) -> Vec<f64> {
        // f32-representable, so the f32 and f64 pipelines see the same input.
        (0..n).map(|_| rng.gen_range(-1.0f32..1.0) as f64).collect()
    }

    #[test]
    fn twins_direct_definition_matches_cpu_reference() {
        let mut rng = SmallRng::seed_from_u64(1);
        for kind in R2rKind::ALL {
            for n in [1usize, 2, 3, 4, 5, 8, 17, 64, 100] {
                if !valid(kind, n) {
                    continue;
                }
                let x = random(n, &mut rng);
                let e = rel_err(&reference(kind, &x), &direct(kind, &x));
                assert!(
                    e < 1e-12 * (n as f64).log2().max(1.0) * 4.0,
                    "{kind:?} n={n}: {e:e}"
                );
            }
        }
    }

    /// Batched complex DFT of `batch` contiguous lines of `big_n`, rustfft in T (as cuFFT would).
    fn fft_lines<T: Real>(z: &mut [Complex<T>], big_n: usize, sign: i32) {
        let dir = if sign < 0 {
            FftDirection::Forward
        } else {
            FftDirection::Inverse
        };
        let fft = FftPlanner::<T>::new().plan_fft(big_n, dir);
        for line in z.chunks_exact_mut(big_n) {
            fft.process(line);
        }
    }

    /// A strided layout of `batch` lines of `n`: (offset, stride, dist, buffer length).
    fn layout(n: usize, batch: usize, variant: usize) -> (isize, isize, isize, usize) {
        let (n, batch) = (n as isize, batch as isize);
        let (off, stride, dist) = match variant {
            0 => (0, 1, n),         // packed
            1 => (5, 3, 3 * n + 2), // strided, gaps
            2 => (0, batch, 1),     // interleaved lines
            3 => (
                (2 * n + 1) * (batch - 1) + 2 * (n - 1) + 4,
                -2,
                -(2 * n + 1),
            ), // negative
            _ => (3 + (n - 1) * 3, -3, 1), // negative stride, dist 1 (interleaved)
        };
        // buffer length: max offset + 1 (+ a tail that must stay untouched)
        let mut hi = 0isize;
        for b in 0..batch {
            for j in 0..n {
                let o = off + b * dist + j * stride;
                assert!(o >= 0);
                hi = hi.max(o);
            }
        }
        (off, stride, dist, (hi + 3) as usize)
    }

    fn positions(
        n: usize,
        batch: usize,
        (off, stride, dist): (isize, isize, isize),
    ) -> Vec<Vec<usize>> {
        (0..batch)
            .map(|b| {
                (0..n)
                    .map(|j| (off + b as isize * dist + j as isize * stride) as usize)
                    .collect()
            })
            .collect()
    }

    /// pre → rustfft (in T) → post against the f64 CPU reference, with strided layouts.
    fn pipeline<T: Real + Into<f64>>(tol_per_log: f64, seed: u64) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let batch = 3;
        for kind in R2rKind::ALL {
            let mut worst = 0.0f64;
            for (si, &n) in SIZES.iter().enumerate() {
                if !valid(kind, n) {
                    continue;
                }
                let big_n = r2r_logical_size(kind, n);
                let vin = (si + kind as usize) % 5;
                let vout = (si + 2 * kind as usize + 1) % 5;
                let (ioff, istr, idist, ilen) = layout(n, batch, vin);
                let (ooff, ostr, odist, olen) = layout(n, batch, vout);
                let lines: Vec<Vec<f64>> = (0..batch).map(|_| random(n, &mut rng)).collect();
                let mut input = vec![T::cast(1e30); ilen];
                for (b, pos) in positions(n, batch, (ioff, istr, idist)).iter().enumerate() {
                    for (j, &p) in pos.iter().enumerate() {
                        input[p] = T::cast(lines[b][j]);
                    }
                }
                let mut z = vec![Complex::new(T::cast(f64::NAN), T::cast(f64::NAN)); batch * big_n];
                r2r_pre(
                    kind,
                    n,
                    batch,
                    &input,
                    Lines::new(ioff, istr, idist),
                    &mut z,
                );
                assert!(
                    z.iter()
                        .all(|c| !c.re.into().is_nan() && !c.im.into().is_nan()),
                    "{kind:?} n={n}: pre left z unwritten"
                );
                fft_lines(&mut z, big_n, r2r_fft_sign(kind));
                let sentinel = T::cast(-7.25);
                let mut output = vec![sentinel; olen];
                r2r_post(
                    kind,
                    n,
                    batch,
                    &z,
                    &mut output,
                    Lines::new(ooff, ostr, odist),
                );
                let opos = positions(n, batch, (ooff, ostr, odist));
                let mut written = vec![false; olen];
                for b in 0..batch {
                    let want = reference(kind, &lines[b]);
                    let got: Vec<f64> = opos[b].iter().map(|&p| output[p].into()).collect();
                    let e = rel_err(&got, &want);
                    worst = worst.max(e / (big_n as f64).log2().max(1.0));
                    let tol = tol_per_log * (big_n as f64).log2().max(1.0);
                    assert!(
                        e <= tol,
                        "{kind:?} n={n} batch {b} layouts {vin}/{vout}: rel err {e:e} > {tol:e}"
                    );
                    for &p in &opos[b] {
                        written[p] = true;
                    }
                }
                for (p, w) in written.iter().enumerate() {
                    if !w {
                        assert!(
                            output[p] == sentinel,
                            "{kind:?} n={n}: post wrote outside its output at {p}"
                        );
                    }
                }
            }
            eprintln!(
                "{} {:?}: worst rel err / log2 N = {worst:.2e}",
                std::any::type_name::<T>(),
                kind
            );
        }
    }

    #[test]
    fn twins_r2r_pipeline_f64() {
        pipeline::<f64>(1e-12, 2);
    }

    #[test]
    fn twins_r2r_pipeline_f32() {
        pipeline::<f32>(2e-6, 3);
    }

    /// pre → plain f64 O(N^2) DFT → post, small n, against the direct definitions.
    #[test]
    fn twins_r2r_with_direct_dft() {
        let mut rng = SmallRng::seed_from_u64(4);
        for kind in R2rKind::ALL {
            for n in [1usize, 2, 3, 4, 5, 8, 17] {
                if !valid(kind, n) {
                    continue;
                }
                let big_n = r2r_logical_size(kind, n);
                let x = random(n, &mut rng);
                let mut z = vec![Complex::new(0.0, 0.0); big_n];
                r2r_pre(kind, n, 1, &x, Lines::new(0, 1, n as isize), &mut z);
                let zz = direct_dft(&z, r2r_fft_sign(kind));
                let mut y = vec![0.0; n];
                r2r_post(kind, n, 1, &zz, &mut y, Lines::new(0, 1, n as isize));
                let e = rel_err(&y, &direct(kind, &x));
                assert!(e < 1e-13 * big_n as f64, "{kind:?} n={n}: {e:e}");
            }
        }
    }

    #[test]
    fn twins_logical_sizes_and_signs() {
        for kind in R2rKind::ALL {
            for n in 2..10usize {
                assert_eq!(
                    r2r_logical_size(kind, n) as isize,
                    kind.logical_size(n as isize)
                );
            }
            assert_eq!(
                r2r_fft_sign(kind),
                if kind == R2rKind::Hc2r { 1 } else { -1 }
            );
        }
        // The twin's private numbers are FFTW's.
        let ours = [
            R2HC, HC2R, DHT, REDFT00, REDFT01, REDFT10, REDFT11, RODFT00, RODFT01, RODFT10, RODFT11,
        ];
        for (k, v) in R2rKind::ALL.iter().zip(ours) {
            assert_eq!(*k as i32, v);
        }
        assert_eq!(R2rKind::Redft11 as i32, crate::abi::FFTW_REDFT11);
        assert_eq!(R2rKind::Hc2r as i32, crate::abi::FFTW_HC2R);
        assert_eq!(R2rKind::Rodft11 as i32, crate::abi::FFTW_RODFT11);
    }

    #[test]
    fn twins_cis_pi_reduction() {
        for den in [1i64, 2, 3, 7, 2000, 1 << 40] {
            for num in [
                -5 * den - 1,
                -2 * den,
                -den,
                -1,
                0,
                1,
                den / 2,
                den,
                3 * den + 1,
                7 * den / 3,
            ] {
                let (c, s) = cis_pi(num, den);
                let (s0, c0) = (PI * (num as f64 / den as f64)).sin_cos();
                if den < 1 << 20 {
                    assert!(
                        (c - c0).abs() < 1e-14 && (s - s0).abs() < 1e-14,
                        "{num}/{den}"
                    );
                }
                assert!((c * c + s * s - 1.0).abs() < 1e-15);
            }
        }
        // Large N: e^{-iπ(N-1)/N} stays accurate.
        let big = 1i64 << 50;
        let (c, s) = cis_pi(-(big - 1), big);
        let want = -(PI / big as f64).sin();
        assert!(
            (c + 1.0).abs() < 1e-15 && ((s - want) / want).abs() < 1e-15,
            "{s:e} vs {want:e}"
        );
        // Exact at the quadrant points.
        assert_eq!(cis_pi(0, 5), (1.0, 0.0));
        assert_eq!(cis_pi(5, 10), (0.0, 1.0));
        assert_eq!(cis_pi(-5, 5), (-1.0, 0.0));
    }

    /// Naive strided copy: nested loops over an odometer.
    fn naive_copy(
        n: &[i64],
        src: &[u32],
        so: i64,
        ss: &[i64],
        dst: &mut [u32],
        dof: i64,
        ds: &[i64],
    ) {
        if n.iter().any(|&v| v <= 0) {
            return;
        }
        let mut idx = vec![0i64; n.len()];
        loop {
            let s: i64 = so + idx.iter().zip(ss).map(|(i, s)| i * s).sum::<i64>();
            let d: i64 = dof + idx.iter().zip(ds).map(|(i, s)| i * s).sum::<i64>();
            dst[d as usize] = src[s as usize];
            let mut k = n.len();
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < n[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
    }

    /// Random strides (some negative) for the box `n`, distinct addresses when `injective`;
    /// returns (strides, offset making every address ≥ 0, buffer length).
    fn random_strides(n: &[i64], rng: &mut SmallRng, injective: bool) -> (Vec<i64>, i64, usize) {
        let rank = n.len();
        // Nested: each dimension's |stride| is at least the extent of the faster ones, in a
        // random order of dimensions, plus random gaps.
        let mut order: Vec<usize> = (0..rank).collect();
        for i in (1..rank).rev() {
            order.swap(i, rng.gen_range(0..=i));
        }
        let mut strides = vec![0i64; rank];
        let mut extent = 1i64;
        for &d in &order {
            let mag = if injective {
                extent + rng.gen_range(0..3)
            } else {
                rng.gen_range(0..3)
            };
            strides[d] = if rng.gen_bool(0.4) { -mag } else { mag };
            extent = mag.max(1) * n[d].max(1) + rng.gen_range(0..2);
            if !injective {
                extent = 1;
            }
        }
        let lo: i64 = n
            .iter()
            .zip(&strides)
            .map(|(&k, &s)| (k - 1).max(0) * s.min(0))
            .sum();
        let hi: i64 = n
            .iter()
            .zip(&strides)
            .map(|(&k, &s)| (k - 1).max(0) * s.max(0))
            .sum();
        let off = -lo + rng.gen_range(0..4);
        (strides, off, (off + hi + 1 + rng.gen_range(0..3)) as usize)
    }

    #[test]
    fn twins_strided_copy_random_shapes() {
        let mut rng = SmallRng::seed_from_u64(5);
        for trial in 0..400 {
            let rank = trial % (MAX_RANK + 1);
            let n: Vec<i64> = (0..rank)
                .map(|_| {
                    if rng.gen_bool(0.03) {
                        0
                    } else {
                        rng.gen_range(1..if rank > 4 { 3 } else { 6 })
                    }
                })
                .collect();
            let injective = rng.gen_bool(0.7);
            let (ss, so, slen) = random_strides(&n, &mut rng, injective);
            let (ds, dof, dlen) = random_strides(&n, &mut rng, true);
            let src: Vec<u32> = (0..slen as u32).map(|v| v * 7 + 1).collect();
            let mut want = vec![u32::MAX; dlen];
            let mut got = want.clone();
            naive_copy(&n, &src, so, &ss, &mut want, dof, &ds);
            strided_copy(rank, &n, &src, so, &ss, &mut got, dof, &ds);
            assert_eq!(
                got, want,
                "rank {rank} n {n:?} src {ss:?}+{so} dst {ds:?}+{dof}"
            );
        }
        // Gather a strided complex layout into a packed one and scatter it back.
        let n = [3i64, 4, 5];
        let (ss, so, slen) = random_strides(&n, &mut rng, true);
        let src: Vec<Complex<f32>> = (0..slen)
            .map(|i| Complex::new(i as f32, -(i as f32)))
            .collect();
        let packed_strides = [20i64, 5, 1];
        let mut packed = vec![Complex::new(0.0f32, 0.0); 60];
        strided_copy(3, &n, &src, so, &ss, &mut packed, 0, &packed_strides);
        let mut back = vec![Complex::new(f32::NAN, 0.0); slen];
        strided_copy(3, &n, &packed, 0, &packed_strides, &mut back, so, &ss);
        for (i, v) in back.iter().enumerate() {
            assert!(v.re.is_nan() || *v == src[i]);
        }
        assert_eq!(back.iter().filter(|v| !v.re.is_nan()).count(), 60);
    }

    fn cu_source(name: &str) -> String {
        let path = format!("{}/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// `extern "C" __global__ void NAME(PARAMS)` entry points of a .cu file, with their params.
    fn entry_points(src: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut rest = src;
        while let Some(p) = rest.find("extern \"C\"") {
            rest = &rest[p + "extern \"C\"".len()..];
            let head = rest.trim_start();
            let Some(head) = head.strip_prefix("__global__") else {
                continue;
            };
            let head = head.trim_start();
            let Some(head) = head.strip_prefix("void") else {
                continue;
            };
            let open = head.find('(').unwrap();
            let close = head.find(')').unwrap();
            out.push((
                head[..open].trim().to_string(),
                head[open + 1..close]
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            ));
        }
        out
    }

    #[test]
    fn twins_cu_files_define_every_entry_point() {
        let r2r = cu_source("r2r.cu");
        let eps = entry_points(&r2r);
        for name in R2R_KERNELS {
            let (_, params) = eps
                .iter()
                .find(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("r2r.cu lacks {name}"));
            let (r, c) = if name.ends_with("f32") {
                ("float", "float2")
            } else {
                ("double", "double2")
            };
            let want = if name.starts_with("r2r_pre") {
                format!("int kind, long long n, long long N, long long batch, const {r}* in, long long in_offset, long long in_stride, long long in_dist, long long group, long long group_dist, {c}* z")
            } else {
                format!("int kind, long long n, long long N, long long batch, const {c}* z, {r}* out, long long out_offset, long long out_stride, long long out_dist, long long group, long long group_dist")
            };
            assert_eq!(params, &want, "{name}");
        }
        assert_eq!(eps.len(), R2R_KERNELS.len());
        // Kind numbers are FFTW's.
        for kind in R2rKind::ALL {
            let def = format!(
                "#define FFTX_{} {}",
                kind.name().to_uppercase(),
                kind as i32
            );
            assert!(r2r.contains(&def), "r2r.cu lacks `{def}`");
        }
        let layout = cu_source("layout.cu");
        let eps = entry_points(&layout);
        for name in LAYOUT_KERNELS {
            let (_, params) = eps
                .iter()
                .find(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("layout.cu lacks {name}"));
            let t = match &name[name.len() - 3..] {
                "f32" => "float",
                "f64" => "double",
                "c32" => "float2",
                _ => "double2",
            };
            let want = format!(
                "int rank, StridedShape shape, const {t}* src, long long src_offset, {t}* dst, long long dst_offset"
            );
            assert_eq!(params, &want, "{name}");
        }
        assert_eq!(eps.len(), LAYOUT_KERNELS.len());
        assert!(layout.contains(&format!("#define FFTX_MAX_RANK {MAX_RANK}")));
        assert_eq!(std::mem::size_of::<StridedShape>(), 3 * MAX_RANK * 8);
        // Each file names its twins and each helper the twin uses.
        for helper in [
            "r2r_logical",
            "r2r_pre_twiddled",
            "r2r_extend",
            "cis_pi",
            "r2r_pre_value",
            "r2r_post_value",
            "twins::r2r_pre",
            "twins::r2r_post",
        ] {
            assert!(r2r.contains(helper), "r2r.cu lacks {helper}");
        }
        for helper in ["strided_total", "strided_offsets", "twins::strided_copy"] {
            assert!(layout.contains(helper), "layout.cu lacks {helper}");
        }
    }
}
