//! Running jobs on several threads: fftx's persistent pool, or the caller's parallel loop when a
//! program installed one with `fftw_threads_set_callback` (FFTW's hook for OpenMP/TBB runtimes).
//!
//! The pool's threads are started on first use (as many as the largest thread count asked for,
//! less the caller's own) and live for the process. A call publishes a task of ranges; idle
//! workers and the calling thread claim ranges from it with an atomic counter, so a call always
//! finishes even when every worker is busy elsewhere (the caller then runs its ranges alone), and
//! concurrent calls from several application threads share the workers. After a task, a worker
//! spins briefly for the next one (an execute runs several parallel stages back to back) and then
//! sleeps on the pool's task counter ([`doorbell`]), so an idle pool costs nothing.
//!
//! A job that itself calls `parallel_for` runs the nested call inline on its own thread: nesting
//! never waits on the pool, so it cannot deadlock.

use crate::abi::fftw_parallel_loop;
use parking_lot::{Mutex, RwLock};
use std::any::Any;
use std::cell::Cell;
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::Thread;

#[derive(Clone, Copy)]
struct Callback {
    parallel_loop: fftw_parallel_loop,
    data: usize,
}

/// One slot shared by both precisions: a program installs its runtime's loop once.
static CALLBACK: RwLock<Option<Callback>> = RwLock::new(None);

/// `fftw_threads_set_callback`: `None` restores fftx's own threads.
pub fn set_callback(parallel_loop: fftw_parallel_loop, data: *mut libc::c_void) {
    *CALLBACK.write() = parallel_loop.map(|_| Callback {
        parallel_loop,
        data: data as usize,
    });
}

thread_local! {
    /// Set while this thread runs a job of `parallel_for` (a pool worker's, a callback loop's or
    /// the caller's own share): nested calls then run inline.
    static IN_JOB: Cell<bool> = const { Cell::new(false) };
}

/// Marks the current thread as running a job until dropped (also on unwinding).
struct InJob(bool);
impl InJob {
    fn enter() -> Self {
        InJob(IN_JOB.with(|c| c.replace(true)))
    }
}
impl Drop for InJob {
    fn drop(&mut self) {
        let was = self.0;
        IN_JOB.with(|c| c.set(was));
    }
}

/// The cores this process may use, asked once (`available_parallelism` reads the cgroup
/// files: about 10 µs, which a per-execute or per-copy question would pay every time).
pub fn cores() -> usize {
    static CORES: once_cell::sync::Lazy<usize> =
        once_cell::sync::Lazy::new(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    *CORES
}

/// Runs `f` over `0..njobs`, split into at most `threads` contiguous ranges that may run at once
/// (each range is one call of `f`). Returns when every range is done. A panic in a job is
/// re-raised here (the C boundary catches it).
pub fn parallel_for(threads: usize, njobs: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
    let workers = threads.min(njobs);
    if workers <= 1 || IN_JOB.with(|c| c.get()) {
        if njobs > 0 {
            let _job = InJob::enter();
            f(0..njobs);
        }
        return;
    }
    let callback = *CALLBACK.read();
    match callback {
        Some(cb) => run_with_callback(cb, njobs, workers, f),
        None => pool().run(njobs, workers, f),
    }
}

/// Runs `f(w, chunk)` over contiguous chunks of `0..njobs`, in order, on up to `threads`
/// workers: each worker `w` claims the next chunk from a shared counter until none is left, and
/// `w` runs on one thread at a time, so it may pick per-worker scratch. Chunks of about a
/// quarter of a worker's share keep neighbouring blocks of a pass on one core (handing out
/// single blocks interleaved two cores' writes along the same rows, and made a strided pass 3x
/// slower at 2 threads on a 2-core VM: c2r f64 128³'s axis-0 pass 7.0 ms against 2.2 ms,
/// 2026-11-28), while a worker that starts late or shares its core still leaves its chunks to
/// the others (a whole share per worker made CPU plans up to 1.7x slower in a process that also
/// ran GPU plans, on the H200 box's 16-core host: r2c f32 128³ 1.58 ms against 0.93 ms).
pub fn for_each_chunk(threads: usize, njobs: usize, f: &(dyn Fn(usize, Range<usize>) + Sync)) {
    let workers = threads.min(njobs).max(1);
    let chunk = njobs.div_ceil(workers * CHUNKS_PER_WORKER).max(1);
    let next = AtomicUsize::new(0);
    parallel_for(workers, workers, &|ws| {
        for w in ws {
            loop {
                let first = next.fetch_add(chunk, Ordering::Relaxed);
                if first >= njobs {
                    break;
                }
                f(w, first..(first + chunk).min(njobs));
            }
        }
    });
}

/// Chunks per worker in [`for_each_chunk`], were the work even.
const CHUNKS_PER_WORKER: usize = 4;

/// Range `w` of `workers` near-equal contiguous ranges of `0..njobs`.
fn range_of(w: usize, workers: usize, njobs: usize) -> Range<usize> {
    (w * njobs / workers)..((w + 1) * njobs / workers)
}

/// A `parallel_for` call as the pool sees it.
struct Task {
    /// The caller's closure, its lifetime erased: it is called only for ranges claimed below
    /// `workers`, and the caller returns only after all of those have finished.
    f: *const (dyn Fn(Range<usize>) + Sync + 'static),
    njobs: usize,
    workers: usize,
    /// Next range to claim.
    next: AtomicUsize,
    /// Ranges not finished yet.
    left: AtomicUsize,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    caller: Thread,
}

// SAFETY: `f` points to a `Sync` closure that outlives every call made through it (see `f`).
unsafe impl Send for Task {}
unsafe impl Sync for Task {}

impl Task {
    /// Claims and runs one range; false when none is left to claim.
    fn run_one(&self) -> bool {
        let w = self.next.fetch_add(1, Ordering::Relaxed);
        if w >= self.workers {
            return false;
        }
        let range = range_of(w, self.workers, self.njobs);
        // SAFETY: a claimed range below `workers`: the caller is still waiting for it.
        let f = unsafe { &*self.f };
        let result = {
            let _job = InJob::enter();
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(range)))
        };
        if let Err(p) = result {
            self.panic.lock().get_or_insert(p);
        }
        if self.left.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.caller.unpark();
        }
        true
    }
    fn exhausted(&self) -> bool {
        self.next.load(Ordering::Relaxed) >= self.workers
    }
}

struct Pool {
    queue: Mutex<VecDeque<Arc<Task>>>,
    /// Tasks pushed so far, wrapping (lets spinning workers notice new work without the lock;
    /// sleeping workers wait on it).
    pushed: AtomicU32,
    /// Worker threads started.
    started: Mutex<usize>,
    sleeping: AtomicUsize,
    /// A thread could not be started: the pool stays as it is.
    spawn_failed: AtomicBool,
}

fn pool() -> &'static Pool {
    static POOL: once_cell::sync::Lazy<Pool> = once_cell::sync::Lazy::new(|| Pool {
        queue: Mutex::new(VecDeque::new()),
        pushed: AtomicU32::new(0),
        started: Mutex::new(0),
        sleeping: AtomicUsize::new(0),
        spawn_failed: AtomicBool::new(false),
    });
    &POOL
}

impl Pool {
    fn run(&'static self, njobs: usize, workers: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
        self.grow(workers - 1);
        // SAFETY: lifetime erasure only; see `Task::f`.
        let f: &'static (dyn Fn(Range<usize>) + Sync) = unsafe { std::mem::transmute(f) };
        let task = Arc::new(Task {
            f,
            njobs,
            workers,
            next: AtomicUsize::new(0),
            left: AtomicUsize::new(workers),
            panic: Mutex::new(None),
            caller: std::thread::current(),
        });
        {
            let mut q = self.queue.lock();
            q.push_back(task.clone());
            self.pushed.fetch_add(1, Ordering::Release);
        }
        if self.sleeping.load(Ordering::Acquire) > 0 {
            doorbell::wake(&self.pushed, workers - 1);
        }
        // The caller works too, then waits for the ranges workers took.
        while task.run_one() {}
        let t0 = std::time::Instant::now();
        while task.left.load(Ordering::Acquire) != 0 {
            if t0.elapsed() < doorbell::SPIN {
                std::hint::spin_loop();
            } else {
                std::thread::park();
            }
        }
        {
            // Drop it from the queue if no worker did (it is exhausted).
            let mut q = self.queue.lock();
            if let Some(i) = q.iter().position(|t| Arc::ptr_eq(t, &task)) {
                q.remove(i);
            }
        }
        let panic = task.panic.lock().take();
        if let Some(p) = panic {
            std::panic::resume_unwind(p);
        }
    }

    /// Starts workers until there are `n`.
    fn grow(&'static self, n: usize) {
        if self.spawn_failed.load(Ordering::Relaxed) {
            return;
        }
        let mut started = self.started.lock();
        while *started < n {
            let spawned = std::thread::Builder::new()
                .name(format!("fftx-{}", *started))
                .spawn(move || self.work());
            if spawned.is_err() {
                // The calls still complete: their callers run the ranges no worker takes.
                self.spawn_failed.store(true, Ordering::Relaxed);
                crate::log::log_warn!("could not start a worker thread; running with {started}");
                return;
            }
            *started += 1;
        }
    }

    fn work(&'static self) {
        let mut seen = self.pushed.load(Ordering::Acquire);
        loop {
            let task = {
                let mut q = self.queue.lock();
                loop {
                    while q.front().is_some_and(|t| t.exhausted()) {
                        q.pop_front();
                    }
                    if let Some(t) = q.front() {
                        break t.clone();
                    }
                    // Nothing to do: spin a little outside the lock, then sleep.
                    drop(q);
                    doorbell::spin(&self.pushed, seen);
                    q = self.queue.lock();
                    if q.iter().all(|t| t.exhausted())
                        && self.pushed.load(Ordering::Acquire) == seen
                    {
                        // Counted as sleeping while the lock is held: a task pushed after
                        // this either finds the count and wakes us, or has changed `pushed`
                        // already, and the wait returns at once.
                        self.sleeping.fetch_add(1, Ordering::AcqRel);
                        drop(q);
                        doorbell::wait(&self.pushed, seen);
                        self.sleeping.fetch_sub(1, Ordering::AcqRel);
                        q = self.queue.lock();
                    }
                    seen = self.pushed.load(Ordering::Acquire);
                }
            };
            while task.run_one() {}
        }
    }
}

/// Waiting for a task counter to change, and waking the waiters of one.
///
/// On Linux a futex: one call wakes every sleeping worker at once, where a condition variable
/// woke them one `notify_one` at a time. On the H100 box's 16-core KVM guest the last of 15
/// sleeping workers started 100-250 µs after a stage began (a sleeping thread takes about
/// 50 µs to run there even alone); c2c f64 64³ in place at 16 threads, executes back to back,
/// took 0.29-0.35 ms a mean execute against 0.32-0.35 one by one (and 0.34-0.41 against
/// 0.49-0.75 on a noisier machine of the same kind); with 2 ms between executes, no change
/// (`bench/results/2026-11-27-h100-pool-wake.md`).
pub(crate) mod doorbell {
    use std::sync::atomic::{AtomicU32, Ordering};

    /// How long an idle thread (or a caller waiting for its workers) spins before it sleeps.
    pub const SPIN: std::time::Duration = std::time::Duration::from_micros(100);

    /// Spins while `word` holds `seen`, for at most [`SPIN`]; whether it changed.
    pub fn spin(word: &AtomicU32, seen: u32) -> bool {
        let t0 = std::time::Instant::now();
        while word.load(Ordering::Acquire) == seen {
            if t0.elapsed() >= SPIN {
                return false;
            }
            std::hint::spin_loop();
        }
        true
    }

    /// Changes `word` and wakes up to `n` threads waiting on it.
    pub fn ring(word: &AtomicU32, n: usize) {
        word.fetch_add(1, Ordering::Release);
        wake(word, n);
    }

    /// Sleeps while `word` holds `seen` (spurious returns are possible: callers recheck).
    pub fn wait(word: &AtomicU32, seen: u32) {
        #[cfg(target_os = "linux")]
        // SAFETY: FUTEX_WAIT reads the aligned u32 `word` refers to; no timeout.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                word.as_ptr(),
                libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
                seen,
                std::ptr::null::<libc::timespec>(),
            );
        }
        #[cfg(not(target_os = "linux"))]
        while word.load(std::sync::atomic::Ordering::Acquire) == seen {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
    }

    /// Wakes up to `n` threads waiting on `word` (after it changed).
    pub fn wake(word: &AtomicU32, n: usize) {
        #[cfg(target_os = "linux")]
        // SAFETY: FUTEX_WAKE only names the address.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                word.as_ptr(),
                libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
                n.min(i32::MAX as usize) as i32,
            );
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (word, n); // the waiters poll
    }
}

/// The job record handed to the caller's loop: FFTW passes `jobdata + i*elsize` to `work`.
#[repr(C)]
struct Job<'a> {
    f: &'a (dyn Fn(Range<usize>) + Sync),
    range: Range<usize>,
    panicked: bool,
}

unsafe extern "C" fn run_job(jobdata: *mut std::os::raw::c_char) -> *mut libc::c_void {
    // SAFETY: the caller's loop hands back the pointers of the Job array we built.
    let job = &mut *(jobdata as *mut Job<'_>);
    let (f, range) = (job.f, job.range.clone());
    let _job = InJob::enter();
    job.panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(range))).is_err();
    std::ptr::null_mut()
}

fn run_with_callback(
    cb: Callback,
    njobs: usize,
    workers: usize,
    f: &(dyn Fn(Range<usize>) + Sync),
) {
    let mut jobs: Vec<Job<'_>> = (0..workers)
        .map(|w| Job {
            f,
            range: range_of(w, workers, njobs),
            panicked: false,
        })
        .collect();
    let parallel_loop = cb.parallel_loop.expect("set_callback stores only Some");
    // SAFETY: FFTW's contract: the loop calls work(jobdata + i*elsize) once for each i < njobs
    // and returns after all have finished.
    unsafe {
        parallel_loop(
            Some(run_job),
            jobs.as_mut_ptr() as *mut std::os::raw::c_char,
            std::mem::size_of::<Job<'_>>(),
            jobs.len() as std::os::raw::c_int,
            cb.data as *mut libc::c_void,
        );
    }
    if jobs.iter().any(|j| j.panicked) {
        panic!("a job run by the fftw_threads_set_callback loop panicked");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn every_job_runs_once_and_nested_calls_finish() {
        for threads in [1, 2, 3, 8] {
            for njobs in [0, 1, 5, 64] {
                let hits: Vec<AtomicU64> = (0..njobs).map(|_| AtomicU64::new(0)).collect();
                parallel_for(threads, njobs, &|r| {
                    for j in r {
                        // a nested call inside a job
                        parallel_for(threads, 3, &|inner| {
                            hits[j].fetch_add(inner.len() as u64, Ordering::Relaxed);
                        });
                    }
                });
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 3));
            }
        }
    }

    #[test]
    fn chunks_cover_every_job_once_in_contiguous_runs_of_one_worker_at_a_time() {
        for threads in [1, 2, 3, 16] {
            for njobs in [0, 1, 7, 64, 260] {
                let owner: Vec<AtomicU64> = (0..njobs).map(|_| AtomicU64::new(u64::MAX)).collect();
                let busy: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
                let chunks = AtomicU64::new(0);
                for_each_chunk(threads, njobs, &|w, chunk| {
                    // worker w is never in two calls at once (its scratch is its own)
                    assert_eq!(
                        busy[w].fetch_add(1, Ordering::SeqCst),
                        0,
                        "worker {w} twice"
                    );
                    assert!(!chunk.is_empty() && chunk.end <= njobs);
                    for j in chunk {
                        let was = owner[j].swap(w as u64, Ordering::Relaxed);
                        assert_eq!(was, u64::MAX, "job {j} ran twice");
                    }
                    chunks.fetch_add(1, Ordering::Relaxed);
                    busy[w].fetch_sub(1, Ordering::SeqCst);
                });
                assert!(owner.iter().all(|o| o.load(Ordering::Relaxed) != u64::MAX));
                // about CHUNKS_PER_WORKER chunks a worker: contiguous runs, not single jobs
                let workers = threads.min(njobs).max(1) as u64;
                let most = workers * CHUNKS_PER_WORKER as u64;
                assert!(chunks.load(Ordering::Relaxed) <= most.min(njobs as u64));
            }
        }
    }

    #[test]
    fn concurrent_callers_share_the_pool() {
        let total = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..200 {
                        parallel_for(4, 16, &|r| {
                            total.fetch_add(r.len() as u64, Ordering::Relaxed);
                        });
                    }
                });
            }
        });
        assert_eq!(total.load(Ordering::Relaxed), 8 * 200 * 16);
    }

    #[test]
    fn a_panic_in_a_job_reaches_the_caller() {
        let r = std::panic::catch_unwind(|| {
            parallel_for(4, 4, &|r| {
                if r.contains(&2) {
                    panic!("job 2");
                }
            })
        });
        assert!(r.is_err());
        // the pool still works
        let n = AtomicU64::new(0);
        parallel_for(4, 4, &|r| {
            n.fetch_add(r.len() as u64, Ordering::Relaxed);
        });
        assert_eq!(n.load(Ordering::Relaxed), 4);
    }

    #[test]
    fn sleeping_workers_wake_for_a_new_task() {
        // Workers that slept past their spin must come back: each range waits until four
        // threads have arrived (the caller alone would time out).
        for _ in 0..3 {
            std::thread::sleep(doorbell::SPIN * 20);
            let arrived = AtomicUsize::new(0);
            let all_came = AtomicUsize::new(0);
            parallel_for(4, 4, &|_| {
                arrived.fetch_add(1, Ordering::AcqRel);
                let t0 = std::time::Instant::now();
                while arrived.load(Ordering::Acquire) < 4 {
                    if t0.elapsed() > std::time::Duration::from_secs(10) {
                        return;
                    }
                    std::thread::yield_now();
                }
                all_came.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(all_came.load(Ordering::Relaxed), 4);
        }
    }
}
