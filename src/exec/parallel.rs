//! Running jobs on several threads: our own scoped threads, or the caller's parallel loop when a
//! program installed one with `fftw_threads_set_callback` (FFTW's hook for OpenMP/TBB runtimes).

use crate::abi::fftw_parallel_loop;
use parking_lot::RwLock;
use std::ops::Range;

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

/// Runs `f` over `0..njobs`, split into at most `threads` contiguous ranges that run at once.
/// Returns when every job is done. A panic in a job is re-raised here (the C boundary catches it).
pub fn parallel_for(threads: usize, njobs: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
    let workers = threads.min(njobs);
    if workers <= 1 {
        if njobs > 0 {
            f(0..njobs);
        }
        return;
    }
    let ranges: Vec<Range<usize>> = (0..workers)
        .map(|w| (w * njobs / workers)..((w + 1) * njobs / workers))
        .collect();
    let callback = *CALLBACK.read();
    match callback {
        Some(cb) => run_with_callback(cb, &ranges, f),
        None => std::thread::scope(|s| {
            let (first, rest) = ranges.split_first().expect("workers >= 2");
            let handles: Vec<_> = rest
                .iter()
                .cloned()
                .map(|r| s.spawn(move || f(r)))
                .collect();
            f(first.clone());
            for h in handles {
                if let Err(p) = h.join() {
                    std::panic::resume_unwind(p);
                }
            }
        }),
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
    job.panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(range))).is_err();
    std::ptr::null_mut()
}

fn run_with_callback(cb: Callback, ranges: &[Range<usize>], f: &(dyn Fn(Range<usize>) + Sync)) {
    let mut jobs: Vec<Job<'_>> = ranges
        .iter()
        .map(|r| Job {
            f,
            range: r.clone(),
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
