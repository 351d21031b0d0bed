//! How a transform node decomposes into 1-D passes over pencils: the axis order, the live
//! pencil ranges of each pass, and their counts. Shared by the CPU chain engine, the pencil
//! programs (CPU twin and GPU) and the printout.

use super::graph::Node;
use super::passes::shape_of;
use crate::problem::Kind;
use std::ops::Range;

/// Axis order of a transform's passes: r2c transforms the (real) last axis first, c2r last.
pub fn pass_order(kind: &Kind, rank: usize) -> Vec<usize> {
    match kind {
        Kind::R2c if rank > 0 => std::iter::once(rank - 1).chain(0..rank - 1).collect(),
        _ => (0..rank).collect(),
    }
}

/// For each pass (axis, pencil ranges over all axes, with the pass axis at its full input range):
/// an axis already transformed only needs the pencils read later (`out_live`), one not yet
/// transformed only those that can be non-zero (`in_live`).
pub fn passes(
    kind: &Kind,
    n: &[usize],
    in_live: &[Range<usize>],
    out_live: &[Range<usize>],
) -> Vec<(usize, Vec<Range<usize>>)> {
    passes_in_order(&pass_order(kind, n.len()), n, in_live, out_live)
}

/// [`passes`] in a given axis order.
pub fn passes_in_order(
    order: &[usize],
    n: &[usize],
    in_live: &[Range<usize>],
    out_live: &[Range<usize>],
) -> Vec<(usize, Vec<Range<usize>>)> {
    let rank = n.len();
    let mut done = vec![false; rank];
    let mut v = Vec::new();
    for &a in order {
        let ranges = (0..rank)
            .map(|b| {
                if b == a {
                    0..1
                } else if done[b] {
                    out_live[b].clone()
                } else {
                    in_live[b].clone()
                }
            })
            .collect();
        v.push((a, ranges));
        done[a] = true;
    }
    v
}

/// 1-D transforms of a pass list.
pub fn pencil_count(p: &[(usize, Vec<Range<usize>>)]) -> u64 {
    p.iter()
        .map(|(_, r)| r.iter().map(|x| x.len() as u64).product::<u64>())
        .sum()
}

/// 1-D transforms of the plain (unpruned) transform of a node, all its howmany loops included.
pub fn unpruned_count(node: &Node) -> u64 {
    let howmany: u64 = node.in_shape[..node.loops]
        .iter()
        .map(|&x| x as u64)
        .product();
    let rank = node.n.len();
    let per = match node.op.kind() {
        Some(kind @ (Kind::R2c | Kind::C2r | Kind::Dft { .. })) => {
            let cs = shape_of(&node.n, !matches!(kind, Kind::Dft { .. }));
            let full: Vec<Range<usize>> = cs.iter().map(|&x| 0..x).collect();
            pencil_count(&passes(kind, &node.n, &full, &full))
        }
        Some(Kind::R2r(_)) => (0..rank)
            .map(|a| {
                node.n
                    .iter()
                    .enumerate()
                    .filter(|(b, _)| *b != a)
                    .map(|(_, &x)| x as u64)
                    .product::<u64>()
            })
            .sum(),
        None => 0,
    };
    per * howmany
}
