//! The four-step (Bailey) FFT: one large 1-D c2c transform on several threads.
//!
//! rustfft runs one transform on one thread. For N = N1·N2 (N1 ≤ N2, both near sqrt N), with
//! input index n = N2·n1 + n2 and output index k = k1 + N1·k2:
//!
//! X[k1 + N1·k2] = Σ_n2 ω_N2^(n2·k2) · ω_N^(n2·k1) · Σ_n1 ω_N1^(n1·k1) · x[N2·n1 + n2]
//!
//! 1. column FFTs (length N1, stride N2): blocks of columns gathered into contiguous pencils;
//! 2. the twiddles ω_N^(k1·n2) (computed in f64, stored in the precision) on each column while
//!    it is in cache; the columns written transposed, as rows k1 of a scratch matrix;
//! 3. row FFTs (length N2) of the scratch matrix in place, blocks of rows;
//! 4. the rows written transposed into the output (X is the N2 × N1 matrix of k2 rows).
//!
//! Steps 1-2 and 3-4 are each one parallel stage over blocks, each worker of the executor's
//! pool (`parallel.rs`) taking contiguous chunks of them; every worker has its own part of the
//! caller's scratch, so an execute allocates nothing. All of the input is read (stage 1)
//! before any output is written (stage 2): in place works the same as out of place, and the
//! input is never written.
//!
//! It is an [`Fft`], so every path that runs a rustfft plan (the pencil passes, the executor's
//! direct single-transform call, the half-length FFT of r2c/c2r) runs it unchanged.

use super::layout::block_ld;
use crate::exec::parallel::{for_each_chunk, parallel_for};
use crate::problem::Precision;
use crate::real::Real;
use num_complex::Complex;
use rustfft::{Direction, Fft, FftDirection, Length};
use std::sync::Arc;

/// Bytes of one block of pencils (a worker's gathered columns, or its rows): within L2.
const BLOCK_BYTES: usize = 256 << 10;
/// The largest prime factor of N: both factors then have fast rustfft plans (radix kernels).
const MAX_PRIME: usize = 13;

/// The smallest N worth splitting over `threads` threads in precision `T`, if any (measured on
/// 2 and 16 cores: below it, the extra passes over memory cost more than the threads save).
pub fn min_len<T: Real>(threads: usize) -> Option<usize> {
    min_len_in(T::PRECISION, threads)
}

fn min_len_in(precision: Precision, threads: usize) -> Option<usize> {
    match threads {
        0 | 1 => None,
        2 | 3 if precision == Precision::F32 => Some(1 << 18),
        _ => Some(1 << 15),
    }
}

/// N = n1 · n2 with n1 the largest divisor at most sqrt N, when every prime factor of N is at
/// most [`MAX_PRIME`] (then n1 is within a factor MAX_PRIME of sqrt N); `None` otherwise.
pub fn factors(n: usize) -> Option<(usize, usize)> {
    if n < 16 {
        return None;
    }
    let mut m = n;
    for p in 2..=MAX_PRIME {
        while m.is_multiple_of(p) {
            m /= p;
        }
    }
    if m != 1 {
        return None;
    }
    let root = n.isqrt();
    let n1 = (1..=root).rev().find(|d| n.is_multiple_of(*d))?;
    Some((n1, n / n1))
}

/// Whether a transform of length `n` runs as a four-step on `threads` threads.
pub fn applies<T: Real>(n: usize, threads: usize) -> bool {
    applies_in(T::PRECISION, n, threads)
}

/// [`applies`] for a precision known at run time (the planner's).
pub fn applies_in(precision: Precision, n: usize, threads: usize) -> bool {
    min_len_in(precision, threads).is_some_and(|m| n >= m) && factors(n).is_some()
}

/// The c2c algorithm for length `n`: a four-step on `threads` threads where [`applies`], else
/// rustfft's (one thread).
pub fn plan<T: Real>(n: usize, dir: FftDirection, threads: usize) -> Arc<dyn Fft<T>> {
    if applies::<T>(n, threads) {
        if let Some(f) = FourStep::new(n, dir, threads) {
            return Arc::new(f);
        }
    }
    T::planners().fft.lock().plan_fft(n, dir)
}

pub struct FourStep<T: Real> {
    n: usize,
    n1: usize,
    n2: usize,
    dir: FftDirection,
    /// Length n1 (columns) and n2 (rows).
    col: Arc<dyn Fft<T>>,
    row: Arc<dyn Fft<T>>,
    /// ω_N^(k1·n2) at n2·n1 + k1: column n2's, contiguous, applied while the column is in
    /// cache.
    tw: Vec<Complex<T>>,
    threads: usize,
    /// Columns per block, and their leading dimension once gathered; rows per block.
    cols_per_block: usize,
    ld: usize,
    rows_per_block: usize,
    /// Scratch of one worker.
    per_worker: usize,
}

/// A pointer the stages' jobs share; each writes only its own elements.
#[derive(Clone, Copy)]
struct Ptr<E>(*mut E);
unsafe impl<E> Send for Ptr<E> {}
unsafe impl<E> Sync for Ptr<E> {}
impl<E> Ptr<E> {
    /// Element `i` (a method, so closures capture the whole `Ptr`, not its raw field).
    ///
    /// # Safety
    /// As `pointer::add`.
    unsafe fn at(self, i: usize) -> *mut E {
        self.0.add(i)
    }
}

impl<T: Real> FourStep<T> {
    /// `None` when `n` has no factors ([`factors`]).
    pub fn new(n: usize, dir: FftDirection, threads: usize) -> Option<Self> {
        let (n1, n2) = factors(n)?;
        let (col, row) = {
            let mut p = T::planners().fft.lock();
            (p.plan_fft(n1, dir), p.plan_fft(n2, dir))
        };
        let esize = 2 * std::mem::size_of::<T>();
        let per_block = |len: usize| (BLOCK_BYTES / (len * esize)).clamp(64 / esize, 32);
        let (cols_per_block, rows_per_block) = (per_block(n1), per_block(n2));
        let ld = block_ld(n1, esize);
        let per_worker = (cols_per_block * ld + col.get_inplace_scratch_len())
            .max(row.get_inplace_scratch_len());
        let threads = threads.max(1);
        Some(FourStep {
            n,
            n1,
            n2,
            dir,
            col,
            row,
            tw: twiddles(n1, n2, dir, threads),
            threads,
            cols_per_block,
            ld,
            rows_per_block,
            per_worker,
        })
    }

    pub fn factors(&self) -> (usize, usize) {
        (self.n1, self.n2)
    }

    fn scratch_len(&self) -> usize {
        self.n + self.threads * self.per_worker
    }

    /// One transform from `src` into `dst` (n elements each; the same memory in place).
    ///
    /// # Safety
    /// `src` and `dst` hold n elements, and are the same or disjoint; `scratch` holds
    /// [`FourStep::scratch_len`] and is disjoint from both.
    unsafe fn run(&self, src: *const Complex<T>, dst: *mut Complex<T>, scratch: &mut [Complex<T>]) {
        assert!(scratch.len() >= self.scratch_len(), "four-step scratch");
        let (n1, n2) = (self.n1, self.n2);
        let mat = Ptr(scratch.as_mut_ptr());
        let work = Ptr(scratch[self.n..].as_mut_ptr());
        let src = Ptr(src as *mut Complex<T>);
        let dst = Ptr(dst);
        // Steps 1-2: column FFTs, twiddles, written transposed into the matrix.
        let (cb, ld) = (self.cols_per_block, self.ld);
        self.stage(n2.div_ceil(cb), work, &|blk, mine| {
            let c0 = blk * cb;
            let cnt = cb.min(n2 - c0);
            let (buf, fs) = mine.split_at_mut(cb * ld);
            for i1 in 0..n1 {
                let s = src.at(i1 * n2 + c0);
                for j in 0..cnt {
                    *buf.get_unchecked_mut(j * ld + i1) = *s.add(j);
                }
            }
            for j in 0..cnt {
                let pencil = &mut buf[j * ld..j * ld + n1];
                self.col.process_with_scratch(pencil, fs);
                let tw = &self.tw[(c0 + j) * n1..(c0 + j + 1) * n1];
                for (v, w) in pencil.iter_mut().zip(tw) {
                    *v = *v * *w;
                }
            }
            for k1 in 0..n1 {
                let m = mat.at(k1 * n2 + c0);
                for j in 0..cnt {
                    *m.add(j) = *buf.get_unchecked(j * ld + k1);
                }
            }
        });
        // Steps 3-4: row FFTs in place, written transposed into the output.
        let rb = self.rows_per_block;
        self.stage(n1.div_ceil(rb), work, &|blk, mine| {
            let r0 = blk * rb;
            let cnt = rb.min(n1 - r0);
            let rows = std::slice::from_raw_parts_mut(mat.at(r0 * n2), cnt * n2);
            self.row.process_with_scratch(rows, mine);
            for k2 in 0..n2 {
                let d = dst.at(k2 * n1 + r0);
                for j in 0..cnt {
                    *d.add(j) = *rows.get_unchecked(j * n2 + k2);
                }
            }
        });
    }

    /// Runs `job(block, worker's scratch)` for every block in `0..blocks` on the pool's threads,
    /// each worker taking contiguous chunks of the blocks (`parallel::for_each_chunk`).
    fn stage(
        &self,
        blocks: usize,
        work: Ptr<Complex<T>>,
        job: &(dyn Fn(usize, &mut [Complex<T>]) + Sync),
    ) {
        let per = self.per_worker;
        for_each_chunk(self.threads, blocks, &|w, chunk| {
            // SAFETY: worker w alone uses its part of the scratch.
            let mine = unsafe { std::slice::from_raw_parts_mut(work.at(w * per), per) };
            chunk.for_each(|blk| job(blk, mine));
        });
    }
}

/// ω_N^(k1·n2) at n2·n1 + k1 (N = n1·n2; k1·n2 < N needs no reduction), each the product of
/// two correctly rounded f64 twiddles (a coarse and a fine table of about sqrt N each) rounded
/// once to the precision.
fn twiddles<T: Real>(n1: usize, n2: usize, dir: FftDirection, threads: usize) -> Vec<Complex<T>> {
    let n = n1 * n2;
    let step = n.isqrt() + 1;
    let w = |m: usize| {
        let (c, s) = rustfft::accurate_twiddle(m, n);
        match dir {
            FftDirection::Forward => Complex::new(c, s),
            FftDirection::Inverse => Complex::new(c, -s),
        }
    };
    let coarse: Vec<Complex<f64>> = (0..n.div_ceil(step)).map(|h| w(h * step)).collect();
    let fine: Vec<Complex<f64>> = (0..step).map(w).collect();
    let mut tw = vec![Complex::new(T::zero(), T::zero()); n];
    let out = Ptr(tw.as_mut_ptr());
    // (A small table on the calling thread: planning then never starts the pool, whose first
    // start, a thread per core, cost more than 2^16 products.)
    let threads = if n < PARALLEL_TABLE { 1 } else { threads };
    parallel_for(threads, n2, &|cols| {
        for i2 in cols {
            for k1 in 0..n1 {
                let m = k1 * i2;
                let v = coarse[m / step] * fine[m % step];
                // SAFETY: column i2 is this job's alone, inside the table.
                unsafe { *out.at(i2 * n1 + k1) = Complex::new(T::cast(v.re), T::cast(v.im)) };
            }
        }
    });
    tw
}

/// Twiddles from which a four-step's table is filled on the threads.
const PARALLEL_TABLE: usize = 1 << 18;

impl<T: Real> Length for FourStep<T> {
    fn len(&self) -> usize {
        self.n
    }
}

impl<T: Real> Direction for FourStep<T> {
    fn fft_direction(&self) -> FftDirection {
        self.dir
    }
}

impl<T: Real> Fft<T> for FourStep<T> {
    fn process_with_scratch(&self, buffer: &mut [Complex<T>], scratch: &mut [Complex<T>]) {
        assert!(buffer.len().is_multiple_of(self.n), "four-step length");
        for x in buffer.chunks_exact_mut(self.n) {
            // SAFETY: n elements, in place; the scratch is the caller's other slice.
            unsafe { self.run(x.as_ptr(), x.as_mut_ptr(), scratch) };
        }
    }

    fn process_outofplace_with_scratch(
        &self,
        input: &mut [Complex<T>],
        output: &mut [Complex<T>],
        scratch: &mut [Complex<T>],
    ) {
        self.process_immutable_with_scratch(input, output, scratch);
    }

    fn process_immutable_with_scratch(
        &self,
        input: &[Complex<T>],
        output: &mut [Complex<T>],
        scratch: &mut [Complex<T>],
    ) {
        assert!(
            input.len() == output.len() && input.len().is_multiple_of(self.n),
            "four-step length"
        );
        for (x, y) in input
            .chunks_exact(self.n)
            .zip(output.chunks_exact_mut(self.n))
        {
            // SAFETY: n elements each, apart (distinct slices); the scratch is a third one.
            unsafe { self.run(x.as_ptr(), y.as_mut_ptr(), scratch) };
        }
    }

    fn get_inplace_scratch_len(&self) -> usize {
        self.scratch_len()
    }
    fn get_outofplace_scratch_len(&self) -> usize {
        self.scratch_len()
    }
    fn get_immutable_scratch_len(&self) -> usize {
        self.scratch_len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_are_near_the_square_root_and_smooth() {
        assert_eq!(factors(1 << 20), Some((1024, 1024)));
        assert_eq!(factors(1 << 21), Some((1024, 2048)));
        assert_eq!(factors(1 << 15), Some((128, 256)));
        assert_eq!(factors(59049), Some((243, 243))); // 3^10
        assert_eq!(factors(3 << 16), Some((384, 512)));
        assert_eq!(factors(1000 * 1000), Some((1000, 1000)));
        assert_eq!(factors(65537), None); // prime
        assert_eq!(factors(2 * 65537), None); // a large prime factor
        assert_eq!(factors(17 << 16), None); // 17 > MAX_PRIME
        assert_eq!(factors(8), None);
    }

    #[test]
    fn thresholds_follow_threads_and_precision() {
        assert!(!applies::<f64>(1 << 20, 1));
        assert!(applies::<f64>(1 << 15, 2));
        assert!(!applies::<f64>(1 << 14, 8));
        assert!(!applies::<f32>(1 << 17, 3));
        assert!(applies::<f32>(1 << 18, 2));
        assert!(applies::<f32>(1 << 15, 4));
        assert!(!applies::<f64>(65537 * 2, 4));
    }

    fn check<T: Real>(n: usize, dir: FftDirection, tol: f64) {
        let mut seed = 99u64;
        let mut u = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            T::cast((seed >> 11) as f64 / (1u64 << 52) as f64 - 1.0)
        };
        let x: Vec<Complex<T>> = (0..n).map(|_| Complex::new(u(), u())).collect();
        let want = {
            let mut y = x.clone();
            T::planners().fft.lock().plan_fft(n, dir).process(&mut y);
            y
        };
        let f = FourStep::<T>::new(n, dir, 3).expect("factors");
        let mut scratch = vec![Complex::new(T::zero(), T::zero()); f.get_inplace_scratch_len()];
        let mut out = vec![Complex::new(T::zero(), T::zero()); n];
        f.process_immutable_with_scratch(&x, &mut out, &mut scratch);
        let mut inplace = x.clone();
        f.process_with_scratch(&mut inplace, &mut scratch);
        let f64c = |v: Complex<T>| Complex::new(v.re.to_f64().unwrap(), v.im.to_f64().unwrap());
        let scale = want.iter().map(|v| f64c(*v).norm()).fold(0.0, f64::max);
        for (i, w) in want.iter().enumerate() {
            for got in [out[i], inplace[i]] {
                let (got, w) = (f64c(got), f64c(*w));
                let err = (got - w).norm() / scale;
                assert!(err <= tol, "n={n} {dir:?} [{i}]: {got} vs {w}");
            }
        }
    }

    #[test]
    fn matches_rustfft_in_both_directions_and_precisions() {
        for n in [64usize, 1000, 3 << 10, 59049 / 9, 1 << 14] {
            for dir in [FftDirection::Forward, FftDirection::Inverse] {
                check::<f64>(n, dir, 1e-14);
                check::<f32>(n, dir, 2e-6);
            }
        }
    }
}
