//! A small FFT code generator for the fused pass kernels (`cudagen::fused_pass`): straight-line
//! DFT codelets of up to 16 points over registers, and the mixed-radix Stockham stages a
//! pencil's transform runs in shared memory.
//!
//! A codelet is a list of SSA operations; [`Codelet::cuda`] prints it as CUDA and
//! [`Codelet::eval`] runs it in Rust, so the code the GPU runs is tested here against a direct
//! DFT (its CPU twin). Composite sizes are decimation in time by their smallest prime factor
//! (radix 2 for powers of two); a prime size is a DFT folded by its symmetry (the sums and
//! differences of `x[j]` and `x[n - j]` scaled by cosines and sines: a quarter of the
//! multiplications of the direct form).

use crate::real::Real;
use num_complex::Complex;
use std::f64::consts::PI;
use std::fmt::Write;

#[derive(Clone, Debug)]
enum COp {
    Add(usize, usize),
    Sub(usize, usize),
    /// v * (re, im), a constant.
    Mul(usize, f64, f64),
    /// v * (0, s): a quarter turn.
    MulI(usize, f64),
    /// v * c, c real.
    Scale(usize, f64),
    /// v * (0, c), c real.
    ScaleI(usize, f64),
}

#[derive(Clone, Debug)]
pub struct Codelet {
    pub size: usize,
    ops: Vec<COp>,
    /// Value index of each output (values 0..size are the inputs).
    outputs: Vec<usize>,
}

/// exp(sign * 2 pi i * k / n), with exact values on the axes.
pub fn root(sign: i32, k: usize, n: usize) -> (f64, f64) {
    let k = k % n;
    if (4 * k).is_multiple_of(n) {
        return match 4 * k / n {
            0 => (1.0, 0.0),
            1 => (0.0, sign as f64),
            2 => (-1.0, 0.0),
            _ => (0.0, -sign as f64),
        };
    }
    let a = 2.0 * PI * k as f64 / n as f64;
    (a.cos(), sign as f64 * a.sin())
}

impl Codelet {
    pub fn new(size: usize, sign: i32) -> Codelet {
        let mut c = Codelet {
            size,
            ops: Vec::new(),
            outputs: Vec::new(),
        };
        let inputs: Vec<usize> = (0..size).collect();
        c.outputs = c.dft(&inputs, sign);
        c
    }

    fn push(&mut self, op: COp) -> usize {
        self.ops.push(op);
        self.size + self.ops.len() - 1
    }

    fn times(&mut self, v: usize, (re, im): (f64, f64)) -> usize {
        match (re, im) {
            (1.0, 0.0) => v,
            (0.0, s) if s.abs() == 1.0 => self.push(COp::MulI(v, s)),
            _ => self.push(COp::Mul(v, re, im)),
        }
    }

    fn sum(&mut self, terms: &[usize]) -> usize {
        terms[1..]
            .iter()
            .fold(terms[0], |acc, &t| self.push(COp::Add(acc, t)))
    }

    fn dft(&mut self, x: &[usize], sign: i32) -> Vec<usize> {
        let n = x.len();
        if n == 1 {
            return x.to_vec();
        }
        let p = (2..=n).find(|p| n.is_multiple_of(*p)).unwrap_or(n);
        if p == n {
            return self.prime_dft(x, sign);
        }
        // n = p m: the p interleaved subsequences transformed, twiddled, and combined by
        // p-point DFTs: X[k + m q] = sum_s w_n^(s k) E_s[k] w_p^(s q).
        let m = n / p;
        let subs: Vec<Vec<usize>> = (0..p)
            .map(|s| {
                let sub: Vec<usize> = x.iter().skip(s).step_by(p).copied().collect();
                self.dft(&sub, sign)
            })
            .collect();
        let mut out = vec![0; n];
        for k in 0..m {
            let t: Vec<usize> = (0..p)
                .map(|s| self.times(subs[s][k], root(sign, s * k, n)))
                .collect();
            for (q, v) in self.dft(&t, sign).into_iter().enumerate() {
                out[k + m * q] = v;
            }
        }
        out
    }

    /// A DFT of prime length `n` by its symmetry: with a_j = x_j + x_(n-j) and
    /// b_j = x_j - x_(n-j), X_k = x_0 + sum_j a_j cos(2 pi j k / n) +- i sign sum_j b_j sin(...)
    /// for k and n - k.
    fn prime_dft(&mut self, x: &[usize], sign: i32) -> Vec<usize> {
        let n = x.len();
        if n == 2 {
            return vec![
                self.push(COp::Add(x[0], x[1])),
                self.push(COp::Sub(x[0], x[1])),
            ];
        }
        let h = (n - 1) / 2;
        let a: Vec<usize> = (1..=h)
            .map(|j| self.push(COp::Add(x[j], x[n - j])))
            .collect();
        let b: Vec<usize> = (1..=h)
            .map(|j| self.push(COp::Sub(x[j], x[n - j])))
            .collect();
        let mut out = vec![0; n];
        let mut first = vec![x[0]];
        first.extend(&a);
        out[0] = self.sum(&first);
        for k in 1..=h {
            let mut re = vec![x[0]];
            let mut im = Vec::new();
            for j in 1..=h {
                let angle = 2.0 * PI * ((j * k) % n) as f64 / n as f64;
                re.push(self.push(COp::Scale(a[j - 1], angle.cos())));
                im.push(self.push(COp::ScaleI(b[j - 1], sign as f64 * angle.sin())));
            }
            let (re, im) = (self.sum(&re), self.sum(&im));
            out[k] = self.push(COp::Add(re, im));
            out[n - k] = self.push(COp::Sub(re, im));
        }
        out
    }

    /// Runs the codelet on `x` (the CPU twin of its CUDA form) in precision `T`: the constants
    /// are rounded to `T`, as the CUDA of that precision has them.
    pub fn eval<T: Real>(&self, x: &[Complex<T>]) -> Vec<Complex<T>> {
        let mut v: Vec<Complex<T>> = x.to_vec();
        for op in &self.ops {
            let r = match *op {
                COp::Add(a, b) => v[a] + v[b],
                COp::Sub(a, b) => v[a] - v[b],
                COp::Mul(a, re, im) => v[a] * Complex::new(T::cast(re), T::cast(im)),
                COp::MulI(a, s) => {
                    let s = T::cast(s);
                    Complex::new(-s * v[a].im, s * v[a].re)
                }
                COp::Scale(a, c) => v[a] * T::cast(c),
                COp::ScaleI(a, c) => {
                    let c = T::cast(c);
                    Complex::new(-c * v[a].im, c * v[a].re)
                }
            };
            v.push(r);
        }
        self.outputs.iter().map(|&o| v[o]).collect()
    }

    /// CUDA statements: reads `{a}0..{a}{size}` (fx_cplx), writes the results back into them.
    pub fn cuda(&self, a: &str) -> String {
        let name = |i: usize| {
            if i < self.size {
                format!("{a}{i}")
            } else {
                format!("t{}", i - self.size)
            }
        };
        let mut s = String::new();
        for (k, op) in self.ops.iter().enumerate() {
            let d = format!("t{k}");
            let e = match *op {
                COp::Add(x, y) => format!("fx_c({0}.x + {1}.x, {0}.y + {1}.y)", name(x), name(y)),
                COp::Sub(x, y) => format!("fx_c({0}.x - {1}.x, {0}.y - {1}.y)", name(x), name(y)),
                COp::Mul(x, re, im) => format!(
                    "fx_c({0}.x * {1} - {0}.y * {2}, {0}.x * {2} + {0}.y * {1})",
                    name(x),
                    lit(re),
                    lit(im)
                ),
                COp::Scale(x, c) => format!("fx_c({0}.x * {1}, {0}.y * {1})", name(x), lit(c)),
                COp::ScaleI(x, c) => format!("fx_c(-({0}.y * {1}), {0}.x * {1})", name(x), lit(c)),
                COp::MulI(x, sg) => format!(
                    "fx_c({}{}.y, {}{}.x)",
                    if sg > 0.0 { "-" } else { "" },
                    name(x),
                    if sg > 0.0 { "" } else { "-" },
                    name(x)
                ),
            };
            let _ = writeln!(s, "    const fx_cplx {d} = {e};");
        }
        // Outputs may name inputs: copy through fresh values first.
        let outs: Vec<String> = self.outputs.iter().map(|&o| name(o)).collect();
        for (k, o) in outs.iter().enumerate() {
            let _ = writeln!(s, "    const fx_cplx o{k} = {o};");
        }
        for k in 0..self.size {
            let _ = writeln!(s, "    {a}{k} = o{k};");
        }
        format!("  {{\n{s}  }}\n")
    }
}

/// A constant exactly as its double, rounded to the generated source's `fx_real` (the prelude's
/// `fx_lit`).
pub fn lit(x: f64) -> String {
    format!("fx_lit(0x{:016x}ULL)", x.to_bits())
}

/// The radices of a pencil of `n` points: the fewest stages of at most 16 points each, as even
/// as possible (fewest threads per pencil); None when `n` has a prime factor over 16 or needs
/// more than five stages (it then runs through cuFFT). Five stages only 5^5 = 3125 needs among
/// the lengths a block holds (its f32 kernel: 625 threads, one pencil).
pub fn radices(n: usize) -> Option<Vec<usize>> {
    fn search(n: usize, stages: usize) -> Option<Vec<usize>> {
        if n == 1 {
            return Some(Vec::new());
        }
        if stages == 0 {
            return None;
        }
        // Prefer the radix closest to an even share of the remaining stages.
        let ideal = (n as f64).powf(1.0 / stages as f64);
        let mut cands: Vec<usize> = (2..=16.min(n)).filter(|r| n.is_multiple_of(*r)).collect();
        cands.sort_by(|a, b| {
            (*a as f64 - ideal)
                .abs()
                .total_cmp(&(*b as f64 - ideal).abs())
                .then(b.cmp(a))
        });
        for r in cands {
            if let Some(mut rest) = search(n / r, stages - 1) {
                rest.insert(0, r);
                return Some(rest);
            }
        }
        None
    }
    if n == 1 {
        return Some(vec![1]);
    }
    (1..=5).find_map(|stages| search(n, stages))
}

/// The radices of the f32 kernels' pencils of `n` points: [`radices`], or radix-25 stages first
/// (25-point codelets, 5 x 5) where they save two stages or more: 625 = 25 x 25 and
/// 3125 = 25 x 25 x 5. Standalone on an H200, binary16 pass kernels over 2^24 elements
/// (bench/results/2026-11-29-h200-half-items.md): 3125 points 0.126 -> 0.099 ms, 625 0.095 ->
/// 0.079; where one stage is saved (125 = 25 x 5) it lost (0.074 -> 0.078).
pub fn radices_f32(n: usize) -> Option<Vec<usize>> {
    let plain = radices(n);
    let stages = |r: &Option<Vec<usize>>| r.as_ref().map_or(usize::MAX, Vec::len);
    let mut best = plain.clone();
    let (mut rest, mut lead) = (n, Vec::new());
    while rest.is_multiple_of(25) {
        rest /= 25;
        lead.push(25);
        let with = match rest {
            1 => Some(lead.clone()),
            _ => radices(rest).map(|r| [lead.clone(), r].concat()),
        };
        if stages(&with).saturating_add(2) <= stages(&plain) && stages(&with) < stages(&best) {
            best = with;
        }
    }
    best
}

/// Mixed-radix Stockham autosort over one pencil, as the fused kernel computes it (its CPU
/// twin): stage `s` of radix `R` with `p` (the product of the earlier radices) takes item `i`
/// (`0 <= i < n/R`, `k = i % p`) from `x[i + r n/R]`, twiddles by exp(sign 2 pi i r k / (p R)),
/// runs an R-point codelet and writes `y[(i - k) R + k + q p]`.
pub struct Stockham {
    n: usize,
    sign: i32,
    stages: Vec<Codelet>,
}

impl Stockham {
    pub fn new(radices: &[usize], sign: i32) -> Stockham {
        Stockham {
            n: radices.iter().product(),
            sign,
            stages: radices.iter().map(|&r| Codelet::new(r, sign)).collect(),
        }
    }

    /// The transform of `x` in precision `T` (twiddles rounded to `T`, as the kernel's tables).
    pub fn run<T: Real>(&self, x: &[Complex<T>]) -> Vec<Complex<T>> {
        let n = self.n;
        let mut a = x.to_vec();
        let mut p = 1;
        for c in &self.stages {
            let r = c.size;
            let mut y = vec![Complex::<T>::default(); n];
            for i in 0..n / r {
                let k = i % p;
                let u: Vec<Complex<T>> = (0..r)
                    .map(|q| {
                        let (re, im) = root(self.sign, q * k, p * r);
                        a[i + q * n / r] * Complex::new(T::cast(re), T::cast(im))
                    })
                    .collect();
                for (q, v) in c.eval(&u).into_iter().enumerate() {
                    y[(i - k) * r + k + q * p] = v;
                }
            }
            a = y;
            p *= r;
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type C64 = Complex<f64>;

    fn direct(x: &[C64], sign: i32) -> Vec<C64> {
        let n = x.len();
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .map(|(j, &v)| {
                        let a = sign as f64 * 2.0 * PI * ((j * k) % n) as f64 / n as f64;
                        v * C64::new(a.cos(), a.sin())
                    })
                    .sum()
            })
            .collect()
    }

    fn random(n: usize, seed: u64) -> Vec<C64> {
        let mut s = seed;
        let mut r = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        (0..n).map(|_| C64::new(r(), r())).collect()
    }

    fn rel_err(a: &[C64], b: &[C64]) -> f64 {
        let d: f64 = a.iter().zip(b).map(|(x, y)| (x - y).norm_sqr()).sum();
        let s: f64 = b.iter().map(|y| y.norm_sqr()).sum();
        (d / s).sqrt()
    }

    #[test]
    fn codelets_match_a_direct_dft() {
        for n in [
            1usize, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 31, 32,
        ] {
            for sign in [-1, 1] {
                let x = random(n, n as u64 * 7 + 1);
                let e = rel_err(&Codelet::new(n, sign).eval(&x), &direct(&x, sign));
                assert!(
                    e < 1e-14 * (n as f64).log2().max(1.0),
                    "n={n} sign={sign}: {e}"
                );
            }
        }
    }

    #[test]
    fn stockham_matches_a_direct_dft() {
        for n in [
            1usize,
            2,
            7,
            16,
            40,
            64,
            96,
            128,
            256,
            500,
            512,
            1024,
            4096,
            3 * 5 * 7 * 11,
            3125,
        ] {
            let r = radices(n).unwrap();
            assert_eq!(r.iter().product::<usize>(), n);
            let x = random(n, n as u64);
            for sign in [-1, 1] {
                let e = rel_err(&Stockham::new(&r, sign).run(&x), &direct(&x, sign));
                assert!(
                    e < 1e-14 * (n as f64).log2().max(1.0),
                    "n={n} {r:?} sign={sign}: {e}"
                );
            }
        }
        assert_eq!(radices(37), None);
        assert_eq!(radices(3125), Some(vec![5; 5]));
        assert_eq!(radices(5usize.pow(6)), None, "six stages");
        assert_eq!(radices(256), Some(vec![16, 16]));
        assert_eq!(radices(512), Some(vec![8, 8, 8]));
    }

    /// The f32 kernels take radix-25 stages first where they save two stages, and the Stockham
    /// stages over them compute the DFT.
    #[test]
    fn f32_radices_take_25_where_it_saves_two_stages() {
        assert_eq!(radices_f32(3125), Some(vec![25, 25, 5]));
        assert_eq!(radices_f32(625), Some(vec![25, 25]));
        assert_eq!(radices_f32(5usize.pow(6)), Some(vec![25, 25, 25]));
        for n in [125, 25, 1000, 256, 4096, 1250, 2500] {
            assert_eq!(radices_f32(n), radices(n), "n = {n}");
        }
        for n in [625, 3125] {
            let r = radices_f32(n).unwrap();
            let x = random(n, n as u64 + 1);
            for sign in [-1, 1] {
                let e = rel_err(&Stockham::new(&r, sign).run(&x), &direct(&x, sign));
                assert!(
                    e < 1e-14 * (n as f64).log2(),
                    "n={n} {r:?} sign={sign}: {e}"
                );
            }
        }
    }

    #[test]
    fn cuda_form_names_every_value_once() {
        let s = Codelet::new(4, -1).cuda("a");
        assert!(
            s.contains("const fx_cplx o3 =") && s.contains("a3 = o3;"),
            "{s}"
        );
    }
}
