//! Blocks of pencils: the unit of work of every pass.
//!
//! A pass transforms every pencil (1-D line) of an array along one axis, from a source view to a
//! destination view (the caller's arrays, in any layout, or the executor's work buffers). A block
//! is up to `count` pencils that differ only along one other dimension: gathered into contiguous
//! scratch (a cache-friendly transposition when the pencils are strided: each row of the block
//! reads a run of `count` elements), transformed with rustfft's SIMD kernels, and scattered back.
//! Blocks of adjacent strided pencils whose length has a column FFT (`columns.rs`) skip the
//! transposes: the FFT runs on whole rows of the block. Pencils that are already contiguous
//! skip the copies: they are transformed straight from the source (rustfft's
//! `process_immutable` never writes its input) into the destination, or in place.
//!
//! When source and destination may share memory ([`Source::Aliased`]), every pencil of a block
//! is read before any is written; passes are arranged so that distinct blocks never share
//! memory. A source that is the executor's own intermediate buffer ([`Source::Spent`]) may be
//! overwritten: c2r, whose algorithm destroys its spectrum, then skips the copy.

use super::columns::{ColumnFft, Rows};
use super::layout::block_ld;
use super::r2r::R2rOp;
use super::rfft::Rfft;
use crate::real::Real;
use num_complex::Complex;
use rustfft::Fft;
use std::sync::Arc;

/// What a block may do with its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Only read; apart from the destination.
    Read,
    /// Only read, all of the block's before any destination element is written: source and
    /// destination may overlap inside the block.
    Aliased,
    /// The executor's own buffer, apart from the destination, read by this block alone and by
    /// nothing after the pass: it may be overwritten.
    Spent,
}

/// Memory of one side of a pass. Strides that go with it count its elements: complex numbers for
/// `C`, scalars for `S` and `R`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mem<T> {
    /// Interleaved complex numbers.
    C(*mut Complex<T>),
    /// Split complex: real parts, imaginary parts.
    S(*mut T, *mut T),
    R(*mut T),
}
// SAFETY: the jobs that share a `Mem` touch disjoint elements (or only read).
unsafe impl<T> Send for Mem<T> {}
unsafe impl<T> Sync for Mem<T> {}

/// The 1-D operation of a pass.
pub enum Op<T: Real> {
    /// rustfft's plan, and the column FFT of the same transform where the length has one.
    C2c(Arc<dyn Fft<T>>, Option<Arc<ColumnFft<T>>>),
    R2c(Arc<Rfft<T>>),
    C2r(Arc<Rfft<T>>),
    R2r(Arc<R2rOp<T>>),
}

impl<T: Real> Op<T> {
    /// (source, destination) pencil lengths.
    pub fn lens(&self) -> (usize, usize) {
        match self {
            Op::C2c(f, _) => (f.len(), f.len()),
            Op::R2c(f) => (f.len(), f.len() / 2 + 1),
            Op::C2r(f) => (f.len() / 2 + 1, f.len()),
            Op::R2r(op) => (op.len(), op.len()),
        }
    }
    pub fn complex_src(&self) -> bool {
        matches!(self, Op::C2c(..) | Op::C2r(_))
    }
    pub fn complex_dst(&self) -> bool {
        matches!(self, Op::C2c(..) | Op::R2c(_))
    }
    /// Complex scratch one call of the 1-D algorithm needs.
    pub fn fft_scratch(&self) -> usize {
        match self {
            Op::C2c(f, _) => f
                .get_inplace_scratch_len()
                .max(f.get_outofplace_scratch_len())
                .max(f.get_immutable_scratch_len()),
            Op::R2c(f) | Op::C2r(f) => f.scratch_len(),
            Op::R2r(op) => op.scratch_len().div_ceil(2),
        }
    }
    /// Bytes of one source element.
    fn src_bytes(&self) -> usize {
        std::mem::size_of::<T>() * if self.complex_src() { 2 } else { 1 }
    }
}

/// Per-worker scratch, sized at plan time for every pass of the plan.
#[derive(Default)]
pub struct Scratch<T> {
    /// Complex blocks of pencils.
    pub block: Vec<Complex<T>>,
    /// Real blocks of pencils.
    pub real: Vec<T>,
    /// One complex row (an r2c output on its way to a strided destination).
    pub row: Vec<Complex<T>>,
    /// One real row (a c2r output on its way to a strided destination).
    pub real_row: Vec<T>,
    /// The 1-D algorithms' own scratch.
    pub fft: Vec<Complex<T>>,
}

/// What a [`Scratch`] must hold.
#[derive(Clone, Copy, Default, Debug)]
pub struct ScratchSize {
    pub block: usize,
    pub real: usize,
    pub row: usize,
    pub real_row: usize,
    pub fft: usize,
}

impl ScratchSize {
    pub fn max(self, o: ScratchSize) -> ScratchSize {
        ScratchSize {
            block: self.block.max(o.block),
            real: self.real.max(o.real),
            row: self.row.max(o.row),
            real_row: self.real_row.max(o.real_row),
            fft: self.fft.max(o.fft),
        }
    }
    /// The bytes [`ScratchSize::alloc`] takes.
    pub fn bytes<T: Real>(&self) -> usize {
        let complex = 2 * std::mem::size_of::<T>();
        (self.block + self.row + self.fft) * complex
            + (self.real + self.real_row) * std::mem::size_of::<T>()
    }
    /// Allocates it (zeroed); `None` when out of memory.
    pub fn alloc<T: Real>(&self) -> Option<Scratch<T>> {
        fn v<E: Clone>(len: usize, zero: E) -> Option<Vec<E>> {
            let mut x = Vec::new();
            x.try_reserve_exact(len).ok()?;
            x.resize(len, zero);
            Some(x)
        }
        let z = Complex::new(T::zero(), T::zero());
        Some(Scratch {
            block: v(self.block, z)?,
            real: v(self.real, T::zero())?,
            row: v(self.row, z)?,
            real_row: v(self.real_row, T::zero())?,
            fft: v(self.fft, z)?,
        })
    }
}

/// The fewest adjacent pencils a block runs through the column FFT (fewer: gathered).
const MIN_COLUMNS: usize = 8;

/// Bytes a block of pencils aims for: a few pencils' worth of L2.
const BLOCK_BYTES: usize = 64 << 10;
/// The most pencils in a block.
const MAX_BLOCK: usize = 64;

/// Pencils per block for an op whose source pencils are strided (gathered) or contiguous.
pub fn block_pencils<T: Real>(op: &Op<T>, contiguous: bool) -> usize {
    let (n, m) = op.lens();
    let bytes = n.max(m).max(1) * op.src_bytes();
    let line = (64 / op.src_bytes()).max(1);
    if contiguous {
        (BLOCK_BYTES / bytes).clamp(1, 4 * MAX_BLOCK)
    } else {
        (BLOCK_BYTES / bytes).clamp(line, MAX_BLOCK)
    }
}

/// The scratch one pass needs with blocks of `b` pencils.
pub fn pass_scratch<T: Real>(op: &Op<T>, b: usize) -> ScratchSize {
    let (n, m) = op.lens();
    let c = 2 * std::mem::size_of::<T>();
    let r = std::mem::size_of::<T>();
    let fft = op.fft_scratch();
    match op {
        Op::C2c(_, columns) => ScratchSize {
            block: (b * block_ld(n, c)).max(columns.as_ref().map_or(0, |f| f.scratch_len(b))),
            fft,
            ..Default::default()
        },
        Op::R2c(_) => ScratchSize {
            real: b * block_ld(n, r),
            // the half-length FFTs of a batch of contiguous rows (Rfft::forward_rows)
            block: if n / 2 * c <= super::rfft::SHORT_ROW_BYTES {
                (b * (n / 2)).min(super::rfft::ROWS_BYTES / c)
            } else {
                0
            },
            row: m,
            fft,
            ..Default::default()
        },
        Op::C2r(_) => ScratchSize {
            block: b * block_ld(n, c),
            real_row: m,
            fft,
            ..Default::default()
        },
        Op::R2r(_) => ScratchSize {
            real: b * block_ld(n, r),
            fft,
            ..Default::default()
        },
    }
}

/// A block of pencils: `count` pencils of `n_src` source and `n_dst` destination elements,
/// `s`/`d` apart along the pencil, `sb`/`db` apart from one pencil to the next.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    pub n_src: usize,
    pub n_dst: usize,
    pub s: isize,
    pub d: isize,
    pub count: usize,
    pub sb: isize,
    pub db: isize,
}

/// Runs `op` on one block. `soff`/`doff` are the first pencil's offsets.
///
/// # Safety
/// Every element the block addresses must lie in its side's memory; blocks run concurrently must
/// not share destination elements; see [`Source`] for what the block may do with its source.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_block<T: Real>(
    op: &Op<T>,
    src: Mem<T>,
    soff: isize,
    dst: Mem<T>,
    doff: isize,
    b: &Block,
    source: Source,
    sc: &mut Scratch<T>,
) {
    let alias = source == Source::Aliased;
    match op {
        Op::C2c(fft, columns) => c2c(
            &**fft,
            columns.as_deref(),
            src,
            soff,
            dst,
            doff,
            b,
            alias,
            sc,
        ),
        Op::R2c(f) => r2c(f, src, soff, dst, doff, b, alias, sc),
        Op::C2r(f) => c2r(f, src, soff, dst, doff, b, source == Source::Spent, sc),
        Op::R2r(r) => r2r(r, src, soff, dst, doff, b, alias, sc),
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn c2c<T: Real>(
    fft: &dyn Fft<T>,
    columns: Option<&ColumnFft<T>>,
    src: Mem<T>,
    soff: isize,
    dst: Mem<T>,
    doff: isize,
    b: &Block,
    alias: bool,
    sc: &mut Scratch<T>,
) {
    let n = b.n_src;
    let count = b.count;
    let scratch = &mut sc.fft[..];
    if let (Mem::C(sp), Mem::C(dp)) = (src, dst) {
        let (sp, dp) = (sp.offset(soff), dp.offset(doff));
        if b.s == 1 && b.d == 1 {
            let adjacent = count == 1 || (b.sb == n as isize && b.db == n as isize);
            if sp == dp && b.sb == b.db {
                // in place
                if adjacent {
                    fft.process_with_scratch(slice_mut(dp, count * n), scratch);
                } else {
                    for j in 0..count as isize {
                        fft.process_with_scratch(slice_mut(dp.offset(j * b.db), n), scratch);
                    }
                }
                return;
            }
            if !alias {
                if adjacent {
                    fft.process_immutable_with_scratch(
                        slice(sp, count * n),
                        slice_mut(dp, count * n),
                        scratch,
                    );
                } else {
                    for j in 0..count as isize {
                        fft.process_immutable_with_scratch(
                            slice(sp.offset(j * b.sb), n),
                            slice_mut(dp.offset(j * b.db), n),
                            scratch,
                        );
                    }
                }
                return;
            }
        }
        if let Some(f) = columns {
            let may_overlap = alias && !(sp == dp && b.s == b.d);
            if b.sb == 1
                && b.db == 1
                && count >= MIN_COLUMNS
                && (f.reads_all_first() || !may_overlap)
            {
                // adjacent strided pencils: transformed row by row, without copies
                let rows = |base, stride| Rows { base, stride };
                f.process(rows(sp, b.s), rows(dp, b.d), count, &mut sc.block);
                return;
            }
        }
    }
    let ld = if b.s == 1 && matches!(src, Mem::C(_)) {
        n
    } else {
        block_ld(n, 2 * std::mem::size_of::<T>())
    };
    let block = &mut sc.block[..ld * count];
    gather_c(src, soff, n, b.s, count, b.sb, block, ld);
    if let (Mem::C(dp), 1) = (dst, b.d) {
        // straight from the block into the contiguous destination pencils
        let dp = dp.offset(doff);
        for j in 0..count {
            fft.process_outofplace_with_scratch(
                &mut block[j * ld..j * ld + n],
                slice_mut(dp.offset(j as isize * b.db), n),
                scratch,
            );
        }
        return;
    }
    if ld == n {
        fft.process_with_scratch(block, scratch);
    } else {
        for j in 0..count {
            fft.process_with_scratch(&mut block[j * ld..j * ld + n], scratch);
        }
    }
    scatter_c(block, ld, dst, doff, n, b.d, count, b.db);
}

#[allow(clippy::too_many_arguments)]
unsafe fn r2c<T: Real>(
    f: &Rfft<T>,
    src: Mem<T>,
    soff: isize,
    dst: Mem<T>,
    doff: isize,
    b: &Block,
    alias: bool,
    sc: &mut Scratch<T>,
) {
    let Mem::R(sp) = src else {
        unreachable!("r2c reads reals")
    };
    let (n, h) = (b.n_src, b.n_dst);
    let sp = sp.offset(soff);
    let direct = b.s == 1 && !alias;
    let ld = if b.s == 1 {
        n
    } else {
        block_ld(n, std::mem::size_of::<T>())
    };
    if direct && b.d == 1 && b.sb == n as isize {
        if let Mem::C(dp) = dst {
            if f.rows_per_batch(sc.block.len()) > 0 {
                // contiguous rows: half-length FFTs in batches, the twiddle step into the rows
                f.forward_rows(
                    sp,
                    b.count,
                    dp.offset(doff),
                    b.db,
                    &mut sc.block,
                    &mut sc.fft,
                );
                return;
            }
        }
    }
    if !direct {
        gather_r(sp, n, b.s, b.count, b.sb, &mut sc.real[..ld * b.count], ld);
    }
    for j in 0..b.count {
        let x: &[T] = if direct {
            slice(sp.offset(j as isize * b.sb), n)
        } else {
            &sc.real[j * ld..j * ld + n]
        };
        match (dst, b.d) {
            (Mem::C(dp), 1) => {
                let out = slice_mut(dp.offset(doff + j as isize * b.db), h);
                f.forward(x, out, &mut sc.fft);
            }
            _ => {
                f.forward(x, &mut sc.row[..h], &mut sc.fft);
                scatter_c(&sc.row[..h], h, dst, doff + j as isize * b.db, h, b.d, 1, 0);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn c2r<T: Real>(
    f: &Rfft<T>,
    src: Mem<T>,
    soff: isize,
    dst: Mem<T>,
    doff: isize,
    b: &Block,
    spent: bool,
    sc: &mut Scratch<T>,
) {
    let Mem::R(dp) = dst else {
        unreachable!("c2r writes reals")
    };
    let (h, n) = (b.n_src, b.n_dst);
    let dp = dp.offset(doff);
    if let (true, Mem::C(sp), 1, 1) = (spent, src, b.s, b.d) {
        // contiguous rows of a spectrum that may be destroyed: no copy
        let sp = sp.offset(soff);
        for j in 0..b.count as isize {
            f.inverse(
                slice_mut(sp.offset(j * b.sb), h),
                slice_mut(dp.offset(j * b.db), n),
                &mut sc.fft,
            );
        }
        return;
    }
    // The spectrum is overwritten by the algorithm: a copy, all of the block's first.
    let ld = if b.s == 1 && matches!(src, Mem::C(_)) {
        h
    } else {
        block_ld(h, 2 * std::mem::size_of::<T>())
    };
    gather_c(
        src,
        soff,
        h,
        b.s,
        b.count,
        b.sb,
        &mut sc.block[..ld * b.count],
        ld,
    );
    for j in 0..b.count {
        let spec = &mut sc.block[j * ld..j * ld + h];
        if b.d == 1 {
            f.inverse(
                spec,
                slice_mut(dp.offset(j as isize * b.db), n),
                &mut sc.fft,
            );
        } else {
            f.inverse(spec, &mut sc.real_row[..n], &mut sc.fft);
            let row = dp.offset(j as isize * b.db);
            for (i, &v) in sc.real_row[..n].iter().enumerate() {
                *row.offset(i as isize * b.d) = v;
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn r2r<T: Real>(
    op: &R2rOp<T>,
    src: Mem<T>,
    soff: isize,
    dst: Mem<T>,
    doff: isize,
    b: &Block,
    alias: bool,
    sc: &mut Scratch<T>,
) {
    let (Mem::R(sp), Mem::R(dp)) = (src, dst) else {
        unreachable!("r2r reads and writes reals")
    };
    let n = b.n_src;
    let (sp, dp) = (sp.offset(soff), dp.offset(doff));
    let scratch = fft_as_real(&mut sc.fft);
    if b.s == 1 && b.d == 1 && (!alias || (sp == dp && b.sb == b.db)) {
        for j in 0..b.count as isize {
            let out = dp.offset(j * b.db);
            if sp != dp {
                std::ptr::copy_nonoverlapping(sp.offset(j * b.sb), out, n);
            }
            op.apply_line(slice_mut(out, n), scratch);
        }
        return;
    }
    let ld = if b.s == 1 {
        n
    } else {
        block_ld(n, std::mem::size_of::<T>())
    };
    let block = &mut sc.real[..ld * b.count];
    gather_r(sp, n, b.s, b.count, b.sb, block, ld);
    for j in 0..b.count {
        op.apply_line(&mut block[j * ld..j * ld + n], scratch);
    }
    scatter_r(block, ld, dp, n, b.d, b.count, b.db);
}

fn fft_as_real<T>(v: &mut [Complex<T>]) -> &mut [T] {
    // SAFETY: Complex<T> is two T's (repr(C)).
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut T, v.len() * 2) }
}

#[inline(always)]
unsafe fn slice<'a, E>(p: *const E, len: usize) -> &'a [E] {
    std::slice::from_raw_parts(p, len)
}
#[inline(always)]
unsafe fn slice_mut<'a, E>(p: *mut E, len: usize) -> &'a mut [E] {
    std::slice::from_raw_parts_mut(p, len)
}

/// Copies `count` pencils of `n` elements (`s` apart, pencils `sb` apart) from `m` at `off` into
/// `block` (pencil j at `j * ld`).
#[allow(clippy::too_many_arguments)]
unsafe fn gather_c<T: Real>(
    m: Mem<T>,
    off: isize,
    n: usize,
    s: isize,
    count: usize,
    sb: isize,
    block: &mut [Complex<T>],
    ld: usize,
) {
    let bp = block.as_mut_ptr();
    match m {
        Mem::C(p) => {
            let p = p.offset(off);
            if s == 1 {
                for j in 0..count {
                    std::ptr::copy_nonoverlapping(p.offset(j as isize * sb), bp.add(j * ld), n);
                }
            } else if count == 1 {
                for i in 0..n {
                    *bp.add(i) = *p.offset(i as isize * s);
                }
            } else if sb == 1 {
                transpose_in(p, n, s, count, bp, ld);
            } else {
                for i in 0..n {
                    let row = p.offset(i as isize * s);
                    for j in 0..count {
                        *bp.add(j * ld + i) = *row.offset(j as isize * sb);
                    }
                }
            }
        }
        Mem::S(re, im) => {
            let (re, im) = (re.offset(off), im.offset(off));
            for i in 0..n {
                let o = i as isize * s;
                for j in 0..count {
                    let q = o + j as isize * sb;
                    *bp.add(j * ld + i) = Complex::new(*re.offset(q), *im.offset(q));
                }
            }
        }
        Mem::R(_) => unreachable!("complex pencils from a real array"),
    }
}

/// The inverse of [`gather_c`].
#[allow(clippy::too_many_arguments)]
unsafe fn scatter_c<T: Real>(
    block: &[Complex<T>],
    ld: usize,
    m: Mem<T>,
    off: isize,
    n: usize,
    d: isize,
    count: usize,
    db: isize,
) {
    let bp = block.as_ptr();
    match m {
        Mem::C(p) => {
            let p = p.offset(off);
            if d == 1 {
                for j in 0..count {
                    std::ptr::copy_nonoverlapping(bp.add(j * ld), p.offset(j as isize * db), n);
                }
            } else if count == 1 {
                for i in 0..n {
                    *p.offset(i as isize * d) = *bp.add(i);
                }
            } else if db == 1 {
                transpose_out(bp, ld, p, n, d, count);
            } else {
                for i in 0..n {
                    let row = p.offset(i as isize * d);
                    for j in 0..count {
                        *row.offset(j as isize * db) = *bp.add(j * ld + i);
                    }
                }
            }
        }
        Mem::S(re, im) => {
            let (re, im) = (re.offset(off), im.offset(off));
            for i in 0..n {
                let o = i as isize * d;
                for j in 0..count {
                    let q = o + j as isize * db;
                    let v = *bp.add(j * ld + i);
                    *re.offset(q) = v.re;
                    *im.offset(q) = v.im;
                }
            }
        }
        Mem::R(_) => unreachable!("complex pencils to a real array"),
    }
}

unsafe fn gather_r<T: Real>(
    p: *const T,
    n: usize,
    s: isize,
    count: usize,
    sb: isize,
    block: &mut [T],
    ld: usize,
) {
    let bp = block.as_mut_ptr();
    if s == 1 {
        for j in 0..count {
            std::ptr::copy_nonoverlapping(p.offset(j as isize * sb), bp.add(j * ld), n);
        }
    } else if sb == 1 {
        transpose_in(p, n, s, count, bp, ld);
    } else {
        for i in 0..n {
            let row = p.offset(i as isize * s);
            for j in 0..count {
                *bp.add(j * ld + i) = *row.offset(j as isize * sb);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn scatter_r<T: Real>(
    block: &[T],
    ld: usize,
    p: *mut T,
    n: usize,
    d: isize,
    count: usize,
    db: isize,
) {
    let bp = block.as_ptr();
    if d == 1 {
        for j in 0..count {
            std::ptr::copy_nonoverlapping(bp.add(j * ld), p.offset(j as isize * db), n);
        }
    } else if db == 1 {
        transpose_out(bp, ld, p, n, d, count);
    } else {
        for i in 0..n {
            let row = p.offset(i as isize * d);
            for j in 0..count {
                *row.offset(j as isize * db) = *bp.add(j * ld + i);
            }
        }
    }
}

/// Bytes of a cache line: a transposing copy moves a line's worth of rows at once (at most
/// [`TILE_ROWS`]), so that each line of the block is written (or read) whole while the `count`
/// adjacent pencils stream past.
const LINE_BYTES: usize = 64;
/// The most rows a transposing copy reads (or writes) at once: rows a multiple of 4 KiB apart
/// share their L1 sets, and 16 of them at once (f32 reals: a whole line) outnumbered a 12-way
/// L1's ways (tried 2026-11-27: REDFT11 f32 64³ in place 1.41x FFTW's time with 16, 1.01x
/// with 8).
const TILE_ROWS: usize = 8;

/// `block[j * ld + i] = p[i * s + j]` for `i < n`, `j < count`: `n` rows of `count` adjacent
/// elements, `s` apart, transposed into `count` pencils. Rows go a cache line of the block at a
/// time: filling the block one element per line per row made each line travel to and from L2
/// once per element once the block outgrew L1.
unsafe fn transpose_in<E: Copy>(
    p: *const E,
    n: usize,
    s: isize,
    count: usize,
    bp: *mut E,
    ld: usize,
) {
    let tile = (LINE_BYTES / std::mem::size_of::<E>()).clamp(1, TILE_ROWS);
    let w = square_width::<E>();
    let mut i0 = 0;
    while i0 < n {
        let rows = tile.min(n - i0);
        // Whole squares of pencils with SIMD (their rows a multiple of the square's), the
        // rest one element at a time.
        let done = in_squares(w, rows, count);
        if done > 0 {
            transpose_squares(
                p.offset(i0 as isize * s),
                s,
                bp.add(i0),
                ld as isize,
                rows,
                done,
            );
        }
        for j in done..count {
            let (src, dst) = (p.offset(i0 as isize * s + j as isize), bp.add(j * ld + i0));
            for r in 0..rows {
                *dst.add(r) = *src.offset(r as isize * s);
            }
        }
        i0 += rows;
    }
}

/// The inverse of [`transpose_in`]: `p[i * d + j] = block[j * ld + i]`.
unsafe fn transpose_out<E: Copy>(
    bp: *const E,
    ld: usize,
    p: *mut E,
    n: usize,
    d: isize,
    count: usize,
) {
    let tile = (LINE_BYTES / std::mem::size_of::<E>()).clamp(1, TILE_ROWS);
    let w = square_width::<E>();
    let mut i0 = 0;
    while i0 < n {
        let rows = tile.min(n - i0);
        let done = in_squares(w, rows, count);
        if done > 0 {
            let (src, dst) = (bp.add(i0), p.offset(i0 as isize * d));
            transpose_squares(src, ld as isize, dst, d, done, rows);
        }
        for j in done..count {
            let (src, dst) = (bp.add(j * ld + i0), p.offset(i0 as isize * d + j as isize));
            for r in 0..rows {
                *dst.offset(r as isize * d) = *src.add(r);
            }
        }
        i0 += rows;
    }
}

/// Of `count` pencils of a tile of `rows`, how many [`transpose_squares`] moves in squares of
/// side `w` (0: none).
fn in_squares(w: usize, rows: usize, count: usize) -> usize {
    match w > 0 && rows.is_multiple_of(w) {
        true => count - count % w,
        false => 0,
    }
}

/// The side of the squares [`transpose_squares`] moves elements of type `E` in (0: none, on
/// this CPU or for this size): 8 of 4 bytes (f32 real), 4 of 8 (f32 complex, f64 real) or 2
/// of 16 (f64 complex) make one AVX register a row. (The scalar copies, one 8-byte store a row each, were a
/// third of fftx's time in r2c f32 1024 x 1024's column pass. Squares of 4 f64 complex with
/// AVX-512, a cache line a row, were within noise of these on the 2-core VM, 2026-11-29: r2c
/// f64 512², c2c f64 128³, c2r f64 128³ and 2048² at 0.96-1.07x the time.)
fn square_width<E>() -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        return match std::mem::size_of::<E>() {
            4 => 8,
            8 => 4,
            16 => 2,
            _ => 0,
        };
    }
    0
}

/// `dst[c * ds + r] = src[r * ss + c]` for `r < rows`, `c < cols`, both multiples of
/// [`square_width`] (non-zero), in squares of that side: whole rows of a square loaded, moved
/// by shuffles (the bits unchanged), stored.
///
/// # Safety
/// Every element addressed is valid, the destination's writable and apart from the source.
unsafe fn transpose_squares<E>(
    src: *const E,
    ss: isize,
    dst: *mut E,
    ds: isize,
    rows: usize,
    cols: usize,
) {
    #[cfg(target_arch = "x86_64")]
    match std::mem::size_of::<E>() {
        4 => return squares_of_8(src as *const f32, ss, dst as *mut f32, ds, rows, cols),
        8 => return squares_of_4(src as *const f64, ss, dst as *mut f64, ds, rows, cols),
        16 => return squares_of_2(src as *const f64, ss, dst as *mut f64, ds, rows, cols),
        _ => {}
    }
    unreachable!("square_width is 0 for this element size")
}

/// [`transpose_squares`] of 4-byte elements (as f32 lanes: shuffles only, no arithmetic).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn squares_of_8(
    src: *const f32,
    ss: isize,
    dst: *mut f32,
    ds: isize,
    rows: usize,
    cols: usize,
) {
    use std::arch::x86_64::*;
    for c in (0..cols).step_by(8) {
        for r in (0..rows).step_by(8) {
            let row = |q: usize| _mm256_loadu_ps(src.offset((r + q) as isize * ss + c as isize));
            let t: [__m256; 8] = std::array::from_fn(|k| {
                let (a, b) = (row(k & !1), row(k | 1));
                if k % 2 == 0 {
                    _mm256_unpacklo_ps(a, b)
                } else {
                    _mm256_unpackhi_ps(a, b)
                }
            });
            // u[k]: pairs of t (0 with 2, 1 with 3; 4 with 6, 5 with 7), low or high halves.
            let u: [__m256; 8] = std::array::from_fn(|k| {
                let (a, b) = (t[(k & 4) | ((k >> 1) & 1)], t[(k & 4) | ((k >> 1) & 1) | 2]);
                if k % 2 == 0 {
                    _mm256_shuffle_ps(a, b, 0x44)
                } else {
                    _mm256_shuffle_ps(a, b, 0xee)
                }
            });
            for k in 0..4 {
                let to = |q: usize| dst.offset((c + q) as isize * ds + r as isize);
                _mm256_storeu_ps(to(k), _mm256_permute2f128_ps(u[k], u[k + 4], 0x20));
                _mm256_storeu_ps(to(k + 4), _mm256_permute2f128_ps(u[k], u[k + 4], 0x31));
            }
        }
    }
}

/// [`transpose_squares`] of 8-byte elements (as f64 lanes: shuffles only, no arithmetic).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn squares_of_4(
    src: *const f64,
    ss: isize,
    dst: *mut f64,
    ds: isize,
    rows: usize,
    cols: usize,
) {
    use std::arch::x86_64::*;
    for c in (0..cols).step_by(4) {
        for r in (0..rows).step_by(4) {
            let at = |q: usize| src.offset((r + q) as isize * ss + c as isize);
            let (r0, r1) = (_mm256_loadu_pd(at(0)), _mm256_loadu_pd(at(1)));
            let (r2, r3) = (_mm256_loadu_pd(at(2)), _mm256_loadu_pd(at(3)));
            let (t0, t1) = (_mm256_unpacklo_pd(r0, r1), _mm256_unpackhi_pd(r0, r1));
            let (t2, t3) = (_mm256_unpacklo_pd(r2, r3), _mm256_unpackhi_pd(r2, r3));
            let to = |q: usize| dst.offset((c + q) as isize * ds + r as isize);
            _mm256_storeu_pd(to(0), _mm256_permute2f128_pd(t0, t2, 0x20));
            _mm256_storeu_pd(to(1), _mm256_permute2f128_pd(t1, t3, 0x20));
            _mm256_storeu_pd(to(2), _mm256_permute2f128_pd(t0, t2, 0x31));
            _mm256_storeu_pd(to(3), _mm256_permute2f128_pd(t1, t3, 0x31));
        }
    }
}

/// [`transpose_squares`] of 16-byte elements (two f64 lanes each).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn squares_of_2(
    src: *const f64,
    ss: isize,
    dst: *mut f64,
    ds: isize,
    rows: usize,
    cols: usize,
) {
    use std::arch::x86_64::*;
    // In f64 lanes: an element is 2 of them.
    let (ss, ds) = (2 * ss, 2 * ds);
    for c in (0..cols).step_by(2) {
        for r in (0..rows).step_by(2) {
            let at = |q: usize| src.offset((r + q) as isize * ss + 2 * c as isize);
            let (r0, r1) = (_mm256_loadu_pd(at(0)), _mm256_loadu_pd(at(1)));
            let to = |q: usize| dst.offset((c + q) as isize * ds + 2 * r as isize);
            _mm256_storeu_pd(to(0), _mm256_permute2f128_pd(r0, r1, 0x20));
            _mm256_storeu_pd(to(1), _mm256_permute2f128_pd(r0, r1, 0x31));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transposing copies (SIMD squares where the element size allows, scalar elsewhere)
    /// move every element where the plain loops do and nothing else, for 4-, 8- and 16-byte
    /// elements, row and pencil counts that are and are not multiples of a square, and gaps
    /// between rows and between pencils.
    #[test]
    fn transposing_copies_move_each_element_once() {
        fn check<E: Copy + PartialEq + std::fmt::Debug>(make: impl Fn(usize) -> E, blank: E) {
            for (n, count) in [(1, 1), (4, 4), (8, 8), (12, 9), (17, 6), (3, 13), (16, 64)] {
                let (s, ld) = (count as isize + 3, n + 5);
                let rows: Vec<E> = (0..n * s as usize).map(&make).collect();
                let mut block = vec![blank; count * ld + 7];
                // SAFETY: n rows of count elements s apart; count pencils of n, ld apart.
                unsafe { transpose_in(rows.as_ptr(), n, s, count, block.as_mut_ptr(), ld) };
                for (k, v) in block.iter().enumerate() {
                    let (j, i) = (k / ld, k % ld);
                    let want = if j < count && i < n {
                        rows[i * s as usize + j]
                    } else {
                        blank
                    };
                    assert_eq!(*v, want, "in: n {n} count {count} at {k}");
                }
                let mut back = vec![blank; rows.len() + 7];
                // SAFETY: as above, the other way.
                unsafe { transpose_out(block.as_ptr(), ld, back.as_mut_ptr(), n, s, count) };
                for (k, v) in back.iter().enumerate() {
                    let (i, j) = (k / s as usize, k % s as usize);
                    let want = if i < n && j < count { rows[k] } else { blank };
                    assert_eq!(*v, want, "out: n {n} count {count} at {k}");
                }
            }
        }
        check(|k| k as u32 + 1, 0u32);
        check(|k| (k as u64 + 1) * 0x1_0000_0001, 0u64);
        check(|k| [k as u64 + 1, !(k as u64)], [0u64; 2]);
    }
}
