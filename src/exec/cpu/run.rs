//! The CPU executor's entry for any [`Program`]: an FFTW plan's whole transform (one
//! [`Step::Transform`]) runs as one [`CpuTransform`] (on [`Backend::CpuSplitHalf`], the
//! split-half tensor-core kernels' twin); every other program runs step by step on
//! [`CpuProgram`] in a workspace kept from one run to the next (an FFTX plan's temporaries).

use super::layout::ArrayPtr;
use super::program::{CpuProgram, Workspace};
use super::split_half::SplitHalfCpu;
use super::CpuTransform;
use crate::program::{Backend, Program, Step};
use crate::real::Real;
use parking_lot::Mutex;

/// A program made ready for the host. (One per plan, never in arrays: its variants' sizes
/// do not matter.)
#[allow(clippy::large_enum_variant)]
pub enum CpuRun<T: Real> {
    Transform(CpuTransform<T>),
    SplitHalf(SplitHalfCpu),
    Program(CpuProgram<T>, Mutex<Workspace<T>>),
}

impl<T: Real> CpuRun<T> {
    /// Makes `program` ready (a program of steps runs its kernels on `threads` threads); `Err`
    /// when the host has not the memory planning fills (a long 1-D transform's twiddle tables,
    /// `memory::check`, or a program's workspace) or the program is not valid.
    pub fn new(program: &Program, threads: usize) -> crate::error::Result<Self> {
        match &program.steps[..] {
            [Step::Transform {
                problem,
                backend: Backend::CpuSplitHalf,
                ..
            }] => SplitHalfCpu::new(problem).map(CpuRun::SplitHalf),
            [Step::Transform {
                problem,
                threads,
                destroy_input,
                ..
            }] => {
                super::memory::check(problem)?;
                Ok(CpuRun::Transform(
                    CpuTransform::new(problem, *threads).destroying_input(*destroy_input),
                ))
            }
            _ => {
                let program = CpuProgram::new(program, threads)?;
                let workspace = program.workspace()?;
                Ok(CpuRun::Program(program, Mutex::new(workspace)))
            }
        }
    }

    pub fn describe(&self) -> Option<String> {
        match self {
            CpuRun::SplitHalf(t) => Some(t.describe()),
            _ => None,
        }
    }

    /// # Safety
    /// The arrays must hold every element the program addresses in them.
    pub unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr) -> crate::error::Result<()> {
        match self {
            CpuRun::Transform(t) => t.execute(input, output),
            CpuRun::SplitHalf(t) => t.execute(input, output),
            CpuRun::Program(p, w) => p.run_in(input, output, &mut w.lock()),
        }
    }

    /// Computes transforms `first..` of the plan's loop (those a failed GPU run left), in
    /// place; only a program of one transform can resume (from 0, any computes all of it).
    ///
    /// # Safety
    /// As [`CpuRun::execute`].
    pub unsafe fn execute_from(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        first: usize,
    ) -> crate::error::Result<()> {
        match self {
            CpuRun::Transform(t) => t.execute_from(input, output, first),
            _ if first == 0 => self.execute(input, output),
            _ => Err(crate::error::Error::internal(format!(
                "this program cannot resume from transform {first}"
            ))),
        }
    }
}
