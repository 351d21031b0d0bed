//! A plan: the problem, the arrays it was made for, the program that computes it and that
//! program made ready for its executor. `fftw_plan` / `fftwf_plan` point at one of these.

use crate::exec::cpu::layout::{overlap, ArrayPtr, Overlap};
use crate::exec::cpu::program::CpuProgram;
use crate::exec::cpu::split_half::SplitHalfCpu;
use crate::exec::cpu::CpuTransform;
use crate::exec::cuda;
use crate::exec::cuda::program::CudaProgram;
use crate::exec::cuda::transform::{staged_device_bytes, Failure, GpuTransform, Written};
use crate::passes::distribute;
use crate::passes::out_of_card::{self, Budget};
use crate::problem::{Kind, Problem};
use crate::program::{Backend, Program, Step};
use crate::real::Real;
use crate::wisdom::Choice;
use once_cell::sync::OnceCell;
use std::sync::Arc;

/// The program's steps, ready to run, in the plan's precision (whichever it is).
pub type Executable = Box<dyn Steps>;

/// Steps of either precision, as a plan runs and prints them.
pub trait Steps: Send + Sync {
    /// # Safety
    /// The arrays must hold every element the plan's problem addresses.
    unsafe fn run(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        device_arrays: bool,
    ) -> Result<(), String>;
    fn details(&self) -> Vec<String>;
}

impl<T: Real> Steps for Vec<StepExec<T>> {
    unsafe fn run(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        device_arrays: bool,
    ) -> Result<(), String> {
        self.iter()
            .try_for_each(|s| s.execute(input, output, device_arrays))
    }
    fn details(&self) -> Vec<String> {
        self.iter().filter_map(|s| s.describe()).collect()
    }
}

/// One step, ready to run. A GPU step keeps its CPU twin: if the GPU fails at execute time
/// (out of device memory, say) on host arrays, the CPU computes the same result. A CPU step
/// given device arrays (new-array execute) makes a GPU step for them on first use.
pub struct StepExec<T: Real> {
    problem: Problem,
    /// The CPU plan: made with the step on the CPU; for a GPU step only when the GPU fails
    /// (a four-step's twiddle table is 8 GiB for c2c f32 2^30: planning took 9.9 s).
    cpu: OnceCell<CpuTransform<T>>,
    threads: usize,
    /// The CPU plan may overwrite an out-of-place input (`Step::Transform`).
    destroy_input: bool,
    gpu: OnceCell<Option<GpuRun<T>>>,
    /// The split-half CPU twin, for a step on `Backend::CpuSplitHalf` (host arrays).
    twin: Option<SplitHalfCpu>,
    backend: Backend,
}

/// How a step runs on the GPU: streamed through device buffers a chunk of transforms at a
/// time, or as a Program on the CUDA executor: the out-of-card Program of
/// `passes::out_of_card` (rounds of tiles through two device buffers) for host arrays whose
/// chunk buffers would exceed what the device gives a plan ([`cuda::usable_device_bytes`]:
/// nine tenths of the card, or `FFTX_GPU_MEMORY`), or, for a plan on `Backend::Gpus`, the
/// transform spread over the devices `FFTX_DEVICES` selects by `passes::distribute`. Device
/// arrays are used in place and always stream. On `Backend::GpuSplitHalf` the streamed step's
/// stages are the split-half tensor-core kernels (`GpuTransform::split_half`).
pub(crate) enum GpuRun<T: Real> {
    Streamed(GpuTransform<T>),
    Program {
        exec: CudaProgram<T>,
        /// What the program is, as the printed plan says it.
        what: String,
        ordinals: Vec<i32>,
    },
}

impl<T: Real> GpuRun<T> {
    /// The step on `backend` (`Gpus`: spread over the selected devices; `GpuSplitHalf`: the
    /// tensor-core kernels, `Err` where they cannot run it; any other: one GPU, cuFFT).
    pub(crate) fn new(
        problem: &Problem,
        threads: usize,
        host_arrays: bool,
        backend: Backend,
    ) -> cuda::Result<Self> {
        let device = cuda::default_device().ok_or_else(|| cuda::Error::unsupported("no GPU"))?;
        if backend == Backend::Gpus && host_arrays {
            let devices = cuda::devices();
            if devices.len() > 1 {
                return Self::distributed(problem, devices);
            }
            crate::log::log_info!(
                "plan: FFTX_DEVICES selects one device: the transform stays on it"
            );
        }
        let bytes = cuda::usable_device_bytes(&device);
        let streams = !host_arrays || staged_device_bytes::<T>(problem) <= bytes;
        if backend == Backend::GpuSplitHalf {
            if !streams {
                return Err(cuda::Error::unsupported(
                    "the transform runs out of card, which the split-half kernels do not",
                ));
            }
            return GpuTransform::split_half(problem, threads).map(GpuRun::Streamed);
        }
        if streams {
            return GpuTransform::new(problem, threads).map(GpuRun::Streamed);
        }
        let program = out_of_card::lower(problem, Budget { device: 0, bytes })?;
        crate::log::log_info!(
            "plan: the transform exceeds the {bytes} device bytes a plan may use: out of card, {} steps",
            program.steps.len()
        );
        Ok(GpuRun::Program {
            what: format!("gpu out-of-card program of {} steps", program.steps.len()),
            ordinals: vec![device.ordinal],
            exec: CudaProgram::new(&program, &[device])?,
        })
    }

    /// The transform by slabs and pencils over `devices` (a 1-D one by the distributed
    /// six-step of `passes::distribute::one_dimension`).
    fn distributed(problem: &Problem, devices: Vec<Arc<cuda::Device>>) -> cuda::Result<Self> {
        let parts: Vec<usize> = (0..devices.len()).collect();
        let program = distribute::spread(problem, &parts)?;
        let ordinals: Vec<i32> = devices.iter().map(|d| d.ordinal).collect();
        crate::log::log_info!(
            "plan: the transform spread over devices {ordinals:?}, {} steps",
            program.steps.len()
        );
        Ok(GpuRun::Program {
            what: format!(
                "gpus {ordinals:?}: distributed program of {} steps",
                program.steps.len()
            ),
            exec: CudaProgram::new(&program, &devices)?,
            ordinals,
        })
    }

    fn describe(&self) -> String {
        match self {
            GpuRun::Streamed(g) => g.describe(),
            GpuRun::Program { what, .. } => what.clone(),
        }
    }

    /// # Safety
    /// The arrays must hold every element the problem addresses.
    pub(crate) unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr) -> Result<(), Failure> {
        match self {
            GpuRun::Streamed(g) => g.execute(input, output),
            GpuRun::Program { exec, ordinals, .. } => {
                for &o in ordinals {
                    cuda::fault::at_execute(o)?;
                }
                exec.run(input, output).map_err(|error| Failure {
                    error,
                    written: Written::Unknown,
                })
            }
        }
    }
}

impl<T: Real> StepExec<T> {
    /// `host_arrays`: the plan's arrays are host memory (or NULL): a transform too large for
    /// the device may then run out of card.
    pub fn new(
        problem: &Problem,
        backend: Backend,
        threads: usize,
        host_arrays: bool,
        destroy_input: bool,
    ) -> Result<Self, String> {
        let gpu = OnceCell::new();
        let twin = if backend == Backend::CpuSplitHalf {
            Some(SplitHalfCpu::new(problem)?)
        } else {
            None
        };
        if !matches!(backend, Backend::Cpu | Backend::CpuSplitHalf) {
            let g = match GpuRun::new(problem, threads, host_arrays, backend) {
                Err(e) if backend == Backend::GpuSplitHalf => {
                    crate::log::log_warn!(
                        "plan: the split-half tensor-core kernels cannot run {} ({e}): cuFFT",
                        problem.describe()
                    );
                    GpuRun::new(problem, threads, host_arrays, Backend::Gpu)
                }
                r => r,
            };
            let _ = gpu.set(Some(g.map_err(|e| e.message)?));
        }
        let step = StepExec {
            problem: problem.clone(),
            cpu: OnceCell::new(),
            threads,
            destroy_input,
            gpu,
            twin,
            backend,
        };
        if backend == Backend::Cpu {
            step.cpu()?;
        }
        Ok(step)
    }

    /// The CPU plan, made at the first call that needs it (a GPU plan's, when the GPU fails);
    /// `Err` when the host has not the memory it needs.
    fn cpu(&self) -> Result<&CpuTransform<T>, String> {
        self.cpu.get_or_try_init(|| {
            crate::exec::cpu::memory::check(&self.problem)?;
            Ok(CpuTransform::new(&self.problem, self.threads).destroying_input(self.destroy_input))
        })
    }

    pub fn describe(&self) -> Option<String> {
        if let Some(t) = &self.twin {
            return Some(t.describe());
        }
        self.gpu
            .get()
            .and_then(|g| g.as_ref())
            .map(|g| g.describe())
    }

    /// # Safety
    /// The arrays must hold every element the problem addresses.
    unsafe fn execute(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        device_arrays: bool,
    ) -> Result<(), String> {
        // The GPU streams chunks in and out: an output that overlaps the input in another
        // layout than FFTW's in-place ones (new-array execute can make one) is the CPU's.
        let tangled = || overlap(&self.problem, input, output) == Overlap::Tangled;
        let host_arrays = !device_arrays;
        if let (true, Some(twin)) = (host_arrays, &self.twin) {
            return twin.execute(input, output);
        }
        if host_arrays && (self.backend == Backend::Cpu || tangled()) {
            return self.cpu()?.execute(input, output);
        }
        if tangled() {
            return Err("the device arrays overlap in a layout the GPU cannot run in place; nothing was computed".into());
        }
        let gpu = self
            .gpu
            .get_or_init(|| match GpuTransform::new(&self.problem, 1) {
                Ok(g) => Some(GpuRun::Streamed(g)),
                Err(e) => {
                    crate::log::log_warn!("execute: cannot run on the GPU: {e}");
                    None
                }
            });
        if device_arrays && matches!(gpu, Some(GpuRun::Program { .. })) {
            return Err("the plan runs host arrays through device buffers (out of card or over several devices) and these arrays are GPU memory; nothing was computed".into());
        }
        let Some(g) = gpu else {
            if device_arrays {
                return Err("the arrays are in GPU memory and the GPU cannot run the plan; nothing was computed".into());
            }
            return self.cpu()?.execute(input, output);
        };
        match g.execute(input, output) {
            Ok(()) => Ok(()),
            Err(Failure { error, .. }) if device_arrays => Err(format!(
                "execute on the GPU failed: {error}; the output is not computed (the arrays are GPU memory)"
            )),
            Err(Failure { error, written }) => {
                let in_place = overlap(&self.problem, input, output) != Overlap::Disjoint;
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
                    Recovery::Lost => Err(format!(
                        "execute on the GPU failed: {error} while writing the in-place array; part of it is transformed and the rest is not"
                    )),
                }
            }
        }
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

pub struct Plan {
    pub problem: Problem,
    pub input: ArrayPtr,
    pub output: ArrayPtr,
    pub program: Program,
    pub exec: Executable,
    pub choice: Choice,
    /// The plan's own arrays are GPU memory (so only the GPU may touch them).
    pub device_arrays: bool,
}

/// Builds the executable form of a program: an FFTW plan's transform steps (each with its GPU
/// and CPU forms), or any other program through the CPU program executor. `host_arrays`: the
/// plan's arrays are host memory (or NULL), not GPU memory.
pub fn prepare<T: Real>(program: &Program, host_arrays: bool) -> Result<Executable, String> {
    let transforms: Option<Vec<&Step>> = program
        .steps
        .iter()
        .map(|s| matches!(s, Step::Transform { .. }).then_some(s))
        .collect();
    let Some(transforms) = transforms else {
        return Ok(Box::new(CpuProgram::<T>::new(program, 1)?));
    };
    let steps = transforms
        .into_iter()
        .map(|s| match s {
            Step::Transform {
                problem,
                backend,
                threads,
                destroy_input,
            } => StepExec::new(problem, *backend, *threads, host_arrays, *destroy_input),
            _ => unreachable!("transform steps only"),
        })
        .collect::<Result<Vec<StepExec<T>>, String>>()?;
    Ok(Box::new(steps))
}

impl<T: Real> Steps for CpuProgram<T> {
    unsafe fn run(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        device_arrays: bool,
    ) -> Result<(), String> {
        if device_arrays {
            return Err(
                "this program runs on the CPU and the arrays are GPU memory; nothing was computed"
                    .into(),
            );
        }
        CpuProgram::run(self, input, output)
    }
    fn details(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Are these arrays in GPU memory? (Never, without a GPU; not asked with FFTX_BACKEND=cpu, nor
/// when the program has not loaded CUDA itself: CUDA stays untouched.)
pub fn on_device(input: ArrayPtr, output: ArrayPtr) -> bool {
    if crate::backend::backend_setting() == crate::backend::BackendSetting::Cpu
        || !cuda::device_pointers_possible()
    {
        return false;
    }
    let Some(g) = cuda::default_device() else {
        return false;
    };
    [input, output]
        .iter()
        .any(|a| cuda::memory_of(&g, a.base(), 1) == cuda::Memory::Device)
}

impl Plan {
    /// Runs the plan on its own arrays.
    ///
    /// # Safety
    /// The plan's arrays must still be valid for the problem's layout.
    pub unsafe fn execute(&self) -> Result<(), String> {
        if self.input.is_null() || self.output.is_null() {
            return Err("the plan was made on NULL arrays: execute it with fftw_execute_dft (or another new-array execute) on real arrays".into());
        }
        self.run(self.input, self.output, self.device_arrays)
    }

    /// Runs the plan on other arrays of the same layout (FFTW's new-array execute).
    ///
    /// # Safety
    /// The arrays must hold every element the problem addresses.
    pub unsafe fn execute_on(&self, input: ArrayPtr, output: ArrayPtr) -> Result<(), String> {
        let device = if (input, output) == (self.input, self.output) {
            self.device_arrays
        } else {
            on_device(input, output)
        };
        self.run(input, output, device)
    }

    unsafe fn run(&self, input: ArrayPtr, output: ArrayPtr, device: bool) -> Result<(), String> {
        self.exec.run(input, output, device)
    }

    /// Checks new arrays against the plan, as FFTW's new-array execute requires: same kind of
    /// arrays (real/complex, interleaved/split), non-NULL.
    pub fn check_new_arrays(&self, input: ArrayPtr, output: ArrayPtr) -> Result<(), String> {
        let same_kind =
            |a: &ArrayPtr, b: &ArrayPtr| std::mem::discriminant(a) == std::mem::discriminant(b);
        if !same_kind(&input, &self.input) || !same_kind(&output, &self.output) {
            return Err("the new arrays are not of the plan's kind (real/complex)".into());
        }
        if input.is_null() || output.is_null() {
            return Err("NULL array".into());
        }
        // A plan made for interleaved complex arrays has its strides doubled: on split arrays it
        // would step past their ends. (FFTW's execute_dft hands a split plan (in, in+1) or
        // (in+1, in): adjacent parts in either order are interleaved arrays.)
        let unit = self.problem.precision.bytes();
        let adjacent = |a: &ArrayPtr, either_order: bool| matches!(*a, ArrayPtr::Complex { re, im } if im == re + unit || (either_order && re == im + unit));
        for (new, old) in [(&input, &self.input), (&output, &self.output)] {
            if adjacent(old, false)
                && matches!(new, ArrayPtr::Complex { .. })
                && !adjacent(new, true)
            {
                return Err(
                    "split arrays given to a plan made for interleaved complex arrays".into(),
                );
            }
        }
        // In place or not may differ from the plan's (FFTW leaves that undefined): the
        // executors check at run time whether the output overlaps the input, and read all
        // input first when it does.
        Ok(())
    }

    /// (adds, multiplies, fused multiply-adds) of one execute, from the operation counts of the
    /// split-radix FFT: about 3 N log2 N additions and 2 N log2 N multiplications per complex
    /// transform of N points, half that for real data.
    pub fn flops(&self) -> (f64, f64, f64) {
        let p = &self.problem;
        let n: f64 = match &p.kind {
            Kind::R2r(kinds) => kinds
                .iter()
                .zip(&p.dims)
                .map(|(k, d)| k.logical_size(d.n).max(1) as f64)
                .product(),
            _ => p.transform_size() as f64,
        };
        let per = if n > 1.0 { n * n.log2() } else { 0.0 };
        let real = if matches!(p.kind, Kind::Dft { .. }) {
            1.0
        } else {
            0.5
        };
        let m = p.howmany() as f64 * real;
        (3.0 * per * m, 2.0 * per * m, 0.0)
    }

    pub fn describe(&self) -> String {
        let details = self.exec.details();
        let mut s = self.program.describe();
        for d in details {
            s.pop();
            s.push_str(&format!("\n  ({d}))"));
        }
        s
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
