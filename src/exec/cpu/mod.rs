//! The CPU executor: runs a transform step of a program on the host.
//!
//! A transform of rank r with loops is one array of dims `loops ++ dims`, computed as r passes,
//! one per transform axis, the last axis first (for c2r, the last axis last). Each pass
//! transforms every pencil along its axis, from a source view to a destination view, in blocks
//! of pencils (`pencil.rs`): the first pass reads the caller's input, whatever its strides, and
//! writes the output; the others run in place on the output. Nothing is gathered or scattered
//! as a whole: any strides (negative too), split or interleaved arrays are views, and the input
//! is only read, so out-of-place plans preserve it, except a multi-dimensional c2r made with
//! [`CpuTransform::destroying_input`] (FFTW's default for c2r).
//!
//! - The two innermost passes run slab by slab (a plane of a 3-D transform, a whole small 2-D
//!   transform) while the slab is in cache, when there are slabs enough for the threads.
//! - r2c and c2r rows go through half-length complex FFTs with the twiddle step fused in
//!   (`rfft.rs`); c2r works in a complex buffer, since the output is real: in the input itself
//!   when the plan may destroy it (and its elements are apart), else in a work buffer.
//! - Threads (a persistent pool, `parallel.rs`) take contiguous chunks of a pass's blocks of
//!   pencils or slabs; small stages run on one thread. A 1-D transform with fewer transforms than
//!   threads runs each one on all of them instead, when large (`fourstep.rs`).
//! - In place with FFTW's layouts, blocks read and write only their own locations; any other
//!   overlap of output and input ("tangled") first copies the input, so that all of it is read
//!   before any output is written.
//! - Work buffers are sized at plan time; a plan keeps them between executes (a pool, for
//!   concurrent executes of one plan). The first execute that needs the c2r buffer allocates it,
//!   before anything is written: running out of memory fails the execute cleanly.

pub mod columns;
pub mod fmm;
pub mod fourstep;
pub mod kernel;
pub mod layout;
pub mod memory;
pub mod pencil;
pub mod program;
pub mod r2r;
pub mod rfft;
pub mod run;
pub mod split_half;
pub mod tensor_half;

use crate::error::{Error, Result};
use crate::exec::parallel::for_each_chunk;
use crate::problem::{footprints_apart, Kind, Problem};
use crate::real::Real;
use layout::{ArrayPtr, Overlap, SharedMut, Strided};
use num_complex::Complex;
use parking_lot::Mutex;
use pencil::{Block, Mem, Op, Scratch, ScratchSize, Source};
use r2r::R2rOp;
use rfft::Rfft;
use rustfft::FftDirection;
use std::sync::Arc;

/// Elements a stage gives each thread at least: below this, threads cost more than they save.
/// (2026-11-26, 16-core H100 host at 16 threads, grains 16384 ... 1024: the table's geometric
/// mean unchanged within the host's noise.) The planner gives a plan as many threads
/// (`planner::estimate`: a thread per `PAR_GRAIN` points).
pub const PAR_GRAIN: usize = 1 << 12;
/// The largest slab (bytes of its output) run as one job of the fused two innermost passes.
const FUSE_BYTES: usize = 2 << 20;
/// The largest work buffer (bytes) one run of a batched c2r uses: larger batches run in chunks.
const WORK_BYTES: usize = 64 << 20;

/// A side of a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    In = 0,
    /// Where intermediate results live: the output, the input (c2r in place), or a buffer.
    Mid = 1,
    Out = 2,
}

/// How one pass walks its pencils: `bd`, the dimension its blocks run along (`b` pencils at a
/// time), and `outer`, the other dimensions it enumerates.
#[derive(Clone, Debug)]
struct Walk {
    bd: Option<usize>,
    b: usize,
    outer: Vec<usize>,
}

struct Pass<T: Real> {
    axis: usize,
    op: Op<T>,
    src: Side,
    dst: Side,
    /// Walking the whole array.
    full: Walk,
    /// Walking one slab (fused passes only).
    slab: Walk,
}

/// Memory identities of the views, for aliasing: the caller's input and output (the same memory
/// in place), the work buffer, the copy of a tangled input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MemId {
    Input,
    Output,
    Work,
    InputCopy,
}

#[derive(Clone, Copy)]
struct View<'a, T> {
    mem: Mem<T>,
    /// Offset of the first element, in the view's elements.
    base: isize,
    s: &'a [isize],
    id: MemId,
}

struct Ctx<'a, T> {
    /// In, Mid, Out.
    views: [View<'a, T>; 3],
    lens: &'a [usize],
    in_place: bool,
    /// The caller's input is the intermediate buffer of a plan that may destroy it.
    input_spent: bool,
}

impl<T> Ctx<'_, T> {
    /// What a pass from `a` to `b` may do with its source.
    fn source(&self, a: Side, b: Side) -> Source {
        let (x, y) = (self.views[a as usize].id, self.views[b as usize].id);
        let caller = |m: MemId| matches!(m, MemId::Input | MemId::Output);
        if x == y || (self.in_place && caller(x) && caller(y)) {
            Source::Aliased
        } else if caller(x) && !(self.input_spent && x == MemId::Input) {
            Source::Read
        } else {
            Source::Spent
        }
    }
}

/// Per-execute buffers: one scratch per worker, the work buffer (c2r, or an output that cannot
/// hold intermediate results), the copy of a tangled input.
struct Work<T> {
    scratch: Vec<Scratch<T>>,
    buf: Vec<Complex<T>>,
    copy: Vec<Complex<T>>,
}

/// Strides and lengths of one side of the problem.
struct SideDims {
    /// Strides in scalars, per dim (loops first).
    s: Vec<isize>,
    /// Strides in complex elements (all of `s` even), for interleaved arrays.
    s2: Option<Vec<isize>>,
}

impl SideDims {
    fn new(s: Vec<isize>) -> Self {
        let s2 = s
            .iter()
            .all(|x| x % 2 == 0)
            .then(|| s.iter().map(|x| x / 2).collect());
        SideDims { s, s2 }
    }
}

/// A transform step, ready to run on the CPU.
pub struct CpuTransform<T: Real> {
    problem: Problem,
    kind: Kind,
    howmany: usize,
    nloops: usize,
    /// Lengths per dim (loops first); for r2c/c2r, the last is the complex n/2+1.
    lens: Vec<usize>,
    /// The input's lengths (differs from `lens` for r2c: real last dim).
    in_lens: Vec<usize>,
    ins: SideDims,
    outs: SideDims,
    /// Contiguous strides over `lens` (work buffer) and `in_lens` (copy of the input).
    work_s: Vec<isize>,
    copy_s: Vec<isize>,
    passes: Vec<Pass<T>>,
    /// Passes `k` and `k + 1` run slab by slab.
    fuse: Option<usize>,
    /// The slab dims of the fused passes.
    slab_dims: Vec<usize>,
    /// Threads per pass (for fused ones, of the fused stage).
    pass_threads: Vec<usize>,
    /// r2c: scalar offsets, from a transform's output, of the bins FFTW makes exactly +0
    /// imaginary (index 0 or n/2 along every dimension); empty where the rows already are.
    self_conjugate: Vec<isize>,
    /// (lo, hi) extents of input and output, for the overlap check.
    extents: [(isize, isize); 2],
    /// `Problem::in_place_piecewise`: on one array, the passes may run block by block there
    /// (else the input is copied first).
    in_place_piecewise: bool,
    /// In place (same locations), may passes run block by block? (r2c/c2r rows must not
    /// overlap other rows.)
    in_place_ok: bool,
    /// The output's elements are distinct (footprint 1 scalar / 2 scalars each).
    out_injective: [bool; 2],
    /// No two input elements share a location (a complex input the passes may run in).
    in_injective: bool,
    /// An out-of-place c2r may run its complex passes in the caller's input.
    destroy_input: bool,
    scratch_size: ScratchSize,
    /// Workers the passes use at most (one scratch each).
    workers: usize,
    /// The work buffers of an execute: the first in use is `primary`; concurrent executes of
    /// the plan take others from `pool` (kept apart: a small transform's execute takes a few
    /// tens of nanoseconds, and moving the buffers in and out of a pool took a tenth of it).
    primary: Mutex<Option<Work<T>>>,
    pool: Mutex<Vec<Work<T>>>,
    /// A single contiguous interleaved 1-D c2c (no loops): executes call the FFT directly,
    /// skipping the pass machinery (for n = 16 that was two thirds of an execute).
    single_c2c: Option<Arc<dyn rustfft::Fft<T>>>,
}

impl<T: Real> CpuTransform<T> {
    pub fn new(p: &Problem, threads: usize) -> Self {
        let threads = threads.max(1);
        let rank = p.dims.len();
        let nloops = p.loops.len();
        let kind = p.kind.clone();
        let shape: Vec<usize> = p.dims.iter().map(|d| d.n as usize).collect();
        let lens = with_loops(p, &shape, matches!(kind, Kind::R2c | Kind::C2r));
        let in_lens = with_loops(p, &shape, kind == Kind::C2r);
        let ins = SideDims::new(p.loops.iter().chain(&p.dims).map(|d| d.is).collect());
        let outs = SideDims::new(p.loops.iter().chain(&p.dims).map(|d| d.os).collect());
        let work_s = contiguous(&lens);
        let copy_s = contiguous(&in_lens);
        let howmany = p.howmany();

        let (ops, inner_threaded) = Self::plan_ops(&kind, &shape, howmany, threads);
        let needs_work = kind == Kind::C2r && rank >= 2;
        let axes: Vec<usize> = ops.iter().map(|(a, _)| a + nloops).collect();
        let fuse = Self::fuse_at(&kind, &axes, &lens, threads);
        let slab_dims: Vec<usize> = match fuse {
            Some(k) => (0..lens.len())
                .filter(|&d| d != axes[k] && d != axes[k + 1])
                .collect(),
            None => Vec::new(),
        };

        // Sides, walks and scratch of every pass. Plan-time views: the caller's strides (in
        // scalars), the output as Mid (c2r: the work buffer, strides in elements); and the
        // stride of a unit-stride pencil.
        let strides = |side: Side, complex: bool| -> (&[isize], isize) {
            let scalars = if complex { 2 } else { 1 };
            match side {
                Side::In => (&ins.s, scalars),
                Side::Out => (&outs.s, scalars),
                Side::Mid if needs_work => (&work_s, 1),
                Side::Mid => (&outs.s, scalars),
            }
        };
        let passes: Vec<Pass<T>> = ops
            .into_iter()
            .enumerate()
            .map(|(k, (_, op))| Self::plan_pass(k, op, &axes, &lens, fuse, &strides))
            .collect();
        let pass_threads =
            Self::pass_threads(&passes, &lens, fuse, &slab_dims, threads, inner_threaded);
        let scratch_size = passes.iter().fold(ScratchSize::default(), |size, p| {
            size.max(pencil::pass_scratch(&p.op, p.full.b))
        });

        let workers = pass_threads.iter().copied().max().unwrap_or(1);
        let self_conjugate =
            self_conjugate_offsets(&kind, howmany, &shape, &lens[nloops..], &outs.s[nloops..]);
        let in_place_ok = rows_apart(&kind, howmany, &shape, &lens, &ins, &outs);
        let out_dims: Vec<(usize, isize)> =
            lens.iter().copied().zip(outs.s.iter().copied()).collect();
        let out_injective = [disjoint(&out_dims, 0, 0), disjoint(&out_dims, 0, 1)];
        let in_dims: Vec<(usize, isize)> =
            in_lens.iter().copied().zip(ins.s.iter().copied()).collect();
        let in_injective = disjoint(&in_dims, 0, 1);
        let single_c2c = Self::single_c2c(&passes, nloops, &ins, &outs);

        CpuTransform {
            problem: p.clone(),
            kind,
            howmany,
            nloops,
            lens,
            in_lens,
            ins,
            outs,
            work_s,
            copy_s,
            passes,
            fuse,
            slab_dims,
            pass_threads,
            self_conjugate,
            extents: [p.extent(true), p.extent(false)],
            in_place_piecewise: p.in_place_piecewise(),
            in_place_ok,
            out_injective,
            in_injective,
            destroy_input: false,
            scratch_size,
            workers,
            primary: Mutex::new(None),
            pool: Mutex::new(Vec::new()),
            single_c2c,
        }
    }

    /// The 1-D algorithms, one per transform axis in the order the passes run (none for a plan
    /// of no transforms: a REDFT00 of n = 1 has none, and is a valid empty plan then, as in
    /// FFTW); and whether each transform itself runs on the threads.
    fn plan_ops(
        kind: &Kind,
        shape: &[usize],
        howmany: usize,
        threads: usize,
    ) -> (Vec<(usize, Op<T>)>, bool) {
        let rank = shape.len();
        let mut ops: Vec<(usize, Op<T>)> = Vec::new();
        // A 1-D transform too few to share the threads as whole transforms: each one runs on all
        // of them (a four-step FFT, `fourstep.rs`), one after another.
        let inner = if rank == 1 && howmany < threads {
            threads
        } else {
            1
        };
        let inner_threaded = rank == 1
            && match kind {
                Kind::Dft { .. } => fourstep::applies::<T>(shape[0], inner),
                Kind::R2c | Kind::C2r => Rfft::<T>::threaded(shape[0], inner),
                Kind::R2r(_) => false,
            };
        if howmany > 0 && rank > 0 {
            let planners = T::planners();
            let c2c = |n: usize, dir| {
                let fft = if rank == 1 {
                    fourstep::plan(n, dir, inner)
                } else {
                    planners.fft.lock().plan_fft(n, dir)
                };
                Op::C2c(fft, columns::ColumnFft::new(n, dir).map(Arc::new))
            };
            match kind {
                Kind::Dft { sign } => {
                    let dir = if *sign < 0 {
                        FftDirection::Forward
                    } else {
                        FftDirection::Inverse
                    };
                    for a in (0..rank).rev() {
                        ops.push((a, c2c(shape[a], dir)));
                    }
                }
                Kind::R2c => {
                    ops.push((
                        rank - 1,
                        Op::R2c(Arc::new(Rfft::with_threads(shape[rank - 1], true, inner))),
                    ));
                    for a in (0..rank - 1).rev() {
                        ops.push((a, c2c(shape[a], FftDirection::Forward)));
                    }
                }
                Kind::C2r => {
                    for (a, &n) in shape[..rank - 1].iter().enumerate() {
                        ops.push((a, c2c(n, FftDirection::Inverse)));
                    }
                    ops.push((
                        rank - 1,
                        Op::C2r(Arc::new(Rfft::with_threads(shape[rank - 1], false, inner))),
                    ));
                }
                Kind::R2r(kinds) => {
                    for a in (0..rank).rev() {
                        ops.push((a, Op::R2r(Arc::new(R2rOp::new(kinds[a], shape[a])))));
                    }
                }
            }
        }
        (ops, inner_threaded)
    }

    /// The pass `k` that runs slab by slab with pass `k + 1` (the two innermost), if any: when
    /// there are slabs enough for the threads and a slab fits in cache. `axes`: each pass's.
    fn fuse_at(kind: &Kind, axes: &[usize], lens: &[usize], threads: usize) -> Option<usize> {
        let np = axes.len();
        let elem = std::mem::size_of::<T>() * if kind.output_is_complex() { 2 } else { 1 };
        let fuse_at = match kind {
            Kind::C2r => np.checked_sub(2),
            _ => Some(0),
        };
        fuse_at.filter(|&k| {
            if np < 2 || k + 1 >= np {
                return false;
            }
            let (a, b) = (axes[k], axes[k + 1]);
            let slab: usize = lens[a] * lens[b];
            let slabs = lens.iter().product::<usize>() / slab.max(1);
            slabs >= threads && slab * elem <= FUSE_BYTES
        })
    }

    /// Pass `k` (of `axes.len()`), with the 1-D algorithm `op`: its sides, and how it walks the
    /// whole array and (fused) a slab. `strides`: a side's plan-time strides and the stride of
    /// a unit-stride pencil there.
    fn plan_pass<'s>(
        k: usize,
        op: Op<T>,
        axes: &[usize],
        lens: &[usize],
        fuse: Option<usize>,
        strides: &impl Fn(Side, bool) -> (&'s [isize], isize),
    ) -> Pass<T> {
        let axis = axes[k];
        let src = if k == 0 { Side::In } else { Side::Mid };
        let dst = if k + 1 == axes.len() {
            Side::Out
        } else {
            Side::Mid
        };
        let ((ss, su), (ds, du)) = (
            strides(src, op.complex_src()),
            strides(dst, op.complex_dst()),
        );
        let contiguous = ss[axis] == su && ds[axis] == du;
        let b = pencil::block_pencils(&op, contiguous);
        let free: Vec<usize> = (0..lens.len()).filter(|&d| d != axis).collect();
        let full = walk(&free, lens, ss, ds, b);
        let slab = match fused_pair(fuse, k) {
            // within a slab, the pencils run along the other fused axis
            Some(f) => walk(&[axes[if k == f { f + 1 } else { f }]], lens, ss, ds, b),
            None => full.clone(),
        };
        Pass {
            axis,
            op,
            src,
            dst,
            full,
            slab,
        }
    }

    /// Threads per pass: as many as its jobs and points keep busy, one where the transform
    /// itself runs on the threads; the fused passes share the larger of theirs.
    fn pass_threads(
        passes: &[Pass<T>],
        lens: &[usize],
        fuse: Option<usize>,
        slab_dims: &[usize],
        threads: usize,
        inner_threaded: bool,
    ) -> Vec<usize> {
        let total: usize = lens.iter().product();
        let mut pass_threads: Vec<usize> = passes
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let (n_src, _) = p.op.lens();
                let work = total / lens[p.axis].max(1) * n_src;
                let jobs = match fused_pair(fuse, k) {
                    Some(_) => slab_dims.iter().map(|&d| lens[d]).product(),
                    None => jobs_of(&p.full, lens),
                };
                if inner_threaded {
                    1 // the transform itself runs on the threads
                } else {
                    threads.min(jobs).min(work.div_ceil(PAR_GRAIN)).max(1)
                }
            })
            .collect();
        if let Some(f) = fuse {
            // the fused stage's threads: the larger of its passes' (they share the slabs)
            let t = pass_threads[f].max(pass_threads[f + 1]);
            pass_threads[f] = t;
            pass_threads[f + 1] = t;
        }
        pass_threads
    }

    /// The FFT of a single contiguous interleaved 1-D c2c (no loops), which executes call
    /// directly; None for other plans.
    fn single_c2c(
        passes: &[Pass<T>],
        nloops: usize,
        ins: &SideDims,
        outs: &SideDims,
    ) -> Option<Arc<dyn rustfft::Fft<T>>> {
        match passes {
            [Pass {
                op: Op::C2c(fft, _),
                ..
            }] if nloops == 0 && ins.s == [2] && outs.s == [2] => Some(fft.clone()),
            _ => None,
        }
    }

    /// The plan may overwrite an out-of-place input, as FFTW's c2r plans without
    /// `FFTW_PRESERVE_INPUT` do: a multi-dimensional c2r on an interleaved input whose elements
    /// are apart then runs its complex passes there instead of in a work buffer (which cost a
    /// fifth of a 128³ c2r: scattering into a buffer not in cache).
    pub fn destroying_input(mut self, destroy: bool) -> Self {
        self.destroy_input = destroy;
        self
    }

    /// Runs every transform of the step on the given arrays. Fails, before writing anything,
    /// only if the work buffers cannot be allocated.
    ///
    /// # Safety
    /// The arrays must hold every element the problem's dims and loops address.
    pub unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
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
    ) -> Result<()> {
        if first >= self.howmany {
            return Ok(());
        }
        if self.passes.is_empty() {
            return self.copy_rank0(input, output, first);
        }
        if let Some(fft) = &self.single_c2c {
            if self.run_single_c2c(&**fft, input, output)? {
                return Ok(());
            }
        }
        let overlap = layout::overlap_extents(
            self.extents,
            self.in_place_piecewise,
            std::mem::size_of::<T>(),
            input,
            output,
        );
        if let Some(mut primary) = self.primary.try_lock() {
            if primary.is_none() {
                *primary = Some(self.new_work()?);
            }
            let work = primary.as_mut().expect("set above");
            return self.run_from(input, output, overlap, first, work);
        }
        let mut work = match self.pool.lock().pop() {
            Some(w) => w,
            None => self.new_work()?,
        };
        let result = self.run_from(input, output, overlap, first, &mut work);
        self.pool.lock().push(work);
        result
    }

    /// The single contiguous c2c on interleaved arrays that are the same or apart; false (and
    /// nothing done) for other arrays.
    unsafe fn run_single_c2c(
        &self,
        fft: &dyn rustfft::Fft<T>,
        input: ArrayPtr,
        output: ArrayPtr,
    ) -> Result<bool> {
        let u = std::mem::size_of::<T>();
        let (ArrayPtr::Complex { re: ir, im: ii }, ArrayPtr::Complex { re: or, im: oi }) =
            (input, output)
        else {
            return Ok(false);
        };
        let n = fft.len();
        let bytes = 2 * n * u;
        let apart = ir + bytes <= or || or + bytes <= ir;
        if ii != ir + u || oi != or + u || !(apart || ir == or) {
            return Ok(false);
        }
        let dst = std::slice::from_raw_parts_mut(or as *mut Complex<T>, n);
        let scratch_len = if apart {
            fft.get_immutable_scratch_len()
        } else {
            fft.get_inplace_scratch_len()
        };
        let mut run = |scratch: &mut [Complex<T>]| {
            if apart {
                let src = std::slice::from_raw_parts(ir as *const Complex<T>, n);
                fft.process_immutable_with_scratch(src, dst, scratch);
            } else {
                fft.process_with_scratch(dst, scratch);
            }
        };
        if scratch_len == 0 {
            run(&mut []);
            return Ok(true);
        }
        // Busy (a concurrent execute of this plan): the general path takes pooled buffers.
        let Some(mut work) = self.primary.try_lock() else {
            return Ok(false);
        };
        if work.is_none() {
            *work = Some(self.new_work()?);
        }
        let work = work.as_mut().expect("set above");
        run(&mut work.scratch[0].fft[..scratch_len]);
        Ok(true)
    }

    /// Runs transforms `first..` with the work buffers `work`.
    unsafe fn run_from(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        overlap: Overlap,
        first: usize,
        work: &mut Work<T>,
    ) -> Result<()> {
        if first == 0 {
            self.run(input, output, overlap, &self.lens, (0, 0), work)
        } else {
            // One transform at a time: the loops set to length 1 at each one's offsets.
            let mut lens = self.lens.clone();
            lens[..self.nloops].iter_mut().for_each(|l| *l = 1);
            (first..self.howmany).try_for_each(|i| {
                let base = layout::instance_offsets(&self.problem.loops, i);
                self.run(input, output, overlap, &lens, base, work)
            })
        }
    }

    fn new_work(&self) -> Result<Work<T>> {
        let oom = || Error::out_of_host_memory("out of host memory for the work buffers");
        let bytes = self.workers * self.scratch_size.bytes::<T>();
        memory::check_bytes(bytes, "this execute's work buffers")?;
        let scratch = (0..self.workers)
            .map(|_| self.scratch_size.alloc::<T>())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(oom)?;
        Ok(Work {
            scratch,
            buf: Vec::new(),
            copy: Vec::new(),
        })
    }

    /// Runs the transforms of `lens` (the plan's, or a part of its loops) at scalar offsets
    /// `base` of the input and output.
    unsafe fn run(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        overlap: Overlap,
        lens: &[usize],
        base: (isize, isize),
        work: &mut Work<T>,
    ) -> Result<()> {
        let (inv, in_place) = self.input_view(input, output, overlap, lens, base.0, work)?;
        let outv = self.view(output, &self.outs, base.1, MemId::Output);
        let input_spent = self.spends_input(&inv, in_place);
        let mid = match self.caller_mid(inv, outv, in_place, input_spent) {
            Some(v) => v,
            None => {
                // A work buffer for the intermediate results: a chunk of the loops at a time
                // when they are many.
                if let Some(chunk) = self.work_chunk(lens) {
                    return self.run_chunked(input, output, overlap, lens, base, chunk, work);
                }
                self.work_view(lens, work)?
            }
        };
        let ctx = Ctx {
            views: [inv, mid, outv],
            lens,
            in_place,
            input_spent,
        };
        let scratch = SharedMut(work.scratch.as_mut_ptr());
        let mut k = 0;
        while k < self.passes.len() {
            if self.fuse == Some(k) {
                self.run_fused(k, &ctx, scratch);
                k += 2;
            } else {
                self.run_pass(k, &ctx, scratch);
                k += 1;
            }
        }
        self.fix_self_conjugate(output, lens, base.1);
        Ok(())
    }

    /// The view the first pass reads for the transforms of `lens` at scalar offset `base`, and
    /// whether the passes run in place: the caller's input, or (tangled) a copy of it.
    unsafe fn input_view(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        overlap: Overlap,
        lens: &[usize],
        base: isize,
        work: &mut Work<T>,
    ) -> Result<(View<'_, T>, bool)> {
        Ok(match overlap {
            Overlap::Disjoint => (self.view(input, &self.ins, base, MemId::Input), false),
            // (A c2r's input has scalars that are not output ones: an out-of-place plan keeps
            // them, so on one array it reads a copy.)
            Overlap::SameLocations
                if self.in_place_usable(input, output)
                    && (self.kind != Kind::C2r || self.problem.in_place) =>
            {
                (self.view(input, &self.ins, base, MemId::Input), true)
            }
            _ => {
                // Tangled: all of the input is read (copied) before any output is written.
                self.copy_input(input, lens, base, work)?;
                (self.copy_view(work), false)
            }
        })
    }

    /// Does a c2r work in the caller's input `inv`? It may when the plan may destroy it (made
    /// out of place: on an in-place plan, new separate arrays keep it).
    fn spends_input(&self, inv: &View<'_, T>, in_place: bool) -> bool {
        self.kind == Kind::C2r
            && self.passes.len() > 1
            && inv.id == MemId::Input
            && !in_place
            && self.destroy_input
            && !self.problem.in_place
            && self.in_injective
            && matches!(inv.mem, Mem::C(_))
    }

    /// Where intermediate results go, when not in a work buffer (None): the output, or for a
    /// multi-dimensional c2r the input's view.
    fn caller_mid<'a>(
        &self,
        inv: View<'a, T>,
        outv: View<'a, T>,
        in_place: bool,
        input_spent: bool,
    ) -> Option<View<'a, T>> {
        let out_usable = match outv.mem {
            Mem::C(_) => self.out_injective[1],
            Mem::R(_) => self.out_injective[0],
            Mem::S(re, im) => self.out_injective[0] && self.split_parts_apart(re, im),
        };
        if self.kind == Kind::C2r && self.passes.len() > 1 {
            // in place; our copy of the input; or the caller's input, spent
            if in_place || inv.id == MemId::InputCopy || input_spent {
                Some(inv)
            } else {
                None
            }
        } else if out_usable || self.passes.len() == 1 {
            Some(outv)
        } else {
            None
        }
    }

    /// The loops' first-dimension indices per run when the work buffer for `lens` would pass
    /// `WORK_BYTES`; None when they run at once.
    fn work_chunk(&self, lens: &[usize]) -> Option<usize> {
        let per0 = lens[1..].iter().product::<usize>().max(1);
        let cap = (WORK_BYTES / (2 * std::mem::size_of::<T>())).max(per0);
        if self.nloops > 0 && lens[0] * per0 > cap && lens[0] > 1 {
            Some(cap / per0)
        } else {
            None
        }
    }

    /// The work buffer as the intermediate view of the transforms of `lens`, grown to hold
    /// them.
    fn work_view(&self, lens: &[usize], work: &mut Work<T>) -> Result<View<'_, T>> {
        let len: usize = lens.iter().product();
        if work.buf.len() < len {
            work.buf.clear();
            work.buf
                .try_reserve_exact(len)
                .map_err(|_| Error::out_of_host_memory("out of host memory for the work buffer"))?;
            work.buf.resize(len, Complex::new(T::zero(), T::zero()));
        }
        let p = work.buf.as_mut_ptr();
        let mem = if self.kind.output_is_complex() || self.kind == Kind::C2r {
            Mem::C(p)
        } else {
            Mem::R(p as *mut T)
        };
        Ok(View {
            mem,
            base: 0,
            s: &self.work_s,
            id: MemId::Work,
        })
    }

    /// Runs the loops' first dimension a chunk of `chunk` indices at a time.
    #[allow(clippy::too_many_arguments)]
    unsafe fn run_chunked(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        overlap: Overlap,
        lens: &[usize],
        base: (isize, isize),
        chunk: usize,
        work: &mut Work<T>,
    ) -> Result<()> {
        let mut sub = lens.to_vec();
        let mut i0 = 0;
        while i0 < lens[0] {
            sub[0] = chunk.min(lens[0] - i0);
            let b = (
                base.0 + i0 as isize * self.ins.s[0],
                base.1 + i0 as isize * self.outs.s[0],
            );
            self.run(input, output, overlap, &sub, b, work)?;
            i0 += sub[0];
        }
        Ok(())
    }

    /// In place with FFTW's layouts: can the passes run on the caller's memory?
    fn in_place_usable(&self, input: ArrayPtr, output: ArrayPtr) -> bool {
        let interleaved = |a: ArrayPtr, sd: &SideDims| match a {
            ArrayPtr::Complex { re, im } => im == re + std::mem::size_of::<T>() && sd.s2.is_some(),
            ArrayPtr::Real(_) => true,
        };
        match self.kind {
            // rows of another layout on each side: interleaved, and rows apart
            Kind::R2c | Kind::C2r => {
                self.in_place_ok
                    && interleaved(input, &self.ins)
                    && interleaved(output, &self.outs)
                    && (self.passes.len() == 1 || self.out_usable_as(output))
            }
            _ => self.passes.len() == 1 || self.out_usable_as(output),
        }
    }

    fn out_usable_as(&self, output: ArrayPtr) -> bool {
        match output {
            ArrayPtr::Real(_) => self.out_injective[0],
            ArrayPtr::Complex { re, im } => {
                if im == re + std::mem::size_of::<T>() && self.outs.s2.is_some() {
                    self.out_injective[1]
                } else {
                    self.out_injective[0] && self.split_parts_apart(re as *mut T, im as *mut T)
                }
            }
        }
    }

    /// The real and imaginary arrays of a split output do not overlap.
    fn split_parts_apart(&self, re: *mut T, im: *mut T) -> bool {
        let (lo, hi) = self.extents[1];
        let u = std::mem::size_of::<T>() as isize;
        let (re, im) = (re as isize, im as isize);
        let (r0, r1) = (re + lo * u, re + (hi - 1) * u);
        let (i0, i1) = (im + lo * u, im + (hi - 1) * u);
        r1 < i0 || i1 < r0
    }

    fn view<'a>(&self, a: ArrayPtr, sd: &'a SideDims, base: isize, id: MemId) -> View<'a, T> {
        match a {
            ArrayPtr::Real(p) => View {
                mem: Mem::R(p as *mut T),
                base,
                s: &sd.s,
                id,
            },
            ArrayPtr::Complex { re, im } => match &sd.s2 {
                Some(s2) if im == re + std::mem::size_of::<T>() && base % 2 == 0 => View {
                    mem: Mem::C(re as *mut Complex<T>),
                    base: base / 2,
                    s: s2,
                    id,
                },
                _ => View {
                    mem: Mem::S(re as *mut T, im as *mut T),
                    base,
                    s: &sd.s,
                    id,
                },
            },
        }
    }

    fn copy_view(&self, work: &mut Work<T>) -> View<'_, T> {
        let p = work.copy.as_mut_ptr();
        View {
            mem: if self.kind.input_is_complex() {
                Mem::C(p)
            } else {
                Mem::R(p as *mut T)
            },
            base: 0,
            s: &self.copy_s,
            id: MemId::InputCopy,
        }
    }

    /// Copies the input of the transforms of `lens` into `work.copy`, contiguous.
    unsafe fn copy_input(
        &self,
        input: ArrayPtr,
        lens: &[usize],
        base: isize,
        work: &mut Work<T>,
    ) -> Result<()> {
        let mut in_lens = self.in_lens.clone();
        in_lens[..self.nloops].copy_from_slice(&lens[..self.nloops]);
        let count: usize = in_lens.iter().product();
        let complex = self.kind.input_is_complex();
        let len = if complex { count } else { count.div_ceil(2) };
        if work.copy.len() < len {
            work.copy.clear();
            work.copy.try_reserve_exact(len).map_err(|_| {
                Error::out_of_host_memory("out of host memory for a copy of the input")
            })?;
            work.copy.resize(len, Complex::new(T::zero(), T::zero()));
        }
        let dims: Vec<Strided> = in_lens
            .iter()
            .zip(&self.ins.s)
            .map(|(&n, &s)| Strided { n, s })
            .collect();
        match input {
            ArrayPtr::Complex { re, im } => {
                layout::gather_complex(
                    re as *const T,
                    im as *const T,
                    base,
                    &dims,
                    &mut work.copy[..count],
                );
            }
            ArrayPtr::Real(p) => {
                let dst = std::slice::from_raw_parts_mut(work.copy.as_mut_ptr() as *mut T, count);
                layout::gather_real(p as *const T, base, &dims, dst);
            }
        }
        Ok(())
    }

    /// A rank-0 transform (a copy, real to complex or complex to real for r2c/c2r) of the
    /// transforms `first..`: all read, then all written.
    unsafe fn copy_rank0(&self, input: ArrayPtr, output: ArrayPtr, first: usize) -> Result<()> {
        let count = self.howmany - first;
        let oom = || Error::out_of_host_memory("out of host memory for the work buffers");
        let mut buf: Vec<Complex<T>> = Vec::new();
        buf.try_reserve_exact(count).map_err(|_| oom())?;
        for i in first..self.howmany {
            let (io, _) = layout::instance_offsets(&self.problem.loops, i);
            buf.push(match input {
                ArrayPtr::Complex { re, im } => {
                    Complex::new(*(re as *const T).offset(io), *(im as *const T).offset(io))
                }
                ArrayPtr::Real(p) => Complex::new(*(p as *const T).offset(io), T::zero()),
            });
        }
        for (i, v) in (first..self.howmany).zip(buf) {
            let (_, oo) = layout::instance_offsets(&self.problem.loops, i);
            match output {
                ArrayPtr::Complex { re, im } => {
                    *(re as *mut T).offset(oo) = v.re;
                    *(im as *mut T).offset(oo) = v.im;
                }
                ArrayPtr::Real(p) => *(p as *mut T).offset(oo) = v.re,
            }
        }
        Ok(())
    }

    /// One pass over the whole array, its blocks shared among threads.
    unsafe fn run_pass(&self, k: usize, ctx: &Ctx<'_, T>, scratch: SharedMut<Scratch<T>>) {
        let p = &self.passes[k];
        let (src, dst) = (ctx.views[p.src as usize], ctx.views[p.dst as usize]);
        let source = ctx.source(p.src, p.dst);
        let njobs = jobs_of(&p.full, ctx.lens);
        // SAFETY: jobs are disjoint blocks of pencils.
        let job = |j: usize, sc: &mut Scratch<T>| unsafe {
            self.run_job(
                p, &p.full, j, src, src.base, dst, dst.base, ctx.lens, source, sc,
            )
        };
        run_chunks(self.pass_threads[k], njobs, scratch, &job);
    }

    /// Passes `k` and `k + 1`, slab by slab.
    unsafe fn run_fused(&self, k: usize, ctx: &Ctx<'_, T>, scratch: SharedMut<Scratch<T>>) {
        let (p, q) = (&self.passes[k], &self.passes[k + 1]);
        let nslabs: usize = self.slab_dims.iter().map(|&d| ctx.lens[d]).product();
        let (source_p, source_q) = (ctx.source(p.src, p.dst), ctx.source(q.src, q.dst));
        let slab = |j: usize, sc: &mut Scratch<T>| {
            let mut offs = [0isize; 3];
            let mut rest = j;
            for &d in self.slab_dims.iter().rev() {
                let i = (rest % ctx.lens[d]) as isize;
                rest /= ctx.lens[d];
                for (o, v) in offs.iter_mut().zip(&ctx.views) {
                    *o += i * v.s[d];
                }
            }
            let at = |side: Side| {
                let v = ctx.views[side as usize];
                (v, v.base + offs[side as usize])
            };
            // SAFETY: slabs are disjoint; within one, the passes run in order.
            unsafe {
                let ((s, so), (d, dof)) = (at(p.src), at(p.dst));
                for jb in 0..jobs_of(&p.slab, ctx.lens) {
                    self.run_job(p, &p.slab, jb, s, so, d, dof, ctx.lens, source_p, sc);
                }
                let ((s, so), (d, dof)) = (at(q.src), at(q.dst));
                for jb in 0..jobs_of(&q.slab, ctx.lens) {
                    self.run_job(q, &q.slab, jb, s, so, d, dof, ctx.lens, source_q, sc);
                }
            }
        };
        run_chunks(self.pass_threads[k], nslabs, scratch, &slab);
    }

    /// Job `j` of a walk: one block of pencils, from views at offsets `so`/`dof`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn run_job(
        &self,
        p: &Pass<T>,
        walk: &Walk,
        j: usize,
        src: View<'_, T>,
        so: isize,
        dst: View<'_, T>,
        dof: isize,
        lens: &[usize],
        source: Source,
        sc: &mut Scratch<T>,
    ) {
        let (n_src, n_dst) = p.op.lens();
        let (mut so, mut dof) = (so, dof);
        let (count, sb, db) = match walk.bd {
            Some(bd) => {
                let chunks = lens[bd].div_ceil(walk.b);
                let (mut rest, c) = (j / chunks, j % chunks);
                for &d in walk.outer.iter().rev() {
                    let i = (rest % lens[d]) as isize;
                    rest /= lens[d];
                    so += i * src.s[d];
                    dof += i * dst.s[d];
                }
                let first = c * walk.b;
                so += first as isize * src.s[bd];
                dof += first as isize * dst.s[bd];
                (walk.b.min(lens[bd] - first), src.s[bd], dst.s[bd])
            }
            None => (1, 0, 0),
        };
        let b = Block {
            n_src,
            n_dst,
            s: src.s[p.axis],
            d: dst.s[p.axis],
            count,
            sb,
            db,
        };
        pencil::run_block(&p.op, src.mem, so, dst.mem, dof, &b, source, sc);
    }

    /// r2c: the imaginary parts FFTW makes exactly +0.
    unsafe fn fix_self_conjugate(&self, output: ArrayPtr, lens: &[usize], base: isize) {
        if self.self_conjugate.is_empty() {
            return;
        }
        let ArrayPtr::Complex { im, .. } = output else {
            return;
        };
        let im = im as *mut T;
        let count: usize = lens[..self.nloops].iter().product();
        for i in 0..count {
            let mut rest = i;
            let mut off = base;
            for d in (0..self.nloops).rev() {
                off += (rest % lens[d]) as isize * self.outs.s[d];
                rest /= lens[d];
            }
            for &k in &self.self_conjugate {
                *im.offset(off + k) = T::zero();
            }
        }
    }
}

/// The lengths of the loops, then of the dims `shape`, the last halved to n/2+1 if `halve`.
fn with_loops(p: &Problem, shape: &[usize], halve: bool) -> Vec<usize> {
    let mut s = shape.to_vec();
    if halve {
        if let Some(l) = s.last_mut() {
            *l = *l / 2 + 1;
        }
    }
    p.loops.iter().map(|d| d.n as usize).chain(s).collect()
}

/// The first pass of the fused pair `fuse`, if pass `k` is one of the two.
fn fused_pair(fuse: Option<usize>, k: usize) -> Option<usize> {
    fuse.filter(|&f| k == f || k == f + 1)
}

/// r2c: scalar offsets, from a transform's output (of `out_shape`, strides `os`), of the bins
/// FFTW makes exactly +0 imaginary; empty where the rows already are, and for other kinds.
fn self_conjugate_offsets(
    kind: &Kind,
    howmany: usize,
    shape: &[usize],
    out_shape: &[usize],
    os: &[isize],
) -> Vec<isize> {
    let rank = shape.len();
    if *kind != Kind::R2c || howmany == 0 || rank == 0 {
        return Vec::new();
    }
    let even_rows = rank == 1 && shape[0].is_multiple_of(2);
    if even_rows {
        return Vec::new(); // the r2c rows write exact +0 at DC and Nyquist
    }
    crate::problem::self_conjugate_bins(shape)
        .into_iter()
        .map(|bin| {
            let mut rest = bin;
            let mut off = 0isize;
            for d in (0..rank).rev() {
                off += (rest % out_shape[d]) as isize * os[d];
                rest /= out_shape[d];
            }
            off
        })
        .collect()
}

/// In place (same locations), may passes run block by block: r2c/c2r rows, of one layout on
/// one side and another on the other, overlap no other rows? (True for other kinds.)
fn rows_apart(
    kind: &Kind,
    howmany: usize,
    shape: &[usize],
    lens: &[usize],
    ins: &SideDims,
    outs: &SideDims,
) -> bool {
    let rank = shape.len();
    match kind {
        Kind::R2c | Kind::C2r if howmany > 0 && rank > 0 => {
            let l = lens.len() - 1; // the rows' dim (loops first)
            let (n_real, n_cplx) = (shape[rank - 1], shape[rank - 1] / 2 + 1);
            let (rs, cs) = if *kind == Kind::R2c {
                (ins.s[l], outs.s[l])
            } else {
                (outs.s[l], ins.s[l])
            };
            let (r0, r1) = span(n_real, rs, 1);
            let (c0, c1) = span(n_cplx, cs, 2);
            let rest: Vec<(usize, isize)> = (0..l).map(|d| (lens[d], ins.s[d])).collect();
            disjoint(&rest, r0.min(c0), r1.max(c1))
        }
        _ => true,
    }
}

/// Runs `job(j, scratch)` for `j` in `0..njobs` on up to `threads` workers, each taking
/// contiguous chunks of the jobs (`parallel::for_each_chunk`) with its own scratch (worker `w`:
/// `scratch[w]`). One worker runs on the calling thread directly (small transforms: the pool's
/// entry costs as much as their FFT).
fn run_chunks<T: Real>(
    threads: usize,
    njobs: usize,
    scratch: SharedMut<Scratch<T>>,
    job: &(dyn Fn(usize, &mut Scratch<T>) + Sync),
) {
    let workers = threads.min(njobs);
    if workers <= 1 {
        // SAFETY: one worker, scratch 0.
        let sc = unsafe { &mut *scratch.0 };
        (0..njobs).for_each(|j| job(j, sc));
        return;
    }
    for_each_chunk(workers, njobs, &|w, chunk| {
        #[allow(clippy::redundant_locals)] // capture the Sync wrapper, not its pointer
        let scratch = scratch;
        // SAFETY: worker w alone uses scratch w.
        let sc = unsafe { &mut *scratch.0.add(w) };
        chunk.for_each(|j| job(j, sc));
    });
}

/// Row-major strides of an array of `lens`.
fn contiguous(lens: &[usize]) -> Vec<isize> {
    let mut s = vec![0isize; lens.len()];
    let mut acc = 1isize;
    for d in (0..lens.len()).rev() {
        s[d] = acc;
        acc *= lens[d].max(1) as isize;
    }
    s
}

/// Blocks along the dim of smallest destination stride, the others enumerated.
fn walk(free: &[usize], lens: &[usize], ss: &[isize], ds: &[isize], b: usize) -> Walk {
    let bd = free
        .iter()
        .copied()
        .filter(|&d| lens[d] > 1)
        .min_by_key(|&d| (ds[d].unsigned_abs(), ss[d].unsigned_abs()))
        .or(free.last().copied());
    let outer = free.iter().copied().filter(|&d| Some(d) != bd).collect();
    Walk { bd, b, outer }
}

fn jobs_of(w: &Walk, lens: &[usize]) -> usize {
    match w.bd {
        Some(bd) => w.outer.iter().map(|&d| lens[d]).product::<usize>() * lens[bd].div_ceil(w.b),
        None => 1,
    }
}

/// Offsets (lo, hi), in scalars, that `n` elements of `width` scalars, `s` apart, cover.
fn span(n: usize, s: isize, width: isize) -> (isize, isize) {
    let far = (n as isize - 1).max(0) * s;
    (far.min(0), far.max(0) + width - 1)
}

/// Do the copies of the footprint `[lo, hi]` placed by `dims` (length, stride) never overlap?
fn disjoint(dims: &[(usize, isize)], lo: isize, hi: isize) -> bool {
    footprints_apart(dims.iter().map(|&(n, s)| (n as isize, s)), hi - lo + 1)
}

#[cfg(test)]
mod tests {
    //! The executor's passes (pencil blocks, fused slabs, half-length real FFTs, threads, in
    //! place, strided and split arrays) against a direct DFT of random inputs.
    use super::*;
    use crate::problem::{IoDim, Precision};

    type C = Complex<f64>;

    /// Deterministic uniform numbers in [-1, 1).
    pub(super) struct Lcg(pub(super) u64);
    impl Lcg {
        pub(super) fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    /// The unnormalized multi-dimensional DFT of a row-major array of `shape`, computed
    /// directly along each axis in turn (O(N sum n), exact twiddles from f64 sin/cos).
    fn direct_dft(x: &[C], shape: &[usize], sign: f64) -> Vec<C> {
        let mut a = x.to_vec();
        let mut inner = 1;
        for &n in shape.iter().rev() {
            let outer = a.len() / (n * inner);
            let mut b = vec![C::new(0.0, 0.0); a.len()];
            for o in 0..outer {
                for i in 0..inner {
                    let at = |k: usize| o * n * inner + k * inner + i;
                    for k in 0..n {
                        let mut acc = C::new(0.0, 0.0);
                        for j in 0..n {
                            let ang =
                                sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                            acc += a[at(j)] * C::new(ang.cos(), ang.sin());
                        }
                        b[at(k)] = acc;
                    }
                }
            }
            a = b;
            inner *= n;
        }
        a
    }

    /// The tolerance on max |error| / max |reference|: a few ulps times log2 N.
    fn tolerance<T: Real>(total: usize) -> f64 {
        let eps = if T::PRECISION == Precision::F32 {
            f32::EPSILON as f64
        } else {
            f64::EPSILON
        };
        8.0 * eps * (total.max(2) as f64).log2()
    }

    fn rel_err(got: &[C], want: &[C]) -> f64 {
        let scale = want
            .iter()
            .map(|v| v.norm())
            .fold(0.0, f64::max)
            .max(1e-300);
        let err = got
            .iter()
            .zip(want)
            .map(|(a, b)| (a - b).norm())
            .fold(0.0, f64::max);
        err / scale
    }

    fn row_major(shape: &[usize], unit: isize) -> Vec<isize> {
        contiguous(shape).iter().map(|s| s * unit).collect()
    }

    /// c2c of `shape` (batched `howmany` times, batches outermost), input row-major, output in
    /// the axis order `out_order` (a permutation: the output's dims in memory, outermost
    /// first), interleaved or split, in place or not.
    fn check_c2c<T: Real>(
        shape: &[usize],
        howmany: usize,
        sign: i32,
        out_order: &[usize],
        split: bool,
        in_place: bool,
        threads: usize,
    ) {
        let total: usize = shape.iter().product();
        let mut rng = Lcg(total as u64 * 31 + howmany as u64);
        let x: Vec<C> = (0..total * howmany)
            .map(|_| C::new(rng.next(), rng.next()))
            .collect();
        // Scalar strides: interleaved complex counts 2 scalars per element; split arrays 1.
        let unit = if split { 1 } else { 2 };
        let in_s = row_major(shape, unit);
        let permuted: Vec<usize> = out_order.iter().map(|&d| shape[d]).collect();
        let perm_s = row_major(&permuted, unit);
        let mut out_s = vec![0isize; shape.len()];
        for (k, &d) in out_order.iter().enumerate() {
            out_s[d] = perm_s[k];
        }
        let batch = (total as isize) * unit;
        let p = Problem {
            kind: Kind::Dft { sign },
            dims: (0..shape.len())
                .map(|d| IoDim::new(shape[d] as isize, in_s[d], out_s[d]))
                .collect(),
            loops: if howmany > 1 {
                vec![IoDim::new(howmany as isize, batch, batch)]
            } else {
                vec![]
            },
            precision: T::PRECISION,
            in_place,
        };
        let t = CpuTransform::<T>::new(&p, threads);
        let n_all = total * howmany;
        // Two scalars per element in either layout: interleaved pairs, or re then im halves.
        let mut input: Vec<T> = vec![T::zero(); 2 * n_all];
        for (i, v) in x.iter().enumerate() {
            let (r, im) = if split {
                (i, n_all + i)
            } else {
                (2 * i, 2 * i + 1)
            };
            input[r] = T::cast(v.re);
            input[im] = T::cast(v.im);
        }
        let mut separate: Vec<T> = vec![T::zero(); 2 * n_all];
        let ptr = |v: &mut Vec<T>| {
            let base = v.as_mut_ptr() as usize;
            let u = std::mem::size_of::<T>();
            if split {
                ArrayPtr::Complex {
                    re: base,
                    im: base + n_all * u,
                }
            } else {
                ArrayPtr::Complex {
                    re: base,
                    im: base + u,
                }
            }
        };
        let inp = ptr(&mut input);
        let out = if in_place { inp } else { ptr(&mut separate) };
        unsafe { t.execute(inp, out).unwrap() };
        let result = if in_place { &input } else { &separate };
        // Read the output back in logical order.
        let mut got = vec![C::new(0.0, 0.0); n_all];
        for bi in 0..howmany {
            for (i, g) in got[bi * total..(bi + 1) * total].iter_mut().enumerate() {
                let mut rest = i;
                let mut off = bi as isize * batch;
                for d in (0..shape.len()).rev() {
                    off += (rest % shape[d]) as isize * out_s[d];
                    rest /= shape[d];
                }
                let off = off as usize;
                let (r, im) = if split {
                    (off, n_all + off)
                } else {
                    (off, off + 1)
                };
                *g = C::new(result[r].to_f64().unwrap(), result[im].to_f64().unwrap());
            }
        }
        let mut want = Vec::with_capacity(n_all);
        for bi in 0..howmany {
            want.extend(direct_dft(
                &x[bi * total..(bi + 1) * total],
                shape,
                sign as f64,
            ));
        }
        let e = rel_err(&got, &want);
        assert!(
            e < tolerance::<T>(total),
            "c2c {shape:?} x{howmany} sign {sign} order {out_order:?} split {split} in place \
             {in_place} threads {threads}: error {e:e}"
        );
    }

    #[test]
    fn c2c_passes_match_the_direct_dft() {
        for threads in [1, 3] {
            // single 1-D transforms (the direct path), with and without FFT scratch
            for n in [16, 64, 1000, 1009] {
                for in_place in [false, true] {
                    check_c2c::<f64>(&[n], 1, -1, &[0], false, in_place, threads);
                    check_c2c::<f32>(&[n], 1, 1, &[0], false, in_place, threads);
                }
            }
            check_c2c::<f64>(&[12, 10], 1, -1, &[0, 1], false, false, threads);
            check_c2c::<f64>(&[8, 6, 10], 1, 1, &[0, 1, 2], false, true, threads);
            check_c2c::<f32>(&[16, 16, 16], 1, -1, &[0, 1, 2], false, false, threads);
            // the output transposed, split arrays, batches
            check_c2c::<f64>(&[9, 16], 3, -1, &[1, 0], false, false, threads);
            check_c2c::<f64>(&[5, 7, 8], 2, 1, &[2, 0, 1], true, false, threads);
            check_c2c::<f32>(&[32, 17], 1, -1, &[0, 1], true, true, threads);
            check_c2c::<f64>(&[64, 64], 1, -1, &[0, 1], false, true, threads);
            // large enough for several threads, fused slabs and gathered blocks
            check_c2c::<f32>(&[64, 48, 32], 1, -1, &[0, 1, 2], false, false, threads);
            check_c2c::<f64>(&[40, 36, 30], 1, 1, &[2, 1, 0], false, false, threads);
            check_c2c::<f64>(&[256, 200], 1, -1, &[0, 1], false, true, threads);
        }
    }

    /// In place, `howmany` interleaved 1-D c2c of `n` (element stride `howmany`, loop stride
    /// 1, as a column FFT of a row-major array), against the direct DFT: the passes run on the
    /// caller's array (no copy of the input first), and the result is still right.
    fn check_interleaved_in_place<T: Real>(n: usize, howmany: usize, threads: usize) {
        let mut rng = Lcg((n * howmany) as u64);
        let x: Vec<C> = (0..n * howmany)
            .map(|_| C::new(rng.next(), rng.next()))
            .collect();
        let p = Problem {
            kind: Kind::Dft { sign: 1 },
            dims: vec![IoDim::new(
                n as isize,
                2 * howmany as isize,
                2 * howmany as isize,
            )],
            loops: vec![IoDim::new(howmany as isize, 2, 2)],
            precision: T::PRECISION,
            in_place: true,
        };
        let t = CpuTransform::<T>::new(&p, threads);
        assert!(
            t.in_place_piecewise,
            "interleaved batches should run in place"
        );
        let mut data: Vec<T> = x
            .iter()
            .flat_map(|v| [T::cast(v.re), T::cast(v.im)])
            .collect();
        let a = ArrayPtr::Complex {
            re: data.as_mut_ptr() as usize,
            im: data.as_mut_ptr() as usize + std::mem::size_of::<T>(),
        };
        unsafe { t.execute(a, a).unwrap() };
        let mut got = Vec::with_capacity(n * howmany);
        let mut want = Vec::with_capacity(n * howmany);
        for c in 0..howmany {
            let column: Vec<C> = (0..n).map(|i| x[i * howmany + c]).collect();
            want.extend(direct_dft(&column, &[n], 1.0));
            got.extend((0..n).map(|i| {
                let o = 2 * (i * howmany + c);
                C::new(data[o].to_f64().unwrap(), data[o + 1].to_f64().unwrap())
            }));
        }
        let e = rel_err(&got, &want);
        assert!(
            e < tolerance::<T>(n),
            "interleaved in place {n} x{howmany} threads {threads}: error {e:e}"
        );
    }

    #[test]
    fn interleaved_batches_run_in_place() {
        for threads in [1, 3] {
            check_interleaved_in_place::<f64>(128, 100, threads);
            check_interleaved_in_place::<f32>(60, 33, threads);
            check_interleaved_in_place::<f64>(16, 7, threads);
        }
    }

    /// r2c and its inverse c2r of `shape`, row-major, out of place (FFTW's layouts) or in place
    /// (real rows padded to 2 (n/2 + 1) scalars): r2c against the direct DFT, c2r of that
    /// spectrum against N times the input.
    // Long because it builds both layouts, runs r2c and c2r and checks each against the direct
    // DFT: the steps share a dozen locals.
    #[allow(clippy::too_many_lines)]
    fn check_real<T: Real>(shape: &[usize], in_place: bool, threads: usize) {
        let rank = shape.len();
        let total: usize = shape.iter().product();
        let last = shape[rank - 1];
        let h = last / 2 + 1;
        let mut cshape = shape.to_vec();
        cshape[rank - 1] = h;
        let ctotal: usize = cshape.iter().product();
        let mut rng = Lcg(total as u64 * 7 + in_place as u64);
        let x: Vec<f64> = (0..total).map(|_| rng.next()).collect();
        // Real strides: row-major over `shape`, or over the padded rows in place.
        let mut rshape = shape.to_vec();
        if in_place {
            rshape[rank - 1] = 2 * h;
        }
        let rs = row_major(&rshape, 1);
        let cs = row_major(&cshape, 2);
        let dims = |real_in: bool| -> Vec<IoDim> {
            (0..rank)
                .map(|d| {
                    let (i, o) = if real_in {
                        (rs[d], cs[d])
                    } else {
                        (cs[d], rs[d])
                    };
                    IoDim::new(shape[d] as isize, i, o)
                })
                .collect()
        };
        let problem = |kind, real_in| Problem {
            kind,
            dims: dims(real_in),
            loops: vec![],
            precision: T::PRECISION,
            in_place,
        };
        let r2c = CpuTransform::<T>::new(&problem(Kind::R2c, true), threads);
        let c2r = CpuTransform::<T>::new(&problem(Kind::C2r, false), threads);
        let real_len: usize = rshape.iter().product();
        let real_at = |i: usize| -> usize {
            let mut rest = i;
            let mut off = 0isize;
            for d in (0..rank).rev() {
                off += (rest % shape[d]) as isize * rs[d];
                rest /= shape[d];
            }
            off as usize
        };
        let mut real: Vec<T> = vec![T::zero(); real_len.max(2 * ctotal)];
        for (i, &v) in x.iter().enumerate() {
            real[real_at(i)] = T::cast(v);
        }
        let mut spec: Vec<T> = vec![T::zero(); 2 * ctotal];
        let u = std::mem::size_of::<T>();
        let rp = ArrayPtr::Real(real.as_mut_ptr() as usize);
        let cbase = if in_place {
            real.as_mut_ptr() as usize
        } else {
            spec.as_mut_ptr() as usize
        };
        let cp = ArrayPtr::Complex {
            re: cbase,
            im: cbase + u,
        };
        unsafe { r2c.execute(rp, cp).unwrap() };
        let cview: &[T] = if in_place { &real } else { &spec };
        let got: Vec<C> = (0..ctotal)
            .map(|i| {
                C::new(
                    cview[2 * i].to_f64().unwrap(),
                    cview[2 * i + 1].to_f64().unwrap(),
                )
            })
            .collect();
        let full = direct_dft(
            &x.iter().map(|&v| C::new(v, 0.0)).collect::<Vec<_>>(),
            shape,
            -1.0,
        );
        let want: Vec<C> = (0..ctotal).map(|i| full[(i / h) * last + i % h]).collect();
        let e = rel_err(&got, &want);
        let tol = tolerance::<T>(total);
        assert!(
            e < tol,
            "r2c {shape:?} in place {in_place} threads {threads}: error {e:e}"
        );
        // FFTW's exact +0 imaginary parts at the self-conjugate bins.
        for bin in crate::problem::self_conjugate_bins(shape) {
            assert_eq!(got[bin].im, 0.0, "r2c {shape:?}: bin {bin} not real");
        }

        // c2r of the computed spectrum: N x, the spectrum (in place: the same array) is input.
        let mut back: Vec<T> = vec![T::zero(); real_len];
        let out = if in_place {
            rp
        } else {
            ArrayPtr::Real(back.as_mut_ptr() as usize)
        };
        unsafe { c2r.execute(cp, out).unwrap() };
        let rview: &[T] = if in_place { &real } else { &back };
        let got: Vec<C> = (0..total)
            .map(|i| C::new(rview[real_at(i)].to_f64().unwrap(), 0.0))
            .collect();
        let want: Vec<C> = x.iter().map(|&v| C::new(v * total as f64, 0.0)).collect();
        let e = rel_err(&got, &want);
        assert!(
            e < tol,
            "c2r {shape:?} in place {in_place} threads {threads}: error {e:e}"
        );
    }

    #[test]
    fn r2c_and_c2r_passes_match_the_direct_dft() {
        for threads in [1, 2] {
            for in_place in [false, true] {
                check_real::<f64>(&[64], in_place, threads);
                check_real::<f64>(&[45], in_place, threads);
                check_real::<f64>(&[6, 10], in_place, threads);
                check_real::<f64>(&[7, 9], in_place, threads);
                check_real::<f32>(&[32, 32], in_place, threads);
                check_real::<f64>(&[4, 6, 8], in_place, threads);
                check_real::<f64>(&[5, 3, 7], in_place, threads);
                check_real::<f32>(&[16, 12, 18], in_place, threads);
                check_real::<f64>(&[2, 2, 2], in_place, threads);
                check_real::<f32>(&[32, 40, 64], in_place, threads);
                check_real::<f64>(&[30, 36, 45], in_place, threads);
            }
        }
    }
}
