//! The CPU meaning of [`Step::Kernel`](crate::program::Step::Kernel): element-wise maps, and
//! fused chains on one of two engines: the pencil engine (load the live box, zeros elsewhere;
//! transform axis by axis computing only the pencils that can be non-zero and are read later;
//! pointwise programs in the work buffer; store the boxes that are read), or, with
//! `FFTX_CHAIN_ENGINE=pencil`, the chain's pencil program (`program::pencil`) as the GPU runs
//! it, the twin that checks the GPU's index maps in CI.

use super::layout::SharedMut;
use crate::error::Error;
use crate::exec::parallel::parallel_for;
use crate::problem::{Kind, Kind1d};
use crate::program::fftgen::Stockham;
use crate::program::kernel::{passes, shape_of, Access, Chain, Code, Kernel, Segment, Stage};
use crate::program::pencil::{fused_shape, Fused, Mid, Pass, PencilProgram, Side, BUFFERS};
use crate::real::Real;
use num_complex::Complex;
use realfft::{ComplexToReal, RealToComplex};
use rustfft::{Fft, FftDirection};
use std::ops::Range;
use std::sync::Arc;

type Cx<T> = Complex<T>;

/// A kernel made ready to run: its 1-D algorithms planned.
pub(crate) enum CpuKernel<T: Real> {
    Map(Kernel),
    Chain(Box<ChainExec<T>>),
    Pencil(PencilProgram),
}

/// What a kernel keeps between runs: a chain's work buffers (allocated once per plan, so an
/// execute allocates nothing).
pub(crate) struct WorkBuffers<T> {
    rbuf: Vec<T>,
    cbuf: Vec<Cx<T>>,
}

/// `FFTX_CHAIN_ENGINE=pencil`: chains run as pencil programs on the CPU (the GPU's passes, for
/// testing them without a GPU).
fn pencil_engine() -> bool {
    std::env::var("FFTX_CHAIN_ENGINE").is_ok_and(|v| v == "pencil")
}

impl<T: Real> CpuKernel<T> {
    /// Plans the kernel; `threads`: host threads for a chain's passes.
    pub fn new(kernel: &Kernel, threads: usize) -> Result<CpuKernel<T>, Error> {
        Ok(match kernel {
            Kernel::Map { .. } => CpuKernel::Map(kernel.clone()),
            Kernel::Chain(c) if pencil_engine() => {
                let merge = std::env::var("FFTX_PENCIL_MERGE").map_or(true, |v| v != "0");
                CpuKernel::Pencil(crate::program::pencil::lower(c, T::PRECISION, merge)?)
            }
            Kernel::Chain(c) => CpuKernel::Chain(Box::new(ChainExec::new(c, threads))),
        })
    }

    /// The work buffers of one run (kept by the caller between runs).
    pub fn work_buffers(&self) -> Result<WorkBuffers<T>, Error> {
        let (r, c) = match self {
            CpuKernel::Chain(c) => (
                if c.first_real || c.last_real {
                    c.rshape.iter().product()
                } else {
                    0
                },
                c.cshape.iter().product(),
            ),
            _ => (0, 0),
        };
        let mut s = WorkBuffers {
            rbuf: Vec::new(),
            cbuf: Vec::new(),
        };
        let no_memory = |_| {
            Error::out_of_host_memory(format!(
                "no memory for a chain's work buffers of {c} elements"
            ))
        };
        s.rbuf.try_reserve_exact(r).map_err(no_memory)?;
        s.cbuf.try_reserve_exact(c).map_err(no_memory)?;
        s.rbuf.resize(r, T::zero());
        s.cbuf.resize(c, Cx::default());
        Ok(s)
    }

    /// Runs the kernel on the Program's buffers, `addrs[b]` the address of buffer `b`.
    ///
    /// # Safety
    /// The buffers must hold every element the kernel addresses, as `T`s.
    pub unsafe fn run(&self, addrs: &[usize], w: &mut WorkBuffers<T>) {
        match self {
            CpuKernel::Map(Kernel::Map {
                shape,
                src,
                dst,
                data,
                code,
            }) => map::<T>(shape, (src, dst, data.as_ref()), code.as_deref(), addrs),
            CpuKernel::Map(Kernel::Chain(_)) => unreachable!("made from a map"),
            CpuKernel::Chain(c) => c.run(addrs, w),
            CpuKernel::Pencil(p) => run_pencil::<T>(p, &|s| addrs[p.buffers[s - BUFFERS]]),
        }
    }
}

/// Calls `f(index)` for every index of the box `ranges` (row-major). Nothing for an empty box.
fn walk_box(ranges: &[Range<usize>], mut f: impl FnMut(&[usize])) {
    if ranges.iter().any(|r| r.is_empty()) {
        return;
    }
    let mut idx: Vec<usize> = ranges.iter().map(|r| r.start).collect();
    loop {
        f(&idx);
        let mut d = ranges.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < ranges[d].end {
                break;
            }
            idx[d] = ranges[d].start;
        }
    }
}

/// Runs a [`Kernel::Map`] on the buffers at `addrs`.
///
/// # Safety
/// The buffers must hold every element the map addresses.
unsafe fn map<T: Real>(
    shape: &[usize],
    (s, d, data): (&Access, &Access, Option<&Access>),
    code: Option<&Code>,
    addrs: &[usize],
) {
    let mut regs = Vec::new();
    let (sa, sc) = (&addrs[s.buf.buf], &s.buf.complex);
    let (da, dc) = (&addrs[d.buf.buf], &d.buf.complex);
    let r = shape.len();
    let mut idx = vec![0usize; r];
    if shape.contains(&0) {
        return;
    }
    let (mut ps, mut pd) = (s.base, d.base);
    let mut pdata = data.map_or(0, |x| x.base);
    loop {
        let x: Cx<T> = read(*sa, *sc, ps);
        let y = match code {
            None => x,
            Some(p) => {
                let g = data.map_or(Cx::default(), |a| {
                    read(addrs[a.buf.buf], a.buf.complex, pdata)
                });
                p.run(x, g, &mut regs)
            }
        };
        write(*da, *dc, pd, y);
        let mut k = r;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            ps += s.strides[k];
            pd += d.strides[k];
            if let Some(a) = data {
                pdata += a.strides[k];
            }
            if idx[k] < shape[k] {
                break;
            }
            let back = shape[k] as isize;
            ps -= s.strides[k] * back;
            pd -= d.strides[k] * back;
            if let Some(a) = data {
                pdata -= a.strides[k] * back;
            }
            idx[k] = 0;
        }
    }
}

/// Row-major linear index of `idx` in `shape`.
fn linear(shape: &[usize], idx: &[usize]) -> usize {
    idx.iter().zip(shape).fold(0, |acc, (&i, &n)| acc * n + i)
}

fn strides_of(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

fn clip(seg: &Segment, live: &[Range<usize>]) -> Vec<Range<usize>> {
    seg.origin
        .iter()
        .zip(&seg.extent)
        .zip(live)
        .map(|((&o, &e), l)| o.max(l.start)..(o + e).min(l.end))
        .collect()
}

/// One stage of a chain, with its 1-D algorithms.
enum StageExec<T> {
    Fft(FftStage<T>),
    Pointwise {
        prog: Arc<Code>,
        data: Option<Access>,
    },
}

/// An FFT stage: its passes (axis, box of pencils), live boxes and 1-D algorithms.
struct FftStage<T> {
    passes: Vec<(usize, Vec<Range<usize>>)>,
    in_live: Vec<Range<usize>>,
    out_live: Vec<Range<usize>>,
    c2c: Vec<Arc<dyn Fft<T>>>,
    r2c: Option<Arc<dyn RealToComplex<T>>>,
    c2r: Option<Arc<dyn ComplexToReal<T>>>,
}

/// A fused chain on the pencil engine, in precision `T`.
pub(crate) struct ChainExec<T> {
    rshape: Vec<usize>,
    cshape: Vec<usize>,
    loads: Vec<Segment>,
    stores: Vec<Segment>,
    stages: Vec<StageExec<T>>,
    /// Input box of the first stage, output box of the last.
    first_in: Vec<Range<usize>>,
    last_out: Vec<Range<usize>>,
    first_real: bool,
    last_real: bool,
    /// Host threads for the passes (fftw_plan_with_nthreads).
    threads: usize,
}

impl<T: Real> ChainExec<T> {
    fn new(chain: &Chain, threads: usize) -> ChainExec<T> {
        let rank = chain.n.len();
        let planners = T::planners();
        let stage = |s: &Stage| match s {
            Stage::Fft {
                kind,
                in_live,
                out_live,
            } => {
                let dir = match kind.sign() {
                    Some(sign) if sign < 0 => FftDirection::Forward,
                    _ => FftDirection::Inverse,
                };
                let c2c_axes = if matches!(kind, Kind::Dft { .. }) {
                    rank
                } else {
                    rank - 1
                };
                let c2c = (0..c2c_axes)
                    .map(|a| planners.fft.lock().plan_fft(chain.n[a], dir))
                    .collect();
                let r2c = (*kind == Kind::R2c)
                    .then(|| planners.real.lock().plan_fft_forward(chain.n[rank - 1]));
                let c2r = (*kind == Kind::C2r)
                    .then(|| planners.real.lock().plan_fft_inverse(chain.n[rank - 1]));
                StageExec::Fft(FftStage {
                    passes: passes(kind, &chain.n, in_live, out_live),
                    in_live: in_live.clone(),
                    out_live: out_live.clone(),
                    c2c,
                    r2c,
                    c2r,
                })
            }
            Stage::Pointwise { prog, data } => StageExec::Pointwise {
                prog: prog.clone(),
                data: data.clone(),
            },
        };
        ChainExec {
            rshape: chain.n.clone(),
            cshape: shape_of(&chain.n, !matches!(chain.first_kind(), Kind::Dft { .. })),
            loads: chain.loads.clone(),
            stores: chain.stores.clone(),
            stages: chain.stages.iter().map(stage).collect(),
            first_in: chain.first_in().to_vec(),
            last_out: chain.last_out().to_vec(),
            first_real: *chain.first_kind() == Kind::R2c,
            last_real: *chain.last_kind() == Kind::C2r,
            threads,
        }
    }

    /// Runs the chain on the buffers at `addrs` (by BufId) with work buffers `w`.
    ///
    /// # Safety
    /// The buffers must hold every element the chain's loads and stores address.
    unsafe fn run(&self, addrs: &[usize], w: &mut WorkBuffers<T>) {
        // Load: zeros in the live box, then the segments that fall inside it.
        let in_shape = if self.first_real {
            self.rshape.clone()
        } else {
            self.cshape.clone()
        };
        let first_in = self.first_in.clone();
        if self.first_real {
            let buf = &mut w.rbuf;
            walk_box(&first_in, |i| buf[linear(&in_shape, i)] = T::zero());
        } else {
            let buf = &mut w.cbuf;
            walk_box(&first_in, |i| buf[linear(&in_shape, i)] = Cx::default());
        }
        for seg in &self.loads {
            let (addr, complex) = (&addrs[seg.access.buf.buf], &seg.access.buf.complex);
            let r = clip(seg, &first_in);
            let (rbuf, cbuf, real) = (&mut w.rbuf, &mut w.cbuf, self.first_real);
            walk_box(&r, |i| {
                let pos = seg.access.base
                    + i.iter()
                        .zip(&seg.origin)
                        .zip(&seg.access.strides)
                        .map(|((&x, &o), &s)| (x - o) as isize * s)
                        .sum::<isize>();
                let v: Cx<T> = read(*addr, *complex, pos);
                let l = linear(&in_shape, i);
                if real {
                    rbuf[l] = v.re
                } else {
                    cbuf[l] = v
                }
            });
        }
        for s in 0..self.stages.len() {
            self.run_stage(s, addrs, w);
        }
        let out_shape = if self.last_real {
            self.rshape.clone()
        } else {
            self.cshape.clone()
        };
        for seg in &self.stores {
            let (addr, complex) = (&addrs[seg.access.buf.buf], &seg.access.buf.complex);
            let r = clip(seg, &self.last_out);
            walk_box(&r, |i| {
                let pos = seg.access.base
                    + i.iter()
                        .zip(&seg.origin)
                        .zip(&seg.access.strides)
                        .map(|((&x, &o), &s)| (x - o) as isize * s)
                        .sum::<isize>();
                let l = linear(&out_shape, i);
                let v = if self.last_real {
                    Cx::new(w.rbuf[l], T::zero())
                } else {
                    w.cbuf[l]
                };
                write(*addr, *complex, pos, v);
            });
        }
    }

    /// Runs stage `s` on the work buffers.
    ///
    /// # Safety
    /// As [`ChainExec::run`].
    unsafe fn run_stage(&self, s: usize, addrs: &[usize], w: &mut WorkBuffers<T>) {
        let cshape = self.cshape.clone();
        let cstr = strides_of(&cshape);
        match &self.stages[s] {
            StageExec::Pointwise { prog, data } => {
                pointwise(prog, data.as_ref(), &cshape, addrs, &mut w.cbuf)
            }
            StageExec::Fft(stage) => self.run_fft(stage, &cshape, &cstr, w),
        }
    }

    /// Runs an FFT stage's passes on the work buffers, the pencils of each shared among threads.
    ///
    /// # Safety
    /// As [`ChainExec::run`].
    unsafe fn run_fft(
        &self,
        stage: &FftStage<T>,
        cshape: &[usize],
        cstr: &[usize],
        w: &mut WorkBuffers<T>,
    ) {
        let FftStage {
            passes,
            in_live,
            out_live,
            c2c,
            r2c,
            c2r,
        } = stage;
        let rank = cshape.len();
        let last = rank - 1;
        let n_real = self.rshape[last];
        let h = cshape[last];
        let rshape = &self.rshape;
        let (rbuf, cbuf) = (
            SharedMut(w.rbuf.as_mut_ptr()),
            SharedMut(w.cbuf.as_mut_ptr()),
        );
        for (a, ranges) in passes {
            let a = *a;
            let lens: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
            let pencils: usize = lens.iter().product();
            // Threads pay off with enough points per pass (as the FFTW path's estimate).
            let threads = if pencils * cshape[a] >= 1 << 15 {
                self.threads
            } else {
                1
            };
            let job = |range: Range<usize>| {
                #[allow(clippy::redundant_locals)] // the Sync wrappers, not their pointers
                let (rbuf, cbuf) = (rbuf, cbuf);
                let mut lines = Lines {
                    line: Vec::new(),
                    scratch: Vec::new(),
                    row: vec![T::zero(); n_real],
                };
                let mut idx = vec![0usize; rank];
                for p in range {
                    let mut rest = p;
                    for d in (0..rank).rev() {
                        idx[d] = ranges[d].start + rest % lens[d];
                        rest /= lens[d];
                    }
                    let (ins, outs) = (in_live[a].clone(), out_live[a].clone());
                    let cb = linear(cshape, &idx);
                    // SAFETY: each pencil reads and writes only its own line (or row) of
                    // the work buffers; pencils of one pass are distinct.
                    unsafe {
                        match (r2c, c2r) {
                            (Some(fft), _) if a == last => {
                                let rb = rbuf.0.add(linear(rshape, &idx));
                                lines.r2c(&**fft, rb, cbuf.0.add(cb), h, ins, outs)
                            }
                            (_, Some(fft)) if a == last => {
                                let rb = rbuf.0.add(linear(rshape, &idx));
                                lines.c2r(&**fft, cbuf.0.add(cb), rb, h, ins, outs)
                            }
                            _ => lines.c2c(&*c2c[a], cbuf.0.add(cb), cstr[a], cshape[a], ins, outs),
                        }
                    }
                }
            };
            parallel_for(threads, pencils, &job);
        }
    }
}

/// Runs a pointwise program on every element of the work buffer `cbuf` (of `cshape`), with
/// its data (zero without) read from the buffers at `addrs`.
///
/// # Safety
/// The data's buffer must hold every element its access addresses.
unsafe fn pointwise<T: Real>(
    prog: &Code,
    data: Option<&Access>,
    cshape: &[usize],
    addrs: &[usize],
    cbuf: &mut [Cx<T>],
) {
    let mut regs = Vec::new();
    let full: Vec<Range<usize>> = cshape.iter().map(|&n| 0..n).collect();
    let mut l = 0;
    walk_box(&full, |i| {
        let g = match data {
            Some(acc) => read(
                addrs[acc.buf.buf],
                acc.buf.complex,
                acc.base
                    + i.iter()
                        .zip(&acc.strides)
                        .map(|(&x, &s)| x as isize * s)
                        .sum::<isize>(),
            ),
            None => Cx::default(),
        };
        cbuf[l] = prog.run(cbuf[l], g, &mut regs);
        l += 1;
    });
}

/// One thread's lines for the pencils of an FFT pass: a complex line, the FFT's scratch and
/// a real row (of the real length).
struct Lines<T> {
    line: Vec<Cx<T>>,
    scratch: Vec<Cx<T>>,
    row: Vec<T>,
}

impl<T: Real> Lines<T> {
    /// An r2c row: the live part `ins` of the real row at `src` (zeros elsewhere) to its `h`
    /// bins, of which the live part `outs` is stored at `dst`.
    ///
    /// # Safety
    /// `src` and `dst` must address the row's live parts, which no other thread touches.
    #[inline]
    unsafe fn r2c(
        &mut self,
        fft: &dyn RealToComplex<T>,
        src: *const T,
        dst: *mut Cx<T>,
        h: usize,
        ins: Range<usize>,
        outs: Range<usize>,
    ) {
        self.line.resize(h, Cx::default());
        self.scratch.resize(fft.get_scratch_len(), Cx::default());
        self.row.iter_mut().for_each(|x| *x = T::zero());
        for j in ins {
            self.row[j] = *src.add(j);
        }
        fft.process_with_scratch(&mut self.row, &mut self.line, &mut self.scratch)
            .expect("lengths set at plan time");
        for j in outs {
            *dst.add(j) = self.line[j];
        }
    }

    /// A c2r row: the live part `ins` of the `h` bins at `src` (zeros elsewhere) to the real
    /// row, of which the live part `outs` is stored at `dst`.
    ///
    /// # Safety
    /// As [`Lines::r2c`].
    #[inline]
    unsafe fn c2r(
        &mut self,
        fft: &dyn ComplexToReal<T>,
        src: *const Cx<T>,
        dst: *mut T,
        h: usize,
        ins: Range<usize>,
        outs: Range<usize>,
    ) {
        self.line.resize(h, Cx::default());
        self.scratch.resize(fft.get_scratch_len(), Cx::default());
        self.line.iter_mut().for_each(|x| *x = Cx::default());
        for j in ins {
            self.line[j] = *src.add(j);
        }
        // As FFTW: the imaginary parts a real signal's spectrum cannot have are ignored.
        self.line[0].im = T::zero();
        if self.row.len().is_multiple_of(2) {
            self.line[h - 1].im = T::zero();
        }
        fft.process_with_scratch(&mut self.line, &mut self.row, &mut self.scratch)
            .expect("lengths set at plan time");
        for j in outs {
            *dst.add(j) = self.row[j];
        }
    }

    /// A c2c pencil of `n` elements `stride` apart from `base`, in place: the live part `ins`
    /// read (zeros elsewhere), the live part `outs` written.
    ///
    /// # Safety
    /// As [`Lines::r2c`].
    #[inline]
    unsafe fn c2c(
        &mut self,
        fft: &dyn Fft<T>,
        base: *mut Cx<T>,
        stride: usize,
        n: usize,
        ins: Range<usize>,
        outs: Range<usize>,
    ) {
        self.line.resize(n, Cx::default());
        self.scratch
            .resize(fft.get_inplace_scratch_len(), Cx::default());
        self.line.iter_mut().for_each(|x| *x = Cx::default());
        for j in ins {
            self.line[j] = *base.add(j * stride);
        }
        fft.process_with_scratch(&mut self.line, &mut self.scratch);
        for j in outs {
            *base.add(j * stride) = self.line[j];
        }
    }
}

// ------------------------------------------------------------------ the pencil program's twin

/// The middle of a merged pass at element `k` of pencil `b` (the first transform's output
/// `v`): kept or zero, then the fused program, then the second transform's input rules.
///
/// # Safety
/// As [`load_element`].
unsafe fn mid_element<T: Real>(
    p: &Pass,
    m: &Mid,
    b: usize,
    k: usize,
    v: Complex<T>,
    addr: &dyn Fn(usize) -> usize,
    regs: &mut Vec<Complex<T>>,
) -> Complex<T> {
    if !m.keep.contains(&k) {
        return Complex::default();
    }
    let mut v = match &m.fused {
        Some(f) => apply(f, v, &p.index(b, k), addr, regs),
        None => v,
    };
    if m.kind == Kind1d::C2r && (k == 0 || (p.n.is_multiple_of(2) && k == p.n / 2)) {
        v.im = T::zero();
    }
    v
}

/// Element `pos` of a buffer of `T` at `addr` (complex elements for complex buffers).
///
/// # Safety
/// `addr` and `pos` must address a valid element.
#[inline]
pub(crate) unsafe fn read<T: Real>(addr: usize, complex: bool, pos: isize) -> Complex<T> {
    let p = addr as *const T;
    if complex {
        Complex::new(*p.offset(2 * pos), *p.offset(2 * pos + 1))
    } else {
        Complex::new(*p.offset(pos), T::zero())
    }
}

/// # Safety
/// As [`read`].
#[inline]
pub(crate) unsafe fn write<T: Real>(addr: usize, complex: bool, pos: isize, v: Complex<T>) {
    let p = addr as *mut T;
    if complex {
        *p.offset(2 * pos) = v.re;
        *p.offset(2 * pos + 1) = v.im;
    } else {
        *p.offset(pos) = v.re;
    }
}

/// Element `j` of pencil `b` of a pass's virtual input.
///
/// # Safety
/// `addr(slot)` must give valid buffers for every map of the pass.
unsafe fn load_element<T: Real>(
    p: &Pass,
    b: usize,
    j: usize,
    addr: &dyn Fn(usize) -> usize,
    regs: &mut Vec<Complex<T>>,
) -> Complex<T> {
    if !p.live_in.contains(&j) {
        return Complex::default();
    }
    let i = p.index(b, j);
    let mut v = Complex::default();
    match &p.load {
        Side::Inter { slot, map } => {
            if let Some(pos) = map.position(&i) {
                v = read(addr(*slot), true, pos);
            }
        }
        Side::Segments(segs) => {
            for s in segs {
                if let Some(pos) = s.position(&i) {
                    v = read(addr(s.slot), s.complex, pos);
                }
            }
        }
    }
    if let Some(f) = &p.head {
        v = apply(f, v, &i, addr, regs);
    }
    if p.kind == Kind1d::C2r && (j == 0 || (p.n.is_multiple_of(2) && j == p.n / 2)) {
        v.im = T::zero(); // as FFTW: the imaginary parts a real signal's spectrum cannot have are ignored
    }
    if p.kind.real_in() {
        v.im = T::zero();
    }
    v
}

unsafe fn apply<T: Real>(
    f: &Fused,
    v: Complex<T>,
    i: &[usize],
    addr: &dyn Fn(usize) -> usize,
    regs: &mut Vec<Complex<T>>,
) -> Complex<T> {
    let g = match &f.data {
        Some(d) => read(addr(d.slot), d.complex, d.position(i).unwrap_or(d.base)),
        None => Complex::default(),
    };
    f.prog.run(v, g, regs)
}

/// Stores element `k` of pencil `b` of a pass's virtual output.
///
/// # Safety
/// As [`load_element`].
unsafe fn store_element<T: Real>(
    p: &Pass,
    b: usize,
    k: usize,
    v: Complex<T>,
    addr: &dyn Fn(usize) -> usize,
    regs: &mut Vec<Complex<T>>,
) {
    if !p.live_out.contains(&k) {
        return;
    }
    let i = p.index(b, k);
    let v = match &p.tail {
        Some(f) => apply(f, v, &i, addr, regs),
        None => v,
    };
    match &p.store {
        Side::Inter { slot, map } => {
            if let Some(pos) = map.position(&i) {
                write(addr(*slot), true, pos, v);
            }
        }
        Side::Segments(segs) => {
            for s in segs {
                if let Some(pos) = s.position(&i) {
                    write(addr(s.slot), s.complex, pos, v);
                }
            }
        }
    }
}

/// One pencil's transform as the GPU computes it: the fused kernels' Stockham stages where the
/// length has them (a real input as complex, a half spectrum extended by symmetry), rustfft
/// (cuFFT's twin) elsewhere. `line` holds `kind.len_in(n)` values; returns `kind.len_out(n)`.
fn transform<T: Real>(kind: Kind1d, n: usize, line: &mut [Complex<T>]) -> Vec<Complex<T>> {
    use rustfft::FftDirection;
    let sign = match kind {
        Kind1d::Dft { sign } => sign,
        Kind1d::R2c => -1,
        Kind1d::C2r => 1,
    };
    let nout = kind.len_out(n);
    if let Some(shape) = fused_shape(n, T::PRECISION) {
        let full: Vec<Complex<T>> = if kind == Kind1d::C2r {
            (0..n)
                .map(|j| {
                    if j < line.len() {
                        line[j]
                    } else {
                        line[n - j].conj()
                    }
                })
                .collect()
        } else {
            line.to_vec()
        };
        let y = Stockham::new(&shape.radices, sign).run(&full);
        return y[..nout]
            .iter()
            .map(|v| {
                if kind == Kind1d::C2r {
                    Complex::new(v.re, T::zero())
                } else {
                    *v
                }
            })
            .collect();
    }
    let planners = T::planners();
    let mut out = vec![Complex::default(); nout];
    match kind {
        Kind1d::Dft { sign } => {
            let dir = if sign < 0 {
                FftDirection::Forward
            } else {
                FftDirection::Inverse
            };
            out.copy_from_slice(line);
            planners.fft.lock().plan_fft(n, dir).process(&mut out);
        }
        Kind1d::R2c => {
            let mut r: Vec<T> = line.iter().map(|x| x.re).collect();
            planners
                .real
                .lock()
                .plan_fft_forward(n)
                .process(&mut r, &mut out)
                .expect("lengths set by the pass");
        }
        Kind1d::C2r => {
            let mut r = vec![T::zero(); n];
            planners
                .real
                .lock()
                .plan_fft_inverse(n)
                .process(line, &mut r)
                .expect("lengths set by the pass");
            out.iter_mut()
                .zip(&r)
                .for_each(|(o, &x)| *o = Complex::new(x, T::zero()));
        }
    }
    out
}

/// Runs a pencil program on the CPU in precision `T` (the plan's): the twin of the GPU's
/// passes. `addr(slot)` gives every buffer slot's address (`BUFFERS..`); the intermediates are
/// allocated here.
///
/// # Safety
/// The buffers must be valid for every map of the program, and hold `T`s.
unsafe fn run_pencil<T: Real>(prog: &PencilProgram, buffer_addr: &dyn Fn(usize) -> usize) {
    let mut inter = [
        vec![Complex::<T>::default(); prog.inter_len],
        vec![Complex::<T>::default(); prog.inter_len],
    ];
    let inter_addr = [
        inter[0].as_mut_ptr() as usize,
        inter[1].as_mut_ptr() as usize,
    ];
    let addr = |s: usize| {
        if s < BUFFERS {
            inter_addr[s]
        } else {
            buffer_addr(s)
        }
    };
    let mut regs = Vec::new();
    for p in &prog.passes {
        let mut line: Vec<Complex<T>> = vec![Complex::default(); p.len_in()];
        for b in 0..p.batch() {
            for (j, x) in line.iter_mut().enumerate() {
                *x = load_element(p, b, j, &addr, &mut regs);
            }
            let mut out = transform(p.kind, p.n, &mut line);
            if let Some(m) = &p.mid {
                let mut mid: Vec<Complex<T>> = out
                    .iter()
                    .enumerate()
                    .map(|(k, &v)| mid_element(p, m, b, k, v, &addr, &mut regs))
                    .collect();
                mid.truncate(m.kind.len_in(p.n));
                mid.resize(m.kind.len_in(p.n), Complex::default());
                out = transform(m.kind, p.n, &mut mid);
            }
            for (k, &v) in out.iter().enumerate() {
                store_element(p, b, k, v, &addr, &mut regs);
            }
        }
    }
    drop(inter);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_box_visits_each_index_once() {
        let mut v = vec![];
        walk_box(&[1..3, 0..2], |i| v.push(i.to_vec()));
        assert_eq!(v, vec![vec![1, 0], vec![1, 1], vec![2, 0], vec![2, 1]]);
        let mut c = 0;
        walk_box(&[0..0, 0..5], |_| c += 1);
        assert_eq!(c, 0);
    }
}
