//! `fftw_malloc` and friends: blocks of `exec::host_memory` (aligned for SIMD; pinned from 1 MiB
//! when a GPU is usable, so transfers run at full speed straight from the caller's arrays),
//! freed with `fftw_free`, which knows which allocator made a block (FFTW's manual requires
//! `fftw_free` for them).

use super::guard;
use crate::exec::host_memory;
use std::os::raw::c_int;
use std::ptr::null_mut;

/// The alignment `fftw_alignment_of` reports against: FFTW 3.3.10's SIMD alignment (16 bytes).
pub const FFTW_ALIGNMENT: usize = 16;

fn alloc_elements(n: usize, size: usize) -> *mut libc::c_void {
    guard("fftw_alloc", null_mut(), || {
        n.checked_mul(size)
            .map(host_memory::alloc)
            .ok_or_else(|| format!("{n} elements of {size} bytes overflow").into())
    })
}

macro_rules! memory_api {
    ($R:ty, $p:ident) => {
        paste::paste! {
            #[no_mangle]
            pub extern "C" fn [<$p malloc>](n: usize) -> *mut libc::c_void {
                host_memory::alloc(n)
            }
            #[no_mangle]
            pub unsafe extern "C" fn [<$p free>](p: *mut libc::c_void) {
                host_memory::free(p)
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
