//! The basic interface: one transform of a contiguous row-major array (FFTW manual §4.3).
//! Each call is the advanced interface with howmany = 1 and no embedding.

use super::advanced::{many_dft, many_dft_c2r, many_dft_r2c, many_r2r};
use super::guard;
use crate::plan::Plan;
use std::os::raw::{c_int, c_uint};
use std::ptr::null;
use std::ptr::null_mut;

macro_rules! basic_api {
    ($R:ty, $p:ident) => { paste::paste! {
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft>](rank: c_int, n: *const c_int, input: *mut [$R; 2], output: *mut [$R; 2], sign: c_int, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p plan_dft>]), null_mut(), || many_dft::<$R>(rank, n, 1, input, null(), 1, 0, output, null(), 1, 0, sign, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_1d>](n0: c_int, input: *mut [$R; 2], output: *mut [$R; 2], sign: c_int, flags: c_uint) -> *mut Plan {
            [<$p plan_dft>](1, [n0].as_ptr(), input, output, sign, flags)
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_2d>](n0: c_int, n1: c_int, input: *mut [$R; 2], output: *mut [$R; 2], sign: c_int, flags: c_uint) -> *mut Plan {
            [<$p plan_dft>](2, [n0, n1].as_ptr(), input, output, sign, flags)
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_3d>](n0: c_int, n1: c_int, n2: c_int, input: *mut [$R; 2], output: *mut [$R; 2], sign: c_int, flags: c_uint) -> *mut Plan {
            [<$p plan_dft>](3, [n0, n1, n2].as_ptr(), input, output, sign, flags)
        }

        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_r2c>](rank: c_int, n: *const c_int, input: *mut $R, output: *mut [$R; 2], flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p plan_dft_r2c>]), null_mut(), || many_dft_r2c::<$R>(rank, n, 1, input, null(), 1, 0, output, null(), 1, 0, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_r2c_1d>](n0: c_int, input: *mut $R, output: *mut [$R; 2], flags: c_uint) -> *mut Plan {
            [<$p plan_dft_r2c>](1, [n0].as_ptr(), input, output, flags)
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_r2c_2d>](n0: c_int, n1: c_int, input: *mut $R, output: *mut [$R; 2], flags: c_uint) -> *mut Plan {
            [<$p plan_dft_r2c>](2, [n0, n1].as_ptr(), input, output, flags)
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_r2c_3d>](n0: c_int, n1: c_int, n2: c_int, input: *mut $R, output: *mut [$R; 2], flags: c_uint) -> *mut Plan {
            [<$p plan_dft_r2c>](3, [n0, n1, n2].as_ptr(), input, output, flags)
        }

        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_c2r>](rank: c_int, n: *const c_int, input: *mut [$R; 2], output: *mut $R, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p plan_dft_c2r>]), null_mut(), || many_dft_c2r::<$R>(rank, n, 1, input, null(), 1, 0, output, null(), 1, 0, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_c2r_1d>](n0: c_int, input: *mut [$R; 2], output: *mut $R, flags: c_uint) -> *mut Plan {
            [<$p plan_dft_c2r>](1, [n0].as_ptr(), input, output, flags)
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_c2r_2d>](n0: c_int, n1: c_int, input: *mut [$R; 2], output: *mut $R, flags: c_uint) -> *mut Plan {
            [<$p plan_dft_c2r>](2, [n0, n1].as_ptr(), input, output, flags)
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_dft_c2r_3d>](n0: c_int, n1: c_int, n2: c_int, input: *mut [$R; 2], output: *mut $R, flags: c_uint) -> *mut Plan {
            [<$p plan_dft_c2r>](3, [n0, n1, n2].as_ptr(), input, output, flags)
        }

        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_r2r>](rank: c_int, n: *const c_int, input: *mut $R, output: *mut $R, kind: *const c_int, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p plan_r2r>]), null_mut(), || many_r2r::<$R>(rank, n, 1, input, null(), 1, 0, output, null(), 1, 0, kind, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_r2r_1d>](n0: c_int, input: *mut $R, output: *mut $R, kind0: c_int, flags: c_uint) -> *mut Plan {
            [<$p plan_r2r>](1, [n0].as_ptr(), input, output, [kind0].as_ptr(), flags)
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_r2r_2d>](n0: c_int, n1: c_int, input: *mut $R, output: *mut $R, kind0: c_int, kind1: c_int, flags: c_uint) -> *mut Plan {
            [<$p plan_r2r>](2, [n0, n1].as_ptr(), input, output, [kind0, kind1].as_ptr(), flags)
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_r2r_3d>](n0: c_int, n1: c_int, n2: c_int, input: *mut $R, output: *mut $R, kind0: c_int, kind1: c_int, kind2: c_int, flags: c_uint) -> *mut Plan {
            [<$p plan_r2r>](3, [n0, n1, n2].as_ptr(), input, output, [kind0, kind1, kind2].as_ptr(), flags)
        }
    }};
}

basic_api!(f64, fftw_);
basic_api!(f32, fftwf_);
