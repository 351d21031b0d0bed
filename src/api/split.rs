//! Split-array guru plans: real and imaginary parts in separate arrays, strides in real scalars.
//! FFTW has no sign argument here: the transform is forward; swapping the real and imaginary
//! arrays (input and output alike) gives the backward one.

use super::guru::guru_dims;
use super::{guard, make_plan, real_array, split_array};
use crate::abi::{fftw_iodim, fftw_iodim64};
use crate::plan::Plan;
use crate::problem::Kind;
use std::os::raw::{c_int, c_uint};
use std::ptr::null_mut;

macro_rules! split_api {
    ($R:ty, $p:ident, $g:ident, $D:ty) => { paste::paste! {
        #[no_mangle]
        pub unsafe extern "C" fn [<$p $g _split_dft>](rank: c_int, dims: *const $D, howmany_rank: c_int, howmany_dims: *const $D,
            ri: *mut $R, ii: *mut $R, ro: *mut $R, io: *mut $R, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p $g _split_dft>]), null_mut(), || {
                let (d, l) = guru_dims::<$D>(rank, dims, howmany_rank, howmany_dims, (1, 1))?;
                make_plan::<$R>(Kind::Dft { sign: -1 }, d, l, split_array(ri, ii), split_array(ro, io), flags)
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p $g _split_dft_r2c>](rank: c_int, dims: *const $D, howmany_rank: c_int, howmany_dims: *const $D,
            input: *mut $R, ro: *mut $R, io: *mut $R, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p $g _split_dft_r2c>]), null_mut(), || {
                let (d, l) = guru_dims::<$D>(rank, dims, howmany_rank, howmany_dims, (1, 1))?;
                make_plan::<$R>(Kind::R2c, d, l, real_array(input), split_array(ro, io), flags)
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p $g _split_dft_c2r>](rank: c_int, dims: *const $D, howmany_rank: c_int, howmany_dims: *const $D,
            ri: *mut $R, ii: *mut $R, output: *mut $R, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p $g _split_dft_c2r>]), null_mut(), || {
                let (d, l) = guru_dims::<$D>(rank, dims, howmany_rank, howmany_dims, (1, 1))?;
                make_plan::<$R>(Kind::C2r, d, l, split_array(ri, ii), real_array(output), flags)
            })
        }
    }};
}

split_api!(f64, fftw_, plan_guru, fftw_iodim);
split_api!(f32, fftwf_, plan_guru, fftw_iodim);
split_api!(f64, fftw_, plan_guru64, fftw_iodim64);
split_api!(f32, fftwf_, plan_guru64, fftw_iodim64);
