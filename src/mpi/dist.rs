//! FFTW-MPI's data distributions: which rows of a distributed array each process holds, and how
//! much memory it must allocate (`fftw_mpi_local_size_*`). Pure functions of the sizes, the
//! number of processes and the process's rank, written to give FFTW 3.3.10's answers exactly
//! (its `mpi/api.c`, `block.c`, `dtensor.c` and `choose-radix.c`), since callers allocate and
//! fill their arrays from them.

/// `FFTW_MPI_DEFAULT_BLOCK`: let FFTW choose the block size.
pub const DEFAULT_BLOCK: isize = 0;
pub const SCRAMBLED_IN: u32 = 1 << 27;
pub const SCRAMBLED_OUT: u32 = 1 << 28;
pub const TRANSPOSED_IN: u32 = 1 << 29;
pub const TRANSPOSED_OUT: u32 = 1 << 30;
/// Every MPI flag; the rest are ordinary planner flags.
pub const MPI_FLAGS: u32 = SCRAMBLED_IN | SCRAMBLED_OUT | TRANSPOSED_IN | TRANSPOSED_OUT;

/// Input and output block kinds (FFTW's IB and OB).
pub const IB: usize = 0;
pub const OB: usize = 1;

/// One dimension as `fftw_mpi_ddim` gives it: length and input/output block (0 = default).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DDim {
    pub n: isize,
    pub ib: isize,
    pub ob: isize,
}

/// A dimension with its resolved blocks, `b[IB]` and `b[OB]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim {
    pub n: isize,
    pub b: [isize; 2],
}

pub fn default_block(n: isize, n_pes: isize) -> isize {
    (n + n_pes - 1) / n_pes
}

pub fn num_blocks(n: isize, block: isize) -> isize {
    (n + block - 1) / block
}

/// The length of block `which` of a dimension of length n cut in blocks of `block`.
pub fn block(n: isize, block: isize, which: isize) -> isize {
    let nb = num_blocks(n, block);
    if which >= nb {
        0
    } else if which == nb - 1 {
        n - which * block
    } else {
        block
    }
}

/// The first index and the length of block `which`.
pub fn block_range(n: isize, b: isize, which: isize) -> (isize, isize) {
    let len = block(n, b, which);
    (if len > 0 { which * b } else { 0 }, len)
}

pub fn num_blocks_total(sz: &[Dim], k: usize) -> isize {
    sz.iter().map(|d| num_blocks(d.n, d.b[k])).product()
}

fn is_local_after(dim: usize, sz: &[Dim], k: usize) -> bool {
    sz[dim.min(sz.len())..]
        .iter()
        .all(|d| num_blocks(d.n, d.b[k]) <= 1)
}

/// Distributed in one block dimension, the first or the second.
fn is_block1d(sz: &[Dim], k: usize) -> bool {
    let i = sz
        .iter()
        .position(|d| num_blocks(d.n, d.b[k]) != 1)
        .unwrap_or(sz.len());
    i < sz.len() && i < 2 && is_local_after(i + 1, sz, k)
}

fn is_prime(n: isize) -> bool {
    n > 1 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

fn isqrt(n: isize) -> isize {
    let mut r = (n as f64).sqrt() as isize;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// FFTW's `default_sz`: the blocks left 0 get default blocks, as many dimensions as it takes
/// to use the processes (fewest distributed dimensions); `rdft2` counts the last dimension as
/// its n/2+1 complex outputs. Returns the canonical form (one block = the whole length).
pub fn default_sz(dims0: &[DDim], n_pes: isize, rdft2: bool) -> Vec<Dim> {
    let rnk = dims0.len();
    let mut sz: Vec<Dim> = dims0
        .iter()
        .map(|d| Dim {
            n: d.n,
            b: [d.ib, d.ob],
        })
        .collect();
    if rdft2 {
        sz[rnk - 1].n = dims0[rnk - 1].n / 2 + 1;
    }
    for d in sz.iter_mut() {
        for b in d.b.iter_mut() {
            if *b == 0 {
                *b = d.n;
            }
        }
    }
    for k in [IB, OB] {
        let mut nb = num_blocks_total(&sz, k);
        let mut np = n_pes / nb;
        for i in 0..rnk {
            if np <= 1 {
                break;
            }
            let given = if k == IB { dims0[i].ib } else { dims0[i].ob };
            if given == 0 {
                sz[i].b[k] = default_block(sz[i].n, np);
                nb *= num_blocks(sz[i].n, sz[i].b[k]);
                np = n_pes / nb;
            }
        }
    }
    if rdft2 {
        sz[rnk - 1].n = dims0[rnk - 1].n;
    }
    if rnk == 1 && is_prime(sz[0].n) {
        sz[0].b = [sz[0].n; 2];
    }
    canonical(&sz)
}

fn canonical(sz: &[Dim]) -> Vec<Dim> {
    sz.iter()
        .map(|d| {
            let mut c = *d;
            for b in c.b.iter_mut() {
                if num_blocks(d.n, *b) == 1 {
                    *b = d.n;
                }
            }
            c
        })
        .collect()
}

/// The local lengths and starts of process `my_pe` under block kind `k`.
pub fn local_size(my_pe: isize, sz: &[Dim], k: usize) -> (Vec<isize>, Vec<isize>) {
    let rnk = sz.len();
    if my_pe >= num_blocks_total(sz, k) {
        return (vec![0; rnk], vec![0; rnk]);
    }
    let mut coords = vec![0isize; rnk];
    let mut pe = my_pe;
    for i in (0..rnk).rev() {
        let nb = num_blocks(sz[i].n, sz[i].b[k]);
        coords[i] = pe % nb;
        pe /= nb;
    }
    let n = (0..rnk)
        .map(|i| block(sz[i].n, sz[i].b[k], coords[i]))
        .collect();
    let start = (0..rnk).map(|i| coords[i] * sz[i].b[k]).collect();
    (n, start)
}

/// FFTW's `choose_radix` for a distributed 1-D transform of length n: (r, rblock, mblock).
pub fn choose_radix(n: isize, n_pes: isize, sign: i32) -> Option<(isize, isize, isize)> {
    let mut r = if n % n_pes == 0 && n / n_pes >= n_pes {
        n / n_pes
    } else {
        let mut r = isqrt(n);
        while n % r != 0 {
            r += 1;
        }
        r
    };
    if r == 1 || r == n {
        return None;
    }
    let m = if sign != -1 {
        let m = r;
        r = n / m;
        m
    } else {
        n / r
    };
    Some((r, default_block(r, n_pes), default_block(m, n_pes)))
}

/// What `fftw_mpi_local_size_guru` answers: the allocation (in elements, howmany included) and
/// the local input and output lengths and starts per dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalSize {
    pub alloc: isize,
    pub n_in: Vec<isize>,
    pub start_in: Vec<isize>,
    pub n_out: Vec<isize>,
    pub start_out: Vec<isize>,
}

fn prod(v: &[isize]) -> isize {
    v.iter().product()
}

/// FFTW's `local_size_guru` for process `my_pe` of `n_pes` (`sign` and `flags` matter for 1-D
/// transforms only).
pub fn local_size_guru(
    dims0: &[DDim],
    howmany: isize,
    n_pes: isize,
    my_pe: isize,
    sign: i32,
    flags: u32,
) -> LocalSize {
    let rnk = dims0.len();
    if rnk == 0 {
        return LocalSize {
            alloc: howmany,
            n_in: vec![],
            start_in: vec![],
            n_out: vec![],
            start_out: vec![],
        };
    }
    let mut sz = default_sz(dims0, n_pes, false);
    let mut n = 1isize; // never a zero allocation
    if rnk > 1 && is_block1d(&sz, IB) && is_block1d(&sz, OB) {
        n = n.max(transposed_scratch(&mut sz, n_pes, my_pe));
        n = n.max(rank_geq2_scratch(&sz, howmany, n_pes, my_pe));
    } else if rnk == 1 {
        n = n.max(rank1_blocks(&mut sz[0], howmany, n_pes, my_pe, sign, flags));
    }
    let (n_in, start_in) = local_size(my_pe, &sz, IB);
    let (n_out, start_out) = local_size(my_pe, &sz, OB);
    n = n.max(prod(&n_in).max(prod(&n_out)));
    LocalSize {
        alloc: n * howmany,
        n_in,
        start_in,
        n_out,
        start_out,
    }
}

/// The room dft-rank-geq2-transposed needs for its transposed intermediate (FFTW's
/// estimate): `sz` is left as it was.
fn transposed_scratch(sz: &mut [Dim], n_pes: isize, my_pe: isize) -> isize {
    let saved = [sz[0], sz[1]];
    for i in 0..2 {
        if num_blocks(sz[i].n, sz[i].b[IB]) == 1 && num_blocks(sz[i].n, sz[i].b[OB]) == 1 {
            sz[i].b[IB] = default_block(sz[i].n, n_pes);
            sz[1 - i].b[IB] = sz[1 - i].n;
            let (local_n, _) = local_size(my_pe, sz, IB);
            sz[0] = saved[0];
            sz[1] = saved[1];
            return prod(&local_n);
        }
    }
    1
}

/// The room dft-rank-geq2 needs, with the first two dimensions in either order.
fn rank_geq2_scratch(sz: &[Dim], howmany: isize, n_pes: isize, my_pe: isize) -> isize {
    let per = |first: isize, after: isize| {
        (first * block(after, default_block(after, n_pes), my_pe) + howmany - 1) / howmany
    };
    let rest: isize = howmany * sz[2..].iter().map(|d| d.n).product::<isize>();
    per(sz[0].n, rest * sz[1].n).max(per(sz[1].n, rest * sz[0].n))
}

/// A 1-D transform's blocks (dft-rank1 with its radix, or dft-rank1-bigvec), set in `d`;
/// returns the room they need.
fn rank1_blocks(
    d: &mut Dim,
    howmany: isize,
    n_pes: isize,
    my_pe: isize,
    sign: i32,
    flags: u32,
) -> isize {
    if howmany >= n_pes && flags & MPI_FLAGS == 0 {
        let sz2 = [
            Dim {
                n: d.n,
                b: [d.n, d.b[OB]],
            },
            Dim {
                n: howmany,
                b: [default_block(howmany, n_pes), howmany],
            },
        ];
        let (local_n, _) = local_size(my_pe, &sz2, IB);
        return (prod(&local_n) + howmany - 1) / howmany;
    }
    let Some((r, rblock, mblock)) = choose_radix(d.n, n_pes, sign) else {
        return 1;
    };
    let m = d.n / r;
    let mut n = 1;
    if flags & SCRAMBLED_IN != 0 {
        d.b[IB] = rblock * m;
    } else {
        d.b[IB] = r * mblock;
        n = n.max(rblock * m);
    }
    if flags & SCRAMBLED_OUT != 0 {
        d.b[OB] = r * mblock;
    } else {
        n = n.max(r * mblock);
        d.b[OB] = rblock * m;
    }
    n
}

/// `fftw_mpi_local_size_many_transposed`: (alloc, local_n0, local_0_start, local_n1,
/// local_1_start).
pub fn local_size_many_transposed(
    n: &[isize],
    howmany: isize,
    xblock: isize,
    yblock: isize,
    n_pes: isize,
    my_pe: isize,
) -> (isize, isize, isize, isize, isize) {
    let rnk = n.len();
    if rnk == 0 {
        return (howmany, 1, 0, 1, 0);
    }
    let mut dims: Vec<DDim> = n.iter().map(|&n| DDim { n, ib: n, ob: n }).collect();
    dims[0].ib = xblock;
    if rnk > 1 && yblock < n[1] {
        dims[1].ob = yblock;
    } else {
        dims[0].ob = xblock;
    }
    let l = local_size_guru(&dims, howmany, n_pes, my_pe, 0, 0);
    if rnk > 1 {
        (
            l.alloc,
            l.n_in[0],
            l.start_in[0],
            l.n_out[1],
            l.start_out[1],
        )
    } else {
        (l.alloc, l.n_in[0], l.start_in[0], l.n_in[0], l.start_in[0])
    }
}

/// `fftw_mpi_local_size_many`: (alloc, local_n0, local_0_start).
pub fn local_size_many(
    n: &[isize],
    howmany: isize,
    xblock: isize,
    n_pes: isize,
    my_pe: isize,
) -> (isize, isize, isize) {
    let yblock = if n.len() > 1 { n[1] } else { DEFAULT_BLOCK };
    let (a, nx, xs, _, _) = local_size_many_transposed(n, howmany, xblock, yblock, n_pes, my_pe);
    (a, nx, xs)
}

/// `fftw_mpi_local_size_many_1d`: (alloc, local_ni, local_i_start, local_no, local_o_start).
pub fn local_size_many_1d(
    n: isize,
    howmany: isize,
    n_pes: isize,
    my_pe: isize,
    sign: i32,
    flags: u32,
) -> (isize, isize, isize, isize, isize) {
    let d = DDim { n, ib: 0, ob: 0 };
    let l = local_size_guru(&[d], howmany, n_pes, my_pe, sign, flags);
    (
        l.alloc,
        l.n_in[0],
        l.start_in[0],
        l.n_out[0],
        l.start_out[0],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every process's rows, in order, cover 0..n exactly once.
    fn covers(n: isize, p: isize, f: impl Fn(isize) -> (isize, isize)) {
        let mut next = 0;
        for pe in 0..p {
            let (len, start) = f(pe);
            if len > 0 {
                assert_eq!(start, next, "n {n} p {p} pe {pe}");
                next += len;
            }
        }
        assert_eq!(next, n, "n {n} p {p}");
    }

    #[test]
    fn default_blocks_are_ceil_n_over_p() {
        for p in 1..=8 {
            for n0 in 1..=20 {
                let b = default_block(n0, p);
                for pe in 0..p {
                    let (a, nx, xs) = local_size_many(&[n0, 7], 1, 0, p, pe);
                    let (start, len) = block_range(n0, b, pe);
                    assert_eq!((nx, xs), (len, start), "n0 {n0} p {p} pe {pe}");
                    assert!(a >= nx * 7);
                }
                covers(n0, p, |pe| {
                    let (_, nx, xs) = local_size_many(&[n0, 5, 3], 2, 0, p, pe);
                    (nx, xs)
                });
            }
        }
    }

    /// Answers of FFTW 3.3.10's own libfftw3_mpi (Debian 3.3.10-1), run with 1, 3 and 4
    /// processes: (p, pe, 10x6 transposed, 4x5x6 many howmany 2, 1-D 16, 1-D 13).
    #[test]
    fn fftw_answers() {
        type Row = (isize, isize, [isize; 5], [isize; 3], [isize; 5], [isize; 5]);
        let rows: [Row; 8] = [
            (
                1,
                0,
                [60, 10, 0, 6, 0],
                [240, 4, 0],
                [16, 16, 0, 16, 0],
                [13, 13, 0, 13, 0],
            ),
            (
                3,
                0,
                [24, 4, 0, 2, 0],
                [120, 2, 0],
                [8, 8, 0, 8, 0],
                [13, 13, 0, 13, 0],
            ),
            (
                3,
                1,
                [24, 4, 4, 2, 2],
                [120, 2, 2],
                [8, 8, 8, 8, 8],
                [1, 0, 0, 0, 0],
            ),
            (
                3,
                2,
                [20, 2, 8, 2, 4],
                [80, 0, 0],
                [8, 0, 0, 0, 0],
                [1, 0, 0, 0, 0],
            ),
            (
                4,
                0,
                [20, 3, 0, 2, 0],
                [96, 1, 0],
                [4, 4, 0, 4, 0],
                [13, 13, 0, 13, 0],
            ),
            (
                4,
                1,
                [20, 3, 3, 2, 2],
                [96, 1, 1],
                [4, 4, 4, 4, 4],
                [1, 0, 0, 0, 0],
            ),
            (
                4,
                2,
                [20, 3, 6, 2, 4],
                [60, 1, 2],
                [4, 4, 8, 4, 8],
                [1, 0, 0, 0, 0],
            ),
            (
                4,
                3,
                [6, 1, 9, 0, 0],
                [60, 1, 3],
                [4, 4, 12, 4, 12],
                [1, 0, 0, 0, 0],
            ),
        ];
        for (p, pe, t, m, d16, d13) in rows {
            let got = local_size_many_transposed(&[10, 6], 1, 0, 0, p, pe);
            assert_eq!([got.0, got.1, got.2, got.3, got.4], t, "p {p} pe {pe}");
            let got = local_size_many(&[4, 5, 6], 2, 0, p, pe);
            assert_eq!([got.0, got.1, got.2], m, "p {p} pe {pe}");
            for (n, want) in [(16, d16), (13, d13)] {
                let got = local_size_many_1d(n, 1, p, pe, -1, 0);
                assert_eq!(
                    [got.0, got.1, got.2, got.3, got.4],
                    want,
                    "n {n} p {p} pe {pe}"
                );
            }
        }
    }

    #[test]
    fn one_d_distributions_cover_the_array() {
        for p in 1..=5 {
            for n in [2, 6, 12, 16, 30, 64, 100] {
                for (sign, flags) in [(-1, 0), (1, 0), (-1, SCRAMBLED_OUT), (1, SCRAMBLED_IN)] {
                    covers(n, p, |pe| {
                        let l = local_size_many_1d(n, 1, p, pe, sign, flags);
                        (l.1, l.2)
                    });
                    covers(n, p, |pe| {
                        let l = local_size_many_1d(n, 1, p, pe, sign, flags);
                        (l.3, l.4)
                    });
                }
            }
        }
    }

    #[test]
    fn radix_and_helpers() {
        assert_eq!(choose_radix(16, 4, -1), Some((4, 1, 1)));
        assert_eq!(choose_radix(7, 2, -1), None);
        assert_eq!(choose_radix(12, 2, 1).map(|r| r.0), Some(2));
        assert_eq!(isqrt(15), 3);
        assert_eq!(isqrt(16), 4);
        assert!(is_prime(13) && !is_prime(1) && !is_prime(15));
        assert_eq!(block(10, 3, 3), 1);
        assert_eq!(block(10, 3, 4), 0);
    }
}
