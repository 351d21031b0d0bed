//! Runs a plan's Program on the executor its backend names, with the other as its twin: the
//! CUDA executor ([`CudaRun`]) for a GPU backend, the CPU executor ([`CpuRun`]) for the CPU.
//! If the GPU fails at execute time (out of device memory, say) on host arrays, the CPU
//! computes the same result from what the GPU left; a CPU plan given device arrays
//! (new-array execute) makes a GPU form for them on first use. A program of steps over the
//! caller's arrays by address (an FFTX plan's, [`Executor::for_arrays`]) runs the same way: on
//! the GPU when its front end made it ready there, recomputed on the CPU when the GPU fails
//! before writing what the program reads. Only the choice of executor and the recovery live
//! here: the steps are interpreted by `cpu` and `cuda`.

use super::cpu::layout::{overlap, ArrayPtr, Overlap};
use super::cpu::run::CpuRun;
use super::cuda::run::CudaRun;
use super::cuda::transform::{Failure, GpuTransform, Written};
use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::program::{Backend, Program, Step};
use crate::real::Real;
use once_cell::sync::OnceCell;

/// What a plan runs, in its precision (whichever it is): an [`Executor`], or the MPI
/// interface's exchanges (`mpi::plan`).
pub type Executable = Box<dyn Execute>;

/// A program made ready, of either precision, as a plan runs and prints it.
pub trait Execute: Send + Sync {
    /// # Safety
    /// The arrays must hold every element the plan's problem addresses.
    unsafe fn run(&self, input: ArrayPtr, output: ArrayPtr, device_arrays: bool) -> Result<()>;
    /// What the printed plan adds to the program: how the executor runs it.
    fn details(&self) -> Vec<String>;
}

/// A plan's program made ready. `program` is what the CPU runs; the GPU runs `gpu_program`
/// where the planner lowered the transform for it (out of card, over several devices), else
/// the same program.
pub struct Executor<T: Real> {
    program: Program,
    /// The program's one transform (an FFTW plan's): the arrays' overlap is judged by it, and
    /// a failed GPU run may resume on the CPU. None for a program of other steps (CPU only).
    problem: Option<Problem>,
    backend: Backend,
    /// Threads of a program of steps on the CPU (an FFTW transform carries its own).
    threads: usize,
    /// Made with the executor on the CPU; for a GPU plan only when the GPU fails (a
    /// four-step's twiddle table is 8 GiB for c2c f32 2^30: planning took 9.9 s).
    cpu: OnceCell<CpuRun<T>>,
    gpu: OnceCell<Option<CudaRun<T>>>,
}

impl<T: Real> Executor<T> {
    /// Makes `program` ready on its backend's executor (`gpu_program` in its place for the
    /// GPU, when given). `Err` when that executor cannot take it: the planner then chooses
    /// again.
    pub fn new(program: &Program, gpu_program: Option<&Program>) -> Result<Self> {
        let (problem, backend) = match &program.steps[..] {
            [Step::Transform {
                problem, backend, ..
            }] => (Some(problem.clone()), *backend),
            _ => (None, Backend::Cpu),
        };
        let gpu = OnceCell::new();
        if !matches!(backend, Backend::Cpu | Backend::CpuSplitHalf) {
            let run = CudaRun::new(gpu_program.unwrap_or(program))?;
            let _ = gpu.set(Some(run));
        }
        let exec = Executor {
            program: program.clone(),
            problem,
            backend,
            threads: 1,
            cpu: OnceCell::new(),
            gpu,
        };
        if matches!(backend, Backend::Cpu | Backend::CpuSplitHalf) {
            exec.cpu()?;
        }
        Ok(exec)
    }

    /// A program of steps over the caller's arrays by address (an FFTX plan's): on the GPU as
    /// `gpu` (its front end placed it and made it ready there), else on the CPU with `threads`
    /// threads. The CPU form of a GPU program is made when the GPU fails.
    pub fn for_arrays(program: &Program, gpu: Option<CudaRun<T>>, threads: usize) -> Result<Self> {
        let backend = if gpu.is_some() {
            Backend::Gpu
        } else {
            Backend::Cpu
        };
        let exec = Executor {
            program: program.clone(),
            problem: None,
            backend,
            threads,
            cpu: OnceCell::new(),
            gpu: OnceCell::with_value(gpu),
        };
        if backend == Backend::Cpu {
            exec.cpu()?;
        }
        Ok(exec)
    }

    /// The CPU form, made at the first call that needs it (a GPU plan's, when the GPU fails);
    /// `Err` when the host has not the memory it needs.
    fn cpu(&self) -> Result<&CpuRun<T>> {
        self.cpu
            .get_or_try_init(|| CpuRun::new(&self.program, self.threads))
    }

    /// The GPU form for device arrays given to a plan made for the CPU: the transform streamed
    /// on one GPU (None, logged, if it cannot run there).
    fn gpu(&self) -> Option<&CudaRun<T>> {
        self.gpu
            .get_or_init(|| {
                let problem = self.problem.as_ref()?;
                match GpuTransform::new(problem, 1) {
                    Ok(g) => Some(CudaRun::Streamed(g)),
                    Err(e) => {
                        crate::log::log_warn!("execute: cannot run on the GPU: {e}");
                        None
                    }
                }
            })
            .as_ref()
    }

    /// # Safety
    /// The arrays must hold every element the program addresses in them.
    unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr, device_arrays: bool) -> Result<()> {
        if self.problem.is_none() {
            return self.execute_steps(input, output);
        }
        // The GPU streams chunks in and out: an output that overlaps the input in another
        // layout than FFTW's in-place ones (new-array execute can make one) is the CPU's.
        let tangled = || {
            self.problem
                .as_ref()
                .is_some_and(|p| overlap(p, input, output) == Overlap::Tangled)
        };
        let on_cpu = matches!(self.backend, Backend::Cpu | Backend::CpuSplitHalf);
        if !device_arrays && (on_cpu || tangled()) {
            return self.cpu()?.execute(input, output);
        }
        if tangled() {
            return Err(Error::unsupported("the device arrays overlap in a layout the GPU cannot run in place; nothing was computed"));
        }
        let gpu = self.gpu();
        if device_arrays && matches!(gpu, Some(CudaRun::Program { .. })) {
            return Err(Error::unsupported("the plan runs host arrays through device buffers (out of card or over several devices) and these arrays are GPU memory; nothing was computed"));
        }
        let Some(g) = gpu else {
            if device_arrays {
                return Err(Error::unsupported("the arrays are in GPU memory and the GPU cannot run the plan; nothing was computed"));
            }
            return self.cpu()?.execute(input, output);
        };
        // Judged when needed: a lowered program takes it to its run (it decides what a
        // failure leaves recomputable); a streamed transform only after a failure.
        let in_place = || {
            self.problem
                .as_ref()
                .is_some_and(|p| overlap(p, input, output) != Overlap::Disjoint)
        };
        let lowered = matches!(g, CudaRun::Program { .. });
        match g.execute(input, output, lowered && in_place()) {
            Ok(()) => Ok(()),
            Err(Failure { error, .. }) if device_arrays => Err(error.context(
                "execute on the GPU failed, and the output is not computed (the arrays are GPU memory)",
            )),
            Err(Failure { error, written }) => {
                match recovery(written, in_place()) {
                    Recovery::All => {
                        crate::log::emit(
                            error.log_level(),
                            format_args!("execute on the GPU failed: {error}; computing on the CPU"),
                        );
                        self.cpu()?.execute(input, output)
                    }
                    Recovery::From(first) => {
                        crate::log::log_warn!(
                            "execute on the GPU failed: {error}; transforms {first}.. computed on the CPU"
                        );
                        self.cpu()?.execute_from(input, output, first)
                    }
                    Recovery::Lost => Err(error.context(
                        "execute on the GPU failed while writing the in-place array (part of it is transformed and the rest is not)",
                    )),
                }
            }
        }
    }
}

impl<T: Real> Executor<T> {
    /// Runs a program of steps: on the GPU when it was made ready there; on the CPU when not,
    /// or when the GPU failed before writing anything the program reads.
    ///
    /// # Safety
    /// The arrays the program addresses must be valid.
    unsafe fn execute_steps(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
        if let Some(Some(CudaRun::Program { exec, .. })) = self.gpu.get() {
            match exec.run_recoverable(input, output, false) {
                Ok(()) => return Ok(()),
                Err(f) if f.recomputable => crate::log::emit(
                    f.error.log_level(),
                    format_args!(
                        "execute on the GPU failed: {}; computing on the CPU",
                        f.error
                    ),
                ),
                Err(f) => return Err(f.error.context(
                    "the GPU failed after writing to the caller's arrays, which the CPU cannot recompute from; the output is not computed",
                )),
            }
        }
        self.cpu()?.execute(input, output)
    }
}

impl<T: Real> Execute for Executor<T> {
    unsafe fn run(&self, input: ArrayPtr, output: ArrayPtr, device_arrays: bool) -> Result<()> {
        if device_arrays && self.problem.is_none() {
            return Err(Error::unsupported(
                "this program runs on the CPU and the arrays are GPU memory; nothing was computed",
            ));
        }
        self.execute(input, output, device_arrays)
    }

    /// An FFTW plan's: how its transform runs; a program of steps': its generated kernels on
    /// the GPU.
    fn details(&self) -> Vec<String> {
        let gpu = self.gpu.get().and_then(|g| g.as_ref());
        if self.problem.is_none() {
            return gpu.map(|g| g.kernel_lines()).unwrap_or_default();
        }
        let cpu = self.cpu.get().and_then(|c| c.describe());
        cpu.or(gpu.map(|g| g.describe())).into_iter().collect()
    }
}

/// What the CPU does after a GPU execute on host arrays failed, from what the GPU had written.
#[derive(Debug, PartialEq, Eq)]
enum Recovery {
    /// Compute everything (the input is intact).
    All,
    /// Compute transforms `k..` (in place: the first k are done, the rest untouched).
    From(usize),
    /// In place and partly overwritten: nothing can recompute it.
    Lost,
}

fn recovery(written: Written, in_place: bool) -> Recovery {
    match (written, in_place) {
        (Written::Nothing, _) | (_, false) => Recovery::All,
        (Written::Leading(k), true) => Recovery::From(k),
        (Written::Unknown, true) => Recovery::Lost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPU twin of a GPU failure: whatever the GPU wrote, the CPU either finishes the job
    /// from intact input or reports the loss.
    #[test]
    fn recovery_after_a_gpu_failure() {
        assert_eq!(recovery(Written::Nothing, true), Recovery::All);
        assert_eq!(recovery(Written::Unknown, false), Recovery::All);
        assert_eq!(recovery(Written::Leading(3), false), Recovery::All);
        assert_eq!(recovery(Written::Leading(3), true), Recovery::From(3));
        assert_eq!(recovery(Written::Unknown, true), Recovery::Lost);
    }
}
