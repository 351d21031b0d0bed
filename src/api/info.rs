//! What a plan is and costs (`fftw_print_plan`, `fftw_flops`, `fftw_cost`, …), the planner's
//! time limit, `fftw_cleanup`, and the version strings.

use super::{guard, live_plan};
use crate::plan::Plan;
use crate::problem::Precision;
use crate::real::Real;
use std::ffi::CString;
use std::os::raw::c_char;
use std::ptr::null_mut;

extern "C" {
    /// C's `stdout`, so that our output interleaves correctly with the program's printf.
    static mut stdout: *mut libc::FILE;
}

/// `fftw_cleanup`: forget wisdom, drop cached algorithms, give back idle GPU memory and staging
/// blocks; existing plans keep working.
pub(crate) fn cleanup(p: Precision) {
    crate::wisdom::of(p).forget();
    crate::exec::cuda::cleanup();
    match p {
        Precision::F32 => f32::planners().clear(),
        Precision::F64 => f64::planners().clear(),
    }
}

unsafe fn fprint<T: Real>(p: *const Plan, f: *mut libc::FILE) -> crate::error::Result<()> {
    let plan = live_plan::<T>(p)?;
    if f.is_null() {
        return Err("NULL FILE*".into());
    }
    let s = CString::new(plan.describe()).map_err(|e| e.to_string())?;
    libc::fputs(s.as_ptr(), f);
    Ok(())
}

const fn bytes_of<const N: usize>(s: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    let mut i = 0;
    while i < N {
        a[i] = s[i];
        i += 1;
    }
    a
}

/// Begins with FFTW's version, as FFTW's does, so programs that parse it see 3.3.10, then the fftx
/// tag. Kept at 17 bytes: a program built against FFTW holds its own copy of this array (a copy
/// relocation) sized by the FFTW it was built with (21 bytes for Debian's "fftw-3.3.10-sse2-avx",
/// 17 for "-sse2" builds), and the loader copies only that many bytes: a longer string would
/// lose its terminating NUL there.
const VERSION: &[u8] = b"fftw-3.3.10-fftx\0";
const CC: &[u8] = b"rustc (fftx)\0";
const CODELET_OPTIM: &[u8] = b"\0";

#[no_mangle]
pub static fftw_version: [u8; VERSION.len()] = bytes_of(VERSION);
#[no_mangle]
pub static fftwf_version: [u8; VERSION.len()] = bytes_of(VERSION);
#[no_mangle]
pub static fftw_cc: [u8; CC.len()] = bytes_of(CC);
#[no_mangle]
pub static fftwf_cc: [u8; CC.len()] = bytes_of(CC);
#[no_mangle]
pub static fftw_codelet_optim: [u8; CODELET_OPTIM.len()] = bytes_of(CODELET_OPTIM);
#[no_mangle]
pub static fftwf_codelet_optim: [u8; CODELET_OPTIM.len()] = bytes_of(CODELET_OPTIM);

macro_rules! info_api {
    ($R:ty, $p:ident) => { paste::paste! {
        #[no_mangle]
        pub unsafe extern "C" fn [<$p fprint_plan>](p: *const Plan, f: *mut libc::FILE) {
            guard(stringify!([<$p fprint_plan>]), (), || fprint::<$R>(p, f))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p print_plan>](p: *const Plan) {
            guard(stringify!([<$p print_plan>]), (), || fprint::<$R>(p, stdout))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p sprint_plan>](p: *const Plan) -> *mut c_char {
            guard(stringify!([<$p sprint_plan>]), null_mut(), || {
                let s = CString::new(live_plan::<$R>(p)?.describe()).map_err(|e| e.to_string())?;
                Ok(libc::strdup(s.as_ptr()))
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p flops>](p: *const Plan, add: *mut f64, mul: *mut f64, fma: *mut f64) {
            guard(stringify!([<$p flops>]), (), || {
                let (a, m, f) = live_plan::<$R>(p)?.flops();
                for (ptr, v) in [(add, a), (mul, m), (fma, f)] {
                    if !ptr.is_null() {
                        *ptr = v;
                    }
                }
                Ok(())
            })
        }
        /// FFTW's `fftw_cost`: the measured time when the plan was measured, 0 otherwise.
        #[no_mangle]
        pub unsafe extern "C" fn [<$p cost>](p: *const Plan) -> f64 {
            guard(stringify!([<$p cost>]), 0.0, || Ok(live_plan::<$R>(p)?.choice.cost_ns))
        }
        /// FFTW's `fftw_estimate_cost`: the cost model's figure (operation count).
        #[no_mangle]
        pub unsafe extern "C" fn [<$p estimate_cost>](p: *const Plan) -> f64 {
            guard(stringify!([<$p estimate_cost>]), 0.0, || {
                let (a, m, f) = live_plan::<$R>(p)?.flops();
                Ok(a + m + f)
            })
        }
        #[no_mangle]
        pub extern "C" fn [<$p set_timelimit>](seconds: f64) {
            crate::planner::settings(<$R as Real>::PRECISION).set_timelimit(seconds);
        }
        #[no_mangle]
        pub extern "C" fn [<$p cleanup>]() {
            cleanup(<$R as Real>::PRECISION);
        }
    }};
}

info_api!(f64, fftw_);
info_api!(f32, fftwf_);
