//! FFTW's legacy Fortran 77 interface (`dfftw_*` for f64, `sfftw_*` for f32), as FFTW 3.3.10's
//! `api/f77funcs.h` (and `threads/f77funcs.h`) define it. Each name is exported twice, `name_` and
//! `name__` (g77's mangling of names containing an underscore), as libfftw3.so.3 does.
//!
//! Semantics, all of which follow FFTW exactly:
//! - every argument is passed by reference; a plan is an `INTEGER*8` holding the `fftw_plan`
//!   pointer, so planners take `*mut *mut Plan` and write the plan (NULL on failure) there;
//! - Fortran arrays are column-major, so the basic and advanced planners reverse the sizes
//!   (`dfftw_plan_dft_2d(p, nx, ny, ...)` is `fftw_plan_dft_2d(ny, nx, ...)`), the `n`, `inembed`
//!   and `onembed` arrays, and the r2r kinds (`kindx`, `kindy` of the 2-d and 3-d calls swap too);
//! - the guru planners take each iodim array as three integer arrays `n`, `is`, `os` and pass the
//!   dimensions through in the caller's order, unreversed (the caller sets the strides), but
//!   `plan_guru_r2r` does reverse its kind array: FFTW keeps that quirk for compatibility, and its
//!   manual says so (checked against the system libfftw3.so.3);
//! - `cost` and `estimate_cost` are subroutines writing the figure into their first argument:
//!   `dfftw_cost_(double *cost, plan *p)`; `set_timelimit` takes a double in both precisions;
//! - wisdom callbacks are Fortran subroutines: `write_char(c, data)` gets a pointer to one
//!   character, `read_char(ic, data)` stores the next character code in the integer `ic`, a
//!   negative value meaning end of input;
//! - the threads calls (libfftw3_threads in FFTW, here the same library as the rest):
//!   `init_threads(iret)`, `cleanup_threads()`, `plan_with_nthreads(n)`, `planner_nthreads(n)`.
//!
//! Every wrapper delegates to the C entry point of the same name. Beyond FFTW, NULL pointers
//! where FFTW would crash are refused with a message (under `FFTX_LOG=warn`), and no panic
//! crosses the boundary.

use super::guard;
use crate::abi::fftw_iodim;
use crate::plan::Plan;
use std::os::raw::{c_char, c_int, c_uint, c_void};
use std::ptr::{null, null_mut};

extern "C" {
    /// C's `stdout`, flushed after `print_plan` as FFTW's wrapper does.
    static mut stdout: *mut libc::FILE;
}

/// `void write_char(char *c, void *data)`: the Fortran subroutine given to `export_wisdom`.
pub type f77_write_char_func = Option<unsafe extern "C" fn(c: *mut c_char, data: *mut c_void)>;
/// `void read_char(int *c, void *data)`: the Fortran subroutine given to `import_wisdom`.
pub type f77_read_char_func = Option<unsafe extern "C" fn(c: *mut c_int, data: *mut c_void)>;

/// Reads a by-reference argument.
unsafe fn arg<T: Copy>(p: *const T, what: &str) -> crate::error::Result<T> {
    if p.is_null() {
        return Err(format!("{what} is NULL").into());
    }
    Ok(*p)
}

/// FFTW's `reverse_n`: `rank` ints from a Fortran array, last first.
unsafe fn reversed(rank: c_int, p: *const c_int, what: &str) -> crate::error::Result<Vec<c_int>> {
    if rank < 0 {
        return Err(format!("negative rank {rank}").into());
    }
    if rank > 0 && p.is_null() {
        return Err(format!("{what} is NULL with rank {rank}").into());
    }
    Ok((0..rank as usize).rev().map(|i| *p.add(i)).collect())
}

/// An embed array, reversed; NULL stays NULL (the default embedding) where FFTW would crash.
unsafe fn reversed_embed(rank: c_int, p: *const c_int) -> crate::error::Result<Option<Vec<c_int>>> {
    if p.is_null() {
        return Ok(None);
    }
    reversed(rank, p, "embed").map(Some)
}

fn opt_ptr(v: &Option<Vec<c_int>>) -> *const c_int {
    v.as_ref().map_or(null(), |v| v.as_ptr())
}

/// FFTW's `make_dims`: an iodim array from the parallel arrays `n`, `is`, `os`, in the caller's order.
unsafe fn make_dims(
    rank: c_int,
    n: *const c_int,
    is: *const c_int,
    os: *const c_int,
    what: &str,
) -> crate::error::Result<Vec<fftw_iodim>> {
    if rank < 0 {
        return Err(format!("negative {what} rank {rank}").into());
    }
    if rank > 0 && (n.is_null() || is.is_null() || os.is_null()) {
        return Err(format!("{what} n/is/os array is NULL with rank {rank}").into());
    }
    Ok((0..rank as usize)
        .map(|i| fftw_iodim {
            n: *n.add(i),
            is: *is.add(i),
            os: *os.add(i),
        })
        .collect())
}

/// Runs a planner and stores its plan (NULL on failure) through the caller's plan argument.
unsafe fn set_plan(
    what: &str,
    p: *mut *mut Plan,
    make: impl FnOnce() -> crate::error::Result<*mut Plan>,
) {
    guard(what, (), || {
        if p.is_null() {
            return Err("the plan argument is NULL".into());
        }
        *p = null_mut();
        *p = make()?;
        Ok(())
    })
}

/// The plan a by-reference plan argument holds.
unsafe fn plan_of(p: *const *mut Plan) -> crate::error::Result<*mut Plan> {
    arg(p, "the plan argument")
}

struct WriteChar {
    f: unsafe extern "C" fn(*mut c_char, *mut c_void),
    data: *mut c_void,
}

struct ReadChar {
    f: unsafe extern "C" fn(*mut c_int, *mut c_void),
    data: *mut c_void,
}

/// FFTW's `write_char`: hands the Fortran subroutine a pointer to the character.
unsafe extern "C" fn write_char(c: c_char, d: *mut c_void) {
    let w = &*(d as *const WriteChar);
    let mut c = c;
    (w.f)(&mut c, w.data);
}

/// FFTW's `read_char`: the Fortran subroutine stores a character code; negative means EOF.
/// (FFTW leaves `c` uninitialized; starting from EOF makes a subroutine that sets nothing end the input.)
unsafe extern "C" fn read_char(d: *mut c_void) -> c_int {
    let r = &*(d as *const ReadChar);
    let mut c: c_int = libc::EOF;
    (r.f)(&mut c, r.data);
    if c < 0 {
        libc::EOF
    } else {
        c
    }
}

/// One Fortran entry point, exported as `NAME_` and as its g77 alias `NAME__`, which calls it.
macro_rules! f77 {
    ($name:ident($($a:ident: $t:ty),* $(,)?) $body:block) => { paste::paste! {
        #[allow(clippy::too_many_arguments)]
        #[no_mangle]
        pub unsafe extern "C" fn [<$name _>]($($a: $t),*) $body

        #[allow(clippy::too_many_arguments)]
        #[no_mangle]
        pub unsafe extern "C" fn [<$name __>]($($a: $t),*) {
            [<$name _>]($($a),*)
        }
    }};
}

macro_rules! fortran_api {
    ($R:ty, $f:ident, $c:ident) => { paste::paste! {
        // ------------------------------------------------------------------ plans, misc

        f77!([<$f execute>](p: *const *mut Plan) {
            guard(stringify!([<$f execute_>]), (), || {
                super::execute::[<$c execute>](plan_of(p)?);
                Ok(())
            })
        });

        f77!([<$f destroy_plan>](p: *mut *mut Plan) {
            guard(stringify!([<$f destroy_plan_>]), (), || {
                super::execute::[<$c destroy_plan>](plan_of(p)?);
                Ok(())
            })
        });

        f77!([<$f cleanup>]() {
            super::info::[<$c cleanup>]();
        });

        f77!([<$f forget_wisdom>]() {
            super::wisdom::[<$c forget_wisdom>]();
        });

        f77!([<$f export_wisdom>](write: f77_write_char_func, data: *mut c_void) {
            guard(stringify!([<$f export_wisdom_>]), (), || {
                let mut w = WriteChar { f: write.ok_or("write_char is NULL")?, data };
                super::wisdom::[<$c export_wisdom>](Some(write_char), &mut w as *mut WriteChar as *mut c_void);
                Ok(())
            })
        });

        f77!([<$f import_wisdom>](isuccess: *mut c_int, read: f77_read_char_func, data: *mut c_void) {
            guard(stringify!([<$f import_wisdom_>]), (), || {
                if isuccess.is_null() {
                    return Err("isuccess is NULL".into());
                }
                *isuccess = 0;
                let mut r = ReadChar { f: read.ok_or("read_char is NULL")?, data };
                *isuccess = super::wisdom::[<$c import_wisdom>](Some(read_char), &mut r as *mut ReadChar as *mut c_void);
                Ok(())
            })
        });

        f77!([<$f import_system_wisdom>](isuccess: *mut c_int) {
            guard(stringify!([<$f import_system_wisdom_>]), (), || {
                if isuccess.is_null() {
                    return Err("isuccess is NULL".into());
                }
                *isuccess = super::wisdom::[<$c import_system_wisdom>]();
                Ok(())
            })
        });

        f77!([<$f print_plan>](p: *const *mut Plan) {
            guard(stringify!([<$f print_plan_>]), (), || {
                super::info::[<$c print_plan>](plan_of(p)?);
                libc::fflush(stdout);
                Ok(())
            })
        });

        f77!([<$f flops>](p: *const *mut Plan, add: *mut f64, mul: *mut f64, fma: *mut f64) {
            guard(stringify!([<$f flops_>]), (), || {
                super::info::[<$c flops>](plan_of(p)?, add, mul, fma);
                Ok(())
            })
        });

        f77!([<$f estimate_cost>](cost: *mut f64, p: *const *mut Plan) {
            guard(stringify!([<$f estimate_cost_>]), (), || {
                if cost.is_null() {
                    return Err("cost is NULL".into());
                }
                *cost = super::info::[<$c estimate_cost>](plan_of(p)?);
                Ok(())
            })
        });

        f77!([<$f cost>](cost: *mut f64, p: *const *mut Plan) {
            guard(stringify!([<$f cost_>]), (), || {
                if cost.is_null() {
                    return Err("cost is NULL".into());
                }
                *cost = super::info::[<$c cost>](plan_of(p)?);
                Ok(())
            })
        });

        f77!([<$f set_timelimit>](t: *const f64) {
            guard(stringify!([<$f set_timelimit_>]), (), || {
                super::info::[<$c set_timelimit>](arg(t, "t")?);
                Ok(())
            })
        });

        // ------------------------------------------------------------------ threads

        f77!([<$f init_threads>](iret: *mut c_int) {
            guard(stringify!([<$f init_threads_>]), (), || {
                if iret.is_null() {
                    return Err("iret is NULL".into());
                }
                *iret = super::threads::[<$c init_threads>]();
                Ok(())
            })
        });

        f77!([<$f cleanup_threads>]() {
            super::threads::[<$c cleanup_threads>]();
        });

        f77!([<$f plan_with_nthreads>](nthreads: *const c_int) {
            guard(stringify!([<$f plan_with_nthreads_>]), (), || {
                super::threads::[<$c plan_with_nthreads>](arg(nthreads, "nthreads")?);
                Ok(())
            })
        });

        f77!([<$f planner_nthreads>](nthreads: *mut c_int) {
            guard(stringify!([<$f planner_nthreads_>]), (), || {
                if nthreads.is_null() {
                    return Err("nthreads is NULL".into());
                }
                *nthreads = super::threads::[<$c planner_nthreads>]();
                Ok(())
            })
        });

        // ------------------------------------------------------------------ complex DFT

        f77!([<$f plan_dft>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int,
            input: *mut [$R; 2], output: *mut [$R; 2], sign: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_>]), p, || {
                let rank = arg(rank, "rank")?;
                let n = reversed(rank, n, "n")?;
                Ok(super::basic::[<$c plan_dft>](rank, n.as_ptr(), input, output, arg(sign, "sign")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_1d>](p: *mut *mut Plan, n: *const c_int,
            input: *mut [$R; 2], output: *mut [$R; 2], sign: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_1d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_1d>](arg(n, "n")?, input, output, arg(sign, "sign")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_2d>](p: *mut *mut Plan, nx: *const c_int, ny: *const c_int,
            input: *mut [$R; 2], output: *mut [$R; 2], sign: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_2d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_2d>](arg(ny, "ny")?, arg(nx, "nx")?, input, output,
                    arg(sign, "sign")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_3d>](p: *mut *mut Plan, nx: *const c_int, ny: *const c_int, nz: *const c_int,
            input: *mut [$R; 2], output: *mut [$R; 2], sign: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_3d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_3d>](arg(nz, "nz")?, arg(ny, "ny")?, arg(nx, "nx")?, input, output,
                    arg(sign, "sign")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_many_dft>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, howmany: *const c_int,
            input: *mut [$R; 2], inembed: *const c_int, istride: *const c_int, idist: *const c_int,
            output: *mut [$R; 2], onembed: *const c_int, ostride: *const c_int, odist: *const c_int,
            sign: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_many_dft_>]), p, || {
                let rank = arg(rank, "rank")?;
                let n = reversed(rank, n, "n")?;
                let (ie, oe) = (reversed_embed(rank, inembed)?, reversed_embed(rank, onembed)?);
                Ok(super::advanced::[<$c plan_many_dft>](rank, n.as_ptr(), arg(howmany, "howmany")?,
                    input, opt_ptr(&ie), arg(istride, "istride")?, arg(idist, "idist")?,
                    output, opt_ptr(&oe), arg(ostride, "ostride")?, arg(odist, "odist")?,
                    arg(sign, "sign")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_guru_dft>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, is: *const c_int, os: *const c_int,
            howmany_rank: *const c_int, h_n: *const c_int, h_is: *const c_int, h_os: *const c_int,
            input: *mut [$R; 2], output: *mut [$R; 2], sign: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_guru_dft_>]), p, || {
                let (rank, hr) = (arg(rank, "rank")?, arg(howmany_rank, "howmany_rank")?);
                let dims = make_dims(rank, n, is, os, "transform")?;
                let hdims = make_dims(hr, h_n, h_is, h_os, "howmany")?;
                Ok(super::guru::[<$c plan_guru_dft>](rank, dims.as_ptr(), hr, hdims.as_ptr(), input, output,
                    arg(sign, "sign")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_guru_split_dft>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, is: *const c_int, os: *const c_int,
            howmany_rank: *const c_int, h_n: *const c_int, h_is: *const c_int, h_os: *const c_int,
            ri: *mut $R, ii: *mut $R, ro: *mut $R, io: *mut $R, flags: *const c_int) {
            set_plan(stringify!([<$f plan_guru_split_dft_>]), p, || {
                let (rank, hr) = (arg(rank, "rank")?, arg(howmany_rank, "howmany_rank")?);
                let dims = make_dims(rank, n, is, os, "transform")?;
                let hdims = make_dims(hr, h_n, h_is, h_os, "howmany")?;
                Ok(super::split::[<$c plan_guru_split_dft>](rank, dims.as_ptr(), hr, hdims.as_ptr(), ri, ii, ro, io,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f execute_dft>](p: *const *mut Plan, input: *mut [$R; 2], output: *mut [$R; 2]) {
            guard(stringify!([<$f execute_dft_>]), (), || {
                super::execute::[<$c execute_dft>](plan_of(p)?, input, output);
                Ok(())
            })
        });

        f77!([<$f execute_split_dft>](p: *const *mut Plan, ri: *mut $R, ii: *mut $R, ro: *mut $R, io: *mut $R) {
            guard(stringify!([<$f execute_split_dft_>]), (), || {
                super::execute::[<$c execute_split_dft>](plan_of(p)?, ri, ii, ro, io);
                Ok(())
            })
        });

        // ------------------------------------------------------------------ r2c

        f77!([<$f plan_dft_r2c>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int,
            input: *mut $R, output: *mut [$R; 2], flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_r2c_>]), p, || {
                let rank = arg(rank, "rank")?;
                let n = reversed(rank, n, "n")?;
                Ok(super::basic::[<$c plan_dft_r2c>](rank, n.as_ptr(), input, output, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_r2c_1d>](p: *mut *mut Plan, n: *const c_int, input: *mut $R, output: *mut [$R; 2], flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_r2c_1d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_r2c_1d>](arg(n, "n")?, input, output, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_r2c_2d>](p: *mut *mut Plan, nx: *const c_int, ny: *const c_int,
            input: *mut $R, output: *mut [$R; 2], flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_r2c_2d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_r2c_2d>](arg(ny, "ny")?, arg(nx, "nx")?, input, output, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_r2c_3d>](p: *mut *mut Plan, nx: *const c_int, ny: *const c_int, nz: *const c_int,
            input: *mut $R, output: *mut [$R; 2], flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_r2c_3d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_r2c_3d>](arg(nz, "nz")?, arg(ny, "ny")?, arg(nx, "nx")?, input, output,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_many_dft_r2c>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, howmany: *const c_int,
            input: *mut $R, inembed: *const c_int, istride: *const c_int, idist: *const c_int,
            output: *mut [$R; 2], onembed: *const c_int, ostride: *const c_int, odist: *const c_int,
            flags: *const c_int) {
            set_plan(stringify!([<$f plan_many_dft_r2c_>]), p, || {
                let rank = arg(rank, "rank")?;
                let n = reversed(rank, n, "n")?;
                let (ie, oe) = (reversed_embed(rank, inembed)?, reversed_embed(rank, onembed)?);
                Ok(super::advanced::[<$c plan_many_dft_r2c>](rank, n.as_ptr(), arg(howmany, "howmany")?,
                    input, opt_ptr(&ie), arg(istride, "istride")?, arg(idist, "idist")?,
                    output, opt_ptr(&oe), arg(ostride, "ostride")?, arg(odist, "odist")?,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_guru_dft_r2c>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, is: *const c_int, os: *const c_int,
            howmany_rank: *const c_int, h_n: *const c_int, h_is: *const c_int, h_os: *const c_int,
            input: *mut $R, output: *mut [$R; 2], flags: *const c_int) {
            set_plan(stringify!([<$f plan_guru_dft_r2c_>]), p, || {
                let (rank, hr) = (arg(rank, "rank")?, arg(howmany_rank, "howmany_rank")?);
                let dims = make_dims(rank, n, is, os, "transform")?;
                let hdims = make_dims(hr, h_n, h_is, h_os, "howmany")?;
                Ok(super::guru::[<$c plan_guru_dft_r2c>](rank, dims.as_ptr(), hr, hdims.as_ptr(), input, output,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_guru_split_dft_r2c>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, is: *const c_int, os: *const c_int,
            howmany_rank: *const c_int, h_n: *const c_int, h_is: *const c_int, h_os: *const c_int,
            input: *mut $R, ro: *mut $R, io: *mut $R, flags: *const c_int) {
            set_plan(stringify!([<$f plan_guru_split_dft_r2c_>]), p, || {
                let (rank, hr) = (arg(rank, "rank")?, arg(howmany_rank, "howmany_rank")?);
                let dims = make_dims(rank, n, is, os, "transform")?;
                let hdims = make_dims(hr, h_n, h_is, h_os, "howmany")?;
                Ok(super::split::[<$c plan_guru_split_dft_r2c>](rank, dims.as_ptr(), hr, hdims.as_ptr(), input, ro, io,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f execute_dft_r2c>](p: *const *mut Plan, input: *mut $R, output: *mut [$R; 2]) {
            guard(stringify!([<$f execute_dft_r2c_>]), (), || {
                super::execute::[<$c execute_dft_r2c>](plan_of(p)?, input, output);
                Ok(())
            })
        });

        f77!([<$f execute_split_dft_r2c>](p: *const *mut Plan, input: *mut $R, ro: *mut $R, io: *mut $R) {
            guard(stringify!([<$f execute_split_dft_r2c_>]), (), || {
                super::execute::[<$c execute_split_dft_r2c>](plan_of(p)?, input, ro, io);
                Ok(())
            })
        });

        // ------------------------------------------------------------------ c2r

        f77!([<$f plan_dft_c2r>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int,
            input: *mut [$R; 2], output: *mut $R, flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_c2r_>]), p, || {
                let rank = arg(rank, "rank")?;
                let n = reversed(rank, n, "n")?;
                Ok(super::basic::[<$c plan_dft_c2r>](rank, n.as_ptr(), input, output, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_c2r_1d>](p: *mut *mut Plan, n: *const c_int, input: *mut [$R; 2], output: *mut $R, flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_c2r_1d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_c2r_1d>](arg(n, "n")?, input, output, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_c2r_2d>](p: *mut *mut Plan, nx: *const c_int, ny: *const c_int,
            input: *mut [$R; 2], output: *mut $R, flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_c2r_2d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_c2r_2d>](arg(ny, "ny")?, arg(nx, "nx")?, input, output, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_dft_c2r_3d>](p: *mut *mut Plan, nx: *const c_int, ny: *const c_int, nz: *const c_int,
            input: *mut [$R; 2], output: *mut $R, flags: *const c_int) {
            set_plan(stringify!([<$f plan_dft_c2r_3d_>]), p, || {
                Ok(super::basic::[<$c plan_dft_c2r_3d>](arg(nz, "nz")?, arg(ny, "ny")?, arg(nx, "nx")?, input, output,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_many_dft_c2r>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, howmany: *const c_int,
            input: *mut [$R; 2], inembed: *const c_int, istride: *const c_int, idist: *const c_int,
            output: *mut $R, onembed: *const c_int, ostride: *const c_int, odist: *const c_int,
            flags: *const c_int) {
            set_plan(stringify!([<$f plan_many_dft_c2r_>]), p, || {
                let rank = arg(rank, "rank")?;
                let n = reversed(rank, n, "n")?;
                let (ie, oe) = (reversed_embed(rank, inembed)?, reversed_embed(rank, onembed)?);
                Ok(super::advanced::[<$c plan_many_dft_c2r>](rank, n.as_ptr(), arg(howmany, "howmany")?,
                    input, opt_ptr(&ie), arg(istride, "istride")?, arg(idist, "idist")?,
                    output, opt_ptr(&oe), arg(ostride, "ostride")?, arg(odist, "odist")?,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_guru_dft_c2r>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, is: *const c_int, os: *const c_int,
            howmany_rank: *const c_int, h_n: *const c_int, h_is: *const c_int, h_os: *const c_int,
            input: *mut [$R; 2], output: *mut $R, flags: *const c_int) {
            set_plan(stringify!([<$f plan_guru_dft_c2r_>]), p, || {
                let (rank, hr) = (arg(rank, "rank")?, arg(howmany_rank, "howmany_rank")?);
                let dims = make_dims(rank, n, is, os, "transform")?;
                let hdims = make_dims(hr, h_n, h_is, h_os, "howmany")?;
                Ok(super::guru::[<$c plan_guru_dft_c2r>](rank, dims.as_ptr(), hr, hdims.as_ptr(), input, output,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_guru_split_dft_c2r>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, is: *const c_int, os: *const c_int,
            howmany_rank: *const c_int, h_n: *const c_int, h_is: *const c_int, h_os: *const c_int,
            ri: *mut $R, ii: *mut $R, output: *mut $R, flags: *const c_int) {
            set_plan(stringify!([<$f plan_guru_split_dft_c2r_>]), p, || {
                let (rank, hr) = (arg(rank, "rank")?, arg(howmany_rank, "howmany_rank")?);
                let dims = make_dims(rank, n, is, os, "transform")?;
                let hdims = make_dims(hr, h_n, h_is, h_os, "howmany")?;
                Ok(super::split::[<$c plan_guru_split_dft_c2r>](rank, dims.as_ptr(), hr, hdims.as_ptr(), ri, ii, output,
                    arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f execute_dft_c2r>](p: *const *mut Plan, input: *mut [$R; 2], output: *mut $R) {
            guard(stringify!([<$f execute_dft_c2r_>]), (), || {
                super::execute::[<$c execute_dft_c2r>](plan_of(p)?, input, output);
                Ok(())
            })
        });

        f77!([<$f execute_split_dft_c2r>](p: *const *mut Plan, ri: *mut $R, ii: *mut $R, output: *mut $R) {
            guard(stringify!([<$f execute_split_dft_c2r_>]), (), || {
                super::execute::[<$c execute_split_dft_c2r>](plan_of(p)?, ri, ii, output);
                Ok(())
            })
        });

        // ------------------------------------------------------------------ r2r

        f77!([<$f plan_r2r>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int,
            input: *mut $R, output: *mut $R, kind: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_r2r_>]), p, || {
                let rank = arg(rank, "rank")?;
                let n = reversed(rank, n, "n")?;
                let k = reversed(rank, kind, "kind")?;
                Ok(super::basic::[<$c plan_r2r>](rank, n.as_ptr(), input, output, k.as_ptr(), arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_r2r_1d>](p: *mut *mut Plan, n: *const c_int, input: *mut $R, output: *mut $R,
            kind: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_r2r_1d_>]), p, || {
                Ok(super::basic::[<$c plan_r2r_1d>](arg(n, "n")?, input, output, arg(kind, "kind")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_r2r_2d>](p: *mut *mut Plan, nx: *const c_int, ny: *const c_int, input: *mut $R, output: *mut $R,
            kindx: *const c_int, kindy: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_r2r_2d_>]), p, || {
                Ok(super::basic::[<$c plan_r2r_2d>](arg(ny, "ny")?, arg(nx, "nx")?, input, output,
                    arg(kindy, "kindy")?, arg(kindx, "kindx")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_r2r_3d>](p: *mut *mut Plan, nx: *const c_int, ny: *const c_int, nz: *const c_int,
            input: *mut $R, output: *mut $R,
            kindx: *const c_int, kindy: *const c_int, kindz: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_r2r_3d_>]), p, || {
                Ok(super::basic::[<$c plan_r2r_3d>](arg(nz, "nz")?, arg(ny, "ny")?, arg(nx, "nx")?, input, output,
                    arg(kindz, "kindz")?, arg(kindy, "kindy")?, arg(kindx, "kindx")?, arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f plan_many_r2r>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, howmany: *const c_int,
            input: *mut $R, inembed: *const c_int, istride: *const c_int, idist: *const c_int,
            output: *mut $R, onembed: *const c_int, ostride: *const c_int, odist: *const c_int,
            kind: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_many_r2r_>]), p, || {
                let rank = arg(rank, "rank")?;
                let n = reversed(rank, n, "n")?;
                let k = reversed(rank, kind, "kind")?;
                let (ie, oe) = (reversed_embed(rank, inembed)?, reversed_embed(rank, onembed)?);
                Ok(super::advanced::[<$c plan_many_r2r>](rank, n.as_ptr(), arg(howmany, "howmany")?,
                    input, opt_ptr(&ie), arg(istride, "istride")?, arg(idist, "idist")?,
                    output, opt_ptr(&oe), arg(ostride, "ostride")?, arg(odist, "odist")?,
                    k.as_ptr(), arg(flags, "flags")? as c_uint))
            })
        });

        // Dims in the caller's order, kinds reversed: FFTW's documented quirk.
        f77!([<$f plan_guru_r2r>](p: *mut *mut Plan, rank: *const c_int, n: *const c_int, is: *const c_int, os: *const c_int,
            howmany_rank: *const c_int, h_n: *const c_int, h_is: *const c_int, h_os: *const c_int,
            input: *mut $R, output: *mut $R, kind: *const c_int, flags: *const c_int) {
            set_plan(stringify!([<$f plan_guru_r2r_>]), p, || {
                let (rank, hr) = (arg(rank, "rank")?, arg(howmany_rank, "howmany_rank")?);
                let dims = make_dims(rank, n, is, os, "transform")?;
                let hdims = make_dims(hr, h_n, h_is, h_os, "howmany")?;
                let k = reversed(rank, kind, "kind")?;
                Ok(super::guru::[<$c plan_guru_r2r>](rank, dims.as_ptr(), hr, hdims.as_ptr(), input, output,
                    k.as_ptr(), arg(flags, "flags")? as c_uint))
            })
        });

        f77!([<$f execute_r2r>](p: *const *mut Plan, input: *mut $R, output: *mut $R) {
            guard(stringify!([<$f execute_r2r_>]), (), || {
                super::execute::[<$c execute_r2r>](plan_of(p)?, input, output);
                Ok(())
            })
        });
    }};
}

fortran_api!(f64, dfftw_, fftw_);
fortran_api!(f32, sfftw_, fftwf_);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::*;
    use crate::api::{advanced::*, basic::*, execute::*, guru::*, info::*, threads::*, wisdom::*};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::sync::{Mutex, MutexGuard};

    /// Tests that change global planner state (wisdom, threads) hold this.
    static STATE: Mutex<()> = Mutex::new(());
    fn state() -> MutexGuard<'static, ()> {
        STATE.lock().unwrap_or_else(|e| e.into_inner())
    }

    const EST: c_int = FFTW_ESTIMATE as c_int;
    type Pl = *mut Plan;

    fn rng(seed: u64) -> SmallRng {
        SmallRng::seed_from_u64(seed)
    }
    fn rand_c(n: usize, seed: u64) -> Vec<[f64; 2]> {
        let mut r = rng(seed);
        (0..n)
            .map(|_| [r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0)])
            .collect()
    }
    fn rand_r(n: usize, seed: u64) -> Vec<f64> {
        let mut r = rng(seed);
        (0..n).map(|_| r.gen_range(-1.0..1.0)).collect()
    }
    fn flat(v: &[[f64; 2]]) -> Vec<f64> {
        v.iter().flat_map(|c| [c[0], c[1]]).collect()
    }
    /// Max |a-b| over max |b|; panics on length mismatch or an all-zero reference.
    fn rel(a: &[f64], b: &[f64]) -> f64 {
        assert_eq!(a.len(), b.len());
        let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        assert!(scale > 0.0, "reference is all zeros");
        a.iter()
            .zip(b)
            .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
            / scale
    }
    fn close(a: &[f64], b: &[f64], what: &str) {
        let e = rel(a, b);
        assert!(e < 1e-12, "{what}: relative error {e}");
    }

    unsafe fn exec_destroy(p: Pl) {
        assert!(!p.is_null());
        fftw_execute(p);
        fftw_destroy_plan(p);
    }

    /// The 2-D DFT of a column-major nx-by-ny array, straight from the definition.
    fn direct_dft_colmajor(x: &[[f64; 2]], nx: usize, ny: usize, sign: f64) -> Vec<f64> {
        let mut out = vec![[0.0; 2]; nx * ny];
        for l in 0..ny {
            for k in 0..nx {
                let (mut re, mut im) = (0.0, 0.0);
                for j in 0..ny {
                    for i in 0..nx {
                        let ph = sign
                            * 2.0
                            * std::f64::consts::PI
                            * ((i * k) as f64 / nx as f64 + (j * l) as f64 / ny as f64);
                        let (s, c) = ph.sin_cos();
                        let v = x[i + nx * j];
                        re += v[0] * c - v[1] * s;
                        im += v[0] * s + v[1] * c;
                    }
                }
                out[k + nx * l] = [re, im];
            }
        }
        flat(&out)
    }

    #[test]
    fn dft_2d_reverses_sizes() {
        let (nx, ny) = (3, 5);
        let x = rand_c(nx * ny, 1);
        unsafe {
            let (mut i1, mut o1) = (x.clone(), vec![[0.0; 2]; nx * ny]);
            let mut p: Pl = null_mut();
            dfftw_plan_dft_2d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                i1.as_mut_ptr(),
                o1.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            assert!(!p.is_null());
            dfftw_execute_(&p);
            dfftw_destroy_plan_(&mut p);

            let (mut i2, mut o2) = (x.clone(), vec![[0.0; 2]; nx * ny]);
            exec_destroy(fftw_plan_dft_2d(
                ny as c_int,
                nx as c_int,
                i2.as_mut_ptr(),
                o2.as_mut_ptr(),
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            ));
            close(
                &flat(&o1),
                &flat(&o2),
                "dfftw_plan_dft_2d vs fftw_plan_dft_2d(ny, nx)",
            );
            close(
                &flat(&o1),
                &direct_dft_colmajor(&x, nx, ny, -1.0),
                "dfftw_plan_dft_2d vs direct column-major DFT",
            );

            // The unreversed C call is a different transform: the comparison above can fail.
            let (mut i3, mut o3) = (x.clone(), vec![[0.0; 2]; nx * ny]);
            exec_destroy(fftw_plan_dft_2d(
                nx as c_int,
                ny as c_int,
                i3.as_mut_ptr(),
                o3.as_mut_ptr(),
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            ));
            assert!(rel(&flat(&o1), &flat(&o3)) > 1e-3);

            // The g77 alias, backward, executed on new arrays.
            let (mut i4, mut o4) = (x.clone(), vec![[0.0; 2]; nx * ny]);
            let mut q: Pl = null_mut();
            dfftw_plan_dft_2d__(
                &mut q,
                &(nx as c_int),
                &(ny as c_int),
                i4.as_mut_ptr(),
                o4.as_mut_ptr(),
                &FFTW_BACKWARD,
                &EST,
            );
            assert!(!q.is_null());
            let (mut i5, mut o5) = (x.clone(), vec![[0.0; 2]; nx * ny]);
            dfftw_execute_dft__(&q, i5.as_mut_ptr(), o5.as_mut_ptr());
            dfftw_destroy_plan__(&mut q);
            close(
                &flat(&o5),
                &direct_dft_colmajor(&x, nx, ny, 1.0),
                "dfftw_execute_dft__ backward",
            );
        }
    }

    #[test]
    fn dft_3d_and_rank_n() {
        let (nx, ny, nz) = (2usize, 3usize, 4usize);
        let len = nx * ny * nz;
        let x = rand_c(len, 2);
        unsafe {
            let (mut i1, mut o1) = (x.clone(), vec![[0.0; 2]; len]);
            let mut p: Pl = null_mut();
            dfftw_plan_dft_3d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                &(nz as c_int),
                i1.as_mut_ptr(),
                o1.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            exec_destroy(p);

            let (mut i2, mut o2) = (x.clone(), vec![[0.0; 2]; len]);
            exec_destroy(fftw_plan_dft_3d(
                nz as c_int,
                ny as c_int,
                nx as c_int,
                i2.as_mut_ptr(),
                o2.as_mut_ptr(),
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            ));
            close(&flat(&o1), &flat(&o2), "dfftw_plan_dft_3d");

            let (mut i3, mut o3) = (x.clone(), vec![[0.0; 2]; len]);
            let n = [nx as c_int, ny as c_int, nz as c_int];
            dfftw_plan_dft_(
                &mut p,
                &3,
                n.as_ptr(),
                i3.as_mut_ptr(),
                o3.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            exec_destroy(p);
            close(&flat(&o3), &flat(&o2), "dfftw_plan_dft rank 3");

            let (mut i4, mut o4) = (x.clone(), vec![[0.0; 2]; len]);
            dfftw_plan_dft_1d_(
                &mut p,
                &(len as c_int),
                i4.as_mut_ptr(),
                o4.as_mut_ptr(),
                &FFTW_BACKWARD,
                &EST,
            );
            exec_destroy(p);
            let (mut i5, mut o5) = (x.clone(), vec![[0.0; 2]; len]);
            exec_destroy(fftw_plan_dft_1d(
                len as c_int,
                i5.as_mut_ptr(),
                o5.as_mut_ptr(),
                FFTW_BACKWARD,
                FFTW_ESTIMATE,
            ));
            close(&flat(&o4), &flat(&o5), "dfftw_plan_dft_1d");
        }
    }

    #[test]
    // Long because it is one scenario over a family of Fortran entries (each call spelled out
    // with its by-reference arguments), read top to bottom.
    #[allow(clippy::too_many_lines)]
    fn r2c_c2r_reverse_sizes() {
        let (nx, ny) = (6usize, 4usize);
        let nc = (nx / 2 + 1) * ny; // Fortran: the first (fastest) dimension is halved
        let x = rand_r(nx * ny, 3);
        unsafe {
            let mut p: Pl = null_mut();
            let (mut i1, mut o1) = (x.clone(), vec![[0.0; 2]; nc]);
            dfftw_plan_dft_r2c_2d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                i1.as_mut_ptr(),
                o1.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            let (mut i2, mut o2) = (x.clone(), vec![[0.0; 2]; nc]);
            exec_destroy(fftw_plan_dft_r2c_2d(
                ny as c_int,
                nx as c_int,
                i2.as_mut_ptr(),
                o2.as_mut_ptr(),
                FFTW_ESTIMATE,
            ));
            close(&flat(&o1), &flat(&o2), "dfftw_plan_dft_r2c_2d");
            // The DC term is the sum; bin (1, 0) is the DFT along the fastest (x) dimension.
            let dc: f64 = x.iter().sum();
            assert!((o1[0][0] - dc).abs() < 1e-12 && o1[0][1].abs() < 1e-12);
            let ph = |i: usize| -2.0 * std::f64::consts::PI * i as f64 / nx as f64;
            let b10: (f64, f64) = (0..nx * ny).fold((0.0, 0.0), |s, k| {
                (s.0 + x[k] * ph(k % nx).cos(), s.1 + x[k] * ph(k % nx).sin())
            });
            assert!(
                (o1[1][0] - b10.0).abs() < 1e-12 && (o1[1][1] - b10.1).abs() < 1e-12,
                "bin (1,0) is not along x"
            );

            let (mut i3, mut o3) = (x.clone(), vec![[0.0; 2]; nc]);
            let n = [nx as c_int, ny as c_int];
            dfftw_plan_dft_r2c_(
                &mut p,
                &2,
                n.as_ptr(),
                i3.as_mut_ptr(),
                o3.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            close(&flat(&o3), &flat(&o2), "dfftw_plan_dft_r2c rank 2");

            // c2r back: unnormalized, so x * nx * ny.
            let want: Vec<f64> = x.iter().map(|v| v * (nx * ny) as f64).collect();
            let mut r1 = vec![0.0; nx * ny];
            let mut c = o2.clone();
            dfftw_plan_dft_c2r_2d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                c.as_mut_ptr(),
                r1.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            close(&r1, &want, "dfftw_plan_dft_c2r_2d round trip");
            let mut r2 = vec![0.0; nx * ny];
            let mut c = o2.clone();
            dfftw_plan_dft_c2r_(
                &mut p,
                &2,
                n.as_ptr(),
                c.as_mut_ptr(),
                r2.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            close(&r2, &want, "dfftw_plan_dft_c2r rank 2 round trip");

            // 3-d and 1-d forms against the C API with reversed sizes.
            let (ax, ay, az) = (4usize, 3usize, 2usize);
            let y = rand_r(ax * ay * az, 4);
            let mc = (ax / 2 + 1) * ay * az;
            let (mut j1, mut d1) = (y.clone(), vec![[0.0; 2]; mc]);
            dfftw_plan_dft_r2c_3d_(
                &mut p,
                &(ax as c_int),
                &(ay as c_int),
                &(az as c_int),
                j1.as_mut_ptr(),
                d1.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            let (mut j2, mut d2) = (y.clone(), vec![[0.0; 2]; mc]);
            exec_destroy(fftw_plan_dft_r2c_3d(
                az as c_int,
                ay as c_int,
                ax as c_int,
                j2.as_mut_ptr(),
                d2.as_mut_ptr(),
                FFTW_ESTIMATE,
            ));
            close(&flat(&d1), &flat(&d2), "dfftw_plan_dft_r2c_3d");
            let mut back = vec![0.0; ax * ay * az];
            dfftw_plan_dft_c2r_3d_(
                &mut p,
                &(ax as c_int),
                &(ay as c_int),
                &(az as c_int),
                d1.as_mut_ptr(),
                back.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            close(
                &back,
                &y.iter()
                    .map(|v| v * (ax * ay * az) as f64)
                    .collect::<Vec<_>>(),
                "dfftw_plan_dft_c2r_3d round trip",
            );

            let (mut k1, mut e1) = (y.clone(), vec![[0.0; 2]; y.len() / 2 + 1]);
            dfftw_plan_dft_r2c_1d_(
                &mut p,
                &(y.len() as c_int),
                k1.as_mut_ptr(),
                e1.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            let mut back1 = vec![0.0; y.len()];
            dfftw_plan_dft_c2r_1d_(
                &mut p,
                &(y.len() as c_int),
                e1.as_mut_ptr(),
                back1.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            close(
                &back1,
                &y.iter().map(|v| v * y.len() as f64).collect::<Vec<_>>(),
                "1-d r2c/c2r round trip",
            );
        }
    }

    #[test]
    // Long because it is one scenario over a family of Fortran entries (each call spelled out
    // with its by-reference arguments), read top to bottom.
    #[allow(clippy::too_many_lines)]
    fn r2r_kinds_follow_the_sizes() {
        let (nx, ny, nz) = (5usize, 4usize, 3usize);
        let x = rand_r(nx * ny, 5);
        let (kx, ky) = (FFTW_REDFT10, FFTW_RODFT01);
        unsafe {
            let mut p: Pl = null_mut();
            let (mut i1, mut o1) = (x.clone(), vec![0.0; nx * ny]);
            dfftw_plan_r2r_2d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                i1.as_mut_ptr(),
                o1.as_mut_ptr(),
                &kx,
                &ky,
                &EST,
            );
            exec_destroy(p);
            let (mut i2, mut o2) = (x.clone(), vec![0.0; nx * ny]);
            exec_destroy(fftw_plan_r2r_2d(
                ny as c_int,
                nx as c_int,
                i2.as_mut_ptr(),
                o2.as_mut_ptr(),
                ky,
                kx,
                FFTW_ESTIMATE,
            ));
            close(&o1, &o2, "dfftw_plan_r2r_2d");
            let (mut i3, mut o3) = (x.clone(), vec![0.0; nx * ny]);
            exec_destroy(fftw_plan_r2r_2d(
                ny as c_int,
                nx as c_int,
                i3.as_mut_ptr(),
                o3.as_mut_ptr(),
                kx,
                ky,
                FFTW_ESTIMATE,
            ));
            assert!(rel(&o1, &o3) > 1e-3, "swapped kinds should differ");

            let (mut i4, mut o4) = (x.clone(), vec![0.0; nx * ny]);
            let (n, k) = ([nx as c_int, ny as c_int], [kx, ky]);
            dfftw_plan_r2r_(
                &mut p,
                &2,
                n.as_ptr(),
                i4.as_mut_ptr(),
                o4.as_mut_ptr(),
                k.as_ptr(),
                &EST,
            );
            exec_destroy(p);
            close(&o4, &o2, "dfftw_plan_r2r rank 2");

            let y = rand_r(nx * ny * nz, 6);
            let kz = FFTW_DHT;
            let (mut j1, mut d1) = (y.clone(), vec![0.0; y.len()]);
            dfftw_plan_r2r_3d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                &(nz as c_int),
                j1.as_mut_ptr(),
                d1.as_mut_ptr(),
                &kx,
                &ky,
                &kz,
                &EST,
            );
            exec_destroy(p);
            let (mut j2, mut d2) = (y.clone(), vec![0.0; y.len()]);
            exec_destroy(fftw_plan_r2r_3d(
                nz as c_int,
                ny as c_int,
                nx as c_int,
                j2.as_mut_ptr(),
                d2.as_mut_ptr(),
                kz,
                ky,
                kx,
                FFTW_ESTIMATE,
            ));
            close(&d1, &d2, "dfftw_plan_r2r_3d");

            let (mut j3, mut d3) = (x.clone(), vec![0.0; x.len()]);
            dfftw_plan_r2r_1d_(
                &mut p,
                &(x.len() as c_int),
                j3.as_mut_ptr(),
                d3.as_mut_ptr(),
                &FFTW_REDFT00,
                &EST,
            );
            exec_destroy(p);
            let (mut j4, mut d4) = (x.clone(), vec![0.0; x.len()]);
            exec_destroy(fftw_plan_r2r_1d(
                x.len() as c_int,
                j4.as_mut_ptr(),
                d4.as_mut_ptr(),
                FFTW_REDFT00,
                FFTW_ESTIMATE,
            ));
            close(&d3, &d4, "dfftw_plan_r2r_1d");
        }
    }

    #[test]
    fn guru_r2r_two_kinds() {
        // A 4x6 column-major array with a loop of 2 over a padded distance; dims in the caller's
        // order, kinds reversed (FFTW's f77 behaviour, checked against libfftw3.so.3).
        let (n0, n1, h): (c_int, c_int, c_int) = (4, 6, 2);
        let dist = 30usize;
        let x = rand_r(dist * h as usize, 7);
        let (n, is, os) = ([n0, n1], [1, n0], [1, n0]);
        let (hn, his, hos) = ([h], [dist as c_int], [dist as c_int]);
        let kinds = [FFTW_REDFT10, FFTW_RODFT10];
        unsafe {
            let mut p: Pl = null_mut();
            let (mut i1, mut o1) = (x.clone(), vec![0.0; dist * h as usize]);
            dfftw_plan_guru_r2r_(
                &mut p,
                &2,
                n.as_ptr(),
                is.as_ptr(),
                os.as_ptr(),
                &1,
                hn.as_ptr(),
                his.as_ptr(),
                hos.as_ptr(),
                i1.as_mut_ptr(),
                o1.as_mut_ptr(),
                kinds.as_ptr(),
                &EST,
            );
            exec_destroy(p);

            let dims = [
                fftw_iodim {
                    n: n0,
                    is: 1,
                    os: 1,
                },
                fftw_iodim {
                    n: n1,
                    is: n0,
                    os: n0,
                },
            ];
            let hd = [fftw_iodim {
                n: h,
                is: dist as c_int,
                os: dist as c_int,
            }];
            let (mut i2, mut o2) = (x.clone(), vec![0.0; dist * h as usize]);
            let rk = [kinds[1], kinds[0]];
            exec_destroy(fftw_plan_guru_r2r(
                2,
                dims.as_ptr(),
                1,
                hd.as_ptr(),
                i2.as_mut_ptr(),
                o2.as_mut_ptr(),
                rk.as_ptr(),
                FFTW_ESTIMATE,
            ));
            close(
                &o1,
                &o2,
                "dfftw_plan_guru_r2r vs fftw_plan_guru_r2r, kinds reversed",
            );

            let (mut i3, mut o3) = (x.clone(), vec![0.0; dist * h as usize]);
            exec_destroy(fftw_plan_guru_r2r(
                2,
                dims.as_ptr(),
                1,
                hd.as_ptr(),
                i3.as_mut_ptr(),
                o3.as_mut_ptr(),
                kinds.as_ptr(),
                FFTW_ESTIMATE,
            ));
            assert!(rel(&o1, &o3) > 1e-3, "kind order must matter here");
        }
    }

    #[test]
    // Long because it is one scenario over a family of Fortran entries (each call spelled out
    // with its by-reference arguments), read top to bottom.
    #[allow(clippy::too_many_lines)]
    fn guru_dft_r2c_c2r_split() {
        // Column-major 5x3 complex arrays, two of them; dims passed through unreversed.
        let (n0, n1, h) = (5, 3, 2);
        let len = (n0 * n1 * h) as usize;
        let x = rand_c(len, 8);
        let (n, is, os) = ([n0, n1], [1, n0], [1, n0]);
        let (hn, his, hos) = ([h], [n0 * n1], [n0 * n1]);
        let dims = [
            fftw_iodim {
                n: n0,
                is: 1,
                os: 1,
            },
            fftw_iodim {
                n: n1,
                is: n0,
                os: n0,
            },
        ];
        let hd = [fftw_iodim {
            n: h,
            is: n0 * n1,
            os: n0 * n1,
        }];
        unsafe {
            let mut p: Pl = null_mut();
            let (mut i1, mut o1) = (x.clone(), vec![[0.0; 2]; len]);
            dfftw_plan_guru_dft_(
                &mut p,
                &2,
                n.as_ptr(),
                is.as_ptr(),
                os.as_ptr(),
                &1,
                hn.as_ptr(),
                his.as_ptr(),
                hos.as_ptr(),
                i1.as_mut_ptr(),
                o1.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            exec_destroy(p);
            let (mut i2, mut o2) = (x.clone(), vec![[0.0; 2]; len]);
            exec_destroy(fftw_plan_guru_dft(
                2,
                dims.as_ptr(),
                1,
                hd.as_ptr(),
                i2.as_mut_ptr(),
                o2.as_mut_ptr(),
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            ));
            close(&flat(&o1), &flat(&o2), "dfftw_plan_guru_dft");
            // Each transform is the column-major 2-D DFT of its block.
            let blk = (n0 * n1) as usize;
            for b in 0..h as usize {
                close(
                    &flat(&o1[b * blk..(b + 1) * blk]),
                    &direct_dft_colmajor(
                        &x[b * blk..(b + 1) * blk],
                        n0 as usize,
                        n1 as usize,
                        -1.0,
                    ),
                    "guru block",
                );
            }

            // Split arrays, forward; then executed on new split arrays.
            let (mut ri, mut ii): (Vec<f64>, Vec<f64>) = x.iter().map(|c| (c[0], c[1])).unzip();
            let (mut ro, mut io) = (vec![0.0; len], vec![0.0; len]);
            dfftw_plan_guru_split_dft_(
                &mut p,
                &2,
                n.as_ptr(),
                is.as_ptr(),
                os.as_ptr(),
                &1,
                hn.as_ptr(),
                his.as_ptr(),
                hos.as_ptr(),
                ri.as_mut_ptr(),
                ii.as_mut_ptr(),
                ro.as_mut_ptr(),
                io.as_mut_ptr(),
                &EST,
            );
            assert!(!p.is_null());
            let (mut ri2, mut ii2) = (ri.clone(), ii.clone());
            let (mut ro2, mut io2) = (vec![0.0; len], vec![0.0; len]);
            dfftw_execute_split_dft_(
                &p,
                ri2.as_mut_ptr(),
                ii2.as_mut_ptr(),
                ro2.as_mut_ptr(),
                io2.as_mut_ptr(),
            );
            dfftw_destroy_plan_(&mut p);
            let got: Vec<f64> = ro2.iter().zip(&io2).flat_map(|(a, b)| [*a, *b]).collect();
            close(
                &got,
                &flat(&o2),
                "dfftw_plan_guru_split_dft + execute_split_dft",
            );

            // r2c/c2r on real 6x4 column-major blocks: the first dim (6) in C's last position
            // would be halved; FFTW's f77 guru passes dims unreversed, so the LAST dim listed is halved.
            let (m0, m1) = (6, 4);
            let y = rand_r((m0 * m1) as usize, 9);
            let nc = (m0 * (m1 / 2 + 1)) as usize;
            let (gn, gis, gos) = ([m0, m1], [1, m0], [1, m0]);
            let gd = [
                fftw_iodim {
                    n: m0,
                    is: 1,
                    os: 1,
                },
                fftw_iodim {
                    n: m1,
                    is: m0,
                    os: m0,
                },
            ];
            let (mut j1, mut c1) = (y.clone(), vec![[0.0; 2]; nc]);
            dfftw_plan_guru_dft_r2c_(
                &mut p,
                &2,
                gn.as_ptr(),
                gis.as_ptr(),
                gos.as_ptr(),
                &0,
                null(),
                null(),
                null(),
                j1.as_mut_ptr(),
                c1.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            let (mut j2, mut c2) = (y.clone(), vec![[0.0; 2]; nc]);
            exec_destroy(fftw_plan_guru_dft_r2c(
                2,
                gd.as_ptr(),
                0,
                null(),
                j2.as_mut_ptr(),
                c2.as_mut_ptr(),
                FFTW_ESTIMATE,
            ));
            close(&flat(&c1), &flat(&c2), "dfftw_plan_guru_dft_r2c");

            let (mut sro, mut sio) = (vec![0.0; nc], vec![0.0; nc]);
            let mut j3 = y.clone();
            dfftw_plan_guru_split_dft_r2c_(
                &mut p,
                &2,
                gn.as_ptr(),
                gis.as_ptr(),
                gos.as_ptr(),
                &0,
                null(),
                null(),
                null(),
                j3.as_mut_ptr(),
                sro.as_mut_ptr(),
                sio.as_mut_ptr(),
                &EST,
            );
            assert!(!p.is_null());
            fftw_execute(p);
            let got: Vec<f64> = sro.iter().zip(&sio).flat_map(|(a, b)| [*a, *b]).collect();
            close(&got, &flat(&c2), "dfftw_plan_guru_split_dft_r2c");
            let (mut j4, mut sro2, mut sio2) = (y.clone(), vec![0.0; nc], vec![0.0; nc]);
            dfftw_execute_split_dft_r2c__(
                &p,
                j4.as_mut_ptr(),
                sro2.as_mut_ptr(),
                sio2.as_mut_ptr(),
            );
            dfftw_destroy_plan_(&mut p);
            let got: Vec<f64> = sro2.iter().zip(&sio2).flat_map(|(a, b)| [*a, *b]).collect();
            close(&got, &flat(&c2), "dfftw_execute_split_dft_r2c");

            let want: Vec<f64> = y.iter().map(|v| v * (m0 * m1) as f64).collect();
            let mut back = vec![0.0; y.len()];
            let mut cc = c2.clone();
            dfftw_plan_guru_dft_c2r_(
                &mut p,
                &2,
                gn.as_ptr(),
                gis.as_ptr(),
                gos.as_ptr(),
                &0,
                null(),
                null(),
                null(),
                cc.as_mut_ptr(),
                back.as_mut_ptr(),
                &EST,
            );
            exec_destroy(p);
            close(&back, &want, "dfftw_plan_guru_dft_c2r round trip");

            let (mut sri, mut sii): (Vec<f64>, Vec<f64>) = c2.iter().map(|c| (c[0], c[1])).unzip();
            let mut back2 = vec![0.0; y.len()];
            dfftw_plan_guru_split_dft_c2r_(
                &mut p,
                &2,
                gn.as_ptr(),
                gis.as_ptr(),
                gos.as_ptr(),
                &0,
                null(),
                null(),
                null(),
                sri.as_mut_ptr(),
                sii.as_mut_ptr(),
                back2.as_mut_ptr(),
                &EST,
            );
            assert!(!p.is_null());
            let (mut sri2, mut sii2) = (sri.clone(), sii.clone());
            let mut back3 = vec![0.0; y.len()];
            dfftw_execute_split_dft_c2r_(
                &p,
                sri2.as_mut_ptr(),
                sii2.as_mut_ptr(),
                back3.as_mut_ptr(),
            );
            dfftw_destroy_plan_(&mut p);
            close(
                &back3,
                &want,
                "dfftw_plan_guru_split_dft_c2r + execute_split_dft_c2r",
            );
        }
    }

    #[test]
    // Long because it is one scenario over a family of Fortran entries (each call spelled out
    // with its by-reference arguments), read top to bottom.
    #[allow(clippy::too_many_lines)]
    fn many_with_embeds() {
        // Fortran: howmany=2 transforms of n=(3,4) inside (5,6)-sized arrays, stride 2.
        let n = [3, 4];
        let (ie, oe) = ([5, 6], [4, 7]);
        let (is, os, hm) = (2, 1, 2);
        let (idist, odist) = (5 * 6 * 2 + 3, 4 * 7 + 1);
        let ilen = (idist * hm) as usize;
        let olen = (odist * hm) as usize;
        let x = rand_c(ilen, 10);
        unsafe {
            let mut p: Pl = null_mut();
            let (mut i1, mut o1) = (x.clone(), vec![[0.0; 2]; olen]);
            dfftw_plan_many_dft_(
                &mut p,
                &2,
                n.as_ptr(),
                &hm,
                i1.as_mut_ptr(),
                ie.as_ptr(),
                &is,
                &idist,
                o1.as_mut_ptr(),
                oe.as_ptr(),
                &os,
                &odist,
                &FFTW_FORWARD,
                &EST,
            );
            exec_destroy(p);
            let (rn, rie, roe) = ([n[1], n[0]], [ie[1], ie[0]], [oe[1], oe[0]]);
            let (mut i2, mut o2) = (x.clone(), vec![[0.0; 2]; olen]);
            exec_destroy(fftw_plan_many_dft(
                2,
                rn.as_ptr(),
                hm,
                i2.as_mut_ptr(),
                rie.as_ptr(),
                is,
                idist,
                o2.as_mut_ptr(),
                roe.as_ptr(),
                os,
                odist,
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            ));
            close(&flat(&o1), &flat(&o2), "dfftw_plan_many_dft");
            // Element (i, j) of transform b sits at b*dist + stride*(i + ie[0]*j): check (0,0) = sum.
            let mut s = [0.0, 0.0];
            for j in 0..n[1] as usize {
                for i in 0..n[0] as usize {
                    let v = x[(is as usize) * (i + ie[0] as usize * j)];
                    s[0] += v[0];
                    s[1] += v[1];
                }
            }
            assert!((o1[0][0] - s[0]).abs() < 1e-12 && (o1[0][1] - s[1]).abs() < 1e-12);

            // r2c / c2r / r2r with embeds.
            let y = rand_r(ilen, 11);
            let (mut j1, mut c1) = (y.clone(), vec![[0.0; 2]; olen]);
            dfftw_plan_many_dft_r2c_(
                &mut p,
                &2,
                n.as_ptr(),
                &hm,
                j1.as_mut_ptr(),
                ie.as_ptr(),
                &is,
                &idist,
                c1.as_mut_ptr(),
                oe.as_ptr(),
                &os,
                &odist,
                &EST,
            );
            exec_destroy(p);
            let (mut j2, mut c2) = (y.clone(), vec![[0.0; 2]; olen]);
            exec_destroy(fftw_plan_many_dft_r2c(
                2,
                rn.as_ptr(),
                hm,
                j2.as_mut_ptr(),
                rie.as_ptr(),
                is,
                idist,
                c2.as_mut_ptr(),
                roe.as_ptr(),
                os,
                odist,
                FFTW_ESTIMATE,
            ));
            close(&flat(&c1), &flat(&c2), "dfftw_plan_many_dft_r2c");

            let (mut cc1, mut r1) = (c2.clone(), vec![0.0; ilen]);
            dfftw_plan_many_dft_c2r_(
                &mut p,
                &2,
                n.as_ptr(),
                &hm,
                cc1.as_mut_ptr(),
                oe.as_ptr(),
                &os,
                &odist,
                r1.as_mut_ptr(),
                ie.as_ptr(),
                &is,
                &idist,
                &EST,
            );
            exec_destroy(p);
            let (mut cc2, mut r2) = (c2.clone(), vec![0.0; ilen]);
            exec_destroy(fftw_plan_many_dft_c2r(
                2,
                rn.as_ptr(),
                hm,
                cc2.as_mut_ptr(),
                roe.as_ptr(),
                os,
                odist,
                r2.as_mut_ptr(),
                rie.as_ptr(),
                is,
                idist,
                FFTW_ESTIMATE,
            ));
            close(&r1, &r2, "dfftw_plan_many_dft_c2r");

            let kinds = [FFTW_REDFT01, FFTW_RODFT11];
            let rk = [kinds[1], kinds[0]];
            let (mut k1, mut e1) = (y.clone(), vec![0.0; olen]);
            dfftw_plan_many_r2r_(
                &mut p,
                &2,
                n.as_ptr(),
                &hm,
                k1.as_mut_ptr(),
                ie.as_ptr(),
                &is,
                &idist,
                e1.as_mut_ptr(),
                oe.as_ptr(),
                &os,
                &odist,
                kinds.as_ptr(),
                &EST,
            );
            exec_destroy(p);
            let (mut k2, mut e2) = (y.clone(), vec![0.0; olen]);
            exec_destroy(fftw_plan_many_r2r(
                2,
                rn.as_ptr(),
                hm,
                k2.as_mut_ptr(),
                rie.as_ptr(),
                is,
                idist,
                e2.as_mut_ptr(),
                roe.as_ptr(),
                os,
                odist,
                rk.as_ptr(),
                FFTW_ESTIMATE,
            ));
            close(&e1, &e2, "dfftw_plan_many_r2r");
        }
    }

    #[test]
    fn execute_on_new_arrays() {
        let (nx, ny) = (8usize, 3usize);
        let x = rand_r(nx * ny, 12);
        let nc = (nx / 2 + 1) * ny;
        unsafe {
            let mut p: Pl = null_mut();
            let (mut a, mut b) = (vec![0.0; nx * ny], vec![[0.0; 2]; nc]);
            dfftw_plan_dft_r2c_2d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &EST,
            );
            let (mut xi, mut c1) = (x.clone(), vec![[0.0; 2]; nc]);
            dfftw_execute_dft_r2c_(&p, xi.as_mut_ptr(), c1.as_mut_ptr());
            dfftw_destroy_plan_(&mut p);
            let (mut x2, mut c2) = (x.clone(), vec![[0.0; 2]; nc]);
            exec_destroy(fftw_plan_dft_r2c_2d(
                ny as c_int,
                nx as c_int,
                x2.as_mut_ptr(),
                c2.as_mut_ptr(),
                FFTW_ESTIMATE,
            ));
            close(&flat(&c1), &flat(&c2), "dfftw_execute_dft_r2c");

            let (mut a, mut b) = (vec![[0.0; 2]; nc], vec![0.0; nx * ny]);
            dfftw_plan_dft_c2r_2d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &EST,
            );
            let (mut cin, mut r) = (c2.clone(), vec![0.0; nx * ny]);
            dfftw_execute_dft_c2r_(&p, cin.as_mut_ptr(), r.as_mut_ptr());
            dfftw_destroy_plan_(&mut p);
            close(
                &r,
                &x.iter().map(|v| v * (nx * ny) as f64).collect::<Vec<_>>(),
                "dfftw_execute_dft_c2r",
            );

            let (mut a, mut b) = (vec![0.0; nx * ny], vec![0.0; nx * ny]);
            dfftw_plan_r2r_2d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_R2HC,
                &FFTW_REDFT11,
                &EST,
            );
            let (mut xin, mut o) = (x.clone(), vec![0.0; nx * ny]);
            dfftw_execute_r2r_(&p, xin.as_mut_ptr(), o.as_mut_ptr());
            dfftw_destroy_plan_(&mut p);
            let (mut x3, mut o3) = (x.clone(), vec![0.0; nx * ny]);
            exec_destroy(fftw_plan_r2r_2d(
                ny as c_int,
                nx as c_int,
                x3.as_mut_ptr(),
                o3.as_mut_ptr(),
                FFTW_REDFT11,
                FFTW_R2HC,
                FFTW_ESTIMATE,
            ));
            close(&o, &o3, "dfftw_execute_r2r");
        }
    }

    #[test]
    fn single_precision() {
        let (nx, ny) = (4usize, 6usize);
        let x: Vec<[f32; 2]> = rand_c(nx * ny, 13)
            .iter()
            .map(|c| [c[0] as f32, c[1] as f32])
            .collect();
        let want = direct_dft_colmajor(
            &x.iter()
                .map(|c| [c[0] as f64, c[1] as f64])
                .collect::<Vec<_>>(),
            nx,
            ny,
            -1.0,
        );
        unsafe {
            let mut p: Pl = null_mut();
            let (mut i1, mut o1) = (x.clone(), vec![[0.0f32; 2]; nx * ny]);
            sfftw_plan_dft_2d_(
                &mut p,
                &(nx as c_int),
                &(ny as c_int),
                i1.as_mut_ptr(),
                o1.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            assert!(!p.is_null());
            sfftw_execute__(&p);
            sfftw_destroy_plan_(&mut p);
            let got: Vec<f64> = o1.iter().flat_map(|c| [c[0] as f64, c[1] as f64]).collect();
            assert!(
                rel(&got, &want) < 1e-5,
                "sfftw_plan_dft_2d: {}",
                rel(&got, &want)
            );

            let y: Vec<f32> = rand_r(9, 14).iter().map(|&v| v as f32).collect();
            let (mut j1, mut d1) = (y.clone(), vec![0.0f32; 9]);
            sfftw_plan_r2r_1d_(
                &mut p,
                &9,
                j1.as_mut_ptr(),
                d1.as_mut_ptr(),
                &FFTW_RODFT00,
                &EST,
            );
            fftwf_execute(p);
            sfftw_destroy_plan_(&mut p);
            let (mut j2, mut d2) = (y.clone(), vec![0.0f32; 9]);
            let q = fftwf_plan_r2r_1d(
                9,
                j2.as_mut_ptr(),
                d2.as_mut_ptr(),
                FFTW_RODFT00,
                FFTW_ESTIMATE,
            );
            fftwf_execute(q);
            fftwf_destroy_plan(q);
            let (a, b): (Vec<f64>, Vec<f64>) = d1
                .iter()
                .zip(&d2)
                .map(|(a, b)| (*a as f64, *b as f64))
                .unzip();
            assert!(rel(&a, &b) < 1e-6);

            // A single-precision plan is refused by the double-precision wrappers (no crash).
            let (mut i3, mut o3) = (x.clone(), vec![[0.0f32; 2]; nx * ny]);
            sfftw_plan_dft_1d_(
                &mut p,
                &4,
                i3.as_mut_ptr(),
                o3.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            let (mut cost, mut est) = (-1.0, -1.0);
            dfftw_estimate_cost_(&mut est, &p);
            assert_eq!(est, 0.0, "fftw_estimate_cost's failure value");
            sfftw_estimate_cost_(&mut est, &p);
            assert!(est > 0.0);
            dfftw_cost_(&mut cost, &p);
            assert_eq!(cost, 0.0);
            sfftw_cost_(&mut cost, &p);
            assert_eq!(cost, fftwf_cost(p));
            sfftw_destroy_plan_(&mut p);
        }
    }

    #[test]
    // Long because it is one scenario over a family of Fortran entries (each call spelled out
    // with its by-reference arguments), read top to bottom.
    #[allow(clippy::too_many_lines)]
    fn failures_give_null_and_never_crash() {
        unsafe {
            let (mut a, mut b) = (vec![[1.0; 2]; 8], vec![[0.0; 2]; 8]);
            let mut p: Pl = 1 as Pl; // garbage that a failed planner must overwrite with NULL
            dfftw_plan_dft_1d_(
                &mut p,
                &0,
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            assert!(p.is_null());
            p = 1 as Pl;
            dfftw_plan_dft_(
                &mut p,
                &-1,
                null(),
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            assert!(p.is_null());
            p = 1 as Pl;
            dfftw_plan_dft_(
                &mut p,
                &2,
                null(),
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            assert!(p.is_null());
            p = 1 as Pl;
            dfftw_plan_dft_2d_(
                &mut p,
                &2,
                null(),
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            assert!(p.is_null(), "NULL size argument");
            p = 1 as Pl;
            dfftw_plan_r2r_1d_(
                &mut p,
                &8,
                a.as_mut_ptr() as *mut f64,
                b.as_mut_ptr() as *mut f64,
                &99,
                &EST,
            );
            assert!(
                !p.is_null(),
                "an unknown r2r kind plans as FFTW_R2HC, as in FFTW 3.3.10"
            );
            dfftw_destroy_plan_(&mut p);
            p = 1 as Pl;
            let n = [2, 2];
            dfftw_plan_guru_dft_(
                &mut p,
                &2,
                n.as_ptr(),
                null(),
                n.as_ptr(),
                &0,
                null(),
                null(),
                null(),
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            assert!(p.is_null(), "NULL stride array");
            // A NULL plan argument: nothing planned, nothing written, no crash.
            dfftw_plan_dft_1d_(
                null_mut(),
                &8,
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_FORWARD,
                &EST,
            );
            // Executing or destroying NULL or non-plans.
            let null_plan: Pl = null_mut();
            dfftw_execute_(null());
            dfftw_execute_(&null_plan);
            dfftw_execute_dft_(&null_plan, a.as_mut_ptr(), b.as_mut_ptr());
            dfftw_destroy_plan_(null_mut());
            let mut bogus = 8 as Pl;
            dfftw_destroy_plan_(&mut bogus);
            dfftw_execute_(&bogus);
            let (mut ad, mut m, mut f) = (0.0, 0.0, 0.0);
            dfftw_flops_(&null_plan, &mut ad, &mut m, &mut f);
            dfftw_export_wisdom_(None, null_mut());
            let mut ok = 7;
            dfftw_import_wisdom_(&mut ok, None, null_mut());
            assert_eq!(ok, 0);
            dfftw_import_wisdom_(null_mut(), None, null_mut());
            dfftw_set_timelimit_(null());
            dfftw_plan_with_nthreads_(null());
        }
    }

    #[test]
    fn flops_cost_timelimit_threads() {
        let _g = state();
        unsafe {
            let (mut a, mut b) = (rand_c(12, 15), vec![[0.0; 2]; 12]);
            let mut p: Pl = null_mut();
            dfftw_plan_dft_2d_(
                &mut p,
                &3,
                &4,
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_FORWARD,
                &(FFTW_MEASURE as c_int),
            );
            assert!(!p.is_null());
            let (mut ad, mut m, mut f) = (-1.0, -1.0, -1.0);
            dfftw_flops_(&p, &mut ad, &mut m, &mut f);
            let (mut ad2, mut m2, mut f2) = (0.0, 0.0, 0.0);
            fftw_flops(p, &mut ad2, &mut m2, &mut f2);
            assert_eq!((ad, m, f), (ad2, m2, f2));
            assert!(ad + m + f > 0.0);
            let (mut c, mut e) = (-1.0, -1.0);
            dfftw_cost__(&mut c, &p);
            dfftw_estimate_cost_(&mut e, &p);
            assert_eq!(c, fftw_cost(p));
            assert_eq!(e, fftw_estimate_cost(p));
            assert!(e > 0.0);
            dfftw_print_plan_(&p);
            dfftw_destroy_plan_(&mut p);

            // The planner's time limit is not observable from here; this checks the by-reference
            // double is read (a NULL one is refused in failures_give_null_and_never_crash).
            dfftw_set_timelimit_(&2.5);
            sfftw_set_timelimit__(&2.5);
            dfftw_set_timelimit__(&FFTW_NO_TIMELIMIT);
            sfftw_set_timelimit_(&FFTW_NO_TIMELIMIT);

            let mut ok = 0;
            dfftw_init_threads_(&mut ok);
            assert_eq!(ok, 1);
            dfftw_plan_with_nthreads_(&3);
            let mut n = 0;
            dfftw_planner_nthreads_(&mut n);
            assert_eq!(n, 3);
            assert_eq!(fftw_planner_nthreads(), 3);
            sfftw_plan_with_nthreads__(&2);
            sfftw_planner_nthreads_(&mut n);
            assert_eq!(n, 2);
            dfftw_cleanup_threads_();
            sfftw_cleanup_threads__();
            dfftw_planner_nthreads_(&mut n);
            assert_eq!(n, 1);
            sfftw_planner_nthreads_(&mut n);
            assert_eq!(n, 1);
        }
    }

    unsafe extern "C" fn collect(c: *mut c_char, data: *mut c_void) {
        (*(data as *mut Vec<u8>)).push(*c as u8);
    }

    struct Reader {
        bytes: Vec<u8>,
        pos: usize,
    }
    unsafe extern "C" fn feed(c: *mut c_int, data: *mut c_void) {
        let r = &mut *(data as *mut Reader);
        *c = match r.bytes.get(r.pos) {
            Some(&b) => b as c_int,
            None => -1,
        };
        r.pos += 1;
    }

    unsafe fn export_d() -> String {
        let mut out: Vec<u8> = Vec::new();
        dfftw_export_wisdom_(Some(collect), &mut out as *mut Vec<u8> as *mut c_void);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn wisdom_through_fortran_callbacks() {
        let _g = state();
        unsafe {
            dfftw_forget_wisdom_();
            let (mut a, mut b) = (rand_c(15, 16), vec![[0.0; 2]; 15]);
            let mut p: Pl = null_mut();
            dfftw_plan_dft_2d_(
                &mut p,
                &3,
                &5,
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                &FFTW_FORWARD,
                &(FFTW_MEASURE as c_int),
            );
            assert!(!p.is_null());
            dfftw_destroy_plan_(&mut p);

            let text = export_d();
            let c_str = fftw_export_wisdom_to_string();
            let c_text = std::ffi::CStr::from_ptr(c_str)
                .to_str()
                .unwrap()
                .to_string();
            libc::free(c_str as *mut c_void);
            assert_eq!(
                text, c_text,
                "export through write_char equals the string export"
            );
            assert!(
                text.contains("(fftw-3.3.10 fftx_wisdom\n") && text.contains("measure"),
                "{text}"
            );

            dfftw_forget_wisdom_();
            assert!(!export_d().contains("measure"), "forget_wisdom");

            let mut r = Reader {
                bytes: text.clone().into_bytes(),
                pos: 0,
            };
            let mut ok = -5;
            dfftw_import_wisdom__(&mut ok, Some(feed), &mut r as *mut Reader as *mut c_void);
            assert_eq!(ok, 1);
            assert_eq!(export_d(), text, "import restores the exported wisdom");

            let mut bad = Reader {
                bytes: b"(not wisdom".to_vec(),
                pos: 0,
            };
            dfftw_import_wisdom_(&mut ok, Some(feed), &mut bad as *mut Reader as *mut c_void);
            assert_eq!(ok, 0);
            // Double-precision wisdom is not single-precision wisdom.
            let mut r = Reader {
                bytes: text.into_bytes(),
                pos: 0,
            };
            sfftw_import_wisdom_(&mut ok, Some(feed), &mut r as *mut Reader as *mut c_void);
            assert_eq!(ok, 0);
            let mut out: Vec<u8> = Vec::new();
            sfftw_export_wisdom__(Some(collect), &mut out as *mut Vec<u8> as *mut c_void);
            assert!(String::from_utf8(out)
                .unwrap()
                .contains("(fftw-3.3.10 fftxf_wisdom\n"));

            ok = 9;
            dfftw_import_system_wisdom_(&mut ok);
            assert_eq!(ok, fftw_import_system_wisdom());
            ok = 9;
            sfftw_import_system_wisdom__(&mut ok);
            assert_eq!(ok, fftwf_import_system_wisdom());
            dfftw_cleanup_();
            sfftw_cleanup_();
            assert!(!export_d().contains("measure"), "cleanup forgets wisdom");
        }
    }
}
