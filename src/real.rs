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
        Planners { fft: Mutex::new(FftPlanner::new()), real: Mutex::new(RealFftPlanner::new()), dct: Mutex::new(DctPlanner::new()) }
    }
    /// `fftw_cleanup`: drops every cached algorithm (plans still hold what they use).
    pub fn clear(&self) {
        *self.fft.lock() = FftPlanner::new();
        *self.real.lock() = RealFftPlanner::new();
        *self.dct.lock() = DctPlanner::new();
    }
}

/// f32 or f64: everything the executors need of a scalar type.
pub trait Real: rustdct::DctNum + rustfft::FftNum + Default + Send + Sync + 'static {
    const PRECISION: Precision;
    fn planners() -> &'static Planners<Self>;
    fn cast(x: f64) -> Self;
    /// Wraps executable steps built in this precision.
    fn executable(steps: Vec<crate::plan::StepExec<Self>>) -> crate::plan::Executable;
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
    fn executable(steps: Vec<crate::plan::StepExec<f32>>) -> crate::plan::Executable {
        crate::plan::Executable::F32(steps)
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
    fn executable(steps: Vec<crate::plan::StepExec<f64>>) -> crate::plan::Executable {
        crate::plan::Executable::F64(steps)
    }
}
