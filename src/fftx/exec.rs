//! FFTX plans as Programs: the lowering of the passes' steps, and what a plan runs.
//!
//! [`lower_program`] turns the steps into a [`Program`] over the caller's arrays (bound by
//! address, `Role::Array`) and the temporaries that survive the passes (`Role::Temp`, or
//! `Role::ZeroTemp` for FFTX zero temporaries): a plain transform node is a `Step::Fft` (the
//! FFTW executor's transform, so a single-node FFTX plan computes what the equivalent FFTW plan
//! computes), a copy or pointwise node a `Kernel::Map`, a fused chain a `Kernel::Chain`. The
//! CPU executor (`exec::cpu::program`, kernels in `exec::cpu::kernel`) runs it; the temporaries
//! and work buffers are allocated once per plan. On the GPU (see [`wanted`]) the CUDA executor
//! of kernels (`exec::cuda::kernel`) runs the same Program, and the CPU runs it when the GPU
//! fails.

use super::decompose::unpruned_count;
use super::graph::{problem_of, Access, Buf, Op, Temp};
use super::passes::Step;
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cpu::program::{CpuProgram, Workspace};
use crate::exec::cuda::kernel::GpuCompiled;
use crate::problem::Precision;
use crate::program::kernel::{self, Elements, Kernel};
use crate::program::{At, BufId, Buffer, Placement, Program, Role, Step as PStep};
use crate::real::Real;
use std::sync::Arc;

/// The Program's buffers for the graph's: one per caller's array (by address) and per
/// temporary.
#[derive(Default)]
struct Buffers {
    buffers: Vec<Buffer>,
    /// The graph buffer behind each Program buffer.
    of: Vec<Buf>,
}

impl Buffers {
    fn id(&mut self, b: &Buf) -> BufId {
        let same = |x: &Buf| match (x, b) {
            (Buf::User { addr: a, .. }, Buf::User { addr: c, .. }) => a == c,
            _ => x.same(b),
        };
        if let Some(k) = self.of.iter().position(same) {
            return k;
        }
        let role = match b {
            Buf::User { addr, .. } => Role::Array { addr: *addr },
            Buf::Temp(t) => {
                let scalars = t.len * if t.complex { 2 } else { 1 };
                if t.zero {
                    Role::ZeroTemp { scalars }
                } else {
                    Role::Temp { scalars }
                }
            }
        };
        self.buffers.push(Buffer {
            role,
            placement: Placement::Host,
        });
        self.of.push(b.clone());
        self.of.len() - 1
    }

    fn access(&mut self, a: &Access) -> kernel::Access {
        kernel::Access {
            buf: Elements {
                buf: self.id(&a.buf),
                complex: a.buf.complex(),
            },
            base: a.base,
            strides: a.strides.clone(),
        }
    }

    /// A real-scalar position in a buffer (a Step::Fft's input or output).
    fn at(&mut self, a: &Access) -> At {
        At {
            buf: self.id(&a.buf),
            offset: a.base * if a.buf.complex() { 2 } else { 1 },
        }
    }
}

/// The Program of the passes' steps, the 1-D transforms one run computes, and the temporaries
/// the Program holds.
pub fn lower_program(steps: &[Step]) -> Result<(Program, u64, Vec<Arc<Temp>>), String> {
    let mut b = Buffers::default();
    let mut out = Vec::new();
    let mut count = 0;
    for s in steps {
        match s {
            Step::Node(n) if n.op.is_fft() => {
                let p = problem_of(n);
                p.validate().map_err(|e| format!("{}: {}", n.label, e.0))?;
                count += unpruned_count(n);
                out.push(PStep::Fft {
                    problem: crate::passes::normalize::normalize(&p),
                    input: b.at(&n.input),
                    output: b.at(&n.output),
                    stream: 0,
                });
            }
            Step::Node(n) => {
                let kernel = Kernel::Map {
                    shape: n.in_shape.clone(),
                    src: b.access(&n.input),
                    dst: b.access(&n.output),
                    data: n.data.as_ref().map(|d| b.access(d)),
                    code: match &n.op {
                        Op::Pointwise(p) => Some(p.clone()),
                        _ => None,
                    },
                };
                out.push(PStep::Kernel { kernel, stream: 0 });
            }
            Step::Chain(c) => {
                count += c.pencils();
                let kernel = Kernel::Chain(c.map(&mut |a| b.access(a)));
                out.push(PStep::Kernel { kernel, stream: 0 });
            }
        }
    }
    let program = Program {
        buffers: b.buffers,
        steps: out,
    };
    program.validate()?;
    let temps = b.of.iter().filter_map(|x| x.temp().cloned()).collect();
    Ok((program, count, temps))
}

/// A Program made ready for the CPU with its workspace, in the plan's precision.
trait CpuRun {
    /// # Safety
    /// The caller's arrays the program addresses must be valid.
    unsafe fn run(&mut self) -> Result<(), String>;
}

struct Cpu<T: Real> {
    program: CpuProgram<T>,
    workspace: Workspace<T>,
}

impl<T: Real> CpuRun for Cpu<T> {
    unsafe fn run(&mut self) -> Result<(), String> {
        // FFTX programs address the caller's arrays as `Role::Array` buffers, never as the
        // input and output of an FFTW plan.
        let none = ArrayPtr::Real(0);
        self.program.run_in(none, none, &mut self.workspace)
    }
}

fn cpu_in<T: Real>(program: &Program) -> Result<Box<dyn CpuRun>, String> {
    let threads = crate::planner::settings(T::PRECISION).nthreads();
    let program = CpuProgram::<T>::new(program, threads)?;
    let workspace = program.workspace()?;
    Ok(Box::new(Cpu { program, workspace }))
}

fn cpu(program: &Program, precision: Precision) -> Result<Box<dyn CpuRun>, String> {
    match precision {
        Precision::F64 => cpu_in::<f64>(program),
        Precision::F32 => cpu_in::<f32>(program),
    }
}

/// What a plan runs: its Program, on the CPU or lowered to the GPU.
pub struct Compiled {
    /// The plan as a Program (what `fftx_print_plan` shows and the CPU runs).
    pub program: Program,
    precision: Precision,
    /// The temporaries the Program holds.
    temps: Vec<Arc<Temp>>,
    /// 1-D transforms each execute computes (plain transforms counted as FFTW does them).
    pub planned_transforms: u64,
    pub executed_transforms: u64,
    pub executions: u64,
    /// The Program made ready for the CPU (for a GPU plan: once the GPU has failed).
    cpu: Option<Box<dyn CpuRun>>,
    /// The Program made ready for the GPU.
    gpu: Option<Box<GpuCompiled>>,
}

impl Compiled {
    pub fn temps(&self) -> impl Iterator<Item = &Arc<Temp>> {
        self.temps.iter()
    }

    /// The GPU lowering's printout lines (none on the CPU).
    pub fn gpu_lines(&self) -> Vec<String> {
        self.gpu.as_ref().map(|g| g.describe()).unwrap_or_default()
    }

    /// Runs the plan once.
    ///
    /// # Safety
    /// The caller's arrays the plan was made for must be valid for what the plan addresses.
    pub unsafe fn execute(&mut self) -> Result<(), String> {
        if let Some(g) = &self.gpu {
            match g.execute() {
                Ok(()) => {
                    self.executed_transforms += self.planned_transforms;
                    self.executions += 1;
                    return Ok(());
                }
                Err(f) if f.recomputable => crate::log::emit(
                    f.error.log_level(),
                    format_args!(
                        "fftx_execute: the GPU failed ({}); computing on the CPU",
                        f.error
                    ),
                ),
                Err(f) => {
                    return Err(format!(
                        "the GPU failed ({}) after writing to the caller's arrays, which the CPU cannot recompute from; the output is not computed",
                        f.error
                    ))
                }
            }
        }
        if self.cpu.is_none() {
            self.cpu = Some(cpu(&self.program, self.precision)?);
        }
        self.cpu.as_mut().expect("made above").run()?;
        self.executed_transforms += self.planned_transforms;
        self.executions += 1;
        Ok(())
    }
}

/// Whether the plan should run on the GPU: `Some(true)` when it must (a caller's array is
/// device memory), `Some(false)` when it should, None when the CPU runs it.
fn wanted(program: &Program, precision: Precision) -> Option<bool> {
    use crate::backend::{backend_setting, BackendSetting};
    if backend_setting() == BackendSetting::Cpu {
        return None;
    }
    crate::exec::cuda::default_device()?;
    if crate::exec::cuda::kernel::touches_device_memory(program, precision) {
        return Some(true);
    }
    if backend_setting() == BackendSetting::Gpu {
        return Some(false);
    }
    // Auto: the GPU pays off once the transforms touch about a million points.
    let work: usize = program
        .steps
        .iter()
        .map(|s| match s {
            PStep::Kernel {
                kernel: Kernel::Chain(c),
                ..
            } => c.n.iter().product::<usize>(),
            PStep::Fft { problem: p, .. } => {
                let dims: Vec<usize> = p.dims.iter().map(|d| d.n as usize).collect();
                let halved = p.kind == crate::problem::Kind::C2r;
                let loops: usize = p.loops.iter().map(|d| d.n as usize).product();
                loops * kernel::shape_of(&dims, halved).iter().product::<usize>()
            }
            _ => 0,
        })
        .sum();
    (work >= 1 << 20).then_some(false)
}

/// Lowers the steps to a Program and makes it runnable: on the GPU where [`wanted`] says
/// so and it can, else on the CPU. `precision`: every buffer's (the graph's).
pub fn lower(steps: &[Step], flags: u32, precision: Precision) -> Result<Compiled, String> {
    let (program, planned, temps) = lower_program(steps)?;
    let mut compiled = Compiled {
        program,
        precision,
        temps,
        planned_transforms: planned,
        executed_transforms: 0,
        executions: 0,
        cpu: None,
        gpu: None,
    };
    if let Some(must) = wanted(&compiled.program, precision) {
        let measure = flags & super::graph::flags::ESTIMATE == 0;
        match crate::exec::cuda::kernel::lower(&compiled.program, measure, precision) {
            Ok(g) => {
                compiled.gpu = Some(Box::new(g));
                return Ok(compiled);
            }
            Err(e) if must => {
                return Err(format!(
                    "the plan's arrays are on the GPU, but the GPU cannot run it: {e}"
                ))
            }
            Err(e) => {
                crate::log::log_warn!(
                    "fftx: the GPU cannot run this plan ({e}); it runs on the CPU"
                )
            }
        }
    }
    compiled.cpu = Some(cpu(&compiled.program, precision)?);
    Ok(compiled)
}

// The compiled plan holds raw addresses of the caller's arrays, as FFTW plans do.
unsafe impl Send for Compiled {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fftx::passes::{fuse, prune, tests::fig2};

    /// Fig. 2 optimized is one chain kernel over the caller's arrays; unoptimized, copies and the
    /// pointwise node are maps and the transforms Fft steps over the temporaries.
    #[test]
    fn fig2_lowers_to_kernels_over_the_callers_arrays() {
        let g = fig2(16, 5, 7);
        let (program, count, temps) = lower_program(&fuse(&prune(&g).unwrap().0)).unwrap();
        let s = program.describe();
        println!("{s}");
        assert!(temps.is_empty(), "{s}");
        assert!(s.contains("(buffer b0 array@0x1000 host)"), "{s}");
        assert!(s.contains("(kernel s0 chain n=[16, 16]"), "{s}");
        assert!(
            s.contains("(dft-r2c live-in=[0..5,0..5] live-out=[0..16,0..9])"),
            "{s}"
        );
        assert_eq!(program.steps.len(), 1);
        assert!(count > 0);
        let steps: Vec<Step> = g.nodes.iter().cloned().map(Step::Node).collect();
        let (program, _, temps) = lower_program(&steps).unwrap();
        let s = program.describe();
        println!("{s}");
        assert_eq!(temps.len(), 4, "{s}");
        assert!(s.contains("temp scalars=256 zero"), "{s}");
        assert!(s.contains("(kernel s0 map [5, 5] b0 real+0"), "{s}");
        assert!(s.contains("(fft s0 b1+0 -> b2+0 dft-r2c"), "{s}");
    }
}
