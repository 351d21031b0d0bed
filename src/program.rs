//! A program: the steps an executor runs for one plan, printable for `fftw_print_plan`.
//!
//! Today a plan lowers to transform steps on the CPU; the CUDA executor, out-of-card and
//! multi-device programs add backends and steps (transfers, kernels, collectives) here.

use crate::problem::{IoDim, Kind, Problem};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Cpu,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Every transform of `problem`, on `backend`, with `threads` host threads.
    Transform { problem: Problem, backend: Backend, threads: usize },
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
                Step::Transform { problem, backend, threads } => {
                    let _ = write!(s, "\n  ({} {} threads={} {})", backend.name(), kind_name(&problem.kind), threads, shape(problem));
                }
            }
        }
        s.push(')');
        s
    }
}

fn kind_name(k: &Kind) -> String {
    match k {
        Kind::Dft { sign } => format!("dft-{}", if *sign < 0 { "forward" } else { "backward" }),
        Kind::R2c => "dft-r2c".into(),
        Kind::C2r => "dft-c2r".into(),
        Kind::R2r(kinds) => format!("r2r-{}", kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join("-")),
    }
}

fn shape(p: &Problem) -> String {
    let dims = |v: &[IoDim]| v.iter().map(|d| format!("{}:{}:{}", d.n, d.is, d.os)).collect::<Vec<_>>().join(" ");
    format!(
        "{} dims=[{}] howmany=[{}]{}",
        p.precision.name(),
        dims(&p.dims),
        dims(&p.loops),
        if p.in_place { " in-place" } else { "" }
    )
}
