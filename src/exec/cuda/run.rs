//! The CUDA executor's entry for any [`Program`]: an FFTW plan's whole transform (one
//! [`Step::Transform`]) streams through device buffers a chunk of transforms at a time
//! ([`GpuTransform`]; on [`Backend::GpuSplitHalf`] with the split-half tensor-core kernels);
//! every other program (the out-of-card schedule of `passes::out_of_card`, a transform spread
//! over devices by `passes::distribute`) runs step by step on [`CudaProgram`]. The planner
//! chooses and lowers; this only runs what it is given.

use super::program::{devices_needed, CudaProgram};
use super::transform::{Failure, GpuTransform, Written};
use super::{default_device, devices, fault, Device, Error, Result};
use crate::exec::cpu::layout::ArrayPtr;
use crate::program::{Backend, Program, Step};
use crate::real::Real;
use std::sync::Arc;

/// A program made ready for the GPU.
pub enum CudaRun<T: Real> {
    Streamed(GpuTransform<T>),
    Program {
        exec: CudaProgram<T>,
        /// What the program is, as the printed plan says it.
        what: String,
        ordinals: Vec<i32>,
    },
}

impl<T: Real> CudaRun<T> {
    /// Makes `program` ready. A program's `Device(d)` buffers are on the d-th device of
    /// `FFTX_DEVICES` when it uses several devices ([`devices`]), on the default device when it
    /// uses one.
    pub fn new(program: &Program) -> Result<Self> {
        if let [Step::Transform {
            problem,
            backend,
            threads,
            ..
        }] = &program.steps[..]
        {
            return match backend {
                Backend::GpuSplitHalf => GpuTransform::split_half(problem, *threads),
                _ => GpuTransform::new(problem, *threads),
            }
            .map(CudaRun::Streamed);
        }
        let used = devices_needed(program);
        let on: Vec<Arc<Device>> = if used > 1 {
            devices()
        } else {
            default_device().into_iter().collect()
        };
        if on.len() < used.max(1) {
            return Err(Error::unsupported(format!(
                "the program uses {used} devices and {} are selected",
                on.len()
            )));
        }
        let on = &on[..used.max(1)];
        let ordinals: Vec<i32> = on.iter().map(|d| d.ordinal).collect();
        let what = if used > 1 {
            format!(
                "gpus {ordinals:?}: distributed program of {} steps",
                program.steps.len()
            )
        } else {
            format!("gpu out-of-card program of {} steps", program.steps.len())
        };
        Ok(CudaRun::Program {
            exec: CudaProgram::new(program, on)?,
            what,
            ordinals,
        })
    }

    /// A program made ready on one device by its front end (an FFTX plan's, placed and
    /// compiled with its own options), run as any other.
    pub fn ready(exec: CudaProgram<T>, ordinal: i32) -> Self {
        CudaRun::Program {
            exec,
            what: "gpu program".into(),
            ordinals: vec![ordinal],
        }
    }

    /// The printed plan's lines for a program's generated kernels (none for a streamed
    /// transform).
    pub fn kernel_lines(&self) -> Vec<String> {
        match self {
            CudaRun::Streamed(_) => Vec::new(),
            CudaRun::Program { exec, .. } => exec.describe_kernels(),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            CudaRun::Streamed(g) => g.describe(),
            CudaRun::Program { what, .. } => what.clone(),
        }
    }

    /// `in_place`: the output overlaps the input (a failed program's recovery then takes them
    /// for one array).
    ///
    /// # Safety
    /// The arrays must hold every element the program addresses in them.
    pub unsafe fn execute(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        in_place: bool,
    ) -> Result<(), Failure> {
        match self {
            CudaRun::Streamed(g) => g.execute(input, output),
            CudaRun::Program { exec, ordinals, .. } => {
                for &o in &ordinals[1..] {
                    fault::at_execute(o)?;
                }
                // Nothing the program reads written yet (out of place: always) is, for the
                // recovery, as good as nothing written: the CPU recomputes all of it.
                exec.run_recoverable(input, output, in_place)
                    .map_err(|f| Failure {
                        error: f.error,
                        written: if f.recomputable {
                            Written::Nothing
                        } else {
                            Written::Unknown
                        },
                    })
            }
        }
    }
}
