//! The steps of the FMM-FFT (`passes::fmm`): the stages of P − 1 interleaved periodic 1-D fast
//! multipole methods, as in Cecka, "Low Communication FMM-Accelerated FFT on GPUs" (SC17),
//! Algorithm 1. Each step is one stage on one device's buffers; the CPU executor's meaning is
//! `exec::cpu::fmm`.
//!
//! Layouts (complex elements, interleaved; `P` FMMs interleaved, p fastest):
//! - data (sources S, targets T): point m of leaf box b of FMM p at (b·M_L + m)·P + p: the
//!   input's own order, so a device's block of the input is its boxes' sources;
//! - expansions (multipole M^ℓ, local L^ℓ): coefficient q of box b of FMM p ≥ 1 at
//!   (b·Q + q)·(P − 1) + p − 1.

use super::At;

/// The FMM-FFT of one length `n` = `p` · `leaf` · 2^L: what every stage's operators depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FmmGeom {
    pub n: usize,
    /// P: the FFT factor, the number of interleaved FMMs (p = 0 is the identity).
    pub p: usize,
    /// M_L: points per leaf box per FMM.
    pub leaf: usize,
    /// Q: Chebyshev nodes per expansion.
    pub terms: usize,
    /// B: the base level, whose multipoles every device holds (2^B boxes).
    pub base: u32,
    /// The transform's sign (−1 forward).
    pub sign: i32,
}

impl FmmGeom {
    /// Complex elements of one leaf box of data (P · M_L).
    pub fn data_box(&self) -> usize {
        self.p * self.leaf
    }
    /// Complex elements of one box of expansions ((P − 1) · Q).
    pub fn exp_box(&self) -> usize {
        (self.p - 1) * self.terms
    }
}

/// The stage a [`FmmStep`] computes (Algorithm 1's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FmmOp {
    /// Leaf multipoles from the sources: M^L = S2M · S.
    S2m,
    /// The near field (each leaf box and its two neighbours): T = S2T ∗ S (overwrites T;
    /// p = 0 copies S). `src` has one halo box on each side.
    S2t,
    /// Parent multipoles from their two children: M^ℓ = M2M · M^(ℓ+1); `boxes` parents.
    M2m,
    /// Far field at `level`: L^ℓ = Σ M2L · M^ℓ over the cousins (`src` has two halo boxes on
    /// each side), or at the base level over every non-neighbour of the ring of 2^B boxes
    /// (`src` is that ring). Overwrites L^ℓ.
    M2l,
    /// Children's locals from their parent's: L^(ℓ+1) += L2L · L^ℓ; `boxes` parents.
    L2l,
    /// Targets from the leaf locals: T += L2T · L^L.
    L2t,
    /// T = ρ_p (T + i r_p) (forward; conjugated backward) for p ≥ 1, r_p the sum of FMM p's
    /// sources, read off the base multipoles at `src` (the ring).
    Post,
}

impl FmmOp {
    pub fn name(self) -> &'static str {
        match self {
            FmmOp::S2m => "s2m",
            FmmOp::S2t => "s2t",
            FmmOp::M2m => "m2m",
            FmmOp::M2l => "m2l",
            FmmOp::L2l => "l2l",
            FmmOp::L2t => "l2t",
            FmmOp::Post => "post",
        }
    }
}

/// One FMM stage over `boxes` consecutive boxes of one device: from `src` (its box 0) into
/// `dst` (its box 0). `level` is the tree level of the boxes at `dst` (M2M: the parents'; L2L:
/// the parents' too); `first` the global index of the first of them (M2L: the cousins' parity
/// and the place in the base ring).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FmmStep {
    pub op: FmmOp,
    pub geom: FmmGeom,
    pub src: At,
    pub dst: At,
    pub boxes: usize,
    pub level: u32,
    pub first: usize,
    pub stream: usize,
}

impl FmmStep {
    /// The real scalars the step reads at `src` and writes at `dst`, as [lo, hi) from each.
    pub fn extents(&self) -> ((isize, isize), (isize, isize)) {
        let (d, k) = (self.geom.data_box() as isize, self.geom.exp_box() as isize);
        let b = self.boxes as isize;
        let ring = (1isize << self.geom.base) * k;
        let (src, dst) = match self.op {
            FmmOp::S2m => ((0, b * d), (0, b * k)),
            FmmOp::S2t => ((-d, (b + 1) * d), (0, b * d)),
            FmmOp::M2m => ((0, 2 * b * k), (0, b * k)),
            FmmOp::M2l if self.level == self.geom.base => ((0, ring), (0, b * k)),
            FmmOp::M2l => ((-2 * k, (b + 2) * k), (0, b * k)),
            FmmOp::L2l => ((0, b * k), (0, 2 * b * k)),
            FmmOp::L2t => ((0, b * k), (0, b * d)),
            FmmOp::Post => ((0, ring), (0, b * d)),
        };
        ((2 * src.0, 2 * src.1), (2 * dst.0, 2 * dst.1))
    }

    pub fn describe(&self) -> String {
        format!(
            "(fmm s{} {} b{}+{} -> b{}+{} boxes={} level={} first={} n={} p={} leaf={} q={})",
            self.stream,
            self.op.name(),
            self.src.buf,
            self.src.offset,
            self.dst.buf,
            self.dst.offset,
            self.boxes,
            self.level,
            self.first,
            self.geom.n,
            self.geom.p,
            self.geom.leaf,
            self.geom.terms
        )
    }
}
