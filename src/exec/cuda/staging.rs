//! Pinned staging blocks: host arrays that are not page-locked travel through these (the
//! blocked-buffer scheme of the out-of-card paper, §3). Blocks are pooled per device across
//! plans and executes, and given back by `fftw_cleanup`.

use super::{check, Device, Result};
use cudarc::driver::sys as cu;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes per staging block: large enough that a DMA runs near full speed, small enough that
/// host copies and transfers overlap finely.
pub const BLOCK_BYTES: usize = 8 << 20;

/// A page-locked host block of `BLOCK_BYTES` (or more, for a transform that cannot be split).
pub struct PinnedBlock {
    pub ptr: *mut u8,
    pub len: usize,
}

// SAFETY: plain memory, owned by one user at a time.
unsafe impl Send for PinnedBlock {}

/// A device's idle staging blocks.
#[derive(Default)]
pub struct Pool(Mutex<Vec<PinnedBlock>>);

static LIVE: AtomicUsize = AtomicUsize::new(0);

pub fn live_blocks() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// A block of at least `bytes` from device `g`'s pool, or a new one.
pub fn take(g: &Device, bytes: usize) -> Result<PinnedBlock> {
    let bytes = bytes.max(BLOCK_BYTES);
    {
        let mut pool = g.staging.0.lock();
        if let Some(i) = pool.iter().position(|b| b.len >= bytes) {
            return Ok(pool.swap_remove(i));
        }
    }
    let mut p = std::ptr::null_mut();
    // Within g's context, leaving the caller's current: a program's copy into host memory on
    // card 1 takes card 0's pool, and its event is then made in card 1's context (after a
    // plain bind it was made in card 0's and recorded on card 1's stream: "invalid resource
    // handle" on 2 H200s).
    g.within(|| {
        // SAFETY: cuMemHostAlloc writes the new block's address.
        check(
            unsafe { cu::cuMemHostAlloc(&mut p, bytes, cu::CU_MEMHOSTALLOC_PORTABLE) },
            "cuMemHostAlloc (staging)",
        )
    })?;
    LIVE.fetch_add(1, Ordering::Relaxed);
    Ok(PinnedBlock {
        ptr: p as *mut u8,
        len: bytes,
    })
}

/// Returns a block to device `g`'s pool (the caller has waited for every transfer that uses it).
pub fn give(g: &Device, b: PinnedBlock) {
    g.staging.0.lock().push(b);
}

impl Pool {
    /// Frees every pooled block of `g` (blocks in use come back to the pool later).
    pub fn release_idle(&self, g: &Device) {
        let blocks: Vec<PinnedBlock> = std::mem::take(&mut *self.0.lock());
        if blocks.is_empty() || g.is_lost() {
            return;
        }
        let _ = g.bind();
        for b in blocks {
            // SAFETY: allocated by cuMemHostAlloc, idle, freed once.
            unsafe { cu::cuMemFreeHost(b.ptr as *mut _) };
            LIVE.fetch_sub(1, Ordering::Relaxed);
        }
    }
}
