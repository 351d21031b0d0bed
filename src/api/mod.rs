//! The C ABI: FFTW3's entry points, `fftw_` (f64) and `fftwf_` (f32).
//!
//! Every family file has one generic body per call and a macro that stamps out both precisions.
//! Every entry point runs inside [`guard`]: a failure becomes FFTW's failure value (a NULL plan,
//! 0, nothing done) plus a message under `FFTX_LOG=warn`, and a panic never crosses the boundary.

pub mod advanced;
pub mod basic;
pub mod execute;
pub mod fortran;
pub mod guru;
pub mod info;
pub mod memory;
pub mod mpi;
pub mod split;
pub mod threads;
pub mod wisdom;

use crate::exec::cpu::layout::ArrayPtr;
use crate::plan::Plan;
use crate::planner;
use crate::problem::{IoDim, Kind, Problem};
use crate::real::Real;
use once_cell::sync::Lazy;
use parking_lot::Mutex;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The opaque type behind `fftw_plan` and `fftwf_plan`.
pub type fftw_plan = *mut Plan;
pub type fftwf_plan = *mut Plan;

/// Runs an entry point's body (`crate::error::guard`): an error becomes `fail` and a warning,
/// a panic `fail` and an error-level message.
pub(crate) fn guard<R>(what: &str, fail: R, f: impl FnOnce() -> crate::error::Result<R>) -> R {
    crate::error::guard(
        fail,
        |e| {
            // The caller's errors are warnings even where the kind alone says info: FFTW
            // answers NULL, and the message is all the caller learns.
            let level = e.log_level().min(crate::log::Level::Warn); // the more severe
            crate::log::emit(level, format_args!("{what}: {e}"));
        },
        f,
    )
}

/// `guard` for the execute calls. FFTW's execute cannot fail: when ours does (its output not,
/// or not wholly, computed), the message is an error, which `FFTX_LOG`'s default shows.
pub(crate) fn guard_execute(what: &str, f: impl FnOnce() -> crate::error::Result<()>) {
    crate::error::guard(
        (),
        |e| crate::log::emit(crate::log::Level::Error, format_args!("{what}: {e}")),
        f,
    )
}

/// Addresses of the plans alive now, so that execute/destroy can refuse pointers that are not
/// plans (NULL, freed, foreign) instead of crashing.
/// (Hashed by a multiply, not SipHash: every execute looks its plan up, and for small
/// transforms SipHash was a sixth of the execute's time.)
static LIVE_PLANS: Lazy<Mutex<HashSet<usize, BuildHasherDefault<AddressHasher>>>> =
    Lazy::new(|| Mutex::new(HashSet::default()));

/// Hashes a plan's address: Fibonacci hashing of the one `usize` written (addresses are not
/// chosen by an adversary; distinct heap blocks differ in their middle bits).
#[derive(Default)]
struct AddressHasher(u64);
impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, x: usize) {
        self.0 = (x as u64 ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

pub(crate) fn register(plan: Plan) -> *mut Plan {
    let p = Box::into_raw(Box::new(plan));
    LIVE_PLANS.lock().insert(p as usize);
    p
}

/// The plan behind a caller's pointer, if it is one of ours and alive, in precision `T`.
pub(crate) fn live_plan<'a, T: Real>(p: *const Plan) -> crate::error::Result<&'a Plan> {
    if p.is_null() {
        return Err("NULL plan".into());
    }
    if !LIVE_PLANS.lock().contains(&(p as usize)) {
        return Err(format!("{p:p} is not a live plan (destroyed already, or never made)").into());
    }
    // SAFETY: registered plans stay allocated until fftw_destroy_plan removes them.
    let plan = unsafe { &*p };
    if plan.problem.precision != T::PRECISION {
        return Err(format!(
            "a {} plan passed to the {} API",
            plan.problem.precision.name(),
            T::PRECISION.name()
        )
        .into());
    }
    Ok(plan)
}

pub(crate) fn destroy(p: *mut Plan) -> crate::error::Result<()> {
    if p.is_null() {
        return Ok(()); // FFTW ignores NULL
    }
    if !LIVE_PLANS.lock().remove(&(p as usize)) {
        return Err(format!("{p:p} is not a live plan (destroyed already, or never made)").into());
    }
    // SAFETY: it was made by `register` and is removed from the registry exactly once.
    drop(unsafe { Box::from_raw(p) });
    Ok(())
}

/// A complex array given as FFTW's interleaved `fftw_complex *`.
pub(crate) fn interleaved<T>(p: *mut [T; 2]) -> ArrayPtr {
    ArrayPtr::Complex {
        re: p as usize,
        im: p as usize + std::mem::size_of::<T>(),
    }
}

pub(crate) fn split_array<T>(re: *mut T, im: *mut T) -> ArrayPtr {
    ArrayPtr::Complex {
        re: re as usize,
        im: im as usize,
    }
}

pub(crate) fn real_array<T>(p: *mut T) -> ArrayPtr {
    ArrayPtr::Real(p as usize)
}

/// Makes a plan; the common end of every planning entry point.
pub(crate) fn make_plan<T: Real>(
    kind: Kind,
    dims: Vec<IoDim>,
    loops: Vec<IoDim>,
    input: ArrayPtr,
    output: ArrayPtr,
    flags: u32,
) -> crate::error::Result<*mut Plan> {
    let kind = match kind {
        // FFTW computes a forward transform for FFTW_FORWARD (-1) and a backward one for any
        // other sign.
        Kind::Dft { sign } if sign != -1 && sign != 1 => {
            crate::log::log_warn!("sign {sign} is neither FFTW_FORWARD (-1) nor FFTW_BACKWARD (+1): computed as FFTW_BACKWARD, as FFTW does");
            Kind::Dft { sign: 1 }
        }
        k => k,
    };
    // FFTW's rule: in place when the pointers are equal (NULL and NULL included).
    let problem = Problem {
        kind,
        dims,
        loops,
        precision: T::PRECISION,
        in_place: input.base() == output.base(),
    };
    planner::plan::<T>(problem, input, output, flags).map(register)
}

/// Reads `rank` ints from a C array, checking rank and pointer first.
pub(crate) unsafe fn read_ints(
    rank: i32,
    p: *const i32,
    what: &str,
) -> crate::error::Result<Vec<isize>> {
    if rank < 0 || rank == i32::MAX {
        return Err(
            format!("rank {rank} (negative, or INT_MAX: FFTW's minus-infinity rank)").into(),
        );
    }
    if rank > 0 && p.is_null() {
        return Err(format!("{what} is NULL with rank {rank}").into());
    }
    Ok((0..rank as usize).map(|i| *p.add(i) as isize).collect())
}

/// Reads an optional embed array (NULL means "the default"). Like FFTW, never reads
/// `embed[0]` (only the inner dimensions set strides): it is returned as 0.
pub(crate) unsafe fn read_embed(rank: i32, p: *const i32) -> Option<Vec<isize>> {
    (!p.is_null()).then(|| {
        (0..rank.max(0) as usize)
            .map(|i| if i == 0 { 0 } else { *p.add(i) as isize })
            .collect()
    })
}

/// FFTW's row-major strides for an array of logical `shape` stored in an `embed`-sized array:
/// dimension i advances by `stride * prod(embed[i+1..])` elements (`embed[0]` is not used).
pub(crate) fn row_major(embed: &[isize], stride: isize) -> crate::error::Result<Vec<isize>> {
    let mut out = vec![0isize; embed.len()];
    let mut s = stride;
    for i in (0..embed.len()).rev() {
        out[i] = s;
        if i > 0 {
            s = s
                .checked_mul(embed[i])
                .ok_or("embedded array size overflows")?;
        }
    }
    Ok(out)
}
