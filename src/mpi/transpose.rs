//! The global transpose: an A x B array of `elem`-byte elements, its rows (A) cut in blocks of
//! `ba` across the processes, becomes the B x A array with its rows (B) in blocks of `bb`.
//! Each process packs, per destination, its rows' columns that the destination will own,
//! `MPI_Alltoallv` or pairwise `MPI_Sendrecv` moves them (the plan's [`Way`], measured under
//! FFTW_MEASURE), and each process unpacks into its transposed rows.
//!
//! A side may be stored locally transposed (FFTW_MPI_TRANSPOSED_IN / _OUT of a transpose
//! plan): the input as B x (local A rows), the output as A x (local B rows).

use super::dist::block_range;
use super::ffi::{self, Exchange, Way};

/// The send and receive buffers of a transpose, kept by the plan between executes: allocating
/// and zeroing them at each execute cost more than the exchange itself.
#[derive(Default)]
pub struct Packing {
    send: Vec<u8>,
    recv: Vec<u8>,
}

/// `v` grown to at least `len` bytes, as a slice of exactly `len`.
fn grown(v: &mut Vec<u8>, len: usize) -> &mut [u8] {
    if v.len() < len {
        v.resize(len, 0);
    }
    &mut v[..len]
}

#[derive(Clone, Copy, Debug)]
pub struct Transpose {
    pub a: usize,
    pub ba: usize,
    pub b: usize,
    pub bb: usize,
    /// Bytes per element (a whole trailing row of the array: rest dimensions x howmany).
    pub elem: usize,
    /// The input is stored B x (this process's A rows) instead of (A rows) x B.
    pub in_transposed: bool,
    /// The output is stored A x (this process's B rows) instead of (B rows) x A.
    pub out_transposed: bool,
}

impl Transpose {
    /// (start, length) of process q's rows of A and of B.
    fn rows_a(&self, q: usize) -> (usize, usize) {
        let (s, l) = block_range(self.a as isize, self.ba as isize, q as isize);
        (s as usize, l as usize)
    }
    fn rows_b(&self, q: usize) -> (usize, usize) {
        let (s, l) = block_range(self.b as isize, self.bb as isize, q as isize);
        (s as usize, l as usize)
    }

    /// Bytes this process holds before (A rows) and after (B rows).
    pub fn bytes_before(&self, rank: usize) -> usize {
        self.rows_a(rank).1 * self.b * self.elem
    }
    pub fn bytes_after(&self, rank: usize) -> usize {
        self.rows_b(rank).1 * self.a * self.elem
    }

    fn exchange(&self, size: usize, rank: usize) -> crate::error::Result<Exchange> {
        let la = self.rows_a(rank).1;
        let lb = self.rows_b(rank).1;
        let send: Vec<usize> = (0..size)
            .map(|q| la * self.rows_b(q).1 * self.elem)
            .collect();
        let recv: Vec<usize> = (0..size)
            .map(|q| self.rows_a(q).1 * lb * self.elem)
            .collect();
        Exchange::new(&send, &recv, self.elem)
    }

    /// Transposes `src` (this process's A rows) into `dst` (its B rows), the parts moved the
    /// `way` given. Every process of the communicator must call it together, the same way. `pack` holds the packing buffers between calls
    /// (grown as needed, never cleared: every byte used is written first).
    ///
    /// # Safety
    /// `src` must hold `bytes_before(rank)` bytes and `dst` `bytes_after(rank)`; they may be
    /// the same memory (the data goes through packing buffers).
    pub unsafe fn run(
        &self,
        comm: &ffi::Comm,
        src: *const u8,
        dst: *mut u8,
        pack: &mut Packing,
        way: Way,
    ) -> crate::error::Result<()> {
        let (size, rank) = (comm.size, comm.rank);
        let x = self.exchange(size, rank)?;
        let e = self.elem;
        let la = self.rows_a(rank).1;
        let lb = self.rows_b(rank).1;
        // (never empty: an empty Vec's address is 1, Open MPI's MPI_IN_PLACE)
        let send = grown(&mut pack.send, self.bytes_before(rank).max(1));
        let mut at = 0;
        for q in 0..size {
            let (bs, bl) = self.rows_b(q);
            for r in 0..la {
                if self.in_transposed {
                    for c in bs..bs + bl {
                        let from = src.add((c * la + r) * e);
                        std::ptr::copy_nonoverlapping(from, send.as_mut_ptr().add(at), e);
                        at += e;
                    }
                } else {
                    let from = src.add((r * self.b + bs) * e);
                    std::ptr::copy_nonoverlapping(from, send.as_mut_ptr().add(at), bl * e);
                    at += bl * e;
                }
            }
        }
        let recv = grown(&mut pack.recv, self.bytes_after(rank).max(1));
        let buffers = (send.as_ptr(), recv.as_mut_ptr());
        ffi::exchange(comm.raw(), buffers, &x, way, (size, rank))?;
        let mut at = 0;
        for q in 0..size {
            let (a_start, a_len) = self.rows_a(q);
            for r in 0..a_len {
                for c in 0..lb {
                    let row = a_start + r;
                    let at_dst = if self.out_transposed {
                        row * lb + c
                    } else {
                        c * self.a + row
                    };
                    let to = dst.add(at_dst * e);
                    std::ptr::copy_nonoverlapping(recv.as_ptr().add(at), to, e);
                    at += e;
                }
            }
        }
        Ok(())
    }
}
