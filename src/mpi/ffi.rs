//! The MPI library, loaded at run time: Open MPI's `libmpi.so.40` (its ABI: `MPI_Comm` and
//! `MPI_Datatype` are pointers, `MPI_BYTE` is `&ompi_mpi_byte`). An MPI program has it loaded
//! already and gets that copy; a program without MPI never loads it (fftx's other calls do not
//! need it). `FFTX_MPI_LIBRARY` names another file with the same ABI.

use once_cell::sync::OnceCell;
use std::ffi::{c_int, c_void, CString};

/// Open MPI's `MPI_Comm`.
pub type RawComm = *mut c_void;

type CommInt = unsafe extern "C" fn(RawComm, *mut c_int) -> c_int;
type Alltoallv = unsafe extern "C" fn(
    *const c_void,
    *const c_int,
    *const c_int,
    *mut c_void,
    *mut c_void,
    *const c_int,
    *const c_int,
    *mut c_void,
    RawComm,
) -> c_int;
type Bcast = unsafe extern "C" fn(*mut c_void, c_int, *mut c_void, c_int, RawComm) -> c_int;
type Sendrecv = unsafe extern "C" fn(
    *const c_void,
    c_int,
    *mut c_void,
    c_int,
    c_int,
    *mut c_void,
    c_int,
    *mut c_void,
    c_int,
    c_int,
    RawComm,
    *mut c_void,
) -> c_int;
type TypeContiguous = unsafe extern "C" fn(c_int, *mut c_void, *mut *mut c_void) -> c_int;
type TypeOp = unsafe extern "C" fn(*mut *mut c_void) -> c_int;

pub struct Mpi {
    comm_size: CommInt,
    comm_rank: CommInt,
    alltoallv: Alltoallv,
    sendrecv: Sendrecv,
    bcast: Bcast,
    comm_f2c: unsafe extern "C" fn(c_int) -> RawComm,
    comm_dup: unsafe extern "C" fn(RawComm, *mut RawComm) -> c_int,
    comm_free: unsafe extern "C" fn(*mut RawComm) -> c_int,
    finalized: unsafe extern "C" fn(*mut c_int) -> c_int,
    type_contiguous: TypeContiguous,
    type_commit: TypeOp,
    type_free: TypeOp,
    /// `MPI_BYTE`.
    byte: usize,
}

static MPI: OnceCell<crate::error::Result<Mpi>> = OnceCell::new();

/// The MPI library, loaded on first use.
pub fn mpi() -> crate::error::Result<&'static Mpi> {
    MPI.get_or_init(load).as_ref().map_err(|e| e.clone())
}

fn load() -> crate::error::Result<Mpi> {
    let names: Vec<String> = match std::env::var("FFTX_MPI_LIBRARY") {
        Ok(n) if !n.is_empty() => vec![n],
        _ => vec!["libmpi.so.40".into(), "libmpi.so".into()],
    };
    let handle = names
        .iter()
        .find_map(|n| {
            let c = CString::new(n.as_str()).ok()?;
            // SAFETY: dlopen with a NUL-terminated name; the program's copy first.
            let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD) };
            let h = if h.is_null() {
                unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) }
            } else {
                h
            };
            (!h.is_null()).then_some(h)
        })
        .ok_or_else(|| {
            format!(
                "cannot load the MPI library ({}): the fftw_mpi_ calls need Open MPI",
                names.join(", ")
            )
        })?;
    let sym = |name: &str| -> crate::error::Result<usize> {
        let c = CString::new(name).unwrap_or_default();
        // SAFETY: a symbol lookup in a handle dlopen returned.
        let p = unsafe { libc::dlsym(handle, c.as_ptr()) };
        if p.is_null() {
            Err(format!("the MPI library has no {name}").into())
        } else {
            Ok(p as usize)
        }
    };
    // SAFETY: the symbols are Open MPI's functions with these C signatures.
    unsafe {
        Ok(Mpi {
            comm_size: std::mem::transmute::<usize, CommInt>(sym("MPI_Comm_size")?),
            comm_rank: std::mem::transmute::<usize, CommInt>(sym("MPI_Comm_rank")?),
            alltoallv: std::mem::transmute::<usize, Alltoallv>(sym("MPI_Alltoallv")?),
            sendrecv: std::mem::transmute::<usize, Sendrecv>(sym("MPI_Sendrecv")?),
            bcast: std::mem::transmute::<usize, Bcast>(sym("MPI_Bcast")?),
            comm_f2c: std::mem::transmute::<usize, unsafe extern "C" fn(c_int) -> RawComm>(sym(
                "MPI_Comm_f2c",
            )?),
            comm_dup: std::mem::transmute::<
                usize,
                unsafe extern "C" fn(RawComm, *mut RawComm) -> c_int,
            >(sym("MPI_Comm_dup")?),
            comm_free: std::mem::transmute::<usize, unsafe extern "C" fn(*mut RawComm) -> c_int>(
                sym("MPI_Comm_free")?,
            ),
            finalized: std::mem::transmute::<usize, unsafe extern "C" fn(*mut c_int) -> c_int>(
                sym("MPI_Finalized")?,
            ),
            type_contiguous: std::mem::transmute::<usize, TypeContiguous>(sym(
                "MPI_Type_contiguous",
            )?),
            type_commit: std::mem::transmute::<usize, TypeOp>(sym("MPI_Type_commit")?),
            type_free: std::mem::transmute::<usize, TypeOp>(sym("MPI_Type_free")?),
            byte: sym("ompi_mpi_byte")?,
        })
    }
}

fn check(what: &str, rc: c_int) -> crate::error::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(format!("{what} failed (MPI error {rc})").into())
    }
}

/// A communicator a plan keeps: its own duplicate of the caller's (as FFTW makes), freed with
/// the plan.
pub struct Comm {
    raw: usize,
    pub size: usize,
    pub rank: usize,
}

impl Comm {
    /// Duplicates the caller's communicator.
    ///
    /// # Safety
    /// `comm` must be a valid Open MPI communicator.
    pub unsafe fn dup(comm: RawComm) -> crate::error::Result<Comm> {
        let m = mpi()?;
        if comm.is_null() {
            return Err("MPI_Comm is NULL".into());
        }
        let mut raw: RawComm = std::ptr::null_mut();
        check("MPI_Comm_dup", (m.comm_dup)(comm, &mut raw))?;
        let (size, rank) = size_rank(comm)?;
        Ok(Comm {
            raw: raw as usize,
            size,
            rank,
        })
    }

    pub fn raw(&self) -> RawComm {
        self.raw as RawComm
    }
}

impl Drop for Comm {
    fn drop(&mut self) {
        let Ok(m) = mpi() else { return };
        let mut done: c_int = 0;
        // SAFETY: the duplicate is ours; after MPI_Finalize it is not freed (nor can be).
        unsafe {
            if (m.finalized)(&mut done) == 0 && done == 0 {
                let mut raw = self.raw();
                (m.comm_free)(&mut raw);
            }
        }
    }
}

/// (size, rank) of a caller's communicator.
///
/// # Safety
/// `comm` must be a valid Open MPI communicator.
pub unsafe fn size_rank(comm: RawComm) -> crate::error::Result<(usize, usize)> {
    let m = mpi()?;
    if comm.is_null() {
        return Err("MPI_Comm is NULL".into());
    }
    let (mut size, mut rank): (c_int, c_int) = (0, 0);
    check("MPI_Comm_size", (m.comm_size)(comm, &mut size))?;
    check("MPI_Comm_rank", (m.comm_rank)(comm, &mut rank))?;
    Ok((size.max(1) as usize, rank.max(0) as usize))
}

/// Fortran's communicator handle to C's.
pub fn comm_f2c(f: c_int) -> crate::error::Result<RawComm> {
    let m = mpi()?;
    // SAFETY: MPI_Comm_f2c takes any integer and answers MPI_COMM_NULL for a bad one.
    Ok(unsafe { (m.comm_f2c)(f) })
}

/// Counts and displacements per process for `MPI_Alltoallv`, in units of `unit` bytes (MPI's
/// counts are ints: in bytes a process's share could not pass 2 GiB, in units of a transpose's
/// element it can pass it as FFTW's, counted in reals, does).
pub struct Exchange {
    pub send_counts: Vec<c_int>,
    pub send_displs: Vec<c_int>,
    pub recv_counts: Vec<c_int>,
    pub recv_displs: Vec<c_int>,
    unit: usize,
}

impl Exchange {
    /// From the bytes sent to and received from each process, packed in process order; every
    /// size must be a multiple of `unit`.
    pub fn new(send: &[usize], recv: &[usize], unit: usize) -> crate::error::Result<Exchange> {
        let (send_counts, send_displs) = counts(send, unit)?;
        let (recv_counts, recv_displs) = counts(recv, unit)?;
        Ok(Exchange {
            send_counts,
            send_displs,
            recv_counts,
            recv_displs,
            unit,
        })
    }

    /// Every process sends its `sizes[rank]` bytes to all and receives each one's, packed in
    /// process order; in units of the sizes' greatest common divisor.
    pub fn allgather(sizes: &[usize], rank: usize) -> crate::error::Result<Exchange> {
        let gcd = |mut a: usize, mut b: usize| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let unit = sizes.iter().fold(0, |g, &s| gcd(g, s)).max(1);
        let mut x = Exchange::new(&vec![sizes[rank]; sizes.len()], sizes, unit)?;
        x.send_displs.iter_mut().for_each(|d| *d = 0);
        Ok(x)
    }
}

/// Counts and running displacements of `unit`-byte units from byte sizes.
fn counts(sizes: &[usize], unit: usize) -> Result<(Vec<c_int>, Vec<c_int>), String> {
    let unit = unit.max(1);
    if let Some(s) = sizes.iter().find(|&&s| s % unit != 0) {
        return Err(format!("an exchange of {s} bytes in units of {unit}"));
    }
    let int = |v: usize| {
        c_int::try_from(v / unit).map_err(|_| {
            format!(
                "a process's share of an exchange exceeds 2^31 units of {unit} bytes (MPI's int counts)"
            )
        })
    };
    let mut displs = Vec::with_capacity(sizes.len());
    let mut at = 0usize;
    for &s in sizes {
        displs.push(int(at)?);
        at += s;
    }
    int(at)?;
    let c = sizes.iter().map(|&s| int(s)).collect::<Result<_, _>>()?;
    Ok((c, displs))
}

/// How an exchange moves its parts between the processes: one collective, or point to point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// `MPI_Alltoallv`.
    AllToAll,
    /// P - 1 rounds of `MPI_Sendrecv`, round k with the processes k ahead and k behind (the
    /// own part copied): FFTW's `transpose-pairwise`, heFFTe's point-to-point.
    Pairwise,
}

impl Way {
    pub fn name(self) -> &'static str {
        match self {
            Way::AllToAll => "all-to-all",
            Way::Pairwise => "pairwise",
        }
    }
}

/// Moves the parts of `x` (`x.unit`-byte units, a contiguous datatype made for the call)
/// between the `size` processes of `comm`, this one `rank`, the `way` asked.
///
/// # Safety
/// The buffers must hold what the counts and displacements address.
pub unsafe fn exchange(
    comm: RawComm,
    (send, recv): (*const u8, *mut u8),
    x: &Exchange,
    way: Way,
    (size, rank): (usize, usize),
) -> crate::error::Result<()> {
    let m = mpi()?;
    let byte = m.byte as *mut c_void;
    let mut unit = byte;
    if x.unit > 1 {
        let n = c_int::try_from(x.unit).map_err(|_| format!("a unit of {} bytes", x.unit))?;
        check(
            "MPI_Type_contiguous",
            (m.type_contiguous)(n, byte, &mut unit),
        )?;
        check("MPI_Type_commit", (m.type_commit)(&mut unit))?;
    }
    let r = match way {
        Way::AllToAll => check(
            "MPI_Alltoallv",
            (m.alltoallv)(
                send.cast(),
                x.send_counts.as_ptr(),
                x.send_displs.as_ptr(),
                unit,
                recv.cast(),
                x.recv_counts.as_ptr(),
                x.recv_displs.as_ptr(),
                unit,
                comm,
            ),
        ),
        Way::Pairwise => pairwise(m, comm, (send, recv), x, unit, (size, rank)),
    };
    if x.unit > 1 {
        (m.type_free)(&mut unit);
    }
    r
}

/// [`Way::Pairwise`]: the own part copied, then round k = 1 .. P-1 sends to rank + k and
/// receives from rank - k (every process in the same round pairs with one each way).
unsafe fn pairwise(
    m: &Mpi,
    comm: RawComm,
    (send, recv): (*const u8, *mut u8),
    x: &Exchange,
    unit: *mut c_void,
    (size, rank): (usize, usize),
) -> crate::error::Result<()> {
    let at = |displs: &[c_int], q: usize| displs[q] as usize * x.unit;
    debug_assert_eq!(
        x.send_counts[rank], x.recv_counts[rank],
        "the own part both ways"
    );
    std::ptr::copy_nonoverlapping(
        send.add(at(&x.send_displs, rank)),
        recv.add(at(&x.recv_displs, rank)),
        x.send_counts[rank] as usize * x.unit,
    );
    for k in 1..size {
        let (to, from) = ((rank + k) % size, (rank + size - k) % size);
        let status_ignore = std::ptr::null_mut();
        check(
            "MPI_Sendrecv",
            (m.sendrecv)(
                send.add(at(&x.send_displs, to)).cast(),
                x.send_counts[to],
                unit,
                to as c_int,
                0,
                recv.add(at(&x.recv_displs, from)).cast(),
                x.recv_counts[from],
                unit,
                from as c_int,
                0,
                comm,
                status_ignore,
            ),
        )?;
    }
    Ok(())
}

/// `MPI_Bcast` of bytes from process 0.
///
/// # Safety
/// `buf` must hold `len` bytes on every process.
pub unsafe fn bcast(comm: RawComm, buf: *mut u8, len: usize) -> crate::error::Result<()> {
    let m = mpi()?;
    let len = c_int::try_from(len).map_err(|_| "a broadcast of over 2 GiB".to_string())?;
    check(
        "MPI_Bcast",
        (m.bcast)(buf.cast(), len, m.byte as *mut c_void, 0, comm),
    )
}

#[cfg(test)]
mod tests {
    use super::Exchange;

    /// A transpose share over 2 GiB (512^3 c2c f64 on one process: 2 GiB) counts in its
    /// elements, as FFTW's counts in reals; sizes off the unit are refused, not truncated.
    #[test]
    fn exchanges_count_in_units_past_two_gib() {
        let (share, elem) = (1usize << 31, 512 * 16);
        let x = Exchange::new(&[share, share], &[share, share], elem).unwrap();
        let count = (share / elem) as i32;
        assert_eq!(x.send_counts, vec![count; 2]);
        assert_eq!(x.send_displs, vec![0, count]);
        assert!(Exchange::new(&[1 << 31], &[1 << 31], 1).is_err());
        assert!(Exchange::new(&[100], &[100], 16).is_err());
        let g = Exchange::allgather(&[48, 32, 16], 1).unwrap();
        assert_eq!(g.unit, 16);
        assert_eq!((g.send_counts, g.send_displs), (vec![2; 3], vec![0; 3]));
        assert_eq!(
            (g.recv_counts, g.recv_displs),
            (vec![3, 2, 1], vec![0, 3, 5])
        );
    }
}
