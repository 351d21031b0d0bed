//! Host blocks as `fftw_malloc` makes them: pinned (page-locked) from 1 MiB when a GPU is usable,
//! so transfers to and from the GPU run at full speed straight from them; otherwise aligned for
//! SIMD (64 bytes). [`free`] knows which allocator made a block. The FFTW-MPI plans' scratch
//! arrays are such blocks too ([`HostBlock`]), so their local transforms may run on the GPU.

use std::ptr::null_mut;

/// Alignment of the blocks that are not pinned (pinned ones are page-aligned).
pub const ALIGNMENT: usize = 64;

/// A block of `bytes` (NULL when the host has no memory for it, with a warning).
pub fn alloc(bytes: usize) -> *mut libc::c_void {
    if let Some(p) = super::cuda::malloc_pinned(bytes) {
        return p;
    }
    let mut p: *mut libc::c_void = null_mut();
    // FFTW returns a valid pointer for n = 0.
    let bytes = bytes.max(1);
    // SAFETY: posix_memalign with a power-of-two multiple of sizeof(void*).
    if unsafe { libc::posix_memalign(&mut p, ALIGNMENT, bytes) } != 0 {
        crate::log::log_warn!("fftw_malloc: out of memory for {bytes} bytes");
        return null_mut();
    }
    p
}

/// Frees a block of [`alloc`] (or of `malloc`).
///
/// # Safety
/// `p` must come from [`alloc`] or `malloc` and not be used after.
pub unsafe fn free(p: *mut libc::c_void) {
    if !super::cuda::free_pinned(p) {
        libc::free(p)
    }
}

/// An owned block of [`alloc`], freed when dropped.
pub struct HostBlock {
    ptr: *mut libc::c_void,
}

// SAFETY: the block is plain memory owned by this value.
unsafe impl Send for HostBlock {}
unsafe impl Sync for HostBlock {}

impl HostBlock {
    pub fn new(bytes: usize) -> crate::error::Result<HostBlock> {
        let ptr = alloc(bytes);
        if ptr.is_null() {
            return Err(crate::error::Error::out_of_host_memory(format!(
                "no host memory for a block of {bytes} bytes"
            )));
        }
        Ok(HostBlock { ptr })
    }

    pub fn addr(&self) -> usize {
        self.ptr as usize
    }
}

impl Drop for HostBlock {
    fn drop(&mut self) {
        // SAFETY: ours, from alloc, and no longer used.
        unsafe { free(self.ptr) }
    }
}
