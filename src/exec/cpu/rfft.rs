//! Real-input (r2c) and real-output (c2r) 1-D transforms on contiguous rows.
//!
//! Even lengths go through a complex FFT of half the length (the real row read as n/2 complex
//! numbers) with the split-radix twiddle step fused in: after the FFT for r2c, before it for c2r
//! (realfft's algorithm, with twiddles from the vendored rustfft's correctly rounded table). The
//! r2c reads its input through `process_immutable`, so a caller's row is never copied or
//! modified. Odd lengths use realfft. Short contiguous r2c rows of a block (`forward_rows`) run their
//! half-length FFTs a batch at a time into a small buffer that stays in L1, and the twiddle step
//! reads it and writes each output row once (the in-place step read back rows the FFT had just
//! stored into cold output lines: a third of a 32^3 r2c).
//!
//! A large row on several threads (`with_threads`): the half-length FFT is a four-step
//! (`fourstep.rs`) and the twiddle step runs in chunks of pairs on the pool.

use super::fourstep;
use super::layout::SharedMut;
use crate::exec::parallel::parallel_for;
use crate::real::Real;
use num_complex::Complex;
use realfft::{ComplexToReal, RealToComplex};
use rustfft::{Fft, FftDirection};
use std::sync::Arc;

pub enum Rfft<T: Real> {
    Even {
        n: usize,
        half: Arc<dyn Fft<T>>,
        /// exp(-+2 pi i k / n) for k in 1..n/4 (times 0.5 for r2c, conjugated for c2r).
        tw: Vec<Complex<T>>,
        /// Threads of the twiddle step (1, or those of a four-step `half`).
        threads: usize,
    },
    OddForward(Arc<dyn RealToComplex<T>>),
    OddInverse(Arc<dyn ComplexToReal<T>>),
}

fn twiddle<T: Real>(k: usize, n: usize) -> Complex<T> {
    let (c, s) = rustfft::accurate_twiddle(k, n);
    Complex::new(T::cast(c), T::cast(s))
}

/// `twiddle(k, n)` for `k` in `1..count` (`count` ≤ n/4 + 1). Planning time is the sines
/// (a 2^16-point c2r spent nearly all of its 0.36 ms plan here), so for n a multiple of 4 the
/// second octant comes from the first by the symmetry `accurate_twiddle` itself uses (the same
/// sine and cosine, swapped: bit for bit the same table), and on several threads a large first
/// octant is shared among them.
fn twiddle_table<T: Real>(n: usize, count: usize, threads: usize) -> Vec<Complex<T>> {
    let mut tw = vec![Complex::new(T::zero(), T::zero()); count.saturating_sub(1)];
    // tw[k - 1] for k < first_derived is computed; the rest (n/8 < k < n/4) derived.
    let first_derived = if n.is_multiple_of(4) {
        (n / 8 + 1).min(count)
    } else {
        count
    };
    let out = SharedMut(tw.as_mut_ptr());
    let jobs = (first_derived.saturating_sub(1)).div_ceil(TWIDDLES_PER_JOB);
    // (A table of a few jobs on the calling thread: planning then never starts the pool.)
    let threads = if jobs < 8 { 1 } else { threads };
    parallel_for(threads, jobs, &|range| {
        #[allow(clippy::redundant_locals)] // capture the Sync wrapper, not its pointer
        let out = out;
        for job in range {
            let lo = 1 + job * TWIDDLES_PER_JOB;
            for k in lo..(lo + TWIDDLES_PER_JOB).min(first_derived) {
                // SAFETY: k - 1 < count - 1, and each k is this job's alone.
                unsafe { *out.0.add(k - 1) = twiddle::<T>(k, n) };
            }
        }
    });
    for k in first_derived..count {
        let w = tw[n / 4 - k - 1];
        tw[k - 1] = Complex::new(-w.im, -w.re);
    }
    tw
}

/// Twiddles per job of a threaded [`twiddle_table`].
const TWIDDLES_PER_JOB: usize = 2048;

impl<T: Real> Rfft<T> {
    /// The r2c (`forward`) or c2r transform of real length `n`.
    pub fn new(n: usize, forward: bool) -> Self {
        Self::with_threads(n, forward, 1)
    }

    /// Whether a row of length `n` runs on `threads` threads ([`Rfft::with_threads`]).
    pub fn threaded(n: usize, threads: usize) -> bool {
        n.is_multiple_of(2) && fourstep::applies::<T>(n / 2, threads)
    }

    /// As [`Rfft::new`]; a row for which [`Rfft::threaded`] holds runs on `threads` threads.
    pub fn with_threads(n: usize, forward: bool, threads: usize) -> Self {
        let p = T::planners();
        if n % 2 == 1 || n < 2 {
            return if forward {
                Rfft::OddForward(p.real.lock().plan_fft_forward(n))
            } else {
                Rfft::OddInverse(p.real.lock().plan_fft_inverse(n))
            };
        }
        let dir = if forward {
            FftDirection::Forward
        } else {
            FftDirection::Inverse
        };
        let threads = if Self::threaded(n, threads) {
            threads
        } else {
            1
        };
        let half = fourstep::plan(n / 2, dir, threads);
        let count = if n.is_multiple_of(4) {
            n / 4
        } else {
            n / 4 + 1
        };
        let tw = twiddle_table::<T>(n, count, threads)
            .into_iter()
            .map(|w| if forward { w * T::cast(0.5) } else { w.conj() })
            .collect();
        Rfft::Even {
            n,
            half,
            tw,
            threads,
        }
    }

    #[allow(clippy::len_without_is_empty)] // a transform is never empty
    pub fn len(&self) -> usize {
        match self {
            Rfft::Even { n, .. } => *n,
            Rfft::OddForward(f) => f.len(),
            Rfft::OddInverse(f) => f.len(),
        }
    }

    /// Complex scratch elements one call needs.
    pub fn scratch_len(&self) -> usize {
        match self {
            Rfft::Even { half, .. } => half
                .get_immutable_scratch_len()
                .max(half.get_outofplace_scratch_len()),
            // realfft's scratch, and a copy of the (destroyed) input
            Rfft::OddForward(f) => f.get_scratch_len() + f.len().div_ceil(2),
            Rfft::OddInverse(f) => f.get_scratch_len() + f.len() / 2 + 1,
        }
    }

    /// r2c of one row: `x` (n reals) to `out` (n/2+1 complex). `x` is only read.
    pub fn forward(&self, x: &[T], out: &mut [Complex<T>], scratch: &mut [Complex<T>]) {
        match self {
            Rfft::Even {
                n,
                half,
                tw,
                threads,
            } => {
                let m = n / 2;
                // SAFETY: a row of 2m reals is m complex numbers (same alignment as T).
                let z = unsafe { std::slice::from_raw_parts(x.as_ptr() as *const Complex<T>, m) };
                half.process_immutable_with_scratch(z, &mut out[..m], scratch);
                post_r2c(out, tw, *threads);
            }
            Rfft::OddForward(f) => {
                let n = f.len();
                let (copy, rest) = scratch.split_at_mut(n.div_ceil(2));
                // SAFETY: ceil(n/2) complex numbers hold n reals.
                let copy =
                    unsafe { std::slice::from_raw_parts_mut(copy.as_mut_ptr() as *mut T, n) };
                copy.copy_from_slice(x);
                f.process_with_scratch(copy, out, rest)
                    .expect("lengths set by plan");
                // realfft leaves tiny nonzero imaginary parts at DC (and FFTW's are +0: the
                // caller sets the self-conjugate bins).
            }
            Rfft::OddInverse(_) => unreachable!("r2c through a c2r transform"),
        }
    }

    /// Rows the half-length FFT of [`Rfft::forward_rows`] takes at a time into `tmp` (`tmp`
    /// complex elements; 0: the transform has no batched form, or `tmp` is too short).
    pub fn rows_per_batch(&self, tmp: usize) -> usize {
        match self {
            // short rows only (half-length rows up to 256 bytes: f64 n <= 32, f32 n <= 64): on a
            // Zen 4, longer rows (512 f64 in r2c 512 x 16384, 128 in 128^3) were slower so
            Rfft::Even { n, threads: 1, .. }
                if n / 2 * 2 * std::mem::size_of::<T>() <= SHORT_ROW_BYTES =>
            {
                let m = n / 2;
                (ROWS_BYTES / (m * 2 * std::mem::size_of::<T>())).min(tmp / m)
            }
            _ => 0,
        }
    }

    /// r2c of `count` contiguous rows (`x`: row j at `j * n`) into `out` (row j at `out + j *
    /// db`, n/2+1 complex each): the half-length FFTs of a batch of rows into `tmp`
    /// ([`Rfft::rows_per_batch`] rows), then the twiddle step out of place from `tmp` into the
    /// rows (which are then written once, not stored by the FFT and read back).
    ///
    /// # Safety
    /// `x` holds `count * n` reals, the output rows are apart and hold n/2+1 elements each;
    /// `rows_per_batch(tmp.len()) > 0`.
    pub unsafe fn forward_rows(
        &self,
        x: *const T,
        count: usize,
        out: *mut Complex<T>,
        db: isize,
        tmp: &mut [Complex<T>],
        scratch: &mut [Complex<T>],
    ) {
        let Rfft::Even { n, half, tw, .. } = self else {
            unreachable!("batched rows of an even-length r2c only")
        };
        let (n, m) = (*n, n / 2);
        let batch = self.rows_per_batch(tmp.len());
        let mut r0 = 0;
        while r0 < count {
            let c = batch.min(count - r0);
            // SAFETY: c rows of 2m reals are c * m complex numbers.
            let z = std::slice::from_raw_parts(x.add(r0 * n) as *const Complex<T>, c * m);
            half.process_immutable_with_scratch(z, &mut tmp[..c * m], scratch);
            for j in 0..c {
                let o = std::slice::from_raw_parts_mut(out.offset((r0 + j) as isize * db), m + 1);
                post_r2c_from(&tmp[j * m..(j + 1) * m], o, tw);
            }
            r0 += c;
        }
    }

    /// c2r of one row: `spec` (n/2+1 complex, overwritten: pass a copy) to `x` (n reals). The
    /// imaginary parts of DC and (even n) Nyquist are ignored, as FFTW does.
    pub fn inverse(&self, spec: &mut [Complex<T>], x: &mut [T], scratch: &mut [Complex<T>]) {
        match self {
            Rfft::Even {
                n,
                half,
                tw,
                threads,
            } => {
                let m = n / 2;
                pre_c2r(spec, tw, *threads);
                // SAFETY: a row of 2m reals is m complex numbers.
                let z =
                    unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut Complex<T>, m) };
                half.process_outofplace_with_scratch(&mut spec[..m], z, scratch);
            }
            Rfft::OddInverse(f) => {
                spec[0].im = T::zero();
                // realfft refuses nonzero imaginary parts where a real signal has none, after
                // computing the transform: zeroed above, so it never does.
                f.process_with_scratch(spec, x, scratch)
                    .expect("imaginary parts zeroed");
            }
            Rfft::OddForward(_) => unreachable!("c2r through an r2c transform"),
        }
    }
}

/// The r2c step after the half-length FFT (realfft's `RealToComplexEven`), in place on `out`
/// (n/2 + 1 elements, the FFT's n/2 results in the first n/2).
#[inline]
fn post_r2c<T: Real>(out: &mut [Complex<T>], tw: &[Complex<T>], threads: usize) {
    let h = out.len();
    let first = out[0];
    out[0] = Complex::new(first.re + first.im, T::zero());
    out[h - 1] = Complex::new(first.re - first.im, T::zero());
    let m = h - 1; // n/2
    let (left, right) = out[1..m].split_at_mut((m - 1) / 2);
    // pairs (k, m - k) for k in 1..=(m-1)/2; for even m the centre (m/2) is alone
    in_chunks(left, right, tw, threads, &pairs_r2c);
    if m.is_multiple_of(2) && m >= 2 {
        // the centre bin m/2 = n/4: conjugate
        let c = &mut out[m / 2];
        c.im = -c.im;
    }
}

/// Bytes of half-length FFT output [`Rfft::forward_rows`] keeps in `tmp` at a time (in L1).
pub const ROWS_BYTES: usize = 16 << 10;
/// The longest half-length row (bytes) [`Rfft::forward_rows`] takes.
pub const SHORT_ROW_BYTES: usize = 256;

/// [`post_r2c`] out of place: `src` (the FFT's n/2 results) to `out` (n/2 + 1 elements).
#[inline]
fn post_r2c_from<T: Real>(src: &[Complex<T>], out: &mut [Complex<T>], tw: &[Complex<T>]) {
    let m = src.len();
    assert!(out.len() == m + 1 && tw.len() >= (m - 1) / 2);
    let first = src[0];
    out[0] = Complex::new(first.re + first.im, T::zero());
    out[m] = Complex::new(first.re - first.im, T::zero());
    let pairs = (m - 1) / 2;
    let half = T::cast(0.5);
    // SAFETY: pairs k in 1..=pairs and m - k lie in 1..m, apart in both.
    let done = unsafe {
        pairs_simd_from(
            src.as_ptr().add(1),
            src.as_ptr().add(m - 1),
            out.as_mut_ptr().add(1),
            out.as_mut_ptr().add(m - 1),
            pairs,
            tw,
        )
    };
    for k in done..pairs {
        (out[1 + k], out[m - 1 - k]) = r2c_pair(src[1 + k], src[m - 1 - k], tw[k], half);
    }
    if m.is_multiple_of(2) {
        // the centre bin m/2 = n/4: conjugate
        out[m / 2] = src[m / 2].conj();
    }
}

/// The r2c pair loop out of place with AVX (as [`pairs_simd`]); `sr`/`dr` point at the
/// partner of the first pair and go down. Returns the pairs done.
#[inline]
unsafe fn pairs_simd_from<T: Real>(
    sl: *const Complex<T>,
    sr: *const Complex<T>,
    dl: *mut Complex<T>,
    dr: *mut Complex<T>,
    pairs: usize,
    tw: &[Complex<T>],
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f64>()
        && std::arch::is_x86_feature_detected!("avx")
    {
        return pairs_f64_avx(
            sl as *const f64,
            sr as *const f64,
            dl as *mut f64,
            dr as *mut f64,
            pairs,
            tw.as_ptr() as *const f64,
            (0.5, 1.0),
        );
    }
    #[cfg(target_arch = "x86_64")]
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()
        && std::arch::is_x86_feature_detected!("avx")
    {
        return pairs_f32_avx(
            sl as *const f32,
            sr as *const f32,
            dl as *mut f32,
            dr as *mut f32,
            pairs,
            tw.as_ptr() as *const f32,
            (0.5, 1.0),
        );
    }
    let _ = (sl, sr, dl, dr, pairs, tw);
    0
}

/// [`pairs_f64_avx`] in single precision, four pairs at a time ([`pair_step_f32`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn pairs_f32_avx(
    sl: *const f32,
    sr: *const f32,
    dl: *mut f32,
    dr: *mut f32,
    pairs: usize,
    tp: *const f32,
    (scale, sign): (f32, f32),
) -> usize {
    use std::arch::x86_64::*;
    let (scale, sign) = (_mm256_set1_ps(scale), _mm256_set1_ps(sign));
    let mut k = 0;
    while k + 4 <= pairs {
        let o = 2 * k as isize;
        // a_k .. a_k+3 and b_-k-3 .. b_-k
        let (a, b) = (
            _mm256_loadu_ps(sl.offset(o)),
            _mm256_loadu_ps(sr.offset(-o - 6)),
        );
        let (lo, hi) = pair_step_f32(a, b, _mm256_loadu_ps(tp.offset(o)), scale, sign);
        _mm256_storeu_ps(dl.offset(o), lo);
        _mm256_storeu_ps(dr.offset(-o - 6), hi);
        k += 4;
    }
    k
}

/// The pair loop two pairs at a time ([`pair_step`]) with (`scale`, `sign`): pair k reads
/// `sl[k]` and `sr[-k]` and writes `dl[k]` and `dr[-k]` (complex elements; in place where the
/// destinations are the sources: a step loads before it stores). Returns the pairs done.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn pairs_f64_avx(
    sl: *const f64,
    sr: *const f64,
    dl: *mut f64,
    dr: *mut f64,
    pairs: usize,
    tp: *const f64,
    (scale, sign): (f64, f64),
) -> usize {
    use std::arch::x86_64::*;
    let (scale, sign) = (_mm256_set1_pd(scale), _mm256_set1_pd(sign));
    let mut k = 0;
    while k + 2 <= pairs {
        let o = 2 * k as isize;
        // a_k, a_k+1 and b_-k-1, b_-k
        let (a, b) = (
            _mm256_loadu_pd(sl.offset(o)),
            _mm256_loadu_pd(sr.offset(-o - 2)),
        );
        let (lo, hi) = pair_step(a, b, _mm256_loadu_pd(tp.offset(o)), scale, sign);
        _mm256_storeu_pd(dl.offset(o), lo);
        _mm256_storeu_pd(dr.offset(-o - 2), hi);
        k += 2;
    }
    k
}

/// A pair loop: [`pairs_r2c`] or [`pairs_c2r`] on (left, right, twiddles).
type PairLoop<T> = dyn Fn(&mut [Complex<T>], &mut [Complex<T>], &[Complex<T>]) + Sync;

/// Pairs per job of a threaded twiddle step.
const PAIRS_PER_JOB: usize = 1 << 14;

/// Runs `pairs(left, right, tw)` on the whole of them, or on `threads` threads in chunks (pair k
/// is `left[k]` and `right[len - 1 - k]`: a chunk of `left` goes with the mirrored chunk of
/// `right`, apart from every other chunk's).
fn in_chunks<T: Real>(
    left: &mut [Complex<T>],
    right: &mut [Complex<T>],
    tw: &[Complex<T>],
    threads: usize,
    pairs: &PairLoop<T>,
) {
    let (np, rl) = (left.len(), right.len());
    if threads <= 1 || np < 2 * PAIRS_PER_JOB {
        return pairs(left, right, tw);
    }
    #[derive(Clone, Copy)]
    struct P<E>(*mut E);
    unsafe impl<E> Send for P<E> {}
    unsafe impl<E> Sync for P<E> {}
    impl<E> P<E> {
        // a method, so the closure captures the whole `P`, not its raw field
        unsafe fn at(self, i: usize) -> *mut E {
            self.0.add(i)
        }
    }
    let (lp, rp) = (P(left.as_mut_ptr()), P(right.as_mut_ptr()));
    parallel_for(threads, np.div_ceil(PAIRS_PER_JOB), &|jobs| {
        for j in jobs {
            let (a, b) = (j * PAIRS_PER_JOB, ((j + 1) * PAIRS_PER_JOB).min(np));
            // SAFETY: pairs a..b alone: left[a..b], right[rl-b..rl-a] (rl >= np).
            let (l, r) = unsafe {
                (
                    std::slice::from_raw_parts_mut(lp.at(a), b - a),
                    std::slice::from_raw_parts_mut(rp.at(rl - b), b - a),
                )
            };
            pairs(l, r, &tw[a..b]);
        }
    });
}

/// One pair (k, m - k) of the r2c twiddle step: `a` and `b` from the half-length FFT, twiddle
/// `t` (exp(-2 pi i k / n) / 2), `half` = 1/2.
#[inline]
fn r2c_pair<T: Real>(
    a: Complex<T>,
    b: Complex<T>,
    t: Complex<T>,
    half: T,
) -> (Complex<T>, Complex<T>) {
    let (sum, diff) = (a + b, a - b);
    let twr = sum.im * t.re + diff.re * t.im;
    let twi = sum.im * t.im - diff.re * t.re;
    let (hs, hd) = (half * sum.re, half * diff.im);
    (
        Complex::new(hs + twr, hd + twi),
        Complex::new(hs - twr, twi - hd),
    )
}

/// The pair loop of [`post_r2c`].
fn pairs_r2c<T: Real>(left: &mut [Complex<T>], right: &mut [Complex<T>], tw: &[Complex<T>]) {
    let half = T::cast(0.5);
    let right_len = right.len();
    let pairs = left.len();
    let done = pairs_simd(left, right, tw, half, T::one());
    for k in done..pairs {
        let r = right_len - 1 - k;
        (left[k], right[r]) = r2c_pair(left[k], right[r], tw[k], half);
    }
}

/// The c2r step before the half-length FFT (realfft's `ComplexToRealEven`), in place on `spec`
/// (n/2 + 1 elements; the FFT then reads the first n/2).
#[inline]
fn pre_c2r<T: Real>(spec: &mut [Complex<T>], tw: &[Complex<T>], threads: usize) {
    let h = spec.len();
    let m = h - 1;
    let (a, b) = (spec[0].re, spec[m].re); // DC and Nyquist, imaginary parts ignored
    spec[0] = Complex::new(a + b, a - b);
    let (left, right) = spec[1..m].split_at_mut((m - 1) / 2);
    in_chunks(left, right, tw, threads, &pairs_c2r);
    if m.is_multiple_of(2) && m >= 2 {
        let c = spec[m / 2];
        spec[m / 2] = (c + c).conj();
    }
}

/// The pair loop of [`pre_c2r`].
fn pairs_c2r<T: Real>(left: &mut [Complex<T>], right: &mut [Complex<T>], tw: &[Complex<T>]) {
    let right_len = right.len();
    let done = pairs_simd(left, right, tw, T::one(), -T::one());
    for k in done..left.len() {
        let x = left[k];
        let y = right[right_len - 1 - k];
        let sum = x + y;
        let diff = x - y;
        let t = tw[k];
        let twr = sum.im * t.re + diff.re * t.im;
        let twi = sum.im * t.im - diff.re * t.re;
        left[k] = Complex::new(sum.re - twr, diff.im - twi);
        right[right_len - 1 - k] = Complex::new(sum.re + twr, -twi - diff.im);
    }
}

/// The pair loop of [`post_r2c`] (`scale` 1/2, `sign` 1) and [`pre_c2r`] (1, -1) with AVX, as
/// far as it goes two pairs (f64) or four (f32) at a time; returns the pairs done (0: none,
/// the caller's scalar loop does them all). Pair k is `left[k]` and `right[len - 1 - k]`; with A = scale
/// (re(a + b), im(a - b)) and W = sign (twr, twi), `left[k] = A + W`, `right[..] = A - W` with
/// its imaginary part negated: the scalar loops' arithmetic, operation for operation. (The
/// scalar loop was a third of a 4096-point f64 r2c: LLVM vectorized it poorly.)
#[inline]
fn pairs_simd<T: Real>(
    left: &mut [Complex<T>],
    right: &mut [Complex<T>],
    tw: &[Complex<T>],
    scale: T,
    sign: T,
) -> usize {
    let pairs = left.len();
    assert!(right.len() >= pairs && tw.len() >= pairs);
    if pairs == 0 {
        return 0;
    }
    // The partner of pair 0, the right's last element; pair k's is k elements below it.
    // SAFETY: right is not empty (it has at least `pairs` elements).
    let last = unsafe { right.as_mut_ptr().add(right.len() - 1) };
    #[cfg(target_arch = "x86_64")]
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f64>()
        && std::arch::is_x86_feature_detected!("avx")
    {
        let f = |x: T| x.to_f64().expect("f64");
        let (l, r) = (left.as_mut_ptr() as *mut f64, last as *mut f64);
        // SAFETY: T is f64 (same layout), the CPU has AVX, pairs k < `pairs` lie in the slices.
        unsafe {
            let tp = tw.as_ptr() as *const f64;
            return pairs_f64_avx(l, r, l, r, pairs, tp, (f(scale), f(sign)));
        }
    }
    #[cfg(target_arch = "x86_64")]
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()
        && std::arch::is_x86_feature_detected!("avx")
    {
        let f = |x: T| x.to_f32().expect("f32");
        let (l, r) = (left.as_mut_ptr() as *mut f32, last as *mut f32);
        // SAFETY: T is f32 (same layout), the CPU has AVX, pairs k < `pairs` lie in the slices.
        unsafe {
            let tp = tw.as_ptr() as *const f32;
            return pairs_f32_avx(l, r, l, r, pairs, tp, (f(scale), f(sign)));
        }
    }
    let _ = (left, last, tw, scale, sign);
    0
}

/// Four complex f32 in reverse order.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
unsafe fn reverse4(x: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    let halves = _mm256_permute2f128_ps(x, x, 0x01);
    _mm256_shuffle_ps(halves, halves, 0x4e)
}

/// [`pair_step`] on four pairs of complex f32: the same operations in the same order (the
/// horizontal sums come out as (twr_k, twr_k+1, twi_k, twi_k+1) a lane and are put back in
/// element order).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
unsafe fn pair_step_f32(
    a: std::arch::x86_64::__m256,
    b: std::arch::x86_64::__m256,
    t: std::arch::x86_64::__m256,
    scale: std::arch::x86_64::__m256,
    sign: std::arch::x86_64::__m256,
) -> (std::arch::x86_64::__m256, std::arch::x86_64::__m256) {
    use std::arch::x86_64::*;
    let neg_im = _mm256_setr_ps(0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0);
    let b = reverse4(b); // the partners in the left's order
    let s = _mm256_add_ps(a, b);
    let d = _mm256_sub_ps(a, b);
    // x = (si, dr): twr = si tr + dr ti, twi = si ti - dr tr
    let x = _mm256_blend_ps(_mm256_permute_ps(s, 0xb1), _mm256_permute_ps(d, 0xb1), 0xaa);
    let p = _mm256_mul_ps(x, t);
    let q = _mm256_xor_ps(_mm256_mul_ps(x, _mm256_permute_ps(t, 0xb1)), neg_im);
    let w = _mm256_permute_ps(_mm256_hadd_ps(p, q), 0xd8);
    let w = _mm256_mul_ps(w, sign);
    let h = _mm256_mul_ps(_mm256_blend_ps(s, d, 0xaa), scale); // (sr, di) scale
    let lo = _mm256_add_ps(h, w);
    let hi = _mm256_xor_ps(_mm256_sub_ps(h, w), neg_im);
    (lo, reverse4(hi))
}

/// Two pairs of the pair loops at once: `a` holds left elements k, k+1, `b` their partners as
/// stored on the right (the element at right-index r-2-k first), `t` twiddles k, k+1. With
/// A = scale (re(a + b), im(a - b)) and W = sign (twr, twi): returns A + W for the left and
/// A - W, imaginary parts negated, in the right side's order.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
unsafe fn pair_step(
    a: std::arch::x86_64::__m256d,
    b: std::arch::x86_64::__m256d,
    t: std::arch::x86_64::__m256d,
    scale: std::arch::x86_64::__m256d,
    sign: std::arch::x86_64::__m256d,
) -> (std::arch::x86_64::__m256d, std::arch::x86_64::__m256d) {
    use std::arch::x86_64::*;
    let neg_im = _mm256_setr_pd(0.0, -0.0, 0.0, -0.0);
    let b = _mm256_permute2f128_pd(b, b, 0x01); // the partners in the left's order
    let s = _mm256_add_pd(a, b);
    let d = _mm256_sub_pd(a, b);
    // x = (si, dr): twr = si tr + dr ti, twi = si ti - dr tr
    let x = _mm256_blend_pd(
        _mm256_permute_pd(s, 0b0101),
        _mm256_permute_pd(d, 0b0101),
        0b1010,
    );
    let p = _mm256_mul_pd(x, t);
    let q = _mm256_xor_pd(_mm256_mul_pd(x, _mm256_permute_pd(t, 0b0101)), neg_im);
    let w = _mm256_mul_pd(_mm256_hadd_pd(p, q), sign);
    let h = _mm256_mul_pd(_mm256_blend_pd(s, d, 0b1010), scale); // (sr, di) scale
    let lo = _mm256_add_pd(h, w);
    let hi = _mm256_xor_pd(_mm256_sub_pd(h, w), neg_im);
    (lo, _mm256_permute2f128_pd(hi, hi, 0x01))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twiddle_table_is_accurate_twiddle_bit_for_bit() {
        fn check<T: Real>(n: usize, threads: usize) {
            let count = if n.is_multiple_of(4) {
                n / 4
            } else {
                n / 4 + 1
            };
            let table = twiddle_table::<T>(n, count, threads);
            assert_eq!(table.len(), count - 1);
            for (i, w) in table.iter().enumerate() {
                // (to f64 exactly: the bits of either precision, zero's sign included)
                let bits =
                    |c: Complex<T>| [c.re, c.im].map(|v| v.to_f64().expect("finite").to_bits());
                let want = twiddle::<T>(i + 1, n);
                assert_eq!(bits(*w), bits(want), "n {n} k {}", i + 1);
            }
        }
        for threads in [1, 3] {
            for n in [2, 4, 6, 8, 10, 12, 20, 36, 64, 1000, 4098, 65536, 100_000] {
                check::<f64>(n, threads);
                check::<f32>(n, threads);
            }
        }
    }

    fn dft_r2c(x: &[f64]) -> Vec<Complex<f64>> {
        let n = x.len();
        (0..n / 2 + 1)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .fold(Complex::new(0.0, 0.0), |acc, (j, &v)| {
                        let a = -2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                        acc + Complex::new(a.cos(), a.sin()) * v
                    })
            })
            .collect()
    }

    #[test]
    fn batched_rows_match_one_row_at_a_time() {
        for n in [2usize, 4, 6, 8, 10, 12, 16, 30, 32] {
            let f = Rfft::<f64>::new(n, true);
            let (h, count) = (n / 2 + 1, 37);
            let x: Vec<f64> = (0..n * count)
                .map(|i| ((i * 7919) % 1013) as f64 - 500.0)
                .collect();
            let mut s = vec![Complex::new(0.0, 0.0); f.scratch_len()];
            let mut want = vec![Complex::new(0.0, 0.0); (h + 3) * count];
            for j in 0..count {
                let o = j * (h + 3);
                f.forward(&x[j * n..(j + 1) * n], &mut want[o..o + h], &mut s);
            }
            for tmp in [n / 2, 3 * n / 2 + 1, 256] {
                let mut t = vec![Complex::new(0.0, 0.0); tmp];
                assert!(f.rows_per_batch(tmp) > 0, "n={n}");
                let mut got = vec![Complex::new(0.0, 0.0); (h + 3) * count];
                // SAFETY: count rows of n reals in, rows of h + 3 elements out.
                unsafe {
                    f.forward_rows(
                        x.as_ptr(),
                        count,
                        got.as_mut_ptr(),
                        (h + 3) as isize,
                        &mut t,
                        &mut s,
                    )
                };
                // the same operations: bit for bit
                assert_eq!(got, want, "n={n} tmp={tmp}");
            }
        }
    }

    /// The AVX pair loops (two f64 or four f32 pairs at a time, in place and out of place)
    /// compute what the scalar loop does, bit for bit, for every count of pairs with a tail.
    #[test]
    fn simd_pair_loops_are_the_scalar_arithmetic() {
        fn check<T: Real>() {
            let value = |i: usize| T::cast(((i * 7919) % 1013) as f64 / 97.0 - 5.0);
            let c = |i: usize| Complex::new(value(2 * i), value(2 * i + 1));
            for pairs in 0..19usize {
                let right_len = pairs + 1;
                let tw: Vec<Complex<T>> = (0..pairs).map(|k| c(1000 + k)).collect();
                let (l0, r0): (Vec<_>, Vec<_>) = (
                    (0..pairs).map(c).collect(),
                    (50..50 + right_len).map(c).collect(),
                );
                for (scale, sign) in [(T::cast(0.5), T::one()), (T::one(), -T::one())] {
                    // The scalar arithmetic: what r2c_pair does, with the c2r step's scale and sign.
                    let mut want = (l0.clone(), r0.clone());
                    for k in 0..pairs {
                        let (a, b, t) = (l0[k], r0[right_len - 1 - k], tw[k]);
                        let (s, d) = (a + b, a - b);
                        let w = Complex::new(s.im * t.re + d.re * t.im, s.im * t.im - d.re * t.re);
                        let w = Complex::new(w.re * sign, w.im * sign);
                        let h = Complex::new(s.re * scale, d.im * scale);
                        want.0[k] = h + w;
                        let low = h - w;
                        want.1[right_len - 1 - k] = Complex::new(low.re, -low.im);
                    }
                    let (mut l, mut r) = (l0.clone(), r0.clone());
                    let done = pairs_simd(&mut l, &mut r, &tw, scale, sign);
                    #[cfg(target_arch = "x86_64")]
                    if std::arch::is_x86_feature_detected!("avx") {
                        let at_a_time = 32 / (2 * std::mem::size_of::<T>());
                        assert_eq!(done, pairs - pairs % at_a_time, "{pairs} pairs");
                    }
                    assert_eq!(&l[..done], &want.0[..done], "{pairs} pairs");
                    assert_eq!(
                        &r[right_len - done..],
                        &want.1[right_len - done..],
                        "{pairs} pairs"
                    );
                    if sign == T::one() {
                        // Out of place, r2c only: pair k reads src[1 + k] and src[m - 1 - k].
                        let m = 2 * pairs + 2;
                        let src: Vec<Complex<T>> = (0..m).map(|i| c(300 + i)).collect();
                        let mut out = vec![Complex::new(T::zero(), T::zero()); m + 1];
                        post_r2c_from(&src, &mut out, &tw);
                        let mut back = src.clone();
                        back.push(Complex::new(T::zero(), T::zero()));
                        post_r2c(&mut back, &tw, 1);
                        assert_eq!(out, back, "out of place, {pairs} pairs");
                    }
                }
            }
        }
        check::<f64>();
        check::<f32>();
    }

    #[test]
    fn r2c_and_c2r_match_the_dft() {
        let mut seed = 12345u64;
        let mut uniform = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        };
        for n in [
            1usize, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 30, 64, 100, 127, 256, 1000, 1024, 4096,
        ] {
            let x: Vec<f64> = (0..n).map(|_| uniform()).collect();
            let want = dft_r2c(&x);
            // a few ulps times log2 n, relative to the largest output
            let tol = 8.0 * f64::EPSILON * (n.max(2) as f64).log2();
            let scale = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
            let f = Rfft::<f64>::new(n, true);
            let mut out = vec![Complex::new(0.0, 0.0); n / 2 + 1];
            let mut s = vec![Complex::new(0.0, 0.0); f.scratch_len()];
            f.forward(&x, &mut out, &mut s);
            for (a, b) in out.iter().zip(&want) {
                assert!((a - b).norm() <= tol * scale, "r2c n={n}: {a} vs {b}");
            }
            let g = Rfft::<f64>::new(n, false);
            let mut spec = want.clone();
            spec[0].im = 7.0; // ignored
            if n % 2 == 0 {
                spec[n / 2].im = -3.0; // ignored
            }
            let mut back = vec![0.0; n];
            let mut s = vec![Complex::new(0.0, 0.0); g.scratch_len()];
            g.inverse(&mut spec, &mut back, &mut s);
            let scale = n as f64 * x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for (a, b) in back.iter().zip(&x) {
                assert!(
                    (a - b * n as f64).abs() <= tol * scale,
                    "c2r n={n}: {a} vs {}",
                    b * n as f64
                );
            }
        }
    }
}
