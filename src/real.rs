//! The two floating-point types of the API and the per-precision transform planners.

use crate::problem::Precision;
use once_cell::sync::Lazy;
use parking_lot::Mutex;
use realfft::RealFftPlanner;
use rustdct::DctPlanner;
use rustfft::FftPlanner;

/// Per-precision caches of 1-D transform algorithms (rustfft, realfft, rustdct). Each returns
/// `Arc`s that plans keep, so executing never takes these locks.
pub struct Planners<T: rustdct::DctNum> {
    pub fft: Mutex<FftPlanner<T>>,
    pub real: Mutex<RealFftPlanner<T>>,
    pub dct: Mutex<DctPlanner<T>>,
}

impl<T: rustdct::DctNum> Planners<T> {
    fn new() -> Self {
        Planners {
            fft: Mutex::new(FftPlanner::new()),
            real: Mutex::new(RealFftPlanner::new()),
            dct: Mutex::new(DctPlanner::new()),
        }
    }
    /// `fftw_cleanup`: drops every cached algorithm (plans still hold what they use).
    pub fn clear(&self) {
        *self.fft.lock() = FftPlanner::new();
        *self.real.lock() = RealFftPlanner::new();
        *self.dct.lock() = DctPlanner::new();
    }
}

/// f32 or f64: everything the executors need of a scalar type.
pub trait Real:
    rustdct::DctNum
    + rustfft::FftNum
    + rustfft::num_traits::ToPrimitive
    + Default
    + Send
    + Sync
    + 'static
{
    const PRECISION: Precision;
    fn planners() -> &'static Planners<Self>;
    fn cast(x: f64) -> Self;
}

static PLANNERS_F32: Lazy<Planners<f32>> = Lazy::new(Planners::new);
static PLANNERS_F64: Lazy<Planners<f64>> = Lazy::new(Planners::new);

impl Real for f32 {
    const PRECISION: Precision = Precision::F32;
    fn planners() -> &'static Planners<f32> {
        &PLANNERS_F32
    }
    fn cast(x: f64) -> Self {
        x as f32
    }
}

impl Real for f64 {
    const PRECISION: Precision = Precision::F64;
    fn planners() -> &'static Planners<f64> {
        &PLANNERS_F64
    }
    fn cast(x: f64) -> Self {
        x
    }
}

#[cfg(test)]
mod tests {
    /// The vendored rustfft's twiddles (vendor/README.md): exact where the value is, and within
    /// an ulp or two of the true value everywhere.
    #[test]
    fn accurate_twiddles_are_exact_at_rational_angles_and_close_everywhere() {
        use rustfft::accurate_twiddle;
        assert_eq!(accurate_twiddle(1, 3).0, -0.5);
        assert_eq!(accurate_twiddle(2, 3).0, -0.5);
        assert_eq!(accurate_twiddle(1, 4), (0.0, -1.0));
        assert_eq!(accurate_twiddle(1, 6).0, 0.5);
        assert_eq!(accurate_twiddle(1, 8).0, std::f64::consts::FRAC_1_SQRT_2);
        for n in [5usize, 7, 12, 1000, 65537, 999983] {
            for k in [1usize, n / 3, n / 2, n - 1, 7 * n + 1] {
                let (c, s) = accurate_twiddle(k, n);
                let a = -2.0 * std::f64::consts::PI * (k % n) as f64 / n as f64;
                assert!(
                    (c - a.cos()).abs() < 1e-15 && (s - a.sin()).abs() < 1e-15,
                    "{k}/{n}"
                );
                assert!((c * c + s * s - 1.0).abs() < 4e-16, "{k}/{n}");
            }
        }
    }
}
