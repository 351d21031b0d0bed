//! Randomized API fuzzer (issue 11): at least 10^6 calls into fftx per run, over every planner
//! family (basic 1d/2d/3d/nd, advanced `plan_many_*`, guru and guru64, interleaved and split) in
//! both precisions, every planner flag, every execute and new-array execute, destroy, and the
//! wisdom/threads/cleanup calls; on valid and invalid arguments (NULL, 0, negative, INT_MAX
//! ranks, overflowing sizes, bad kinds and signs, unknown flags, partly overlapping arrays,
//! new-array execute with the wrong arrays, double destroy, use after destroy).
//!
//! Each case is one random call (printed exactly, C-like, when it goes wrong) on arrays with
//! guard zones, where every scalar the plan does not address is a canary NaN. Checked:
//! - fftx plans exactly when FFTW 3.3.10 plans the same call on a copy of the same arrays (same
//!   alignment), where asking FFTW is safe and its answer defined: not where it crashes (NULL size
//!   pointers), recurses without end (negative strides, in place or not), aborts (some huge
//!   sizes), or answers by accident (WISDOM_ONLY outside the wisdom protocol below, partly
//!   overlapping arrays). Planning that measures runs FFTW's transforms, and FFTW crashes running
//!   some of its own plans, so FFTW is asked that in a child process. Where FFTW is not asked,
//!   fftx must return NULL on what cannot be planned, and survive;
//! - planning with ESTIMATE or WISDOM_ONLY never touches the arrays, and never reads inembed[0] /
//!   onembed[0] (placed in an unreadable page: a read faults, is counted, and goes on);
//! - after each execute (own arrays, repeatedly; new arrays of the same layout and alignment),
//!   every canary and guard is intact, an out-of-place input is unchanged where FFTW guarantees
//!   it, and the output matches FFTW's on the same input, planned on contiguous out-of-place
//!   arrays (relative L2 error <= TOL * log2 N; imaginary parts at self-conjugate r2c bins
//!   bit-exact where FFTW's are zero; c2r input Hermitian);
//! - new-array execute with arrays of another kind or NULL arrays, a plan through the other
//!   precision's API, destroyed or NULL plans, `fftw_execute` of plans of NULL arrays, any
//!   execute of a plan of nothing (howmany_rank INT_MAX, FFTW's `(dft-nop)`): no write at all;
//! - new-array execute on arrays whose in-placeness is not the plan's (in-place arrays for an
//!   out-of-place plan, separate arrays for an in-place one; FFTW leaves it undefined): the
//!   transform of the new input as the plan's strides lay it out, written to the output's
//!   elements only (an input element that is not an output one is kept);
//! - `fftw_execute_dft` on a split-DFT plan passes (in, in + 1, out, out + 1) as (ri, ii, ro, io)
//!   if the plan was made with ii - ri == io - ro == 1, else (in + 1, in, out + 1, out), as FFTW;
//! - transform rank INT_MAX: NULL, with n, dims, kinds and embeds unread (in an unreadable page);
//! - no panic anywhere (a panic hook counts them, worker threads included); no heap corruption
//!   (a guarded global allocator checks every Rust allocation, the library's own included, when
//!   it is freed, and measures what planning allocates); crashes and hangs print the case.
//!
//! `FFTX_FUZZ_CALLS` (default 10^6) sets how many calls into fftx to make, `FFTX_FUZZ_SEED` the
//! seed (random by default, always printed); `FFTX_FUZZ_CASE=i` replays case i of that seed
//! alone, verbosely, and `FFTX_FUZZ_FROM=i` starts the run there (for a crash that needs the
//! cases before it); `FFTX_FUZZ_TRACE=1` prints every case; `FFTX_FUZZ_SKIP=class,...` leaves
//! out mutation classes, `threads`, `huge`, or `measure` (everything under ESTIMATE), to look past
//! a crash while it is being fixed (a default run leaves nothing out). A heap corruption stops
//! the run (what follows it could crash anywhere). The test fails on any mismatch class not in
//! [`ALLOWED`].

#![allow(
    clippy::too_many_arguments,
    clippy::type_complexity,
    clippy::missing_transmute_annotations
)]

mod common;

use common::{dlopen, dlsym, Float, REFERENCE_LOCK};
use fftx::{fftw_iodim, fftw_iodim64};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::collections::{BTreeMap, HashSet};
use std::ffi::c_void;
use std::os::raw::{c_char, c_int, c_uint};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Mismatch classes accepted today, each with its reason (`*` matches anything). Anything else
/// fails the test.
const ALLOWED: &[(&str, &str)] = &[
    (
        "plan: planning allocated over 1 GiB (FFTW plans these in a few MiB) [*]",
        "Known limitation, kept visible: rustfft precomputes O(n) twiddle tables at plan time \
         (fftwf_plan_dft_1d(1<<28) takes 2 GiB and ~13 s; FFTW's twiddle generator needs a few \
         MiB). Listed in the README's differences; the huge class still checks these plans run.",
    ),
    (
        "plan: FFTW returns NULL, fftx plans (multi-dimensional c2r with PRESERVE_INPUT) [*]",
        "FFTW 3.3.10 has no input-preserving multi-dimensional c2r algorithm and returns NULL; \
         fftx has one (tests/api.rs plans one), and its results are checked here like any other.",
    ),
    (
        "plan: FFTW returns NULL, fftx plans (a beyond-guru flag) [*]",
        "FFTW's undocumented beyond-guru flags (FFTW_NO_BUFFERING, ...) forbid some of FFTW's own \
         algorithms, so FFTW fails on problems that need them; fftx's algorithms are others, and \
         its results are checked.",
    ),
    (
        "plan: FFTW returns NULL, fftx plans (in-place *) [*]",
        "In-place layouts FFTW 3.3.10 has no algorithm for (r2c/c2r whose last dimension is not \
         the innermost, split r2c/c2r, rank-0 transposes, input and output strides that \
         differ; each its own label, and a plain in-place call FFTW refuses is a mismatch): \
         fftx plans them, and its results are checked against FFTW's on the same data \
         out of place.",
    ),
    (
        "plan: FFTW returns NULL, fftx plans (nothing to transform (a loop of 0)) [*]",
        "FFTW 3.3.10 returns NULL for some problems whose loop of 0 leaves nothing to transform \
         (where none of its solvers takes the layout); fftx plans them, as plans of nothing, and \
         they are checked to write nothing.",
    ),
    (
        "plan: FFTW returns NULL, fftx plans (FFTW_CONSERVE_MEMORY) [*]",
        "FFTW_CONSERVE_MEMORY rules out some of FFTW's algorithms (for large primes, say), and \
         FFTW returns NULL where no other applies; fftx plans, and its results are checked.",
    ),
];

/// `*`-wildcard match.
fn glob(pattern: &str, s: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut rest = s;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else {
                return false;
            };
            rest = r;
        } else if i + 1 == parts.len() {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else {
                return false;
            };
            rest = &rest[at + part.len()..];
        }
    }
    rest.is_empty()
}

// ---------------------------------------------------------------------------------------------
// Heap guard: every Rust allocation of this process (fftx's too) gets guard bytes on both sides,
// checked when it is freed.

struct Guarded;

const HEAP_GUARD_BYTE: u8 = 0xA7;
static HEAP_CORRUPTIONS: AtomicUsize = AtomicUsize::new(0);
/// Bytes allocated now, and the most since last reset (to see what planning allocates).
static ALLOCATED: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

impl Guarded {
    /// Guard bytes on each side: 64, or 4 KiB around allocations of 4 KiB and more (arrays, whose
    /// overflows run further; a guard that absorbs them keeps malloc's own data intact).
    fn guard(l: Layout) -> usize {
        if l.size() < 4096 {
            64
        } else {
            4096
        }
    }
    /// The allocation with guards, and the offset of the caller's block in it.
    fn outer(l: Layout) -> Option<(Layout, usize)> {
        let pre = Self::guard(l).max(l.align());
        let size = l.size().checked_add(pre + Self::guard(l))?;
        Some((Layout::from_size_align(size, l.align()).ok()?, pre))
    }
}

unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let Some((outer, pre)) = Self::outer(l) else {
            return std::ptr::null_mut();
        };
        let base = System.alloc(outer);
        if base.is_null() {
            return base;
        }
        std::ptr::write_bytes(base, HEAP_GUARD_BYTE, pre);
        std::ptr::write_bytes(base.add(pre + l.size()), HEAP_GUARD_BYTE, Self::guard(l));
        let now = ALLOCATED.fetch_add(l.size(), Ordering::Relaxed) + l.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        base.add(pre)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        let (outer, pre) = Self::outer(l).unwrap();
        let base = p.sub(pre);
        let head = std::slice::from_raw_parts(base, pre);
        let tail = std::slice::from_raw_parts(p.add(l.size()), Self::guard(l));
        if head.iter().chain(tail).any(|&b| b != HEAP_GUARD_BYTE) {
            HEAP_CORRUPTIONS.fetch_add(1, Ordering::SeqCst);
        }
        ALLOCATED.fetch_sub(l.size(), Ordering::Relaxed);
        System.dealloc(base, outer);
    }
}

#[global_allocator]
static ALLOCATOR: Guarded = Guarded;

// ---------------------------------------------------------------------------------------------
// What is running now, for crash (signal) and hang (watchdog) reports.

const NOTE_LEN: usize = 8192;
struct Note(UnsafeCell<[u8; NOTE_LEN]>, AtomicUsize);
// SAFETY: written by the fuzzing thread only; read by a signal handler or the watchdog, which at
// worst print a torn message.
unsafe impl Sync for Note {}
static NOTE: Note = Note(UnsafeCell::new([0; NOTE_LEN]), AtomicUsize::new(0));
static PROGRESS: AtomicU64 = AtomicU64::new(0);
static PANICS: AtomicUsize = AtomicUsize::new(0);
static PANIC_MESSAGES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn set_note(s: &str) {
    let b = s.as_bytes();
    let n = b.len().min(NOTE_LEN);
    NOTE.1.store(0, Ordering::SeqCst);
    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), NOTE.0.get() as *mut u8, n) };
    NOTE.1.store(n, Ordering::SeqCst);
}

fn note() -> String {
    let n = NOTE.1.load(Ordering::SeqCst);
    let bytes = unsafe { std::slice::from_raw_parts(NOTE.0.get() as *const u8, n) };
    String::from_utf8_lossy(bytes).into_owned()
}

// Embed arrays whose entry 0 (which FFTW never reads) lies in a page that cannot be read: two
// (inembed, onembed) pairs of pages, [unreadable | readable]; the array starts 4 bytes before
// the readable page. A read of entry 0 faults; the handler counts it, opens the page, returns.
// A third pair holds whole arrays that must not be read at all (the n, dims, kinds and embed
// arrays of a call whose transform rank is INT_MAX), one slot of `TRAP_SLOT` bytes each.
static TRAP: AtomicUsize = AtomicUsize::new(0);
static TRAP_HITS: AtomicUsize = AtomicUsize::new(0);
const PAGE: usize = 4096;
const TRAP_PAGES: usize = 6;
const TRAP_SLOT: usize = 512;

fn trap_init() {
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            TRAP_PAGES * PAGE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(p, libc::MAP_FAILED);
    TRAP.store(p as usize, Ordering::SeqCst);
}

/// `e` placed with entry 0 unreadable (`which`: 0 inembed, 1 onembed).
fn trap_embed(which: usize, e: &[i32]) -> *const c_int {
    let guard = TRAP.load(Ordering::SeqCst) + which * 2 * PAGE;
    let start = guard + PAGE - 4;
    unsafe {
        libc::mprotect(
            guard as *mut c_void,
            PAGE,
            libc::PROT_READ | libc::PROT_WRITE,
        );
        std::ptr::copy_nonoverlapping(e.as_ptr(), start as *mut i32, e.len());
        libc::mprotect(guard as *mut c_void, PAGE, libc::PROT_NONE);
    }
    start as *const c_int
}

/// `v` placed whole in slot `slot` of the third unreadable page (any read of it faults).
fn trap_whole<X: Copy>(slot: usize, v: &[X]) -> *const X {
    let bytes = std::mem::size_of_val(v);
    assert!(bytes <= TRAP_SLOT && (slot + 1) * TRAP_SLOT <= PAGE);
    let guard = TRAP.load(Ordering::SeqCst) + 4 * PAGE;
    let start = guard + slot * TRAP_SLOT;
    unsafe {
        libc::mprotect(
            guard as *mut c_void,
            PAGE,
            libc::PROT_READ | libc::PROT_WRITE,
        );
        std::ptr::copy_nonoverlapping(v.as_ptr() as *const u8, start as *mut u8, bytes);
        libc::mprotect(guard as *mut c_void, PAGE, libc::PROT_NONE);
    }
    start as *const X
}

unsafe fn write_str(s: &[u8]) {
    libc::write(2, s.as_ptr() as *const c_void, s.len());
}

extern "C" fn on_fatal_signal(sig: c_int, info: *mut libc::siginfo_t, _: *mut c_void) {
    unsafe {
        let base = TRAP.load(Ordering::SeqCst);
        if sig == libc::SIGSEGV && base != 0 {
            let addr = (*info).si_addr() as usize;
            let guard = addr.wrapping_sub(base) / PAGE;
            if addr >= base && guard < TRAP_PAGES && guard.is_multiple_of(2) {
                TRAP_HITS.fetch_add(1, Ordering::SeqCst);
                libc::mprotect((base + guard * PAGE) as *mut c_void, PAGE, libc::PROT_READ);
                return;
            }
        }
        // No allocation here: the fault may be inside malloc.
        let mut num = [0u8; 4];
        let digits = [b'0' + (sig / 10) as u8 % 10, b'0' + (sig % 10) as u8];
        num[..2].copy_from_slice(&digits);
        write_str(b"\n*** fuzz: signal ");
        write_str(&num[..2]);
        write_str(b" while running:\n");
        let n = NOTE.1.load(Ordering::SeqCst);
        libc::write(2, NOTE.0.get() as *const c_void, n);
        write_str(b"\n");
        libc::signal(sig, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(sig);
    }
}

fn install_crash_reporting() {
    trap_init();
    unsafe {
        for sig in [
            libc::SIGSEGV,
            libc::SIGBUS,
            libc::SIGABRT,
            libc::SIGFPE,
            libc::SIGILL,
        ] {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_fatal_signal as *const () as usize;
            sa.sa_flags = libc::SA_ONSTACK | libc::SA_SIGINFO;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        let thread = std::thread::current().name().unwrap_or("?").to_string();
        let mut m = PANIC_MESSAGES.lock().unwrap_or_else(|e| e.into_inner());
        if m.len() < 20 {
            m.push(format!("thread '{thread}': {info}"));
        }
        drop(m);
        previous(info);
    }));
    // A case that runs for minutes is a hang: say which, and stop.
    std::thread::spawn(|| {
        let (mut last, mut since) = (u64::MAX, Instant::now());
        loop {
            std::thread::sleep(Duration::from_secs(1));
            let now = PROGRESS.load(Ordering::SeqCst);
            if now != last {
                (last, since) = (now, Instant::now());
            } else if since.elapsed() > Duration::from_secs(120) {
                eprintln!(
                    "\n*** fuzz: no progress for 120 s (hang) while running:\n{}",
                    note()
                );
                std::process::abort();
            }
        }
    });
}

// ---------------------------------------------------------------------------------------------
// The FFTW API of one precision, untyped, from fftx (linked) or FFTW 3.3.10 (dlopen'd).

type A = *mut c_void;
type Pl = *mut c_void;
type Ip = *const c_int;

struct Guru<D> {
    dft: unsafe extern "C" fn(c_int, *const D, c_int, *const D, A, A, c_int, c_uint) -> Pl,
    split_dft: unsafe extern "C" fn(c_int, *const D, c_int, *const D, A, A, A, A, c_uint) -> Pl,
    r2c: unsafe extern "C" fn(c_int, *const D, c_int, *const D, A, A, c_uint) -> Pl,
    split_r2c: unsafe extern "C" fn(c_int, *const D, c_int, *const D, A, A, A, c_uint) -> Pl,
    c2r: unsafe extern "C" fn(c_int, *const D, c_int, *const D, A, A, c_uint) -> Pl,
    split_c2r: unsafe extern "C" fn(c_int, *const D, c_int, *const D, A, A, A, c_uint) -> Pl,
    r2r: unsafe extern "C" fn(c_int, *const D, c_int, *const D, A, A, Ip, c_uint) -> Pl,
}

struct Lib {
    dft_1d: unsafe extern "C" fn(c_int, A, A, c_int, c_uint) -> Pl,
    dft_2d: unsafe extern "C" fn(c_int, c_int, A, A, c_int, c_uint) -> Pl,
    dft_3d: unsafe extern "C" fn(c_int, c_int, c_int, A, A, c_int, c_uint) -> Pl,
    dft: unsafe extern "C" fn(c_int, Ip, A, A, c_int, c_uint) -> Pl,
    r2c_1d: unsafe extern "C" fn(c_int, A, A, c_uint) -> Pl,
    r2c_2d: unsafe extern "C" fn(c_int, c_int, A, A, c_uint) -> Pl,
    r2c_3d: unsafe extern "C" fn(c_int, c_int, c_int, A, A, c_uint) -> Pl,
    r2c: unsafe extern "C" fn(c_int, Ip, A, A, c_uint) -> Pl,
    c2r_1d: unsafe extern "C" fn(c_int, A, A, c_uint) -> Pl,
    c2r_2d: unsafe extern "C" fn(c_int, c_int, A, A, c_uint) -> Pl,
    c2r_3d: unsafe extern "C" fn(c_int, c_int, c_int, A, A, c_uint) -> Pl,
    c2r: unsafe extern "C" fn(c_int, Ip, A, A, c_uint) -> Pl,
    r2r_1d: unsafe extern "C" fn(c_int, A, A, c_int, c_uint) -> Pl,
    r2r_2d: unsafe extern "C" fn(c_int, c_int, A, A, c_int, c_int, c_uint) -> Pl,
    r2r_3d: unsafe extern "C" fn(c_int, c_int, c_int, A, A, c_int, c_int, c_int, c_uint) -> Pl,
    r2r: unsafe extern "C" fn(c_int, Ip, A, A, Ip, c_uint) -> Pl,
    many_dft: unsafe extern "C" fn(
        c_int,
        Ip,
        c_int,
        A,
        Ip,
        c_int,
        c_int,
        A,
        Ip,
        c_int,
        c_int,
        c_int,
        c_uint,
    ) -> Pl,
    many_r2c: unsafe extern "C" fn(
        c_int,
        Ip,
        c_int,
        A,
        Ip,
        c_int,
        c_int,
        A,
        Ip,
        c_int,
        c_int,
        c_uint,
    ) -> Pl,
    many_c2r: unsafe extern "C" fn(
        c_int,
        Ip,
        c_int,
        A,
        Ip,
        c_int,
        c_int,
        A,
        Ip,
        c_int,
        c_int,
        c_uint,
    ) -> Pl,
    many_r2r: unsafe extern "C" fn(
        c_int,
        Ip,
        c_int,
        A,
        Ip,
        c_int,
        c_int,
        A,
        Ip,
        c_int,
        c_int,
        Ip,
        c_uint,
    ) -> Pl,
    guru: Guru<fftw_iodim>,
    guru64: Guru<fftw_iodim64>,
    execute: unsafe extern "C" fn(Pl),
    destroy: unsafe extern "C" fn(Pl),
    execute_dft: unsafe extern "C" fn(Pl, A, A),
    execute_split_dft: unsafe extern "C" fn(Pl, A, A, A, A),
    execute_dft_r2c: unsafe extern "C" fn(Pl, A, A),
    execute_split_dft_r2c: unsafe extern "C" fn(Pl, A, A, A),
    execute_dft_c2r: unsafe extern "C" fn(Pl, A, A),
    execute_split_dft_c2r: unsafe extern "C" fn(Pl, A, A, A),
    execute_r2r: unsafe extern "C" fn(Pl, A, A),
    cleanup: unsafe extern "C" fn(),
    forget_wisdom: unsafe extern "C" fn(),
    export_wisdom_to_string: unsafe extern "C" fn() -> *mut c_char,
    /// fftx only (FFTW's is in libfftw3_threads, and threads never change what plans).
    plan_with_nthreads: Option<unsafe extern "C" fn(c_int)>,
}

macro_rules! ours_fn {
    ($p:ident, $name:ident) => {
        paste::paste! { std::mem::transmute(fftx::[<$p $name>] as *const ()) }
    };
}

macro_rules! ours_lib {
    ($p:ident) => {
        // SAFETY: the same C ABI; array pointer types differ only in pointee.
        unsafe {
            Lib {
                dft_1d: ours_fn!($p, plan_dft_1d),
                dft_2d: ours_fn!($p, plan_dft_2d),
                dft_3d: ours_fn!($p, plan_dft_3d),
                dft: ours_fn!($p, plan_dft),
                r2c_1d: ours_fn!($p, plan_dft_r2c_1d),
                r2c_2d: ours_fn!($p, plan_dft_r2c_2d),
                r2c_3d: ours_fn!($p, plan_dft_r2c_3d),
                r2c: ours_fn!($p, plan_dft_r2c),
                c2r_1d: ours_fn!($p, plan_dft_c2r_1d),
                c2r_2d: ours_fn!($p, plan_dft_c2r_2d),
                c2r_3d: ours_fn!($p, plan_dft_c2r_3d),
                c2r: ours_fn!($p, plan_dft_c2r),
                r2r_1d: ours_fn!($p, plan_r2r_1d),
                r2r_2d: ours_fn!($p, plan_r2r_2d),
                r2r_3d: ours_fn!($p, plan_r2r_3d),
                r2r: ours_fn!($p, plan_r2r),
                many_dft: ours_fn!($p, plan_many_dft),
                many_r2c: ours_fn!($p, plan_many_dft_r2c),
                many_c2r: ours_fn!($p, plan_many_dft_c2r),
                many_r2r: ours_fn!($p, plan_many_r2r),
                guru: Guru {
                    dft: ours_fn!($p, plan_guru_dft),
                    split_dft: ours_fn!($p, plan_guru_split_dft),
                    r2c: ours_fn!($p, plan_guru_dft_r2c),
                    split_r2c: ours_fn!($p, plan_guru_split_dft_r2c),
                    c2r: ours_fn!($p, plan_guru_dft_c2r),
                    split_c2r: ours_fn!($p, plan_guru_split_dft_c2r),
                    r2r: ours_fn!($p, plan_guru_r2r),
                },
                guru64: Guru {
                    dft: ours_fn!($p, plan_guru64_dft),
                    split_dft: ours_fn!($p, plan_guru64_split_dft),
                    r2c: ours_fn!($p, plan_guru64_dft_r2c),
                    split_r2c: ours_fn!($p, plan_guru64_split_dft_r2c),
                    c2r: ours_fn!($p, plan_guru64_dft_c2r),
                    split_c2r: ours_fn!($p, plan_guru64_split_dft_c2r),
                    r2r: ours_fn!($p, plan_guru64_r2r),
                },
                execute: ours_fn!($p, execute),
                destroy: ours_fn!($p, destroy_plan),
                execute_dft: ours_fn!($p, execute_dft),
                execute_split_dft: ours_fn!($p, execute_split_dft),
                execute_dft_r2c: ours_fn!($p, execute_dft_r2c),
                execute_split_dft_r2c: ours_fn!($p, execute_split_dft_r2c),
                execute_dft_c2r: ours_fn!($p, execute_dft_c2r),
                execute_split_dft_c2r: ours_fn!($p, execute_split_dft_c2r),
                execute_r2r: ours_fn!($p, execute_r2r),
                cleanup: ours_fn!($p, cleanup),
                forget_wisdom: ours_fn!($p, forget_wisdom),
                export_wisdom_to_string: ours_fn!($p, export_wisdom_to_string),
                plan_with_nthreads: Some(ours_fn!($p, plan_with_nthreads)),
            }
        }
    };
}

fn fftw_lib(prefix: &str) -> Lib {
    let h = dlopen(if prefix == "fftw_" {
        "libfftw3.so.3"
    } else {
        "libfftw3f.so.3"
    });
    macro_rules! s {
        ($name:expr) => {
            dlsym(h, &format!("{prefix}{}", $name))
        };
    }
    Lib {
        dft_1d: s!("plan_dft_1d"),
        dft_2d: s!("plan_dft_2d"),
        dft_3d: s!("plan_dft_3d"),
        dft: s!("plan_dft"),
        r2c_1d: s!("plan_dft_r2c_1d"),
        r2c_2d: s!("plan_dft_r2c_2d"),
        r2c_3d: s!("plan_dft_r2c_3d"),
        r2c: s!("plan_dft_r2c"),
        c2r_1d: s!("plan_dft_c2r_1d"),
        c2r_2d: s!("plan_dft_c2r_2d"),
        c2r_3d: s!("plan_dft_c2r_3d"),
        c2r: s!("plan_dft_c2r"),
        r2r_1d: s!("plan_r2r_1d"),
        r2r_2d: s!("plan_r2r_2d"),
        r2r_3d: s!("plan_r2r_3d"),
        r2r: s!("plan_r2r"),
        many_dft: s!("plan_many_dft"),
        many_r2c: s!("plan_many_dft_r2c"),
        many_c2r: s!("plan_many_dft_c2r"),
        many_r2r: s!("plan_many_r2r"),
        guru: Guru {
            dft: s!("plan_guru_dft"),
            split_dft: s!("plan_guru_split_dft"),
            r2c: s!("plan_guru_dft_r2c"),
            split_r2c: s!("plan_guru_split_dft_r2c"),
            c2r: s!("plan_guru_dft_c2r"),
            split_c2r: s!("plan_guru_split_dft_c2r"),
            r2r: s!("plan_guru_r2r"),
        },
        guru64: Guru {
            dft: s!("plan_guru64_dft"),
            split_dft: s!("plan_guru64_split_dft"),
            r2c: s!("plan_guru64_dft_r2c"),
            split_r2c: s!("plan_guru64_split_dft_r2c"),
            c2r: s!("plan_guru64_dft_c2r"),
            split_c2r: s!("plan_guru64_split_dft_c2r"),
            r2r: s!("plan_guru64_r2r"),
        },
        execute: s!("execute"),
        destroy: s!("destroy_plan"),
        execute_dft: s!("execute_dft"),
        execute_split_dft: s!("execute_split_dft"),
        execute_dft_r2c: s!("execute_dft_r2c"),
        execute_split_dft_r2c: s!("execute_split_dft_r2c"),
        execute_dft_c2r: s!("execute_dft_c2r"),
        execute_split_dft_c2r: s!("execute_split_dft_c2r"),
        execute_r2r: s!("execute_r2r"),
        cleanup: s!("cleanup"),
        forget_wisdom: s!("forget_wisdom"),
        export_wisdom_to_string: s!("export_wisdom_to_string"),
        plan_with_nthreads: None,
    }
}

/// fftx and FFTW in one precision.
struct Libs {
    ours: Lib,
    fftw: Lib,
}

// ---------------------------------------------------------------------------------------------
// Scalars with a canary value: a NaN no transform produces, compared bit for bit.

trait Scalar: Float {
    fn bits(self) -> u64;
    fn canary() -> Self;
    fn cache(cx: &mut Ctx) -> &mut RefCache<Self>;
}
impl Scalar for f64 {
    fn cache(cx: &mut Ctx) -> &mut RefCache<Self> {
        &mut cx.refs64
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
    fn canary() -> Self {
        f64::from_bits(0x7FF8_DEAD_BEEF_0F0F)
    }
}
impl Scalar for f32 {
    fn cache(cx: &mut Ctx) -> &mut RefCache<Self> {
        &mut cx.refs32
    }
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
    fn canary() -> Self {
        f32::from_bits(0x7FDE_ADBE)
    }
}

// ---------------------------------------------------------------------------------------------
// One call into a planner, exactly as made (and printed).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fam {
    Dft,
    R2c,
    C2r,
    R2r,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Iface {
    B1,
    B2,
    B3,
    Bn,
    Many,
    Guru,
    Guru64,
}

/// An array argument: NULL, or buffer `b` at scalar offset `off` from its (64-byte aligned) start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ptr {
    Null,
    At(usize, isize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct D3 {
    n: i64,
    is: i64,
    os: i64,
}

#[derive(Clone, Debug)]
struct Call {
    double: bool,
    fam: Fam,
    split: bool,
    iface: Iface,
    rank: i32,
    /// Basic and advanced: the n array (None: a NULL pointer).
    n: Option<Vec<i32>>,
    howmany: i32,
    inembed: Option<Vec<i32>>,
    istride: i32,
    idist: i32,
    onembed: Option<Vec<i32>>,
    ostride: i32,
    odist: i32,
    /// Guru: dims and howmany dims (None: a NULL pointer), in the API's units.
    dims: Option<Vec<D3>>,
    hrank: i32,
    hdims: Option<Vec<D3>>,
    kinds: Option<Vec<i32>>,
    /// Advanced interface: inembed/onembed passed with entry 0 in an unreadable page.
    embed_trap: bool,
    /// n, dims, howmany dims, kinds, inembed and onembed passed whole in an unreadable page
    /// (nothing of them may be read).
    unread: bool,
    sign: i32,
    flags: u32,
    /// Array arguments in C order: in, out (interleaved or real); ri, ii, ro, io (split dft);
    /// in, ro, io (split r2c); ri, ii, out (split c2r).
    args: Vec<Ptr>,
}

const ESTIMATE: u32 = fftx::FFTW_ESTIMATE;
const MEASURE: u32 = fftx::FFTW_MEASURE;
const PATIENT: u32 = fftx::FFTW_PATIENT;
const EXHAUSTIVE: u32 = fftx::FFTW_EXHAUSTIVE;
const WISDOM_ONLY: u32 = fftx::FFTW_WISDOM_ONLY;
const DESTROY: u32 = fftx::FFTW_DESTROY_INPUT;
const PRESERVE: u32 = fftx::FFTW_PRESERVE_INPUT;

fn flags_text(f: u32) -> String {
    let names: &[(u32, &str)] = &[
        (ESTIMATE, "ESTIMATE"),
        (PATIENT, "PATIENT"),
        (EXHAUSTIVE, "EXHAUSTIVE"),
        (WISDOM_ONLY, "WISDOM_ONLY"),
        (DESTROY, "DESTROY_INPUT"),
        (PRESERVE, "PRESERVE_INPUT"),
        (fftx::FFTW_UNALIGNED, "UNALIGNED"),
        (fftx::FFTW_CONSERVE_MEMORY, "CONSERVE_MEMORY"),
    ];
    let mut parts: Vec<String> = Vec::new();
    if f & (ESTIMATE | PATIENT | EXHAUSTIVE) == 0 {
        parts.push("FFTW_MEASURE".into());
    }
    let mut rest = f;
    for &(bit, name) in names {
        if f & bit != 0 {
            parts.push(format!("FFTW_{name}"));
            rest &= !bit;
        }
    }
    if rest != 0 {
        parts.push(format!("{rest:#x}"));
    }
    parts.join("|")
}

fn ptr_text(p: Ptr) -> String {
    match p {
        Ptr::Null => "NULL".into(),
        Ptr::At(b, o) => format!("b{b}+{o}"),
    }
}

fn ints_text(v: &Option<Vec<i32>>) -> String {
    match v {
        None => "NULL".into(),
        Some(v) => format!(
            "(int[]){{{}}}",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

impl Call {
    fn family(&self) -> &'static str {
        match (self.fam, self.split) {
            (Fam::Dft, false) => "dft",
            (Fam::Dft, true) => "split-dft",
            (Fam::R2c, false) => "r2c",
            (Fam::R2c, true) => "split-r2c",
            (Fam::C2r, false) => "c2r",
            (Fam::C2r, true) => "split-c2r",
            (Fam::R2r, _) => "r2r",
        }
    }

    fn embed_text(&self, e: &Option<Vec<i32>>) -> String {
        match e {
            Some(v) if self.embed_trap && !v.is_empty() => {
                let rest: Vec<String> = v[1..].iter().map(|x| x.to_string()).collect();
                format!(
                    "(int[]){{<entry 0 unreadable>{}{}}}",
                    if rest.is_empty() { "" } else { "," },
                    rest.join(",")
                )
            }
            _ => ints_text(e),
        }
    }

    /// The call as C source (pointers as buffer + scalar offset).
    fn text(&self) -> String {
        let t = self.text_call();
        if self.unread {
            let arrays = "n, dims, howmany dims, kinds, inembed, onembed";
            format!("{t} /* {arrays}: each in an unreadable page */")
        } else {
            t
        }
    }

    fn text_call(&self) -> String {
        let p = if self.double { "fftw_" } else { "fftwf_" };
        let arrays = self
            .args
            .iter()
            .map(|&a| ptr_text(a))
            .collect::<Vec<_>>()
            .join(", ");
        let nv = |i: usize| self.n.as_ref().map_or("?".into(), |v| v[i].to_string());
        let kv = |i: usize| self.kinds.as_ref().map_or("?".into(), |v| v[i].to_string());
        let fl = flags_text(self.flags);
        let (sign, kinds) = (self.sign, ints_text(&self.kinds));
        let fixed = |r: usize| (0..r).map(nv).collect::<Vec<_>>().join(", ");
        let fixed_kinds = |r: usize| (0..r).map(kv).collect::<Vec<_>>().join(", ");
        let base = match self.fam {
            Fam::Dft => "dft",
            Fam::R2c => "dft_r2c",
            Fam::C2r => "dft_c2r",
            Fam::R2r => "r2r",
        };
        match self.iface {
            Iface::B1 | Iface::B2 | Iface::B3 => {
                let r = match self.iface {
                    Iface::B1 => 1,
                    Iface::B2 => 2,
                    _ => 3,
                };
                match self.fam {
                    Fam::Dft => format!("{p}plan_dft_{r}d({}, {arrays}, {sign}, {fl})", fixed(r)),
                    Fam::R2r => format!(
                        "{p}plan_r2r_{r}d({}, {arrays}, {}, {fl})",
                        fixed(r),
                        fixed_kinds(r)
                    ),
                    _ => format!("{p}plan_{base}_{r}d({}, {arrays}, {fl})", fixed(r)),
                }
            }
            Iface::Bn => {
                let (r, n) = (self.rank, ints_text(&self.n));
                match self.fam {
                    Fam::Dft => format!("{p}plan_dft({r}, {n}, {arrays}, {sign}, {fl})"),
                    Fam::R2r => format!("{p}plan_r2r({r}, {n}, {arrays}, {kinds}, {fl})"),
                    _ => format!("{p}plan_{base}({r}, {n}, {arrays}, {fl})"),
                }
            }
            Iface::Many => {
                let a = |i: usize| self.args.get(i).map_or("?".into(), |&x| ptr_text(x));
                let body = format!(
                    "{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}",
                    self.rank,
                    ints_text(&self.n),
                    self.howmany,
                    a(0),
                    self.embed_text(&self.inembed),
                    self.istride,
                    self.idist,
                    a(1),
                    self.embed_text(&self.onembed),
                    self.ostride,
                    self.odist
                );
                let name = if self.fam == Fam::R2r {
                    "r2r".to_string()
                } else {
                    base.to_string()
                };
                match self.fam {
                    Fam::Dft => format!("{p}plan_many_{name}({body}, {sign}, {fl})"),
                    Fam::R2r => format!("{p}plan_many_{name}({body}, {kinds}, {fl})"),
                    _ => format!("{p}plan_many_{name}({body}, {fl})"),
                }
            }
            Iface::Guru | Iface::Guru64 => {
                let g = if self.iface == Iface::Guru {
                    "guru"
                } else {
                    "guru64"
                };
                let ty = if self.iface == Iface::Guru {
                    "fftw_iodim"
                } else {
                    "fftw_iodim64"
                };
                let dims = |v: &Option<Vec<D3>>| match v {
                    None => "NULL".to_string(),
                    Some(v) => format!(
                        "({ty}[]){{{}}}",
                        v.iter()
                            .map(|d| format!("{{{},{},{}}}", d.n, d.is, d.os))
                            .collect::<Vec<_>>()
                            .join(",")
                    ),
                };
                let head = format!(
                    "{}, {}, {}, {}",
                    self.rank,
                    dims(&self.dims),
                    self.hrank,
                    dims(&self.hdims)
                );
                let name = match (self.fam, self.split) {
                    (Fam::Dft, true) => "split_dft",
                    (Fam::R2c, true) => "split_dft_r2c",
                    (Fam::C2r, true) => "split_dft_c2r",
                    _ => base,
                };
                match self.fam {
                    Fam::Dft if !self.split => {
                        format!("{p}plan_{g}_{name}({head}, {arrays}, {sign}, {fl})")
                    }
                    Fam::R2r => format!("{p}plan_{g}_{name}({head}, {arrays}, {kinds}, {fl})"),
                    _ => format!("{p}plan_{g}_{name}({head}, {arrays}, {fl})"),
                }
            }
        }
    }
}

fn opt_ptr<X>(v: &Option<Vec<X>>) -> *const X {
    v.as_ref().map_or(std::ptr::null(), |v| v.as_ptr())
}

unsafe fn guru_plan<D>(
    g: &Guru<D>,
    c: &Call,
    a: &[A],
    kinds: Ip,
    dims: *const D,
    hdims: *const D,
) -> Pl {
    let (r, hr, f) = (c.rank, c.hrank, c.flags);
    match (c.fam, c.split) {
        (Fam::Dft, false) => (g.dft)(r, dims, hr, hdims, a[0], a[1], c.sign, f),
        (Fam::Dft, true) => (g.split_dft)(r, dims, hr, hdims, a[0], a[1], a[2], a[3], f),
        (Fam::R2c, false) => (g.r2c)(r, dims, hr, hdims, a[0], a[1], f),
        (Fam::R2c, true) => (g.split_r2c)(r, dims, hr, hdims, a[0], a[1], a[2], f),
        (Fam::C2r, false) => (g.c2r)(r, dims, hr, hdims, a[0], a[1], f),
        (Fam::C2r, true) => (g.split_c2r)(r, dims, hr, hdims, a[0], a[1], a[2], f),
        (Fam::R2r, _) => (g.r2r)(r, dims, hr, hdims, a[0], a[1], kinds, f),
    }
}

/// Makes the call through `lib` with the given array pointers.
unsafe fn plan_call(lib: &Lib, c: &Call, a: &[A]) -> Pl {
    let f = c.flags;
    // (Arrays that must not be read go whole into an unreadable page.)
    let arr = |slot: usize, v: &Option<Vec<i32>>| match v {
        Some(v) if c.unread => trap_whole(slot, v),
        _ => opt_ptr(v),
    };
    let n = arr(0, &c.n);
    let nv = |i: usize| c.n.as_ref().unwrap()[i];
    let kv = |i: usize| c.kinds.as_ref().unwrap()[i];
    let kinds = arr(3, &c.kinds);
    let embed = |which: usize, e: &Option<Vec<i32>>| match e {
        _ if c.unread => arr(4 + which, e),
        Some(v) if c.embed_trap && !v.is_empty() => trap_embed(which, v),
        _ => opt_ptr(e),
    };
    let (ie, oe) = (embed(0, &c.inembed), embed(1, &c.onembed));
    let (h, is, id, os, od) = (c.howmany, c.istride, c.idist, c.ostride, c.odist);
    match (c.iface, c.fam) {
        (Iface::B1, Fam::Dft) => (lib.dft_1d)(nv(0), a[0], a[1], c.sign, f),
        (Iface::B2, Fam::Dft) => (lib.dft_2d)(nv(0), nv(1), a[0], a[1], c.sign, f),
        (Iface::B3, Fam::Dft) => (lib.dft_3d)(nv(0), nv(1), nv(2), a[0], a[1], c.sign, f),
        (Iface::Bn, Fam::Dft) => (lib.dft)(c.rank, n, a[0], a[1], c.sign, f),
        (Iface::B1, Fam::R2c) => (lib.r2c_1d)(nv(0), a[0], a[1], f),
        (Iface::B2, Fam::R2c) => (lib.r2c_2d)(nv(0), nv(1), a[0], a[1], f),
        (Iface::B3, Fam::R2c) => (lib.r2c_3d)(nv(0), nv(1), nv(2), a[0], a[1], f),
        (Iface::Bn, Fam::R2c) => (lib.r2c)(c.rank, n, a[0], a[1], f),
        (Iface::B1, Fam::C2r) => (lib.c2r_1d)(nv(0), a[0], a[1], f),
        (Iface::B2, Fam::C2r) => (lib.c2r_2d)(nv(0), nv(1), a[0], a[1], f),
        (Iface::B3, Fam::C2r) => (lib.c2r_3d)(nv(0), nv(1), nv(2), a[0], a[1], f),
        (Iface::Bn, Fam::C2r) => (lib.c2r)(c.rank, n, a[0], a[1], f),
        (Iface::B1, Fam::R2r) => (lib.r2r_1d)(nv(0), a[0], a[1], kv(0), f),
        (Iface::B2, Fam::R2r) => (lib.r2r_2d)(nv(0), nv(1), a[0], a[1], kv(0), kv(1), f),
        (Iface::B3, Fam::R2r) => {
            (lib.r2r_3d)(nv(0), nv(1), nv(2), a[0], a[1], kv(0), kv(1), kv(2), f)
        }
        (Iface::Bn, Fam::R2r) => (lib.r2r)(c.rank, n, a[0], a[1], kinds, f),
        (Iface::Many, Fam::Dft) => {
            (lib.many_dft)(c.rank, n, h, a[0], ie, is, id, a[1], oe, os, od, c.sign, f)
        }
        (Iface::Many, Fam::R2c) => {
            (lib.many_r2c)(c.rank, n, h, a[0], ie, is, id, a[1], oe, os, od, f)
        }
        (Iface::Many, Fam::C2r) => {
            (lib.many_c2r)(c.rank, n, h, a[0], ie, is, id, a[1], oe, os, od, f)
        }
        (Iface::Many, Fam::R2r) => {
            (lib.many_r2r)(c.rank, n, h, a[0], ie, is, id, a[1], oe, os, od, kinds, f)
        }
        (Iface::Guru, _) => {
            let conv = |v: &Option<Vec<D3>>| {
                v.as_ref().map(|v| {
                    v.iter()
                        .map(|d| fftw_iodim {
                            n: d.n as c_int,
                            is: d.is as c_int,
                            os: d.os as c_int,
                        })
                        .collect::<Vec<_>>()
                })
            };
            let (d, hd) = (conv(&c.dims), conv(&c.hdims));
            let dims = |slot: usize, v: &Option<Vec<fftw_iodim>>| match v {
                Some(v) if c.unread => trap_whole(slot, v),
                _ => opt_ptr(v),
            };
            guru_plan(&lib.guru, c, a, kinds, dims(1, &d), dims(2, &hd))
        }
        (Iface::Guru64, _) => {
            let conv = |v: &Option<Vec<D3>>| {
                v.as_ref().map(|v| {
                    v.iter()
                        .map(|d| fftw_iodim64 {
                            n: d.n as isize,
                            is: d.is as isize,
                            os: d.os as isize,
                        })
                        .collect::<Vec<_>>()
                })
            };
            let (d, hd) = (conv(&c.dims), conv(&c.hdims));
            let dims = |slot: usize, v: &Option<Vec<fftw_iodim64>>| match v {
                Some(v) if c.unread => trap_whole(slot, v),
                _ => opt_ptr(v),
            };
            guru_plan(&lib.guru64, c, a, kinds, dims(1, &d), dims(2, &hd))
        }
    }
}

/// The new-array execute functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exec {
    Dft,
    SplitDft,
    R2c,
    SplitR2c,
    C2r,
    SplitC2r,
    R2r,
}
const EXECS: [Exec; 7] = [
    Exec::Dft,
    Exec::SplitDft,
    Exec::R2c,
    Exec::SplitR2c,
    Exec::C2r,
    Exec::SplitC2r,
    Exec::R2r,
];

impl Exec {
    fn of(fam: Fam, split: bool) -> Exec {
        match (fam, split) {
            (Fam::Dft, false) => Exec::Dft,
            (Fam::Dft, true) => Exec::SplitDft,
            (Fam::R2c, false) => Exec::R2c,
            (Fam::R2c, true) => Exec::SplitR2c,
            (Fam::C2r, false) => Exec::C2r,
            (Fam::C2r, true) => Exec::SplitC2r,
            (Fam::R2r, _) => Exec::R2r,
        }
    }
    fn arity(self) -> usize {
        match self {
            Exec::SplitDft => 4,
            Exec::SplitR2c | Exec::SplitC2r => 3,
            _ => 2,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Exec::Dft => "execute_dft",
            Exec::SplitDft => "execute_split_dft",
            Exec::R2c => "execute_dft_r2c",
            Exec::SplitR2c => "execute_split_dft_r2c",
            Exec::C2r => "execute_dft_c2r",
            Exec::SplitC2r => "execute_split_dft_c2r",
            Exec::R2r => "execute_r2r",
        }
    }
    unsafe fn call(self, lib: &Lib, p: Pl, a: &[A]) {
        match self {
            Exec::Dft => (lib.execute_dft)(p, a[0], a[1]),
            Exec::SplitDft => (lib.execute_split_dft)(p, a[0], a[1], a[2], a[3]),
            Exec::R2c => (lib.execute_dft_r2c)(p, a[0], a[1]),
            Exec::SplitR2c => (lib.execute_split_dft_r2c)(p, a[0], a[1], a[2]),
            Exec::C2r => (lib.execute_dft_c2r)(p, a[0], a[1]),
            Exec::SplitC2r => (lib.execute_split_dft_c2r)(p, a[0], a[1], a[2]),
            Exec::R2r => (lib.execute_r2r)(p, a[0], a[1]),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What a valid call means, as FFTW's planner builds it: per side, the scalars each logical
// element occupies, relative to the array arguments.

/// One side: logical elements in row-major order of (transform dims..., loops...); `re` and `im`
/// are (argument, scalar delta); `offs` the scalar offset of each element from those.
#[derive(Clone, Debug)]
struct View {
    complex: bool,
    re: (usize, isize),
    im: (usize, isize),
    offs: Vec<isize>,
}

#[derive(Clone, Debug)]
struct Geom {
    fam: Fam,
    sign: i32,
    kinds: Vec<i32>,
    n: Vec<i64>,
    loops: Vec<i64>,
    input: View,
    output: View,
    in_place: bool,
    /// FFTW guarantees the input unchanged.
    preserve: bool,
    /// (input, output) strides in scalars of the transform dims, then the loops.
    strides: Vec<(i64, i64)>,
}

fn row_major(embed: &[i64], rank: usize, stride: i64) -> Vec<i64> {
    let mut s = vec![0i64; rank];
    if rank > 0 {
        s[rank - 1] = stride;
        for i in (1..rank).rev() {
            s[i - 1] = s[i] * embed[i];
        }
    }
    s
}

fn rdft2_pad(n: &[i64], embed: Option<Vec<i64>>, in_place: bool, complex: bool) -> Vec<i64> {
    if let Some(e) = embed {
        return e;
    }
    let mut e = n.to_vec();
    if let Some(l) = e.last_mut() {
        if in_place || complex {
            *l = (*l / 2 + 1) * if complex { 1 } else { 2 };
        }
    }
    e
}

fn offsets(dims: &[(i64, i64)]) -> Vec<isize> {
    let total: usize = dims.iter().map(|&(n, _)| n.max(0) as usize).product();
    let mut offs = Vec::with_capacity(total);
    offs.push(0isize);
    for &(n, s) in dims {
        if n <= 0 {
            offs.clear();
            break;
        }
        let len = offs.len();
        offs.resize(len * n as usize, 0);
        // Expand in place from the back: element j of the old list becomes n consecutive ones.
        for j in (0..len).rev() {
            let o = offs[j];
            for i in (0..n as isize).rev() {
                offs[j * n as usize + i as usize] = o + i * s as isize;
            }
        }
    }
    offs
}

/// FFTW's in-place test: the pointers it compares, per family.
fn fftw_in_place(c: &Call) -> bool {
    let (a, b) = match (c.fam, c.split) {
        (Fam::Dft, true) | (Fam::C2r, true) => (0, 2),
        _ => (0, 1),
    };
    c.args[a] == c.args[b]
}

fn preserves(fam: Fam, flags: u32, in_place: bool) -> bool {
    !in_place && (flags & PRESERVE != 0 || (flags & DESTROY == 0 && fam != Fam::C2r))
}

/// The geometry of a well-formed call, with in-place-ness given (pointers are not placed yet).
fn geom(c: &Call, in_place: bool) -> Result<Geom, String> {
    let fam = c.fam;
    let (si, so) = match (fam, c.split) {
        (_, true) | (Fam::R2r, _) => (1, 1),
        (Fam::Dft, false) => (2, 2),
        (Fam::R2c, false) => (1, 2),
        (Fam::C2r, false) => (2, 1),
    };
    let (n, dims, loops): (Vec<i64>, Vec<(i64, i64)>, Vec<(i64, i64, i64)>);
    let rank = usize::try_from(c.rank).map_err(|_| "negative rank")?;
    match c.iface {
        Iface::Guru | Iface::Guru64 => {
            let hr = usize::try_from(c.hrank).map_err(|_| "negative hrank")?;
            let list = |v: &Option<Vec<D3>>, r: usize| match v {
                Some(d) if d.len() >= r => Ok(d.clone()),
                None if r == 0 => Ok(vec![]),
                _ => Err("dims".to_string()),
            };
            let (d, h) = (list(&c.dims, rank)?, list(&c.hdims, hr)?);
            n = (0..rank).map(|i| d[i].n).collect();
            dims = (0..rank).map(|i| (d[i].is * si, d[i].os * so)).collect();
            loops = (0..hr)
                .map(|i| (h[i].n, h[i].is * si, h[i].os * so))
                .collect();
        }
        _ => {
            n = match &c.n {
                Some(v) if v.len() == rank => v.iter().map(|&x| x as i64).collect(),
                None if rank == 0 => vec![],
                _ => return Err("n".into()),
            };
            let many = c.iface == Iface::Many;
            let emb = |e: &Option<Vec<i32>>| {
                if many {
                    e.as_ref()
                        .map(|e| e.iter().map(|&x| x as i64).collect::<Vec<_>>())
                } else {
                    None
                }
            };
            let (ie, oe) = match fam {
                Fam::Dft | Fam::R2r => (
                    emb(&c.inembed).unwrap_or(n.clone()),
                    emb(&c.onembed).unwrap_or(n.clone()),
                ),
                Fam::R2c => (
                    rdft2_pad(&n, emb(&c.inembed), in_place, false),
                    rdft2_pad(&n, emb(&c.onembed), in_place, true),
                ),
                Fam::C2r => (
                    rdft2_pad(&n, emb(&c.inembed), in_place, true),
                    rdft2_pad(&n, emb(&c.onembed), in_place, false),
                ),
            };
            let (is, id, os, od, h) = if many {
                (c.istride, c.idist, c.ostride, c.odist, c.howmany)
            } else {
                (1, 1, 1, 1, 1)
            };
            let (ir, or) = (
                row_major(&ie, rank, is as i64 * si),
                row_major(&oe, rank, os as i64 * so),
            );
            dims = (0..rank).map(|i| (ir[i], or[i])).collect();
            loops = vec![(h as i64, id as i64 * si, od as i64 * so)];
        }
    }
    if n.iter().any(|&x| x <= 0) || loops.iter().any(|l| l.0 < 0) {
        return Err("sizes".into());
    }
    let halve = |side_complex_half: bool| {
        let mut s = n.clone();
        if side_complex_half {
            if let Some(l) = s.last_mut() {
                *l = *l / 2 + 1;
            }
        }
        s
    };
    let side = |shape: Vec<i64>, input: bool| {
        let mut d: Vec<(i64, i64)> = shape
            .iter()
            .zip(&dims)
            .map(|(&k, &(is, os))| (k, if input { is } else { os }))
            .collect();
        d.extend(
            loops
                .iter()
                .map(|&(k, is, os)| (k, if input { is } else { os })),
        );
        offsets(&d)
    };
    let input_offs = side(halve(fam == Fam::C2r), true);
    let output_offs = side(halve(fam == Fam::R2c), false);
    let cplx = |arg_re: (usize, isize), arg_im: (usize, isize), offs: Vec<isize>| View {
        complex: true,
        re: arg_re,
        im: arg_im,
        offs,
    };
    let real = |arg: usize, offs: Vec<isize>| View {
        complex: false,
        re: (arg, 0),
        im: (arg, 0),
        offs,
    };
    let (input, output) = match (fam, c.split) {
        (Fam::Dft, false) => (
            cplx((0, 0), (0, 1), input_offs),
            cplx((1, 0), (1, 1), output_offs),
        ),
        (Fam::Dft, true) => (
            cplx((0, 0), (1, 0), input_offs),
            cplx((2, 0), (3, 0), output_offs),
        ),
        (Fam::R2c, false) => (real(0, input_offs), cplx((1, 0), (1, 1), output_offs)),
        (Fam::R2c, true) => (real(0, input_offs), cplx((1, 0), (2, 0), output_offs)),
        (Fam::C2r, false) => (cplx((0, 0), (0, 1), input_offs), real(1, output_offs)),
        (Fam::C2r, true) => (cplx((0, 0), (1, 0), input_offs), real(2, output_offs)),
        (Fam::R2r, _) => (real(0, input_offs), real(1, output_offs)),
    };
    let sign = if fam == Fam::Dft && !c.split && c.sign != -1 {
        1
    } else {
        -1
    };
    Ok(Geom {
        fam,
        sign,
        kinds: c.kinds.clone().unwrap_or_default(),
        n,
        loops: loops.iter().map(|l| l.0).collect(),
        input,
        output,
        in_place,
        preserve: preserves(fam, c.flags, in_place),
        strides: dims
            .iter()
            .copied()
            .chain(loops.iter().map(|l| (l.1, l.2)))
            .collect(),
    })
}

impl Geom {
    fn components(&self) -> Vec<(bool, (usize, isize), &[isize])> {
        let mut v = vec![
            (true, self.input.re, &self.input.offs[..]),
            (false, self.output.re, &self.output.offs[..]),
        ];
        if self.input.complex {
            v.push((true, self.input.im, &self.input.offs));
        }
        if self.output.complex {
            v.push((false, self.output.im, &self.output.offs));
        }
        v
    }
    fn total_n(&self) -> f64 {
        self.n.iter().map(|&x| x as f64).product::<f64>().max(2.0)
    }
    fn shape(&self, input: bool) -> Vec<i64> {
        let mut s = self.n.clone();
        let half = if input {
            self.fam == Fam::C2r
        } else {
            self.fam == Fam::R2c
        };
        if half {
            if let Some(l) = s.last_mut() {
                *l = *l / 2 + 1;
            }
        }
        s
    }
}

// ---------------------------------------------------------------------------------------------
// Arrays: 64-byte aligned buffers of canaries with guard zones on both sides.

const GZ: usize = 16;

#[derive(Clone)]
struct Buf<T> {
    raw: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Scalar> Buf<T> {
    fn new(len: usize) -> Self {
        let per = 64 / std::mem::size_of::<T>();
        let raw = vec![T::canary(); len + 2 * GZ + per];
        let addr = raw.as_ptr() as usize;
        let mut start = GZ;
        while !(addr + start * std::mem::size_of::<T>()).is_multiple_of(64) {
            start += 1;
        }
        Buf { raw, start, len }
    }
    /// A copy at an address of the same alignment (FFTW plans for the alignment it sees).
    fn copy(&self) -> Self {
        let mut b = Buf::new(self.len);
        let span = GZ + self.len + GZ;
        b.raw[b.start - GZ..b.start - GZ + span]
            .copy_from_slice(&self.raw[self.start - GZ..self.start - GZ + span]);
        b
    }
    fn window(&self) -> &[T] {
        &self.raw[self.start - GZ..self.start + self.len + GZ]
    }
}

struct Mem<T> {
    bufs: Vec<Buf<T>>,
}

impl<T: Scalar> Mem<T> {
    fn new(lens: &[usize]) -> Self {
        Mem {
            bufs: lens.iter().map(|&l| Buf::new(l)).collect(),
        }
    }
    fn copy(&self) -> Self {
        Mem {
            bufs: self.bufs.iter().map(|b| b.copy()).collect(),
        }
    }
    fn ptrs(&mut self, args: &[Ptr]) -> Vec<A> {
        args.iter()
            .map(|&a| match a {
                Ptr::Null => std::ptr::null_mut(),
                Ptr::At(b, o) => {
                    let buf = &mut self.bufs[b];
                    buf.raw.as_mut_ptr().wrapping_offset(buf.start as isize + o) as A
                }
            })
            .collect()
    }
    fn index(&self, b: usize, i: isize) -> usize {
        let buf = &self.bufs[b];
        assert!(
            i >= 0 && (i as usize) < buf.len,
            "scalar {i} outside buffer {b} of {}",
            buf.len
        );
        buf.start + i as usize
    }
    fn get(&self, b: usize, i: isize) -> T {
        self.bufs[b].raw[self.index(b, i)]
    }
    fn set(&mut self, b: usize, i: isize, v: T) {
        let k = self.index(b, i);
        self.bufs[b].raw[k] = v;
    }
    fn restore(&mut self, from: &Mem<T>) {
        for (a, b) in self.bufs.iter_mut().zip(&from.bufs) {
            let (sa, sb, span) = (a.start - GZ, b.start - GZ, a.len + 2 * GZ);
            a.raw[sa..sa + span].copy_from_slice(&b.raw[sb..sb + span]);
        }
    }
}

fn at(args: &[Ptr], comp: (usize, isize), off: isize) -> (usize, isize) {
    match args[comp.0] {
        Ptr::At(b, o) => (b, o + comp.1 + off),
        Ptr::Null => panic!("element of a NULL array"),
    }
}

/// Per buffer and scalar: 1 if the input addresses it, 2 if the output does.
fn marks(g: &Geom, args: &[Ptr], lens: &[usize]) -> Vec<Vec<u8>> {
    marks_of(g, args, lens, false)
}

/// [`marks`], of the output's scalars only (and the input's if FFTW may destroy it) if
/// `output_only`.
fn marks_of(g: &Geom, args: &[Ptr], lens: &[usize], output_only: bool) -> Vec<Vec<u8>> {
    let mut m: Vec<Vec<u8>> = lens.iter().map(|&l| vec![0u8; l]).collect();
    for (input, comp, offs) in g.components() {
        // An input FFTW may destroy (c2r, FFTW_DESTROY_INPUT) is scratch space either way.
        if input && output_only && g.preserve {
            continue;
        }
        for &o in offs {
            let (b, i) = at(args, comp, o);
            m[b][i as usize] |= if input { 1 } else { 2 };
        }
    }
    m
}

fn read_view<T: Scalar>(v: &View, args: &[Ptr], mem: &Mem<T>) -> Vec<T> {
    let mut out = Vec::with_capacity(v.offs.len() * 2);
    for &o in &v.offs {
        let (b, i) = at(args, v.re, o);
        out.push(mem.get(b, i));
        if v.complex {
            let (b, i) = at(args, v.im, o);
            out.push(mem.get(b, i));
        }
    }
    out
}

fn write_view<T: Scalar>(v: &View, args: &[Ptr], mem: &mut Mem<T>, data: &[T]) {
    let k = if v.complex { 2 } else { 1 };
    for (e, &o) in v.offs.iter().enumerate() {
        let (b, i) = at(args, v.re, o);
        mem.set(b, i, data[e * k]);
        if v.complex {
            let (b, i) = at(args, v.im, o);
            mem.set(b, i, data[e * k + 1]);
        }
    }
}

/// Makes c2r input the spectrum of a real signal: along the last dimension's self-conjugate
/// columns (0 and n/2), X[k] = conj(X[-k]) over the other dimensions.
fn make_hermitian<T: Scalar>(g: &Geom, data: &mut [T]) {
    let loops: usize = g.loops.iter().map(|&l| l as usize).product();
    let shape = g.shape(true);
    let r = shape.len();
    let per: usize = shape.iter().map(|&s| s as usize).product();
    let nl = g.n.last().copied().unwrap_or(1) as usize;
    for e in 0..per {
        let mut k = vec![0usize; r];
        let mut x = e;
        for d in (0..r).rev() {
            k[d] = x % shape[d] as usize;
            x /= shape[d] as usize;
        }
        if r > 0 && !(k[r - 1] == 0 || (nl.is_multiple_of(2) && k[r - 1] == nl / 2)) {
            continue;
        }
        let mut p = 0usize;
        for d in 0..r {
            let kd = if d + 1 == r {
                k[d]
            } else {
                (g.n[d] as usize - k[d]) % g.n[d] as usize
            };
            p = p * shape[d] as usize + kd;
        }
        for t in 0..loops {
            let (i, j) = (e * loops + t, p * loops + t);
            if i == j {
                data[2 * i + 1] = T::of(0.0);
            } else if i < j {
                data[2 * j] = data[2 * i];
                data[2 * j + 1] = T::of(-data[2 * i + 1].f());
            }
        }
    }
}

/// FFTW planned on contiguous out-of-place arrays of the case's logical shape: the reference,
/// made once per case and run on each input.
struct Reference<T> {
    execute: unsafe extern "C" fn(Pl),
    destroy: unsafe extern "C" fn(Pl),
    plan: Pl,
    i: Vec<T>,
    o: Vec<T>,
}

impl<T: Scalar> Reference<T> {
    fn run(&mut self, input: &[T]) -> Vec<T> {
        self.i.copy_from_slice(input);
        unsafe { (self.execute)(self.plan) };
        self.o.clone()
    }
}

impl<T> Drop for Reference<T> {
    fn drop(&mut self) {
        unsafe { (self.destroy)(self.plan) };
    }
}

/// FFTW's plans for the references, by problem (None: FFTW does not plan it). Small ones only.
type RefCache<T> = std::collections::HashMap<String, Option<Reference<T>>>;

fn reference<T: Scalar>(fftw: &Lib, g: &Geom) -> Option<Reference<T>> {
    let r = g.n.len();
    let rm = |input: bool| {
        let mut all = g.shape(input);
        all.extend(&g.loops);
        row_major(&all, all.len(), 1)
    };
    let (is, os) = (rm(true), rm(false));
    let dims: Vec<fftw_iodim64> = (0..r)
        .map(|i| fftw_iodim64 {
            n: g.n[i] as isize,
            is: is[i] as isize,
            os: os[i] as isize,
        })
        .collect();
    let loops: Vec<fftw_iodim64> = (0..g.loops.len())
        .map(|j| fftw_iodim64 {
            n: g.loops[j] as isize,
            is: is[r + j] as isize,
            os: os[r + j] as isize,
        })
        .collect();
    let mut i = vec![T::of(0.0); g.input.offs.len() * if g.input.complex { 2 } else { 1 }];
    let mut o = vec![T::of(0.0); g.output.offs.len() * if g.output.complex { 2 } else { 1 }];
    let (ip, op) = (i.as_mut_ptr() as A, o.as_mut_ptr() as A);
    let (d, hr, h) = (dims.as_ptr(), loops.len() as c_int, loops.as_ptr());
    let g64 = &fftw.guru64;
    unsafe {
        let p = match g.fam {
            Fam::Dft => (g64.dft)(r as c_int, d, hr, h, ip, op, g.sign, ESTIMATE),
            Fam::R2c => (g64.r2c)(r as c_int, d, hr, h, ip, op, ESTIMATE),
            Fam::C2r => (g64.c2r)(r as c_int, d, hr, h, ip, op, ESTIMATE),
            Fam::R2r => (g64.r2r)(r as c_int, d, hr, h, ip, op, g.kinds.as_ptr(), ESTIMATE),
        };
        (!p.is_null()).then_some(Reference {
            execute: fftw.execute,
            destroy: fftw.destroy,
            plan: p,
            i,
            o,
        })
    }
}

/// Our output against FFTW's: relative L2 error, and the self-conjugate bins of r2c.
fn compare<T: Scalar>(g: &Geom, ours: &[T], theirs: &[T]) -> Option<(&'static str, String)> {
    let (mut num, mut den) = (0.0, 0.0);
    for (a, b) in ours.iter().zip(theirs) {
        num += (a.f() - b.f()).powi(2);
        den += b.f().powi(2);
    }
    let err = if den == 0.0 {
        num.sqrt()
    } else {
        (num / den).sqrt()
    };
    let tol = T::TOL * g.total_n().log2().max(1.0);
    if err.is_nan() || err > tol {
        let worst = ours.iter().zip(theirs).enumerate().max_by(|x, y| {
            let d = |p: (usize, (&T, &T))| {
                let v = (p.1 .0.f() - p.1 .1.f()).abs();
                if v.is_nan() {
                    f64::INFINITY
                } else {
                    v
                }
            };
            d(*x).total_cmp(&d(*y))
        });
        let w = worst
            .map(|(i, (a, b))| format!("; worst at logical scalar {i}: fftx {:?}, FFTW {:?}", a, b))
            .unwrap_or_default();
        return Some((
            "result differs from FFTW",
            format!("relative L2 error {err:.3e} > {tol:.3e}{w}"),
        ));
    }
    if g.fam == Fam::R2c {
        let shape = g.shape(false);
        let r = shape.len();
        let loops: usize = g.loops.iter().map(|&l| l as usize).product();
        let per: usize = shape.iter().map(|&s| s as usize).product();
        for e in 0..per {
            let mut x = e;
            let mut selfconj = true;
            for d in (0..r).rev() {
                let k = x % shape[d] as usize;
                x /= shape[d] as usize;
                let n = g.n[d] as usize;
                selfconj &= k == 0 || (n.is_multiple_of(2) && k == n / 2);
            }
            if !selfconj {
                continue;
            }
            for t in 0..loops {
                let i = 2 * (e * loops + t) + 1;
                if theirs[i].f() == 0.0 && ours[i].bits() != theirs[i].bits() {
                    return Some((
                        "imaginary part at a self-conjugate r2c bin is not FFTW's exact zero",
                        format!(
                            "logical element {}: fftx {:?}, FFTW {:?}",
                            e * loops + t,
                            ours[i],
                            theirs[i]
                        ),
                    ));
                }
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Random cases: a valid call, then perhaps one mutation that makes it invalid or odd.

const SMALL: &[i64] = &[
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 25, 27, 28,
    29, 30, 31, 32, 35, 36, 37, 40,
];
const LARGE: &[i64] = &[
    45, 49, 60, 63, 64, 81, 97, 100, 101, 125, 127, 128, 192, 243, 256, 257, 360, 500, 512, 1000,
    1009, 1024,
];
/// Logical elements per side at most, so that a case takes microseconds.
const MAX_ELEMS: usize = 4096;

fn pick<X: Copy>(rng: &mut SmallRng, v: &[X]) -> X {
    v[rng.gen_range(0..v.len())]
}

fn pick_rank(rng: &mut SmallRng) -> usize {
    let x: f64 = rng.gen();
    if x < 0.08 {
        0
    } else if x < 0.48 {
        1
    } else if x < 0.78 {
        2
    } else if x < 0.95 {
        3
    } else {
        4
    }
}

fn pick_sizes(rng: &mut SmallRng, rank: usize) -> Vec<i64> {
    match rank {
        0 => vec![],
        1 => vec![if rng.gen_bool(0.06) {
            pick(rng, LARGE)
        } else {
            pick(rng, SMALL)
        }],
        2 => {
            let mut v = vec![pick(rng, SMALL), pick(rng, SMALL)];
            if v[0] * v[1] > 1024 {
                v[0] = (1024 / v[1]).max(1);
            }
            v
        }
        3 => (0..3).map(|_| pick(rng, &SMALL[..12])).collect(),
        _ => (0..rank).map(|_| rng.gen_range(1..=6)).collect(),
    }
}

/// A random injective layout (strides in elements) of `shape`: row-major or dims in random
/// order, padding, and negative strides when `neg`.
fn random_layout(rng: &mut SmallRng, shape: &[i64], neg: bool) -> Vec<i64> {
    let mut order: Vec<usize> = (0..shape.len()).collect();
    if rng.gen_bool(0.5) {
        for i in (1..order.len()).rev() {
            let j = rng.gen_range(0..=i);
            order.swap(i, j);
        }
    }
    let mut strides = vec![0i64; shape.len()];
    let mut s: i64 = if rng.gen_bool(0.25) {
        rng.gen_range(2..4)
    } else {
        1
    };
    for &d in order.iter().rev() {
        strides[d] = if neg && rng.gen_bool(0.2) { -s } else { s };
        s *= shape[d].max(1)
            + if rng.gen_bool(0.3) {
                rng.gen_range(1..3)
            } else {
                0
            };
    }
    strides
}

fn extent(shape: &[i64], strides: &[i64]) -> i64 {
    1 + shape
        .iter()
        .zip(strides)
        .map(|(&n, &s)| (n - 1).max(0) * s.abs())
        .sum::<i64>()
}

fn half(n: &[i64]) -> Vec<i64> {
    let mut s = n.to_vec();
    if let Some(l) = s.last_mut() {
        *l = *l / 2 + 1;
    }
    s
}

/// Garbage for `embed[0]`, which FFTW never reads.
fn garbage0(rng: &mut SmallRng) -> i32 {
    pick(rng, &[0, -1, -7, 1, 3, i32::MAX, i32::MIN, 12345])
}

fn gen_embed(rng: &mut SmallRng, shape: &[i64]) -> Option<Vec<i32>> {
    if rng.gen_bool(0.55) {
        return None;
    }
    let mut e: Vec<i32> = shape
        .iter()
        .map(|&k| {
            (k + if rng.gen_bool(0.3) {
                rng.gen_range(1..3)
            } else {
                0
            }) as i32
        })
        .collect();
    if !e.is_empty() && rng.gen_bool(0.4) {
        e[0] = garbage0(rng);
    }
    Some(e)
}

/// Advanced-interface layout: embeds, strides and distances.
fn gen_many(rng: &mut SmallRng, c: &mut Call, n: &[i64], in_place: bool) {
    let (fam, rank) = (c.fam, n.len());
    let h = if rng.gen_bool(0.04) {
        0
    } else {
        rng.gen_range(1..=5i64)
    };
    c.howmany = h as i32;
    let (ishape, oshape) = match fam {
        Fam::R2c => (n.to_vec(), half(n)),
        Fam::C2r => (half(n), n.to_vec()),
        _ => (n.to_vec(), n.to_vec()),
    };
    let eff = |e: &Option<Vec<i32>>, dflt: &[i64]| {
        e.as_ref().map_or(dflt.to_vec(), |e| {
            e.iter().map(|&x| x as i64).collect::<Vec<_>>()
        })
    };
    if in_place && matches!(fam, Fam::R2c | Fam::C2r) {
        // The real array is the complex one seen as reals: the same strides in each side's
        // elements, real distance twice the complex one (sometimes not: FFTW plans those too).
        let cshape = half(n);
        let (ce, re) = if rng.gen_bool(0.7) || rank == 0 {
            (None, None)
        } else {
            let ce: Vec<i32> = cshape
                .iter()
                .map(|&k| (k + if rng.gen_bool(0.3) { 1 } else { 0 }) as i32)
                .collect();
            let mut re = ce.clone();
            *re.last_mut().unwrap() *= 2;
            let (mut ce, mut re) = (ce, re);
            if rng.gen_bool(0.4) {
                ce[0] = garbage0(rng);
            }
            if rng.gen_bool(0.4) {
                re[0] = garbage0(rng);
            }
            (Some(ce), Some(re))
        };
        let s = if rng.gen_bool(0.85) { 1 } else { 2 };
        let dc = extent(&cshape, &row_major(&eff(&ce, &cshape), rank, s)) + rng.gen_range(0..3);
        let dr = 2 * dc + if rng.gen_bool(0.1) { 2 } else { 0 };
        let (ie, oe, id, od) = if fam == Fam::R2c {
            (re, ce, dr, dc)
        } else {
            (ce, re, dc, dr)
        };
        (c.inembed, c.onembed, c.istride, c.ostride, c.idist, c.odist) =
            (ie, oe, s as i32, s as i32, id as i32, od as i32);
        return;
    }
    let side =
        |rng: &mut SmallRng, shape: &[i64], can_share: bool| -> (Option<Vec<i32>>, i32, i32) {
            let emb = gen_embed(rng, shape);
            let e = eff(&emb, shape);
            if h >= 2 && rng.gen_bool(0.25) {
                // Transforms interleaved: element x of transform t at t + stride * x.
                return (emb, (h + rng.gen_range(0..2)) as i32, 1);
            }
            let s = if rng.gen_bool(0.75) {
                1
            } else {
                rng.gen_range(2..4)
            };
            let s = if !in_place && rng.gen_bool(0.05) {
                -s
            } else {
                s
            };
            let x = extent(shape, &row_major(&e, rank, s));
            let d = if can_share && rng.gen_bool(0.04) {
                0
            } else {
                x + rng.gen_range(0..3)
            };
            (emb, s as i32, d as i32)
        };
    let (ie, is, id) = side(rng, &ishape, !in_place && fam != Fam::C2r);
    let (oe, os, od) = if in_place {
        let mut oe = ie.clone();
        if let Some(e) = oe.as_mut().filter(|e| !e.is_empty()) {
            if rng.gen_bool(0.3) {
                e[0] = garbage0(rng);
            }
        }
        (oe, is, id)
    } else {
        side(rng, &oshape, false)
    };
    (c.inembed, c.istride, c.idist, c.onembed, c.ostride, c.odist) = (ie, is, id, oe, os, od);
}

/// Guru layout: dims and loops in the API's units. Returns whether split arrays are disguised
/// interleaved ones (and if so, swapped).
fn gen_guru(rng: &mut SmallRng, c: &mut Call, n: &[i64], in_place: bool) -> Option<bool> {
    let (fam, rank) = (c.fam, n.len());
    let hr = pick(
        rng,
        &[0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3],
    );
    let mut loops: Vec<i64> = (0..hr)
        .map(|_| {
            if rng.gen_bool(0.03) {
                0
            } else {
                rng.gen_range(1..=4)
            }
        })
        .collect();
    let (ishape, oshape) = match fam {
        Fam::R2c => (n.to_vec(), half(n)),
        Fam::C2r => (half(n), n.to_vec()),
        _ => (n.to_vec(), n.to_vec()),
    };
    let with_loops =
        |s: &[i64], loops: &[i64]| s.iter().chain(loops).copied().collect::<Vec<i64>>();
    let (mut is, mut os);
    if !in_place {
        is = random_layout(rng, &with_loops(&ishape, &loops), true);
        os = random_layout(rng, &with_loops(&oshape, &loops), true);
    } else if c.split || matches!(fam, Fam::Dft | Fam::R2r) {
        if rank == 0 && rng.gen_bool(0.3) {
            // In-place transposes: FFTW plans rank-0 problems whose loops swap strides.
            let (a, b) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
            loops = vec![a, b];
            is = vec![b, 1];
            os = vec![1, a];
        } else {
            let shape = if fam == Fam::C2r {
                oshape.clone()
            } else {
                ishape.clone()
            };
            let neg = rng.gen_bool(0.1);
            is = random_layout(rng, &with_loops(&shape, &loops), neg);
            os = is.clone();
        }
    } else {
        // Interleaved in-place r2c/c2r: the real array is the complex one seen as reals.
        let neg = rng.gen_bool(0.1);
        let cl = random_layout(rng, &with_loops(&half(n), &loops), neg);
        let mut real: Vec<i64> = cl
            .iter()
            .enumerate()
            .map(|(i, &s)| if i + 1 == rank { s } else { 2 * s })
            .collect();
        if hr > 0 && rng.gen_bool(0.1) {
            real[rank] += 2 * real[rank].signum(); // vector strides that differ: FFTW plans some
        }
        (is, os) = if fam == Fam::R2c {
            (real, cl)
        } else {
            (cl, real)
        };
    }
    let mut disguise = None;
    if c.split && fam == Fam::Dft && rng.gen_bool(0.15) {
        // Split arrays that are really interleaved (ii = ri + 1, or swapped: the backward
        // transform); FFTW's execute_dft then applies the same transform.
        disguise = Some(rng.gen_bool(0.5));
        is.iter_mut().chain(os.iter_mut()).for_each(|s| *s *= 2);
    }
    let hr = loops.len();
    c.rank = rank as i32;
    c.dims = if rank == 0 && rng.gen_bool(0.5) {
        None
    } else {
        Some(
            (0..rank)
                .map(|i| D3 {
                    n: n[i],
                    is: is[i],
                    os: os[i],
                })
                .collect(),
        )
    };
    c.hrank = hr as i32;
    c.hdims = if hr == 0 && rng.gen_bool(0.5) {
        None
    } else {
        Some(
            (0..hr)
                .map(|j| D3 {
                    n: loops[j],
                    is: is[rank + j],
                    os: os[rank + j],
                })
                .collect(),
        )
    };
    disguise
}

fn arity(fam: Fam, split: bool) -> usize {
    match (fam, split) {
        (Fam::Dft, true) => 4,
        (Fam::R2c, true) | (Fam::C2r, true) => 3,
        _ => 2,
    }
}

/// Arguments that share one pointer (members with their scalar delta from it).
fn slots(
    fam: Fam,
    split: bool,
    in_place: bool,
    disguise: Option<bool>,
) -> Vec<Vec<(usize, isize)>> {
    if let Some(swapped) = disguise {
        let (r, i) = if swapped { (1, 0) } else { (0, 1) };
        return if in_place {
            vec![vec![(0, r), (1, i), (2, r), (3, i)]]
        } else {
            vec![vec![(0, r), (1, i)], vec![(2, r), (3, i)]]
        };
    }
    let pairs: &[(usize, usize)] = match (in_place, fam, split) {
        (false, ..) => &[],
        (true, Fam::Dft, true) => &[(0, 2), (1, 3)],
        (true, Fam::C2r, true) => &[(0, 2)],
        _ => &[(0, 1)],
    };
    let mut out: Vec<Vec<(usize, isize)>> = Vec::new();
    for a in 0..arity(fam, split) {
        if let Some(&(x, _)) = pairs.iter().find(|p| p.1 == a) {
            let s = out.iter().position(|s| s.iter().any(|m| m.0 == x)).unwrap();
            out[s].push((a, 0));
        } else {
            out.push(vec![(a, 0)]);
        }
    }
    out
}

/// Scalar positions each slot's pointer must cover; None if an output scalar (or an input
/// scalar, unless `dup_input`) is addressed twice.
fn slot_positions(
    g: &Geom,
    slots: &[Vec<(usize, isize)>],
    dup_input: bool,
) -> Option<Vec<Vec<isize>>> {
    let total: usize = g.components().iter().map(|c| c.2.len()).sum();
    let mut pos: Vec<Vec<isize>> = vec![Vec::with_capacity(total); slots.len()];
    let mut seen: [Vec<(usize, isize)>; 2] = [Vec::with_capacity(total), Vec::with_capacity(total)];
    for (input, (arg, add), offs) in g.components() {
        let s = slots
            .iter()
            .position(|s| s.iter().any(|m| m.0 == arg))
            .unwrap();
        let delta = slots[s].iter().find(|m| m.0 == arg).unwrap().1;
        for &o in offs {
            let p = delta + add + o;
            seen[input as usize].push((s, p));
            pos[s].push(p);
        }
    }
    // Each side addresses each scalar at most once (a bitmap per slot over its extent).
    for (input, v) in seen.iter().enumerate() {
        if input == 1 && dup_input {
            continue;
        }
        let mut bits: Vec<Vec<bool>> = Vec::with_capacity(pos.len());
        let lo: Vec<isize> = pos
            .iter()
            .map(|p| p.iter().copied().min().unwrap_or(0))
            .collect();
        for (p, &l) in pos.iter().zip(&lo) {
            bits.push(vec![
                false;
                (p.iter().copied().max().unwrap_or(0) - l + 1) as usize
            ]);
        }
        for &(s, p) in v {
            let b = &mut bits[s][(p - lo[s]) as usize];
            if *b {
                return None;
            }
            *b = true;
        }
    }
    Some(pos)
}

/// Places slots in buffers (each its own, or packed into one) with random padding.
fn place(
    rng: &mut SmallRng,
    n_args: usize,
    slots: &[Vec<(usize, isize)>],
    pos: &[Vec<isize>],
) -> (Vec<Ptr>, Vec<usize>) {
    // (An empty slot still gets two scalars: pointers to nothing must not coincide with, or be
    // one scalar off, another array's, which FFTW would read as in-place or aliased.)
    let ext: Vec<(isize, isize)> = pos
        .iter()
        .map(|p| {
            (
                p.iter().copied().min().unwrap_or(0),
                p.iter().copied().max().unwrap_or(1),
            )
        })
        .collect();
    let mut args = vec![Ptr::Null; n_args];
    let mut bufs = Vec::new();
    if slots.len() > 1 && rng.gen_bool(0.3) {
        let mut order: Vec<usize> = (0..slots.len()).collect();
        if rng.gen_bool(0.5) {
            order.reverse();
        }
        let mut cursor = 0isize;
        for &s in &order {
            let p = cursor + rng.gen_range(0..4) - ext[s].0;
            cursor = p + ext[s].1 + 1;
            for &(a, d) in &slots[s] {
                args[a] = Ptr::At(0, p + d);
            }
        }
        bufs.push((cursor + rng.gen_range(0..4)) as usize);
    } else {
        for (s, members) in slots.iter().enumerate() {
            let p = rng.gen_range(0..4) - ext[s].0;
            for &(a, d) in members {
                args[a] = Ptr::At(bufs.len(), p + d);
            }
            bufs.push((p + ext[s].1 + 1 + rng.gen_range(0..4)) as usize);
        }
    }
    (args, bufs)
}

fn gen_flags(rng: &mut SmallRng, elems: usize) -> u32 {
    let x: f64 = rng.gen();
    // (Rare and small: FFTW takes up to ~50 ms to MEASURE a 31-point problem, 250 ms to be
    // PATIENT, 2 s to be EXHAUSTIVE.)
    let mut f = if x < 0.003 && elems <= 256 {
        MEASURE
    } else if x < 0.0035 && elems <= 64 {
        PATIENT
    } else if x < 0.0037 && elems <= 16 {
        EXHAUSTIVE
    } else {
        ESTIMATE
    };
    if rng.gen_bool(0.08) {
        f |= DESTROY;
    } else if rng.gen_bool(0.08) {
        f |= PRESERVE;
    }
    if rng.gen_bool(0.1) {
        f |= fftx::FFTW_UNALIGNED;
    }
    if rng.gen_bool(0.03) {
        f |= fftx::FFTW_CONSERVE_MEMORY;
    }
    if rng.gen_bool(0.02) {
        f |= 1 << rng.gen_range(7..=20); // FFTW's "beyond-guru" flags
    }
    if rng.gen_bool(0.015) {
        f |= WISDOM_ONLY;
    }
    f
}

/// What executing a plan on its own arrays must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Own {
    /// Compute FFTW's result, write nothing else.
    Full,
    /// Write nothing at all (NULL arrays, a plan of nothing).
    NoWrite,
    /// Partly overlapping arrays: write nothing outside them.
    Aliased,
    /// Not executed (invalid, or arrays too small for it).
    Never,
}

struct Case {
    call: Call,
    /// The notable feature of the layout or flags, if any (labels plan mismatches).
    tag: &'static str,
    bufs: Vec<usize>,
    class: &'static str,
    /// The semantics on `exec_args` (None for calls without one).
    geom: Option<Geom>,
    /// Arrays on which `geom` holds: the call's, before a NULL mutation.
    exec_args: Vec<Ptr>,
    /// Compare fftx's NULL-or-plan with FFTW's (calling FFTW is safe and its answer defined).
    fftw: bool,
    /// fftx must return NULL.
    expect_null: bool,
    own: Own,
    disguise: Option<bool>,
    /// A plan of nothing (howmany_rank INT_MAX, FFTW's `(dft-nop)`): no execute, on any
    /// arrays, writes anything.
    nop: bool,
}

/// Sizes big enough for the planner to use threads (ESTIMATE gives a thread 4 Ki points).
fn pick_big_sizes(rng: &mut SmallRng, rank: usize) -> Vec<i64> {
    match rank {
        1 => vec![pick(rng, &[65536, 65537, 69984])],
        2 => pick(rng, &[[256, 256], [257, 256], [128, 520]]).to_vec(),
        _ => pick(rng, &[[32, 32, 64], [16, 64, 65], [41, 40, 40]]).to_vec(),
    }
}

/// A valid call; `big`: sizes for several threads.
fn gen_valid(rng: &mut SmallRng, double: bool, big: bool) -> Case {
    let max_elems = if big { 1 << 18 } else { MAX_ELEMS };
    loop {
        let fam = pick(rng, &[Fam::Dft, Fam::Dft, Fam::R2c, Fam::C2r, Fam::R2r]);
        let iface = pick(
            rng,
            &[
                Iface::B1,
                Iface::B2,
                Iface::B3,
                Iface::Bn,
                Iface::Bn,
                Iface::Many,
                Iface::Many,
                Iface::Many,
                Iface::Guru,
                Iface::Guru,
                Iface::Guru64,
                Iface::Guru64,
                Iface::Guru64,
            ],
        );
        let guru = matches!(iface, Iface::Guru | Iface::Guru64);
        let split = guru && fam != Fam::R2r && rng.gen_bool(0.35);
        let rank = match iface {
            Iface::B1 => 1,
            Iface::B2 => 2,
            Iface::B3 => 3,
            _ if big => rng.gen_range(1..=3),
            _ => pick_rank(rng),
        };
        let mut n = if big {
            pick_big_sizes(rng, rank)
        } else {
            pick_sizes(rng, rank)
        };
        let mut kinds = None;
        if fam == Fam::R2r {
            let k: Vec<i32> = (0..rank).map(|_| rng.gen_range(0..=10)).collect();
            for (k, n) in k.iter().zip(n.iter_mut()) {
                if *k == fftx::FFTW_REDFT00 && *n == 1 && rng.gen_bool(0.7) {
                    *n = 2; // else FFTW refuses it (logical size 0), and so must we
                }
            }
            kinds = Some(k);
        }
        let in_place = rng.gen_bool(0.3);
        let mut c = Call {
            double,
            fam,
            split,
            iface,
            rank: rank as i32,
            n: None,
            howmany: 1,
            inembed: None,
            istride: 1,
            idist: 1,
            onembed: None,
            ostride: 1,
            odist: 1,
            dims: None,
            hrank: 0,
            hdims: None,
            kinds,
            embed_trap: false,
            unread: false,
            sign: if rng.gen_bool(0.5) { -1 } else { 1 },
            flags: ESTIMATE,
            args: Vec::new(),
        };
        let mut disguise = None;
        match iface {
            Iface::Many => {
                c.n = Some(n.iter().map(|&x| x as i32).collect());
                gen_many(rng, &mut c, &n, in_place);
                c.embed_trap = rng.gen_bool(0.3);
            }
            Iface::Guru | Iface::Guru64 => disguise = gen_guru(rng, &mut c, &n, in_place),
            _ => {
                c.n = if rank == 0 && rng.gen_bool(0.5) {
                    None
                } else {
                    Some(n.iter().map(|&x| x as i32).collect())
                }
            }
        }
        let Ok(mut g) = geom(&c, in_place) else {
            continue;
        };
        let elems = g.input.offs.len().max(g.output.offs.len());
        if elems > max_elems {
            continue;
        }
        let sl = slots(fam, split, in_place, disguise);
        let dup = iface == Iface::Many && c.idist == 0;
        let Some(pos) = slot_positions(&g, &sl, dup) else {
            continue;
        };
        if pos.iter().any(|p| {
            p.iter().max().unwrap_or(&0) - p.iter().min().unwrap_or(&0) > 4 * max_elems as isize
        }) {
            continue;
        }
        let (args, bufs) = place(rng, arity(fam, split), &sl, &pos);
        c.args = args.clone();
        c.flags = gen_flags(rng, elems);
        g.preserve = preserves(fam, c.flags, in_place);
        debug_assert_eq!(fftw_in_place(&c), in_place);
        // FFTW 3.3.10's planner recurses without end on some layouts with negative strides
        // (in place or not): its answer on those is a crash, so it is not asked.
        let fftw = !negative_strides(&c) && c.flags & WISDOM_ONLY == 0;
        let tag = tag(&c, &g, disguise);
        return Case {
            call: c,
            tag,
            bufs,
            class: "valid",
            geom: Some(g),
            exec_args: args,
            fftw,
            expect_null: false,
            own: Own::Full,
            disguise,
            nop: false,
        };
    }
}

/// The most notable feature of a well-formed call (as finally made, after any mutation), for
/// telling plan mismatches apart. Features that explain why FFTW 3.3.10 has no plan (each has
/// its entry in [`ALLOWED`]) come first, so that a call with one is labelled by it.
fn tag(c: &Call, g: &Geom, disguise: Option<bool>) -> &'static str {
    let rank = g.n.len();
    let mixed = matches!(c.fam, Fam::R2c | Fam::C2r);
    let strides_differ = g.strides.iter().enumerate().any(|(i, &(is, os))| {
        let loop_n = if i >= rank { g.loops[i - rank] } else { 2 };
        is != os && loop_n > 1 && !(mixed && i + 1 == rank)
    });
    let garbage = |e: &Option<Vec<i32>>| {
        e.as_ref().is_some_and(|e| {
            !e.is_empty() && [0, -1, -7, i32::MAX, i32::MIN, 12345].contains(&e[0])
        })
    };
    let beyond_guru = c.flags & ((1 << 21) - (1 << 7)) != 0;
    // The real array's stride (in scalars) of dimension i (transform dimensions, then loops).
    let real_stride = |i: usize| {
        let (is, os) = g.strides[i];
        if c.fam == Fam::R2c { is } else { os }.abs()
    };
    let count = |i: usize| if i < rank { g.n[i] } else { g.loops[i - rank] };
    let last_not_innermost = mixed
        && rank >= 1
        && g.n[rank - 1] > 1
        && (0..g.strides.len())
            .any(|i| i != rank - 1 && count(i) > 1 && real_stride(i) < real_stride(rank - 1));
    if g.in_place && rank == 0 && g.loops.len() == 2 && strides_differ {
        "in-place transposes (rank 0)"
    } else if g.in_place && strides_differ {
        "in-place with input and output strides that differ"
    } else if g.in_place && last_not_innermost {
        "in-place r2c/c2r whose last dimension is not the innermost"
    } else if g.in_place && c.split && mixed {
        "in-place split r2c/c2r"
    } else if g.loops.contains(&0) {
        "nothing to transform (a loop of 0)"
    } else if c.fam == Fam::C2r && rank >= 2 && c.flags & PRESERVE != 0 {
        // (PRESERVE_INPUT wins over DESTROY_INPUT when both are given.)
        "multi-dimensional c2r with PRESERVE_INPUT"
    } else if beyond_guru {
        "a beyond-guru flag"
    } else if c.flags & fftx::FFTW_CONSERVE_MEMORY != 0 {
        "FFTW_CONSERVE_MEMORY"
    } else if c.iface == Iface::Many && rank > 0 && (garbage(&c.inembed) || garbage(&c.onembed)) {
        "inembed[0]/onembed[0] garbage (never read by FFTW)"
    } else if disguise.is_some() {
        "split arrays that are interleaved ones"
    } else if c.flags & ESTIMATE == 0 {
        "MEASURE/PATIENT/EXHAUSTIVE"
    } else if g.in_place {
        "in-place"
    } else {
        "out-of-place"
    }
}

fn negative_strides(c: &Call) -> bool {
    let d = c
        .dims
        .iter()
        .chain(&c.hdims)
        .flatten()
        .any(|d| d.is < 0 || d.os < 0);
    let many = c.iface == Iface::Many
        && [c.istride, c.idist, c.ostride, c.odist]
            .iter()
            .any(|&x| x < 0);
    d || many
}

/// Mutation classes and how often each is tried (the rest of the cases stay valid).
const MUTATIONS: &[(&str, f64)] = &[
    ("null_array", 0.06),
    ("n_zero", 0.02),
    ("n_negative", 0.02),
    ("howmany_negative", 0.01),
    ("rank_negative", 0.015),
    ("rank_intmax", 0.004),
    ("hrank_intmax", 0.004),
    ("hrank_intmax_dims", 0.002),
    ("null_dims", 0.02),
    ("overflow", 0.01),
    ("huge", 0.0005),
    ("bad_kind", 0.015),
    ("bad_sign", 0.015),
    ("bad_flags", 0.04),
    ("aliasing", 0.03),
];

fn negative(rng: &mut SmallRng) -> i32 {
    pick(rng, &[-1, -2, -7, i32::MIN])
}

/// Applies mutation `class` to a valid case; false if it does not apply to this call.
fn mutate(rng: &mut SmallRng, k: &mut Case, class: &'static str) -> bool {
    let c = &mut k.call;
    let rank = c.rank as usize;
    let hr = c.hrank as usize;
    let guru = matches!(c.iface, Iface::Guru | Iface::Guru64);
    let basic_fixed = matches!(c.iface, Iface::B1 | Iface::B2 | Iface::B3);
    let (mut invalid, mut own) = (true, Own::Never);
    match class {
        "null_array" => {
            if k.geom.as_ref().unwrap().in_place {
                c.args.iter_mut().for_each(|a| *a = Ptr::Null);
            } else {
                let i = rng.gen_range(0..c.args.len());
                c.args[i] = Ptr::Null;
            }
            // FFTW accepts NULL arrays at plan time; it would crash measuring on them.
            k.fftw &= c.flags & ESTIMATE != 0 && c.flags & WISDOM_ONLY == 0;
            (invalid, own) = (false, Own::NoWrite);
        }
        "n_zero" | "n_negative" => {
            let v = if class == "n_zero" { 0 } else { negative(rng) };
            if guru {
                if rank > 0 && (hr == 0 || class == "n_zero" || rng.gen_bool(0.6)) {
                    c.dims.as_mut().unwrap()[rng.gen_range(0..rank)].n = v as i64;
                } else if hr > 0 && class == "n_negative" {
                    let big = if c.iface == Iface::Guru64 && rng.gen_bool(0.3) {
                        i64::MIN
                    } else {
                        v as i64
                    };
                    c.hdims.as_mut().unwrap()[rng.gen_range(0..hr)].n = big;
                } else {
                    return false;
                }
            } else if rank > 0 {
                c.n.as_mut().unwrap()[rng.gen_range(0..rank)] = v;
            } else {
                return false;
            }
        }
        "howmany_negative" if c.iface == Iface::Many => c.howmany = negative(rng),
        "rank_negative" if !basic_fixed => {
            if guru && rng.gen_bool(0.5) {
                c.hrank = negative(rng);
            } else {
                c.rank = negative(rng);
            }
        }
        // FFTW checks the rank before reading anything (INT_MAX is its "minus infinity"): NULL,
        // with n, dims, kinds and embeds unread (they are passed in an unreadable page).
        "rank_intmax" if !basic_fixed => {
            c.rank = i32::MAX;
            c.unread = true;
        }
        // FFTW plans a howmany rank of INT_MAX without reading the howmany dims: a plan of
        // nothing, `(dft-nop)`, whose executes write nothing, whatever the arrays.
        "hrank_intmax" | "hrank_intmax_dims" if guru => {
            c.hrank = i32::MAX;
            if class == "hrank_intmax" {
                c.hdims = None;
            }
            k.nop = true;
            (invalid, own) = (false, Own::NoWrite);
        }
        "null_dims" => {
            let mut options = Vec::new();
            if !guru && !basic_fixed && rank > 0 {
                options.push("n");
            }
            if guru && rank > 0 {
                options.push("dims");
            }
            if guru && hr > 0 {
                options.push("hdims");
            }
            if c.fam == Fam::R2r && !basic_fixed && rank > 0 {
                options.push("kinds");
            }
            if options.is_empty() {
                return false;
            }
            match pick(rng, &options) {
                "n" => c.n = None,
                "dims" => c.dims = None,
                "hdims" => c.hdims = None,
                _ => c.kinds = None,
            }
            // FFTW dereferences them: only fftx is called, and it must refuse.
            (k.fftw, k.expect_null) = (false, true);
        }
        "overflow" => {
            // Sizes, strides or counts whose products overflow ptrdiff_t.
            let big = i32::MAX;
            match c.iface {
                Iface::Guru64 => {
                    let (dims, loops) = match rng.gen_range(0..4) {
                        0 => (
                            vec![
                                D3 {
                                    n: 1 << 40,
                                    is: 1,
                                    os: 1,
                                },
                                D3 {
                                    n: 1 << 40,
                                    is: 1 << 40,
                                    os: 1 << 40,
                                },
                            ],
                            vec![],
                        ),
                        1 => (
                            vec![D3 {
                                n: 4,
                                is: 1 << 62,
                                os: 1,
                            }],
                            vec![],
                        ),
                        2 => (
                            vec![D3 { n: 4, is: 1, os: 1 }],
                            vec![D3 {
                                n: 1 << 62,
                                is: 4,
                                os: 4,
                            }],
                        ),
                        _ => (
                            vec![D3 {
                                n: i64::MAX,
                                is: 1,
                                os: 1,
                            }],
                            vec![],
                        ),
                    };
                    (c.rank, c.hrank) = (dims.len() as i32, loops.len() as i32);
                    (c.dims, c.hdims) = (Some(dims), Some(loops));
                }
                Iface::Guru => {
                    c.dims = Some(vec![
                        D3 {
                            n: big as i64,
                            is: 1,
                            os: 1
                        };
                        3
                    ]);
                    (c.rank, c.hrank, c.hdims) = (3, 0, None);
                }
                _ => {
                    if matches!(c.iface, Iface::B1 | Iface::B2) {
                        c.iface = Iface::B3;
                    }
                    c.rank = 3;
                    c.n = Some(vec![big; 3]);
                    (c.inembed, c.onembed, c.istride, c.ostride, c.idist, c.odist) =
                        (None, None, 1, 1, 1, 1);
                }
            }
            if c.fam == Fam::R2r {
                c.kinds = Some(vec![0; c.rank as usize]);
            }
            (k.fftw, k.expect_null) = (false, true);
        }
        "huge" if c.fam != Fam::R2r && !c.split => {
            // Sizes FFTW plans (quickly, under ESTIMATE) though no memory could hold them.
            c.flags = ESTIMATE;
            let choice = if c.fam == Fam::Dft {
                rng.gen_range(0..5)
            } else {
                1
            };
            (c.iface, c.rank, c.n, c.inembed, c.onembed) = match choice {
                0 => (Iface::B1, 1, Some(vec![1 << 28]), None, None),
                1 => (Iface::B2, 2, Some(vec![65536, 65536]), None, None),
                2 => (Iface::B3, 3, Some(vec![2048; 3]), None, None),
                3 => (Iface::Many, 1, Some(vec![1 << 20]), None, None),
                _ => (Iface::Guru64, 1, None, None, None),
            };
            (c.howmany, c.istride, c.ostride, c.idist, c.odist) = (1 << 20, 1, 1, 1 << 20, 1 << 20);
            c.dims = Some(vec![D3 {
                n: 1 << 20,
                is: 1,
                os: 1,
            }]);
            (c.hrank, c.hdims) = (
                1,
                Some(vec![D3 {
                    n: 1 << 30,
                    is: 1 << 20,
                    os: 1 << 20,
                }]),
            );
            k.fftw = true;
        }
        "bad_kind" if c.fam == Fam::R2r && rank > 0 && c.kinds.is_some() => {
            // FFTW takes a kind outside the enum as R2HC: if fftx plans, it must compute that
            // (the reference is FFTW given the same kinds).
            c.kinds.as_mut().unwrap()[rng.gen_range(0..rank)] =
                pick(rng, &[11, 12, -1, 100, i32::MAX, i32::MIN]);
            k.geom.as_mut().unwrap().kinds = c.kinds.clone().unwrap();
            (invalid, own) = (false, Own::Full);
        }
        "bad_sign" if c.fam == Fam::Dft && !c.split => {
            // FFTW takes any sign but -1 as backward: if fftx plans, it must compute that.
            c.sign = pick(rng, &[0, 2, -2, 7, i32::MAX, i32::MIN]);
            (invalid, own) = (false, Own::Full);
        }
        "bad_flags" => {
            // FFTW ignores unknown bits, and PRESERVE_INPUT wins over DESTROY_INPUT.
            if rng.gen_bool(0.5) {
                c.flags |= 1 << rng.gen_range(22..32);
            } else {
                c.flags |= DESTROY | PRESERVE;
            }
            let g = k.geom.as_mut().unwrap();
            g.preserve = preserves(c.fam, c.flags, g.in_place);
            (invalid, own) = (false, Own::Full);
        }
        "aliasing" if c.args.len() == 2 && !k.geom.as_ref().unwrap().in_place => {
            // The output starts inside the input: FFTW plans it out of place.
            let g = k.geom.as_ref().unwrap();
            let pos = slot_positions(g, &[vec![(0, 0)], vec![(1, 0)]], true).unwrap();
            if pos.iter().any(|p| p.is_empty()) {
                return false;
            }
            let (lo0, hi0) = (*pos[0].iter().min().unwrap(), *pos[0].iter().max().unwrap());
            let (lo1, hi1) = (*pos[1].iter().min().unwrap(), *pos[1].iter().max().unwrap());
            if hi0 == lo0 {
                return false;
            }
            let p0 = rng.gen_range(0..4) - lo0;
            let mut p1 = p0 + lo0 - lo1 + rng.gen_range(1..=hi0 - lo0);
            if p1 == p0 {
                p1 += 1;
            }
            c.args = vec![Ptr::At(0, p0), Ptr::At(0, p1)];
            k.bufs = vec![((p0 + hi0).max(p1 + hi1) + 1 + rng.gen_range(0..4)) as usize];
            k.exec_args = c.args.clone();
            // Partly overlapping arrays are outside FFTW's contract (identical or disjoint): its
            // NULL or plan there depends on which of its solvers happen to apply.
            k.fftw = false;
            (invalid, own) = (false, Own::Aliased);
        }
        _ => return false,
    }
    if invalid {
        k.geom = None;
    }
    if class == "bad_sign" {
        let g = geom(&k.call, k.geom.as_ref().unwrap().in_place).unwrap();
        k.geom.as_mut().unwrap().sign = g.sign;
    }
    k.own = own;
    k.class = class;
    true
}

fn gen_case(rng: &mut SmallRng, double: bool, skip: &HashSet<String>, huge_ok: bool) -> Case {
    if rng.gen_bool(0.0015) && !skip.contains("threads") {
        let mut k = gen_valid(rng, double, true);
        k.class = "threads";
        return k;
    }
    let mut k = gen_valid(rng, double, false);
    if skip.contains("measure") && k.call.flags & ESTIMATE == 0 {
        k.call.flags = (k.call.flags & !(PATIENT | EXHAUSTIVE)) | ESTIMATE;
    }
    let x: f64 = rng.gen();
    let mut acc = 0.0;
    for &(class, p) in MUTATIONS {
        acc += p;
        if x < acc {
            if !skip.contains(class) && (huge_ok || class != "huge") {
                mutate(rng, &mut k, class);
            }
            break;
        }
    }
    // The label of the call as finally made (a mutation may change its flags or arrays).
    if let Some(g) = &k.geom {
        k.tag = tag(&k.call, g, k.disguise);
    }
    k
}

// ---------------------------------------------------------------------------------------------
// Running cases.

struct Ctx {
    seed: u64,
    verbose: bool,
    /// FFTX_FUZZ_TRACE: print every case.
    trace: bool,
    refs64: RefCache<f64>,
    refs32: RefCache<f32>,
    /// Heap corruption seen: no further case is run.
    stop: bool,
    /// Huge cases still to run (planning them may be slow).
    huge_left: u32,
    skip: HashSet<String>,
    calls: u64,
    calls_by: BTreeMap<&'static str, u64>,
    families: BTreeMap<String, u64>,
    /// Well-formed cases per label (see [`tag`]), and a few features worth counting.
    labels: BTreeMap<&'static str, u64>,
    classes: BTreeMap<&'static str, u64>,
    outcomes: BTreeMap<String, u64>,
    /// Mismatch class -> (count, the first occurrence's reproducer).
    mismatches: BTreeMap<String, (u64, String)>,
    heap_seen: usize,
    panics_seen: usize,
    /// The case being run (printed with each mismatch) and its label (part of the class).
    note: String,
    label: String,
}

impl Ctx {
    /// One call into fftx: counted, then checked for heap corruption and panics.
    fn ours<R>(&mut self, what: &'static str, f: impl FnOnce() -> R) -> R {
        self.calls += 1;
        *self.calls_by.entry(what).or_default() += 1;
        let r = f();
        let heap = HEAP_CORRUPTIONS.load(Ordering::SeqCst);
        if heap != self.heap_seen {
            self.heap_seen = heap;
            self.mismatch(
                "heap corruption: the guard bytes of a Rust allocation were overwritten",
                format!("noticed after {what}"),
            );
            // What follows could crash anywhere: stop here, with the report.
            self.stop = true;
        }
        let panics = PANICS.load(Ordering::SeqCst);
        if panics != self.panics_seen {
            self.panics_seen = panics;
            let m = PANIC_MESSAGES
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .last()
                .cloned()
                .unwrap_or_default();
            self.mismatch("panic inside fftx", format!("during {what}: {m}"));
        }
        r
    }

    fn mismatch(&mut self, what: &str, detail: String) {
        let key = format!("{what} [{}]", self.label);
        self.mismatch_key(key, detail);
    }

    /// A mismatch class of its own, whatever the case's class and family.
    fn mismatch_key(&mut self, key: String, detail: String) {
        if self.verbose {
            eprintln!("MISMATCH {key}: {detail}");
        }
        let e = self
            .mismatches
            .entry(key.clone())
            .or_insert((0, String::new()));
        e.0 += 1;
        if e.0 == 1 {
            e.1 = format!("{}\n      {detail}", self.note);
            // Said at once too: if a later case crashes the process, this is not lost.
            say(&format!(
                "fuzz: new mismatch class: {key}\n    first: {}\n",
                e.1
            ));
        }
    }

    fn outcome(&mut self, o: String) {
        *self.outcomes.entry(o).or_default() += 1;
    }
}

/// The first scalars that changed where nothing may be written (guards, unaddressed scalars).
fn outside_changes<T: Scalar>(m: &[Vec<u8>], mem: &Mem<T>, before: &Mem<T>) -> Option<String> {
    let mut found = Vec::new();
    let mut count = 0;
    for (b, (now, was)) in mem.bufs.iter().zip(&before.bufs).enumerate() {
        for (w, (x, y)) in now.window().iter().zip(was.window()).enumerate() {
            let d = w as isize - GZ as isize;
            let addressed = d >= 0 && (d as usize) < now.len && m[b][d as usize] != 0;
            if !addressed && x.bits() != y.bits() {
                count += 1;
                if found.len() < 3 {
                    let zone = if d < 0 || d as usize >= now.len {
                        "guard zone"
                    } else {
                        "unaddressed"
                    };
                    found.push(format!("b{b}[{d}] ({zone}) {y:?} -> {x:?}"));
                }
            }
        }
    }
    (count > 0).then(|| format!("{count} scalars changed, e.g. {}", found.join(", ")))
}

fn any_changes<T: Scalar>(mem: &Mem<T>, before: &Mem<T>) -> Option<String> {
    let none: Vec<Vec<u8>> = mem.bufs.iter().map(|b| vec![0u8; b.len]).collect();
    outside_changes(&none, mem, before)
}

fn fill_input<T: Scalar>(rng: &mut SmallRng, g: &Geom, args: &[Ptr], mem: &mut Mem<T>) {
    let k = if g.input.complex { 2 } else { 1 };
    let mut data: Vec<T> = (0..g.input.offs.len() * k)
        .map(|_| T::of(rng.gen_range(-1.0..1.0)))
        .collect();
    if g.fam == Fam::C2r {
        make_hermitian(g, &mut data);
    }
    write_view(&g.input, args, mem, &data);
}

/// Whether FFTW plans `c`, asked in a child process (planning that measures runs transforms, and
/// FFTW crashes running some of its own; and its planner takes minutes over a few problems, e.g.
/// `fftwf_plan_r2r_1d(69984, in, out, FFTW_REDFT00, FFTW_ESTIMATE | FFTW_CONSERVE_MEMORY)`):
/// Err says why there is no answer (the child died, or was stopped after [`CHILD_LIMIT`]).
unsafe fn fftw_plans_in_child<T: Scalar>(
    fftw: &Lib,
    c: &Call,
    mem: &Mem<T>,
) -> Result<bool, &'static str> {
    let pid = libc::fork();
    if pid == 0 {
        for sig in [
            libc::SIGSEGV,
            libc::SIGBUS,
            libc::SIGABRT,
            libc::SIGFPE,
            libc::SIGILL,
        ] {
            libc::signal(sig, libc::SIG_DFL);
        }
        let mut m = mem.copy();
        let a = m.ptrs(&c.args);
        let p = plan_call(fftw, c, &a);
        libc::_exit(if p.is_null() { 0 } else { 1 });
    }
    if pid < 0 {
        return Err("FFTW crashes");
    }
    let (t, mut nap) = (Instant::now(), Duration::from_micros(20));
    let mut status = 0;
    loop {
        match libc::waitpid(pid, &mut status, libc::WNOHANG) {
            0 if t.elapsed() > CHILD_LIMIT => {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
                return Err("FFTW too slow");
            }
            0 => {
                std::thread::sleep(nap);
                nap = (nap * 2).min(Duration::from_millis(5));
            }
            r if r == pid => break,
            _ => return Err("FFTW crashes"),
        }
    }
    if !libc::WIFEXITED(status) {
        return Err("FFTW crashes");
    }
    Ok(libc::WEXITSTATUS(status) == 1)
}

/// How long FFTW may take to answer in a child (FFTW takes up to ~2 s to be EXHAUSTIVE on the
/// problems it is asked that of).
const CHILD_LIMIT: Duration = Duration::from_secs(10);

/// After an execute: nothing written outside the arrays, the input kept where FFTW keeps it,
/// FFTW's result in the output.
/// FFTW's output for `input` (None if FFTW does not plan the problem).
fn run_reference<T: Scalar>(cx: &mut Ctx, fftw: &Lib, g: &Geom, input: &[T]) -> Option<Vec<T>> {
    if g.input.offs.len().max(g.output.offs.len()) > MAX_ELEMS {
        return reference::<T>(fftw, g).map(|mut r| r.run(input));
    }
    let key = format!(
        "{:?} {} {:?} {:?} {:?}",
        g.fam, g.sign, g.kinds, g.n, g.loops
    );
    let cache = T::cache(cx);
    if !cache.contains_key(&key) {
        if cache.len() >= 2000 {
            cache.clear();
        }
        cache.insert(key.clone(), reference(fftw, g));
    }
    cache.get_mut(&key).unwrap().as_mut().map(|r| r.run(input))
}

/// `output_only`: only the output's scalars may change (new arrays whose in-placeness differs
/// from the plan's: an input scalar that is not an output one is kept, whatever the flags).
fn check_run<T: Scalar>(
    cx: &mut Ctx,
    fftw: &Lib,
    g: &Geom,
    args: &[Ptr],
    lens: &[usize],
    mem: &Mem<T>,
    before: &Mem<T>,
    what: &str,
    output_only: bool,
) {
    let m = marks_of(g, args, lens, output_only);
    if let Some(d) = outside_changes(&m, mem, before) {
        let where_ = if output_only {
            "wrote outside its output (an input-only scalar, or outside the arrays)"
        } else {
            "wrote outside the arrays the plan names"
        };
        cx.mismatch(&format!("{what}: {where_}"), d);
    }
    if g.preserve && !output_only {
        let changed = (0..mem.bufs.len())
            .flat_map(|b| (0..lens[b]).map(move |i| (b, i)))
            .find(|&(b, i)| {
                m[b][i] == 1 && mem.get(b, i as isize).bits() != before.get(b, i as isize).bits()
            });
        if let Some((b, i)) = changed {
            cx.mismatch(
                &format!("{what}: changed the input (FFTW keeps it)"),
                format!("b{b}[{i}]"),
            );
        }
    }
    if g.output.offs.is_empty() {
        return;
    }
    let input = read_view(&g.input, args, before);
    let Some(want) = run_reference(cx, fftw, g, &input) else {
        return;
    };
    let got = read_view(&g.output, args, mem);
    if let Some((kind, d)) = compare(g, &got, &want) {
        cx.mismatch(&format!("{what}: {kind}"), d);
    }
}

/// Whether a new-array execute kind cannot fit a plan of this family (fftx must refuse it).
fn wrong_exec(e: Exec, fam: Fam, split: bool) -> bool {
    let right = Exec::of(fam, false);
    let right_split = Exec::of(fam, true);
    !(e == right || (split && e == right_split))
}

/// The (real, imaginary) argument pairs of a family's split complex sides.
fn complex_sides(fam: Fam, split: bool) -> &'static [(usize, usize)] {
    match (fam, split) {
        (Fam::Dft, true) => &[(0, 1), (2, 3)],
        (Fam::R2c, true) => &[(1, 2)],
        (Fam::C2r, true) => &[(0, 1)],
        _ => &[],
    }
}

/// Whether FFTW counts a plan made by the split DFT interface on `args` (ri, ii, ro, io) as
/// forward: ii - ri == 1 and io - ro == 1 (api/plan-guru-split-dft.c). NULL arrays: backward.
fn split_forward(args: &[Ptr]) -> bool {
    let next = |r: Ptr, i: Ptr| match (r, i) {
        (Ptr::At(b0, o0), Ptr::At(b1, o1)) => b0 == b1 && o1 == o0 + 1,
        _ => false,
    };
    next(args[0], args[1]) && next(args[2], args[3])
}

/// The geometry with real and imaginary parts exchanged on both sides.
fn swap_parts(g: &Geom) -> Geom {
    let mut s = g.clone();
    for v in [&mut s.input, &mut s.output] {
        if v.complex {
            std::mem::swap(&mut v.re, &mut v.im);
        }
    }
    s
}

fn run_case<T: Scalar>(cx: &mut Ctx, libs: &Libs, rng: &mut SmallRng, idx: u64) {
    let double = T::PREFIX == "fftw_";
    let k = gen_case(rng, double, &cx.skip, cx.huge_left > 0);
    if k.class == "huge" {
        cx.huge_left -= 1;
    }
    let c = &k.call;
    cx.label = format!("{} {}", k.class, c.family());
    let bufs = k
        .bufs
        .iter()
        .enumerate()
        .map(|(i, l)| format!("b{i}[{l}]"))
        .collect::<Vec<_>>()
        .join(" ");
    cx.note = format!(
        "case {idx} [{}] (replay: FFTX_FUZZ_SEED={} FFTX_FUZZ_CASE={idx}):\n      {}\n      buffers, in scalars (data 64-byte aligned; b<i>+<k> is scalar k of buffer i): {bufs}",
        k.class,
        cx.seed,
        c.text()
    );
    set_note(&cx.note);
    if cx.verbose || cx.trace {
        eprintln!("{}", cx.note);
    }
    *cx.classes.entry(k.class).or_default() += 1;
    *cx.families
        .entry(format!(
            "{} {:?} {}",
            if double { "f64" } else { "f32" },
            c.iface,
            c.family()
        ))
        .or_default() += 1;
    if let Some(g) = &k.geom {
        *cx.labels.entry(k.tag).or_default() += 1;
        if g.in_place && matches!(c.fam, Fam::R2c | Fam::C2r) && c.flags & ESTIMATE == 0 {
            *cx.labels
                .entry("(feature) in-place r2c/c2r under MEASURE/PATIENT/EXHAUSTIVE")
                .or_default() += 1;
        }
    }

    let mut mem = Mem::<T>::new(&k.bufs);
    if let Some(g) = &k.geom {
        fill_input(rng, g, &k.exec_args, &mut mem);
    }
    let before = mem.copy();
    // FFTW on a copy of the arrays (same alignment): does it plan this call?
    // (Only planning: the references run on contiguous out-of-place arrays, since FFTW 3.3.10
    // itself crashes executing some of its plans for exotic layouts, e.g.
    // fftwf_plan_many_dft(4, {5,3,2,2}, 4, in, NULL, 4, 1, out, NULL, 1, 61, +1,
    // FFTW_ESTIMATE | FFTW_DESTROY_INPUT) stores with vmovaps at a misaligned address. Planning
    // under MEASURE and up runs transforms too: FFTW is asked that in a child process.)
    // (The big problems of the threads class are asked in a child too: FFTW's planner takes
    // minutes over some of them.)
    let mut unanswered = "FFTW not asked";
    let fftw_plans = if !k.fftw {
        None
    } else if c.flags & (ESTIMATE | WISDOM_ONLY) == 0 || k.class == "threads" {
        match unsafe { fftw_plans_in_child(&libs.fftw, c, &mem) } {
            Ok(answer) => Some(answer),
            Err(why) => {
                unanswered = why;
                None
            }
        }
    } else {
        unsafe {
            let mut m = mem.copy();
            let a = m.ptrs(&c.args);
            let p = plan_call(&libs.fftw, c, &a);
            if !p.is_null() {
                (libs.fftw.destroy)(p);
            }
            Some(!p.is_null())
        }
    };
    let threads = libs.ours.plan_with_nthreads.unwrap();
    if k.class == "threads" {
        let n = rng.gen_range(2..=4);
        cx.ours("plan_with_nthreads", || unsafe { threads(n) });
    }
    let a = mem.ptrs(&c.args);
    let (t, base) = (Instant::now(), ALLOCATED.load(Ordering::SeqCst));
    PEAK.store(base, Ordering::SeqCst);
    let hits = TRAP_HITS.load(Ordering::SeqCst);
    let p = cx.ours("plan", || unsafe { plan_call(&libs.ours, c, &a) });
    if TRAP_HITS.load(Ordering::SeqCst) != hits {
        if c.unread {
            let what = "plan: read n, dims, howmany dims, kinds or embeds with transform rank \
                        INT_MAX (FFTW reads none of them; here in an unreadable page)";
            cx.mismatch(what, String::new());
        } else {
            let what = "plan: read inembed[0] or onembed[0], which FFTW never reads (here in an unreadable page)";
            cx.mismatch_key(what.into(), String::new());
        }
    }
    let used = PEAK.load(Ordering::SeqCst).saturating_sub(base);
    if used > 1 << 30 {
        let d = format!(
            "{} MiB allocated, {:.1} s",
            used >> 20,
            t.elapsed().as_secs_f64()
        );
        cx.mismatch(
            "plan: planning allocated over 1 GiB (FFTW plans these in a few MiB)",
            d,
        );
    }
    let planned = !p.is_null();
    let fftw_says = match fftw_plans {
        Some(true) => "FFTW plans",
        Some(false) => "FFTW NULL",
        None => unanswered,
    };
    cx.outcome(format!(
        "{}: {fftw_says}, fftx {}",
        k.class,
        if planned { "plans" } else { "NULL" }
    ));
    if let Some(fp) = fftw_plans {
        // (Labelled with the base call's notable feature for valid calls, and wherever fftx
        // plans what FFTW does not: that feature is usually why.)
        let tag = if matches!(k.class, "valid" | "threads") || (k.geom.is_some() && planned) {
            format!(" ({})", k.tag)
        } else {
            String::new()
        };
        if fp && !planned {
            cx.mismatch(
                &format!("plan: FFTW plans, fftx returns NULL{tag}"),
                String::new(),
            );
        } else if !fp && planned {
            cx.mismatch(
                &format!("plan: FFTW returns NULL, fftx plans{tag}"),
                String::new(),
            );
        }
    }
    if k.expect_null && planned {
        cx.mismatch(
            "plan: fftx plans a call FFTW cannot make (it crashes on it, or the sizes overflow)",
            String::new(),
        );
    }
    // ESTIMATE and WISDOM_ONLY planning never touches the arrays; MEASURE may, inside them.
    let may_touch = planned && c.flags & (ESTIMATE | WISDOM_ONLY) == 0;
    let changes = match (&k.geom, may_touch) {
        (Some(g), true) if k.own != Own::NoWrite => {
            outside_changes(&marks(g, &k.exec_args, &k.bufs), &mem, &before)
        }
        _ => any_changes(&mem, &before),
    };
    if let Some(d) = changes {
        cx.mismatch(
            if may_touch {
                "plan: planning wrote outside the arrays"
            } else {
                "plan: planning wrote into the arrays"
            },
            d,
        );
    }
    mem.restore(&before);
    if planned {
        use_plan(cx, libs, rng, &k, p, &mut mem, &before);
    }
    if k.class == "threads" {
        cx.ours("plan_with_nthreads", || unsafe { threads(1) });
    }
    if rng.gen_bool(0.01) {
        cx.ours("execute (NULL plan)", || unsafe {
            (libs.ours.execute)(std::ptr::null_mut())
        });
        cx.ours("destroy (NULL plan)", || unsafe {
            (libs.ours.destroy)(std::ptr::null_mut())
        });
    }
}

/// Executes a plan fftx made (own arrays, new arrays, wrong arrays), then destroys it.
fn use_plan<T: Scalar>(
    cx: &mut Ctx,
    libs: &Libs,
    rng: &mut SmallRng,
    k: &Case,
    p: Pl,
    mem: &mut Mem<T>,
    before: &Mem<T>,
) {
    let c = &k.call;
    match k.own {
        Own::Full => {
            let g = k.geom.as_ref().unwrap();
            for _ in 0..1 + rng.gen_bool(0.7) as usize + rng.gen_bool(0.5) as usize {
                mem.restore(before);
                cx.ours("execute", || unsafe { (libs.ours.execute)(p) });
                check_run(
                    cx, &libs.fftw, g, &c.args, &k.bufs, mem, before, "execute", false,
                );
            }
        }
        Own::NoWrite => {
            cx.ours("execute", || unsafe { (libs.ours.execute)(p) });
            if let Some(d) = any_changes(mem, before) {
                cx.mismatch(
                    "execute: wrote although the plan's arrays are NULL or it transforms nothing",
                    d,
                );
            }
        }
        Own::Aliased => {
            cx.ours("execute", || unsafe { (libs.ours.execute)(p) });
            let g = k.geom.as_ref().unwrap();
            if let Some(d) = outside_changes(&marks(g, &c.args, &k.bufs), mem, before) {
                cx.mismatch("execute: wrote outside the (overlapping) arrays", d);
            }
        }
        Own::Never => {}
    }
    // New arrays of the same layout and alignment (after a NULL-array plan: always).
    let times = if k.own == Own::NoWrite {
        1
    } else {
        pick(rng, &[0, 1, 2, 2, 3])
    };
    for g in (0..times).filter_map(|_| k.geom.as_ref().filter(|_| k.own != Own::Aliased)) {
        let mut m2 = Mem::<T>::new(&k.bufs);
        fill_input(rng, g, &k.exec_args, &mut m2);
        let b2 = m2.copy();
        let mut swap = false;
        let (exec, args) = match k.disguise {
            // ii = ri + 1 (or swapped) and io = ro + 1: execute_dft on the interleaved pointers.
            // FFTW's execute_dft hands a split plan (in, in + 1, out, out + 1) as (ri, ii, ro,
            // io) if the plan is forward (ii - ri == 1 and io - ro == 1 when it was made), else
            // (in + 1, in, out + 1, out): then the parts are the other way round from the
            // layout's unless it was swapped too (a plan made on NULL arrays, say).
            Some(swapped) if rng.gen_bool(0.5) => {
                let (i, o) = if swapped { (1, 3) } else { (0, 2) };
                swap = !swapped && !split_forward(&c.args);
                (Exec::Dft, vec![k.exec_args[i], k.exec_args[o]])
            }
            _ => (Exec::of(c.fam, c.split), k.exec_args.clone()),
        };
        let a = m2.ptrs(&args);
        cx.ours(exec.name(), || unsafe { exec.call(&libs.ours, p, &a) });
        let what = format!("new-array {}", exec.name());
        if k.nop {
            if let Some(d) = any_changes(&m2, &b2) {
                cx.mismatch(
                    &format!("{what}: wrote although the plan transforms nothing"),
                    d,
                );
            }
            continue;
        }
        let swapped_geom;
        let g = if swap {
            swapped_geom = swap_parts(g);
            &swapped_geom
        } else {
            g
        };
        check_run(
            cx,
            &libs.fftw,
            g,
            &k.exec_args,
            &k.bufs,
            &m2,
            &b2,
            &what,
            false,
        );
    }
    // Arrays that do not fit the plan: fftx must refuse them and write nothing. (They are big
    // enough that a plan that wrongly runs on them stays inside them.) Arrays that fit but
    // whose in-placeness is not the plan's: fftx computes the transform (FFTW leaves that
    // undefined).
    if let Some(g) = k.geom.as_ref().filter(|_| rng.gen_bool(0.1)) {
        let len = 4 * k.bufs.iter().max().unwrap() + 64;
        let mut junk = Mem::<T>::new(&[len; 4]);
        let mb = mem.copy();
        let right = Exec::of(c.fam, c.split);
        let mid = |i: usize| Ptr::At(i, len as isize / 2);
        let x: f64 = rng.gen();
        if x < 0.85 {
            let jb = junk.copy();
            let wrong: Vec<Exec> = EXECS
                .iter()
                .copied()
                .filter(|&e| wrong_exec(e, c.fam, c.split))
                .collect();
            let (exec, args, why) = if x < 0.7 {
                let e = pick(rng, &wrong);
                (
                    e,
                    (0..e.arity()).map(mid).collect::<Vec<_>>(),
                    "arrays of another kind",
                )
            } else {
                (right, vec![Ptr::Null; right.arity()], "NULL arrays")
            };
            let a = junk.ptrs(&args);
            if cx.verbose {
                eprintln!("wrong-array execute: {} ({why}) on {:?}", exec.name(), args);
            }
            cx.ours(exec.name(), || unsafe { exec.call(&libs.ours, p, &a) });
            if let Some(d) = any_changes(&junk, &jb).or_else(|| any_changes(mem, &mb)) {
                let what = format!("wrong-array execute: {} wrote ({why})", exec.name());
                cx.mismatch(&what, d);
            }
        } else {
            let mut args: Vec<Ptr> = (0..right.arity()).map(mid).collect();
            let why = if g.in_place {
                "separate arrays for an in-place plan"
            } else {
                // In place as FFTW sees it: in == out; ri == ro and ii == io; in == ro; ri == out.
                match (c.fam, c.split) {
                    (Fam::Dft, true) => (args[2], args[3]) = (args[0], args[1]),
                    (Fam::C2r, true) => args[2] = args[0],
                    _ => args[1] = args[0],
                }
                "in-place arrays for an out-of-place plan"
            };
            // A complex side whose parts were one scalar apart at plan time stays so (split
            // arrays on a plan made for interleaved ones are refused, and are not this check);
            // after the in-place pointers above, which may have moved a real part.
            for &(re, im) in complex_sides(c.fam, c.split) {
                if let (Ptr::At(b0, o0), Ptr::At(b1, o1), Ptr::At(b, o)) =
                    (c.args[re], c.args[im], args[re])
                {
                    if b0 == b1 && (o1 - o0).abs() == 1 {
                        args[im] = Ptr::At(b, o + o1 - o0);
                    }
                }
            }
            fill_input(rng, g, &args, &mut junk);
            let jb = junk.copy();
            let a = junk.ptrs(&args);
            if cx.verbose {
                eprintln!("new-array execute: {} ({why}) on {:?}", right.name(), args);
            }
            cx.ours(right.name(), || unsafe { right.call(&libs.ours, p, &a) });
            let what = format!("new-array {} ({why})", right.name());
            if let Some(d) = any_changes(mem, &mb) {
                cx.mismatch(&format!("{what}: wrote into the plan's own arrays"), d);
            }
            if k.nop {
                if let Some(d) = any_changes(&junk, &jb) {
                    cx.mismatch(
                        &format!("{what}: wrote although the plan transforms nothing"),
                        d,
                    );
                }
            } else {
                check_run(cx, &libs.fftw, g, &args, &[len; 4], &junk, &jb, &what, true);
            }
        }
    }
    // The plan through the other precision's API: refused.
    if rng.gen_bool(0.03) {
        let mb = mem.copy();
        let double = c.double;
        cx.ours("execute (other precision)", || unsafe {
            if double {
                fftx::fftwf_execute(p as *const _)
            } else {
                fftx::fftw_execute(p as *const _)
            }
        });
        if let Some(d) = any_changes(mem, &mb) {
            cx.mismatch(
                "execute of a plan through the other precision's API wrote",
                d,
            );
        }
    }
    cx.ours("destroy", || unsafe { (libs.ours.destroy)(p) });
    if rng.gen_bool(0.03) {
        cx.ours("destroy (twice)", || unsafe { (libs.ours.destroy)(p) });
    }
    if rng.gen_bool(0.03) {
        let mb = mem.copy();
        cx.ours("execute (destroyed plan)", || unsafe {
            (libs.ours.execute)(p)
        });
        if let Some(d) = any_changes(mem, &mb) {
            cx.mismatch("execute of a destroyed plan wrote", d);
        }
    }
}

/// Wisdom: after forgetting, WISDOM_ONLY plans nothing; after an ESTIMATE plan, WISDOM_ONLY
/// with ESTIMATE plans it again, with MEASURE not (FFTW 3.3.10 on the same arrays).
fn run_wisdom_case<T: Scalar>(cx: &mut Ctx, libs: &Libs, rng: &mut SmallRng, idx: u64) {
    let mut k = gen_valid(rng, T::PREFIX == "fftw_", false);
    if !k.fftw {
        return;
    }
    let base = k.call.flags & !(ESTIMATE | PATIENT | EXHAUSTIVE | WISDOM_ONLY);
    k.class = "wisdom_protocol";
    cx.label = format!("wisdom_protocol {}", k.call.family());
    cx.note = format!(
        "case {idx} [wisdom_protocol] (replay: FFTX_FUZZ_SEED={} FFTX_FUZZ_CASE={idx}): forget_wisdom, then with flags below | {{ESTIMATE|WISDOM_ONLY, ESTIMATE, ESTIMATE|WISDOM_ONLY, MEASURE|WISDOM_ONLY}}:\n      {}",
        cx.seed,
        k.call.text()
    );
    set_note(&cx.note);
    *cx.classes.entry("wisdom_protocol").or_default() += 1;
    let mut mem = Mem::<T>::new(&k.bufs);
    let mut theirs = mem.copy();
    // Only calls both plan (where they differ, the plan classes say so already).
    k.call.flags = base | ESTIMATE;
    let (a, b) = (theirs.ptrs(&k.call.args), mem.ptrs(&k.call.args));
    let fp = unsafe { plan_call(&libs.fftw, &k.call, &a) };
    let op = cx.ours("plan", || unsafe { plan_call(&libs.ours, &k.call, &b) });
    unsafe {
        if !fp.is_null() {
            (libs.fftw.destroy)(fp);
        }
    }
    if !op.is_null() {
        cx.ours("destroy", || unsafe { (libs.ours.destroy)(op) });
    }
    if fp.is_null() || op.is_null() {
        return;
    }
    cx.ours("forget_wisdom", || unsafe { (libs.ours.forget_wisdom)() });
    unsafe { (libs.fftw.forget_wisdom)() };
    for (step, f) in [
        ESTIMATE | WISDOM_ONLY,
        ESTIMATE,
        ESTIMATE | WISDOM_ONLY,
        MEASURE | WISDOM_ONLY,
    ]
    .into_iter()
    .enumerate()
    {
        k.call.flags = base | f;
        let a = theirs.ptrs(&k.call.args);
        let fp = unsafe { plan_call(&libs.fftw, &k.call, &a) };
        let a = mem.ptrs(&k.call.args);
        let op = cx.ours("plan", || unsafe { plan_call(&libs.ours, &k.call, &a) });
        if fp.is_null() != op.is_null() {
            let what = format!(
                "wisdom: FFTW {}, fftx {}",
                if fp.is_null() { "NULL" } else { "plans" },
                if op.is_null() { "NULL" } else { "plans" }
            );
            cx.mismatch(
                &what,
                format!("step {step}, flags {}", flags_text(k.call.flags)),
            );
        }
        unsafe {
            if !fp.is_null() {
                (libs.fftw.destroy)(fp);
            }
        }
        if !op.is_null() {
            cx.ours("destroy", || unsafe { (libs.ours.destroy)(op) });
        }
    }
}

/// Planner-wide calls, now and then: forget wisdom, cleanup, export wisdom, threads.
fn global_ops(cx: &mut Ctx, libs: &Libs, rng: &mut SmallRng) {
    let calls = cx.calls_by.clone();
    global_ops_inner(cx, libs, rng);
    if (cx.verbose || cx.trace) && calls != cx.calls_by {
        let done: Vec<&str> = cx
            .calls_by
            .iter()
            .filter(|(k, v)| calls.get(*k) != Some(v))
            .map(|(k, _)| *k)
            .collect();
        eprintln!("planner-wide: {}", done.join(", "));
    }
}

fn global_ops_inner(cx: &mut Ctx, libs: &Libs, rng: &mut SmallRng) {
    cx.label = "global".into();
    cx.note = "planner-wide call (forget_wisdom / cleanup / export_wisdom_to_string / plan_with_nthreads)".into();
    if rng.gen_bool(0.002) {
        cx.ours("forget_wisdom", || unsafe { (libs.ours.forget_wisdom)() });
        unsafe { (libs.fftw.forget_wisdom)() };
    }
    if rng.gen_bool(0.0005) {
        cx.ours("cleanup", || unsafe { (libs.ours.cleanup)() });
        // FFTW's plans do not survive its cleanup.
        cx.refs64.clear();
        cx.refs32.clear();
        unsafe { (libs.fftw.cleanup)() };
    }
    if rng.gen_bool(0.002) {
        let s = cx.ours("export_wisdom_to_string", || unsafe {
            (libs.ours.export_wisdom_to_string)()
        });
        if s.is_null() {
            cx.mismatch("export_wisdom_to_string returned NULL", String::new());
        } else {
            let text = unsafe { std::ffi::CStr::from_ptr(s) }
                .to_string_lossy()
                .into_owned();
            if !text.starts_with("(fftw-3.3.10") {
                cx.mismatch(
                    "export_wisdom_to_string: not FFTW 3.3.10 wisdom",
                    text.chars().take(80).collect(),
                );
            }
            unsafe { libc::free(s as *mut c_void) };
        }
    }
    if rng.gen_bool(0.002) {
        let n = pick(rng, &[1, 1, 2, 3, 4]);
        let f = libs.ours.plan_with_nthreads.unwrap();
        cx.ours("plan_with_nthreads", || unsafe { f(n) });
    }
    if rng.gen_bool(0.001) {
        // A program's own parallel loop (as an OpenMP runtime installs), or fftx's threads again.
        let on = rng.gen_bool(0.5);
        cx.ours("threads_set_callback", || unsafe {
            fftx::fftw_threads_set_callback(
                if on { Some(scoped_loop) } else { None },
                std::ptr::null_mut(),
            )
        });
    }
}

/// A caller's parallel loop for `fftw_threads_set_callback`: each job on a scoped thread.
unsafe extern "C" fn scoped_loop(
    work: fftx::fftw_work_func,
    jobdata: *mut c_char,
    elsize: usize,
    njobs: c_int,
    _data: *mut c_void,
) {
    let work = work.unwrap();
    let base = jobdata as usize;
    std::thread::scope(|s| {
        for i in 0..njobs as usize {
            s.spawn(move || {
                unsafe { work((base + i * elsize) as *mut c_char) };
            });
        }
    });
}

fn env<X: std::str::FromStr>(name: &str) -> Option<X> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[test]
fn fuzz_api() {
    let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    install_crash_reporting();
    let seed: u64 = env("FFTX_FUZZ_SEED").unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        (t.as_nanos() as u64) ^ ((std::process::id() as u64) << 32)
    });
    let target: u64 = env("FFTX_FUZZ_CALLS").unwrap_or(1_000_000);
    let only: Option<u64> = env("FFTX_FUZZ_CASE");
    let skip: HashSet<String> = std::env::var("FFTX_FUZZ_SKIP")
        .unwrap_or_default()
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    say(&format!("fuzz: seed {seed} (FFTX_FUZZ_SEED={seed} repeats this run); at least {target} calls into fftx\n"));
    let libs64 = Libs {
        ours: ours_lib!(fftw_),
        fftw: fftw_lib("fftw_"),
    };
    let libs32 = Libs {
        ours: ours_lib!(fftwf_),
        fftw: fftw_lib("fftwf_"),
    };
    let mut cx = Ctx {
        seed,
        verbose: only.is_some(),
        trace: std::env::var_os("FFTX_FUZZ_TRACE").is_some(),
        huge_left: if only.is_some() { 1 } else { 2 },
        stop: false,
        refs64: RefCache::new(),
        refs32: RefCache::new(),
        skip,
        calls: 0,
        calls_by: BTreeMap::new(),
        families: BTreeMap::new(),
        labels: BTreeMap::new(),
        classes: BTreeMap::new(),
        outcomes: BTreeMap::new(),
        mismatches: BTreeMap::new(),
        heap_seen: HEAP_CORRUPTIONS.load(Ordering::SeqCst),
        panics_seen: PANICS.load(Ordering::SeqCst),
        note: String::new(),
        label: String::new(),
    };
    let t0 = Instant::now();
    let mut idx = only.or(env("FFTX_FUZZ_FROM")).unwrap_or(0);
    let mut cases = 0u64;
    while !cx.stop
        && if only.is_some() {
            cases == 0
        } else {
            cx.calls < target
        }
    {
        let mut rng = SmallRng::seed_from_u64(seed ^ idx.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let double = rng.gen_bool(0.5);
        let libs = if double { &libs64 } else { &libs32 };
        global_ops(&mut cx, libs, &mut rng);
        match (double, rng.gen_bool(0.003)) {
            (true, false) => run_case::<f64>(&mut cx, libs, &mut rng, idx),
            (false, false) => run_case::<f32>(&mut cx, libs, &mut rng, idx),
            (true, true) => run_wisdom_case::<f64>(&mut cx, libs, &mut rng, idx),
            (false, true) => run_wisdom_case::<f32>(&mut cx, libs, &mut rng, idx),
        }
        PROGRESS.fetch_add(1, Ordering::SeqCst);
        idx += 1;
        cases += 1;
    }
    // Leave the planners as found.
    unsafe {
        (libs64.ours.plan_with_nthreads.unwrap())(1);
        (libs32.ours.plan_with_nthreads.unwrap())(1);
        fftx::fftw_threads_set_callback(None, std::ptr::null_mut());
    }
    set_note("after the last case");
    let secs = t0.elapsed().as_secs_f64();

    let mut out = format!(
        "fuzz: {} calls into fftx in {cases} cases, {secs:.1} s (seed {seed})\n  calls:",
        cx.calls
    );
    for (k, v) in &cx.calls_by {
        out += &format!(" {k} {v};");
    }
    out += "\n  planning outcomes per class:";
    let mut last = "";
    for (k, v) in &cx.outcomes {
        let (class, rest) = k.split_once(": ").unwrap_or(("", k));
        if class != last {
            out += &format!("\n    {class}:");
            last = class;
        }
        out += &format!(" {rest} {v};");
    }
    out += "\n  cases per mutation class:";
    for (k, v) in &cx.classes {
        out += &format!(" {k} {v};");
    }
    out += "\n  well-formed cases per label:";
    for (k, v) in &cx.labels {
        out += &format!(" {k} {v};");
    }
    out += "\n  cases per family:\n";
    let fams: Vec<String> = cx
        .families
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    for chunk in fams.chunks(4) {
        out += &format!("    {}\n", chunk.join("; "));
    }
    let allowed = |k: &str| ALLOWED.iter().any(|(a, _)| glob(a, k));
    out += &format!("  mismatch classes: {}\n", cx.mismatches.len());
    for (k, (n, first)) in &cx.mismatches {
        out += &format!(
            "  {} {n} x {k}\n    first: {first}\n",
            if allowed(k) { "(allowed)" } else { "MISMATCH" }
        );
    }
    say(&out);
    let failing: Vec<&String> = cx.mismatches.keys().filter(|k| !allowed(k)).collect();
    assert!(
        failing.is_empty(),
        "{} mismatch classes (see above):\n  {}",
        failing.len(),
        failing
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  ")
    );
    assert!(only.is_some() || cx.calls >= target || cx.stop);
}

/// Writes to stderr past the test harness's capture, so that the summary always shows.
fn say(s: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(s.as_bytes());
}
