//! `FFTX_BACKEND`: where plans may run (read by the planner and by the executors). A setting at
//! the bottom of the library, so that nothing below the planner has to ask the planner.

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
