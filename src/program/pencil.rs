//! Pencil programs: a fused chain (see `passes::Chain`) as a list of batched 1-D passes, the
//! form the GPU runs (one cuFFT plan per pass).
//!
//! A pass transforms axis `axis` of every live pencil: the pencils are the box `pencils` over
//! the other axes, in row-major order (`b`), and the pass reads a virtual dense input
//! (`b * len_in + j`) and writes a virtual dense output (`b * len_out + k`). What those virtual
//! arrays hold is defined by the pass's [`Load`] and [`Store`]: the load zero-pads (entries
//! outside `live_in` are zero), reads the chain's loads (first pass) or the previous pass's
//! compact box, and applies a leading pointwise program; the store keeps the entries of
//! `live_out`, applies a fused pointwise program, and writes the next compact box or the chain's
//! stores (last pass). So the zero padding, the cropping and the pointwise products never make
//! a pass of their own: on the GPU they are cuFFT load/store callbacks or gather/scatter
//! kernels around the plan (`cudagen`).
//!
//! `exec::cpu::kernel` runs the same program on the CPU (rustfft and the same index maps), so CI
//! checks every map against the pencil engine (`FFTX_CHAIN_ENGINE=pencil`); on the GPU the CUDA
//! executor of Programs runs it as a step built by `exec::cuda::kernel` (`exec::cuda::cudagen`
//! writes its kernels).

use super::kernel::{pass_order, passes_in_order, shape_of, Access, Chain, Code, Segment, Stage};
use super::BufId;
use crate::error::Error;
use crate::problem::{Kind, Kind1d, Precision};
use std::ops::Range;
use std::sync::Arc;

/// Where a buffer of the program is: the two intermediate slots (`INTER0`, `INTER1`: compact
/// complex boxes the executor allocates), then the Program buffers the chain addresses
/// ([`PencilProgram::buffers`]).
pub const INTER0: usize = 0;
pub const BUFFERS: usize = 2;

/// A compact box: chain index `i` inside `origin + [0, extent)` is at `sum (i_d - origin_d) * strides_d`.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxMap {
    pub origin: Vec<usize>,
    pub extent: Vec<usize>,
    pub strides: Vec<isize>,
}

impl BoxMap {
    /// Row-major over `ranges`.
    pub fn dense(ranges: &[Range<usize>]) -> BoxMap {
        let extent: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
        let mut strides = vec![1isize; extent.len()];
        for d in (0..extent.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * extent[d + 1] as isize;
        }
        BoxMap {
            origin: ranges.iter().map(|r| r.start).collect(),
            extent,
            strides,
        }
    }
    pub fn volume(&self) -> usize {
        self.extent.iter().product()
    }
    pub fn position(&self, i: &[usize]) -> Option<isize> {
        let mut p = 0;
        for (d, &x) in i.iter().enumerate() {
            if x < self.origin[d] || x >= self.origin[d] + self.extent[d] {
                return None;
            }
            p += (x - self.origin[d]) as isize * self.strides[d];
        }
        Some(p)
    }
}

/// A chain load or store: a box of chain indices (`clip`, already cut to what the pass covers)
/// and where those elements are in a buffer.
#[derive(Clone, Debug)]
pub struct SegMap {
    pub slot: usize,
    pub complex: bool,
    pub base: isize,
    pub origin: Vec<usize>,
    pub strides: Vec<isize>,
    pub clip: Vec<Range<usize>>,
}

impl SegMap {
    pub fn position(&self, i: &[usize]) -> Option<isize> {
        let mut p = self.base;
        for (d, &x) in i.iter().enumerate() {
            if !self.clip[d].contains(&x) {
                return None;
            }
            p += (x - self.origin[d]) as isize * self.strides[d];
        }
        Some(p)
    }
}

#[derive(Clone, Debug)]
pub enum Side {
    /// A compact box in an intermediate slot.
    Inter { slot: usize, map: BoxMap },
    /// The chain's loads (the last one holding an index wins, as the pencil engine's order) or
    /// stores (every one holding it).
    Segments(Vec<SegMap>),
}

/// A fused pointwise program and its data operand (indexed by chain index: `base + i . strides`).
#[derive(Clone, Debug)]
pub struct Fused {
    pub prog: Arc<Code>,
    pub data: Option<SegMap>,
}

#[derive(Clone, Debug)]
pub struct Pass {
    pub kind: Kind1d,
    pub axis: usize,
    /// Logical length along the axis.
    pub n: usize,
    /// Pencil ranges of every axis (the pass axis: 0..1, unused).
    pub pencils: Vec<Range<usize>>,
    pub live_in: Range<usize>,
    pub live_out: Range<usize>,
    pub load: Side,
    pub head: Option<Fused>,
    pub store: Side,
    pub tail: Option<Fused>,
    /// A second transform of the same pencils (a merged pair of passes: the last of one stage
    /// and the first of the next, along the same axis): the first transform's output is kept
    /// on `mid.keep`, goes through `mid.fused`, and is transformed again by `mid.kind`; then
    /// `live_out`, `tail` and `store` are the second transform's.
    pub mid: Option<Mid>,
}

#[derive(Clone, Debug)]
pub struct Mid {
    pub kind: Kind1d,
    pub keep: Range<usize>,
    pub fused: Option<Fused>,
}

impl Pass {
    /// The transform whose output the pass stores.
    pub fn kind_out(&self) -> Kind1d {
        self.mid.as_ref().map_or(self.kind, |m| m.kind)
    }
    pub fn batch(&self) -> usize {
        self.pencils
            .iter()
            .enumerate()
            .filter(|(d, _)| *d != self.axis)
            .map(|(_, r)| r.len())
            .product()
    }
    pub fn len_in(&self) -> usize {
        self.kind.len_in(self.n)
    }
    pub fn len_out(&self) -> usize {
        self.kind_out().len_out(self.n)
    }
    /// Chain index of element `j` of virtual pencil `b`.
    pub fn index(&self, b: usize, j: usize) -> Vec<usize> {
        let mut i = vec![0; self.pencils.len()];
        let mut r = b;
        for d in (0..self.pencils.len()).rev() {
            if d == self.axis {
                i[d] = j;
            } else {
                let l = self.pencils[d].len();
                i[d] = self.pencils[d].start + r % l;
                r /= l;
            }
        }
        i
    }
}

#[derive(Clone, Debug)]
pub struct PencilProgram {
    /// The Program buffers of slots `BUFFERS..`.
    pub buffers: Vec<BufId>,
    /// The plan's precision (what the generated CUDA is written in).
    pub precision: Precision,
    /// Complex elements each intermediate slot needs.
    pub inter_len: usize,
    pub passes: Vec<Pass>,
}

impl PencilProgram {
    /// The precision of the program's buffers (one per plan).
    pub fn precision(&self) -> Precision {
        self.precision
    }
    /// 1-D transforms of one run.
    pub fn transforms(&self) -> u64 {
        self.passes
            .iter()
            .map(|p| p.batch() as u64 * if p.mid.is_some() { 2 } else { 1 })
            .sum()
    }
}

fn slot_of(buffers: &mut Vec<BufId>, b: BufId) -> usize {
    if let Some(k) = buffers.iter().position(|&x| x == b) {
        return BUFFERS + k;
    }
    buffers.push(b);
    BUFFERS + buffers.len() - 1
}

fn seg_map(buffers: &mut Vec<BufId>, s: &Segment, within: &[Range<usize>]) -> Option<SegMap> {
    let clip: Vec<Range<usize>> = s
        .origin
        .iter()
        .zip(&s.extent)
        .zip(within)
        .map(|((&o, &e), w)| o.max(w.start)..(o + e).min(w.end))
        .collect();
    if clip.iter().any(|r| r.is_empty()) {
        return None;
    }
    Some(SegMap {
        slot: slot_of(buffers, s.access.buf.buf),
        complex: s.access.buf.complex,
        base: s.access.base,
        origin: s.origin.clone(),
        strides: s.access.strides.clone(),
        clip,
    })
}

fn data_map(buffers: &mut Vec<BufId>, a: &Access, cshape: &[usize]) -> SegMap {
    SegMap {
        slot: slot_of(buffers, a.buf.buf),
        complex: a.buf.complex,
        base: a.base,
        origin: vec![0; cshape.len()],
        strides: a.strides.clone(),
        clip: cshape.iter().map(|&n| 0..n).collect(),
    }
}

/// The pencil program of a chain: one pass per axis of each transform stage, pointwise stages
/// fused into the neighbouring pass. The first stage's passes are in the pencil engine's order
/// (`kernel::passes`); a later stage starts along the axis the previous one ended with (the
/// pencil counts are the same), so that with `merge` the two passes around the middle become
/// one (the fused kernels' form: the spectrum between the stages never leaves the pencil).
pub fn lower(chain: &Chain, precision: Precision, merge: bool) -> Result<PencilProgram, Error> {
    let mut buffers = Vec::new();
    let mut passes = stage_passes(chain, &mut buffers)?;
    let stores = chain
        .stores
        .iter()
        .filter_map(|s| seg_map(&mut buffers, s, chain.last_out()))
        .collect();
    let lastp = passes
        .last_mut()
        .ok_or_else(|| Error::internal("a chain without a transform"))?;
    lastp.store = Side::Segments(stores);
    if merge {
        passes = merged(passes, precision);
    }
    alternate_slots(&mut passes);
    Ok(PencilProgram {
        buffers,
        precision,
        inter_len: inter_len(&passes),
        passes,
    })
}

/// The passes of the chain's stages in order, each storing a compact box to an intermediate
/// slot: one per axis of each transform, a pointwise stage fused into the pass before it (the
/// first pass's head when it leads).
fn stage_passes(chain: &Chain, buffers: &mut Vec<BufId>) -> Result<Vec<Pass>, Error> {
    let rank = chain.n.len();
    let last = rank - 1;
    let cshape = shape_of(&chain.n, !matches!(chain.first_kind(), Kind::Dft { .. }));
    let mut passes: Vec<Pass> = Vec::new();
    let mut head: Option<Fused> = None;
    for stage in &chain.stages {
        match stage {
            Stage::Pointwise { prog, data } => {
                let fused = Fused {
                    prog: prog.clone(),
                    data: data.as_ref().map(|a| data_map(buffers, a, &cshape)),
                };
                match passes.last_mut() {
                    None => head = Some(fused),
                    Some(p) if p.tail.is_none() => p.tail = Some(fused),
                    Some(_) => return Err(Error::unsupported("two pointwise stages in a row")),
                }
            }
            Stage::Fft {
                kind,
                in_live,
                out_live,
            } => {
                let order = axis_order(kind, rank, passes.last().map(|p| p.axis));
                for (axis, pencils) in passes_in_order(&order, &chain.n, in_live, out_live) {
                    let Some(kind1) = kind.along_axis(axis == last) else {
                        return Err(Error::unsupported(format!("{} in a chain", kind.name())));
                    };
                    let load = next_load(chain, buffers, passes.last());
                    let mut out_box = pencils.clone();
                    out_box[axis] = out_live[axis].clone();
                    let map = BoxMap::dense(&out_box);
                    let slot = INTER0 + passes.len() % 2;
                    passes.push(Pass {
                        kind: kind1,
                        axis,
                        n: chain.n[axis],
                        pencils,
                        live_in: in_live[axis].clone(),
                        live_out: out_live[axis].clone(),
                        load,
                        head: if passes.is_empty() { head.take() } else { None },
                        store: Side::Inter { slot, map },
                        tail: None,
                        mid: None,
                    });
                }
            }
        }
    }
    Ok(passes)
}

/// The axes of a transform's passes in order: the pencil engine's (`pass_order`), but first
/// along `prev`, the axis the pass before ended with (not when a c2r follows one along the
/// last axis: a c2r's pass along the last axis stays last).
fn axis_order(kind: &Kind, rank: usize, prev: Option<usize>) -> Vec<usize> {
    let mut order = pass_order(kind, rank);
    if let Some(prev) = prev {
        let real_last = *kind == Kind::C2r;
        if !(real_last && prev == rank - 1) {
            order.retain(|&a| a != prev);
            order.insert(0, prev);
        }
    }
    order
}

/// What the pass after `prev` loads: the chain's loads (the first pass) or the box `prev`
/// stored.
fn next_load(chain: &Chain, buffers: &mut Vec<BufId>, prev: Option<&Pass>) -> Side {
    match prev {
        None => Side::Segments(
            chain
                .loads
                .iter()
                .filter_map(|s| seg_map(buffers, s, chain.first_in()))
                .collect(),
        ),
        Some(prev) => match &prev.store {
            Side::Inter { slot, map } => Side::Inter {
                slot: *slot,
                map: map.clone(),
            },
            Side::Segments(_) => {
                unreachable!("only the last pass stores to segments")
            }
        },
    }
}

/// Puts the intermediates in the two slots by turns (a merged pass must not read and write
/// one).
fn alternate_slots(passes: &mut [Pass]) {
    let mut prev: Option<usize> = None;
    for p in passes {
        if let (Side::Inter { slot, .. }, Some(s)) = (&mut p.load, prev) {
            *slot = s;
        }
        if let Side::Inter { slot, .. } = &mut p.store {
            *slot = INTER0 + prev.map_or(0, |s| 1 - (s - INTER0));
            prev = Some(*slot);
        }
    }
}

/// Complex elements each intermediate slot needs: the largest box a pass but the last stores
/// (the last pass's box is no longer an intermediate).
fn inter_len(passes: &[Pass]) -> usize {
    passes[..passes.len() - 1]
        .iter()
        .map(|p| {
            if let Side::Inter { map, .. } = &p.store {
                map.volume()
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}

/// Merges each pass with the next when they transform the same pencils along the same axis
/// and the next reads only what the first stored.
fn merged(passes: Vec<Pass>, precision: Precision) -> Vec<Pass> {
    let mut out: Vec<Pass> = Vec::new();
    for p in passes {
        if let Some(prev) = out.last_mut() {
            // Only lengths the fused kernels take (a merged pass is one of them).
            let fusable = fused_shape(p.n, precision).is_some();
            let same = fusable
                && prev.mid.is_none()
                && prev.axis == p.axis
                && p.head.is_none()
                && (0..p.pencils.len()).all(|d| d == p.axis || prev.pencils[d] == p.pencils[d]);
            let reads_prev = matches!((&prev.store, &p.load), (Side::Inter { slot: a, .. }, Side::Inter { slot: b, .. }) if a == b);
            if same && reads_prev {
                let keep =
                    prev.live_out.start.max(p.live_in.start)..prev.live_out.end.min(p.live_in.end);
                prev.mid = Some(Mid {
                    kind: p.kind,
                    keep,
                    fused: prev.tail.take(),
                });
                prev.live_out = p.live_out;
                prev.store = p.store;
                prev.tail = p.tail;
                continue;
            }
        }
        out.push(p);
    }
    out
}

/// How a fused pass kernel covers its pencils: the radices of its stages, `pencils` per block
/// of `threads` (= pencils * the threads a pencil, `fused_shape`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FusedShape {
    pub radices: Vec<usize>,
    pub pencils: usize,
    pub threads: usize,
}

/// The most shared memory a kernel declares statically (bytes): the fused shapes stay within
/// it; [`wide_shape`] and [`strided_shape`] go over it, in dynamic shared memory, only where
/// the device has it (`cudagen::fused_shared_bytes` is what such a launch gives).
pub const STATIC_SHARED: usize = 48 << 10;

/// Shared-memory elements per pencil the fused kernel is budgeted: one
/// padding slot every 8 elements and one per pencil. The layout the kernel uses within that
/// budget is chosen per precision (`exec::cuda::shared_layout`).
pub fn shared_stride(n: usize) -> usize {
    n + n / 8 + 1
}

/// The fused kernel's shape for pencils of `n` points in `precision`, None when `n` has no
/// radices (see `fftgen::radices`) or does not fit in shared memory: such a pass runs through
/// cuFFT. Both precisions take the same shape for the lengths f64 can (up to 2048 points); f32
/// elements, half the size, also fit pencils of up to 4096 points.
///
/// A pencil's threads: the most items a stage has (one item a thread; f64), or in f32 the
/// greatest common divisor of the stages' items where that is a warp or more and at least a
/// fifth of the most, so that every thread works in every stage (items t, t + threads, ...).
/// On an H200, binary16 pass kernels over 2^24 elements: 1024 points [8, 8, 16] 64 threads a
/// pencil instead of 128, 0.062 -> 0.057 ms; 3125 [25, 25, 5] 125 instead of 625
/// (bench/results/2026-11-29-h200-half-items.md). Several items a thread where every stage
/// already kept every thread busy lost (1000 points 50 threads: 0.071 -> 0.073 ms; 256 points
/// 8: 0.047 -> 0.062).
pub fn fused_shape(n: usize, precision: Precision) -> Option<FusedShape> {
    let radices = match precision {
        Precision::F32 => super::fftgen::radices_f32(n)?,
        Precision::F64 => super::fftgen::radices(n)?,
    };
    let items: Vec<usize> = radices.iter().map(|r| n / r).collect();
    let most = items.iter().copied().max().unwrap_or(1);
    let common = items.iter().fold(0, |g, &i| gcd(g, i));
    let t = match precision {
        Precision::F32 if common >= 32 && common * 5 >= most => common,
        _ => most,
    };
    let pencils = (256 / t).min(2048 / n).max(1);
    if t > 1024 || pencils * shared_stride(n) * 2 * precision.bytes() > STATIC_SHARED {
        return None;
    }
    Some(FusedShape {
        radices,
        pencils,
        threads: pencils * t,
    })
}

/// The shape of a one-pencil block for f32 pencils too long for [`fused_shape`] (over 48 KiB of
/// shared memory, the most a kernel declares statically), within `shared_bytes` of dynamic
/// shared memory a block (the device's opt-in limit: 227 KiB on an H100 or H200, pencils of up
/// to 25 000 points or so). None where `fused_shape` takes the length, where it has no
/// radices, or where the pencil does not fit.
///
/// Radix-25 stages (where 25 divides n) or radix-16 ones first, the rest (radices up to 16)
/// after in decreasing order; a thread for each item of the first stage, halved above 768
/// threads (two items a thread). On an H200, binary16 passes over 2^24 elements
/// (bench/results/2026-11-29-h200-half-wide.md), standalone with the layout
/// `SharedLayout::choose` gives them: 16384 points [16, 16, 16, 4] in 512 threads 0.093 ms,
/// 8192 [16, 16, 16, 2] 0.083, 12288 [16, 16, 16, 3] 0.098, 15625 [25, 25, 25] 0.160, 6144
/// 0.070; through `fftxh_execute` 16384 0.096-0.099 ms where the two digit passes took 0.148
/// (cuFFT fp16: 0.104). Tried and slower: 16384 in 1024 threads or as [8, 16, 8, 16]; 8192
/// as [16, 16, 32] or [8, 16, 8, 8]; 12288 as [12, 16, 16, 4].
pub fn wide_shape(n: usize, shared_bytes: usize) -> Option<FusedShape> {
    if fused_shape(n, Precision::F32).is_some()
        || shared_stride(n) * 2 * Precision::F32.bytes() > shared_bytes
    {
        return None;
    }
    let lead = [25, 16].into_iter().find(|r| n.is_multiple_of(*r))?;
    let (mut radices, mut rest) = (Vec::new(), n);
    while rest.is_multiple_of(lead) {
        radices.push(lead);
        rest /= lead;
    }
    if rest > 1 {
        let mut tail = super::fftgen::radices(rest)?;
        tail.sort_unstable_by(|a, b| b.cmp(a));
        radices.extend(tail);
    }
    let mut threads = n / lead;
    if threads > 768 && threads.is_multiple_of(2) {
        threads /= 2;
    }
    (32..=1024).contains(&threads).then_some(FusedShape {
        radices,
        pencils: 1,
        threads,
    })
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The shape of a fused kernel whose pass is strided on a side (its pencils adjacent in memory
/// there: the `fftxh_` passes along a leading axis and over the digits of a length,
/// `program::multipass`): as [`fused_shape`], with as many pencils a block as fit 1024
/// threads and a block's 48 KiB of shared memory, up to 64, a power of two, so that a block's
/// strided accesses cover whole 32-byte sectors (8 binary16 or 4 f32 complex elements) and its
/// neighbours' start on the next. Never fewer pencils than [`fused_shape`]'s. Where fewer than
/// 8 fit 48 KiB (pencils over about 680 points), up to 8 in `shared_bytes` (the device's
/// dynamic shared memory a block). On an H200 (binary16 c2c,
/// bench/results/2026-11-29-h200-half-wide.md): 2048 x 8192 0.313 -> 0.204 ms (2 pencils of
/// 2048 a block -> 8), 1024 x 16384 0.235 -> 0.208, 768^2 x 16 0.106 -> 0.096; 1024^2 and
/// 1000^2 (4 -> 8) within 2%.
pub fn strided_shape(n: usize, precision: Precision, shared_bytes: usize) -> Option<FusedShape> {
    let base = fused_shape(n, precision)?;
    let t = base.threads / base.pencils;
    let fits = |p: usize, bytes: usize| {
        p * t <= 1024 && p * shared_stride(n) * 2 * precision.bytes() <= bytes
    };
    let most = |bytes: usize| {
        (0..=6)
            .map(|e| 1usize << e)
            .filter(|&p| fits(p, bytes))
            .max()
            .unwrap_or(1)
    };
    let pencils = most(STATIC_SHARED).max(most(shared_bytes).min(8));
    Some(if pencils > base.pencils {
        FusedShape {
            pencils,
            threads: pencils * t,
            ..base
        }
    } else {
        base
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strided passes take a power of two of pencils within a block's limits.
    #[test]
    fn strided_shapes_fill_sectors() {
        for (n, pencils) in [
            (192, 16),
            (512, 8),
            (125, 32),
            (256, 16),
            (8, 256),
            (4096, 1),
        ] {
            let s = strided_shape(n, Precision::F32, STATIC_SHARED).unwrap();
            assert_eq!(s.pencils, pencils, "n = {n}");
            assert!(s.threads <= 1024);
            assert!(s.pencils * shared_stride(n) * 8 <= STATIC_SHARED);
            assert_eq!(s.radices, fused_shape(n, Precision::F32).unwrap().radices);
        }
        // In an H100's or H200's dynamic shared memory, up to 8 pencils (a 32-byte sector of
        // binary16 complex elements) where fewer fit 48 KiB; shorter pencils as before.
        for (n, pencils) in [
            (1024, 8),
            (2048, 8),
            (4096, 4),
            (1000, 8),
            (512, 8),
            (192, 16),
        ] {
            let s = strided_shape(n, Precision::F32, 227 << 10).unwrap();
            assert_eq!(s.pencils, pencils, "n = {n}");
            assert!(s.threads <= 1024);
        }
    }

    /// f32 kernels give a pencil the stages' common items where every thread then works in
    /// every stage (1024: items 128, 128, 64); f64 keeps the most items a stage has.
    #[test]
    fn f32_threads_a_pencil_keep_every_stage_busy() {
        let per_pencil = |n: usize, p: Precision| {
            let s = fused_shape(n, p).unwrap();
            (s.radices.clone(), s.threads / s.pencils)
        };
        assert_eq!(per_pencil(1024, Precision::F32), (vec![8, 8, 16], 64));
        assert_eq!(per_pencil(1024, Precision::F64), (vec![8, 8, 16], 128));
        assert_eq!(per_pencil(3125, Precision::F32), (vec![25, 25, 5], 125));
        assert_eq!(per_pencil(625, Precision::F32), (vec![25, 25], 25));
        assert_eq!(per_pencil(625, Precision::F64), (vec![5, 5, 5, 5], 125));
        // A common count under a warp (192: items 16 and 12) keeps one item a thread.
        assert_eq!(per_pencil(192, Precision::F32), (vec![12, 16], 16));
        assert_eq!(per_pencil(1000, Precision::F32), (vec![10, 10, 10], 100));
    }

    /// Pencils over 4096 f32 points take one block each, radix 25 or 16 first, within the
    /// device's dynamic shared memory; shorter ones keep `fused_shape`.
    #[test]
    fn wide_shapes_take_long_pencils_within_the_shared_memory() {
        const H100: usize = 227 << 10;
        let wide = |n: usize| {
            let s = wide_shape(n, H100).unwrap();
            assert_eq!(s.pencils, 1);
            assert_eq!(s.radices.iter().product::<usize>(), n);
            (s.radices, s.threads)
        };
        assert_eq!(wide(16384), (vec![16, 16, 16, 4], 512));
        assert_eq!(wide(8192), (vec![16, 16, 16, 2], 512));
        assert_eq!(wide(12288), (vec![16, 16, 16, 3], 768));
        assert_eq!(wide(15625), (vec![25, 25, 25], 625));
        assert_eq!(wide(6144), (vec![16, 16, 6, 4], 384));
        assert_eq!(wide(20000), (vec![25, 25, 8, 4], 400));
        // Too long for 227 KiB, or for the 99 KiB of a compute 8.6 card; short; no radices.
        assert_eq!(wide_shape(32768, H100), None);
        assert_eq!(wide_shape(16384, 99 << 10), None);
        assert_eq!(wide_shape(4096, H100), None);
        assert_eq!(wide_shape(17 * 512, H100), None);
        assert_eq!(wide_shape(6561, H100), None);
    }

    #[test]
    fn pass_index_decodes_the_pencil_box_row_major() {
        let p = Pass {
            kind: Kind1d::Dft { sign: -1 },
            axis: 1,
            n: 8,
            pencils: vec![2..4, 0..1, 5..8],
            live_in: 0..8,
            live_out: 0..8,
            load: Side::Segments(vec![]),
            head: None,
            store: Side::Segments(vec![]),
            tail: None,
            mid: None,
        };
        assert_eq!(p.batch(), 6);
        assert_eq!(p.index(0, 3), vec![2, 3, 5]);
        assert_eq!(p.index(4, 7), vec![3, 7, 6]);
    }

    #[test]
    fn dense_box_maps_and_refuses_outside() {
        let m = BoxMap::dense(&[1..3, 4..7]);
        assert_eq!(m.strides, vec![3, 1]);
        assert_eq!(m.position(&[2, 6]), Some(5));
        assert_eq!(m.position(&[0, 6]), None);
        assert_eq!(m.position(&[2, 7]), None);
    }
}
