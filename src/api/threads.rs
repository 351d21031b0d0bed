//! FFTW's threads interface (`libfftw3_threads` / `libfftw3_omp` in FFTW; here, one library).
//! Plans made after `fftw_plan_with_nthreads(n)` may use up to n threads; the planner picks how
//! many pay off. The planner itself is always thread-safe.

use crate::abi::fftw_parallel_loop;
use crate::exec::parallel;
use crate::planner::settings;
use crate::problem::Precision;
use std::os::raw::c_int;

macro_rules! threads_api {
    ($prec:expr, $p:ident) => { paste::paste! {
        #[no_mangle]
        pub extern "C" fn [<$p init_threads>]() -> c_int {
            1
        }
        #[no_mangle]
        pub extern "C" fn [<$p cleanup_threads>]() {
            settings($prec).set_nthreads(1);
            super::info::cleanup($prec);
        }
        #[no_mangle]
        pub extern "C" fn [<$p plan_with_nthreads>](nthreads: c_int) {
            settings($prec).set_nthreads(nthreads);
        }
        #[no_mangle]
        pub extern "C" fn [<$p planner_nthreads>]() -> c_int {
            settings($prec).nthreads() as c_int
        }
        #[no_mangle]
        pub extern "C" fn [<$p make_planner_thread_safe>]() {}
        #[no_mangle]
        pub unsafe extern "C" fn [<$p threads_set_callback>](parallel_loop: fftw_parallel_loop, data: *mut libc::c_void) {
            parallel::set_callback(parallel_loop, data);
        }
    }};
}

threads_api!(Precision::F64, fftw_);
threads_api!(Precision::F32, fftwf_);
