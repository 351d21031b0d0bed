//! FFTW's eleven real-to-real kinds as 1-D operations on a contiguous line, with FFTW's
//! definitions and normalisation (FFTW manual §4.8): rustdct for the DCT/DST family, realfft for
//! R2HC/HC2R/DHT.

use crate::problem::R2rKind;
use crate::real::Real;
use num_complex::Complex;
use realfft::{ComplexToReal, RealToComplex};
use rustdct::{Dct1, Dst1, TransformType2And3, TransformType4};
use std::sync::Arc;

pub enum R2rOp<T: Real> {
    R2hc(Arc<dyn RealToComplex<T>>),
    Hc2r(Arc<dyn ComplexToReal<T>>),
    Dht(Arc<dyn RealToComplex<T>>),
    Redft00(Arc<dyn Dct1<T>>),
    Rodft00(Arc<dyn Dst1<T>>),
    /// DCT-II / DCT-III / DST-II / DST-III share one algorithm object.
    Type23(R2rKind, Arc<dyn TransformType2And3<T>>),
    Type4(R2rKind, Arc<dyn TransformType4<T>>),
}

/// Per-worker scratch for [`R2rOp::apply`].
#[derive(Default)]
pub struct R2rScratch<T> {
    real: Vec<T>,
    spectrum: Vec<Complex<T>>,
    complex: Vec<Complex<T>>,
}

impl<T: Real> R2rOp<T> {
    pub fn new(kind: R2rKind, n: usize) -> Self {
        let p = T::planners();
        match kind {
            R2rKind::R2hc => R2rOp::R2hc(p.real.lock().plan_fft_forward(n)),
            R2rKind::Hc2r => R2rOp::Hc2r(p.real.lock().plan_fft_inverse(n)),
            R2rKind::Dht => R2rOp::Dht(p.real.lock().plan_fft_forward(n)),
            R2rKind::Redft00 => R2rOp::Redft00(p.dct.lock().plan_dct1(n)),
            R2rKind::Rodft00 => R2rOp::Rodft00(p.dct.lock().plan_dst1(n)),
            R2rKind::Redft10 | R2rKind::Redft01 => R2rOp::Type23(kind, p.dct.lock().plan_dct2(n)),
            R2rKind::Rodft10 | R2rKind::Rodft01 => R2rOp::Type23(kind, p.dct.lock().plan_dst2(n)),
            R2rKind::Redft11 => R2rOp::Type4(kind, p.dct.lock().plan_dct4(n)),
            R2rKind::Rodft11 => R2rOp::Type4(kind, p.dct.lock().plan_dst4(n)),
        }
    }

    /// Transforms each of the `count` contiguous lines of `lines` in place.
    pub fn apply(&self, lines: &mut [T], count: usize, s: &mut R2rScratch<T>) {
        if count == 0 {
            return;
        }
        let n = lines.len() / count;
        for line in lines.chunks_exact_mut(n) {
            self.apply_line(line, s);
        }
    }

    fn apply_line(&self, x: &mut [T], s: &mut R2rScratch<T>) {
        let n = x.len();
        let two = T::cast(2.0);
        match self {
            R2rOp::R2hc(fft) | R2rOp::Dht(fft) => {
                let h = n / 2 + 1;
                s.spectrum.resize(h, Complex::default());
                s.complex.resize(fft.get_scratch_len(), Complex::default());
                fft.process_with_scratch(x, &mut s.spectrum, &mut s.complex)
                    .expect("lengths set by plan");
                let c = &s.spectrum;
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
            R2rOp::Hc2r(fft) => {
                let h = n / 2 + 1;
                s.spectrum.resize(h, Complex::default());
                s.complex.resize(fft.get_scratch_len(), Complex::default());
                s.spectrum[0] = Complex::new(x[0], T::zero());
                for k in 1..h {
                    let im = if n - k > k { x[n - k] } else { T::zero() };
                    s.spectrum[k] = Complex::new(x[k], im);
                }
                s.real.resize(n, T::zero());
                fft.process_with_scratch(&mut s.spectrum, &mut s.real, &mut s.complex)
                    .expect("lengths set by plan");
                x.copy_from_slice(&s.real);
            }
            R2rOp::Redft00(t) => {
                fresh(&mut s.real, t.get_scratch_len());
                t.process_dct1_with_scratch(x, &mut s.real);
                scale(x, two);
            }
            R2rOp::Rodft00(t) => {
                fresh(&mut s.real, t.get_scratch_len());
                t.process_dst1_with_scratch(x, &mut s.real);
                scale(x, two);
            }
            R2rOp::Type23(kind, t) => {
                fresh(&mut s.real, t.get_scratch_len());
                match kind {
                    R2rKind::Redft10 => t.process_dct2_with_scratch(x, &mut s.real),
                    R2rKind::Redft01 => t.process_dct3_with_scratch(x, &mut s.real),
                    R2rKind::Rodft10 => t.process_dst2_with_scratch(x, &mut s.real),
                    _ => t.process_dst3_with_scratch(x, &mut s.real),
                }
                scale(x, two);
            }
            R2rOp::Type4(kind, t) => {
                fresh(&mut s.real, t.get_scratch_len());
                match kind {
                    R2rKind::Redft11 => t.process_dct4_with_scratch(x, &mut s.real),
                    _ => t.process_dst4_with_scratch(x, &mut s.real),
                }
                scale(x, two);
            }
        }
    }
}

/// rustdct 0.7's DST-I (and possibly others) read scratch they expect to be zero, so scratch
/// reused from the previous line must be cleared.
fn fresh<T: Real>(scratch: &mut Vec<T>, len: usize) {
    scratch.clear();
    scratch.resize(len, T::zero());
}

fn scale<T: Real>(x: &mut [T], f: T) {
    for v in x {
        *v = *v * f;
    }
}
