//! The meaning of the FMM-FFT's steps ([`FmmStep`], `passes::fmm`): each stage of Algorithm 1
//! of the seed (Cecka, SC17) by its definition, accumulating in f64; the CUDA kernels of the
//! same stages are compared with these.
//!
//! Every FMM applies the real cotangent kernel cot(π(n − m)/M + πp/N) between sources n and
//! targets m of the ring of M points; the far field goes through Chebyshev expansions of `Q`
//! nodes per box (interpolation on the target side, anterpolation on the source side), exact
//! between levels (a polynomial of degree Q − 1 interpolated at Q nodes).

use crate::program::{FmmGeom, FmmOp, FmmStep};
use crate::real::Real;
use std::f64::consts::PI;

/// The Chebyshev nodes of the first kind, cos((2j + 1)π / 2Q).
pub fn nodes(q: usize) -> Vec<f64> {
    (0..q)
        .map(|j| ((2 * j + 1) as f64 * PI / (2 * q) as f64).cos())
        .collect()
}

/// ℓ_i(x) for every i: the Lagrange basis over the nodes `z`.
pub fn lagrange(z: &[f64], x: f64) -> Vec<f64> {
    (0..z.len())
        .map(|i| {
            z.iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, &zk)| (x - zk) / (z[i] - zk))
                .product()
        })
        .collect()
}

/// The offsets s of the boxes b + s whose multipoles a box's M2L at `level` reads: the cousins
/// (−3, −2, 2, 3; each box uses three of them by its parity), or at the base level every
/// non-neighbour of the ring (2 ..= 2^B − 2).
pub fn m2l_offsets(g: &FmmGeom, level: u32) -> Vec<isize> {
    if level == g.base {
        (2..=(1isize << level) - 2).collect()
    } else {
        vec![-3, -2, 2, 3]
    }
}

/// ρ_p = e^(−iπp/P) sin(πp/P) / M (forward; its conjugate backward), as (re, im).
pub fn rho(g: &FmmGeom, p: usize) -> (f64, f64) {
    let a = PI * p as f64 / g.p as f64;
    let m = (g.n / g.p) as f64;
    let s = a.sin() / m;
    (a.cos() * s, g.sign as f64 * a.sin() * s)
}

/// The operator a step applies (row-major, f64), made once per program:
/// - S2M, L2T: [q][m] = ℓ_q(s_m), s_m = −1 + (2m + 1)/M_L;
/// - M2M, L2L: [q][k] for k < 2Q: ℓ_q((z_k − 1)/2), then ℓ_q((z_(k−Q) + 1)/2);
/// - S2T: [k + 2M_L − 1][p] = cot(π(p + Pk)/N) for |k| < 2M_L;
/// - M2L: [s][i][j][p − 1] = cot(π(s + (z_j − z_i)/2)/2^ℓ + πp/N) over [`m2l_offsets`];
///
/// (p innermost where the FMMs differ: the GPU's neighbouring threads, neighbouring p, read
/// neighbouring entries).
/// - post: [p] = ρ_p as (re, im).
pub fn table(step: &FmmStep) -> Vec<f64> {
    let g = &step.geom;
    let (q, ml) = (g.terms, g.leaf);
    let z = nodes(q);
    match step.op {
        FmmOp::S2m | FmmOp::L2t => {
            let mut t = vec![0.0; q * ml];
            for m in 0..ml {
                let s = -1.0 + (2 * m + 1) as f64 / ml as f64;
                for (i, l) in lagrange(&z, s).into_iter().enumerate() {
                    t[i * ml + m] = l;
                }
            }
            t
        }
        FmmOp::M2m | FmmOp::L2l => {
            let mut t = vec![0.0; q * 2 * q];
            for k in 0..2 * q {
                let x = if k < q {
                    (z[k] - 1.0) / 2.0
                } else {
                    (z[k - q] + 1.0) / 2.0
                };
                for (i, l) in lagrange(&z, x).into_iter().enumerate() {
                    t[i * 2 * q + k] = l;
                }
            }
            t
        }
        FmmOp::S2t => {
            let w = 4 * ml - 1;
            let mut t = vec![0.0; g.p * w];
            for p in 1..g.p {
                for k in 0..w {
                    let d = p as f64 + g.p as f64 * (k as f64 - (2 * ml - 1) as f64);
                    t[k * g.p + p] = 1.0 / (PI * d / g.n as f64).tan();
                }
            }
            t
        }
        FmmOp::M2l => {
            let offs = m2l_offsets(g, step.level);
            let boxes = (1u64 << step.level) as f64;
            let mut t = Vec::with_capacity((g.p - 1) * offs.len() * q * q);
            for &s in &offs {
                for zi in &z {
                    for zj in &z {
                        for p in 1..g.p {
                            let x = PI * (s as f64 + (zj - zi) / 2.0) / boxes
                                + PI * p as f64 / g.n as f64;
                            t.push(1.0 / x.tan());
                        }
                    }
                }
            }
            t
        }
        FmmOp::Post => (0..g.p)
            .flat_map(|p| {
                let (re, im) = rho(g, p);
                [re, im]
            })
            .collect(),
    }
}

/// Complex element `e` (from an origin `o` in scalars) of an interleaved slice, in f64.
#[inline]
fn get<T: Real>(x: &[T], o: isize, e: isize) -> (f64, f64) {
    let i = (o + 2 * e) as usize;
    (
        x[i].to_f64().unwrap_or(0.0),
        x[i + 1].to_f64().unwrap_or(0.0),
    )
}

#[inline]
fn put<T: Real>(x: &mut [T], e: usize, (re, im): (f64, f64)) {
    x[2 * e] = T::cast(re);
    x[2 * e + 1] = T::cast(im);
}

#[inline]
fn add<T: Real>(x: &mut [T], e: usize, (re, im): (f64, f64)) {
    let (a, b) = get(x, 0, e as isize);
    put(x, e, (a + re, b + im));
}

/// Runs the step: `src` and `dst` are exactly the scalars of its extents
/// ([`FmmStep::extents`]), `table` is [`table`]`(step)`.
pub fn apply<T: Real>(step: &FmmStep, table: &[f64], src: &[T], dst: &mut [T]) {
    let ((lo, _), _) = step.extents();
    let o = -lo;
    let g = &step.geom;
    match step.op {
        FmmOp::S2m => s2m(g, step.boxes, table, src, dst),
        FmmOp::S2t => s2t(g, step.boxes, table, src, o, dst),
        FmmOp::M2m => m2m(g, step.boxes, table, src, dst),
        FmmOp::M2l => m2l(step, table, src, o, dst),
        FmmOp::L2l => l2l(g, step.boxes, table, src, dst),
        FmmOp::L2t => l2t(g, step.boxes, table, src, dst),
        FmmOp::Post => post(g, step.boxes, table, src, dst),
    }
}

fn s2m<T: Real>(g: &FmmGeom, boxes: usize, t: &[f64], src: &[T], dst: &mut [T]) {
    let (pp, ml, q) = (g.p, g.leaf, g.terms);
    for b in 0..boxes {
        for qi in 0..q {
            for pm in 0..pp - 1 {
                let mut acc = (0.0, 0.0);
                for m in 0..ml {
                    let w = t[qi * ml + m];
                    let (re, im) = get(src, 0, ((b * ml + m) * pp + pm + 1) as isize);
                    acc = (acc.0 + w * re, acc.1 + w * im);
                }
                put(dst, (b * q + qi) * (pp - 1) + pm, acc);
            }
        }
    }
}

fn s2t<T: Real>(g: &FmmGeom, boxes: usize, t: &[f64], src: &[T], o: isize, dst: &mut [T]) {
    let (pp, ml) = (g.p, g.leaf as isize);
    for b in 0..boxes as isize {
        for i in 0..ml {
            for p in 0..pp {
                let e = ((b * ml + i) * pp as isize + p as isize) as usize;
                if p == 0 {
                    put(dst, e, get(src, o, e as isize));
                    continue;
                }
                let mut acc = (0.0, 0.0);
                for j in -ml..2 * ml {
                    let k = t[((j - i + 2 * ml - 1) * pp as isize + p as isize) as usize];
                    let (re, im) = get(src, o, (b * ml + j) * pp as isize + p as isize);
                    acc = (acc.0 + k * re, acc.1 + k * im);
                }
                put(dst, e, acc);
            }
        }
    }
}

fn m2m<T: Real>(g: &FmmGeom, boxes: usize, t: &[f64], src: &[T], dst: &mut [T]) {
    let (pm_n, q) = (g.p - 1, g.terms);
    for b in 0..boxes {
        for qi in 0..q {
            for pm in 0..pm_n {
                let mut acc = (0.0, 0.0);
                for k in 0..2 * q {
                    let w = t[qi * 2 * q + k];
                    let (re, im) = get(src, 0, ((2 * b * q + k) * pm_n + pm) as isize);
                    acc = (acc.0 + w * re, acc.1 + w * im);
                }
                put(dst, (b * q + qi) * pm_n + pm, acc);
            }
        }
    }
}

fn l2l<T: Real>(g: &FmmGeom, boxes: usize, t: &[f64], src: &[T], dst: &mut [T]) {
    let (pm_n, q) = (g.p - 1, g.terms);
    for b in 0..boxes {
        // kk: child c's coefficient qi as c·Q + qi, both children's in a row.
        for kk in 0..2 * q {
            for pm in 0..pm_n {
                let mut acc = (0.0, 0.0);
                for k in 0..q {
                    let w = t[k * 2 * q + kk];
                    let (re, im) = get(src, 0, ((b * q + k) * pm_n + pm) as isize);
                    acc = (acc.0 + w * re, acc.1 + w * im);
                }
                add(dst, (2 * b * q + kk) * pm_n + pm, acc);
            }
        }
    }
}

fn l2t<T: Real>(g: &FmmGeom, boxes: usize, t: &[f64], src: &[T], dst: &mut [T]) {
    let (pp, ml, q) = (g.p, g.leaf, g.terms);
    for b in 0..boxes {
        for m in 0..ml {
            for p in 1..pp {
                let mut acc = (0.0, 0.0);
                for qi in 0..q {
                    let w = t[qi * ml + m];
                    let (re, im) = get(src, 0, ((b * q + qi) * (pp - 1) + p - 1) as isize);
                    acc = (acc.0 + w * re, acc.1 + w * im);
                }
                add(dst, (b * ml + m) * pp + p, acc);
            }
        }
    }
}

fn m2l<T: Real>(step: &FmmStep, t: &[f64], src: &[T], o: isize, dst: &mut [T]) {
    let g = &step.geom;
    let (pm_n, q) = (g.p - 1, g.terms);
    let offs = m2l_offsets(g, step.level);
    let base = step.level == g.base;
    let ring = 1usize << step.level;
    for b in 0..step.boxes {
        let gb = step.first + b;
        // (index in the table, the source box relative to `src`'s box 0)
        let uses: Vec<(usize, isize)> = offs
            .iter()
            .enumerate()
            .filter(|&(_, &s)| {
                base || (if gb.is_multiple_of(2) {
                    s >= -2
                } else {
                    s <= 2
                })
            })
            .map(|(si, &s)| {
                let from = if base {
                    ((gb as isize + s) as usize % ring) as isize
                } else {
                    b as isize + s
                };
                (si, from)
            })
            .collect();
        for i in 0..q {
            for pm in 0..pm_n {
                let mut acc = (0.0, 0.0);
                for &(si, from) in &uses {
                    let row = (si * q + i) * q;
                    for j in 0..q {
                        let w = t[(row + j) * pm_n + pm];
                        let e = (from * q as isize + j as isize) * pm_n as isize + pm as isize;
                        let (re, im) = get(src, o, e);
                        acc = (acc.0 + w * re, acc.1 + w * im);
                    }
                }
                put(dst, (b * q + i) * pm_n + pm, acc);
            }
        }
    }
}

fn post<T: Real>(g: &FmmGeom, boxes: usize, t: &[f64], ring: &[T], dst: &mut [T]) {
    let (pp, pm_n, q) = (g.p, g.p - 1, g.terms);
    let mut r = vec![(0.0, 0.0); pm_n];
    for bq in 0..(1usize << g.base) * q {
        for (pm, acc) in r.iter_mut().enumerate() {
            let (re, im) = get(ring, 0, (bq * pm_n + pm) as isize);
            *acc = (acc.0 + re, acc.1 + im);
        }
    }
    // Forward: ρ(v + i r); backward: conj(ρ)(v − i r) (`table` holds the right ρ).
    let s = -(g.sign as f64);
    for pt in 0..boxes * g.leaf {
        for p in 1..pp {
            let e = pt * pp + p;
            let (vr, vi) = get(dst, 0, e as isize);
            let (rr, ri) = r[p - 1];
            let (ar, ai) = (vr - s * ri, vi + s * rr);
            let (pr, pi) = (t[2 * p], t[2 * p + 1]);
            put(dst, e, (ar * pr - ai * pi, ar * pi + ai * pr));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::At;
    use rand::{Rng, SeedableRng};

    fn geom(p: usize, leaf: usize, terms: usize, boxes: usize) -> FmmGeom {
        FmmGeom {
            n: p * leaf * boxes,
            p,
            leaf,
            terms,
            base: boxes.trailing_zeros(),
            sign: -1,
        }
    }

    fn step(op: FmmOp, g: FmmGeom, boxes: usize, level: u32) -> FmmStep {
        let at = |buf| At { buf, offset: 0 };
        FmmStep {
            op,
            geom: g,
            src: at(2),
            dst: at(3),
            boxes,
            level,
            first: 0,
            stream: 0,
        }
    }

    fn random(len: usize, seed: u64) -> Vec<f64> {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        (0..len).map(|_| rng.gen_range(-1.0..1.0)).collect()
    }

    fn run(s: &FmmStep, src: &[f64], dst: &mut [f64]) {
        apply(s, &table(s), src, dst);
    }

    #[test]
    fn the_basis_is_a_partition_of_unity_and_interpolates_at_the_nodes() {
        let z = nodes(9);
        for x in [-1.0, -0.3, 0.0, 0.77, 1.0] {
            assert!((lagrange(&z, x).iter().sum::<f64>() - 1.0).abs() < 1e-13);
        }
        let l = lagrange(&z, z[4]);
        for (i, v) in l.iter().enumerate() {
            assert!((v - f64::from(u8::from(i == 4))).abs() < 1e-14);
        }
    }

    /// M2M of two children's S2M is the S2M of their parent box (twice the points): exact.
    #[test]
    fn m2m_of_the_children_is_the_parents_s2m() {
        let (gc, gp) = (geom(3, 8, 6, 4), geom(3, 16, 6, 2));
        let src = random(2 * gc.data_box() * 2, 1);
        let mut children = vec![0.0; 2 * gc.exp_box() * 2];
        run(&step(FmmOp::S2m, gc, 2, 2), &src, &mut children);
        let mut parent = vec![0.0; 2 * gp.exp_box()];
        run(&step(FmmOp::M2m, gc, 1, 1), &children, &mut parent);
        let mut direct = vec![0.0; 2 * gp.exp_box()];
        run(&step(FmmOp::S2m, gp, 1, 1), &src, &mut direct);
        for (a, b) in parent.iter().zip(&direct) {
            assert!((a - b).abs() < 1e-12, "{a} {b}");
        }
    }

    /// One level (the base, 4 boxes, one device): S2T + L2T(M2L(S2M)) is the cotangent kernel
    /// applied densely, for every FMM p ≥ 1; p = 0 passes through.
    #[test]
    fn near_and_far_fields_apply_the_cotangent_kernel() {
        let (p, leaf, boxes) = (3, 10, 4);
        let g = geom(p, leaf, 16, boxes);
        let (d, m) = (g.data_box(), g.n / p);
        let data = random(2 * g.n, 2);
        // Sources with one halo box each side (the ring's wrap).
        let mut src = data[2 * (g.n - d)..].to_vec();
        src.extend_from_slice(&data);
        src.extend_from_slice(&data[..2 * d]);
        let mut ring = vec![0.0; 2 * g.exp_box() * boxes];
        run(&step(FmmOp::S2m, g, boxes, 2), &data, &mut ring);
        let mut local = vec![0.0; ring.len()];
        run(&step(FmmOp::M2l, g, boxes, 2), &ring, &mut local);
        let mut tgt = vec![0.0; 2 * g.n];
        run(&step(FmmOp::S2t, g, boxes, 2), &src, &mut tgt);
        run(&step(FmmOp::L2t, g, boxes, 2), &local, &mut tgt);
        let (mut num, mut den) = (0.0f64, 0.0f64);
        for t in 0..m {
            for q in 0..p {
                for part in 0..2 {
                    let want = if q == 0 {
                        data[2 * t * p + part]
                    } else {
                        (0..m)
                            .map(|s| {
                                let x = PI * (s as f64 - t as f64) / m as f64
                                    + PI * q as f64 / g.n as f64;
                                data[2 * (s * p + q) + part] / x.tan()
                            })
                            .sum()
                    };
                    num += (tgt[2 * (t * p + q) + part] - want).powi(2);
                    den += want * want;
                }
            }
        }
        let err = (num / den).sqrt();
        assert!(err < 1e-12, "{err:e}");
    }
}
