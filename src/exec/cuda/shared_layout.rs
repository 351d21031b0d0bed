//! Where a fused pass kernel (`cudagen::fused_pass`) keeps its pencils in shared memory.
//!
//! Element `j` of the block's pencil `q` lives at `q * stride + j + j / pad_every`. The padding
//! only moves elements between banks; what it decides is how many shared-memory wavefronts each
//! warp access takes. Shared memory has 32 banks of 4 bytes: a warp's access of 8-byte elements
//! (f32 complex) is served 16 threads at a time, one of 16-byte elements (f64 complex) 8 threads
//! at a time, and a phase takes as many wavefronts as the most distinct elements that fall on
//! the same bank group. One layout does not serve both: the padding of one slot per 8 elements
//! that makes the f64 kernels nearly conflict-free doubles the f32 kernels' wavefronts (ncu on
//! the Hockney chains, H100, 2026-11-27: 54% of the f32 passes' shared wavefronts were
//! conflicts, 19% of the f64 passes'). So the layout is chosen per length and precision by
//! counting, for every access the kernel makes (loads along or across pencils, each Stockham
//! stage's reads and writes, stores), the wavefronts each candidate takes.

use crate::program::pencil::{shared_stride, FusedShape, STATIC_SHARED};
use parking_lot::Mutex;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedLayout {
    /// One padding slot after every `pad_every` elements of a pencil.
    pub pad_every: usize,
    /// Elements from one pencil to the next.
    pub stride: usize,
}

impl SharedLayout {
    pub fn position(&self, pencil: usize, j: usize) -> usize {
        pencil * self.stride + j + j / self.pad_every
    }

    /// The layout with the fewest wavefronts for pencils of `n` points in `shape`, elements of
    /// `elem_bytes` (8 or 16), within the shared memory `pencil::fused_shape` budgeted (in
    /// bytes no more than f64's layout, and a block's 48 KiB; in a block over 48 KiB, a pencil
    /// no more than `shared_stride` elements). Counted once per shape and element size in a
    /// process (tens of milliseconds for the longest pencils), then cached.
    pub fn choose(n: usize, shape: &FusedShape, elem_bytes: usize) -> SharedLayout {
        type Key = (usize, usize, usize, usize);
        static CHOSEN: Mutex<BTreeMap<Key, SharedLayout>> = Mutex::new(BTreeMap::new());
        let key = (n, shape.pencils, shape.threads, elem_bytes);
        if let Some(&l) = CHOSEN.lock().get(&key) {
            return l;
        }
        // A block over the static 48 KiB (`pencil::wide_shape`, `pencil::strided_shape` in
        // dynamic shared memory) was checked against the device's limit with `shared_stride`'s
        // padding, which bounds it here (the choice against that padding, H200: 16384 points
        // 0.093 against 0.110 ms, 6144 0.070 against 0.094;
        // bench/results/2026-11-29-h200-half-wide.md).
        let limit = if shape.pencils * shared_stride(n) * elem_bytes > STATIC_SHARED {
            shared_stride(n)
        } else {
            STATIC_SHARED / elem_bytes / shape.pencils
        };
        let budget = (shared_stride(n) * 16 / elem_bytes).min(limit);
        let accesses = accesses(n, shape);
        let mut best = (usize::MAX, SharedLayout::padded_by_8(n));
        for pad_every in [4, 8, 16, 32, 64] {
            for extra in 0..=16 {
                let l = SharedLayout {
                    pad_every,
                    stride: n + n / pad_every + extra,
                };
                if l.stride > budget {
                    continue;
                }
                let w = l.wavefronts_of(&accesses, elem_bytes);
                if w < best.0 {
                    best = (w, l);
                }
            }
        }
        CHOSEN.lock().insert(key, best.1);
        best.1
    }

    /// The layout the kernels had before the choice (and the f64 one for most lengths).
    fn padded_by_8(n: usize) -> SharedLayout {
        SharedLayout {
            pad_every: 8,
            stride: shared_stride(n),
        }
    }

    /// Wavefronts of all the block's warp accesses, one of each kind the kernel makes.
    #[cfg(test)]
    fn wavefronts(&self, n: usize, shape: &FusedShape, elem_bytes: usize) -> usize {
        self.wavefronts_of(&accesses(n, shape), elem_bytes)
    }

    fn wavefronts_of(&self, accesses: &[Warp], elem_bytes: usize) -> usize {
        accesses
            .iter()
            .map(|warp| {
                let mut addrs = [None; 32];
                for (a, t) in addrs.iter_mut().zip(warp) {
                    *a = t.map(|(q, j)| self.position(q, j));
                }
                warp_wavefronts(&addrs[..warp.len()], elem_bytes)
            })
            .sum()
    }
}

/// One warp access: per thread, the (pencil, element) it touches.
type Warp = Vec<Option<(usize, usize)>>;

/// Every warp access of a block: per thread of the warp, the (pencil, element) it touches.
fn accesses(n: usize, shape: &FusedShape) -> Vec<Warp> {
    let threads = shape.threads;
    let per_pencil = threads / shape.pencils;
    let mut out = Vec::new();
    let mut warps = |at: &dyn Fn(usize) -> Option<(usize, usize)>| {
        for w0 in (0..threads).step_by(32) {
            out.push((w0..(w0 + 32).min(threads)).map(at).collect());
        }
    };
    // Loads and stores: along the pencils (contiguous data) or across them.
    let elems = shape.pencils * n;
    for along in [true, false] {
        for it in 0..elems.div_ceil(threads) {
            warps(&|th| {
                let e = th + it * threads;
                let at = if along {
                    (e / n, e % n)
                } else {
                    (e % shape.pencils, e / shape.pencils)
                };
                (e < elems).then_some(at)
            });
        }
    }
    // The Stockham stages: item t reads t + q n/r and writes (t - k) r + k + q p; a thread
    // takes items t, t + per_pencil, ...
    let mut p = 1;
    for &r in &shape.radices {
        let items = n / r;
        for i in 0..items.div_ceil(per_pencil) {
            let item = |th: usize| {
                let t = th % per_pencil + i * per_pencil;
                (t < items).then_some((th / per_pencil, t))
            };
            for q in 0..r {
                warps(&|th| item(th).map(|(pen, t)| (pen, t + q * items)));
                warps(&|th| item(th).map(|(pen, t)| (pen, (t - t % p) * r + t % p + q * p)));
            }
        }
        p *= r;
    }
    out
}

/// Wavefronts one warp access takes: per phase (128 bytes of threads), the most distinct
/// elements on one bank group.
fn warp_wavefronts(addrs: &[Option<usize>], elem_bytes: usize) -> usize {
    let group = 128 / elem_bytes;
    addrs
        .chunks(group)
        .map(|phase| {
            let mut distinct = [0usize; 32];
            let mut len = 0;
            for a in phase.iter().flatten() {
                distinct[len] = *a;
                len += 1;
            }
            let distinct = &mut distinct[..len];
            distinct.sort_unstable();
            let mut on_slot = [0usize; 16];
            for (i, &a) in distinct.iter().enumerate() {
                if i == 0 || distinct[i - 1] != a {
                    on_slot[a % group] += 1;
                }
            }
            on_slot.iter().copied().max().unwrap_or(0)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Precision;
    use crate::program::pencil::fused_shape;

    fn precision(elem_bytes: usize) -> Precision {
        if elem_bytes == 8 {
            Precision::F32
        } else {
            Precision::F64
        }
    }

    /// Wavefronts if no access conflicted: one per phase with an active thread.
    fn ideal(n: usize, shape: &FusedShape, elem_bytes: usize) -> usize {
        accesses(n, shape)
            .iter()
            .map(|warp| {
                let distinct: Vec<Option<usize>> =
                    (0..warp.len()).map(|th| warp[th].map(|_| th)).collect();
                warp_wavefronts(&distinct, elem_bytes)
            })
            .sum()
    }

    #[test]
    fn the_chosen_layouts_are_nearly_conflict_free_in_both_precisions() {
        for n in [16, 32, 64, 128, 256, 512, 1024, 2048, 3072, 4096] {
            for bytes in [8, 16] {
                let Some(shape) = fused_shape(n, precision(bytes)) else {
                    assert!(bytes == 16 && n > 2048, "n={n} has a fused f32 kernel");
                    continue;
                };
                let chosen = SharedLayout::choose(n, &shape, bytes);
                let w = chosen.wavefronts(n, &shape, bytes) as f64;
                let old = SharedLayout::padded_by_8(n).wavefronts(n, &shape, bytes) as f64;
                let best = ideal(n, &shape, bytes) as f64;
                assert!(w <= old, "n={n} {bytes} B: {chosen:?} {w} > {old}");
                // Lengths with one pencil per warp's worth of threads or more are conflict-free
                // to within an eighth; the short ones (several pencils a warp) within 1.7x.
                let bound = if n >= 128 { 1.34 } else { 1.7 };
                assert!(
                    w <= bound * best,
                    "n={n} {bytes} B: {chosen:?} takes {w} wavefronts, ideal {best}"
                );
                assert!(chosen.stride * bytes <= shared_stride(n) * 16);
                assert!(chosen.stride * bytes * shape.pencils <= STATIC_SHARED);
                if bytes == 8 && n >= 256 {
                    assert!(
                        w * 1.5 < old,
                        "n={n} f32: {w} vs {old}: the f32 conflicts stay"
                    );
                }
            }
        }
    }

    #[test]
    fn positions_never_overlap() {
        for n in [16, 64, 256, 512] {
            for bytes in [8, 16] {
                let shape = fused_shape(n, precision(bytes)).unwrap();
                let l = SharedLayout::choose(n, &shape, bytes);
                let mut seen = std::collections::HashSet::new();
                for q in 0..shape.pencils {
                    for j in 0..n {
                        assert!(seen.insert(l.position(q, j)), "n={n}: {l:?} at {q},{j}");
                        assert!(l.position(q, j) < shape.pencils * l.stride);
                    }
                }
            }
        }
    }
}
