//! Host memory a CPU plan needs beyond the caller's arrays, against what the machine has left:
//! a plan that cannot get it is refused when it is made (NULL plan, a message), instead of the
//! kernel's out-of-memory killer ending the program while the plan fills its tables.

use crate::problem::{Kind, Problem};

/// Below this a plan is not checked (reading `/proc/meminfo` costs more than the question).
const UNCHECKED_BYTES: usize = 1 << 30;

/// An upper bound of the host bytes a CPU plan of `p` allocates beyond the caller's arrays,
/// for the plans that allocate in proportion to the data: one long 1-D transform (the
/// four-step's twiddle table and transposed copy, or rustfft's scratch and twiddles: two
/// transforms' worth), and a multi-dimensional c2r (a work buffer of the complex data). Other
/// plans keep per-thread blocks of a few hundred KiB.
pub fn plan_bytes(p: &Problem) -> usize {
    let complex = 2 * p.precision.bytes();
    let points =
        |dims: &[crate::problem::IoDim]| dims.iter().map(|d| d.n as usize).product::<usize>();
    match (p.dims.len(), &p.kind) {
        (1, Kind::Dft { .. }) => 2 * points(&p.dims) * complex,
        (1, _) => points(&p.dims) * complex,
        (r, Kind::C2r) if r >= 2 => {
            let last = p.dims[r - 1].n as usize;
            points(&p.dims) / last * (last / 2 + 1) * p.howmany() * complex
        }
        _ => 0,
    }
}

/// `Err` with a message when a CPU plan of `p` needs more host memory than is available now.
pub fn check(p: &Problem) -> Result<(), String> {
    let need = plan_bytes(p);
    if need < UNCHECKED_BYTES {
        return Ok(());
    }
    match available() {
        Some(free) if need > free => Err(format!(
            "a CPU plan of this problem needs {need} bytes of host memory beyond the arrays, and {free} are available"
        )),
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
    fn long_transforms_count_two_copies_of_the_data() {
        let c2c = problem(Kind::Dft { sign: -1 }, &[1 << 32], Precision::F64);
        assert_eq!(plan_bytes(&c2c), 2 << 36);
        assert!(check(&c2c).is_err() || available().unwrap() > 2 << 36);
        let small = problem(Kind::Dft { sign: -1 }, &[1 << 20], Precision::F64);
        assert_eq!(check(&small), Ok(()));
        let c2r = problem(Kind::C2r, &[64, 64, 64], Precision::F32);
        assert_eq!(plan_bytes(&c2r), 64 * 64 * 33 * 8);
        let c2c3 = problem(Kind::Dft { sign: 1 }, &[64, 64, 64], Precision::F32);
        assert_eq!(plan_bytes(&c2c3), 0);
    }
}
