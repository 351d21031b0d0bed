//! Diagnostics on stderr, gated by `FFTX_LOG` = off | error | warn | info | debug (default:
//! error, so that an execute that could not compute its output, or a bug of ours, is never
//! silent; `off` silences even those).
//!
//! The C boundary never panics; it returns FFTW's failure value and, when the level asks for it,
//! says why here.

use once_cell::sync::Lazy;
use std::sync::atomic::{AtomicU8, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Level {
    Off = 0,
    Error = 1,
    Warn = 2,
    Info = 3,
    Debug = 4,
}

impl Level {
    pub fn parse(s: &str) -> Level {
        match s.trim().to_ascii_lowercase().as_str() {
            "error" => Level::Error,
            "warn" | "warning" => Level::Warn,
            "info" => Level::Info,
            "debug" | "trace" => Level::Debug,
            _ => Level::Off,
        }
    }
}

static LEVEL: Lazy<AtomicU8> = Lazy::new(|| {
    let l = std::env::var("FFTX_LOG")
        .map(|s| Level::parse(&s))
        .unwrap_or(Level::Error);
    AtomicU8::new(l as u8)
});

pub fn enabled(l: Level) -> bool {
    l as u8 <= LEVEL.load(Ordering::Relaxed)
}

/// Overrides `FFTX_LOG` (tests use it).
pub fn set_level(l: Level) {
    LEVEL.store(l as u8, Ordering::Relaxed);
}

pub fn emit(l: Level, msg: std::fmt::Arguments<'_>) {
    if enabled(l) {
        let tag = match l {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
            Level::Debug => "debug",
            Level::Off => return,
        };
        eprintln!("fftx[{tag}]: {msg}");
    }
}

/// A function shown the progress lines of long planning (see [`progress`]); the fftx tool
/// installs one to draw them in its progress bar.
static PROGRESS_HOOK: std::sync::RwLock<Option<fn(&str)>> = std::sync::RwLock::new(None);

/// Installs (or, with None, removes) the function [`progress`] calls.
pub fn set_progress_hook(hook: Option<fn(&str)>) {
    *PROGRESS_HOOK.write().unwrap_or_else(|e| e.into_inner()) = hook;
}

/// One step of long planning done (a candidate timed: what, and how long it took): an info line,
/// and the progress hook's text whatever `FFTX_LOG` says. Formats nothing when neither wants it.
pub fn progress(msg: std::fmt::Arguments<'_>) {
    let hook = *PROGRESS_HOOK.read().unwrap_or_else(|e| e.into_inner());
    if hook.is_none() && !enabled(Level::Info) {
        return;
    }
    let text = msg.to_string();
    emit(Level::Info, format_args!("{text}"));
    if let Some(hook) = hook {
        hook(&text);
    }
}

macro_rules! log_progress { ($($t:tt)*) => { $crate::log::progress(format_args!($($t)*)) } }
macro_rules! log_warn { ($($t:tt)*) => { $crate::log::emit($crate::log::Level::Warn, format_args!($($t)*)) } }
macro_rules! log_info { ($($t:tt)*) => { $crate::log::emit($crate::log::Level::Info, format_args!($($t)*)) } }
pub(crate) use {log_info, log_progress, log_warn};
