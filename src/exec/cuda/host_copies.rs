//! The host side of a Program run on the GPU: the copies between host memory that is not
//! pinned (or not laid out as the device side) and pinned staging blocks, done by copy threads
//! while the calling thread issues the steps.
//!
//! - A host-to-device transfer's gather runs ahead: when the calling thread reaches one, the
//!   copy threads also start the gathers of the next ones, up to the next step that writes host
//!   memory, so that gathers run side by side and the DMA engine never waits for the next block.
//! - A device-to-host transfer's DMA goes into a free block; a copy thread waits for it and
//!   scatters the block into host memory while the calling thread goes on.
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
use crate::exec::cpu::program::{host_transfer_on, Base};
use crate::problem::IoDim;
use crate::real::Real;
use cudarc::driver::sys as cu;
use parking_lot::{Condvar, Mutex};
use std::collections::{HashMap, VecDeque};
use std::marker::PhantomData;
use std::sync::Arc;
use std::thread::Scope;

/// Most staging blocks of one run (on the 16-core H100 box, 16 copy threads with two blocks
/// each moved pageable arrays 18-19% faster than 8: `bench/results/2026-11-26-h100-movers-ab.md`).
pub const MAX_BLOCKS: usize = 32;
/// Most pinned bytes of one run's blocks (the resident schedule copies 256 MiB blocks: 32 of
/// them would pin 8 GiB).
pub const MAX_PINNED: usize = MAX_BLOCKS * staging::BLOCK_BYTES;

/// The bytes `[lo, hi)` of host memory that a box reaches (for split complex arrays the span
/// from the lowest real to the highest imaginary byte: conservative, never too small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    lo: usize,
    hi: usize,
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
        };
        if complex {
            e.lo = e.lo.min(byte(base.im, lo));
            e.hi = e.hi.max(byte(base.im, hi + 1));
        }
        e
    }

    pub fn overlaps(self, o: Extent) -> bool {
        self.lo < o.hi && o.lo < self.hi
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

enum Job {
    Gather {
        from: (Base, isize),
        block: usize,
        dims: Vec<IoDim>,
        complex: bool,
    },
    Scatter {
        copied: usize,
        block: usize,
        to: (Base, isize),
        dims: Vec<IoDim>,
        complex: bool,
        step: usize,
    },
}

// SAFETY: plain addresses of memory the run keeps alive until every job is done, and an event
// handle usable from any thread of the context.
unsafe impl Send for Job {}

/// What the copy threads share with the calling thread.
#[derive(Default)]
pub struct Queue {
    state: Mutex<Shared>,
    work: Condvar,
    done: Condvar,
}

#[derive(Default)]
struct Shared {
    jobs: VecDeque<(usize, Job)>,
    finished: Vec<bool>,
    closed: bool,
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
pub struct HostCopies<'s, 'e, T: Real> {
    scope: &'s Scope<'s, 'e>,
    queue: &'e Queue,
    dev: Arc<Device>,
    threads: usize,
    spawned: usize,
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

impl<'s, 'e, T: Real> HostCopies<'s, 'e, T> {
    pub fn new(
        scope: &'s Scope<'s, 'e>,
        queue: &'e Queue,
        dev: Arc<Device>,
        specs: Vec<Option<Gather>>,
        writes_host: Vec<bool>,
    ) -> Self {
        // Two cores left to the thread that issues the steps and to the driver's: the DMAs
        // wait for the issuing thread.
        let threads = std::thread::available_parallelism().map_or(4, |n| n.get().saturating_sub(2));
        let steps = specs.len();
        HostCopies {
            scope,
            queue,
            dev,
            threads: threads.clamp(2, MAX_BLOCKS / 2),
            spawned: 0,
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
        let job = self.submit(Job::Scatter {
            copied: self.blocks[b].event as usize,
            block: self.blocks[b].pinned.ptr as usize,
            to: s.to,
            dims: s.dims,
            complex: s.complex,
            step: s.step,
        });
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
        while st.finished.iter().take(self.next_job).any(|&f| !f) {
            self.queue.done.wait(&mut st);
        }
        st.closed = true;
        self.queue.work.notify_all();
        for &s in &st.landed {
            self.landing[s] = Landing::Landed;
        }
        st.landed.clear();
        st.error.take().map_or(Ok(()), Err)
    }

    /// Per step, how far its write into host memory got; gives the blocks back to the pool
    /// (after the run's streams are idle).
    pub fn release(mut self) -> Vec<Landing> {
        let _ = self.drain();
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
        let job = self.submit(Job::Gather {
            from: g.from,
            block: self.blocks[b].pinned.ptr as usize,
            dims: g.dims,
            complex: g.complex,
        });
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

    fn submit(&mut self, job: Job) -> usize {
        let id = self.next_job;
        self.next_job += 1;
        let spawn = {
            let mut st = self.queue.state.lock();
            st.finished.push(false);
            st.jobs.push_back((id, job));
            self.queue.work.notify_one();
            st.idle == 0 && self.spawned < self.threads
        };
        if spawn {
            self.spawned += 1;
            let (queue, dev) = (self.queue, self.dev.clone());
            self.scope.spawn(move || copy_thread::<T>(queue, &dev));
        }
        id
    }

    /// Waits until one of `jobs` has finished; a copy thread's error, if any.
    fn wait_any(&mut self, jobs: &[usize]) -> Result<()> {
        let mut st = self.queue.state.lock();
        while !jobs.iter().any(|&j| st.finished[j]) {
            self.queue.done.wait(&mut st);
        }
        self.in_flight.retain(|&(j, _)| !st.finished[j]);
        st.error.take().map_or(Ok(()), Err)
    }

    fn wait(&mut self, job: usize) -> Result<()> {
        self.wait_any(&[job])
    }
}

impl<T: Real> Drop for HostCopies<'_, '_, T> {
    /// Closes the queue, so that the copy threads end with the run's scope even when the run
    /// unwinds.
    fn drop(&mut self) {
        self.queue.state.lock().closed = true;
        self.queue.work.notify_all();
    }
}

/// A copy thread: takes jobs until the run closes the queue.
fn copy_thread<T: Real>(q: &Queue, dev: &Device) {
    let bound = dev.bind();
    let mut st = q.state.lock();
    loop {
        let Some((id, job)) = st.jobs.pop_front() else {
            if st.closed {
                return;
            }
            st.idle += 1;
            q.work.wait(&mut st);
            st.idle -= 1;
            continue;
        };
        drop(st);
        let r = bound.clone().and_then(|()| {
            // SAFETY: the run keeps the memory of every job alive until it is done.
            unsafe { run_job::<T>(job) }
        });
        st = q.state.lock();
        match r {
            Ok(Some(step)) => st.landed.push(step),
            Ok(None) => {}
            Err(e) => {
                st.error.get_or_insert(e);
            }
        }
        st.finished[id] = true;
        q.done.notify_all();
    }
}

/// Runs a job on this thread; a scatter's step once it landed.
unsafe fn run_job<T: Real>(job: Job) -> Result<Option<usize>> {
    let unit = std::mem::size_of::<T>();
    let block = |p: usize| Base {
        re: p,
        im: p + unit,
    };
    match job {
        Job::Gather {
            from,
            block: b,
            dims,
            complex,
        } => {
            host_transfer_on::<T>(from, (block(b), 0), &dims, complex, 1);
            Ok(None)
        }
        Job::Scatter {
            copied,
            block: b,
            to,
            dims,
            complex,
            step,
        } => {
            check(
                cu::cuEventSynchronize(copied as cu::CUevent),
                "cuEventSynchronize",
            )?;
            host_transfer_on::<T>((block(b), 0), to, &dims, complex, 1);
            Ok(Some(step))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            t0,
            Extent {
                lo: 0x1000,
                hi: 0x1000 + 4 * 64 * 16
            }
        );
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
        assert_eq!(
            back,
            Extent {
                lo: 0x1000 + 6 * 8,
                hi: 0x1000 + 11 * 8
            }
        );
        // Split arrays: the real and the imaginary parts' spans.
        let split = Extent::of(
            base(0x1000, 0x9000),
            0,
            &[IoDim::new(4, 1, 0)],
            |d| d.is,
            true,
            4,
        );
        assert_eq!(
            split,
            Extent {
                lo: 0x1000,
                hi: 0x9000 + 16
            }
        );
        // Empty boxes reach their first element only (and move nothing).
        let none = Extent::of(b, 0, &[IoDim::new(0, 2, 2)], |d| d.is, true, 8);
        assert_eq!(
            none,
            Extent {
                lo: 0x1000,
                hi: 0x1010
            }
        );
    }
}
