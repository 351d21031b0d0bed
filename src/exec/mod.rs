//! Executors: the CPU one runs every program; the CUDA one runs the same programs on a GPU.

pub mod cpu;
pub mod cuda;
pub mod parallel;
pub mod twins;
