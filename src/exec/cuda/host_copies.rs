//! The host side of a Program run on the GPU: the copies between host memory that is not
//! pinned (or not laid out as the device side) and pinned staging blocks, done by copy threads
//! while the calling thread issues the steps. The copy threads live from run to run in crews
//! ([`Crew`]), one crew to a run at a time.
//!
//! - A host-to-device transfer's gather runs ahead: when the calling thread reaches one, the
//!   copy threads also start the gathers of the next ones, up to the next step that writes host
//!   memory, so that the DMA engine never waits for the next block. Every copy is cut in parts
//!   that the threads take in order (`Job`): blocks fill one after another, each by all threads.
//! - A device-to-host transfer's DMA goes into a free block; the copy threads scatter the
//!   block into host memory once the DMA is done, while the calling thread goes on. Scatters
//!   start in the order their DMAs finish, not the order they were queued: the copy engine
//!   may run one stream's DMAs out before another's (on an H200 it ran all of one copy-out
//!   stream's blocks first), and a scatter waiting at the head of the queue would hold up
//!   every block behind it. One idle copy thread at a time watches the DMAs of the queued
//!   scatters ([`copy_thread`]).
//!
//! Host memory is what the steps so far made it wherever a later step looks: before a copy
//! that reads or writes host bytes, the copies in flight that reach them ([`Extent`]) finish.
//! Blocks come from the device's staging pool (`staging`), at most [`MAX_BLOCKS`] and
//! [`MAX_PINNED`] bytes a run (two blocks whatever their size); one whose DMA was queued is free
//! once the event after it fires.
//!
//! [`HostCopies`] also records, per step, how far each write into the caller's arrays got
//! ([`Landing`]): after a failure the recovery needs to know which copies out are whole in
//! host memory and which never started.

use super::staging::{self, PinnedBlock};
use super::{check, Device, Error, Result};
use crate::exec::cpu::program::{host_transfer_on, Base, Stores};
use crate::exec::parallel::doorbell;
use crate::problem::{footprints_apart, IoDim};
use crate::real::Real;
use cudarc::driver::sys as cu;
use parking_lot::{Condvar, Mutex};
use std::collections::{HashMap, VecDeque};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// Most staging blocks of one run (on the 16-core H100 box, 16 copy threads with two blocks
/// each moved pageable arrays 18-19% faster than 8: `bench/results/2026-11-26-h100-movers-ab.md`).
pub const MAX_BLOCKS: usize = 32;
/// Most pinned bytes of one run's blocks (the resident schedule copies 256 MiB blocks: 32 of
/// them would pin 8 GiB).
pub const MAX_PINNED: usize = MAX_BLOCKS * staging::BLOCK_BYTES;

/// The bytes `[lo, hi)` of host memory that a box reaches (for split complex arrays the span
/// from the lowest real to the highest imaginary byte: conservative, never too small), and
/// for an interleaved box of at most [`SHAPE_AXES`] axes its shape, so that boxes whose spans
/// interleave (the column tiles of an out-of-card round) can still be told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    lo: usize,
    hi: usize,
    shape: Option<Shape>,
}

/// Most axes of an [`Extent`]'s shape.
const SHAPE_AXES: usize = 4;

/// A box as its elements' bytes: elements of `width` bytes at `lo` plus the sums of index times
/// stride (bytes, positive) over `axes` (length, stride), sorted by stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    width: usize,
    rank: usize,
    axes: [(usize, usize); SHAPE_AXES],
}

impl Extent {
    /// The box `dims` with strides `stride(d)` (real scalars of `unit` bytes) at `offset`
    /// scalars from `base`; a complex element also reaches `base.im`.
    pub fn of(
        base: Base,
        offset: isize,
        dims: &[IoDim],
        stride: impl Fn(&IoDim) -> isize,
        complex: bool,
        unit: usize,
    ) -> Extent {
        let reach = |up: bool| -> isize {
            let each = dims.iter().map(|d| (d.n.max(1) - 1) * stride(d));
            each.map(|r| if up { r.max(0) } else { r.min(0) }).sum()
        };
        let (lo, hi) = (offset + reach(false), offset + reach(true));
        let byte = |b: usize, scalar: isize| (b as isize + scalar * unit as isize) as usize;
        let mut e = Extent {
            lo: byte(base.re, lo),
            hi: byte(base.re, hi + 1),
            shape: None,
        };
        if complex {
            e.lo = e.lo.min(byte(base.im, lo));
            e.hi = e.hi.max(byte(base.im, hi + 1));
        }
        let long: Vec<&IoDim> = dims.iter().filter(|d| d.n > 1).collect();
        if (!complex || base.im == base.re + unit) && long.len() <= SHAPE_AXES {
            let mut axes = [(1, 0); SHAPE_AXES];
            for (a, d) in axes.iter_mut().zip(&long) {
                *a = (d.n as usize, stride(d).unsigned_abs() * unit);
            }
            axes[..long.len()].sort_unstable_by_key(|&(_, s)| s);
            e.shape = Some(Shape {
                width: unit * (1 + complex as usize),
                rank: long.len(),
                axes,
            });
        }
        e
    }

    /// Do the boxes share a byte? Where their spans overlap, two boxes of the same element
    /// width and strides are apart when the larger of them (each axis as long as the longer
    /// one's) and its copy shifted to the other's start have no element in common: the test
    /// of `problem::footprints_apart`: sufficient, and exact for tiles of the same rows (the
    /// blocks of an out-of-card round's column tiles, `passes::out_of_card::HostCopy`).
    pub fn overlaps(self, o: Extent) -> bool {
        if !(self.lo < o.hi && o.lo < self.hi) {
            return false;
        }
        let (Some(a), Some(b)) = (self.shape, o.shape) else {
            return true;
        };
        let (a_axes, b_axes) = (&a.axes[..a.rank], &b.axes[..b.rank]);
        let same_strides = (a_axes.iter().map(|x| x.1)).eq(b_axes.iter().map(|x| x.1));
        if a.width != b.width || !same_strides {
            return true;
        }
        let shift = (self.lo.abs_diff(o.lo)) as isize;
        let axes =
            (a_axes.iter().zip(b_axes)).map(|(&(n, st), &(m, _))| (n.max(m) as isize, st as isize));
        !footprints_apart(axes.chain([(2, shift)]), a.width as isize)
    }
}

/// How far a step's write into host memory got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// Nothing written (or not a write into host memory).
    NotStarted,
    /// Whole.
    Landed,
    /// A DMA queued straight into the caller's memory: whole once its event has fired.
    Queued,
    /// Possibly part of it.
    Unknown,
}

/// A box copied between host memory and a packed block: `dims` with `is` the host side's
/// strides and `os` the block's (a gather), the block at its start.
#[derive(Clone)]
pub struct Gather {
    pub from: (Base, isize),
    pub dims: Vec<IoDim>,
    pub complex: bool,
    pub bytes: usize,
    pub extent: Extent,
}

/// A scatter out of a block into host memory, once the DMA into the block is done.
pub struct Scatter {
    pub step: usize,
    pub to: (Base, isize),
    /// `is` the block's strides, `os` the host side's.
    pub dims: Vec<IoDim>,
    pub complex: bool,
    pub extent: Extent,
}

/// `FFTX_TRACE_COPIES=FILE`: every run appends a timeline of its host copies to FILE (a
/// diagnostic for the benchmarks: `µs since the first event,thread,event,job or step,part`).
struct Trace {
    start: std::time::Instant,
    path: String,
    lines: Mutex<Vec<String>>,
}

static TRACE: once_cell::sync::Lazy<Option<Trace>> = once_cell::sync::Lazy::new(|| {
    let path = std::env::var("FFTX_TRACE_COPIES").ok()?;
    Some(Trace {
        start: std::time::Instant::now(),
        path,
        lines: Mutex::new(Vec::new()),
    })
});

/// Records `what` about job or step `id` (part `k`) when tracing.
fn trace(what: &str, id: usize, k: usize) {
    if let Some(t) = TRACE.as_ref() {
        let us = t.start.elapsed().as_micros();
        let thread = format!("{:?}", std::thread::current().id());
        let thread = thread.trim_start_matches("ThreadId(").trim_end_matches(')');
        t.lines
            .lock()
            .push(format!("{us},{thread},{what},{id},{k}"));
    }
}

/// Appends the traced lines to the trace file, with a line that marks the end of a run.
fn flush_trace() {
    if let Some(t) = TRACE.as_ref() {
        use std::io::Write;
        let lines = std::mem::take(&mut *t.lines.lock());
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&t.path)
        {
            let _ = writeln!(f, "{}\nrun-end", lines.join("\n"));
        }
    }
}

/// Copy threads of a crew: the cores but two, left to the thread that issues the steps and to
/// the driver's (the DMAs wait for the issuing thread).
fn copy_threads() -> usize {
    crate::exec::parallel::cores()
        .saturating_sub(2)
        .clamp(2, MAX_BLOCKS / 2)
}

/// A copy between host memory and a block: the box `dims` from `from` (strides `is`) to `to`
/// (strides `os`); a scatter's also waits for the DMA into its block (`after`: the event, and
/// the step it then counts as landed). Copy threads take it in `parts` along `axis` ([`Job::cut`]),
/// in order, so a block is ready (or a scatter done) after its share of every thread's time
/// rather than one thread's whole copy: the first DMA of a run waits for one block, not for all.
struct Job {
    from: (Base, isize),
    to: (Base, isize),
    dims: Vec<IoDim>,
    complex: bool,
    after: Option<(usize, usize)>,
    /// The axis its parts cut, and how many parts (0 and 1, whole, until [`Job::cut`]).
    axis: usize,
    parts: usize,
    /// [`Job::copy_part`] for the run's scalar type (the crew's threads serve runs of both).
    copy_part: unsafe fn(&Job, usize),
}

/// Bytes of the smallest part of a job worth a copy thread's hand-over.
const MIN_PART_BYTES: usize = 512 << 10;

impl Job {
    /// Cuts the job's box (of `unit`-byte scalars) in up to `want` parts of at least
    /// [`MIN_PART_BYTES`]: along its outermost axis that is long enough, else its longest.
    fn cut(mut self, unit: usize, want: usize) -> Job {
        let elements: usize = self.dims.iter().map(|d| d.n.max(0) as usize).product();
        let bytes = elements * (1 + self.complex as usize) * unit;
        let want = want.min(bytes / MIN_PART_BYTES).max(1);
        let longest = (0..self.dims.len())
            .max_by_key(|&a| self.dims[a].n)
            .unwrap_or(0);
        self.axis = (0..self.dims.len())
            .find(|&a| self.dims[a].n as usize >= want)
            .unwrap_or(longest);
        self.parts = self
            .dims
            .get(self.axis)
            .map_or(1, |d| want.min(d.n.max(1) as usize));
        self
    }

    /// Copies part `k` of the job's box.
    ///
    /// # Safety
    /// Both sides of the box are valid, and no other copy writes the part's destination.
    unsafe fn copy_part_of<T: Real>(&self, k: usize) {
        let mut dims = self.dims.clone();
        let (mut from, mut to) = (self.from, self.to);
        if let Some(d) = dims.get_mut(self.axis) {
            let n = d.n as usize;
            let (start, end) = (k * n / self.parts, (k + 1) * n / self.parts);
            from.1 += start as isize * d.is;
            to.1 += start as isize * d.os;
            d.n = (end - start) as isize;
        }
        host_transfer_on::<T>(from, to, &dims, self.complex, 1, Stores::Streaming);
    }
}

/// Copy threads kept from run to run: a crew serves one run at a time, and a run takes an
/// idle crew of its card (a new one when every crew is busy, so that concurrent executes
/// never wait for each other's copies). Spawning the copy threads in each run, one after
/// another, started the first DMA of a run about 0.3 ms after its start on the H200 box
/// (14 threads at about 15 µs each); a crew's threads sleep on [`Queue::bell`] and one futex
/// call wakes them all.
struct Crew {
    queue: Arc<Queue>,
    dev: Arc<Device>,
    /// Threads started, at most [`copy_threads`].
    threads: usize,
    /// The process that started them (a child made by `fork` has none of them).
    pid: u32,
}

/// The crews not serving a run.
static IDLE_CREWS: Mutex<Vec<Crew>> = Mutex::new(Vec::new());

impl Crew {
    /// An idle crew of `dev`, or a new one (its threads start as the run's copies need them).
    fn lease(dev: &Arc<Device>) -> Crew {
        let pid = std::process::id();
        let mut idle = IDLE_CREWS.lock();
        idle.retain(|c| c.pid == pid);
        match idle.iter().position(|c| Arc::ptr_eq(&c.dev, dev)) {
            Some(i) => idle.swap_remove(i),
            None => Crew {
                queue: Arc::default(),
                dev: dev.clone(),
                threads: 0,
                pid,
            },
        }
    }

    /// Starts copy threads until `want` (at most [`copy_threads`]); an error only when the
    /// crew has none and none could start.
    fn grow(&mut self, want: usize) -> Result<()> {
        while self.threads < want.min(copy_threads()) {
            let (queue, dev) = (self.queue.clone(), self.dev.clone());
            let started = std::thread::Builder::new()
                .name(format!("fftx-copy-{}", self.threads))
                .spawn(move || copy_thread(&queue, &dev));
            if let Err(e) = started {
                if self.threads == 0 {
                    return Err(Error::new(
                        super::ErrorKind::OutOfHostMemory,
                        format!("could not start a copy thread: {e}"),
                    ));
                }
                crate::log::log_warn!(
                    "gpu: could not start a copy thread ({e}): running with {} copy threads",
                    self.threads
                );
                return Ok(());
            }
            self.threads += 1;
        }
        Ok(())
    }
}

/// What a crew's copy threads share with the run it serves.
#[derive(Default)]
struct Queue {
    state: Mutex<Shared>,
    /// Rung (changed, then woken) when parts may start: sleeping copy threads wait on it.
    bell: AtomicU32,
    /// Signalled when a job finishes: the run's thread waits on it.
    done: Condvar,
}

#[derive(Default)]
struct Shared {
    /// Parts to copy: the job's number, the job, the part.
    jobs: VecDeque<(usize, Arc<Job>, usize)>,
    /// Per job of the run: its parts not yet copied, whether its parts may start (a
    /// scatter's once its DMA is done), and whether it is done.
    left: Vec<usize>,
    startable: Vec<bool>,
    finished: Vec<bool>,
    /// Whether a copy thread is looking for finished DMAs of queued scatters.
    watching: bool,
    /// Copy threads asleep.
    idle: usize,
    landed: Vec<usize>,
    error: Option<Error>,
}

/// What a block holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Held {
    Free,
    /// A DMA from or into it was queued: free once its event fires.
    Dma,
    /// A step's input, gathered by job `job`.
    Gathered {
        job: usize,
    },
    /// A scatter (job `job`) reads it.
    Scattering {
        job: usize,
    },
}

struct Block {
    pinned: PinnedBlock,
    /// The event after the block's last DMA (null before the first), and the context it was
    /// made in: a DMA on another card's stream needs one of that card's.
    event: cu::CUevent,
    context: cu::CUcontext,
    held: Held,
}

impl Block {
    /// Records the block's event after the work queued on `stream` so far (the current
    /// context's stream), making it first where the block has none of this context.
    unsafe fn record(&mut self, stream: cu::CUstream) -> Result<()> {
        let mut context = std::ptr::null_mut();
        check(cu::cuCtxGetCurrent(&mut context), "cuCtxGetCurrent")?;
        if self.event.is_null() || self.context != context {
            if !self.event.is_null() {
                cu::cuEventDestroy_v2(self.event);
                self.event = std::ptr::null_mut();
            }
            // Blocking: a copy thread waiting for the DMA sleeps instead of spinning on a core
            // that the other copies need.
            let flags = cu::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32
                | cu::CUevent_flags::CU_EVENT_BLOCKING_SYNC as u32;
            check(cu::cuEventCreate(&mut self.event, flags), "cuEventCreate")?;
            self.context = context;
        }
        check(cu::cuEventRecord(self.event, stream), "cuEventRecord")
    }

    /// Whether its last DMA is done (waiting for it when `wait`).
    unsafe fn dma_done(&self, wait: bool) -> Result<bool> {
        if self.event.is_null() {
            return Ok(true);
        }
        if wait {
            check(cu::cuEventSynchronize(self.event), "cuEventSynchronize")?;
            return Ok(true);
        }
        Ok(cu::cuEventQuery(self.event) == cu::CUresult::CUDA_SUCCESS)
    }
}

/// The host side of one run (see the module's text). `specs`: per step, the gather of a
/// host-to-device transfer through staging; `writes_host`: per step, whether it writes host
/// memory (gathers run ahead only up to such a step).
pub struct HostCopies<T: Real> {
    /// The run's crew (given back when the run releases its copies).
    crew: Option<Crew>,
    queue: Arc<Queue>,
    dev: Arc<Device>,
    blocks: Vec<Block>,
    specs: Vec<Option<Gather>>,
    writes_host: Vec<bool>,
    /// The first step not yet looked at for running ahead.
    ahead: usize,
    /// Per step: the block its gather went into ahead of time.
    gathered: HashMap<usize, usize>,
    /// Copies that may still run, with the host bytes they reach.
    in_flight: Vec<(usize, Extent)>,
    next_job: usize,
    landing: Vec<Landing>,
    _t: PhantomData<T>,
}

impl<T: Real> HostCopies<T> {
    pub fn new(dev: Arc<Device>, specs: Vec<Option<Gather>>, writes_host: Vec<bool>) -> Self {
        let steps = specs.len();
        let crew = Crew::lease(&dev);
        HostCopies {
            queue: crew.queue.clone(),
            crew: Some(crew),
            dev,
            blocks: Vec::new(),
            specs,
            writes_host,
            ahead: 0,
            gathered: HashMap::new(),
            in_flight: Vec::new(),
            next_job: 0,
            landing: vec![Landing::NotStarted; steps],
            _t: PhantomData,
        }
    }

    /// Records how far step `step`'s write into host memory got.
    pub fn mark(&mut self, step: usize, l: Landing) {
        self.landing[step] = l;
    }

    /// The block holding step `step`'s gathered input (gathered now unless it ran ahead), its
    /// address; the gathers of the next steps start too. Call [`HostCopies::dma_queued`]
    /// after queueing the DMA out of it.
    pub fn gathered(&mut self, step: usize) -> Result<(usize, usize)> {
        let b = match self.gathered.remove(&step) {
            Some(b) => b,
            None => self.gather(step)?,
        };
        let Held::Gathered { job, .. } = self.blocks[b].held else {
            return Err(Error::internal("a gathered block without its gather"));
        };
        self.run_ahead(step + 1)?;
        self.wait(job)?;
        trace("dma-in", step, 0);
        Ok((b, self.blocks[b].pinned.ptr as usize))
    }

    /// How many steps from `first` on, one after another, are copies in through staging (the
    /// calling thread may issue them in any order: [`HostCopies::next_gathered`]).
    pub fn staged_run(&self, first: usize) -> usize {
        self.specs[first..]
            .iter()
            .take_while(|g| g.is_some())
            .count()
    }

    /// One of `steps` (copies in of one run) whose gather is done, waiting for the first to
    /// finish: so a slow gather does not hold up the DMAs of those done after it.
    pub fn next_gathered(&mut self, steps: &[usize]) -> Result<usize> {
        self.run_ahead(steps[0])?;
        loop {
            let mut started = Vec::new();
            {
                let st = self.queue.state.lock();
                for &s in steps {
                    let Some(&b) = self.gathered.get(&s) else {
                        continue;
                    };
                    if let Held::Gathered { job, .. } = self.blocks[b].held {
                        if st.finished[job] {
                            return Ok(s);
                        }
                        started.push(job);
                    }
                }
            }
            if started.is_empty() {
                let b = self.gather(steps[0])?;
                self.gathered.insert(steps[0], b);
                continue;
            }
            self.wait_any(&started)?;
            self.run_ahead(steps[0])?;
        }
    }

    /// A free block of at least `bytes` for a DMA into it: its index and address.
    pub fn block_for(&mut self, bytes: usize) -> Result<(usize, usize)> {
        let b = self.free_block(bytes)?;
        trace("dma-out", b, 0);
        Ok((b, self.blocks[b].pinned.ptr as usize))
    }

    /// A DMA from or into block `b` was queued on `stream`: the block is free once it is done.
    ///
    /// # Safety
    /// `stream` is a stream of the run's card.
    pub unsafe fn dma_queued(&mut self, b: usize, stream: cu::CUstream) -> Result<()> {
        self.blocks[b].record(stream)?;
        self.blocks[b].held = Held::Dma;
        Ok(())
    }

    /// After the DMA into block `b` was queued on `stream`: a copy thread scatters the block
    /// into host memory once it is done.
    ///
    /// # Safety
    /// As [`HostCopies::dma_queued`]; the destination stays valid until the run ends.
    pub unsafe fn scatter(&mut self, b: usize, stream: cu::CUstream, s: Scatter) -> Result<()> {
        self.wait_reaching(s.extent)?;
        self.blocks[b].record(stream)?;
        let job = Job {
            from: (self.block_base(b), 0),
            to: s.to,
            dims: s.dims,
            complex: s.complex,
            after: Some((self.blocks[b].event as usize, s.step)),
            axis: 0,
            parts: 1,
            copy_part: Job::copy_part_of::<T>,
        };
        let job = self.submit(job)?;
        self.blocks[b].held = Held::Scattering { job };
        self.in_flight.push((job, s.extent));
        Ok(())
    }

    /// Waits for the copies in flight that reach the bytes of `e` (before a step reads or
    /// writes them).
    pub fn wait_reaching(&mut self, e: Extent) -> Result<()> {
        let reaching: Vec<usize> = self
            .in_flight
            .iter()
            .filter(|(_, x)| x.overlaps(e))
            .map(|&(j, _)| j)
            .collect();
        for j in reaching {
            self.wait(j)?;
        }
        Ok(())
    }

    /// Waits for every copy (the end of a run's steps, failed or not); the first copy thread
    /// error, if any.
    pub fn drain(&mut self) -> Result<()> {
        let mut st = self.queue.state.lock();
        while st.finished.iter().any(|&f| !f) {
            self.queue.done.wait(&mut st);
        }
        for &s in &st.landed {
            self.landing[s] = Landing::Landed;
        }
        st.landed.clear();
        st.error.take().map_or(Ok(()), Err)
    }

    /// Per step, how far its write into host memory got; gives the blocks back to the pool
    /// (after the run's streams are idle) and the crew to the idle ones.
    pub fn release(mut self) -> Vec<Landing> {
        self.give_back_crew();
        flush_trace();
        for b in std::mem::take(&mut self.blocks) {
            // SAFETY: an event of this run, recorded on an idle stream (or never).
            unsafe {
                if !b.event.is_null() {
                    cu::cuEventSynchronize(b.event);
                    cu::cuEventDestroy_v2(b.event);
                }
            }
            staging::give(&self.dev, b.pinned);
        }
        std::mem::take(&mut self.landing)
    }

    /// Starts step `step`'s gather into a free block: the block.
    fn gather(&mut self, step: usize) -> Result<usize> {
        let g = self.specs[step]
            .clone()
            .ok_or_else(|| Error::internal("a staged transfer without its gather"))?;
        self.wait_reaching(g.extent)?;
        let b = self.free_block(g.bytes)?;
        let job = Job {
            from: g.from,
            to: (self.block_base(b), 0),
            dims: g.dims,
            complex: g.complex,
            after: None,
            axis: 0,
            parts: 1,
            copy_part: Job::copy_part_of::<T>,
        };
        let job = self.submit(job)?;
        trace("gather-submit", job, step);
        self.blocks[b].held = Held::Gathered { job };
        self.in_flight.push((job, g.extent));
        Ok(b)
    }

    /// Starts the gathers of the steps from `first` on, up to the next step that writes host
    /// memory, while blocks are free (keeping two for the calling thread).
    fn run_ahead(&mut self, first: usize) -> Result<()> {
        self.ahead = self.ahead.max(first);
        self.refresh()?;
        while self.ahead < self.specs.len() && !self.writes_host[self.ahead] {
            let step = self.ahead;
            if let Some(g) = &self.specs[step] {
                let free = self.blocks.iter().filter(|b| b.held == Held::Free).count();
                let blocks_left = MAX_BLOCKS - self.blocks.len() + free;
                let pinned_left = self.pinned() + g.bytes <= MAX_PINNED || free > 2;
                let waits = self.in_flight.iter().any(|(_, e)| e.overlaps(g.extent));
                if blocks_left <= 2 || !pinned_left || waits {
                    return Ok(());
                }
                let b = self.gather(step)?;
                self.gathered.insert(step, b);
            }
            self.ahead += 1;
        }
        Ok(())
    }

    /// A free block of at least `bytes`: one whose DMA is done or whose scatter finished, a
    /// new one while under [`MAX_BLOCKS`], else the oldest busy one once it is free.
    fn free_block(&mut self, bytes: usize) -> Result<usize> {
        self.refresh()?;
        if let Some(b) = self.blocks.iter().position(|b| b.held == Held::Free) {
            return self.sized(b, bytes);
        }
        let room = self.pinned() + bytes <= MAX_PINNED || self.blocks.len() < 2;
        if self.blocks.len() < MAX_BLOCKS && room {
            self.blocks.push(Block {
                pinned: staging::take(&self.dev, bytes)?,
                event: std::ptr::null_mut(),
                context: std::ptr::null_mut(),
                held: Held::Free,
            });
            return Ok(self.blocks.len() - 1);
        }
        // Every block busy: the first scatter to finish frees one, else the oldest DMA.
        let scattering: Vec<usize> = (self.blocks.iter())
            .filter_map(|b| match b.held {
                Held::Scattering { job } => Some(job),
                _ => None,
            })
            .collect();
        if !scattering.is_empty() {
            self.wait_any(&scattering)?;
            self.refresh()?;
            if let Some(b) = self.blocks.iter().position(|b| b.held == Held::Free) {
                return self.sized(b, bytes);
            }
        }
        let b = (self.blocks.iter())
            .position(|b| b.held == Held::Dma)
            .ok_or_else(|| Error::internal("every staging block holds a gather"))?;
        // SAFETY: an event of this run.
        unsafe { self.blocks[b].dma_done(true) }?;
        self.blocks[b].held = Held::Free;
        self.sized(b, bytes)
    }

    /// Marks free the blocks whose DMA is done or whose scatter finished.
    fn refresh(&mut self) -> Result<()> {
        let st = self.queue.state.lock();
        for b in &mut self.blocks {
            let free = match b.held {
                Held::Free => true,
                // SAFETY: an event of this run.
                Held::Dma => unsafe { b.dma_done(false) }?,
                Held::Scattering { job } => st.finished[job],
                Held::Gathered { .. } => false,
            };
            if free {
                b.held = Held::Free;
            }
        }
        self.in_flight.retain(|&(j, _)| !st.finished[j]);
        Ok(())
    }

    /// Block `b` as an interleaved complex (or real) array.
    fn block_base(&self, b: usize) -> Base {
        let re = self.blocks[b].pinned.ptr as usize;
        Base {
            re,
            im: re + std::mem::size_of::<T>(),
        }
    }

    /// Pinned bytes of the run's blocks.
    fn pinned(&self) -> usize {
        self.blocks.iter().map(|b| b.pinned.len).sum()
    }

    /// Block `b` (free), replaced by a larger one if it holds less than `bytes`.
    fn sized(&mut self, b: usize, bytes: usize) -> Result<usize> {
        if self.blocks[b].pinned.len < bytes {
            let bigger = staging::take(&self.dev, bytes)?;
            let old = std::mem::replace(&mut self.blocks[b].pinned, bigger);
            staging::give(&self.dev, old);
        }
        Ok(b)
    }

    /// Waits for the run's copies and gives the crew back, ready for another run.
    fn give_back_crew(&mut self) {
        let Some(crew) = self.crew.take() else {
            return;
        };
        let _ = self.drain();
        let mut st = self.queue.state.lock();
        // A thread still polling events of this run's scatters (all done) lets go of them
        // before the run destroys them and the next run's jobs take their numbers.
        while st.watching {
            parking_lot::MutexGuard::unlocked(&mut st, std::thread::yield_now);
        }
        st.left.clear();
        st.startable.clear();
        st.finished.clear();
        st.error = None;
        drop(st);
        IDLE_CREWS.lock().push(crew);
    }

    /// Queues `job` in parts, waking or starting a copy thread for each.
    fn submit(&mut self, job: Job) -> Result<usize> {
        let job = Arc::new(job.cut(std::mem::size_of::<T>(), copy_threads()));
        // Threads first: a job queued with no thread to take it would never finish.
        let (queued, idle) = {
            let st = self.queue.state.lock();
            (st.jobs.len() + job.parts, st.idle)
        };
        let crew = (self.crew.as_mut()).expect("a run holds its crew until it ends");
        crew.grow(crew.threads + queued.saturating_sub(idle))?;
        let id = self.next_job;
        self.next_job += 1;
        {
            let mut st = self.queue.state.lock();
            st.finished.push(false);
            st.startable.push(job.after.is_none());
            st.left.push(job.parts);
            for k in 0..job.parts {
                st.jobs.push_back((id, job.clone(), k));
            }
        }
        doorbell::ring(&self.queue.bell, queued);
        Ok(id)
    }

    /// Waits until one of `jobs` has finished; a copy thread's error, if any.
    fn wait_any(&mut self, jobs: &[usize]) -> Result<()> {
        let mut st = self.queue.state.lock();
        if !jobs.iter().any(|&j| st.finished[j]) {
            trace("wait", jobs[0], jobs.len());
            while !jobs.iter().any(|&j| st.finished[j]) {
                self.queue.done.wait(&mut st);
            }
            trace("waited", jobs[0], jobs.len());
        }
        self.in_flight.retain(|&(j, _)| !st.finished[j]);
        st.error.take().map_or(Ok(()), Err)
    }

    fn wait(&mut self, job: usize) -> Result<()> {
        self.wait_any(&[job])
    }
}

impl<T: Real> Drop for HostCopies<T> {
    /// Waits for the run's copies (they reach the run's memory) even when the run unwinds.
    fn drop(&mut self) {
        self.give_back_crew();
    }
}

/// A copy thread of a crew, for the life of the process: takes the first part that may start
/// (a gather's, or a scatter's whose DMA is done). When every queued part waits for a DMA, one
/// thread polls their events and the others sleep until it finds one done.
fn copy_thread(q: &Queue, dev: &Device) {
    let bound = dev.bind();
    let mut st = q.state.lock();
    loop {
        let next = (st.jobs.iter()).position(|&(id, _, _)| st.startable[id]);
        if let Some((id, job, k)) = next.and_then(|i| st.jobs.remove(i)) {
            drop(st);
            let r = bound.clone().and_then(|()| copy(id, &job, k));
            st = q.state.lock();
            if let Err(e) = r {
                st.error.get_or_insert(e);
            }
            st.left[id] -= 1;
            if st.left[id] == 0 {
                st.finished[id] = true;
                if let Some((_, step)) = job.after {
                    st.landed.push(step);
                }
                q.done.notify_all();
            }
            continue;
        }
        if st.jobs.is_empty() || st.watching {
            // Read under the lock: a part queued after it changes the bell first.
            let seen = q.bell.load(Ordering::Acquire);
            drop(st);
            let rung = doorbell::spin(&q.bell, seen);
            st = q.state.lock();
            if !rung && q.bell.load(Ordering::Acquire) == seen {
                st.idle += 1;
                drop(st);
                doorbell::wait(&q.bell, seen);
                st = q.state.lock();
                st.idle -= 1;
            }
            continue;
        }
        st.watching = true;
        let mut waiting: Vec<(usize, usize)> = (st.jobs.iter())
            .filter_map(|(id, job, _)| job.after.map(|(event, _)| (*id, event)))
            .collect();
        waiting.dedup();
        drop(st);
        // An error (a lost device) counts as done: the part's own wait then reports it.
        let done: Vec<usize> = (waiting.iter())
            // SAFETY: events of the run, alive until every job is done.
            .filter(|&&(_, event)| unsafe {
                cu::cuEventQuery(event as cu::CUevent) != cu::CUresult::CUDA_ERROR_NOT_READY
            })
            .map(|&(id, _)| id)
            .collect();
        if done.is_empty() {
            // Yielding, not sleeping: polls every 50 µs after the first 300 made the 1 GiB
            // out-of-card case 9% slower (bench/results/2026-11-28-h200-scatter-order.md).
            std::thread::yield_now();
        }
        st = q.state.lock();
        st.watching = false;
        for &id in &done {
            st.startable[id] = true;
        }
        if !done.is_empty() {
            doorbell::ring(&q.bell, usize::MAX);
        }
    }
}

/// Copies part `k` of job `id`, after the DMA it waits for (done, or failed: its error).
fn copy(id: usize, job: &Job, k: usize) -> Result<()> {
    if let Some((event, _)) = job.after {
        // SAFETY: an event of the run, alive until every job is done.
        check(
            unsafe { cu::cuEventSynchronize(event as cu::CUevent) },
            "cuEventSynchronize",
        )?;
        trace("dma-done", id, k);
    }
    trace(
        if job.after.is_some() {
            "scatter"
        } else {
            "gather"
        },
        id,
        k,
    );
    // SAFETY: the run keeps the memory of every job alive until it is done; parts write
    // disjoint bytes.
    unsafe { (job.copy_part)(job, k) };
    trace("copied", id, k);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job's parts copy its box exactly: a strided box (the outer axis reversed, the inner
    /// axes interleaved complex) gathered part by part equals the element-by-element gather,
    /// whatever the number of parts asked for, and the bytes around the block stay untouched.
    #[test]
    fn parts_copy_the_whole_box() {
        let host: Vec<f64> = (0..2 * 7 * 5 * 64)
            .map(|i| (i as f64 * 0.37).sin())
            .collect();
        // Box: 7 x 5 x 64 complex, host strides (-5*64*2, 64*2, 2) from the last plane.
        let dims = vec![
            IoDim::new(7, -5 * 64 * 2, 5 * 64 * 2),
            IoDim::new(5, 64 * 2, 64 * 2),
            IoDim::new(64, 2, 2),
        ];
        let first = 6 * 5 * 64 * 2;
        let base = |v: &[f64]| Base {
            re: v.as_ptr() as usize,
            im: v.as_ptr() as usize + 8,
        };
        let mut expected = vec![0.0f64; 7 * 5 * 64 * 2];
        for (p, plane) in (0..7).zip((0..7).rev()) {
            for r in 0..5 {
                for c in 0..128 {
                    expected[(p * 5 + r) * 128 + c] = host[(plane * 5 + r) * 128 + c];
                }
            }
        }
        for want in [1, 2, 3, 7, 16] {
            let mut block = vec![-1.0f64; 7 * 5 * 64 * 2 + 2];
            let job = Job {
                from: (base(&host), first),
                to: (
                    Base {
                        re: block[1..].as_mut_ptr() as usize,
                        im: block[1..].as_mut_ptr() as usize + 8,
                    },
                    0,
                ),
                dims: dims.clone(),
                complex: true,
                after: None,
                axis: 0,
                parts: 1,
                copy_part: Job::copy_part_of::<f64>,
            };
            // The box is 35 KiB of f64: cut as if its scalars were 1 MiB each, so that the
            // byte count allows `want` parts (it alone decides their number).
            let job = job.cut(1 << 20, want);
            assert_eq!(
                job.parts, want,
                "the outermost axis of at least {want}, else 64"
            );
            for k in 0..job.parts {
                // SAFETY: both boxes lie in their vectors.
                unsafe { (job.copy_part)(&job, k) };
            }
            assert_eq!(&block[1..block.len() - 1], &expected[..], "{want} parts");
            assert_eq!((block[0], block[block.len() - 1]), (-1.0, -1.0));
        }
        // Small copies stay whole.
        let job = Job {
            from: (base(&host), 0),
            to: (base(&host), 0),
            dims,
            complex: true,
            after: None,
            axis: 0,
            parts: 1,
            copy_part: Job::copy_part_of::<f64>,
        };
        assert_eq!(job.cut(8, 16).parts, 1);
    }

    fn base(re: usize, im: usize) -> Base {
        Base { re, im }
    }

    /// Tiles of one in-place array reach disjoint bytes; a box reaches from its lowest to its
    /// highest element, negative strides included; split complex arrays reach both halves.
    #[test]
    fn extents_of_boxes() {
        let b = base(0x1000, 0x1008);
        let tile = |first: isize| {
            let dims = [IoDim::new(4, 2 * 64, 2 * 64), IoDim::new(64, 2, 2)];
            Extent::of(b, first * 2 * 64, &dims, |d| d.os, true, 8)
        };
        let (t0, t1) = (tile(0), tile(4));
        assert_eq!((t0.lo, t0.hi), (0x1000, 0x1000 + 4 * 64 * 16));
        assert!(!t0.overlaps(t1) && !t1.overlaps(t0));
        assert!(t0.overlaps(t0));
        // Rows 3 and 4: the last of the first tile, the first of the second.
        let across = Extent::of(
            b,
            3 * 2 * 64,
            &[IoDim::new(2, 2 * 64, 0)],
            |d| d.is,
            true,
            8,
        );
        assert!(across.overlaps(t0) && across.overlaps(t1));
        // A reversed axis reaches below its offset.
        let back = Extent::of(b, 10, &[IoDim::new(3, -2, 0)], |d| d.is, false, 8);
        assert_eq!((back.lo, back.hi), (0x1000 + 6 * 8, 0x1000 + 11 * 8));
        // Split arrays: the real and the imaginary parts' spans.
        let split = Extent::of(
            base(0x1000, 0x9000),
            0,
            &[IoDim::new(4, 1, 0)],
            |d| d.is,
            true,
            4,
        );
        assert_eq!((split.lo, split.hi), (0x1000, 0x9000 + 16));
        // Empty boxes reach their first element only (and move nothing).
        let none = Extent::of(b, 0, &[IoDim::new(0, 2, 2)], |d| d.is, true, 8);
        assert_eq!((none.lo, none.hi), (0x1000, 0x1010));
    }

    /// Column tiles of one array (an out-of-card round's, 16 rows of 256 complex f64, tiles of
    /// 16 columns) interleave their spans but share no byte; overlapping columns do; boxes of
    /// other strides, or split arrays, fall back to the spans.
    #[test]
    fn column_tiles_are_apart_though_their_spans_interleave() {
        let b = base(0x1000, 0x1008);
        let tile = |first: isize, columns: isize, rows: isize| {
            let dims = [IoDim::new(rows, 2 * 256, 0), IoDim::new(columns, 2, 0)];
            Extent::of(b, 2 * first, &dims, |d| d.is, true, 8)
        };
        let t0 = tile(0, 16, 16);
        // (box, whether it is told apart from t0)
        for (other, apart) in [
            (tile(16, 16, 16), true),
            (tile(240, 16, 16), true),
            (tile(16, 7, 16), true),
            (tile(32, 16, 3), true),
            // Columns in common.
            (tile(8, 16, 16), false),
            (tile(15, 1, 16), false),
            // Apart, but the test is only sufficient: columns the width of the rows away,
            // or tiles that start on another row, wait for t0.
            (tile(255, 1, 16), false),
            (tile(256 + 16, 16, 2), false),
        ] {
            assert!(t0.lo < other.hi && other.lo < t0.hi, "spans interleave");
            assert_eq!(t0.overlaps(other), !apart, "{other:?}");
            assert_eq!(other.overlaps(t0), !apart, "{other:?}");
        }
        // Another stride: the spans decide.
        let rows = Extent::of(b, 2 * 16, &[IoDim::new(16, 2 * 256, 0)], |d| d.is, true, 8);
        assert!(t0.overlaps(rows));
        // Split arrays: the spans decide.
        let split = |first: isize| {
            let dims = [IoDim::new(16, 256, 0), IoDim::new(16, 1, 0)];
            Extent::of(base(0x1000, 0x9000), first, &dims, |d| d.is, true, 8)
        };
        assert!(split(0).overlaps(split(16)));
    }
}
