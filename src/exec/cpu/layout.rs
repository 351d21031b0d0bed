//! The caller's arrays: strided views, how output and input overlap, and moving data between
//! them and contiguous buffers.

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
    /// In place with FFTW's layouts (see `Problem::in_place_piecewise`): each part of the
    /// transforms (a batch, a tile, a block of pencils) reads and writes only its own locations.
    SameLocations,
    /// Anything else that overlaps: all input must be read before any output is written.
    Tangled,
}

/// Classifies the arrays of one execute of `p` (`p.in_place` is not consulted: new-array
/// execute may differ from the plan).
pub fn overlap(p: &crate::problem::Problem, input: ArrayPtr, output: ArrayPtr) -> Overlap {
    overlap_extents(
        [p.extent(true), p.extent(false)],
        p.in_place_piecewise(),
        p.precision.bytes(),
        input,
        output,
    )
}

/// [`overlap`] from the problem's precomputed extents (`Problem::extent` of input and output)
/// and `Problem::in_place_piecewise`, with `unit` bytes per scalar.
pub fn overlap_extents(
    extents: [(isize, isize); 2],
    piecewise: bool,
    unit: usize,
    input: ArrayPtr,
    output: ArrayPtr,
) -> Overlap {
    let unit = unit as isize;
    // Bytes [first, last] one side may touch: from the lower of its pointers to past the
    // higher, over the extent of its real parts.
    let range = |a: ArrayPtr, (lo, hi): (isize, isize)| {
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
    let ((a0, a1), (b0, b1)) = (range(input, extents[0]), range(output, extents[1]));
    if a1 < b0 || b1 < a0 {
        return Overlap::Disjoint;
    }
    let same_pointers = match (input, output) {
        (ArrayPtr::Complex { re: r1, im: i1 }, ArrayPtr::Complex { re: r2, im: i2 }) => {
            r1 == r2 && i1 == i2
        }
        (a, b) => a.base() == b.base(),
    };
    if same_pointers && piecewise {
        Overlap::SameLocations
    } else {
        Overlap::Tangled
    }
}

/// A raw pointer that may cross threads: the jobs that share it touch disjoint elements.
pub struct SharedMut<E>(pub *mut E);
// (Not derived: that would ask `E: Copy`.)
impl<E> Clone for SharedMut<E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E> Copy for SharedMut<E> {}
unsafe impl<E> Send for SharedMut<E> {}
unsafe impl<E> Sync for SharedMut<E> {}

/// Leading dimension of a gathered block of pencils of length `n`: padded off multiples of 1 KiB,
/// whose rows would all fall in the same cache sets while the block is filled column by column.
pub fn block_ld(n: usize, elem_bytes: usize) -> usize {
    if n >= 64 && (n * elem_bytes).is_multiple_of(1024) {
        n + 64 / elem_bytes
    } else {
        n
    }
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

    /// The executors dispatch on this: a GPU plan's execute on tangled arrays runs on the CPU.
    #[test]
    fn interleaved_batches_on_one_array_are_the_same_locations() {
        use crate::problem::{IoDim, Kind, Precision, Problem};
        let mut p = Problem {
            kind: Kind::Dft { sign: 1 },
            dims: vec![IoDim::new(1024, 2 * 3000, 2 * 3000)],
            loops: vec![IoDim::new(3000, 2, 2)],
            precision: Precision::F64,
            in_place: true,
        };
        let a = ArrayPtr::Complex { re: 4096, im: 4104 };
        assert_eq!(overlap(&p, a, a), Overlap::SameLocations);
        // Batches overlapping one another stay tangled.
        p.loops[0] = IoDim::new(3000, 4, 4);
        p.dims[0] = IoDim::new(1024, 2, 2);
        assert_eq!(overlap(&p, a, a), Overlap::Tangled);
    }
}
