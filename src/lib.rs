//! fftx: FFTW3's C API (and, later, FFTX's plan composition) over a planner that lowers problems
//! to programs for a CPU executor and, where one is present, a GPU.
//!
//! Flow of a call: `api` (C ABI, argument checks) -> `problem` (FFTW's guru form) -> `passes`
//! (normalize, ...) -> `planner` (wisdom, estimate or measure) -> `program` (steps) -> `exec`.

#![allow(clippy::missing_safety_doc, non_camel_case_types)]
// Functions over 100 lines of code (clippy.toml) need a stated reason: an allow with a comment.
#![warn(clippy::too_many_lines)]

pub mod abi;
pub mod api;
pub mod backend;
pub mod binary16;
pub mod error;
pub mod exec;
mod fftx;
pub mod half;
/// Whether cuFFT takes the LTO callbacks FFTX chains fuse into its plans (`fftx info` asks).
pub use crate::exec::cuda::kernel::callbacks_usable as cufft_lto_callbacks_usable;
pub mod log;
pub mod mpi;
pub mod passes;
pub mod plan;
pub mod planner;
pub mod problem;
pub mod program;
pub mod real;
pub mod wisdom;

pub use abi::*;
pub use api::advanced::*;
pub use api::basic::*;
pub use api::execute::*;
pub use api::guru::*;
pub use api::info::*;
pub use api::memory::*;
pub use api::split::*;
pub use api::threads::*;
pub use api::wisdom::*;
pub use api::{fftw_plan, fftwf_plan};
pub use fftx::capi::*;
