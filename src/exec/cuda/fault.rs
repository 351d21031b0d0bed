//! Faults injected on purpose, to show that a GPU failure never loses the caller's data (the
//! plan recomputes on the CPU, or fails before anything the caller owns was written).
//!
//! `FFTX_FAULT` arms them for a whole process, comma-separated; tests arm them with [`arm`]:
//! - `no-cuda`: CUDA is missing (only from the environment: the GPU is opened once);
//! - `oom-plan`: the next GPU plan runs out of device memory while it is made;
//! - `oom-execute`: the next GPU execute runs out of device memory before it moves anything;
//! - `launch` or `launch:N`: the (N+1)-th kernel or cuFFT launch from now fails (N = 0 first);
//! - `reset`: the device is really reset (`cuDevicePrimaryCtxReset`) at the start of the next
//!   execute, so that execute and every later use of the plan's device resources fail.
//!
//! Each fires once. Real failures take the same paths; the injected ones only choose when.

use super::{Error, ErrorKind, Result};
use std::sync::atomic::{AtomicI64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    OomPlan,
    OomExecute,
    /// A launch fails after this many more succeed.
    Launch(u32),
    Reset,
}

/// Remaining fires (0: disarmed); for `LAUNCH`, launches left before the failing one, -1 off.
static OOM_PLAN: AtomicI64 = AtomicI64::new(0);
static OOM_EXECUTE: AtomicI64 = AtomicI64::new(0);
static LAUNCH: AtomicI64 = AtomicI64::new(-1);
static RESET: AtomicI64 = AtomicI64::new(0);

/// Arms a fault (it fires once).
pub fn arm(f: Fault) {
    match f {
        Fault::OomPlan => OOM_PLAN.store(1, Ordering::SeqCst),
        Fault::OomExecute => OOM_EXECUTE.store(1, Ordering::SeqCst),
        Fault::Launch(after) => LAUNCH.store(after as i64, Ordering::SeqCst),
        Fault::Reset => RESET.store(1, Ordering::SeqCst),
    }
}

/// Disarms every fault.
pub fn clear() {
    OOM_PLAN.store(0, Ordering::SeqCst);
    OOM_EXECUTE.store(0, Ordering::SeqCst);
    LAUNCH.store(-1, Ordering::SeqCst);
    RESET.store(0, Ordering::SeqCst);
}

/// `FFTX_FAULT`'s list, read when the GPU is opened. Returns whether `no-cuda` is in it.
pub(super) fn arm_from_env() -> bool {
    let Ok(list) = std::env::var("FFTX_FAULT") else {
        return false;
    };
    let mut no_cuda = false;
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match item.split_once(':') {
            _ if item == "no-cuda" => no_cuda = true,
            _ if item == "oom-plan" => arm(Fault::OomPlan),
            _ if item == "oom-execute" => arm(Fault::OomExecute),
            _ if item == "reset" => arm(Fault::Reset),
            _ if item == "launch" => arm(Fault::Launch(0)),
            Some(("launch", n)) if n.parse::<u32>().is_ok() => arm(Fault::Launch(n.parse().unwrap())),
            _ => crate::log::log_warn!("FFTX_FAULT: unknown fault {item:?} (no-cuda, oom-plan, oom-execute, launch[:N], reset)"),
        }
    }
    no_cuda
}

/// Takes one fire of a once-armed fault.
fn fire(cell: &AtomicI64) -> bool {
    cell.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |v| {
        (v > 0).then_some(v - 1)
    })
    .is_ok()
}

fn oom(when: &str) -> Error {
    Error::new(
        ErrorKind::OutOfDeviceMemory,
        format!("out of memory (injected at {when}: FFTX_FAULT)"),
    )
}

/// At the start of making a GPU plan.
pub fn at_plan() -> Result<()> {
    if fire(&OOM_PLAN) {
        return Err(oom("plan time"));
    }
    Ok(())
}

/// At the start of a GPU execute, before anything moves: a reset, or running out of memory.
pub fn at_execute(device: i32) -> Result<()> {
    if fire(&RESET) {
        crate::log::log_warn!("FFTX_FAULT: resetting device {device}");
        // SAFETY: a plain driver call on a device ordinal; everything made in its primary
        // context becomes invalid, which is the point.
        unsafe {
            let mut dev = 0;
            super::check(super::cu::cuDeviceGet(&mut dev, device), "cuDeviceGet")?;
            super::check(
                super::cu::cuDevicePrimaryCtxReset_v2(dev),
                "cuDevicePrimaryCtxReset",
            )?;
        }
    }
    if fire(&OOM_EXECUTE) {
        return Err(oom("execute"));
    }
    Ok(())
}

/// Before each kernel or cuFFT launch.
pub fn at_launch() -> Result<()> {
    let failing = LAUNCH
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |v| {
            (v >= 0).then_some(v - 1)
        })
        .is_ok_and(|v| v == 0);
    if failing {
        return Err(Error::cuda("launch failed (injected: FFTX_FAULT)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_fire_once_and_launches_count_down() {
        clear();
        assert!(at_plan().is_ok());
        arm(Fault::OomPlan);
        assert_eq!(at_plan().unwrap_err().kind, ErrorKind::OutOfDeviceMemory);
        assert!(at_plan().is_ok());
        arm(Fault::Launch(2));
        assert!(at_launch().is_ok() && at_launch().is_ok());
        assert_eq!(at_launch().unwrap_err().kind, ErrorKind::Cuda);
        assert!(at_launch().is_ok());
        clear();
    }
}
