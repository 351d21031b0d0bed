//! Moving data between the caller's strided arrays and the executor's contiguous work buffers,
//! and applying a 1-D operation along one axis of a contiguous row-major buffer.

use crate::exec::parallel::parallel_for;
use num_complex::Complex;

/// One dimension of a strided view of a caller's array: length and stride in real scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strided {
    pub n: usize,
    pub s: isize,
}

/// Calls `f(i, off)` for every element of the strided box, in row-major order: `i` is the
/// element's row-major linear index, `off` its offset from `base` in real scalars.
#[inline]
pub fn walk(dims: &[Strided], base: isize, mut f: impl FnMut(usize, isize)) {
    let Some((last, outer)) = dims.split_last() else {
        f(0, base);
        return;
    };
    if outer.iter().any(|d| d.n == 0) || last.n == 0 {
        return;
    }
    let mut idx = [0usize; 16];
    let mut idx_heap;
    let idx: &mut [usize] = if outer.len() <= 16 {
        &mut idx[..outer.len()]
    } else {
        idx_heap = vec![0usize; outer.len()];
        &mut idx_heap
    };
    let mut off = base;
    let mut lin = 0usize;
    loop {
        let mut o = off;
        for j in 0..last.n {
            f(lin + j, o);
            o += last.s;
        }
        lin += last.n;
        let mut d = outer.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            off += outer[d].s;
            if idx[d] < outer[d].n {
                break;
            }
            off -= outer[d].s * outer[d].n as isize;
            idx[d] = 0;
        }
    }
}

/// Offsets (input, output), in real scalars, of transform number `index` of the loop
/// dimensions, counted row-major.
pub fn instance_offsets(loops: &[crate::problem::IoDim], mut index: usize) -> (isize, isize) {
    let (mut io, mut oo) = (0isize, 0isize);
    for d in loops.iter().rev() {
        let n = d.n as usize;
        let i = (index % n) as isize;
        index /= n;
        io += i * d.is;
        oo += i * d.os;
    }
    (io, oo)
}

/// A caller's array: real, or complex as (real parts, imaginary parts) addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayPtr {
    Real(usize),
    Complex { re: usize, im: usize },
}

impl ArrayPtr {
    pub fn is_null(&self) -> bool {
        match *self {
            ArrayPtr::Real(p) => p == 0,
            ArrayPtr::Complex { re, im } => re == 0 || im == 0,
        }
    }
    /// The lowest address (for in-place detection).
    pub fn base(&self) -> usize {
        match *self {
            ArrayPtr::Real(p) => p,
            ArrayPtr::Complex { re, im } => re.min(im),
        }
    }
}

/// # Safety
/// Every offset of the box from `base` must lie inside the caller's array `re`/`im`.
pub unsafe fn gather_complex<T: Copy>(
    re: *const T,
    im: *const T,
    base: isize,
    dims: &[Strided],
    dst: &mut [Complex<T>],
) {
    walk(dims, base, |i, off| {
        dst[i] = Complex::new(*re.offset(off), *im.offset(off))
    });
}

/// # Safety
/// As [`gather_complex`], for writing.
pub unsafe fn scatter_complex<T: Copy>(
    src: &[Complex<T>],
    re: *mut T,
    im: *mut T,
    base: isize,
    dims: &[Strided],
) {
    walk(dims, base, |i, off| {
        *re.offset(off) = src[i].re;
        *im.offset(off) = src[i].im;
    });
}

/// # Safety
/// Every offset of the box from `base` must lie inside the caller's array.
pub unsafe fn gather_real<T: Copy>(p: *const T, base: isize, dims: &[Strided], dst: &mut [T]) {
    walk(dims, base, |i, off| dst[i] = *p.offset(off));
}

/// # Safety
/// As [`gather_real`], for writing.
pub unsafe fn scatter_real<T: Copy>(src: &[T], p: *mut T, base: isize, dims: &[Strided]) {
    walk(dims, base, |i, off| *p.offset(off) = src[i]);
}

/// How a plan's output array lies against its input at execute time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// No element of one is in the other: transforms may run a batch at a time.
    Disjoint,
    /// In place with FFTW's layouts (see `Problem::batches_independent_in_place`): each batch
    /// of transforms reads and writes only its own locations.
    SameLocations,
    /// Anything else that overlaps: all input must be read before any output is written.
    Tangled,
}

/// Classifies the arrays of one execute of `p` (`p.in_place` is not consulted: new-array
/// execute may differ from the plan).
pub fn overlap(p: &crate::problem::Problem, input: ArrayPtr, output: ArrayPtr) -> Overlap {
    let unit = p.precision.bytes() as isize;
    // Bytes [first, last] one side may touch: from the lower of its pointers to past the
    // higher, over the extent of its real parts.
    let range = |a: ArrayPtr, is_input: bool| {
        let (lo, hi) = p.extent(is_input);
        let (lo, hi) = (lo, hi - matches!(a, ArrayPtr::Complex { .. }) as isize);
        let (first, last) = match a {
            ArrayPtr::Real(x) => (x, x),
            ArrayPtr::Complex { re, im } => (re.min(im), re.max(im)),
        };
        (
            (first as isize).wrapping_add(lo * unit),
            (last as isize).wrapping_add(hi * unit + unit - 1),
        )
    };
    let ((a0, a1), (b0, b1)) = (range(input, true), range(output, false));
    if a1 < b0 || b1 < a0 {
        return Overlap::Disjoint;
    }
    let same_pointers = match (input, output) {
        (ArrayPtr::Complex { re: r1, im: i1 }, ArrayPtr::Complex { re: r2, im: i2 }) => {
            r1 == r2 && i1 == i2
        }
        (a, b) => a.base() == b.base(),
    };
    if same_pointers && p.batches_independent_in_place() {
        Overlap::SameLocations
    } else {
        Overlap::Tangled
    }
}

/// A raw pointer that may cross threads: the jobs that share it touch disjoint elements.
#[derive(Clone, Copy)]
pub struct SharedMut<E>(pub *mut E);
unsafe impl<E> Send for SharedMut<E> {}
unsafe impl<E> Sync for SharedMut<E> {}

type SliceFn<'a> = dyn Fn(usize, isize, &[Strided], usize) + Sync + 'a;

/// Calls `f(i, base_i, rest, inner)` for every slice `i` of a strided box's first dimension,
/// the slices shared among `threads` threads: `base_i` is the slice's offset, `rest` the
/// remaining dimensions, `inner` the slice's element count (so slice i is elements
/// `i*inner..(i+1)*inner` of the box in row-major order). A rank-0 box is one slice.
fn par_slices(dims: &[Strided], base: isize, threads: usize, f: &SliceFn<'_>) {
    let (n0, s0, rest) = match dims.split_first() {
        Some((d, rest)) => (d.n, d.s, rest),
        None => (1, 0, dims),
    };
    let inner: usize = rest.iter().map(|d| d.n).product();
    parallel_for(threads, n0, &|range| {
        for i in range {
            f(i, base + i as isize * s0, rest, inner);
        }
    });
}

/// [`gather_complex`] with the first dimension shared among threads.
///
/// # Safety
/// As [`gather_complex`].
pub unsafe fn par_gather_complex<T: Copy + Send + Sync>(
    re: *const T,
    im: *const T,
    base: isize,
    dims: &[Strided],
    dst: &mut [Complex<T>],
    threads: usize,
) {
    let (re, im, out) = (
        SharedMut(re as *mut T),
        SharedMut(im as *mut T),
        SharedMut(dst.as_mut_ptr()),
    );
    par_slices(dims, base, threads, &|i, b, rest, inner| {
        #[allow(clippy::redundant_locals)] // capture the Sync wrappers, not their raw pointers
        let (re, im, out) = (re, im, out);
        // SAFETY: slice i goes to its own part of dst.
        unsafe {
            gather_complex(
                re.0,
                im.0,
                b,
                rest,
                std::slice::from_raw_parts_mut(out.0.add(i * inner), inner),
            )
        }
    });
}

/// [`scatter_complex`] with the first dimension shared among threads.
///
/// # Safety
/// As [`scatter_complex`]; distinct slices of the first dimension must not overlap.
pub unsafe fn par_scatter_complex<T: Copy + Send + Sync>(
    src: &[Complex<T>],
    re: *mut T,
    im: *mut T,
    base: isize,
    dims: &[Strided],
    threads: usize,
) {
    let (re, im) = (SharedMut(re), SharedMut(im));
    par_slices(dims, base, threads, &|i, b, rest, inner| {
        #[allow(clippy::redundant_locals)]
        let (re, im) = (re, im);
        unsafe { scatter_complex(&src[i * inner..(i + 1) * inner], re.0, im.0, b, rest) }
    });
}

/// [`gather_real`] with the first dimension shared among threads.
///
/// # Safety
/// As [`gather_real`].
pub unsafe fn par_gather_real<T: Copy + Send + Sync>(
    p: *const T,
    base: isize,
    dims: &[Strided],
    dst: &mut [T],
    threads: usize,
) {
    let (p, out) = (SharedMut(p as *mut T), SharedMut(dst.as_mut_ptr()));
    par_slices(dims, base, threads, &|i, b, rest, inner| {
        #[allow(clippy::redundant_locals)]
        let (p, out) = (p, out);
        unsafe {
            gather_real(
                p.0,
                b,
                rest,
                std::slice::from_raw_parts_mut(out.0.add(i * inner), inner),
            )
        }
    });
}

/// [`scatter_real`] with the first dimension shared among threads.
///
/// # Safety
/// As [`scatter_real`]; distinct slices of the first dimension must not overlap.
pub unsafe fn par_scatter_real<T: Copy + Send + Sync>(
    src: &[T],
    p: *mut T,
    base: isize,
    dims: &[Strided],
    threads: usize,
) {
    let p = SharedMut(p);
    par_slices(dims, base, threads, &|i, b, rest, inner| {
        #[allow(clippy::redundant_locals)]
        let p = p;
        unsafe { scatter_real(&src[i * inner..(i + 1) * inner], p.0, b, rest) }
    });
}

/// How many lines of a strided axis are gathered together into a contiguous block.
const LINE_BLOCK: usize = 16;

/// Applies `f` to every line along the middle axis of a contiguous `[outer, n, inner]` buffer.
///
/// `f(lines, count, scratch)` receives `count` lines of length `n` laid out contiguously; lines
/// that are not contiguous in `buf` are copied into a block and back. With `threads > 1` the
/// lines are shared among threads. `S::default()` makes each worker's scratch.
pub fn apply_lines<E, S, F>(
    buf: &mut [E],
    outer: usize,
    n: usize,
    inner: usize,
    threads: usize,
    f: &F,
) where
    E: Copy + Default + Send + Sync,
    S: Default,
    F: Fn(&mut [E], usize, &mut S) + Sync,
{
    assert_eq!(buf.len(), outer * n * inner);
    if buf.is_empty() {
        return;
    }
    let base = SharedMut(buf.as_mut_ptr());
    if inner == 1 {
        // Lines are contiguous: hand out runs of whole lines.
        let per_job = (outer.div_ceil(threads.max(1) * 4)).max(1);
        let jobs = outer.div_ceil(per_job);
        parallel_for(threads, jobs, &|range| {
            #[allow(clippy::redundant_locals)]
            // capture the Sync wrapper, not its raw pointer field
            let base = base;
            let mut scratch = S::default();
            for job in range {
                let first = job * per_job;
                let count = per_job.min(outer - first);
                // SAFETY: jobs cover disjoint runs of lines inside `buf`.
                let lines =
                    unsafe { std::slice::from_raw_parts_mut(base.0.add(first * n), count * n) };
                f(lines, count, &mut scratch);
            }
        });
        return;
    }
    let blocks_per_outer = inner.div_ceil(LINE_BLOCK);
    let jobs = outer * blocks_per_outer;
    parallel_for(threads, jobs, &|range| {
        #[allow(clippy::redundant_locals)] // capture the Sync wrapper, not its raw pointer field
        let base = base;
        let mut scratch = S::default();
        let mut block = vec![E::default(); LINE_BLOCK * n];
        for job in range {
            let o = job / blocks_per_outer;
            let c0 = (job % blocks_per_outer) * LINE_BLOCK;
            let count = LINE_BLOCK.min(inner - c0);
            let start = o * n * inner + c0;
            // SAFETY: job (o, c0) touches elements start + i*inner + j, j < count, disjoint from
            // every other job's, and all inside `buf`.
            unsafe {
                for i in 0..n {
                    let row = base.0.add(start + i * inner);
                    for j in 0..count {
                        block[j * n + i] = *row.add(j);
                    }
                }
                f(&mut block[..count * n], count, &mut scratch);
                for i in 0..n {
                    let row = base.0.add(start + i * inner);
                    for j in 0..count {
                        *row.add(j) = block[j * n + i];
                    }
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_visits_row_major_with_negative_strides() {
        let dims = [Strided { n: 2, s: -10 }, Strided { n: 3, s: 1 }];
        let mut seen = vec![];
        walk(&dims, 20, |i, off| seen.push((i, off)));
        assert_eq!(
            seen,
            vec![(0, 20), (1, 21), (2, 22), (3, 10), (4, 11), (5, 12)]
        );
        let mut n = 0;
        walk(&[], 5, |i, off| {
            assert_eq!((i, off), (0, 5));
            n += 1
        });
        assert_eq!(n, 1);
    }

    #[test]
    fn apply_lines_sees_every_line_once() {
        for &(outer, n, inner, threads) in
            &[(3, 5, 1, 1), (3, 5, 7, 1), (2, 4, 33, 3), (5, 2, 1, 4)]
        {
            let mut buf: Vec<f64> = (0..outer * n * inner).map(|x| x as f64).collect();
            let expect: Vec<f64> = buf.clone();
            // Reverse each line, then reverse again: identity, and the first pass is checkable.
            let rev = |lines: &mut [f64], count: usize, _: &mut ()| {
                for l in 0..count {
                    lines[l * n..(l + 1) * n].reverse();
                }
            };
            apply_lines(&mut buf, outer, n, inner, threads, &rev);
            for o in 0..outer {
                for i in 0..n {
                    for j in 0..inner {
                        assert_eq!(
                            buf[(o * n + i) * inner + j],
                            expect[(o * n + (n - 1 - i)) * inner + j]
                        );
                    }
                }
            }
            apply_lines(&mut buf, outer, n, inner, threads, &rev);
            assert_eq!(buf, expect);
        }
    }
}
