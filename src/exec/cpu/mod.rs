//! The CPU executor: runs a transform step of a program on the host.
//!
//! Each batch of transforms is gathered from the caller's strided input into a contiguous
//! row-major work buffer, transformed one axis at a time with 1-D algorithms (rustfft, realfft,
//! rustdct), and scattered to the caller's output. Gathering first makes every layout FFTW allows
//! one case: any strides (negative too), in-place and out-of-place, split or interleaved arrays;
//! the caller's input is only read, so out-of-place plans preserve their input whatever the kind.

pub mod layout;
pub mod r2r;

use crate::exec::parallel::parallel_for;
use crate::problem::{IoDim, Kind, Problem};
use crate::real::Real;
use layout::{
    apply_lines, par_gather_complex, par_gather_real, par_scatter_complex, par_scatter_real,
    ArrayPtr, SharedMut, Strided,
};
use num_complex::Complex;
use r2r::{R2rOp, R2rScratch};
use realfft::{ComplexToReal, RealToComplex};
use rustfft::{Fft, FftDirection};
use std::sync::Arc;

/// Work-buffer size (elements) a batch of small transforms aims for: big enough to amortize the
/// per-batch overhead, small enough to stay in cache.
const BATCH_ELEMENTS: usize = 1 << 15;

/// A transform step, ready to run on the CPU.
pub struct CpuTransform<T: Real> {
    problem: Problem,
    kind: Kind,
    /// Logical lengths of the transform dimensions.
    shape: Vec<usize>,
    in_dims: Vec<Strided>,
    out_dims: Vec<Strided>,
    loops: Vec<IoDim>,
    /// Number of transforms (product of the loop lengths).
    howmany: usize,
    /// One c2c algorithm per dimension that takes one (all for dft; all but the last for r2c/c2r).
    c2c: Vec<Arc<dyn Fft<T>>>,
    r2c: Option<Arc<dyn RealToComplex<T>>>,
    c2r: Option<Arc<dyn ComplexToReal<T>>>,
    r2r: Vec<R2rOp<T>>,
    threads: usize,
    batch: usize,
    /// r2c: the bins of one transform's output that are their own conjugates (index 0 or n/2
    /// along every dimension), whose imaginary parts FFTW makes exactly +0.
    self_conjugate: Vec<usize>,
}

/// Per-worker buffers.
struct Work<T> {
    complex: Vec<Complex<T>>,
    real: Vec<T>,
    /// (input, output) offsets of the batch's transforms.
    offsets: Vec<(isize, isize)>,
}

impl<T: Real> Work<T> {
    /// Buffers for batches of `count` transforms of `t`, allocated up front so that running
    /// out of memory fails the execute before anything is written.
    fn for_batches(t: &CpuTransform<T>, count: usize) -> Result<Self, String> {
        let in_len: usize = t.in_dims.iter().map(|d| d.n).product();
        let out_len: usize = t.out_dims.iter().map(|d| d.n).product();
        let (complex, real) = match t.kind {
            Kind::Dft { .. } => (in_len, 0),
            Kind::R2c => (out_len, in_len),
            Kind::C2r => (in_len, out_len),
            Kind::R2r(_) => (0, in_len),
        };
        let mut w = Work {
            complex: Vec::new(),
            real: Vec::new(),
            offsets: Vec::new(),
        };
        let oom = |what: &str| {
            format!("out of host memory for the work buffers ({what} of {count} transform(s))")
        };
        w.complex
            .try_reserve_exact(count.saturating_mul(complex))
            .map_err(|_| oom("complex"))?;
        w.real
            .try_reserve_exact(count.saturating_mul(real))
            .map_err(|_| oom("real"))?;
        w.offsets
            .try_reserve_exact(count)
            .map_err(|_| oom("offsets"))?;
        Ok(w)
    }
}

impl<T: Real> CpuTransform<T> {
    pub fn new(p: &Problem, threads: usize) -> Self {
        let shape: Vec<usize> = p.dims.iter().map(|d| d.n as usize).collect();
        let strided = |shape: Vec<isize>, stride: fn(&IoDim) -> isize| -> Vec<Strided> {
            shape
                .iter()
                .zip(&p.dims)
                .map(|(&n, d)| Strided {
                    n: n as usize,
                    s: stride(d),
                })
                .collect()
        };
        let in_dims = strided(p.input_shape(), |d| d.is);
        let out_dims = strided(p.output_shape(), |d| d.os);
        let rank = shape.len();
        let planners = T::planners();
        let mut c2c = Vec::new();
        let (mut r2c, mut c2r, mut r2r) = (None, None, Vec::new());
        let c2c_dims = |direction| -> Vec<Arc<dyn Fft<T>>> {
            let mut fft = planners.fft.lock();
            let count = if matches!(p.kind, Kind::Dft { .. }) {
                rank
            } else {
                rank.saturating_sub(1)
            };
            shape[..count]
                .iter()
                .map(|&n| fft.plan_fft(n, direction))
                .collect()
        };
        // No transforms (a loop of length 0): no algorithms either (a REDFT00 of n = 1, which
        // has none, is a valid empty plan then, as in FFTW).
        let kind = if p.howmany() == 0 {
            None
        } else {
            Some(&p.kind)
        };
        match kind {
            None => {}
            Some(Kind::Dft { sign }) => {
                c2c = c2c_dims(if *sign < 0 {
                    FftDirection::Forward
                } else {
                    FftDirection::Inverse
                })
            }
            Some(Kind::R2c) => {
                c2c = c2c_dims(FftDirection::Forward);
                r2c = shape
                    .last()
                    .map(|&n| planners.real.lock().plan_fft_forward(n));
            }
            Some(Kind::C2r) => {
                c2c = c2c_dims(FftDirection::Inverse);
                c2r = shape
                    .last()
                    .map(|&n| planners.real.lock().plan_fft_inverse(n));
            }
            Some(Kind::R2r(kinds)) => {
                r2r = kinds
                    .iter()
                    .zip(&shape)
                    .map(|(&k, &n)| R2rOp::new(k, n))
                    .collect()
            }
        }
        let elements = shape.iter().product::<usize>().max(1);
        let howmany = p.howmany();
        let batch = (BATCH_ELEMENTS / elements).clamp(1, howmany.max(1));
        let self_conjugate = if p.kind == Kind::R2c {
            crate::problem::self_conjugate_bins(&shape)
        } else {
            Vec::new()
        };
        CpuTransform {
            problem: p.clone(),
            kind: p.kind.clone(),
            shape,
            in_dims,
            out_dims,
            loops: p.loops.clone(),
            howmany,
            c2c,
            r2c,
            c2r,
            r2r,
            threads: threads.max(1),
            batch,
            self_conjugate,
        }
    }

    /// Runs every transform of the step on the given arrays. Fails, before writing anything,
    /// only if the work buffers cannot be allocated.
    ///
    /// # Safety
    /// The arrays must hold every element the problem's dims and loops address.
    pub unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr) -> Result<(), String> {
        self.execute_from(input, output, 0)
    }

    /// Runs transforms `first..` (in loop order) of the step: what a failed GPU execute left
    /// undone.
    ///
    /// # Safety
    /// As [`CpuTransform::execute`].
    pub unsafe fn execute_from(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        first: usize,
    ) -> Result<(), String> {
        let howmany = self.howmany.saturating_sub(first);
        if howmany == 0 {
            return Ok(());
        }
        // An output that overlaps the input in another layout than FFTW's in-place ones (an
        // in-place transpose, say) is written only after every input element has been read.
        let tangled = layout::overlap(&self.problem, input, output) == layout::Overlap::Tangled;
        if !tangled && self.is_contiguous_dft(input, output) {
            self.execute_direct(input, output, first..self.howmany);
            return Ok(());
        }
        let batch = if tangled { howmany } else { self.batch };
        let batches = howmany.div_ceil(batch);
        // Threads go where the parallelism is: across batches when there are enough of them,
        // inside each transform's axis passes otherwise.
        let (outer_threads, inner_threads) = if batches >= self.threads {
            (self.threads, 1)
        } else {
            (1, self.threads)
        };
        let works = (0..outer_threads.min(batches))
            .map(|_| Work::for_batches(self, batch))
            .collect::<Result<Vec<_>, _>>()?;
        let works = parking_lot::Mutex::new(works);
        let run = |range: std::ops::Range<usize>| {
            let mut work = works.lock().pop().expect("one work set per worker");
            for b in range {
                let count = batch.min(howmany - b * batch);
                let first = first + b * batch;
                // SAFETY: forwarded from the caller; batches cover disjoint transforms.
                unsafe { self.run_batch(input, output, first, count, inner_threads, &mut work) };
            }
            works.lock().push(work);
        };
        parallel_for(outer_threads, batches, &run);
        Ok(())
    }

    /// A 1-D c2c over interleaved arrays with unit stride is transformed in the caller's memory
    /// (out of place: copied to the output first), skipping the work buffer.
    fn is_contiguous_dft(&self, input: ArrayPtr, output: ArrayPtr) -> bool {
        let unit = std::mem::size_of::<T>();
        let interleaved = |a: ArrayPtr| matches!(a, ArrayPtr::Complex { re, im } if im == re + unit && re % std::mem::align_of::<Complex<T>>() == 0);
        matches!(self.kind, Kind::Dft { .. })
            && self.shape.len() == 1
            && self.in_dims[0].s == 2
            && self.out_dims[0].s == 2
            && interleaved(input)
            && interleaved(output)
    }

    unsafe fn execute_direct(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        transforms: std::ops::Range<usize>,
    ) {
        let (first, howmany) = (transforms.start, transforms.len());
        let (ArrayPtr::Complex { re: ip, .. }, ArrayPtr::Complex { re: op, .. }) = (input, output)
        else {
            return;
        };
        let n = self.shape[0];
        let fft = &self.c2c[0];
        let per_job = howmany.div_ceil(self.threads * 4).max(1);
        let jobs = howmany.div_ceil(per_job);
        parallel_for(self.threads.min(jobs), jobs, &|range| {
            let mut scratch = vec![Complex::<T>::default(); fft.get_inplace_scratch_len()];
            for job in range {
                for i in job * per_job..((job + 1) * per_job).min(howmany) {
                    let (io, oo) = layout::instance_offsets(&self.loops, first + i);
                    // SAFETY: the plan's layout: n unit-stride complex elements at each offset,
                    // distinct transforms disjoint; in place, input and output coincide.
                    unsafe {
                        let src = (ip as *const T).offset(io) as *const Complex<T>;
                        let dst = (op as *mut T).offset(oo) as *mut Complex<T>;
                        if !std::ptr::eq(src, dst) {
                            std::ptr::copy_nonoverlapping(src, dst, n);
                        }
                        fft.process_with_scratch(
                            std::slice::from_raw_parts_mut(dst, n),
                            &mut scratch,
                        );
                    }
                }
            }
        });
    }

    unsafe fn run_batch(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        first: usize,
        count: usize,
        threads: usize,
        w: &mut Work<T>,
    ) {
        let mut offsets = std::mem::take(&mut w.offsets);
        offsets.clear();
        offsets.extend((first..first + count).map(|i| layout::instance_offsets(&self.loops, i)));
        let in_len: usize = self.in_dims.iter().map(|d| d.n).product();
        let out_len: usize = self.out_dims.iter().map(|d| d.n).product();
        match &self.kind {
            Kind::Dft { .. } => {
                w.complex.resize(count * in_len, Complex::default());
                self.gather_c(input, &offsets, in_len, &mut w.complex, threads);
                self.c2c_axes(
                    &mut w.complex,
                    count,
                    self.shape.len(),
                    &self.shape,
                    threads,
                );
                self.scatter_c(&w.complex, output, &offsets, out_len, threads);
            }
            Kind::R2c => {
                w.real.resize(count * in_len, T::zero());
                w.complex.resize(count * out_len, Complex::default());
                self.gather_r(input, &offsets, in_len, &mut w.real, threads);
                match &self.r2c {
                    None => w
                        .complex
                        .iter_mut()
                        .zip(&w.real)
                        .for_each(|(c, &r)| *c = Complex::new(r, T::zero())),
                    Some(fft) => {
                        let (n, h) = (fft.len(), fft.len() / 2 + 1);
                        par_rows(
                            &mut w.real,
                            n,
                            &mut w.complex,
                            h,
                            threads,
                            &|row: &mut [T],
                              spec: &mut [Complex<T>],
                              scratch: &mut Vec<Complex<T>>| {
                                scratch.resize(fft.get_scratch_len(), Complex::default());
                                fft.process_with_scratch(row, spec, scratch)
                                    .expect("lengths set by plan");
                            },
                        );
                    }
                }
                let rank = self.shape.len();
                let cshape = self.complex_shape();
                self.c2c_axes(
                    &mut w.complex,
                    count,
                    rank.saturating_sub(1),
                    &cshape,
                    threads,
                );
                for t in w.complex.chunks_exact_mut(out_len) {
                    self.self_conjugate
                        .iter()
                        .for_each(|&k| t[k].im = T::zero());
                }
                self.scatter_c(&w.complex, output, &offsets, out_len, threads);
            }
            Kind::C2r => {
                w.complex.resize(count * in_len, Complex::default());
                w.real.resize(count * out_len, T::zero());
                self.gather_c(input, &offsets, in_len, &mut w.complex, threads);
                let rank = self.shape.len();
                let cshape = self.complex_shape();
                self.c2c_axes(
                    &mut w.complex,
                    count,
                    rank.saturating_sub(1),
                    &cshape,
                    threads,
                );
                match &self.c2r {
                    None => w
                        .real
                        .iter_mut()
                        .zip(&w.complex)
                        .for_each(|(r, c)| *r = c.re),
                    Some(fft) => {
                        let (n, h) = (fft.len(), fft.len() / 2 + 1);
                        par_rows(
                            &mut w.real,
                            n,
                            &mut w.complex,
                            h,
                            threads,
                            &|row: &mut [T],
                              spec: &mut [Complex<T>],
                              scratch: &mut Vec<Complex<T>>| {
                                // FFTW ignores the imaginary parts that a real signal's spectrum
                                // cannot have (DC, and Nyquist for even n).
                                spec[0].im = T::zero();
                                if n % 2 == 0 {
                                    spec[h - 1].im = T::zero();
                                }
                                scratch.resize(fft.get_scratch_len(), Complex::default());
                                fft.process_with_scratch(spec, row, scratch)
                                    .expect("lengths set by plan");
                            },
                        );
                    }
                }
                self.scatter_r(&w.real, output, &offsets, out_len, threads);
            }
            Kind::R2r(_) => {
                w.real.resize(count * in_len, T::zero());
                self.gather_r(input, &offsets, in_len, &mut w.real, threads);
                for (d, op) in self.r2r.iter().enumerate() {
                    let (outer, n, inner) = axis_split(count, &self.shape, d);
                    apply_lines(
                        &mut w.real,
                        outer,
                        n,
                        inner,
                        threads,
                        &|lines: &mut [T], c, s: &mut R2rScratch<T>| op.apply(lines, c, s),
                    );
                }
                self.scatter_r(&w.real, output, &offsets, out_len, threads);
            }
        }
        w.offsets = offsets;
    }

    /// Shape of the complex work buffer of r2c/c2r: the last dimension halved.
    fn complex_shape(&self) -> Vec<usize> {
        let mut s = self.shape.clone();
        if let Some(l) = s.last_mut() {
            *l = *l / 2 + 1;
        }
        s
    }

    /// The c2c passes over the first `axes` dimensions of a `[count, shape...]` buffer.
    fn c2c_axes(
        &self,
        buf: &mut [Complex<T>],
        count: usize,
        axes: usize,
        shape: &[usize],
        threads: usize,
    ) {
        for (d, fft) in self.c2c.iter().enumerate().take(axes) {
            let (outer, n, inner) = axis_split(count, shape, d);
            apply_lines(
                buf,
                outer,
                n,
                inner,
                threads,
                &|lines: &mut [Complex<T>], _, s: &mut Vec<Complex<T>>| {
                    s.resize(fft.get_inplace_scratch_len(), Complex::default());
                    fft.process_with_scratch(lines, s);
                },
            );
        }
    }

    unsafe fn gather_c(
        &self,
        a: ArrayPtr,
        offsets: &[(isize, isize)],
        len: usize,
        dst: &mut [Complex<T>],
        threads: usize,
    ) {
        let ArrayPtr::Complex { re, im } = a else {
            unreachable!("complex input checked at plan time")
        };
        for (i, &(io, _)) in offsets.iter().enumerate() {
            par_gather_complex(
                re as *const T,
                im as *const T,
                io,
                &self.in_dims,
                &mut dst[i * len..(i + 1) * len],
                threads,
            );
        }
    }

    unsafe fn scatter_c(
        &self,
        src: &[Complex<T>],
        a: ArrayPtr,
        offsets: &[(isize, isize)],
        len: usize,
        threads: usize,
    ) {
        let ArrayPtr::Complex { re, im } = a else {
            unreachable!("complex output checked at plan time")
        };
        for (i, &(_, oo)) in offsets.iter().enumerate() {
            par_scatter_complex(
                &src[i * len..(i + 1) * len],
                re as *mut T,
                im as *mut T,
                oo,
                &self.out_dims,
                threads,
            );
        }
    }

    unsafe fn gather_r(
        &self,
        a: ArrayPtr,
        offsets: &[(isize, isize)],
        len: usize,
        dst: &mut [T],
        threads: usize,
    ) {
        let ArrayPtr::Real(p) = a else {
            unreachable!("real input checked at plan time")
        };
        for (i, &(io, _)) in offsets.iter().enumerate() {
            par_gather_real(
                p as *const T,
                io,
                &self.in_dims,
                &mut dst[i * len..(i + 1) * len],
                threads,
            );
        }
    }

    unsafe fn scatter_r(
        &self,
        src: &[T],
        a: ArrayPtr,
        offsets: &[(isize, isize)],
        len: usize,
        threads: usize,
    ) {
        let ArrayPtr::Real(p) = a else {
            unreachable!("real output checked at plan time")
        };
        for (i, &(_, oo)) in offsets.iter().enumerate() {
            par_scatter_real(
                &src[i * len..(i + 1) * len],
                p as *mut T,
                oo,
                &self.out_dims,
                threads,
            );
        }
    }
}

/// A real-row/complex-row operation with its scratch (the r2c and c2r passes).
type RowFn<'a, T> = dyn Fn(&mut [T], &mut [Complex<T>], &mut Vec<Complex<T>>) + Sync + 'a;

/// Runs `f(real_row, complex_row, scratch)` on matching rows of a real buffer (rows of `n`) and
/// a complex one (rows of `h`), the rows shared among threads.
fn par_rows<T: Real>(
    real: &mut [T],
    n: usize,
    complex: &mut [Complex<T>],
    h: usize,
    threads: usize,
    f: &RowFn<'_, T>,
) {
    let rows = real.len() / n;
    debug_assert_eq!(complex.len(), rows * h);
    let (r, c) = (
        SharedMut(real.as_mut_ptr()),
        SharedMut(complex.as_mut_ptr()),
    );
    parallel_for(threads, rows, &|range| {
        #[allow(clippy::redundant_locals)] // capture the Sync wrappers, not their raw pointers
        let (r, c) = (r, c);
        let mut scratch = Vec::new();
        for i in range {
            // SAFETY: row i of each buffer, disjoint per i.
            let (row, spec) = unsafe {
                (
                    std::slice::from_raw_parts_mut(r.0.add(i * n), n),
                    std::slice::from_raw_parts_mut(c.0.add(i * h), h),
                )
            };
            f(row, spec, &mut scratch);
        }
    });
}

/// `[count, shape...]` seen as `[outer, shape[d], inner]` around axis `d`.
fn axis_split(count: usize, shape: &[usize], d: usize) -> (usize, usize, usize) {
    let outer = count * shape[..d].iter().product::<usize>();
    let inner = shape[d + 1..].iter().product::<usize>();
    (outer, shape[d], inner)
}
