//! Host memory a CPU plan fills beyond the caller's arrays, against what the machine has left:
//! a plan that cannot get it is refused when it is made (NULL plan, a message), instead of the
//! kernel's out-of-memory killer ending the program while the plan fills its tables; an
//! execute whose work buffers cannot fit fails with a message ([`check_bytes`]). FFTW plans
//! what it cannot execute (its tables are small), so only what a plan fills while it is made
//! counts at plan time.

use crate::error::{Error, Result};
use crate::problem::{Kind, Problem};

/// Below this a plan is not checked (reading `/proc/meminfo` costs more than the question).
const UNCHECKED_BYTES: usize = 1 << 30;

/// The host bytes a CPU plan of `p` fills while it is made, beyond the caller's arrays: the
/// twiddle tables of one long 1-D transform (the four-step's, or rustfft's: one transform's
/// worth; half of it for r2c and c2r). Other plans' tables follow the axes' lengths, and work
/// buffers are made at the first execute ([`check_bytes`] there).
pub fn plan_bytes(p: &Problem) -> usize {
    let complex = 2 * p.precision.bytes();
    match (p.dims.as_slice(), &p.kind) {
        ([d], Kind::Dft { .. }) => d.n as usize * complex,
        ([d], _) => d.n as usize / 2 * complex,
        _ => 0,
    }
}

/// `Err` with a message when a CPU plan of `p` needs more host memory than is available now.
pub fn check(p: &Problem) -> Result<()> {
    check_bytes(plan_bytes(p), "a CPU plan of this problem")
}

/// `Err` with a message when `need` bytes (for `what`) exceed the host memory available now.
pub fn check_bytes(need: usize, what: &str) -> Result<()> {
    if need < UNCHECKED_BYTES {
        return Ok(());
    }
    match available() {
        Some(free) if need > free => Err(Error::out_of_host_memory(format!(
            "{what} needs {need} bytes of host memory beyond the arrays, and {free} are available"
        ))),
        _ => Ok(()),
    }
}

/// The kernel's estimate of the memory available to new allocations (`MemAvailable`), if it
/// gives one.
pub fn available() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_available(&info)
}

fn parse_available(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Precision;

    fn problem(kind: Kind, dims: &[isize], precision: Precision) -> Problem {
        Problem::packed(dims, kind, precision)
    }

    #[test]
    fn meminfo_is_read_in_bytes() {
        let info = "MemTotal:       131072000 kB\nMemFree:  1 kB\nMemAvailable:   126000000 kB\n";
        assert_eq!(parse_available(info), Some(126_000_000 * 1024));
        assert_eq!(parse_available("MemTotal: 5 kB\n"), None);
        assert!(available().is_some(), "Linux gives MemAvailable");
    }

    #[test]
    fn long_transforms_count_their_twiddle_tables() {
        let c2c = problem(Kind::Dft { sign: -1 }, &[1 << 32], Precision::F64);
        assert_eq!(plan_bytes(&c2c), 1 << 36);
        let out_of_memory = |e: Error| e.kind == crate::error::ErrorKind::OutOfHostMemory;
        assert!(check(&c2c).is_err_and(out_of_memory) || available().unwrap() > 1 << 36);
        let small = problem(Kind::Dft { sign: -1 }, &[1 << 20], Precision::F64);
        assert_eq!(check(&small), Ok(()));
        let r2c = problem(Kind::R2c, &[1 << 20], Precision::F32);
        assert_eq!(plan_bytes(&r2c), (1 << 19) * 8);
        // FFTW plans what no memory holds (fuzz class "huge"): work buffers are not counted.
        let c2r = problem(Kind::C2r, &[65536, 65536], Precision::F64);
        assert_eq!(plan_bytes(&c2r), 0);
        let c2c3 = problem(Kind::Dft { sign: 1 }, &[64, 64, 64], Precision::F32);
        assert_eq!(plan_bytes(&c2c3), 0);
    }
}
