//! A program: the steps an executor runs for one plan, printable for `fftw_print_plan`.
//!
//! A plan lowers to transform steps on the CPU or the GPU; out-of-card and multi-device
//! programs add steps (transfers, kernels, collectives) here.

use crate::problem::Problem;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Cpu,
    /// cuFFT and our kernels on the GPU (`exec::cuda`).
    Gpu,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
        }
    }
    pub fn parse(s: &str) -> Option<Backend> {
        [Backend::Cpu, Backend::Gpu]
            .into_iter()
            .find(|b| b.name() == s)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Every transform of `problem`, on `backend`, with `threads` host threads.
    Transform {
        problem: Problem,
        backend: Backend,
        threads: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub steps: Vec<Step>,
}

impl Program {
    /// FFTW-style s-expression of the program (what `fftw_print_plan` prints).
    pub fn describe(&self) -> String {
        let mut s = String::from("(fftx-program");
        for step in &self.steps {
            match step {
                Step::Transform {
                    problem,
                    backend,
                    threads,
                } => {
                    let _ = write!(
                        s,
                        "\n  ({} threads={} {})",
                        backend.name(),
                        threads,
                        problem.describe()
                    );
                }
            }
        }
        s.push(')');
        s
    }
}
