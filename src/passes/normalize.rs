//! Canonical form of a problem: the same transforms with fewer, larger loops.
//!
//! - loop dimensions of length 1 are dropped;
//! - adjacent loop dimensions that walk memory as one (outer stride = inner n × inner stride, on
//!   both sides) are merged;
//! - transform dimensions of length 1 that are identities are dropped (every dimension of a c2c
//!   transform, and all but the last of r2c/c2r). r2r dimensions stay: most kinds scale n = 1.

use crate::problem::{IoDim, Kind, Problem};

pub fn normalize(p: &Problem) -> Problem {
    let mut q = p.clone();
    let rank = q.dims.len();
    q.dims = match &p.kind {
        Kind::Dft { .. } => p.dims.iter().copied().filter(|d| d.n != 1).collect(),
        Kind::R2c | Kind::C2r => p
            .dims
            .iter()
            .enumerate()
            .filter(|(i, d)| d.n != 1 || i + 1 == rank)
            .map(|(_, d)| *d)
            .collect(),
        Kind::R2r(_) => p.dims.clone(),
    };
    q.loops = merge_loops(&p.loops);
    q
}

/// `loops` with axes of length 1 dropped and each axis that continues the next inner one on both
/// sides merged into it (one axis of length 0 for an empty box).
pub fn merge_loops(loops: &[IoDim]) -> Vec<IoDim> {
    if loops.iter().any(|d| d.n == 0) {
        return vec![IoDim::new(0, 0, 0)];
    }
    let mut out: Vec<IoDim> = Vec::new();
    for d in loops.iter().filter(|d| d.n != 1) {
        match out.last_mut() {
            Some(o) if o.is == d.n * d.is && o.os == d.n * d.os => {
                *o = IoDim::new(o.n * d.n, d.is, d.os);
            }
            _ => out.push(*d),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{Precision, R2rKind};

    fn problem(kind: Kind, dims: Vec<IoDim>, loops: Vec<IoDim>) -> Problem {
        Problem {
            kind,
            dims,
            loops,
            precision: Precision::F64,
            in_place: false,
        }
    }

    #[test]
    fn merges_contiguous_loops_and_drops_unit_ones() {
        let p = problem(
            Kind::Dft { sign: -1 },
            vec![IoDim::new(8, 2, 2)],
            vec![
                IoDim::new(4, 48, 64),
                IoDim::new(1, 5, 5),
                IoDim::new(3, 16, 16),
            ],
        );
        let q = normalize(&p);
        // 4 × (3 × 16 reals, 3 × 16) ... input merges (48 = 3*16) but output does not (64 != 48).
        assert_eq!(q.loops, vec![IoDim::new(4, 48, 64), IoDim::new(3, 16, 16)]);
        let p = problem(
            Kind::Dft { sign: -1 },
            vec![IoDim::new(8, 2, 2)],
            vec![IoDim::new(4, 48, 48), IoDim::new(3, 16, 16)],
        );
        assert_eq!(normalize(&p).loops, vec![IoDim::new(12, 16, 16)]);
    }

    #[test]
    fn drops_identity_dims_only() {
        let p = problem(
            Kind::Dft { sign: 1 },
            vec![IoDim::new(1, 2, 2), IoDim::new(5, 2, 2)],
            vec![],
        );
        assert_eq!(normalize(&p).dims, vec![IoDim::new(5, 2, 2)]);
        let p = problem(
            Kind::R2c,
            vec![IoDim::new(1, 9, 9), IoDim::new(1, 1, 2)],
            vec![],
        );
        assert_eq!(normalize(&p).dims, vec![IoDim::new(1, 1, 2)]);
        let p = problem(
            Kind::R2r(vec![R2rKind::Redft10]),
            vec![IoDim::new(1, 1, 1)],
            vec![],
        );
        assert_eq!(normalize(&p).dims.len(), 1);
    }

    #[test]
    fn zero_howmany_stays_empty() {
        let p = problem(
            Kind::Dft { sign: 1 },
            vec![IoDim::new(5, 2, 2)],
            vec![IoDim::new(3, 10, 10), IoDim::new(0, 1, 1)],
        );
        assert_eq!(normalize(&p).howmany(), 0);
    }
}
