//! Executors: the CPU one runs every program; the CUDA one runs the same programs on a GPU;
//! [`executor`] runs a plan's program on the one its backend names, the other as its twin.

pub mod cpu;
pub mod cuda;
pub mod executor;
pub mod host_memory;
pub mod parallel;
pub mod twins;

pub use executor::{Executable, Execute, Executor};
