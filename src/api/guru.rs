//! The guru and guru64 interfaces: arbitrary transform and loop dimensions, each with its own
//! input and output stride (negative allowed), in units of the array's element.

use super::advanced::read_kinds;
use super::{guard, interleaved, make_plan, real_array};
use crate::abi::{fftw_iodim, fftw_iodim64};
use crate::plan::Plan;
use crate::problem::{IoDim, Kind};
use crate::real::Real;
use std::os::raw::{c_int, c_uint};
use std::ptr::null_mut;

/// `fftw_iodim` and `fftw_iodim64` alike.
pub(crate) trait GuruDim: Copy {
    fn get(&self) -> (isize, isize, isize);
}
impl GuruDim for fftw_iodim {
    fn get(&self) -> (isize, isize, isize) {
        (self.n as isize, self.is as isize, self.os as isize)
    }
}
impl GuruDim for fftw_iodim64 {
    fn get(&self) -> (isize, isize, isize) {
        (self.n, self.is, self.os)
    }
}

/// Reads guru dims, scaling input and output strides to real scalars.
pub(crate) unsafe fn read_dims<D: GuruDim>(
    rank: c_int,
    dims: *const D,
    iscale: isize,
    oscale: isize,
    what: &str,
) -> crate::error::Result<Vec<IoDim>> {
    if rank < 0 {
        return Err(format!("negative {what} rank {rank}").into());
    }
    if rank > 0 && dims.is_null() {
        return Err(format!("{what} dims are NULL with rank {rank}").into());
    }
    (0..rank as usize)
        .map(|i| {
            let (n, is, os) = (*dims.add(i)).get();
            let is = is.checked_mul(iscale).ok_or("stride overflows")?;
            let os = os.checked_mul(oscale).ok_or("stride overflows")?;
            Ok(IoDim::new(n, is, os))
        })
        .collect()
}

/// Transform and loop dims of a guru call, strides scaled by (input, output) element sizes.
///
/// FFTW reads INT_MAX as the rank "minus infinity" (`RNK_MINFTY`): refused for the transform,
/// and for the loops an empty set of transforms (a plan that does nothing), the dims unread.
pub(crate) unsafe fn guru_dims<D: GuruDim>(
    rank: c_int,
    dims: *const D,
    howmany_rank: c_int,
    howmany_dims: *const D,
    scale: (isize, isize),
) -> Result<(Vec<IoDim>, Vec<IoDim>), String> {
    if rank == c_int::MAX {
        return Err("transform rank INT_MAX (FFTW's minus-infinity rank)".into());
    }
    let loops = if howmany_rank == c_int::MAX {
        vec![IoDim::new(0, 0, 0)]
    } else {
        read_dims(howmany_rank, howmany_dims, scale.0, scale.1, "howmany")?
    };
    Ok((read_dims(rank, dims, scale.0, scale.1, "transform")?, loops))
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn guru_dft<T: Real, D: GuruDim>(
    rank: c_int,
    dims: *const D,
    hr: c_int,
    hd: *const D,
    input: *mut [T; 2],
    output: *mut [T; 2],
    sign: c_int,
    flags: c_uint,
) -> crate::error::Result<*mut Plan> {
    let (d, l) = guru_dims(rank, dims, hr, hd, (2, 2))?;
    make_plan::<T>(
        Kind::Dft { sign },
        d,
        l,
        interleaved(input),
        interleaved(output),
        flags,
    )
}

pub(crate) unsafe fn guru_r2c<T: Real, D: GuruDim>(
    rank: c_int,
    dims: *const D,
    hr: c_int,
    hd: *const D,
    input: *mut T,
    output: *mut [T; 2],
    flags: c_uint,
) -> crate::error::Result<*mut Plan> {
    let (d, l) = guru_dims(rank, dims, hr, hd, (1, 2))?;
    make_plan::<T>(
        Kind::R2c,
        d,
        l,
        real_array(input),
        interleaved(output),
        flags,
    )
}

pub(crate) unsafe fn guru_c2r<T: Real, D: GuruDim>(
    rank: c_int,
    dims: *const D,
    hr: c_int,
    hd: *const D,
    input: *mut [T; 2],
    output: *mut T,
    flags: c_uint,
) -> crate::error::Result<*mut Plan> {
    let (d, l) = guru_dims(rank, dims, hr, hd, (2, 1))?;
    make_plan::<T>(
        Kind::C2r,
        d,
        l,
        interleaved(input),
        real_array(output),
        flags,
    )
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn guru_r2r<T: Real, D: GuruDim>(
    rank: c_int,
    dims: *const D,
    hr: c_int,
    hd: *const D,
    input: *mut T,
    output: *mut T,
    kind: *const c_int,
    flags: c_uint,
) -> crate::error::Result<*mut Plan> {
    let (d, l) = guru_dims(rank, dims, hr, hd, (1, 1))?;
    let kinds = read_kinds(rank, kind)?;
    make_plan::<T>(
        Kind::R2r(kinds),
        d,
        l,
        real_array(input),
        real_array(output),
        flags,
    )
}

macro_rules! guru_api {
    ($R:ty, $p:ident, $g:ident, $D:ty) => { paste::paste! {
        #[no_mangle]
        pub unsafe extern "C" fn [<$p $g _dft>](rank: c_int, dims: *const $D, howmany_rank: c_int, howmany_dims: *const $D,
            input: *mut [$R; 2], output: *mut [$R; 2], sign: c_int, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p $g _dft>]), null_mut(), || guru_dft::<$R, $D>(rank, dims, howmany_rank, howmany_dims, input, output, sign, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p $g _dft_r2c>](rank: c_int, dims: *const $D, howmany_rank: c_int, howmany_dims: *const $D,
            input: *mut $R, output: *mut [$R; 2], flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p $g _dft_r2c>]), null_mut(), || guru_r2c::<$R, $D>(rank, dims, howmany_rank, howmany_dims, input, output, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p $g _dft_c2r>](rank: c_int, dims: *const $D, howmany_rank: c_int, howmany_dims: *const $D,
            input: *mut [$R; 2], output: *mut $R, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p $g _dft_c2r>]), null_mut(), || guru_c2r::<$R, $D>(rank, dims, howmany_rank, howmany_dims, input, output, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p $g _r2r>](rank: c_int, dims: *const $D, howmany_rank: c_int, howmany_dims: *const $D,
            input: *mut $R, output: *mut $R, kind: *const c_int, flags: c_uint) -> *mut Plan {
            guard(stringify!([<$p $g _r2r>]), null_mut(), || guru_r2r::<$R, $D>(rank, dims, howmany_rank, howmany_dims, input, output, kind, flags))
        }
    }};
}

guru_api!(f64, fftw_, plan_guru, fftw_iodim);
guru_api!(f32, fftwf_, plan_guru, fftw_iodim);
guru_api!(f64, fftw_, plan_guru64, fftw_iodim64);
guru_api!(f32, fftwf_, plan_guru64, fftw_iodim64);
