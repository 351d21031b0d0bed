//! Runs a plan's Program on the executor its backend names, with the other as its twin: the
//! CUDA executor ([`CudaRun`]) for a GPU backend, the CPU executor ([`CpuRun`]) for the CPU.
//! On the GPU, host arrays run the program the planner lowered for them and device arrays the
//! transform where they are, each form made on first use. If the GPU fails at execute time
//! (out of device memory, say) on host arrays, the CPU computes the same result from what the
//! GPU left; a CPU plan given device arrays (new-array execute) makes a GPU form for them. A program of steps over the
//! caller's arrays by address (an FFTX plan's, [`Executor::for_arrays`]) runs the same way: on
//! the GPU when its front end made it ready there, recomputed on the CPU when the GPU fails
//! before writing what the program reads. Only the choice of executor and the recovery live
//! here: the steps are interpreted by `cpu` and `cuda`.

use super::cpu::layout::{overlap, ArrayPtr, Overlap};
use super::cpu::run::CpuRun;
use super::cuda::run::{CudaRun, Failure, Written};
use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::program::{Backend, Lowered, Program, Step};
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

/// A plan's program made ready. `program` is what the CPU runs; on a GPU backend, host arrays
/// run the program the planner lowered for them (`lowered`: streamed through device buffers,
/// out of card, over several devices) and device arrays the transform where they are. Each
/// GPU form is made when first needed (at plan time for the arrays the plan was made on).
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
    lowered: Option<Lowered>,
    /// The GPU form for host arrays: `lowered` made ready (an FFTX plan's program: as its
    /// front end made it ready).
    host_gpu: OnceCell<Option<CudaRun<T>>>,
    /// The GPU form for device arrays: the transform on them.
    device_gpu: OnceCell<Option<CudaRun<T>>>,
}

impl<T: Real> Executor<T> {
    /// Makes `program` ready on its backend's executor: for a GPU backend the form for the
    /// arrays the plan is made on (`lowered` for host arrays, which a GPU plan on host arrays
    /// must have). `Err` when that executor cannot take it: the planner then chooses again.
    pub fn new(program: &Program, lowered: Option<Lowered>, host_arrays: bool) -> Result<Self> {
        let (problem, backend) = match &program.steps[..] {
            [Step::Transform {
                problem, backend, ..
            }] => (Some(problem.clone()), *backend),
            _ => (None, Backend::Cpu),
        };
        let exec = Executor {
            program: program.clone(),
            problem,
            backend,
            threads: 1,
            cpu: OnceCell::new(),
            lowered,
            host_gpu: OnceCell::new(),
            device_gpu: OnceCell::new(),
        };
        if exec.on_cpu() {
            exec.cpu()?;
        } else if host_arrays {
            let lowered = exec.lowered.as_ref().ok_or_else(|| {
                Error::internal("a GPU plan on host arrays without its lowered program")
            })?;
            let run = CudaRun::new(&lowered.program, &lowered.tiles, backend)?;
            let _ = exec.host_gpu.set(Some(run));
        } else {
            let _ = exec
                .device_gpu
                .set(Some(CudaRun::new(program, &[], backend)?));
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
            lowered: None,
            host_gpu: OnceCell::with_value(gpu),
            device_gpu: OnceCell::new(),
        };
        if backend == Backend::Cpu {
            exec.cpu()?;
        }
        Ok(exec)
    }

    fn on_cpu(&self) -> bool {
        matches!(self.backend, Backend::Cpu | Backend::CpuSplitHalf)
    }

    /// The CPU form, made at the first call that needs it (a GPU plan's, when the GPU fails);
    /// `Err` when the host has not the memory it needs.
    fn cpu(&self) -> Result<&CpuRun<T>> {
        self.cpu
            .get_or_try_init(|| CpuRun::new(&self.program, self.threads))
    }

    /// The GPU form for host arrays (None, logged, if it cannot be made: the CPU runs them).
    fn host_gpu(&self) -> Option<&CudaRun<T>> {
        self.host_gpu
            .get_or_init(|| {
                let lowered = self.lowered.as_ref()?;
                CudaRun::new(&lowered.program, &lowered.tiles, self.backend)
                    .map_err(|e| crate::log::log_warn!("execute: the GPU cannot run it: {e}"))
                    .ok()
            })
            .as_ref()
    }

    /// The GPU form for device arrays (also for a plan made for the CPU): the transform on
    /// them (None, logged, if it cannot run there).
    fn device_gpu(&self) -> Option<&CudaRun<T>> {
        self.device_gpu
            .get_or_init(|| {
                self.problem.as_ref()?;
                CudaRun::new(&self.program, &[], self.backend)
                    .map_err(|e| crate::log::log_warn!("execute: cannot run on the GPU: {e}"))
                    .ok()
            })
            .as_ref()
    }

    /// # Safety
    /// The arrays must hold every element the program addresses in them.
    unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr, device_arrays: bool) -> Result<()> {
        let Some(problem) = &self.problem else {
            return self.execute_steps(input, output);
        };
        // The GPU streams tiles in and out: an output that overlaps the input in another
        // layout than FFTW's in-place ones (new-array execute can make one) is the CPU's.
        if !device_arrays && self.on_cpu() {
            return self.cpu()?.execute(input, output);
        }
        let arrays = overlap(problem, input, output);
        let tangled = arrays == Overlap::Tangled;
        if !device_arrays && tangled {
            crate::log::log_info!(
                "execute: output and input overlap in a layout the GPU cannot stream in parts; \
                 computing on the CPU"
            );
            return self.cpu()?.execute(input, output);
        }
        if device_arrays {
            if tangled {
                return Err(Error::unsupported("the device arrays overlap in a layout the GPU cannot run in place; nothing was computed"));
            }
            let Some(g) = self.device_gpu() else {
                return Err(Error::unsupported("the arrays are in GPU memory and the GPU cannot run the plan; nothing was computed"));
            };
            return g.execute(input, output, false).map_err(|f| {
                f.error.context(
                    "execute on the GPU failed, and the output is not computed (the arrays are GPU memory)",
                )
            });
        }
        let Some(g) = self.host_gpu() else {
            return self.cpu()?.execute(input, output);
        };
        let in_place = arrays != Overlap::Disjoint;
        let Err(Failure { error, written }) = g.execute(input, output, in_place) else {
            return Ok(());
        };
        match recovery(written, in_place) {
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

impl<T: Real> Executor<T> {
    /// Runs a program of steps: on the GPU when it was made ready there; on the CPU when not,
    /// or when the GPU failed before writing anything the program reads.
    ///
    /// # Safety
    /// The arrays the program addresses must be valid.
    unsafe fn execute_steps(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
        if let Some(Some(CudaRun::Program { exec, .. })) = self.host_gpu.get() {
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
        let gpu = [&self.host_gpu, &self.device_gpu]
            .into_iter()
            .find_map(|g| g.get().and_then(|g| g.as_ref()));
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
