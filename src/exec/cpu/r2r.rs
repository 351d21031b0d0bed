//! FFTW's eleven real-to-real kinds as 1-D operations on a contiguous line, with FFTW's
//! definitions and normalisation (FFTW manual §4.8): rustdct for the DCT/DST family but
//! REDFT00, the half-length real FFT of `rfft` for R2HC/HC2R/DHT and for REDFT00 (the real DFT
//! of the even extension, as FFTW's `reodft00e-r2hc-pad`: rustdct's DCT-I takes a complex FFT
//! of that length, which made 513 x 513 1.13-1.16x FFTW's time).

use super::rfft::Rfft;
use crate::problem::R2rKind;
use crate::real::Real;
use num_complex::Complex;
use rustdct::{Dst1, TransformType2And3, TransformType4};
use std::sync::Arc;

/// Scratch for [`R2rOp::apply`].
#[derive(Default)]
pub struct R2rScratch<T>(Vec<T>);

pub enum R2rOp<T: Real> {
    R2hc(Rfft<T>),
    Hc2r(Rfft<T>),
    Dht(Rfft<T>),
    /// The real FFT of length 2(n - 1).
    Redft00(Rfft<T>),
    Rodft00(Arc<dyn Dst1<T>>),
    /// DCT-II / DCT-III / DST-II / DST-III share one algorithm object.
    Type23(R2rKind, Arc<dyn TransformType2And3<T>>),
    Type4(R2rKind, Arc<dyn TransformType4<T>>),
}

impl<T: Real> R2rOp<T> {
    pub fn new(kind: R2rKind, n: usize) -> Self {
        let p = T::planners();
        match kind {
            R2rKind::R2hc => R2rOp::R2hc(Rfft::new(n, true)),
            R2rKind::Hc2r => R2rOp::Hc2r(Rfft::new(n, false)),
            R2rKind::Dht => R2rOp::Dht(Rfft::new(n, true)),
            R2rKind::Redft00 => R2rOp::Redft00(Rfft::new(2 * (n - 1), true)),
            R2rKind::Rodft00 => R2rOp::Rodft00(p.dct.lock().plan_dst1(n)),
            R2rKind::Redft10 | R2rKind::Redft01 => R2rOp::Type23(kind, p.dct.lock().plan_dct2(n)),
            R2rKind::Rodft10 | R2rKind::Rodft01 => R2rOp::Type23(kind, p.dct.lock().plan_dst2(n)),
            R2rKind::Redft11 => R2rOp::Type4(kind, p.dct.lock().plan_dct4(n)),
            R2rKind::Rodft11 => R2rOp::Type4(kind, p.dct.lock().plan_dst4(n)),
        }
    }

    #[allow(clippy::len_without_is_empty)] // a transform is never empty
    pub fn len(&self) -> usize {
        match self {
            R2rOp::R2hc(f) | R2rOp::Hc2r(f) | R2rOp::Dht(f) => f.len(),
            R2rOp::Redft00(f) => f.len() / 2 + 1,
            R2rOp::Rodft00(t) => t.len(),
            R2rOp::Type23(_, t) => t.len(),
            R2rOp::Type4(_, t) => t.len(),
        }
    }

    /// Real scalars of scratch [`R2rOp::apply`] needs.
    pub fn scratch_len(&self) -> usize {
        match self {
            // the spectrum (n/2+1 complex), the real FFT's scratch, and for HC2R its output row
            R2rOp::R2hc(f) | R2rOp::Dht(f) => 2 * (f.len() / 2 + 1) + 2 * f.scratch_len(),
            R2rOp::Hc2r(f) => 2 * (f.len() / 2 + 1) + 2 * f.scratch_len() + f.len(),
            // the even extension (2(n - 1) reals), its spectrum (n complex), the FFT's scratch
            R2rOp::Redft00(f) => f.len() + 2 * (f.len() / 2 + 1) + 2 * f.scratch_len(),
            R2rOp::Rodft00(t) => t.get_scratch_len(),
            R2rOp::Type23(_, t) => t.get_scratch_len(),
            R2rOp::Type4(_, t) => t.get_scratch_len(),
        }
    }

    /// Transforms each of the `count` contiguous lines of `lines` in place.
    pub fn apply(&self, lines: &mut [T], count: usize, s: &mut R2rScratch<T>) {
        if count == 0 {
            return;
        }
        s.0.resize(self.scratch_len(), T::zero());
        for line in lines.chunks_exact_mut(lines.len() / count) {
            self.apply_line(line, &mut s.0);
        }
    }

    /// Transforms the contiguous line `x` in place. `s` holds at least `scratch_len()` reals.
    pub fn apply_line(&self, x: &mut [T], s: &mut [T]) {
        let n = x.len();
        let two = T::cast(2.0);
        match self {
            R2rOp::R2hc(f) | R2rOp::Dht(f) => {
                let h = n / 2 + 1;
                let (c, rest) = split_complex(s, h);
                let (fs, _) = split_complex(rest, f.scratch_len());
                f.forward(x, c, fs);
                if matches!(self, R2rOp::R2hc(_)) {
                    // Halfcomplex: r0, r1, ..., r_{n/2}, i_{(n+1)/2-1}, ..., i1.
                    for k in 0..h {
                        x[k] = c[k].re;
                    }
                    for k in 1..n.div_ceil(2) {
                        x[n - k] = c[k].im;
                    }
                } else {
                    // DHT: Re F - Im F with F the forward DFT; F_{n-k} = conj F_k.
                    for k in 0..h {
                        x[k] = c[k].re - c[k].im;
                    }
                    for k in h..n {
                        x[k] = c[n - k].re + c[n - k].im;
                    }
                }
            }
            R2rOp::Hc2r(f) => {
                let h = n / 2 + 1;
                let (spec, rest) = split_complex(s, h);
                let (fs, rest) = split_complex(rest, f.scratch_len());
                spec[0] = Complex::new(x[0], T::zero());
                for k in 1..h {
                    let im = if n - k > k { x[n - k] } else { T::zero() };
                    spec[k] = Complex::new(x[k], im);
                }
                let out = &mut rest[..n];
                f.inverse(spec, out, fs);
                x.copy_from_slice(out);
            }
            R2rOp::Redft00(f) => {
                // x0 .. x_{n-1}, x_{n-2} .. x1: its DFT is real, Y_k in its first n entries.
                let (ext, rest) = s.split_at_mut(f.len());
                ext[..n].copy_from_slice(x);
                for j in 1..n - 1 {
                    ext[2 * (n - 1) - j] = x[j];
                }
                let (c, rest) = split_complex(rest, n);
                let (fs, _) = split_complex(rest, f.scratch_len());
                f.forward(ext, c, fs);
                for (y, c) in x.iter_mut().zip(c.iter()) {
                    *y = c.re;
                }
            }
            R2rOp::Rodft00(t) => {
                // rustdct's DST-I leaves two entries of its FFT buffer unwritten and expects
                // them zero: scratch reused from the previous line must be cleared.
                let s = &mut s[..t.get_scratch_len()];
                s.iter_mut().for_each(|v| *v = T::zero());
                t.process_dst1_with_scratch(x, s);
                scale(x, two);
            }
            R2rOp::Type23(kind, t) => {
                let s = &mut s[..t.get_scratch_len()];
                match kind {
                    R2rKind::Redft10 => t.process_dct2_with_scratch(x, s),
                    R2rKind::Redft01 => t.process_dct3_with_scratch(x, s),
                    R2rKind::Rodft10 => t.process_dst2_with_scratch(x, s),
                    _ => t.process_dst3_with_scratch(x, s),
                }
                scale(x, two);
            }
            R2rOp::Type4(kind, t) => {
                let s = &mut s[..t.get_scratch_len()];
                match kind {
                    R2rKind::Redft11 => t.process_dct4_with_scratch(x, s),
                    _ => t.process_dst4_with_scratch(x, s),
                }
                scale(x, two);
            }
        }
    }
}

/// The first `len` complex numbers of a real scratch slice, and the rest of it.
fn split_complex<T>(s: &mut [T], len: usize) -> (&mut [Complex<T>], &mut [T]) {
    let (a, b) = s.split_at_mut(2 * len);
    // SAFETY: 2*len reals are len complex numbers (repr(C), alignment of T).
    let a = unsafe { std::slice::from_raw_parts_mut(a.as_mut_ptr() as *mut Complex<T>, len) };
    (a, b)
}

fn scale<T: Real>(x: &mut [T], f: T) {
    for v in x {
        *v = *v * f;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// REDFT00 by the real FFT of the even extension equals FFTW's definition, summed
    /// directly: Y_k = X_0 + (-1)^k X_{n-1} + 2 sum_{j=1}^{n-2} X_j cos(pi j k / (n-1)).
    #[test]
    fn redft00_is_fftws_dct_i() {
        for n in (2..=40).chain([63, 64, 65, 257, 513, 1000]) {
            let x: Vec<f64> = (0..n).map(|j| ((j * 7 + 3) as f64 * 0.37).sin()).collect();
            let want: Vec<f64> = (0..n)
                .map(|k| {
                    let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                    let inner: f64 = (1..n - 1)
                        .map(|j| {
                            let angle = std::f64::consts::PI * (j * k) as f64 / (n - 1) as f64;
                            2.0 * x[j] * angle.cos()
                        })
                        .sum();
                    x[0] + sign * x[n - 1] + inner
                })
                .collect();
            let op = R2rOp::<f64>::new(R2rKind::Redft00, n);
            assert_eq!(op.len(), n);
            let mut got = x.clone();
            // Twice on the same scratch: a line must not depend on what the last one left.
            let mut s = R2rScratch::default();
            op.apply(&mut got, 1, &mut s);
            let mut again = x.clone();
            op.apply(&mut again, 1, &mut s);
            assert_eq!(got, again);
            let top = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let err = (got.iter().zip(&want)).fold(0.0f64, |m, (g, w)| m.max((g - w).abs()));
            let tol = 1e-15 * (n as f64).log2().max(1.0) * 8.0;
            assert!(err / top < tol, "n = {n}: {:e}", err / top);
        }
    }
}
