//! Errors inside the library, typed by what the code that meets them must do, and the one guard
//! every C entry point runs its body in (`fftw_`, `fftwf_`, `dfftw_` and `fftx_` alike).
//!
//! The kind decides: bad input is the caller's to fix (FFTW's answer: a NULL plan); an
//! unsupported path or a device out of memory is a reason to run somewhere else (the CPU), said
//! at info level; a failing CUDA call or a lost device is worth a warning; an internal error is a
//! bug of ours (a caught panic), said at error level.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The caller's arguments: n <= 0, bad kinds, signs or flags, NULL or dead plans,
    /// overflowing sizes, arrays that overlap where they may not.
    BadInput,
    /// A valid request this path cannot serve: no GPU, a size or layout cuFFT or our kernels
    /// do not take, LTO callbacks this cuFFT cannot link.
    Unsupported,
    /// The host could not allocate.
    OutOfHostMemory,
    /// The device could not allocate (the driver, cuFFT's workspace, or `FFTX_GPU_MEMORY`).
    OutOfDeviceMemory,
    /// A CUDA, cuFFT or NVRTC call failed for another reason (its code is in the message).
    Cuda,
    /// The device was reset or lost: nothing of ours on it may be touched again.
    DeviceLost,
    /// A bug of ours: a panic caught at the C boundary.
    Internal,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }

    pub fn bad_input(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::BadInput, message)
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported, message)
    }

    pub fn cuda(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Cuda, message)
    }

    pub fn out_of_host_memory(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::OutOfHostMemory, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, message)
    }

    /// The same error with `context` in front of its message (`context: message`).
    pub fn context(self, context: impl fmt::Display) -> Self {
        Error {
            kind: self.kind,
            message: format!("{context}: {}", self.message),
        }
    }

    /// Whether running elsewhere (the CPU) is the expected answer, not a sign of trouble.
    pub fn is_expected_fallback(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::Unsupported | ErrorKind::OutOfDeviceMemory
        )
    }

    /// The level to report it at: info for an expected fallback, error for a bug of ours,
    /// warn for the rest.
    pub fn log_level(&self) -> crate::log::Level {
        match self.kind {
            _ if self.is_expected_fallback() => crate::log::Level::Info,
            ErrorKind::Internal => crate::log::Level::Error,
            _ => crate::log::Level::Warn,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// The API layer's checks speak in messages about the caller's input.
impl From<String> for Error {
    fn from(message: String) -> Self {
        Error::bad_input(message)
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Self {
        Error::bad_input(message)
    }
}

/// Layers that still speak in messages (the FFTX, MPI and API front ends) take the message of
/// an error from below; its kind has been acted on where it mattered (the fallbacks below).
impl From<Error> for String {
    fn from(e: Error) -> Self {
        e.message
    }
}

/// Runs an entry point's body: an error or a panic becomes `fail`, after `report` got the error
/// (a panic as an `Internal` one). Nothing unwinds into C.
pub fn guard<R, E: Into<Error>>(
    fail: R,
    report: impl FnOnce(Error),
    body: impl FnOnce() -> std::result::Result<R, E>,
) -> R {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            report(e.into());
            fail
        }
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            report(Error::new(
                ErrorKind::Internal,
                format!("internal error: {msg}"),
            ));
            fail
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_turns_errors_and_panics_into_the_failure_value() {
        let mut seen = None;
        let r = guard(-1, |e| seen = Some(e), || Ok::<i32, Error>(7));
        assert_eq!((r, seen.is_none()), (7, true));
        let r = guard(
            -1,
            |e| seen = Some(e),
            || Err::<i32, _>("n = 0".to_string()),
        );
        let e = seen.take().unwrap();
        assert_eq!(
            (r, e.kind, e.message.as_str()),
            (-1, ErrorKind::BadInput, "n = 0")
        );
        let r = guard(-1, |e| seen = Some(e), || -> Result<i32> { panic!("boom") });
        let e = seen.take().unwrap();
        assert_eq!((r, e.kind), (-1, ErrorKind::Internal));
        assert!(e.message.contains("boom"), "{e}");
    }

    #[test]
    fn context_keeps_the_kind() {
        let e =
            Error::new(ErrorKind::OutOfDeviceMemory, "cuMemAlloc: out of memory").context("pass 0");
        assert_eq!(e.kind, ErrorKind::OutOfDeviceMemory);
        assert_eq!(e.to_string(), "pass 0: cuMemAlloc: out of memory");
        assert!(e.is_expected_fallback());
        assert!(!Error::cuda("cuLaunchKernel: an illegal memory access").is_expected_fallback());
    }
}
