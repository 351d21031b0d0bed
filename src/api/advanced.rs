//! The advanced interface (`fftw_plan_many_*`): `howmany` transforms of a row-major array
//! embedded in a larger one. The basic interface is the special case howmany = 1, no embedding.

use super::{guard, interleaved, make_plan, read_embed, read_ints, real_array, row_major};
use crate::plan::Plan;
use crate::problem::{IoDim, Kind, R2rKind};
use crate::real::Real;
use std::os::raw::{c_int, c_uint};
use std::ptr::null_mut;

/// A row-major layout: logical `n`, the embedding array (`None`: `n`), stride and distance, in
/// elements; `scale` converts elements to real scalars (2 for complex).
pub(crate) struct Layout {
    pub embed: Option<Vec<isize>>,
    pub stride: isize,
    pub dist: isize,
    pub scale: isize,
}

/// FFTW's r2c/c2r default embedding (`rdft2_pad`): the complex side's last dimension is
/// n/2+1; the real side's is n, or 2(n/2+1) when the transform is in place.
pub(crate) fn rdft2_embed(
    n: &[isize],
    embed: Option<Vec<isize>>,
    in_place: bool,
    complex: bool,
) -> Option<Vec<isize>> {
    if embed.is_some() || n.is_empty() || !(in_place || complex) {
        return embed;
    }
    let mut e = n.to_vec();
    let l = e.len() - 1;
    e[l] = (n[l] / 2 + 1) * if complex { 1 } else { 2 };
    Some(e)
}

/// Transform dims and the one loop of an advanced-interface problem.
pub(crate) fn many_dims(
    n: &[isize],
    howmany: c_int,
    i: Layout,
    o: Layout,
) -> Result<(Vec<IoDim>, Vec<IoDim>), String> {
    if howmany < 0 {
        return Err(format!("howmany = {howmany} is negative"));
    }
    if n.iter().any(|&x| x <= 0) {
        return Err(format!("transform size {n:?} has an entry <= 0"));
    }
    let is = row_major(i.embed.as_deref().unwrap_or(n), i.stride)?;
    let os = row_major(o.embed.as_deref().unwrap_or(n), o.stride)?;
    let dims = (0..n.len())
        .map(|k| IoDim::new(n[k], is[k] * i.scale, os[k] * o.scale))
        .collect();
    Ok((
        dims,
        vec![IoDim::new(
            howmany as isize,
            i.dist * i.scale,
            o.dist * o.scale,
        )],
    ))
}

/// The dims and loop of an advanced-interface DFT, r2c or c2r (FFTW's r2c/c2r embeddings by
/// default), from the C arguments; strides in real scalars (any width: `fftxh_` plans too).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn many_layouts(
    kind: &Kind,
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    (inembed, istride, idist): (*const c_int, c_int, c_int),
    (onembed, ostride, odist): (*const c_int, c_int, c_int),
    in_place: bool,
) -> Result<(Vec<IoDim>, Vec<IoDim>), String> {
    let n = read_ints(rank, n, "n")?;
    let (ic, oc) = (kind.input_is_complex(), kind.output_is_complex());
    let mixed = matches!(kind, Kind::R2c | Kind::C2r);
    let embed = |e: *const c_int, complex: bool| {
        let e = read_embed(rank, e);
        if mixed {
            rdft2_embed(&n, e, in_place, complex)
        } else {
            e
        }
    };
    many_dims(
        &n,
        howmany,
        Layout {
            embed: embed(inembed, ic),
            stride: istride as isize,
            dist: idist as isize,
            scale: 1 + ic as isize,
        },
        Layout {
            embed: embed(onembed, oc),
            stride: ostride as isize,
            dist: odist as isize,
            scale: 1 + oc as isize,
        },
    )
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn many_dft<T: Real>(
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    input: *mut [T; 2],
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    output: *mut [T; 2],
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    sign: c_int,
    flags: c_uint,
) -> crate::error::Result<*mut Plan> {
    let kind = Kind::Dft { sign };
    let (dims, loops) = many_layouts(
        &kind,
        rank,
        n,
        howmany,
        (inembed, istride, idist),
        (onembed, ostride, odist),
        false,
    )?;
    make_plan::<T>(
        kind,
        dims,
        loops,
        interleaved(input),
        interleaved(output),
        flags,
    )
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn many_dft_r2c<T: Real>(
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    input: *mut T,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    output: *mut [T; 2],
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    flags: c_uint,
) -> crate::error::Result<*mut Plan> {
    let kind = Kind::R2c;
    let (dims, loops) = many_layouts(
        &kind,
        rank,
        n,
        howmany,
        (inembed, istride, idist),
        (onembed, ostride, odist),
        std::ptr::eq(input.cast::<u8>(), output.cast::<u8>()),
    )?;
    make_plan::<T>(
        kind,
        dims,
        loops,
        real_array(input),
        interleaved(output),
        flags,
    )
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn many_dft_c2r<T: Real>(
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    input: *mut [T; 2],
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    output: *mut T,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    flags: c_uint,
) -> crate::error::Result<*mut Plan> {
    let kind = Kind::C2r;
    let (dims, loops) = many_layouts(
        &kind,
        rank,
        n,
        howmany,
        (inembed, istride, idist),
        (onembed, ostride, odist),
        std::ptr::eq(input.cast::<u8>(), output.cast::<u8>()),
    )?;
    make_plan::<T>(
        kind,
        dims,
        loops,
        interleaved(input),
        real_array(output),
        flags,
    )
}

pub(crate) unsafe fn read_kinds(
    rank: c_int,
    kind: *const c_int,
) -> crate::error::Result<Vec<R2rKind>> {
    // FFTW 3.3.10 maps a kind it does not know to FFTW_R2HC (its assertion is compiled out).
    Ok(read_ints(rank, kind, "kind")?
        .into_iter()
        .map(|k| {
            R2rKind::from_c(k as i32).unwrap_or_else(|| {
                crate::log::log_warn!("unknown r2r kind {k}: computed as FFTW_R2HC, as FFTW does");
                R2rKind::R2hc
            })
        })
        .collect())
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn many_r2r<T: Real>(
    rank: c_int,
    n: *const c_int,
    howmany: c_int,
    input: *mut T,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    output: *mut T,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    kind: *const c_int,
    flags: c_uint,
) -> crate::error::Result<*mut Plan> {
    let n = read_ints(rank, n, "n")?;
    let kinds = read_kinds(rank, kind)?;
    let (dims, loops) = many_dims(
        &n,
        howmany,
        Layout {
            embed: read_embed(rank, inembed),
            stride: istride as isize,
            dist: idist as isize,
            scale: 1,
        },
        Layout {
            embed: read_embed(rank, onembed),
            stride: ostride as isize,
            dist: odist as isize,
            scale: 1,
        },
    )?;
    make_plan::<T>(
        Kind::R2r(kinds),
        dims,
        loops,
        real_array(input),
        real_array(output),
        flags,
    )
}

macro_rules! advanced_api {
    ($R:ty, $p:ident) => { paste::paste! {
        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_many_dft>](
            rank: c_int, n: *const c_int, howmany: c_int,
            input: *mut [$R; 2], inembed: *const c_int, istride: c_int, idist: c_int,
            output: *mut [$R; 2], onembed: *const c_int, ostride: c_int, odist: c_int,
            sign: c_int, flags: c_uint,
        ) -> *mut Plan {
            guard(stringify!([<$p plan_many_dft>]), null_mut(), || many_dft::<$R>(
                rank, n, howmany, input, inembed, istride, idist, output, onembed, ostride, odist, sign, flags))
        }

        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_many_dft_r2c>](
            rank: c_int, n: *const c_int, howmany: c_int,
            input: *mut $R, inembed: *const c_int, istride: c_int, idist: c_int,
            output: *mut [$R; 2], onembed: *const c_int, ostride: c_int, odist: c_int,
            flags: c_uint,
        ) -> *mut Plan {
            guard(stringify!([<$p plan_many_dft_r2c>]), null_mut(), || many_dft_r2c::<$R>(
                rank, n, howmany, input, inembed, istride, idist, output, onembed, ostride, odist, flags))
        }

        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_many_dft_c2r>](
            rank: c_int, n: *const c_int, howmany: c_int,
            input: *mut [$R; 2], inembed: *const c_int, istride: c_int, idist: c_int,
            output: *mut $R, onembed: *const c_int, ostride: c_int, odist: c_int,
            flags: c_uint,
        ) -> *mut Plan {
            guard(stringify!([<$p plan_many_dft_c2r>]), null_mut(), || many_dft_c2r::<$R>(
                rank, n, howmany, input, inembed, istride, idist, output, onembed, ostride, odist, flags))
        }

        #[no_mangle]
        pub unsafe extern "C" fn [<$p plan_many_r2r>](
            rank: c_int, n: *const c_int, howmany: c_int,
            input: *mut $R, inembed: *const c_int, istride: c_int, idist: c_int,
            output: *mut $R, onembed: *const c_int, ostride: c_int, odist: c_int,
            kind: *const c_int, flags: c_uint,
        ) -> *mut Plan {
            guard(stringify!([<$p plan_many_r2r>]), null_mut(), || many_r2r::<$R>(
                rank, n, howmany, input, inembed, istride, idist, output, onembed, ostride, odist, kind, flags))
        }
    }};
}

advanced_api!(f64, fftw_);
advanced_api!(f32, fftwf_);
