//! FFTW's MPI interface (`fftw3-mpi.h`): `fftw_mpi_*` and `fftwf_mpi_*`, and the `_f03`
//! forms FFTW's Fortran 2003 module binds to (a Fortran `MPI_Fint` communicator, converted
//! with `MPI_Comm_f2c`). The plans are ordinary plans (fftw_execute, fftw_destroy_plan).
//! See `crate::mpi` for how they compute.
// FFTW's signatures take up to ten arguments.
#![allow(clippy::too_many_arguments)]

use super::advanced::read_kinds;
use super::{guard, guard_execute, interleaved, live_plan, real_array, register};
use crate::exec::cpu::layout::ArrayPtr;
use crate::mpi::dist::{self, DDim, IB, OB, TRANSPOSED_IN, TRANSPOSED_OUT};
use crate::mpi::ffi::{self, Comm, RawComm};
use crate::mpi::plan::{self as mplan, Geometry, MpiKind, Phase};
use crate::mpi::transpose::Transpose;
use crate::plan::Plan;
use crate::real::Real;
use std::ffi::c_int;
use std::ptr::null_mut;

/// The C communicator as given.
fn c_comm(c: RawComm) -> crate::error::Result<RawComm> {
    Ok(c)
}

/// Reads `rnk` sizes.
unsafe fn read_n(rnk: c_int, n: *const isize) -> crate::error::Result<Vec<isize>> {
    if rnk < 0 {
        return Err(format!("rank {rnk}").into());
    }
    if rnk > 0 && n.is_null() {
        return Err("n is NULL".into());
    }
    Ok((0..rnk as usize).map(|i| *n.add(i)).collect())
}

unsafe fn put(p: *mut isize, v: isize) {
    if !p.is_null() {
        *p = v;
    }
}

/// `local_size_many_transposed`; `out` = (local_n0, local_0_start, local_n1, local_1_start).
unsafe fn ls_transposed(
    rnk: c_int,
    n: *const isize,
    howmany: isize,
    blocks: (isize, isize),
    comm: RawComm,
    out: [*mut isize; 4],
) -> crate::error::Result<isize> {
    let n = read_n(rnk, n)?;
    let (p, me) = ffi::size_rank(comm)?;
    let r =
        dist::local_size_many_transposed(&n, howmany, blocks.0, blocks.1, p as isize, me as isize);
    for (o, v) in out.iter().zip([r.1, r.2, r.3, r.4]) {
        put(*o, v);
    }
    Ok(r.0)
}

unsafe fn ls_many(
    rnk: c_int,
    n: *const isize,
    howmany: isize,
    block: isize,
    comm: RawComm,
    out: [*mut isize; 2],
) -> crate::error::Result<isize> {
    let nn = read_n(rnk, n)?;
    let (p, me) = ffi::size_rank(comm)?;
    let r = dist::local_size_many(&nn, howmany, block, p as isize, me as isize);
    put(out[0], r.1);
    put(out[1], r.2);
    Ok(r.0)
}

unsafe fn ls_1d(
    n: isize,
    howmany: isize,
    comm: RawComm,
    sign: c_int,
    flags: u32,
    out: [*mut isize; 4],
) -> crate::error::Result<isize> {
    let (p, me) = ffi::size_rank(comm)?;
    let r = dist::local_size_many_1d(n, howmany, p as isize, me as isize, sign, flags);
    for (o, v) in out.iter().zip([r.1, r.2, r.3, r.4]) {
        put(*o, v);
    }
    Ok(r.0)
}

/// FFTW's dims for the plan_many_ calls: the caller's blocks on the dimensions the transposed
/// flags name, the rest local.
fn ddims(n: &[isize], blocks: (isize, isize), flags: u32) -> Vec<DDim> {
    let mut d: Vec<DDim> = n.iter().map(|&n| DDim { n, ib: n, ob: n }).collect();
    if d.len() == 1 {
        (d[0].ib, d[0].ob) = blocks;
    } else if d.len() > 1 {
        d[(flags & TRANSPOSED_IN != 0) as usize].ib = blocks.0;
        d[(flags & TRANSPOSED_OUT != 0) as usize].ob = blocks.1;
    }
    d
}

/// Checks a distributed problem as FFTW does and resolves its blocks.
fn geometry(
    n: Vec<isize>,
    howmany: isize,
    blocks: (isize, isize),
    kind: MpiKind,
    flags: u32,
    p: isize,
) -> crate::error::Result<Geometry> {
    check_sizes(&n, howmany, blocks, &kind)?;
    let (bi, bo) = resolve_blocks(&n, howmany, blocks, &kind, flags, p)?;
    let (tin, tout) = (flags & TRANSPOSED_IN != 0, flags & TRANSPOSED_OUT != 0);
    if (matches!(kind, MpiKind::R2c) && tin) || (matches!(kind, MpiKind::C2r) && tout) {
        return Err(
            "FFTW 3.3.10 plans no r2c with FFTW_MPI_TRANSPOSED_IN and no c2r with \
             FFTW_MPI_TRANSPOSED_OUT (a NULL plan, as FFTW returns)"
                .into(),
        );
    }
    let rank2 = n.len() > 1;
    Ok(Geometry {
        n,
        howmany,
        kind,
        transposed_in: tin && rank2,
        transposed_out: tout && rank2,
        bi,
        bo,
        flags,
    })
}

/// FFTW's argument checks: rank >= 1 (2 for r2c/c2r), n >= 1, howmany and blocks >= 0.
fn check_sizes(
    n: &[isize],
    howmany: isize,
    blocks: (isize, isize),
    kind: &MpiKind,
) -> crate::error::Result<()> {
    let min_rank = if matches!(kind, MpiKind::R2c | MpiKind::C2r) {
        2
    } else {
        1
    };
    if howmany < 0 || n.len() < min_rank || n.iter().any(|&n| n < 1) {
        return Err(format!(
            "sizes {n:?}, howmany {howmany}: need rank >= {min_rank}, n >= 1, howmany >= 0"
        )
        .into());
    }
    if blocks.0 < 0 || blocks.1 < 0 {
        return Err(format!("negative block {blocks:?}").into());
    }
    Ok(())
}

/// The input and output row blocks FFTW's plan has (of the distributed dimension each), or why
/// FFTW has no plan.
fn resolve_blocks(
    n: &[isize],
    howmany: isize,
    blocks: (isize, isize),
    kind: &MpiKind,
    flags: u32,
    p: isize,
) -> crate::error::Result<(isize, isize)> {
    let rdft2 = matches!(kind, MpiKind::R2c | MpiKind::C2r);
    let dims = ddims(n, blocks, flags);
    let sz = dist::default_sz(&dims, p, rdft2);
    let mut counted = sz.clone();
    if rdft2 {
        let last = counted.len() - 1;
        counted[last].n = n[last] / 2 + 1;
    }
    if dist::num_blocks_total(&counted, IB) > p || dist::num_blocks_total(&counted, OB) > p {
        return Err(format!("the blocks {blocks:?} need more than {p} processes").into());
    }
    if n.len() > 1 {
        let (tin, tout) = (flags & TRANSPOSED_IN != 0, flags & TRANSPOSED_OUT != 0);
        return Ok((sz[tin as usize].b[IB], sz[tout as usize].b[OB]));
    }
    let MpiKind::Dft(sign) = *kind else {
        return Ok((sz[0].b[IB], sz[0].b[OB]));
    };
    if flags & (dist::SCRAMBLED_IN | dist::SCRAMBLED_OUT) != 0
        && dist::choose_radix(n[0], p, sign).is_none()
    {
        return Err(format!("no scrambled 1-D plan for n = {} on {p} processes (FFTW has none: it needs n = r m with 1 < r < n)", n[0]).into());
    }
    if blocks != (0, 0) {
        return Ok((sz[0].b[IB], sz[0].b[OB]));
    }
    // the 1-D distribution local_size_1d gives (FFTW's radix blocks)
    let l = dist::local_size_guru(&dims, howmany, p, 0, sign, flags);
    Ok((l.n_in[0].max(1), l.n_out[0].max(1)))
}

/// The common end of the plan_ calls: a distributed plan, registered.
unsafe fn plan_many<T: Real>(
    rnk: c_int,
    n: *const isize,
    howmany: isize,
    blocks: (isize, isize),
    arrays: (ArrayPtr, ArrayPtr),
    comm: RawComm,
    kind: MpiKind,
    flags: u32,
) -> crate::error::Result<*mut Plan> {
    let n = read_n(rnk, n)?;
    let (p, _) = ffi::size_rank(comm)?;
    let g = geometry(n, howmany, blocks, kind, flags, p as isize)?;
    let comm = Comm::dup(comm)?;
    let procs = mplan::Processes::of(&comm);
    let phases = match mplan::build_serial::<T>(&g, procs)? {
        Some(serial) => serial,
        None if g.n.len() == 1 => mplan::build_1d::<T>(&g, procs)?,
        None => mplan::build_multi::<T>(&g, procs)?,
    };
    let problem = mplan::describe::<T>(&g.kind, &g.n, g.howmany);
    let plan = mplan::make::<T>(comm, phases, problem, arrays, flags)?;
    Ok(register(plan))
}

/// `plan_many_transpose`: nx x ny (rows of nx distributed) to ny x nx, howmany reals each.
unsafe fn plan_transpose<T: Real>(
    nx: isize,
    ny: isize,
    howmany: isize,
    blocks: (isize, isize),
    input: *mut T,
    output: *mut T,
    comm: RawComm,
    flags: u32,
) -> crate::error::Result<*mut Plan> {
    if howmany < 0 || blocks.0 < 0 || blocks.1 < 0 || nx <= 0 || ny <= 0 {
        return Err(format!("sizes {nx} x {ny}, howmany {howmany}, blocks {blocks:?}").into());
    }
    let (p, _) = ffi::size_rank(comm)?;
    let pick = |b: isize, n: isize| {
        if b == 0 {
            dist::default_block(n, p as isize)
        } else {
            b
        }
    };
    let (xb, yb) = (pick(blocks.0, nx), pick(blocks.1, ny));
    if dist::num_blocks(nx, xb) > p as isize || dist::num_blocks(ny, yb) > p as isize {
        return Err(format!("the blocks ({xb}, {yb}) need more than {p} processes").into());
    }
    let t = Transpose {
        a: nx as usize,
        ba: xb as usize,
        b: ny as usize,
        bb: yb as usize,
        elem: howmany as usize * std::mem::size_of::<T>(),
        in_transposed: flags & TRANSPOSED_IN != 0,
        out_transposed: flags & TRANSPOSED_OUT != 0,
    };
    let comm = Comm::dup(comm)?;
    let phases = vec![Phase::Transpose(t, mplan::Array::In, mplan::Array::Out)];
    let problem = mplan::describe::<T>(&MpiKind::R2r(vec![]), &[], nx * ny * howmany);
    let arrays = (real_array(input), real_array(output));
    let plan = mplan::make::<T>(comm, phases, problem, arrays, flags)?;
    Ok(register(plan))
}

/// The new-array execute calls: any arrays of the plan's layout.
unsafe fn execute<T: Real>(
    p: *const Plan,
    input: ArrayPtr,
    output: ArrayPtr,
) -> crate::error::Result<()> {
    let plan = live_plan::<T>(p)?;
    if input.is_null() || output.is_null() {
        return Err("NULL array".into());
    }
    plan.execute_on(input, output)
}

/// Process 0's wisdom to every process.
unsafe fn broadcast_wisdom<T: Real>(comm: RawComm) -> crate::error::Result<()> {
    let (_, me) = ffi::size_rank(comm)?;
    let w = crate::wisdom::of(T::PRECISION);
    let mut bytes = if me == 0 {
        w.export().into_bytes()
    } else {
        Vec::new()
    };
    let mut len = (bytes.len() as u64).to_le_bytes();
    ffi::bcast(comm, len.as_mut_ptr(), 8)?;
    bytes.resize(u64::from_le_bytes(len) as usize, 0);
    ffi::bcast(comm, bytes.as_mut_ptr(), bytes.len())?;
    if me != 0 && !w.import(&String::from_utf8_lossy(&bytes)) {
        return Err("process 0's wisdom did not import".into());
    }
    Ok(())
}

/// Every process's wisdom into process 0's.
unsafe fn gather_wisdom<T: Real>(comm: RawComm) -> crate::error::Result<()> {
    let (size, me) = ffi::size_rank(comm)?;
    let w = crate::wisdom::of(T::PRECISION);
    let mine = w.export().into_bytes();
    // everyone's length to process 0, then everyone's text
    let lens = exchange_to_root(comm, size, me, &(mine.len() as u64).to_le_bytes(), &[8; 1])?;
    let sizes: Vec<usize> = lens
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()) as usize)
        .collect();
    let all = exchange_to_root(comm, size, me, &mine, &sizes)?;
    let mut at = 0;
    for (q, s) in sizes.iter().enumerate() {
        if me == 0 && q != 0 && !w.import(&String::from_utf8_lossy(&all[at..at + s])) {
            crate::log::log_warn!("process {q}'s wisdom did not import");
        }
        at += s;
    }
    Ok(())
}

/// Every process's `mine` to process 0 (a gather through MPI_Alltoallv); `sizes` are the
/// senders' byte counts (process 0 needs them all; one repeated entry means "all alike").
unsafe fn exchange_to_root(
    comm: RawComm,
    size: usize,
    me: usize,
    mine: &[u8],
    sizes: &[usize],
) -> crate::error::Result<Vec<u8>> {
    let size_of = |q: usize| if sizes.len() == 1 { sizes[0] } else { sizes[q] };
    let send: Vec<usize> = (0..size)
        .map(|q| if q == 0 { mine.len() } else { 0 })
        .collect();
    let recv: Vec<usize> = (0..size)
        .map(|q| if me == 0 { size_of(q) } else { 0 })
        .collect();
    let x = ffi::Exchange::new(&send, &recv, 1)?;
    let mut out = vec![0u8; recv.iter().sum::<usize>().max(1)];
    let buffers = (mine.as_ptr(), out.as_mut_ptr());
    ffi::exchange(comm, buffers, &x, ffi::Way::AllToAll, (size, me))?;
    out.truncate(recv.iter().sum());
    Ok(out)
}

/// The entry points that take a communicator, in one precision, with the communicator as C
/// gives it (`RawComm`, suffix none) or as Fortran does (`c_int`, suffix `_f03`).
macro_rules! mpi_comm_api {
    ($R:ty, $p:ident, $CT:ty, $conv:path $(, $sfx:ident)?) => { paste::paste! {
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_many_transposed $($sfx)?>](rnk: c_int, n: *const isize, howmany: isize, b0: isize, b1: isize, comm: $CT, ln0: *mut isize, s0: *mut isize, ln1: *mut isize, s1: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_many_transposed>]), 0, || ls_transposed(rnk, n, howmany, (b0, b1), $conv(comm)?, [ln0, s0, ln1, s1]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_many $($sfx)?>](rnk: c_int, n: *const isize, howmany: isize, b0: isize, comm: $CT, ln0: *mut isize, s0: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_many>]), 0, || ls_many(rnk, n, howmany, b0, $conv(comm)?, [ln0, s0]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_transposed $($sfx)?>](rnk: c_int, n: *const isize, comm: $CT, ln0: *mut isize, s0: *mut isize, ln1: *mut isize, s1: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_transposed>]), 0, || ls_transposed(rnk, n, 1, (0, 0), $conv(comm)?, [ln0, s0, ln1, s1]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size $($sfx)?>](rnk: c_int, n: *const isize, comm: $CT, ln0: *mut isize, s0: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size>]), 0, || ls_many(rnk, n, 1, 0, $conv(comm)?, [ln0, s0]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_many_1d $($sfx)?>](n0: isize, howmany: isize, comm: $CT, sign: c_int, flags: u32, lni: *mut isize, si: *mut isize, lno: *mut isize, so: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_many_1d>]), 0, || ls_1d(n0, howmany, $conv(comm)?, sign, flags, [lni, si, lno, so]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_1d $($sfx)?>](n0: isize, comm: $CT, sign: c_int, flags: u32, lni: *mut isize, si: *mut isize, lno: *mut isize, so: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_1d>]), 0, || ls_1d(n0, 1, $conv(comm)?, sign, flags, [lni, si, lno, so]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_2d $($sfx)?>](n0: isize, n1: isize, comm: $CT, ln0: *mut isize, s0: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_2d>]), 0, || ls_many(2, [n0, n1].as_ptr(), 1, 0, $conv(comm)?, [ln0, s0]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_2d_transposed $($sfx)?>](n0: isize, n1: isize, comm: $CT, ln0: *mut isize, s0: *mut isize, ln1: *mut isize, s1: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_2d_transposed>]), 0, || ls_transposed(2, [n0, n1].as_ptr(), 1, (0, 0), $conv(comm)?, [ln0, s0, ln1, s1]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_3d $($sfx)?>](n0: isize, n1: isize, n2: isize, comm: $CT, ln0: *mut isize, s0: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_3d>]), 0, || ls_many(3, [n0, n1, n2].as_ptr(), 1, 0, $conv(comm)?, [ln0, s0]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_local_size_3d_transposed $($sfx)?>](n0: isize, n1: isize, n2: isize, comm: $CT, ln0: *mut isize, s0: *mut isize, ln1: *mut isize, s1: *mut isize) -> isize {
            guard(stringify!([<$p mpi_local_size_3d_transposed>]), 0, || ls_transposed(3, [n0, n1, n2].as_ptr(), 1, (0, 0), $conv(comm)?, [ln0, s0, ln1, s1]))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_many_transpose $($sfx)?>](n0: isize, n1: isize, howmany: isize, b0: isize, b1: isize, input: *mut $R, output: *mut $R, comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_many_transpose>]), null_mut(), || plan_transpose::<$R>(n0, n1, howmany, (b0, b1), input, output, $conv(comm)?, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_transpose $($sfx)?>](n0: isize, n1: isize, input: *mut $R, output: *mut $R, comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_transpose>]), null_mut(), || plan_transpose::<$R>(n0, n1, 1, (0, 0), input, output, $conv(comm)?, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_many_dft $($sfx)?>](rnk: c_int, n: *const isize, howmany: isize, b0: isize, b1: isize, input: *mut [$R; 2], output: *mut [$R; 2], comm: $CT, sign: c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_many_dft>]), null_mut(), || plan_many::<$R>(rnk, n, howmany, (b0, b1), (interleaved(input), interleaved(output)), $conv(comm)?, MpiKind::Dft(dft_sign(sign)), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft $($sfx)?>](rnk: c_int, n: *const isize, input: *mut [$R; 2], output: *mut [$R; 2], comm: $CT, sign: c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft>]), null_mut(), || plan_many::<$R>(rnk, n, 1, (0, 0), (interleaved(input), interleaved(output)), $conv(comm)?, MpiKind::Dft(dft_sign(sign)), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_1d $($sfx)?>](n0: isize, input: *mut [$R; 2], output: *mut [$R; 2], comm: $CT, sign: c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_1d>]), null_mut(), || plan_many::<$R>(1, [n0].as_ptr(), 1, (0, 0), (interleaved(input), interleaved(output)), $conv(comm)?, MpiKind::Dft(dft_sign(sign)), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_2d $($sfx)?>](n0: isize, n1: isize, input: *mut [$R; 2], output: *mut [$R; 2], comm: $CT, sign: c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_2d>]), null_mut(), || plan_many::<$R>(2, [n0, n1].as_ptr(), 1, (0, 0), (interleaved(input), interleaved(output)), $conv(comm)?, MpiKind::Dft(dft_sign(sign)), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_3d $($sfx)?>](n0: isize, n1: isize, n2: isize, input: *mut [$R; 2], output: *mut [$R; 2], comm: $CT, sign: c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_3d>]), null_mut(), || plan_many::<$R>(3, [n0, n1, n2].as_ptr(), 1, (0, 0), (interleaved(input), interleaved(output)), $conv(comm)?, MpiKind::Dft(dft_sign(sign)), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_many_r2r $($sfx)?>](rnk: c_int, n: *const isize, howmany: isize, b0: isize, b1: isize, input: *mut $R, output: *mut $R, comm: $CT, kind: *const c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_many_r2r>]), null_mut(), || plan_many::<$R>(rnk, n, howmany, (b0, b1), (real_array(input), real_array(output)), $conv(comm)?, MpiKind::R2r(read_kinds(rnk, kind)?), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_r2r $($sfx)?>](rnk: c_int, n: *const isize, input: *mut $R, output: *mut $R, comm: $CT, kind: *const c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_r2r>]), null_mut(), || plan_many::<$R>(rnk, n, 1, (0, 0), (real_array(input), real_array(output)), $conv(comm)?, MpiKind::R2r(read_kinds(rnk, kind)?), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_r2r_2d $($sfx)?>](n0: isize, n1: isize, input: *mut $R, output: *mut $R, comm: $CT, k0: c_int, k1: c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_r2r_2d>]), null_mut(), || plan_many::<$R>(2, [n0, n1].as_ptr(), 1, (0, 0), (real_array(input), real_array(output)), $conv(comm)?, MpiKind::R2r(read_kinds(2, [k0, k1].as_ptr())?), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_r2r_3d $($sfx)?>](n0: isize, n1: isize, n2: isize, input: *mut $R, output: *mut $R, comm: $CT, k0: c_int, k1: c_int, k2: c_int, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_r2r_3d>]), null_mut(), || plan_many::<$R>(3, [n0, n1, n2].as_ptr(), 1, (0, 0), (real_array(input), real_array(output)), $conv(comm)?, MpiKind::R2r(read_kinds(3, [k0, k1, k2].as_ptr())?), flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_many_dft_r2c $($sfx)?>](rnk: c_int, n: *const isize, howmany: isize, b0: isize, b1: isize, input: *mut $R, output: *mut [$R; 2], comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_many_dft_r2c>]), null_mut(), || plan_many::<$R>(rnk, n, howmany, (b0, b1), (real_array(input), interleaved(output)), $conv(comm)?, MpiKind::R2c, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_r2c $($sfx)?>](rnk: c_int, n: *const isize, input: *mut $R, output: *mut [$R; 2], comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_r2c>]), null_mut(), || plan_many::<$R>(rnk, n, 1, (0, 0), (real_array(input), interleaved(output)), $conv(comm)?, MpiKind::R2c, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_r2c_2d $($sfx)?>](n0: isize, n1: isize, input: *mut $R, output: *mut [$R; 2], comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_r2c_2d>]), null_mut(), || plan_many::<$R>(2, [n0, n1].as_ptr(), 1, (0, 0), (real_array(input), interleaved(output)), $conv(comm)?, MpiKind::R2c, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_r2c_3d $($sfx)?>](n0: isize, n1: isize, n2: isize, input: *mut $R, output: *mut [$R; 2], comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_r2c_3d>]), null_mut(), || plan_many::<$R>(3, [n0, n1, n2].as_ptr(), 1, (0, 0), (real_array(input), interleaved(output)), $conv(comm)?, MpiKind::R2c, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_many_dft_c2r $($sfx)?>](rnk: c_int, n: *const isize, howmany: isize, b0: isize, b1: isize, input: *mut [$R; 2], output: *mut $R, comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_many_dft_c2r>]), null_mut(), || plan_many::<$R>(rnk, n, howmany, (b0, b1), (interleaved(input), real_array(output)), $conv(comm)?, MpiKind::C2r, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_c2r $($sfx)?>](rnk: c_int, n: *const isize, input: *mut [$R; 2], output: *mut $R, comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_c2r>]), null_mut(), || plan_many::<$R>(rnk, n, 1, (0, 0), (interleaved(input), real_array(output)), $conv(comm)?, MpiKind::C2r, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_c2r_2d $($sfx)?>](n0: isize, n1: isize, input: *mut [$R; 2], output: *mut $R, comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_c2r_2d>]), null_mut(), || plan_many::<$R>(2, [n0, n1].as_ptr(), 1, (0, 0), (interleaved(input), real_array(output)), $conv(comm)?, MpiKind::C2r, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_plan_dft_c2r_3d $($sfx)?>](n0: isize, n1: isize, n2: isize, input: *mut [$R; 2], output: *mut $R, comm: $CT, flags: u32) -> *mut Plan {
            guard(stringify!([<$p mpi_plan_dft_c2r_3d>]), null_mut(), || plan_many::<$R>(3, [n0, n1, n2].as_ptr(), 1, (0, 0), (interleaved(input), real_array(output)), $conv(comm)?, MpiKind::C2r, flags))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_gather_wisdom $($sfx)?>](comm: $CT) {
            guard(stringify!([<$p mpi_gather_wisdom>]), (), || gather_wisdom::<$R>($conv(comm)?))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_broadcast_wisdom $($sfx)?>](comm: $CT) {
            guard(stringify!([<$p mpi_broadcast_wisdom>]), (), || broadcast_wisdom::<$R>($conv(comm)?))
        }
    }};
}

/// The entry points without a communicator, in one precision.
macro_rules! mpi_api {
    ($R:ty, $p:ident) => { paste::paste! {
        #[no_mangle]
        pub extern "C" fn [<$p mpi_init>]() {
            guard(stringify!([<$p mpi_init>]), (), || ffi::mpi().map(|_| ()))
        }
        #[no_mangle]
        pub extern "C" fn [<$p mpi_cleanup>]() {
            crate::api::info::cleanup(<$R as Real>::PRECISION);
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_execute_dft>](p: *const Plan, input: *mut [$R; 2], output: *mut [$R; 2]) {
            guard_execute(stringify!([<$p mpi_execute_dft>]), || execute::<$R>(p, interleaved(input), interleaved(output)))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_execute_dft_r2c>](p: *const Plan, input: *mut $R, output: *mut [$R; 2]) {
            guard_execute(stringify!([<$p mpi_execute_dft_r2c>]), || execute::<$R>(p, real_array(input), interleaved(output)))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_execute_dft_c2r>](p: *const Plan, input: *mut [$R; 2], output: *mut $R) {
            guard_execute(stringify!([<$p mpi_execute_dft_c2r>]), || execute::<$R>(p, interleaved(input), real_array(output)))
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p mpi_execute_r2r>](p: *const Plan, input: *mut $R, output: *mut $R) {
            guard_execute(stringify!([<$p mpi_execute_r2r>]), || execute::<$R>(p, real_array(input), real_array(output)))
        }
    }};
}

/// FFTW computes a forward transform for FFTW_FORWARD (-1) and a backward one otherwise.
fn dft_sign(sign: c_int) -> i32 {
    if sign == -1 {
        -1
    } else {
        1
    }
}

mpi_api!(f64, fftw_);
mpi_api!(f32, fftwf_);
mpi_comm_api!(f64, fftw_, RawComm, c_comm);
mpi_comm_api!(f32, fftwf_, RawComm, c_comm);
mpi_comm_api!(f64, fftw_, c_int, ffi::comm_f2c, _f03);
mpi_comm_api!(f32, fftwf_, c_int, ffi::comm_f2c, _f03);
