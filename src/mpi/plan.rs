//! Distributed plans: a list of phases over the caller's two arrays and two scratch arrays,
//! made into an ordinary [`Plan`] whose executable runs them.
//!
//! The local transforms are planned last, in [`make`], on the arrays they will run on: the
//! caller's, and two scratch arrays made with the plan as `fftw_malloc` makes blocks (pinned
//! when a GPU is usable). So the planner sees the memory they run from, and a rank's local
//! transforms go to its GPU where that is faster, as an ordinary plan's would.
//!
//! A rank >= 2 transform of n0 x n1 x rest (rows of n0 on the processes):
//! local transforms of dims 1.. on each row, a global transpose to n1 x n0 x rest (rows of n1
//! distributed), the transforms along n0, and, unless `FFTW_MPI_TRANSPOSED_OUT`, the transpose
//! back. `FFTW_MPI_TRANSPOSED_IN` input is first transposed to the ordinary layout. r2c does
//! its real transforms first, c2r last. A 1-D transform gathers the whole array on every
//! process, transforms it locally and keeps the process's output rows.

use super::dist::{block_range, default_block, MPI_FLAGS};
use super::ffi::{self, Comm, Exchange, Way};
use super::transpose::{Packing, Transpose};
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::host_memory::HostBlock;
use crate::exec::Execute;
use crate::plan::Plan;
use crate::problem::{IoDim, Kind, Problem, R2rKind};
use crate::program::{Backend, Program};
use crate::real::Real;
use crate::wisdom::{Choice, Rigor};
use parking_lot::Mutex;
use std::marker::PhantomData;

/// The arrays a phase reads and writes: the caller's, or one of two scratch arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Array {
    In,
    Out,
    W,
    V,
}

/// One phase of a distributed plan; `L` is a local transform: its problem while the phases are
/// built ([`Local`]), its plan once [`make`] has planned it.
pub enum Phase<L = Box<Plan>> {
    Transpose(Transpose, Array, Array),
    /// A local transform (None: this process has no rows), its input and output complex or not.
    Local(Option<L>, (Array, bool), (Array, bool)),
    /// Every process's rows (bytes per process, in rank order) to every process.
    Allgather(Vec<usize>, Array, Array),
    /// `bytes` bytes from offset `at` of one array to the start of another.
    Copy(Array, usize, Array, usize),
}

/// A local transform not yet planned: the problem and the caller's flags (less the MPI ones).
pub struct Local {
    problem: Problem,
    flags: u32,
}

/// The phases as built, before their local transforms are planned.
pub type Phases = Vec<Phase<Local>>;

/// The processes of a plan's communicator: how many, and which one this is.
#[derive(Clone, Copy, Debug)]
pub struct Processes {
    pub size: usize,
    pub rank: usize,
}

impl Processes {
    pub fn of(comm: &Comm) -> Processes {
        Processes {
            size: comm.size,
            rank: comm.rank,
        }
    }
}

/// What a distributed plan computes.
#[derive(Clone, Debug)]
pub enum MpiKind {
    Dft(i32),
    R2c,
    C2r,
    R2r(Vec<R2rKind>),
}

impl MpiKind {
    fn complex(&self) -> bool {
        !matches!(self, MpiKind::R2r(_))
    }
}

/// A distributed problem with its resolved distribution.
pub struct Geometry {
    /// Logical sizes (real sizes for r2c/c2r).
    pub n: Vec<isize>,
    pub howmany: isize,
    pub kind: MpiKind,
    pub transposed_in: bool,
    pub transposed_out: bool,
    /// Row blocks of the input and output (of their distributed dimension).
    pub bi: isize,
    pub bo: isize,
    /// The caller's flags (the MPI ones are dropped for the local plans).
    pub flags: u32,
}

pub struct MpiExec<T: Real> {
    comm: Comm,
    phases: Vec<Phase>,
    /// The scratch arrays, made with the plan (the local plans were planned on them).
    w: HostBlock,
    v: HostBlock,
    /// The transposes' packing buffers, kept from one execute to the next; held during an
    /// execute, which also owns the scratch arrays meanwhile.
    pack: Mutex<Packing>,
    /// How the transposes move their parts ([`choose_way`]).
    way: Way,
    _t: PhantomData<T>,
}

// SAFETY: the phases hold plans (Send + Sync) and plain numbers; the communicator is a handle.
unsafe impl<T: Real> Send for MpiExec<T> {}
unsafe impl<T: Real> Sync for MpiExec<T> {}

fn rows(n: isize, b: isize, rank: usize) -> isize {
    block_range(n, b, rank as isize).1
}

fn product(v: &[isize]) -> isize {
    v.iter().product()
}

/// An array at `p`: interleaved complex or real.
fn array<T: Real>(p: usize, complex: bool) -> ArrayPtr {
    if complex {
        ArrayPtr::Complex {
            re: p,
            im: p + std::mem::size_of::<T>(),
        }
    } else {
        ArrayPtr::Real(p)
    }
}

/// An ordinary local transform (None when a loop is empty: this process has no rows).
fn local<T: Real>(
    kind: Kind,
    dims: Vec<IoDim>,
    loops: Vec<IoDim>,
    flags: u32,
) -> crate::error::Result<Option<Local>> {
    if loops.iter().any(|l| l.n == 0) {
        return Ok(None);
    }
    let problem = Problem {
        kind,
        dims,
        loops,
        precision: T::PRECISION,
        in_place: false,
    };
    Ok(Some(Local {
        problem,
        flags: flags & !MPI_FLAGS,
    }))
}

/// Transforms of the trailing dimensions `tail` of `l` rows, howmany `h` interleaved last; `c`
/// scalars per element (2: complex).
fn rows_plan<T: Real>(
    kind: Kind,
    tail: &[isize],
    l: isize,
    h: isize,
    c: isize,
    flags: u32,
) -> crate::error::Result<Option<Local>> {
    let dims = (0..tail.len())
        .map(|j| {
            let s = c * h * product(&tail[j + 1..]);
            IoDim::new(tail[j], s, s)
        })
        .collect();
    let row = c * h * product(tail);
    let loops = vec![IoDim::new(l, row, row), IoDim::new(h, c, c)];
    local::<T>(kind, dims, loops, flags)
}

/// r2c (or, `backward`, c2r) of the real trailing dimensions `tail` of `l` rows: the real rows
/// padded to 2(n/2+1) in the last dimension, as FFTW's MPI layout has them.
fn real_rows_plan<T: Real>(
    tail: &[isize],
    l: isize,
    h: isize,
    backward: bool,
    flags: u32,
) -> crate::error::Result<Option<Local>> {
    let last = tail.len() - 1;
    let nc = tail[last] / 2 + 1;
    let (mut padded, mut half) = (tail.to_vec(), tail.to_vec());
    padded[last] = 2 * nc;
    half[last] = nc;
    let rs = |j: usize| h * product(&padded[j + 1..]);
    let cs = |j: usize| 2 * h * product(&half[j + 1..]);
    let (rrow, crow) = (h * product(&padded), 2 * h * product(&half));
    let pick = |r: isize, c: isize| if backward { (c, r) } else { (r, c) };
    let dims = (0..tail.len())
        .map(|j| {
            let (is, os) = pick(rs(j), cs(j));
            IoDim::new(tail[j], is, os)
        })
        .collect();
    let (ri, ro) = pick(rrow, crow);
    let (hi, ho) = pick(1, 2);
    let loops = vec![IoDim::new(l, ri, ro), IoDim::new(h, hi, ho)];
    let kind = if backward { Kind::C2r } else { Kind::R2c };
    local::<T>(kind, dims, loops, flags)
}

/// Transforms along the first dimension of `l` rows of n0 x rest (elements of `c` scalars).
fn column_plan<T: Real>(
    kind: Kind,
    n0: isize,
    l: isize,
    rest: isize,
    c: isize,
    flags: u32,
) -> crate::error::Result<Option<Local>> {
    let dims = vec![IoDim::new(n0, c * rest, c * rest)];
    let loops = vec![
        IoDim::new(l, c * n0 * rest, c * n0 * rest),
        IoDim::new(rest, c, c),
    ];
    local::<T>(kind, dims, loops, flags)
}

/// The row blocks of the two layouts a rank >= 2 plan passes through: n0 distributed (a) and
/// the transposed n1 distributed (b); the caller's blocks where the caller's arrays have them.
fn middle_blocks(g: &Geometry, n0: isize, n1: isize, p: isize) -> (isize, isize) {
    let (tin, tout) = (g.transposed_in, g.transposed_out);
    let a = match g.kind {
        MpiKind::C2r => g.bo,
        _ if !tin => g.bi,
        _ if !tout => g.bo,
        _ => default_block(n0, p),
    };
    let b = if tout {
        g.bo
    } else if tin {
        g.bi
    } else {
        default_block(n1, p)
    };
    (a, b)
}

/// The local transform kinds of a rank >= 2 plan: along dims 1.. and along dim 0.
fn split_kinds(kind: &MpiKind) -> (Kind, Kind) {
    match kind {
        MpiKind::Dft(sign) => (Kind::Dft { sign: *sign }, Kind::Dft { sign: *sign }),
        MpiKind::R2r(k) => (Kind::R2r(k[1..].to_vec()), Kind::R2r(vec![k[0]])),
        MpiKind::R2c => (Kind::R2c, Kind::Dft { sign: -1 }),
        MpiKind::C2r => (Kind::C2r, Kind::Dft { sign: 1 }),
    }
}

/// The phases of a plan whose data all live on its one process, as FFTW's serial solvers take
/// it: one local plan of the whole problem on the caller's arrays (which the planner may put on
/// the GPU). None where the layout is not the serial one: several processes, the transposed or
/// scrambled flags, or a 1-D r2c/c2r (which FFTW does not plan).
pub fn build_serial<T: Real>(
    g: &Geometry,
    procs: Processes,
) -> crate::error::Result<Option<Phases>> {
    let real = matches!(g.kind, MpiKind::R2c | MpiKind::C2r);
    if procs.size != 1 || g.flags & MPI_FLAGS != 0 || (real && g.n.len() < 2) {
        return Ok(None);
    }
    let (plan, io) = match &g.kind {
        MpiKind::R2c => (
            real_rows_plan::<T>(&g.n, 1, g.howmany, false, g.flags)?,
            (false, true),
        ),
        MpiKind::C2r => (
            real_rows_plan::<T>(&g.n, 1, g.howmany, true, g.flags)?,
            (true, false),
        ),
        MpiKind::Dft(sign) => {
            let kind = Kind::Dft { sign: *sign };
            (
                rows_plan::<T>(kind, &g.n, 1, g.howmany, 2, g.flags)?,
                (true, true),
            )
        }
        MpiKind::R2r(k) => {
            let kind = Kind::R2r(k.clone());
            (
                rows_plan::<T>(kind, &g.n, 1, g.howmany, 1, g.flags)?,
                (false, false),
            )
        }
    };
    Ok(Some(vec![Phase::Local(
        plan,
        (Array::In, io.0),
        (Array::Out, io.1),
    )]))
}

/// The phases of a rank >= 2 plan (see the module's comment). (Longer than a screen: the three
/// kinds' phase lists share their blocks and plans, and read best side by side.)
pub fn build_multi<T: Real>(g: &Geometry, procs: Processes) -> crate::error::Result<Phases> {
    let (p, me, h) = (procs.size as isize, procs.rank, g.howmany);
    let c: isize = if g.kind.complex() { 2 } else { 1 };
    let mut cn = g.n.clone();
    if matches!(g.kind, MpiKind::R2c | MpiKind::C2r) {
        let last = cn.len() - 1;
        cn[last] = cn[last] / 2 + 1;
    }
    let (n0, n1, rest) = (cn[0], cn[1], product(&cn[2..]) * h);
    let elem = rest as usize * c as usize * std::mem::size_of::<T>();
    let (ab, bb) = middle_blocks(g, n0, n1, p);
    let (la, lb) = (rows(n0, ab, me), rows(n1, bb, me));
    let t = |a, ba, b, bb| Transpose {
        a: a as usize,
        ba: ba as usize,
        b: b as usize,
        bb: bb as usize,
        elem,
        in_transposed: false,
        out_transposed: false,
    };
    let (tail_kind, col_kind) = split_kinds(&g.kind);
    let col = column_plan::<T>(col_kind, n0, lb, rest, c, g.flags)?;
    let cx = c == 2;
    let last = if g.transposed_out {
        Array::Out
    } else {
        Array::W
    };
    let mut s = Vec::new();
    match g.kind {
        MpiKind::C2r => {
            let mut cur = Array::In;
            if !g.transposed_in {
                s.push(Phase::Transpose(t(n0, g.bi, n1, bb), Array::In, Array::V));
                cur = Array::V;
            }
            s.push(Phase::Local(col, (cur, true), (Array::W, true)));
            s.push(Phase::Transpose(t(n1, bb, n0, ab), Array::W, Array::V));
            let rows = real_rows_plan::<T>(&g.n[1..], la, h, true, g.flags)?;
            s.push(Phase::Local(rows, (Array::V, true), (Array::Out, false)));
            return Ok(s);
        }
        MpiKind::R2c => {
            let rows = real_rows_plan::<T>(&g.n[1..], la, h, false, g.flags)?;
            s.push(Phase::Local(rows, (Array::In, false), (Array::W, true)));
        }
        _ => {
            let mut cur = Array::In;
            if g.transposed_in {
                s.push(Phase::Transpose(t(n1, g.bi, n0, ab), Array::In, Array::V));
                cur = Array::V;
            }
            let rows = rows_plan::<T>(tail_kind, &cn[1..], la, h, c, g.flags)?;
            s.push(Phase::Local(rows, (cur, cx), (Array::W, cx)));
        }
    }
    s.push(Phase::Transpose(t(n0, ab, n1, bb), Array::W, Array::V));
    s.push(Phase::Local(col, (Array::V, cx), (last, cx)));
    if !g.transposed_out {
        s.push(Phase::Transpose(t(n1, bb, n0, g.bo), Array::W, Array::Out));
    }
    Ok(s)
}

/// The phases of a 1-D plan: gather, transform, keep this process's output rows.
pub fn build_1d<T: Real>(g: &Geometry, procs: Processes) -> crate::error::Result<Phases> {
    let (n, h) = (g.n[0], g.howmany);
    let c: isize = if g.kind.complex() { 2 } else { 1 };
    let elem = (h * c) as usize * std::mem::size_of::<T>();
    let kind = match &g.kind {
        MpiKind::Dft(sign) => Kind::Dft { sign: *sign },
        MpiKind::R2r(k) => Kind::R2r(k.clone()),
        _ => return Err("r2c/c2r need rank >= 2 (as in FFTW)".into()),
    };
    let sizes = (0..procs.size)
        .map(|q| rows(n, g.bi, q) as usize * elem)
        .collect();
    let plan = local::<T>(
        kind,
        vec![IoDim::new(n, c * h, c * h)],
        vec![IoDim::new(h, c, c)],
        g.flags,
    )?;
    let (os, lo) = block_range(n, g.bo, procs.rank as isize);
    Ok(vec![
        Phase::Allgather(sizes, Array::In, Array::W),
        Phase::Local(plan, (Array::W, c == 2), (Array::V, c == 2)),
        Phase::Copy(Array::V, os as usize * elem, Array::Out, lo as usize * elem),
    ])
}

/// Bytes each scratch array needs for these phases.
fn scratch_bytes(phases: &Phases, rank: usize) -> usize {
    phases
        .iter()
        .map(|s| match s {
            Phase::Transpose(t, _, _) => t.bytes_before(rank).max(t.bytes_after(rank)),
            Phase::Allgather(sizes, _, _) => sizes.iter().sum(),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

impl<T: Real> MpiExec<T> {
    /// Runs one phase on the arrays at `at(buf)`.
    unsafe fn phase(
        &self,
        s: &Phase,
        at: &dyn Fn(Array) -> usize,
        pack: &mut Packing,
    ) -> crate::error::Result<()> {
        match s {
            Phase::Transpose(t, from, to) => {
                let (src, dst) = (at(*from) as *const u8, at(*to) as *mut u8);
                Ok(t.run(&self.comm, src, dst, pack, self.way)?)
            }
            Phase::Local(None, _, _) => Ok(()),
            Phase::Local(Some(plan), (from, ci), (to, co)) => {
                plan.execute_on(array::<T>(at(*from), *ci), array::<T>(at(*to), *co))
            }
            Phase::Allgather(sizes, from, to) => {
                let x = Exchange::allgather(sizes, self.comm.rank)?;
                let buffers = (at(*from) as *const u8, at(*to) as *mut u8);
                let procs = (self.comm.size, self.comm.rank);
                Ok(ffi::exchange(
                    self.comm.raw(),
                    buffers,
                    &x,
                    Way::AllToAll,
                    procs,
                )?)
            }
            Phase::Copy(from, off, to, bytes) => {
                let src = (at(*from) + off) as *const u8;
                std::ptr::copy(src, at(*to) as *mut u8, *bytes);
                Ok(())
            }
        }
    }
}

impl<T: Real> Execute for MpiExec<T> {
    unsafe fn run(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        device: bool,
    ) -> crate::error::Result<()> {
        if device {
            return Err("MPI plans run on host arrays; these are GPU memory".into());
        }
        let mut pack = self.pack.lock();
        let at = addresses(input.base(), output.base(), &self.w, &self.v);
        self.phases
            .iter()
            .try_for_each(|s| self.phase(s, &at, &mut pack))
    }
    fn details(&self) -> Vec<String> {
        vec![format!(
            "mpi: {} phases on {} processes, transposes by {}",
            self.phases.len(),
            self.comm.size,
            self.way.name()
        )]
    }
}

/// Where each array of the phases is: the caller's two, the two scratch arrays.
fn addresses(input: usize, output: usize, w: &HostBlock, v: &HostBlock) -> impl Fn(Array) -> usize {
    let (w, v) = (w.addr(), v.addr());
    move |b| match b {
        Array::In => input,
        Array::Out => output,
        Array::W => w,
        Array::V => v,
    }
}

/// The phases with their local transforms planned on the arrays at `at`.
fn plan_locals<T: Real>(
    phases: Phases,
    at: &dyn Fn(Array) -> usize,
) -> crate::error::Result<Vec<Phase>> {
    let planned = |l: Local, (from, ci): (Array, bool), (to, co): (Array, bool)| {
        let (i, o) = (array::<T>(at(from), ci), array::<T>(at(to), co));
        crate::planner::plan::<T>(l.problem, i, o, l.flags).map(Box::new)
    };
    phases
        .into_iter()
        .map(|s| {
            Ok(match s {
                Phase::Local(l, i, o) => {
                    Phase::Local(l.map(|l| planned(l, i, o)).transpose()?, i, o)
                }
                Phase::Transpose(t, a, b) => Phase::Transpose(t, a, b),
                Phase::Allgather(sizes, a, b) => Phase::Allgather(sizes, a, b),
                Phase::Copy(a, off, b, bytes) => Phase::Copy(a, off, b, bytes),
            })
        })
        .collect()
}

/// How the transposes of a plan planned with `flags` move their parts: `FFTX_MPI_EXCHANGE`
/// (`alltoall` or `pairwise`) where set; under FFTW_ESTIMATE (and WISDOM_ONLY) `MPI_Alltoallv`;
/// otherwise the faster of the two on the plan's transposes between its scratch arrays, as
/// process 0 measured it (every process must move parts the same way), through the plan's
/// packing buffers `pack` (grown here once, not at the first execute).
///
/// # Safety
/// Every process of `comm` calls it together (it exchanges when it measures).
unsafe fn choose_way(
    comm: &Comm,
    phases: &[Phase],
    (w, v): (&HostBlock, &HostBlock),
    pack: &mut Packing,
    flags: u32,
) -> crate::error::Result<Way> {
    match std::env::var("FFTX_MPI_EXCHANGE").as_deref() {
        Ok("alltoall") => return Ok(Way::AllToAll),
        Ok("pairwise") => return Ok(Way::Pairwise),
        Ok(other) if !other.is_empty() => {
            crate::log::log_warn!("FFTX_MPI_EXCHANGE={other}: not alltoall or pairwise; ignored")
        }
        _ => {}
    }
    let transposes: Vec<&Transpose> = phases
        .iter()
        .filter_map(|p| match p {
            Phase::Transpose(t, ..) => Some(t),
            _ => None,
        })
        .collect();
    let estimate = flags & (crate::abi::FFTW_ESTIMATE | crate::abi::FFTW_WISDOM_ONLY) != 0;
    if estimate || comm.size < 2 || transposes.is_empty() {
        return Ok(Way::AllToAll);
    }
    let mut time = |way: Way| -> crate::error::Result<f64> {
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let t0 = std::time::Instant::now();
            for t in &transposes {
                t.run(comm, w.addr() as *const u8, v.addr() as *mut u8, pack, way)?;
            }
            best = best.min(t0.elapsed().as_secs_f64());
        }
        Ok(best)
    };
    let (all, pairs) = (time(Way::AllToAll)?, time(Way::Pairwise)?);
    let mut pairwise = u8::from(pairs < all);
    ffi::bcast(comm.raw(), &mut pairwise, 1)?;
    let way = if pairwise == 1 {
        Way::Pairwise
    } else {
        Way::AllToAll
    };
    crate::log::log_info!(
        "mpi: transposes by all-to-all {:.3} ms, pairwise {:.3} ms (process {}): {} chosen",
        all * 1e3,
        pairs * 1e3,
        comm.rank,
        way.name()
    );
    Ok(way)
}

/// The plan object for a distributed problem planned with `flags`, `problem` describing it to
/// fftw_print_plan and fftw_flops: its scratch arrays made, its local transforms planned on
/// the arrays they run on, the way its transposes exchange chosen ([`choose_way`]).
pub fn make<T: Real>(
    comm: Comm,
    phases: Phases,
    problem: Problem,
    (input, output): (ArrayPtr, ArrayPtr),
    flags: u32,
) -> crate::error::Result<Plan> {
    let scratch = scratch_bytes(&phases, comm.rank);
    let (w, v) = (HostBlock::new(scratch)?, HostBlock::new(scratch)?);
    let phases = plan_locals::<T>(phases, &addresses(input.base(), output.base(), &w, &v))?;
    // SAFETY: every process plans together (FFTW-MPI's planners are collective).
    let mut pack = Packing::default();
    let way = unsafe { choose_way(&comm, &phases, (&w, &v), &mut pack, flags)? };
    let exec = MpiExec::<T> {
        comm,
        phases,
        w,
        v,
        pack: Mutex::new(pack),
        way,
        _t: PhantomData,
    };
    Ok(Plan {
        problem,
        input,
        output,
        program: Program::new(),
        exec: Box::new(exec),
        choice: Choice {
            rigor: Rigor::Estimate,
            threads: 1,
            cost_ns: 0.0,
            backend: Backend::Cpu,
            fusion: None,
        },
        device_arrays: false,
    })
}

/// The problem a distributed plan shows (its global sizes, howmany as a loop).
pub fn describe<T: Real>(kind: &MpiKind, n: &[isize], howmany: isize) -> Problem {
    let kind = match kind {
        MpiKind::Dft(sign) => Kind::Dft { sign: *sign },
        MpiKind::R2c => Kind::R2c,
        MpiKind::C2r => Kind::C2r,
        MpiKind::R2r(k) => Kind::R2r(k.clone()),
    };
    Problem {
        kind,
        dims: n.iter().map(|&n| IoDim::new(n, 1, 1)).collect(),
        loops: vec![IoDim::new(howmany, 1, 1)],
        precision: T::PRECISION,
        in_place: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mpi::dist::default_block;

    fn geometry(n: &[isize], kind: MpiKind, procs: isize) -> Geometry {
        Geometry {
            n: n.to_vec(),
            howmany: 1,
            kind,
            transposed_in: false,
            transposed_out: false,
            bi: default_block(n[0], procs),
            bo: default_block(n[0], procs),
            flags: crate::abi::FFTW_ESTIMATE,
        }
    }

    /// The local transforms are planned on the arrays they run on (the caller's and the
    /// scratch arrays), not on NULL ones: the planner judges their memory from them, so a
    /// rank's transforms may take its GPU.
    #[test]
    fn local_transforms_are_planned_on_the_arrays_they_run_on() {
        let cases = [
            (vec![8, 6, 4], MpiKind::Dft(-1), 2, 0),
            (vec![8, 6, 4], MpiKind::R2c, 2, 1),
            (vec![6, 8, 4], MpiKind::C2r, 3, 2),
            (vec![12, 10], MpiKind::Dft(1), 1, 0),
            (vec![64], MpiKind::Dft(-1), 2, 1),
        ];
        for (n, kind, size, rank) in cases {
            let g = geometry(&n, kind, size as isize);
            let procs = Processes { size, rank };
            let phases = match build_serial::<f64>(&g, procs).unwrap() {
                Some(serial) => serial,
                None if n.len() == 1 => build_1d::<f64>(&g, procs).unwrap(),
                None => build_multi::<f64>(&g, procs).unwrap(),
            };
            let scratch = scratch_bytes(&phases, rank).max(1024);
            let caller = (
                HostBlock::new(scratch).unwrap(),
                HostBlock::new(scratch).unwrap(),
            );
            let (w, v) = (
                HostBlock::new(scratch).unwrap(),
                HostBlock::new(scratch).unwrap(),
            );
            let at = addresses(caller.0.addr(), caller.1.addr(), &w, &v);
            let planned = plan_locals::<f64>(phases, &at).unwrap();
            let mut locals = 0;
            for s in &planned {
                if let Phase::Local(Some(plan), (from, _), (to, _)) = s {
                    locals += 1;
                    assert_eq!(plan.input.base(), at(*from), "{n:?} {from:?}");
                    assert_eq!(plan.output.base(), at(*to), "{n:?} {to:?}");
                }
            }
            assert!(locals > 0, "{n:?}: no local transform on rank {rank}");
        }
    }
}
