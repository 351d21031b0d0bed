//! Lowering and the CPU executor of FFTX plans.
//!
//! Temporaries that survive the passes are allocated once per plan. Plain transform nodes are
//! planned and run by the FFTW path (`planner::plan` -> `Plan::execute`), so a single-node FFTX
//! plan computes exactly what the equivalent FFTW plan computes. Chains run on this module's
//! pencil engine: load the live box (zeros elsewhere), transform axis by axis computing only the
//! pencils that can be non-zero and are read later, apply fused pointwise programs in the work
//! buffer, store the boxes that are read.

use super::decompose::{passes, pencil_count, unpruned_count};
use super::graph::{array, linear, problem_of, Access, Buf, Op, Temp};
use super::passes::{shape_of, Chain, Segment, Stage, Step};
use super::pencil::{read as load, write as store, PencilProgram};
use super::recorder::Program;
use crate::exec::cpu::layout::SharedMut;
use crate::exec::parallel::parallel_for;
use crate::plan::Plan;
use crate::problem::{Kind, Precision};
use crate::real::Real;
use num_complex::Complex;
use realfft::{ComplexToReal, RealToComplex};
use rustfft::{Fft, FftDirection};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

type Cx<T> = Complex<T>;

/// Calls `f(index)` for every index of the box `ranges` (row-major). Nothing for an empty box.
pub fn walk_box(ranges: &[Range<usize>], mut f: impl FnMut(&[usize])) {
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

/// Where each buffer's element 0 is, in bytes.
struct Addrs(HashMap<u64, usize>);

impl Addrs {
    fn of(&self, b: &Buf) -> usize {
        match b {
            Buf::User { addr, .. } => *addr,
            Buf::Temp(t) => self.0[&t.id],
        }
    }
}

/// A step the CPU executor runs itself (everything but a plain transform), in the plan's
/// precision.
trait CpuStep {
    /// Runs the step; returns the number of 1-D transforms it computed.
    ///
    /// # Safety
    /// The arrays the step addresses must be valid.
    unsafe fn run(&mut self) -> u64;
}

/// A copy or standalone pointwise node, addresses resolved; elements of `T`.
struct Elementwise<T> {
    shape: Vec<usize>,
    src: (usize, bool, Access),
    dst: (usize, bool, Access),
    data: Option<(usize, bool, Access)>,
    prog: Option<Arc<Program>>,
    _real: std::marker::PhantomData<T>,
}

impl<T: Real> CpuStep for Elementwise<T> {
    unsafe fn run(&mut self) -> u64 {
        let mut regs = Vec::new();
        let (sa, sc, s) = &self.src;
        let (da, dc, d) = &self.dst;
        let shape = &self.shape;
        let r = shape.len();
        let mut idx = vec![0usize; r];
        if shape.contains(&0) {
            return 0;
        }
        let (mut ps, mut pd) = (s.base, d.base);
        let mut pdata = self.data.as_ref().map_or(0, |x| x.2.base);
        loop {
            let x: Cx<T> = load(*sa, *sc, ps);
            let y = match &self.prog {
                None => x,
                Some(p) => {
                    let g = self
                        .data
                        .as_ref()
                        .map_or(Cx::default(), |(a, c, _)| load(*a, *c, pdata));
                    p.run(x, g, &mut regs)
                }
            };
            store(*da, *dc, pd, y);
            let mut k = r;
            loop {
                if k == 0 {
                    return 0;
                }
                k -= 1;
                idx[k] += 1;
                ps += s.strides[k];
                pd += d.strides[k];
                if let Some((_, _, a)) = &self.data {
                    pdata += a.strides[k];
                }
                if idx[k] < shape[k] {
                    break;
                }
                let back = shape[k] as isize;
                ps -= s.strides[k] * back;
                pd -= d.strides[k] * back;
                if let Some((_, _, a)) = &self.data {
                    pdata -= a.strides[k] * back;
                }
                idx[k] = 0;
            }
        }
    }
}

/// One stage of a chain, with its 1-D algorithms.
enum StageExec<T> {
    Fft {
        passes: Vec<(usize, Vec<Range<usize>>)>,
        in_live: Vec<Range<usize>>,
        out_live: Vec<Range<usize>>,
        c2c: Vec<Arc<dyn Fft<T>>>,
        r2c: Option<Arc<dyn RealToComplex<T>>>,
        c2r: Option<Arc<dyn ComplexToReal<T>>>,
    },
    Pointwise {
        prog: Arc<Program>,
        data: Option<(usize, bool, Access)>,
    },
}

/// A fused chain on the pencil engine, in precision `T`.
struct ChainExec<T> {
    rshape: Vec<usize>,
    cshape: Vec<usize>,
    rbuf: Vec<T>,
    cbuf: Vec<Cx<T>>,
    loads: Vec<(usize, bool, Segment)>,
    stores: Vec<(usize, bool, Segment)>,
    stages: Vec<StageExec<T>>,
    /// Input box of the first stage, output box of the last.
    first_in: Vec<Range<usize>>,
    last_out: Vec<Range<usize>>,
    first_real: bool,
    last_real: bool,
    /// Host threads for the passes (fftw_plan_with_nthreads).
    threads: usize,
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

impl<T: Real> ChainExec<T> {
    fn new(chain: Chain, addrs: &Addrs) -> ChainExec<T> {
        let rank = chain.n.len();
        let rshape = chain.n.clone();
        let cshape = shape_of(&chain.n, !matches!(chain.first_kind(), Kind::Dft { .. }));
        let planners = T::planners();
        let mut stages = Vec::new();
        for s in &chain.stages {
            stages.push(match s {
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
                    StageExec::Fft {
                        passes: passes(kind, &chain.n, in_live, out_live),
                        in_live: in_live.clone(),
                        out_live: out_live.clone(),
                        c2c,
                        r2c,
                        c2r,
                    }
                }
                Stage::Pointwise { prog, data } => StageExec::Pointwise {
                    prog: prog.clone(),
                    data: data
                        .as_ref()
                        .map(|a| (addrs.of(&a.buf), a.buf.complex(), a.clone())),
                },
            });
        }
        let first_real = *chain.first_kind() == Kind::R2c;
        let last_real = *chain.last_kind() == Kind::C2r;
        // The first transform's input box (a leading pointwise stage runs on all of it).
        let first_in = chain
            .stages
            .iter()
            .find_map(|s| {
                if let Stage::Fft { in_live, .. } = s {
                    Some(in_live.clone())
                } else {
                    None
                }
            })
            .expect("a chain has a transform");
        // The last transform's output box (a trailing pointwise stage keeps it).
        let last_out = chain
            .stages
            .iter()
            .rev()
            .find_map(|s| {
                if let Stage::Fft { out_live, .. } = s {
                    Some(out_live.clone())
                } else {
                    None
                }
            })
            .expect("a chain has a transform");
        let resolve = |v: &[Segment]| {
            v.iter()
                .map(|s| (addrs.of(&s.access.buf), s.access.buf.complex(), s.clone()))
                .collect()
        };
        let needs_real = first_real || last_real;
        ChainExec {
            loads: resolve(&chain.loads),
            stores: resolve(&chain.stores),
            rbuf: vec![
                T::zero();
                if needs_real {
                    rshape.iter().product()
                } else {
                    0
                }
            ],
            cbuf: vec![Cx::default(); cshape.iter().product()],
            rshape,
            cshape,
            stages,
            first_in,
            last_out,
            first_real,
            last_real,
            threads: crate::planner::settings(T::PRECISION).nthreads(),
        }
    }

    /// Runs the chain; returns the number of 1-D transforms computed.
    unsafe fn run_chain(&mut self) -> u64 {
        // Load: zeros in the live box, then the segments that fall inside it.
        let in_shape = if self.first_real {
            self.rshape.clone()
        } else {
            self.cshape.clone()
        };
        let first_in = self.first_in.clone();
        if self.first_real {
            let buf = &mut self.rbuf;
            walk_box(&first_in, |i| buf[linear(&in_shape, i)] = T::zero());
        } else {
            let buf = &mut self.cbuf;
            walk_box(&first_in, |i| buf[linear(&in_shape, i)] = Cx::default());
        }
        for (addr, complex, seg) in &self.loads {
            let r = clip(seg, &first_in);
            let (rbuf, cbuf, real) = (&mut self.rbuf, &mut self.cbuf, self.first_real);
            walk_box(&r, |i| {
                let pos = seg.access.base
                    + i.iter()
                        .zip(&seg.origin)
                        .zip(&seg.access.strides)
                        .map(|((&x, &o), &s)| (x - o) as isize * s)
                        .sum::<isize>();
                let v: Cx<T> = load(*addr, *complex, pos);
                let l = linear(&in_shape, i);
                if real {
                    rbuf[l] = v.re
                } else {
                    cbuf[l] = v
                }
            });
        }
        let mut count = 0;
        for s in 0..self.stages.len() {
            count += self.run_stage(s);
        }
        let out_shape = if self.last_real {
            self.rshape.clone()
        } else {
            self.cshape.clone()
        };
        for (addr, complex, seg) in &self.stores {
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
                    Cx::new(self.rbuf[l], T::zero())
                } else {
                    self.cbuf[l]
                };
                store(*addr, *complex, pos, v);
            });
        }
        count
    }

    unsafe fn run_stage(&mut self, s: usize) -> u64 {
        let cshape = self.cshape.clone();
        let cstr = strides_of(&cshape);
        match &self.stages[s] {
            StageExec::Pointwise { prog, data } => {
                let mut regs = Vec::new();
                let full: Vec<Range<usize>> = cshape.iter().map(|&n| 0..n).collect();
                let cbuf = &mut self.cbuf;
                let mut l = 0;
                walk_box(&full, |i| {
                    let g = match data {
                        Some((a, c, acc)) => load(
                            *a,
                            *c,
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
                0
            }
            StageExec::Fft {
                passes,
                in_live,
                out_live,
                c2c,
                r2c,
                c2r,
            } => {
                let rank = cshape.len();
                let last = rank - 1;
                let n_real = self.rshape[last];
                let h = cshape[last];
                let rshape = &self.rshape;
                let (rbuf, cbuf) = (
                    SharedMut(self.rbuf.as_mut_ptr()),
                    SharedMut(self.cbuf.as_mut_ptr()),
                );
                let mut count = 0u64;
                for (a, ranges) in passes {
                    let a = *a;
                    let lens: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
                    let pencils: usize = lens.iter().product();
                    count += pencils as u64;
                    // Threads pay off with enough points per pass (as the FFTW path's estimate).
                    let threads = if pencils * cshape[a] >= 1 << 15 {
                        self.threads
                    } else {
                        1
                    };
                    let job = |range: Range<usize>| {
                        #[allow(clippy::redundant_locals)] // the Sync wrappers, not their pointers
                        let (rbuf, cbuf) = (rbuf, cbuf);
                        let mut line: Vec<Cx<T>> = Vec::new();
                        let mut scratch: Vec<Cx<T>> = Vec::new();
                        let mut row: Vec<T> = vec![T::zero(); n_real];
                        let mut idx = vec![0usize; rank];
                        for p in range {
                            let mut rest = p;
                            for d in (0..rank).rev() {
                                idx[d] = ranges[d].start + rest % lens[d];
                                rest /= lens[d];
                            }
                            // SAFETY: each pencil reads and writes only its own line (or row) of
                            // the work buffers; pencils of one pass are distinct.
                            unsafe {
                                if a == last && r2c.is_some() {
                                    let fft = r2c.as_ref().unwrap();
                                    line.resize(h, Cx::default());
                                    scratch.resize(fft.get_scratch_len(), Cx::default());
                                    let rb = linear(rshape, &idx);
                                    let cb = linear(&cshape, &idx);
                                    row.iter_mut().for_each(|x| *x = T::zero());
                                    for j in in_live[a].clone() {
                                        row[j] = *rbuf.0.add(rb + j);
                                    }
                                    fft.process_with_scratch(&mut row, &mut line, &mut scratch)
                                        .expect("lengths set at plan time");
                                    for j in out_live[a].clone() {
                                        *cbuf.0.add(cb + j) = line[j];
                                    }
                                } else if a == last && c2r.is_some() {
                                    let fft = c2r.as_ref().unwrap();
                                    line.resize(h, Cx::default());
                                    scratch.resize(fft.get_scratch_len(), Cx::default());
                                    let rb = linear(rshape, &idx);
                                    let cb = linear(&cshape, &idx);
                                    line.iter_mut().for_each(|x| *x = Cx::default());
                                    for j in in_live[a].clone() {
                                        line[j] = *cbuf.0.add(cb + j);
                                    }
                                    // As FFTW: the imaginary parts a real signal's spectrum cannot have are ignored.
                                    line[0].im = T::zero();
                                    if n_real.is_multiple_of(2) {
                                        line[h - 1].im = T::zero();
                                    }
                                    fft.process_with_scratch(&mut line, &mut row, &mut scratch)
                                        .expect("lengths set at plan time");
                                    for j in out_live[a].clone() {
                                        *rbuf.0.add(rb + j) = row[j];
                                    }
                                } else {
                                    let fft = &c2c[a];
                                    let stride = cstr[a];
                                    line.resize(cshape[a], Cx::default());
                                    scratch.resize(fft.get_inplace_scratch_len(), Cx::default());
                                    let base = linear(&cshape, &idx);
                                    line.iter_mut().for_each(|x| *x = Cx::default());
                                    for j in in_live[a].clone() {
                                        line[j] = *cbuf.0.add(base + j * stride);
                                    }
                                    fft.process_with_scratch(&mut line, &mut scratch);
                                    for j in out_live[a].clone() {
                                        *cbuf.0.add(base + j * stride) = line[j];
                                    }
                                }
                            }
                        }
                    };
                    parallel_for(threads, pencils, &job);
                }
                count
            }
        }
    }
}

enum StepExec {
    Fftw(Box<Plan>),
    /// Copies, pointwise nodes and chains (on the pencil engine, or as the GPU runs them with
    /// `FFTX_CHAIN_ENGINE=pencil`).
    Cpu(Box<dyn CpuStep>),
}

/// A chain run as the GPU runs it (`FFTX_CHAIN_ENGINE=pencil`): the twin of the GPU passes, in
/// precision `T`; the addresses of the program's buffers.
struct PencilStep<T> {
    prog: PencilProgram,
    addrs: Vec<usize>,
    _real: std::marker::PhantomData<T>,
}

impl<T: Real> CpuStep for PencilStep<T> {
    unsafe fn run(&mut self) -> u64 {
        let addrs = &self.addrs;
        super::pencil::run_cpu::<T>(&self.prog, &|s| addrs[s - super::pencil::BUFFERS]);
        self.prog.transforms()
    }
}

impl<T: Real> CpuStep for ChainExec<T> {
    unsafe fn run(&mut self) -> u64 {
        self.run_chain()
    }
}

/// `FFTX_CHAIN_ENGINE=pencil`: chains run as pencil programs on the CPU (the GPU's passes, for
/// testing them without a GPU).
fn pencil_engine() -> bool {
    std::env::var("FFTX_CHAIN_ENGINE").is_ok_and(|v| v == "pencil")
}

/// What a plan runs: its steps and the temporaries they use.
pub struct Compiled {
    steps: Vec<StepExec>,
    /// Storage of the temporaries that are still used: 8-byte words holding the plan's reals
    /// (complex ones interleaved); all-zero words are zeros of either precision.
    temps: Vec<(Arc<Temp>, Vec<u64>)>,
    /// 1-D transforms each execute computes (plain transforms counted as FFTW does them).
    pub planned_transforms: u64,
    pub executed_transforms: u64,
    pub executions: u64,
    plain_counts: Vec<u64>,
    /// The plan lowered to the GPU (then `steps` is empty).
    gpu: Option<Box<super::gpu::GpuCompiled>>,
    /// With `gpu`: the steps, flags and precision to lower for the CPU if the GPU fails
    /// mid-execute, and that lowering once made.
    fallback: Option<(Vec<Step>, u32, Precision)>,
    cpu: Option<Box<Compiled>>,
}

impl Compiled {
    pub fn temps(&self) -> impl Iterator<Item = &Arc<Temp>> {
        self.temps.iter().map(|(t, _)| t)
    }

    /// The GPU lowering's printout lines (none on the CPU).
    pub fn gpu_lines(&self) -> Vec<String> {
        self.gpu.as_ref().map(|g| g.describe()).unwrap_or_default()
    }

    /// Runs every step in order.
    ///
    /// # Safety
    /// The caller's arrays the plan was made for must be valid for what the plan addresses.
    pub unsafe fn execute(&mut self) -> Result<(), String> {
        if let Some(g) = &self.gpu {
            match g.execute() {
                Ok(count) => self.executed_transforms += count,
                Err(f) if f.recomputable => {
                    crate::log::emit(
                        f.error.log_level(),
                        format_args!("fftx_execute: the GPU failed ({}); computing on the CPU", f.error),
                    );
                    if self.cpu.is_none() {
                        let (steps, flags, precision) = self.fallback.clone().expect("kept with every GPU lowering");
                        self.cpu = Some(Box::new(lower_cpu(steps, flags, precision)?));
                    }
                    let cpu = self.cpu.as_mut().expect("made above");
                    cpu.execute()?;
                    self.executed_transforms += cpu.planned_transforms;
                }
                Err(f) => {
                    return Err(format!(
                        "the GPU failed ({}) after writing to the caller's arrays, which the CPU cannot recompute from; the output is not computed",
                        f.error
                    ))
                }
            }
            self.executions += 1;
            return Ok(());
        }
        for (t, v) in &mut self.temps {
            if t.zero {
                v.iter_mut().for_each(|x| *x = 0);
            }
        }
        let mut count = 0;
        for (k, s) in self.steps.iter_mut().enumerate() {
            match s {
                StepExec::Fftw(p) => {
                    // FFTX plans are made on its temporaries and the caller's checked arrays,
                    // never on NULL.
                    if let Err(e) = p.execute() {
                        crate::log_warn!("fftx_execute: {e}");
                    }
                    count += self.plain_counts[k];
                }
                StepExec::Cpu(c) => count += c.run(),
            }
        }
        self.executed_transforms += count;
        self.executions += 1;
        Ok(())
    }
}

/// FFTW flags for the plain transforms of a plan with FFTX flags `flags`.
fn fftw_flags(flags: u32) -> u32 {
    // FFTX_MEASURE is 0, as FFTW_MEASURE: the absence of FFTX_ESTIMATE.
    if flags & super::graph::flags::ESTIMATE != 0 {
        crate::abi::FFTW_ESTIMATE
    } else {
        crate::abi::FFTW_MEASURE
    }
}

/// Allocates the temporaries the steps use and makes every step runnable. `precision`: every
/// buffer's (the graph's).
pub fn lower(steps: Vec<Step>, flags: u32, precision: Precision) -> Result<Compiled, String> {
    if let Some(must) = super::gpu::wanted(&steps) {
        match super::gpu::lower(
            &steps,
            fftw_flags(flags),
            flags & super::graph::flags::ESTIMATE == 0,
            precision,
        ) {
            Ok(g) => {
                let mut seen = std::collections::HashSet::new();
                let temps = super::gpu::temps_of(&steps)
                    .into_iter()
                    .filter(|t| seen.insert(t.id))
                    .map(|t| (t, Vec::new()))
                    .collect();
                let planned = g.counts.iter().sum();
                return Ok(Compiled {
                    steps: Vec::new(),
                    temps,
                    planned_transforms: planned,
                    executed_transforms: 0,
                    executions: 0,
                    plain_counts: Vec::new(),
                    gpu: Some(Box::new(g)),
                    fallback: Some((steps, flags, precision)),
                    cpu: None,
                });
            }
            Err(e) if must => {
                return Err(format!(
                    "the plan's arrays are on the GPU, but the GPU cannot run it: {e}"
                ))
            }
            Err(e) => {
                crate::log_warn!("fftx: the GPU cannot run this plan ({e}); it runs on the CPU")
            }
        }
    }
    lower_cpu(steps, flags, precision)
}

/// Lowers the steps for the CPU, in the plan's precision.
fn lower_cpu(steps: Vec<Step>, flags: u32, precision: Precision) -> Result<Compiled, String> {
    match precision {
        Precision::F64 => lower_cpu_in::<f64>(steps, flags),
        Precision::F32 => lower_cpu_in::<f32>(steps, flags),
    }
}

/// Lowers the steps for the CPU with reals `T`.
fn lower_cpu_in<T: Real>(steps: Vec<Step>, flags: u32) -> Result<Compiled, String> {
    let mut temps: Vec<(Arc<Temp>, Vec<u64>)> = Vec::new();
    let mut addrs = Addrs(HashMap::new());
    let mut note = |b: &Buf| {
        if let Buf::Temp(t) = b {
            if let std::collections::hash_map::Entry::Vacant(e) = addrs.0.entry(t.id) {
                let reals = t.len * if t.complex { 2 } else { 1 };
                let v = vec![0u64; (reals * std::mem::size_of::<T>()).div_ceil(8)];
                e.insert(v.as_ptr() as usize);
                temps.push((t.clone(), v));
            }
        }
    };
    for s in &steps {
        match s {
            Step::Node(n) => {
                note(&n.input.buf);
                note(&n.output.buf);
                if let Some(d) = &n.data {
                    note(&d.buf);
                }
            }
            Step::Chain(c) => {
                c.loads
                    .iter()
                    .chain(&c.stores)
                    .for_each(|s| note(&s.access.buf));
                for st in &c.stages {
                    if let Stage::Pointwise { data: Some(d), .. } = st {
                        note(&d.buf);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut plain_counts = Vec::new();
    let mut planned = 0u64;
    for s in steps {
        let mut plain = 0;
        out.push(match s {
            Step::Node(n) => {
                let resolve = |a: &Access| (addrs.of(&a.buf), a.buf.complex(), a.clone());
                match &n.op {
                    Op::Copy | Op::Pointwise(_) => StepExec::Cpu(Box::new(Elementwise::<T> {
                        shape: n.in_shape.clone(),
                        src: resolve(&n.input),
                        dst: resolve(&n.output),
                        data: n.data.as_ref().map(resolve),
                        prog: if let Op::Pointwise(p) = &n.op {
                            Some(p.clone())
                        } else {
                            None
                        },
                        _real: std::marker::PhantomData,
                    })),
                    _ => {
                        let p = problem_of(&n);
                        let input = array(
                            addrs.of(&n.input.buf),
                            n.input.buf.complex(),
                            n.input.base,
                            T::PRECISION,
                        );
                        let output = array(
                            addrs.of(&n.output.buf),
                            n.output.buf.complex(),
                            n.output.base,
                            T::PRECISION,
                        );
                        plain = unpruned_count(&n);
                        let plan = crate::planner::plan::<T>(p, input, output, fftw_flags(flags))
                            .map_err(|e| format!("{}: {e}", n.label))?;
                        StepExec::Fftw(Box::new(plan))
                    }
                }
            }
            Step::Chain(c) => {
                for st in &c.stages {
                    if let Stage::Fft {
                        kind,
                        in_live,
                        out_live,
                    } = st
                    {
                        planned += pencil_count(&passes(kind, &c.n, in_live, out_live));
                    }
                }
                if pencil_engine() {
                    let prog = super::pencil::lower(
                        &c,
                        std::env::var("FFTX_PENCIL_MERGE").map_or(true, |v| v != "0"),
                    )?;
                    let addrs = prog.buffers.iter().map(|b| addrs.of(b)).collect();
                    StepExec::Cpu(Box::new(PencilStep::<T> {
                        prog,
                        addrs,
                        _real: std::marker::PhantomData,
                    }))
                } else {
                    StepExec::Cpu(Box::new(ChainExec::<T>::new(c, &addrs)))
                }
            }
        });
        planned += plain;
        plain_counts.push(plain);
    }
    Ok(Compiled {
        steps: out,
        temps,
        planned_transforms: planned,
        executed_transforms: 0,
        executions: 0,
        plain_counts,
        gpu: None,
        fallback: None,
        cpu: None,
    })
}

// The compiled plan holds raw addresses of the caller's arrays, as FFTW plans do.
unsafe impl Send for Compiled {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruned_passes_of_the_3d_convolution() {
        let n = [128usize, 128, 128];
        let full_r: Vec<Range<usize>> = vec![0..128, 0..128, 0..128];
        let full_c: Vec<Range<usize>> = vec![0..128, 0..128, 0..65];
        let box64: Vec<Range<usize>> = vec![0..64, 0..64, 0..64];
        let r2c = passes(&Kind::R2c, &n, &box64, &full_c);
        assert_eq!(r2c.iter().map(|p| p.0).collect::<Vec<_>>(), vec![2, 0, 1]);
        assert_eq!(pencil_count(&r2c), 64 * 64 + 64 * 65 + 128 * 65);
        assert_eq!(
            pencil_count(&passes(&Kind::R2c, &n, &full_r, &full_c)),
            128 * 128 + 2 * 128 * 65
        );
        let c2r = passes(&Kind::C2r, &n, &full_c, &[64..128, 64..128, 64..128]);
        assert_eq!(pencil_count(&c2r), 128 * 65 + 64 * 65 + 64 * 64);
    }

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
