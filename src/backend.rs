//! `FFTX_BACKEND`: where plans may run (read by the planner and by the executors), and
//! `FFTX_TENSOR_CORES`: whether GPU plans may take the split-half tensor-core kernels (read by
//! the planner). Settings at the bottom of the library, so that nothing below the planner has
//! to ask the planner.

use std::sync::atomic::{AtomicU8, Ordering};

/// `FFTX_BACKEND`: where plans may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendSetting {
    Cpu,
    Gpu,
    Auto,
}

/// Tests set the backend here instead of the environment (0: follow FFTX_BACKEND).
static FORCED_BACKEND: AtomicU8 = AtomicU8::new(0);

/// Overrides `FFTX_BACKEND` for this process (None: follow the environment again).
pub fn force_backend(b: Option<BackendSetting>) {
    let v = match b {
        None => 0,
        Some(BackendSetting::Cpu) => 1,
        Some(BackendSetting::Gpu) => 2,
        Some(BackendSetting::Auto) => 3,
    };
    FORCED_BACKEND.store(v, Ordering::Relaxed);
}

/// Reads `FFTX_BACKEND` (cpu, gpu or auto; unset or anything else: auto).
pub fn backend_setting() -> BackendSetting {
    match FORCED_BACKEND.load(Ordering::Relaxed) {
        1 => return BackendSetting::Cpu,
        2 => return BackendSetting::Gpu,
        3 => return BackendSetting::Auto,
        _ => {}
    }
    match std::env::var("FFTX_BACKEND").as_deref().map(str::trim) {
        Ok("cpu") => BackendSetting::Cpu,
        Ok("gpu") => BackendSetting::Gpu,
        _ => BackendSetting::Auto,
    }
}

/// What `FFTX_TENSOR_CORES` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorCores {
    /// Unset, empty or `off`: the ordinary paths.
    Off,
    /// `split`: the split-half kernel for eligible GPU plans.
    Split,
    /// `split-twin`: the CPU twin for eligible plans on host arrays (a test hook).
    Twin,
}

/// `FFTX_TENSOR_CORES`, read at each plan (an unknown value is logged and means off).
pub fn tensor_cores_setting() -> TensorCores {
    let Ok(v) = std::env::var("FFTX_TENSOR_CORES") else {
        return TensorCores::Off;
    };
    match v.trim() {
        "" | "off" => TensorCores::Off,
        "split" => TensorCores::Split,
        "split-twin" => TensorCores::Twin,
        other => {
            crate::log::log_warn!(
                "FFTX_TENSOR_CORES={other}: unknown (split, split-twin or off); tensor cores off"
            );
            TensorCores::Off
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_setting_follows_the_override() {
        force_backend(Some(BackendSetting::Gpu));
        assert_eq!(backend_setting(), BackendSetting::Gpu);
        force_backend(Some(BackendSetting::Cpu));
        assert_eq!(backend_setting(), BackendSetting::Cpu);
        force_backend(None);
    }
}
