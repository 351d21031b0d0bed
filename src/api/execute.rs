//! Executing plans: on their own arrays, or on new arrays of the same layout (FFTW manual §4.6).

use super::{destroy, guard, guard_execute, interleaved, live_plan, real_array, split_array};
use crate::exec::cpu::layout::ArrayPtr;
use crate::plan::Plan;
use crate::real::Real;

unsafe fn execute_new<T: Real>(
    p: *const Plan,
    input: ArrayPtr,
    output: ArrayPtr,
) -> crate::error::Result<()> {
    let plan = live_plan::<T>(p)?;
    plan.check_new_arrays(input, output)?;
    plan.execute_on(input, output)
}

/// `fftw_execute_dft`'s arrays as FFTW reads them. FFTW counts a plan made by the split
/// interface as forward only if its imaginary arrays follow the real ones by one scalar;
/// otherwise it hands the plan (in + 1, in) as (real, imaginary): the split transform of the
/// swapped parts.
unsafe fn execute_dft_arrays<T: Real>(
    p: *const Plan,
    input: *mut [T; 2],
    output: *mut [T; 2],
) -> (ArrayPtr, ArrayPtr) {
    let unit = std::mem::size_of::<T>();
    let adjacent = |a: ArrayPtr| matches!(a, ArrayPtr::Complex { re, im } if im == re + unit);
    let swapped = live_plan::<T>(p).is_ok_and(|plan| {
        plan.problem.kind == crate::problem::Kind::Dft { sign: -1 }
            && !(adjacent(plan.input) && adjacent(plan.output))
    });
    if swapped {
        let swap = |a: *mut [T; 2]| ArrayPtr::Complex {
            re: a as usize + unit,
            im: a as usize,
        };
        (swap(input), swap(output))
    } else {
        (interleaved(input), interleaved(output))
    }
}

macro_rules! execute_api {
    ($R:ty, $p:ident) => { paste::paste! {
        #[no_mangle]
        pub unsafe extern "C" fn [<$p execute>](p: *const Plan) {
            guard_execute(stringify!([<$p execute>]), || {
                live_plan::<$R>(p)?.execute()
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p destroy_plan>](p: *mut Plan) {
            guard(stringify!([<$p destroy_plan>]), (), || destroy(p))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p execute_dft>](p: *const Plan, input: *mut [$R; 2], output: *mut [$R; 2]) {
            guard_execute(stringify!([<$p execute_dft>]), || {
                let (i, o) = execute_dft_arrays::<$R>(p, input, output);
                execute_new::<$R>(p, i, o)
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p execute_split_dft>](p: *const Plan, ri: *mut $R, ii: *mut $R, ro: *mut $R, io: *mut $R) {
            guard_execute(stringify!([<$p execute_split_dft>]), || execute_new::<$R>(p, split_array(ri, ii), split_array(ro, io)))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p execute_dft_r2c>](p: *const Plan, input: *mut $R, output: *mut [$R; 2]) {
            guard_execute(stringify!([<$p execute_dft_r2c>]), || execute_new::<$R>(p, real_array(input), interleaved(output)))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p execute_split_dft_r2c>](p: *const Plan, input: *mut $R, ro: *mut $R, io: *mut $R) {
            guard_execute(stringify!([<$p execute_split_dft_r2c>]), || execute_new::<$R>(p, real_array(input), split_array(ro, io)))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p execute_dft_c2r>](p: *const Plan, input: *mut [$R; 2], output: *mut $R) {
            guard_execute(stringify!([<$p execute_dft_c2r>]), || execute_new::<$R>(p, interleaved(input), real_array(output)))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p execute_split_dft_c2r>](p: *const Plan, ri: *mut $R, ii: *mut $R, output: *mut $R) {
            guard_execute(stringify!([<$p execute_split_dft_c2r>]), || execute_new::<$R>(p, split_array(ri, ii), real_array(output)))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p execute_r2r>](p: *const Plan, input: *mut $R, output: *mut $R) {
            guard_execute(stringify!([<$p execute_r2r>]), || execute_new::<$R>(p, real_array(input), real_array(output)))
        }
    }};
}

execute_api!(f64, fftw_);
execute_api!(f32, fftwf_);
