//! Executors: the CPU one runs every program; the CUDA one (next) runs the same programs on a GPU.

pub mod cpu;
pub mod parallel;
