//! What a transform node costs in 1-D transforms when it runs whole (the decomposition into
//! passes over pencils is `program::kernel::passes`).

use super::graph::Node;
use crate::problem::Kind;
use crate::program::kernel::{passes, pencil_count, shape_of};
use std::ops::Range;

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
