//! `fftw_malloc` and friends: memory aligned for SIMD (64 bytes, more than FFTW's 16 or 32), freed
//! with `fftw_free`. When a GPU is usable, blocks of 1 MiB and more are pinned (page-locked) host
//! memory, so transfers to and from the GPU run at full speed straight from the caller's arrays;
//! FFTW's manual requires `fftw_free` for them, and `fftw_free` knows which allocator made a block.

use super::guard;
use std::os::raw::c_int;
use std::ptr::null_mut;

/// Alignment of blocks from `fftw_malloc`.
pub const MALLOC_ALIGNMENT: usize = 64;
/// The alignment `fftw_alignment_of` reports against: FFTW 3.3.10's SIMD alignment (16 bytes).
pub const FFTW_ALIGNMENT: usize = 16;

pub(crate) fn aligned_alloc(bytes: usize) -> *mut libc::c_void {
    if let Some(p) = crate::exec::cuda::malloc_pinned(bytes) {
        return p;
    }
    let mut p: *mut libc::c_void = null_mut();
    // FFTW returns a valid pointer for n = 0.
    let bytes = bytes.max(1);
    // SAFETY: posix_memalign with a power-of-two multiple of sizeof(void*).
    if unsafe { libc::posix_memalign(&mut p, MALLOC_ALIGNMENT, bytes) } != 0 {
        crate::log::log_warn!("fftw_malloc: out of memory for {bytes} bytes");
        return null_mut();
    }
    p
}

fn alloc_elements(n: usize, size: usize) -> *mut libc::c_void {
    guard("fftw_alloc", null_mut(), || {
        n.checked_mul(size)
            .map(aligned_alloc)
            .ok_or_else(|| format!("{n} elements of {size} bytes overflow"))
    })
}

macro_rules! memory_api {
    ($R:ty, $p:ident) => {
        paste::paste! {
            #[no_mangle]
            pub extern "C" fn [<$p malloc>](n: usize) -> *mut libc::c_void {
                aligned_alloc(n)
            }
            #[no_mangle]
            pub unsafe extern "C" fn [<$p free>](p: *mut libc::c_void) {
                if !crate::exec::cuda::free_pinned(p) {
                    libc::free(p)
                }
            }
            #[no_mangle]
            pub extern "C" fn [<$p alloc_real>](n: usize) -> *mut $R {
                alloc_elements(n, std::mem::size_of::<$R>()) as *mut $R
            }
            #[no_mangle]
            pub extern "C" fn [<$p alloc_complex>](n: usize) -> *mut [$R; 2] {
                alloc_elements(n, 2 * std::mem::size_of::<$R>()) as *mut [$R; 2]
            }
            #[no_mangle]
            pub extern "C" fn [<$p alignment_of>](p: *mut $R) -> c_int {
                (p as usize % FFTW_ALIGNMENT) as c_int
            }
        }
    };
}

memory_api!(f64, fftw_);
memory_api!(f32, fftwf_);
