//! The CUDA executor's entry for any [`Program`]: an FFTW plan's whole transform (one
//! [`Step::Transform`]) on device arrays runs where they are ([`GpuTransform`]; on
//! [`Backend::GpuSplitHalf`] with the split-half tensor-core kernels); every program the
//! planner lowered for host arrays (streamed through device buffers by `passes::stream`, out
//! of card by `passes::out_of_card`, spread over devices by `passes::distribute`) runs step by
//! step on [`CudaProgram`]. The planner chooses and lowers; this only runs what it is given,
//! and says what a failed run left in the caller's output ([`Written`]).

use super::program::{devices_needed, CudaProgram, Landing, Options};
use super::transform::GpuTransform;
use super::{default_device, devices, fault, Device, Error, Result};
use crate::exec::cpu::layout::ArrayPtr;
use crate::program::{Backend, Program, Step, TileOut};
use crate::real::Real;
use std::sync::Arc;

/// A program made ready for the GPU.
pub enum CudaRun<T: Real> {
    /// A plan's transform on device arrays, where they are.
    Transform(Box<GpuTransform<T>>),
    Program {
        exec: Box<CudaProgram<T>>,
        /// What the program is, as the printed plan says it.
        what: String,
        ordinals: Vec<i32>,
        /// A streamed program's tiles (what a failed run in place left complete).
        tiles: Vec<TileOut>,
    },
}

/// A failed GPU execute, and how much of the caller's output it had written.
#[derive(Debug)]
pub struct Failure {
    pub error: Error,
    pub written: Written,
}

/// How far a failed execute got into the caller's output array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Nothing the CPU needs was written: it may compute everything from the input.
    Nothing,
    /// Transforms `0..k` (in loop order) are written and right; none after them was touched.
    Leading(usize),
    /// Some output was written, not in whole leading transforms (or on the device).
    Unknown,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure {
            error,
            written: Written::Nothing,
        }
    }
}

impl<T: Real> CudaRun<T> {
    /// Makes `program` ready: a plan's one transform step for device arrays, or a program the
    /// planner lowered for host arrays (`tiles`: a streamed program's, else empty). A
    /// program's `Device(d)` buffers are on the d-th device of `FFTX_DEVICES` when it uses
    /// several devices ([`devices`]), on the default device when it uses one. `backend`: the
    /// plan's (on `GpuSplitHalf` the transforms take the tensor-core kernels where they can).
    pub fn new(program: &Program, tiles: &[TileOut], backend: Backend) -> Result<Self> {
        let split_half = backend == Backend::GpuSplitHalf;
        if let [Step::Transform { problem, .. }] = &program.steps[..] {
            let dev = default_device().ok_or_else(|| Error::unsupported("no GPU"))?;
            return match split_half {
                true => GpuTransform::split_half(problem, &dev),
                false => GpuTransform::new(problem, &dev),
            }
            .map(|t| CudaRun::Transform(Box::new(t)));
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
        let steps = program.steps.len();
        let what = if used > 1 {
            format!("gpus {ordinals:?}: distributed program of {steps} steps")
        } else if !tiles.is_empty() {
            format!(
                "gpu streamed program of {} tiles, {steps} steps",
                tiles.len()
            )
        } else {
            format!("gpu out-of-card program of {steps} steps")
        };
        let options = Options {
            split_half,
            ..Options::default()
        };
        Ok(CudaRun::Program {
            exec: Box::new(CudaProgram::with_options(program, on, options)?),
            what,
            ordinals,
            tiles: tiles.to_vec(),
        })
    }

    /// A program made ready on one device by its front end (an FFTX plan's, placed and
    /// compiled with its own options), run as any other.
    pub fn ready(exec: CudaProgram<T>, ordinal: i32) -> Self {
        CudaRun::Program {
            exec: Box::new(exec),
            what: "gpu program".into(),
            ordinals: vec![ordinal],
            tiles: Vec::new(),
        }
    }

    /// The printed plan's lines for a program's generated kernels (none for a transform).
    pub fn kernel_lines(&self) -> Vec<String> {
        match self {
            CudaRun::Transform(_) => Vec::new(),
            CudaRun::Program { exec, .. } => exec.describe_kernels(),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            CudaRun::Transform(g) => g.describe(),
            CudaRun::Program { what, exec, .. } => {
                let kinds = exec.kernel_kinds();
                match kinds.is_empty() {
                    true => what.clone(),
                    false => format!("{what}: {}", kinds.join(" ")),
                }
            }
        }
    }

    /// `in_place`: the output overlaps the input (a failed program's recovery then takes them
    /// for one array).
    ///
    /// # Safety
    /// The arrays must hold every element the program addresses in them (device memory for
    /// a transform, host memory for a program).
    pub unsafe fn execute(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        in_place: bool,
    ) -> Result<(), Failure> {
        match self {
            CudaRun::Transform(g) => g.execute(input, output).map_err(|error| Failure {
                error,
                written: Written::Unknown,
            }),
            CudaRun::Program {
                exec,
                ordinals,
                tiles,
                ..
            } => {
                for &o in &ordinals[1..] {
                    fault::at_execute(o)?;
                }
                exec.run_recoverable(input, output, in_place)
                    .map_err(|f| Failure {
                        written: match (f.recomputable, tiles.is_empty()) {
                            // Nothing the program reads written yet (out of place: always)
                            // is, for the recovery, as good as nothing written.
                            (true, _) => Written::Nothing,
                            (false, false) => written(tiles, &f.landing),
                            (false, true) => Written::Unknown,
                        },
                        error: f.error,
                    })
            }
        }
    }
}

/// What a failed streamed run left in the output: the transforms of the leading tiles whose
/// copies out all landed, unless a later tile's copy out had started.
fn written(tiles: &[TileOut], landing: &[Landing]) -> Written {
    let at = |k: usize| landing.get(k).copied().unwrap_or(Landing::NotStarted);
    let landed = |t: &&TileOut| t.steps.iter().all(|&k| at(k) == Landing::Landed);
    let whole = tiles.iter().take_while(landed).count();
    let later = tiles[whole..].iter().flat_map(|t| &t.steps);
    if later.into_iter().any(|&k| at(k) != Landing::NotStarted) {
        return Written::Unknown;
    }
    match whole {
        0 => Written::Nothing,
        w => Written::Leading(tiles[w - 1].done),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_streamed_run_keeps_its_whole_leading_tiles() {
        let tiles = [
            TileOut {
                steps: vec![3, 4],
                done: 10,
            },
            TileOut {
                steps: vec![8, 9],
                done: 20,
            },
            TileOut {
                steps: vec![12],
                done: 25,
            },
        ];
        let landing = |landed: &[usize], other: &[(usize, Landing)]| {
            let mut l = vec![Landing::NotStarted; 13];
            for &k in landed {
                l[k] = Landing::Landed;
            }
            for &(k, s) in other {
                l[k] = s;
            }
            l
        };
        assert_eq!(written(&tiles, &landing(&[], &[])), Written::Nothing);
        assert_eq!(
            written(&tiles, &landing(&[3, 4], &[])),
            Written::Leading(10)
        );
        assert_eq!(
            written(&tiles, &landing(&[3, 4, 8, 9, 12], &[])),
            Written::Leading(25)
        );
        // Half a tile landed, or a copy in flight: nobody knows what the array holds.
        assert_eq!(written(&tiles, &landing(&[3, 4, 8], &[])), Written::Unknown);
        let in_flight = landing(&[3, 4], &[(8, Landing::Unknown)]);
        assert_eq!(written(&tiles, &in_flight), Written::Unknown);
        // A later tile landed before an earlier one: not leading.
        assert_eq!(written(&tiles, &landing(&[3, 12], &[])), Written::Unknown);
    }
}
