//! A 1-D DFT too long for one pass kernel, as batched passes over the digits of its length
//! n = f_1 f_2 ... f_k (the four-step algorithm applied recursively), each pass a length that
//! one pass kernel takes (`pencil::fused_shape`).
//!
//! The input index is j = j_1 M_1 + ... + j_k M_k (M_i = f_{i+1} ... f_k, M_k = 1) and the
//! output index is kk = k_1 + k_2 F_1 + ... + k_k F_{k-1} (F_i = f_1 ... f_i). Pass i (i < k)
//! transforms digit j_i of every pencil (k_1 .. k_{i-1} already transformed, the rest
//! r = j_{i+1} M_{i+1} + ... + j_k < M_i), multiplies output k_i by w_{N_i}^{k_i r}
//! (N_i = f_i M_i) and writes it where j_i was: passes 1 .. k-1 go from the input to a scratch
//! and within it, in place pencil by pencil. The last pass transforms the contiguous digit j_k
//! and writes the output in order. Every pass reads or writes pencils `M_i` apart, so its
//! pencils (the rest digit first) are adjacent in memory: a block's pencils cover whole
//! 32-byte sectors where the kernel takes enough of them, which is what [`MultiPass::choose`]
//! weighs.
//!
//! [`MultiPass::run`] runs the same passes on the CPU (the GPU kernels' twin).

use super::pencil::{fused_shape, strided_shape, STATIC_SHARED};
use crate::problem::Precision;
use num_complex::Complex;

/// The digits of a length, in pass order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiPass {
    pub factors: Vec<usize>,
}

/// The outputs' factor of pass `i < k`: output `k_i` of the pencil whose rest digit is `r`
/// (`r = b mod rest`, b the pencil, the rest digit its fastest) is multiplied by
/// w_n^(sign k_i r).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Twiddle {
    pub n: usize,
    pub rest: usize,
}

/// One pass: transforms of `n` points along element strides given innermost first as
/// (length, stride), the pass's axis first and then the pencil digits (the same digits, in
/// the same order, on both sides), in elements of the natural layout (the input's and the
/// scratch's: the input index j) or of the output (kk).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigitPass {
    pub n: usize,
    pub load: Vec<(usize, usize)>,
    pub store: Vec<(usize, usize)>,
    pub twiddle: Option<Twiddle>,
}

impl DigitPass {
    pub fn pencils(&self) -> usize {
        self.load[1..].iter().map(|d| d.0).product()
    }
}

/// The bytes a complex element takes in the caller's arrays and in the scratch, for
/// [`MultiPass::choose`]'s estimate.
#[derive(Clone, Copy, Debug)]
pub struct ElementBytes {
    pub user: usize,
    pub scratch: usize,
}

impl MultiPass {
    /// A split of `n` into `factors`, when each is a pass kernel's length (in f32) and there
    /// are at least two.
    pub fn new(n: usize, factors: Vec<usize>) -> Option<MultiPass> {
        let ok = factors.len() >= 2
            && factors.iter().product::<usize>() == n
            && factors
                .iter()
                .all(|&f| f >= 2 && fused_shape(f, Precision::F32).is_some());
        ok.then_some(MultiPass { factors })
    }

    /// The split of `n` into two or three pass lengths that moves the fewest bytes, counting a
    /// strided side's accesses at the 32-byte sectors they touch: a pass kernel's block takes
    /// `strided_shape`'s pencils, adjacent in memory, so a strided access covers that many
    /// elements of a sector. Among splits of equal cost, the one of the fewest Stockham stages
    /// over its passes (each a shared-memory round trip and a barrier), then of the fewest
    /// passes, then of the smallest first length: on an H200 (binary16 storage, 2026-11-29) the
    /// stages picked the fastest of the tied splits every time, 65536 as 256 x 256 (0.155 ms
    /// against 128 x 512's 0.187), 10^6 as 1000 x 1000 (0.248 against 800 x 1250's 0.286),
    /// 49152 as 192 x 256, 16384 as 64 x 256 (128 x 128, as few stages: 0.198), 15625 as
    /// 25 x 625 (bench/results/2026-11-29-h200-half-splits.md). None when no split exists (a
    /// prime factor over 16).
    pub fn choose(n: usize, bytes: ElementBytes) -> Option<MultiPass> {
        let lengths: Vec<usize> = (2..=4096.min(n / 2))
            .filter(|f| n.is_multiple_of(*f) && fused_shape(*f, Precision::F32).is_some())
            .collect();
        let mut splits: Vec<Vec<usize>> = Vec::new();
        for &a in &lengths {
            for &b in &lengths {
                if a * b == n {
                    splits.push(vec![a, b]);
                }
                if n.is_multiple_of(a * b) && lengths.contains(&(n / (a * b))) {
                    splits.push(vec![a, b, n / (a * b)]);
                }
            }
        }
        splits
            .into_iter()
            .filter_map(|f| MultiPass::new(n, f))
            .map(|m| (m.cost(bytes), m.stages(), m))
            .min_by(|a, b| {
                a.0.total_cmp(&b.0)
                    .then(a.1.cmp(&b.1))
                    .then(a.2.factors.len().cmp(&b.2.factors.len()))
            })
            .map(|(_, _, m)| m)
    }

    /// The Stockham stages of all the passes' kernels, a radix over 16 (25: 5 x 5 in
    /// registers) counted as the two it computes: with the binary16 scratch on an H200, 10^6
    /// as 100 x 100 x 100 (6 stages) took 0.217 ms, as 10 x 160 x 625 (5 with 625 = 25 x 25
    /// counted once) 0.258 (bench/results/2026-11-29-h200-half-items.md).
    fn stages(&self) -> usize {
        self.factors
            .iter()
            .map(|&f| {
                strided_shape(f, Precision::F32, STATIC_SHARED).map_or(usize::MAX / 8, |s| {
                    s.radices.iter().map(|&r| if r > 16 { 2 } else { 1 }).sum()
                })
            })
            .sum()
    }

    /// Bytes an element costs over the passes: each side's bytes over the share of the
    /// 32-byte sectors it touches that it uses.
    pub fn cost(&self, bytes: ElementBytes) -> f64 {
        let side = |size: usize, run: usize| {
            let used = (size * run).min(32) as f64 / 32.0;
            size as f64 / used
        };
        let last = self.factors.len() - 1;
        self.passes()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let pb = strided_shape(p.n, Precision::F32, STATIC_SHARED).map_or(1, |s| s.pencils);
                let (load_size, store_size) = (
                    if i == 0 { bytes.user } else { bytes.scratch },
                    if i == last { bytes.user } else { bytes.scratch },
                );
                let run = |order: &[(usize, usize)]| {
                    if order[0].1 == 1 {
                        usize::MAX / 64
                    } else if order[1].1 == 1 {
                        pb.min(order[1].0)
                    } else {
                        1
                    }
                };
                side(load_size, run(&p.load)) + side(store_size, run(&p.store))
            })
            .sum()
    }

    /// The passes, in order (see the module's documentation).
    pub fn passes(&self) -> Vec<DigitPass> {
        let f = &self.factors;
        let k = f.len();
        // m[i] = f_{i+1} ... f_k (0-based: the stride of digit i), fp[i] = f_1 ... f_i.
        let m: Vec<usize> = (0..k).map(|i| f[i + 1..].iter().product()).collect();
        let fp: Vec<usize> = (0..k).map(|i| f[..i].iter().product()).collect();
        let done: Vec<(usize, usize)> = (0..k).map(|i| (f[i], m[i])).collect();
        let mut out = Vec::new();
        for i in 0..k - 1 {
            let mut order = vec![(f[i], m[i]), (m[i], 1)];
            order.extend_from_slice(&done[..i]);
            out.push(DigitPass {
                n: f[i],
                load: order.clone(),
                store: order,
                twiddle: Some(Twiddle {
                    n: f[i] * m[i],
                    rest: m[i],
                }),
            });
        }
        let mut load = vec![(f[k - 1], 1)];
        load.extend_from_slice(&done[..k - 1]);
        let mut store = vec![(f[k - 1], fp[k - 1])];
        store.extend((0..k - 1).map(|i| (f[i], fp[i])));
        out.push(DigitPass {
            n: f[k - 1],
            load,
            store,
            twiddle: None,
        });
        out
    }

    /// The passes on the CPU, as the GPU runs them (the kernels' twin): `x` (n elements) into
    /// `out` through `scratch` (n elements), DFTs of sign `sign`; `stored` gives what the
    /// scratch holds of a value written to it (the half kernels' scratch rounds to binary16).
    pub fn run<T: rustfft::FftNum>(
        &self,
        sign: i32,
        x: &[Complex<T>],
        out: &mut [Complex<T>],
        scratch: &mut [Complex<T>],
        stored: impl Fn(Complex<T>) -> Complex<T>,
    ) {
        let passes = self.passes();
        let last = passes.len() - 1;
        let mut planner = rustfft::FftPlanner::<T>::new();
        let dir = if sign < 0 {
            rustfft::FftDirection::Forward
        } else {
            rustfft::FftDirection::Inverse
        };
        for (i, p) in passes.iter().enumerate() {
            let fft = planner.plan_fft(p.n, dir);
            let mut pencil = vec![Complex::new(T::zero(), T::zero()); p.n];
            for b in 0..p.pencils() {
                let at = |order: &[(usize, usize)], j: usize| {
                    let (mut pos, mut c) = (j * order[0].1, b);
                    for &(len, stride) in &order[1..] {
                        pos += (c % len) * stride;
                        c /= len;
                    }
                    pos
                };
                for (j, v) in pencil.iter_mut().enumerate() {
                    *v = if i == 0 { x } else { &*scratch }[at(&p.load, j)];
                }
                fft.process(&mut pencil);
                for (j, v) in pencil.iter().enumerate() {
                    let mut v = *v;
                    if let Some(t) = p.twiddle {
                        let (re, im) = super::fftgen::root(sign, j * (b % t.rest), t.n);
                        v = v * Complex::new(T::from_f64(re).unwrap(), T::from_f64(im).unwrap());
                    }
                    let pos = at(&p.store, j);
                    if i == last {
                        out[pos] = v;
                    } else {
                        scratch[pos] = stored(v);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(n: usize, seed: u64) -> Vec<Complex<f64>> {
        let mut s = seed;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        (0..n).map(|_| Complex::new(next(), next())).collect()
    }

    /// The passes compute the DFT in order, for two and three digits, both signs, against a
    /// direct DFT in f64 (error relative to the output's norm, scaled by log2 n).
    #[test]
    fn digit_passes_compute_the_dft() {
        for (factors, sign) in [
            (vec![4, 6], -1),
            (vec![12, 5], 1),
            (vec![3, 16, 4], -1),
            (vec![10, 10, 10], 1),
            (vec![7, 2, 9], -1),
        ] {
            let n: usize = factors.iter().product();
            let m = MultiPass::new(n, factors.clone()).unwrap();
            let x = random(n, n as u64);
            let (mut out, mut scratch) = (vec![Complex::default(); n], vec![Complex::default(); n]);
            m.run(sign, &x, &mut out, &mut scratch, |v| v);
            let mut err = 0.0;
            let mut norm = 0.0;
            for (k, o) in out.iter().enumerate() {
                let mut s = Complex::new(0.0, 0.0);
                for (j, v) in x.iter().enumerate() {
                    let a =
                        sign as f64 * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                    s += v * Complex::new(a.cos(), a.sin());
                }
                err += (o - s).norm_sqr();
                norm += s.norm_sqr();
            }
            let rel = (err / norm).sqrt();
            assert!(
                rel < 1e-15 * (n as f64).log2(),
                "{factors:?} sign {sign}: {rel}"
            );
        }
    }

    /// Pass orders: the strided passes' pencils have the rest digit first (adjacent in
    /// memory), and the last pass writes the output in order.
    #[test]
    fn digit_pass_orders() {
        let m = MultiPass::new(60, vec![3, 4, 5]).unwrap();
        let p = m.passes();
        assert_eq!(p[0].load, vec![(3, 20), (20, 1)]);
        assert_eq!(p[0].twiddle, Some(Twiddle { n: 60, rest: 20 }));
        assert_eq!(p[1].load, vec![(4, 5), (5, 1), (3, 20)]);
        assert_eq!(p[1].twiddle, Some(Twiddle { n: 20, rest: 5 }));
        assert_eq!(p[2].load, vec![(5, 1), (3, 20), (4, 5)]);
        assert_eq!(p[2].store, vec![(5, 12), (3, 1), (4, 3)]);
        assert_eq!(p[2].twiddle, None);
        assert!(p.iter().all(|p| p.pencils() * p.n == 60));
        assert!(MultiPass::new(60, vec![60]).is_none());
        assert!(
            MultiPass::new(34, vec![2, 17]).is_none(),
            "17 has no pass kernel"
        );
    }

    /// The chosen splits: two passes where both strided sides fill sectors (on the H100 every
    /// three-pass split measured slower than the best two-pass one, and these were the best or
    /// within 4% of it: bench/results/2026-11-28-h100-half-digit-passes.md); none with a prime
    /// factor over 16; a pass of 4000 points (one pencil a block, so 4-byte pieces of
    /// sectors in its strided stores) costs more than 1000 x 1000.
    #[test]
    fn splits_weigh_the_sectors_touched() {
        let bytes = ElementBytes {
            user: 4,
            scratch: 8,
        };
        let f = |n| MultiPass::choose(n, bytes).map(|m| m.factors);
        // The splits measured fastest on an H200 (2026-11-29), ties of the byte count broken
        // by the stages: 96 x 512 and 192 x 256 cost the same bytes, 5 and 4 stages.
        for (n, split) in [
            (3usize << 14, vec![192, 256]),
            (1 << 14, vec![64, 256]),
            (1 << 16, vec![256, 256]),
            (1 << 18, vec![512, 512]),
            (1 << 20, vec![1024, 1024]),
            (3 << 18, vec![768, 1024]),
            (15625, vec![25, 625]),
            (390625, vec![625, 625]),
            (1_000_000, vec![1000, 1000]),
        ] {
            assert_eq!(f(n), Some(split), "n = {n}");
        }
        let stages = |f: Vec<usize>| MultiPass::new(f.iter().product(), f).unwrap().stages();
        assert_eq!((stages(vec![96, 512]), stages(vec![192, 256])), (5, 4));
        assert!(f(17 * 4096).is_none());
        let cost = |f: Vec<usize>| MultiPass::new(1_000_000, f).unwrap().cost(bytes);
        assert!(cost(vec![1000, 1000]) < cost(vec![250, 4000]));
        assert!(cost(vec![1000, 1000]) < cost(vec![100, 100, 100]));
        assert_eq!(f(1_000_000).unwrap().len(), 2);
    }
}
