//! FFTX plans as Programs: the lowering of the passes' steps, and what a plan runs.
//!
//! [`lower_program`] turns the steps into a [`Program`] over the caller's arrays (bound by
//! address, `Role::Array`) and the temporaries that survive the passes (`Role::Temp`, or
//! `Role::ZeroTemp` for FFTX zero temporaries): a plain transform node is a `Step::Fft` (the
//! FFTW executor's transform, so a single-node FFTX plan computes what the equivalent FFTW plan
//! computes), a copy or pointwise node a `Kernel::Map`, a fused chain a `Kernel::Chain`. The
//! CPU executor (`exec::cpu::program`, kernels in `exec::cpu::kernel`) runs it; the temporaries
//! and work buffers are allocated once per plan. On the GPU (see [`wanted`]) the Program is
//! placed on the device (`passes::place`: temporaries on the card, a mirror per host array with
//! its transfers; the caller's device arrays, found here from their addresses, used where they
//! are) and the CUDA executor of Programs (`exec::cuda::program`) runs it; the CPU runs the
//! unplaced Program when the GPU fails before writing what the plan reads.

use super::decompose::unpruned_count;
use super::graph::{problem_of, Access, Buf, Op, Temp};
use super::passes::Step;
use crate::error::Result;
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cuda::program::{CudaProgram, MeasuredFusion, Options};
use crate::exec::cuda::run::CudaRun;
use crate::exec::cuda::Device;
use crate::exec::{Executable, Executor};
use crate::passes::place;
use crate::problem::Precision;
use crate::program::kernel::{self, Elements, Kernel};
use crate::program::{At, BufId, Buffer, Placement, Program, Role, Step as PStep};
use crate::real::Real;
use crate::wisdom::{Choice, Rigor};
use std::collections::BTreeSet;
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
pub fn lower_program(steps: &[Step]) -> Result<(Program, u64, Vec<Arc<Temp>>)> {
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

/// The unplaced Program made ready for the CPU, in the plan's precision.
fn cpu(program: &Program, precision: Precision) -> Result<Executable> {
    fn of<T: Real>(program: &Program) -> Result<Executable> {
        let threads = crate::planner::settings(T::PRECISION).nthreads();
        Ok(Box::new(Executor::<T>::for_arrays(program, None, threads)?))
    }
    match precision {
        Precision::F64 => of::<f64>(program),
        Precision::F32 => of::<f32>(program),
    }
}

/// The set of the Program's array buffers that are device memory (of the default device).
fn device_arrays(program: &Program, precision: Precision) -> BTreeSet<BufId> {
    use crate::exec::cuda::{default_device, memory_of, Memory};
    let Some(g) = default_device() else {
        return BTreeSet::new();
    };
    place::array_spans(program)
        .iter()
        .filter(|(&b, span)| {
            let Role::Array { addr } = program.buffers[b].role else {
                return false;
            };
            let (lo, hi) = place::span_bytes(addr, span, precision);
            memory_of(&g, lo, hi - lo) == Memory::Device
        })
        .map(|(&b, _)| b)
        .collect()
}

/// The Program placed on the default device and made ready there.
fn gpu(
    program: &Program,
    precision: Precision,
    on_device: &BTreeSet<BufId>,
    measure: bool,
) -> Result<(Program, Executable)> {
    use crate::exec::cuda::{default_device, fault, transform, Error};
    fault::at_plan()?;
    let g = default_device().ok_or_else(|| Error::unsupported("no GPU"))?;
    for s in &program.steps {
        if let PStep::Fft { problem, .. } = s {
            if !transform::supports(problem) {
                return Err(Error::unsupported(format!(
                    "{} runs on the CPU only",
                    problem.describe()
                )));
            }
        }
    }
    let mut placed = place::place(program, precision, 0, on_device)?;
    let rigor = if measure {
        Rigor::Measure
    } else {
        Rigor::Estimate
    };
    fusions_from_wisdom(&mut placed, precision, rigor);
    let options = Options {
        peer: true,
        measure,
        // FFTX nodes keep their inputs (a temporary may be read again).
        keep_fft_inputs: true,
        // Opt-in, as for fftwf_ plans: the tensor-core kernels for the transforms they take.
        split_half: precision == Precision::F32
            && crate::backend::tensor_cores_setting() == crate::backend::TensorCores::Split,
    };
    /// The executable, and the chains' fusions measured while making it.
    fn ready<T: Real>(
        program: &Program,
        placed: &Program,
        g: Arc<Device>,
        options: Options,
    ) -> Result<(Executable, Vec<MeasuredFusion>)> {
        let ordinal = g.ordinal;
        let cuda = CudaProgram::<T>::with_options(placed, &[g], options)?;
        let measured = cuda.measured_fusions();
        let run = CudaRun::ready(cuda, ordinal);
        let threads = crate::planner::settings(T::PRECISION).nthreads();
        let exec = Executor::<T>::for_arrays(program, Some(run), threads)?;
        Ok((Box::new(exec), measured))
    }
    let (run, measured) = match precision {
        Precision::F64 => ready::<f64>(program, &placed, g, options)?,
        Precision::F32 => ready::<f32>(program, &placed, g, options)?,
    };
    remember_fusions(&placed, precision, rigor, &measured);
    Ok((placed, run))
}

/// The chains of `placed` whose fusion wisdom names (made with at least `rigor`) take it.
fn fusions_from_wisdom(placed: &mut Program, precision: Precision, rigor: Rigor) {
    let wisdom = crate::wisdom::of(precision);
    for s in &mut placed.steps {
        if let PStep::Kernel {
            kernel: Kernel::Chain(c),
            ..
        } = s
        {
            c.fusion = wisdom.lookup(&c.wisdom_key(), rigor).and_then(|w| w.fusion);
        }
    }
}

/// Wisdom records each timed chain's fusion, as it records FFTW plans' choices.
fn remember_fusions(placed: &Program, precision: Precision, rigor: Rigor, m: &[MeasuredFusion]) {
    for &MeasuredFusion { step, fusion, ms } in m {
        if let PStep::Kernel {
            kernel: Kernel::Chain(c),
            ..
        } = &placed.steps[step]
        {
            let choice = Choice {
                rigor,
                threads: 1,
                cost_ns: ms * 1e6,
                backend: crate::program::Backend::Gpu,
                fusion: Some(fusion),
            };
            crate::wisdom::of(precision).remember(&c.wisdom_key(), choice);
        }
    }
}

/// What a plan runs: its Program, on the CPU or placed on the GPU.
pub struct Compiled {
    /// The plan as a Program (what the CPU runs).
    pub program: Program,
    /// The Program placed on the device, where the GPU runs the plan.
    pub placed: Option<Program>,
    /// The temporaries the Program holds.
    temps: Vec<Arc<Temp>>,
    /// 1-D transforms each execute computes (plain transforms counted as FFTW does them).
    pub planned_transforms: u64,
    pub executed_transforms: u64,
    pub executions: u64,
    /// The Program made ready: the placed one on the GPU (the CPU recomputing the unplaced
    /// one if the GPU fails), or the unplaced one on the CPU.
    exec: Executable,
}

impl Compiled {
    pub fn temps(&self) -> impl Iterator<Item = &Arc<Temp>> {
        self.temps.iter()
    }

    /// The Program that runs (what `fftx_print_plan` shows): the placed one on the GPU.
    pub fn shown(&self) -> &Program {
        self.placed.as_ref().unwrap_or(&self.program)
    }

    /// The GPU's printout lines of its kernel steps (none on the CPU).
    pub fn gpu_lines(&self) -> Vec<String> {
        self.exec.details()
    }

    /// Runs the plan once.
    ///
    /// # Safety
    /// The caller's arrays the plan was made for must be valid for what the plan addresses.
    pub unsafe fn execute(&mut self) -> Result<()> {
        // FFTX programs address the caller's arrays as `Role::Array` buffers, never as the
        // input and output of an FFTW plan.
        let none = ArrayPtr::Real(0);
        self.exec.run(none, none, false)?;
        self.executed_transforms += self.planned_transforms;
        self.executions += 1;
        Ok(())
    }
}

/// Whether the plan should run on the GPU: `Some(true)` when it must (a caller's array is
/// device memory), `Some(false)` when it should, None when the CPU runs it.
fn wanted(program: &Program, on_device: &BTreeSet<BufId>) -> Option<bool> {
    use crate::backend::{backend_setting, BackendSetting};
    if backend_setting() == BackendSetting::Cpu {
        return None;
    }
    crate::exec::cuda::default_device()?;
    if !on_device.is_empty() {
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
pub fn lower(steps: &[Step], flags: u32, precision: Precision) -> Result<Compiled> {
    let (program, planned, temps) = lower_program(steps)?;
    let (placed, exec) = ready(&program, flags, precision)?;
    Ok(Compiled {
        program,
        placed,
        temps,
        planned_transforms: planned,
        executed_transforms: 0,
        executions: 0,
        exec,
    })
}

/// `program` made ready: placed on the GPU where [`wanted`] says so and it can, else on the CPU.
fn ready(
    program: &Program,
    flags: u32,
    precision: Precision,
) -> Result<(Option<Program>, Executable)> {
    let on_device = if backend_setting_is_cpu() {
        BTreeSet::new()
    } else {
        device_arrays(program, precision)
    };
    if let Some(must) = wanted(program, &on_device) {
        let measure = flags & super::graph::flags::ESTIMATE == 0;
        match gpu(program, precision, &on_device, measure) {
            Ok((placed, exec)) => return Ok((Some(placed), exec)),
            Err(e) if must => {
                return Err(e.context("the plan's arrays are on the GPU, but the GPU cannot run it"))
            }
            // Expected (a step the GPU does not take, a card too small) at info level; a
            // failing CUDA call at warn.
            Err(e) => crate::log::emit(
                e.log_level(),
                format_args!("fftx: the GPU cannot run this plan ({e}); it runs on the CPU"),
            ),
        }
    }
    Ok((None, cpu(program, precision)?))
}

fn backend_setting_is_cpu() -> bool {
    use crate::backend::{backend_setting, BackendSetting};
    backend_setting() == BackendSetting::Cpu
}

// The compiled plan holds raw addresses of the caller's arrays, as FFTW plans do.
unsafe impl Send for Compiled {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fftx::graph::{Access as GraphAccess, Graph};
    use crate::fftx::passes::{fuse, prune, tests, tests::fig2};
    use crate::problem::Kind;
    use std::collections::HashMap;

    /// The graph with its caller's arrays moved to the addresses `to` gives.
    fn relocate(g: &Graph, to: &HashMap<usize, usize>) -> Graph {
        let mut g = g.clone();
        for n in &mut g.nodes {
            let accesses = [&mut n.input, &mut n.output].into_iter();
            for a in accesses.chain(n.data.as_mut()) {
                if let Buf::User { addr, .. } = &mut a.buf {
                    *addr = to[addr];
                }
            }
        }
        g
    }

    /// The wisdom keys of a graph's chains, lowered as the plan lowers them.
    fn chain_keys(g: &Graph) -> Vec<String> {
        let (program, _, _) = lower_program(&fuse(&prune(g).unwrap().0)).unwrap();
        let chains = program.steps.iter().filter_map(|s| match s {
            PStep::Kernel {
                kernel: Kernel::Chain(c),
                ..
            } => Some(c.wisdom_key()),
            _ => None,
        });
        chains.collect()
    }

    /// A chain's wisdom key names its structure only: the same wherever the caller's arrays
    /// are (another process) and whatever the subplans' labels or a fusion already chosen;
    /// another size, input box or output box is another key.
    #[test]
    fn chain_keys_ignore_addresses_and_labels() {
        let g = fig2(16, 5, 7);
        let keys = chain_keys(&g);
        assert_eq!(keys.len(), 1, "{keys:?}");
        assert!(keys[0].starts_with("fftx-chain 16x16 #"), "{keys:?}");
        let moved: HashMap<usize, usize> =
            [(0x1000, 0x7000), (0x100000, 0x300000), (0x200000, 0x500000)].into();
        let mut relabeled = relocate(&g, &moved);
        for n in &mut relabeled.nodes {
            n.label = format!("renamed {}", n.label);
        }
        assert_eq!(chain_keys(&relabeled), keys);
        let (program, _, _) = lower_program(&fuse(&prune(&g).unwrap().0)).unwrap();
        for s in program.steps {
            if let PStep::Kernel {
                kernel: Kernel::Chain(mut c),
                ..
            } = s
            {
                c.fusion = Some(kernel::Fusion::Kernel);
                assert_eq!(vec![c.wisdom_key()], keys);
            }
        }
        for other in [fig2(16, 6, 7), fig2(16, 5, 8), fig2(12, 5, 7)] {
            let k = chain_keys(&other);
            assert_eq!(k.len(), 1);
            assert_ne!(k, keys);
        }
    }

    /// Runs `program` on the CPU executor.
    fn run_cpu(program: &Program) {
        let cpu = crate::exec::cpu::program::CpuProgram::<f64>::new(program, 1).unwrap();
        let none = ArrayPtr::Real(0);
        // SAFETY: the arrays the program addresses are the caller's, alive in the test.
        unsafe { cpu.run(none, none) }.unwrap();
    }

    /// The pass `passes::place` keeps the computation: every caller array holds the same
    /// values after the placed Program runs on the CPU executor (device buffers in host
    /// memory) as after the unplaced one, for Fig. 2 unoptimized (maps, a zero temporary, r2c
    /// and c2r `Fft` steps), optimized (one chain) at two sizes, an r2c from a reversed input
    /// into rows with gaps (kept as they were: the output is copied in), and with one array
    /// taken as device memory (addressed where it is).
    #[test]
    fn placed_programs_compute_what_unplaced_ones_do() {
        let graphs: Vec<(Graph, bool, &'static [usize])> = vec![
            (fig2(16, 5, 7), false, &[]),
            (fig2(16, 5, 7), true, &[]),
            (fig2(12, 4, 9), true, &[]),
            (fig2(10, 10, 3), false, &[0x200000]),
            (fig2(10, 10, 3), true, &[0x200000]),
        ];
        // (graph, optimized, the arrays' (address in the graph, scalars), those on the device)
        type Case = (Graph, bool, Vec<(usize, usize)>, &'static [usize]);
        let mut cases: Vec<Case> = graphs
            .into_iter()
            .map(|(g, opt, dev)| {
                let n = match &g.nodes[1].n[..] {
                    [n, _] => *n,
                    _ => unreachable!(),
                };
                let sizes = vec![
                    (0x1000, n * n),
                    (0x100000, n * n),
                    (0x200000, n * n + 2 * n),
                ];
                (g, opt, sizes, dev)
            })
            .collect();
        let user = |addr, complex| tests::user(addr, complex);
        let input = GraphAccess {
            buf: user(0x1000, false),
            base: 3 * 12 + 11,
            strides: vec![-12, -1],
        };
        let output = GraphAccess {
            buf: user(0x8000, true),
            base: 2,
            strides: vec![8, 1],
        };
        let r2c = tests::fft("r2c", Kind::R2c, &[4, 12], input, output);
        cases.push((
            Graph { nodes: vec![r2c] },
            false,
            vec![(0x1000, 48), (0x8000, 2 * (2 + 4 * 8))],
            &[],
        ));
        for (k, (g, optimize, sizes, dev)) in cases.into_iter().enumerate() {
            // Random values, the same before each run.
            let fill = |v: &mut Vec<f64>, seed: usize| {
                for (i, x) in v.iter_mut().enumerate() {
                    *x = (((i * 7919 + seed * 104729) % 1000) as f64) / 500.0 - 1.0;
                }
            };
            let mut arrays: Vec<Vec<f64>> = sizes.iter().map(|&(_, n)| vec![0.0; n]).collect();
            let to: HashMap<usize, usize> = sizes
                .iter()
                .zip(&arrays)
                .map(|(&(a, _), v)| (a, v.as_ptr() as usize))
                .collect();
            let g = relocate(&g, &to);
            let steps: Vec<Step> = if optimize {
                fuse(&prune(&g).unwrap().0)
            } else {
                g.nodes.iter().cloned().map(Step::Node).collect()
            };
            let (program, ..) = lower_program(&steps).unwrap();
            let on_device: BTreeSet<BufId> = program
                .buffers
                .iter()
                .enumerate()
                .filter(|(_, b)| matches!(b.role, Role::Array { addr } if dev.iter().any(|d| to[d] == addr)))
                .map(|(i, _)| i)
                .collect();
            let placed = place::place(&program, Precision::F64, 0, &on_device).unwrap();
            let text = placed.describe();
            assert!(
                text.contains("device0") && text.contains("(transfer s0"),
                "{text}"
            );
            let mut results = Vec::new();
            for p in [&program, &placed] {
                for (i, v) in arrays.iter_mut().enumerate() {
                    fill(v, i);
                }
                run_cpu(p);
                results.push(arrays.clone());
            }
            assert_eq!(results[0], results[1], "case {k}:\n{text}");
            let changed = results[0].iter().enumerate().any(|(i, v)| {
                let mut w = v.clone();
                fill(&mut w, i);
                w != *v
            });
            assert!(changed, "case {k}: nothing computed");
        }
    }

    /// The spans of the caller's arrays a Program's steps touch are the graph's (an `Fft` step
    /// read back from its problem: an r2c with a reversed, offset real input and a padded
    /// complex output; the unoptimized Fig. 2's maps).
    #[test]
    fn array_spans_are_the_graphs() {
        let user = |addr, complex| tests::user(addr, complex);
        let (x, y) = (user(0x1000, false), user(0x8000, true));
        let input = GraphAccess {
            buf: x,
            base: 3 * 12 + 11,
            strides: vec![-12, -1],
        };
        let output = GraphAccess {
            buf: y,
            base: 2,
            strides: vec![8, 1],
        };
        let node = tests::fft("r2c", Kind::R2c, &[4, 12], input.clone(), output.clone());
        let steps = [Step::Node(node.clone())];
        let (program, ..) = lower_program(&steps).unwrap();
        let spans = place::array_spans(&program);
        let bytes = |b: BufId| match program.buffers[b].role {
            Role::Array { addr } => {
                let (lo, hi) = place::span_bytes(addr, &spans[&b], Precision::F64);
                (lo as isize, hi as isize)
            }
            _ => unreachable!(),
        };
        let want = |a: &GraphAccess, shape: &[usize]| a.user_bytes(shape).unwrap();
        assert_eq!(bytes(0), want(&input, &node.in_shape));
        assert_eq!(bytes(1), want(&output, &node.out_shape));
        let g = fig2(16, 5, 7);
        let steps: Vec<Step> = g.nodes.iter().cloned().map(Step::Node).collect();
        let (program, ..) = lower_program(&steps).unwrap();
        let spans = place::array_spans(&program);
        let arrays: Vec<(usize, isize, isize, bool)> = program
            .buffers
            .iter()
            .enumerate()
            .filter_map(|(b, buf)| match buf.role {
                Role::Array { addr } => Some((addr, spans[&b].lo, spans[&b].hi, spans[&b].written)),
                _ => None,
            })
            .collect();
        assert_eq!(
            arrays,
            vec![
                (0x1000, 0, 25, false),
                (0x200000, 0, 144 * 2, false),
                (0x100000, 0, 49, true),
            ]
        );
    }

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
        // Placed with the data array b1 on the device: the chain on the mirrors and b1.
        let on_device: BTreeSet<BufId> = [1].into();
        let s = place::place(&program, Precision::F64, 0, &on_device)
            .unwrap()
            .describe();
        println!("{s}");
        assert!(s.contains("(buffer b1 array@0x200000 device0)"), "{s}");
        assert!(
            s.contains("(load [0..5,0..5] b3 real+0 strides=[5, 1])"),
            "{s}"
        );
        assert!(s.contains("data=b1+0"), "{s}");
        let steps: Vec<Step> = g.nodes.iter().cloned().map(Step::Node).collect();
        let (program, _, temps) = lower_program(&steps).unwrap();
        let s = program.describe();
        println!("{s}");
        assert_eq!(temps.len(), 4, "{s}");
        assert!(s.contains("temp scalars=256 zero"), "{s}");
        assert!(s.contains("(kernel s0 map [5, 5] b0 real+0"), "{s}");
        assert!(s.contains("(fft s0 b1+0 -> b2+0 dft-r2c"), "{s}");
        // Placed on device 0 (what the GPU runs and `fftx_print_plan` shows there): the
        // temporaries on the card, the caller's arrays mirrored with a transfer in (input,
        // data) or out (output, written whole), the steps on the mirrors.
        let placed = place::place(&program, Precision::F64, 0, &BTreeSet::new()).unwrap();
        let s = placed.describe();
        println!("{s}");
        assert!(
            s.contains("(buffer b1 temp scalars=256 zero device0)"),
            "{s}"
        );
        assert!(s.contains("(buffer b7 temp scalars=25 device0)"), "{s}");
        assert!(
            s.contains("(transfer s0 b0+0 -> b7+0 [25:1:1] real)"),
            "{s}"
        );
        assert!(s.contains("(kernel s0 map [5, 5] b7 real+0"), "{s}");
        assert!(!s.contains("-> b0+0"), "{s}");
        assert!(
            s.ends_with("(transfer s0 b9+0 -> b6+0 [49:1:1] real))"),
            "{s}"
        );
    }
}
