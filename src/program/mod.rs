//! The Program: what an executor runs for one plan, printable for `fftw_print_plan`.
//!
//! A program is a list of [`Buffer`]s, each with a [`Placement`] (the caller's input and output
//! arrays, host temporaries, memory on device `d`), and a list of [`Step`]s over them. Steps are
//! listed in an order that is valid run one after another (the CPU executor does that); each
//! also names a stream, and steps on different streams may overlap except where a [`Step::Wait`]
//! orders them after a [`Step::Record`] of another stream (the CUDA executor maps these to CUDA
//! streams and events).
//!
//! FFTW plans lower to one [`Step::Transform`] over the caller's arrays; the out-of-card pass
//! (`passes::out_of_card`) lowers a transform to tiles streamed through device buffers:
//! [`Step::Transfer`], [`Step::Fft`], [`Step::Twiddle`], [`Step::Record`]/[`Step::Wait`].
//! FFTX plans (`fftx::exec::lower`) address the caller's arrays by address ([`Role::Array`])
//! and FFTX temporaries ([`Role::Temp`], [`Role::ZeroTemp`]): plain transforms become
//! [`Step::Fft`], copies, pointwise functions and fused chains [`Step::Kernel`]s
//! ([`kernel`]; [`pencil`] lowers a chain to the batched 1-D passes the GPU runs, with the
//! codelets of [`fftgen`]).

pub mod fftgen;
pub mod kernel;
pub mod multipass;
pub mod pencil;

use crate::error::Error;
use crate::problem::{IoDim, Problem};
use kernel::Kernel;
use std::fmt::Write;

pub mod fmm;
pub use fmm::{FmmGeom, FmmOp, FmmStep};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Cpu,
    /// cuFFT and our kernels on the GPU (`exec::cuda`).
    Gpu,
    /// The GPUs `FFTX_DEVICES` selects, the transform spread over them by slabs and pencils
    /// (`passes::distribute`) and run as one Program on the CUDA executor.
    Gpus,
    /// The GPU with the split-half tensor-core kernels in place of cuFFT
    /// (`exec::cuda::split_half`, `FFTX_TENSOR_CORES=split`).
    GpuSplitHalf,
    /// Their CPU twin (`exec::cpu::split_half`, the test hook `FFTX_TENSOR_CORES=split-twin`).
    CpuSplitHalf,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
            Backend::Gpus => "gpus",
            Backend::GpuSplitHalf => "gpu-split-half",
            Backend::CpuSplitHalf => "cpu-split-half",
        }
    }
    pub fn parse(s: &str) -> Option<Backend> {
        [
            Backend::Cpu,
            Backend::Gpu,
            Backend::Gpus,
            Backend::GpuSplitHalf,
            Backend::CpuSplitHalf,
        ]
        .into_iter()
        .find(|b| b.name() == s)
    }
}

/// Where a buffer's memory is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Host memory: the caller's arrays, or a temporary the executor allocates.
    Host,
    /// Page-locked host memory (DMA at full PCIe speed).
    Pinned,
    /// Memory of CUDA device `ordinal` (the CPU executor keeps it in host memory, so device
    /// programs run in CI).
    Device(usize),
}

impl Placement {
    pub fn name(self) -> String {
        match self {
            Placement::Host => "host".into(),
            Placement::Pinned => "pinned".into(),
            Placement::Device(d) => format!("device{d}"),
        }
    }
}

/// What a buffer is to the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The caller's input array (in place: also its output).
    Input,
    /// The caller's output array.
    Output,
    /// A temporary of `scalars` real scalars of the plan's precision.
    Temp { scalars: usize },
    /// A caller's array at `addr`, bound when the plan was made (FFTX plans address the
    /// caller's arrays directly).
    Array { addr: usize },
    /// A temporary that is zero at the start of every run.
    ZeroTemp { scalars: usize },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub role: Role,
    pub placement: Placement,
}

/// Index of a buffer in [`Program::buffers`].
pub type BufId = usize;

/// A position in a buffer, in real scalars from its start (a complex element's real part; its
/// imaginary part is the next scalar: buffers hold interleaved complex data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    pub buf: BufId,
    pub offset: isize,
}

/// One axis of a box of elements: `n` of them, `stride` real scalars apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axis {
    pub n: usize,
    pub stride: isize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Every transform of `problem` on the caller's arrays, on `backend`, with `threads` host
    /// threads (an FFTW plan's one step). `destroy_input`: the step may overwrite an
    /// out-of-place input (an FFTW c2r plan without `FFTW_PRESERVE_INPUT`, as FFTW's own).
    Transform {
        problem: Problem,
        backend: Backend,
        threads: usize,
        destroy_input: bool,
    },
    /// The transforms of `problem` (strides in real scalars) with input at `input` and output
    /// at `output`, run where those buffers are.
    Fft {
        problem: Problem,
        input: At,
        output: At,
        stream: usize,
    },
    /// Copies elements (complex ones, or real scalars if not `complex`): element (i0, i1, ...)
    /// of the box `dims` (n, is, os; strides in real scalars) from `from + Σ i·is` to
    /// `to + Σ i·os`. Between placements it is a DMA transfer (H2D, D2H, D2D).
    Transfer {
        from: At,
        to: At,
        dims: Vec<IoDim>,
        complex: bool,
        stream: usize,
    },
    /// The twiddle factors between the two rounds of a four-step FFT of length `n`: element
    /// (k, j, ...) of the box at `at` (axes `rows` (k), `cols` (j), then `rest`) is multiplied by
    /// exp(sign · 2πi · k · (first_col + j) / n).
    Twiddle {
        at: At,
        rows: Axis,
        cols: Axis,
        first_col: usize,
        rest: Vec<Axis>,
        n: usize,
        sign: i32,
        stream: usize,
    },
    /// Marks `event` done when the stream's steps so far are.
    Record { event: usize, stream: usize },
    /// The stream's later steps start after `event` is done.
    Wait { event: usize, stream: usize },
    /// Generated code over the buffers (`kernel`): element-wise maps and fused chains.
    Kernel { kernel: Kernel, stream: usize },
    /// One exchange between devices (`kind`): its parts are copies of boxes of complex
    /// elements between device buffers, each on its own stream (its destination's), after the
    /// `Wait`s that precede the step.
    Collective { kind: Collective, parts: Vec<Part> },
    /// One stage of the FMM-FFT's multipole methods (`passes::fmm`).
    Fmm(FmmStep),
}

/// What a [`Step::Collective`] exchanges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    /// Every device sends a part to every device (itself included): a distributed transpose.
    AllToAll,
    /// Every device's part reaches every other device.
    AllGather,
    /// Each device receives the boxes beside its own from its neighbours (cyclically).
    Halo,
}

impl Collective {
    pub fn name(self) -> &'static str {
        match self {
            Collective::AllToAll => "all-to-all",
            Collective::AllGather => "all-gather",
            Collective::Halo => "halo",
        }
    }
}

/// One copy of a [`Step::Collective`]: element (i0, i1, ...) of the box `dims` (n, is, os in
/// real scalars) from `from + Σ i·is` to `to + Σ i·os`, on `stream`.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub from: At,
    pub to: At,
    pub dims: Vec<IoDim>,
    pub stream: usize,
}

impl Step {
    /// The stream the step runs on (a whole-plan transform: stream 0).
    pub fn stream(&self) -> usize {
        match self {
            Step::Transform { .. } => 0,
            Step::Fft { stream, .. }
            | Step::Transfer { stream, .. }
            | Step::Twiddle { stream, .. }
            | Step::Record { stream, .. }
            | Step::Wait { stream, .. }
            | Step::Kernel { stream, .. } => *stream,
            Step::Collective { parts, .. } => parts.first().map_or(0, |p| p.stream),
            Step::Fmm(f) => f.stream,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub buffers: Vec<Buffer>,
    pub steps: Vec<Step>,
}

/// A tile's copies into the caller's output, in a program that streams a transform through
/// device buffers (`passes::stream`): once they and every earlier tile's have landed,
/// transforms `0..done` (in loop order) are complete there. A failed run in place resumes from
/// there on the CPU.
#[derive(Clone, Debug, PartialEq)]
pub struct TileOut {
    /// Indices of the tile's `Transfer` steps into the output.
    pub steps: Vec<usize>,
    pub done: usize,
}

/// A plan's transform lowered for the GPU and host arrays (streamed, out of card, spread over
/// devices), with the tiles of a streamed one (empty otherwise).
#[derive(Clone, Debug, PartialEq)]
pub struct Lowered {
    pub program: Program,
    pub tiles: Vec<TileOut>,
}

/// The caller's arrays are buffers 0 (input) and 1 (output) of every program of an FFTW plan
/// ([`Program::new`]; FFTX programs hold `Role::Array` buffers instead).
pub const INPUT: BufId = 0;
pub const OUTPUT: BufId = 1;

impl Program {
    /// A program over the caller's two arrays, steps to be added.
    pub fn new() -> Program {
        let caller = |role| Buffer {
            role,
            placement: Placement::Host,
        };
        Program {
            buffers: vec![caller(Role::Input), caller(Role::Output)],
            steps: Vec::new(),
        }
    }

    /// One transform of the whole problem on the caller's arrays (see `Step::Transform`).
    pub fn transform(
        problem: &Problem,
        backend: Backend,
        threads: usize,
        destroy_input: bool,
    ) -> Program {
        let mut p = Program::new();
        p.steps.push(Step::Transform {
            problem: problem.clone(),
            backend,
            threads,
            destroy_input,
        });
        p
    }

    /// Adds a temporary of `scalars` real scalars at `placement`.
    pub fn temp(&mut self, scalars: usize, placement: Placement) -> BufId {
        self.buffers.push(Buffer {
            role: Role::Temp { scalars },
            placement,
        });
        self.buffers.len() - 1
    }

    /// Real scalars of temporaries on device `d` (what the program needs of its memory).
    pub fn device_scalars(&self, d: usize) -> usize {
        self.buffers
            .iter()
            .filter(|b| b.placement == Placement::Device(d))
            .map(|b| match b.role {
                Role::Temp { scalars } | Role::ZeroTemp { scalars } => scalars,
                _ => 0,
            })
            .sum()
    }

    /// Checks what an executor relies on: buffers and events named exist, an event is recorded
    /// before it is waited for, and no stream waits for itself.
    pub fn validate(&self) -> Result<(), Error> {
        let mut recorded = std::collections::HashMap::new();
        let buf_ok = |a: &At| a.buf < self.buffers.len();
        for (i, step) in self.steps.iter().enumerate() {
            let bad = |what: &str| Err(Error::internal(format!("step {i}: {what}")));
            match step {
                Step::Fft { input, output, .. } if !buf_ok(input) || !buf_ok(output) => {
                    return bad("no such buffer")
                }
                Step::Transfer { from, to, .. } if !buf_ok(from) || !buf_ok(to) => {
                    return bad("no such buffer")
                }
                Step::Transfer {
                    from,
                    to,
                    dims,
                    complex,
                    ..
                } => {
                    let is: Vec<(isize, isize)> = dims.iter().map(|d| (d.n, d.is)).collect();
                    let os: Vec<(isize, isize)> = dims.iter().map(|d| (d.n, d.os)).collect();
                    if !self.within(from, &is, *complex) || !self.within(to, &os, *complex) {
                        return bad("a transfer reaches outside a temporary");
                    }
                }
                Step::Twiddle { at, .. } if !buf_ok(at) => return bad("no such buffer"),
                Step::Record { event, stream } => {
                    recorded.insert(*event, *stream);
                }
                Step::Wait { event, stream } => match recorded.get(event) {
                    None => return bad("waits for an event never recorded before it"),
                    Some(s) if s == stream => return bad("a stream waits for itself"),
                    _ => {}
                },
                Step::Kernel { kernel, .. }
                    if kernel.buffers().iter().any(|&b| b >= self.buffers.len()) =>
                {
                    return bad("no such buffer")
                }
                Step::Collective { kind, parts } => self
                    .validate_collective(*kind, parts)
                    .map_err(|e| e.context(format!("step {i}")))?,
                Step::Fmm(f) => self
                    .validate_fmm(f)
                    .map_err(|e| e.context(format!("step {i}")))?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether the box of `(n, stride)` axes at `at` lies inside `at`'s buffer, for a
    /// temporary (the caller's arrays have no size here).
    fn within(&self, at: &At, axes: &[(isize, isize)], complex: bool) -> bool {
        let (Role::Temp { scalars } | Role::ZeroTemp { scalars }) = self.buffers[at.buf].role
        else {
            return true;
        };
        if axes.iter().any(|&(n, _)| n <= 0) {
            return true; // an empty box
        }
        let reach = |sign: isize| {
            axes.iter()
                .map(|&(n, s)| ((n - 1) * s * sign).max(0))
                .sum::<isize>()
        };
        let (low, high) = (
            at.offset - reach(-1),
            at.offset + reach(1) + 1 + complex as isize,
        );
        low >= 0 && high <= scalars as isize
    }

    /// A collective's parts copy between device buffers; an all-to-all has a part from every
    /// device it names to every one.
    fn validate_collective(&self, kind: Collective, parts: &[Part]) -> Result<(), Error> {
        let device = |a: &At| match self.buffers.get(a.buf).map(|b| b.placement) {
            Some(Placement::Device(d)) => Ok(d),
            _ => Err(Error::internal(format!(
                "collective part on b{}, not a device buffer",
                a.buf
            ))),
        };
        let mut pairs = std::collections::BTreeSet::new();
        for p in parts {
            pairs.insert((device(&p.from)?, device(&p.to)?));
        }
        if parts.is_empty() {
            return Err(Error::internal("a collective without parts"));
        }
        let devs: std::collections::BTreeSet<usize> = pairs.iter().map(|p| p.0).collect();
        if kind == Collective::AllToAll && pairs.len() != devs.len() * devs.len() {
            return Err(Error::internal("an all-to-all misses a pair of devices"));
        }
        Ok(())
    }

    /// An FMM stage reads and writes within two temporaries.
    fn validate_fmm(&self, f: &FmmStep) -> Result<(), Error> {
        let (src, dst) = f.extents();
        for (a, (lo, hi)) in [(f.src, src), (f.dst, dst)] {
            let Some(Buffer {
                role: Role::Temp { scalars },
                ..
            }) = self.buffers.get(a.buf)
            else {
                return Err(Error::internal(format!(
                    "fmm on b{}, not a temporary",
                    a.buf
                )));
            };
            if a.offset + lo < 0 || a.offset + hi > *scalars as isize {
                return Err(Error::internal(format!(
                    "fmm {} outside b{}",
                    f.op.name(),
                    a.buf
                )));
            }
        }
        if f.src.buf == f.dst.buf {
            return Err(Error::internal(format!("fmm {} in place", f.op.name())));
        }
        Ok(())
    }

    /// FFTW-style s-expression of the program (what `fftw_print_plan` prints).
    pub fn describe(&self) -> String {
        let mut s = String::from("(fftx-program");
        if self
            .steps
            .iter()
            .any(|st| !matches!(st, Step::Transform { .. }))
        {
            for (i, b) in self.buffers.iter().enumerate() {
                let what = match b.role {
                    Role::Input => "input".to_string(),
                    Role::Output => "output".to_string(),
                    Role::Temp { scalars } => format!("temp scalars={scalars}"),
                    Role::Array { addr } => format!("array@{addr:#x}"),
                    Role::ZeroTemp { scalars } => format!("temp scalars={scalars} zero"),
                };
                let _ = write!(s, "\n  (buffer b{i} {what} {})", b.placement.name());
            }
        }
        for step in &self.steps {
            s.push_str("\n  ");
            s.push_str(&describe_step(step));
        }
        s.push(')');
        s
    }
}

/// The offsets (input, output) of element `index` of the box `dims`, elements in the order
/// [`for_each_in_box`] visits them (the last axis fastest).
pub fn box_offsets(dims: &[IoDim], mut index: usize) -> (isize, isize) {
    let (mut i, mut o) = (0, 0);
    for d in dims.iter().rev() {
        let k = (index % d.n as usize) as isize;
        index /= d.n as usize;
        i += k * d.is;
        o += k * d.os;
    }
    (i, o)
}

/// Calls `f(input offset, output offset)` for every element of the box `dims` (a
/// [`Step::Transfer`]'s elements, in order).
pub fn for_each_in_box(dims: &[IoDim], i0: isize, o0: isize, f: &mut impl FnMut(isize, isize)) {
    match dims.split_first() {
        None => f(i0, o0),
        Some((d, rest)) => {
            for k in 0..d.n {
                for_each_in_box(rest, i0 + k * d.is, o0 + k * d.os, f);
            }
        }
    }
}

impl Default for Program {
    fn default() -> Self {
        Program::new()
    }
}

fn at(a: &At) -> String {
    format!("b{}+{}", a.buf, a.offset)
}

fn dims(d: &[IoDim]) -> String {
    d.iter()
        .map(|d| format!("{}:{}:{}", d.n, d.is, d.os))
        .collect::<Vec<_>>()
        .join(" ")
}

fn describe_step(step: &Step) -> String {
    match step {
        Step::Transform {
            problem,
            backend,
            threads,
            destroy_input,
        } => format!(
            "({} threads={}{} {})",
            backend.name(),
            threads,
            if *destroy_input { " destroy-input" } else { "" },
            problem.describe()
        ),
        Step::Fft {
            problem,
            input,
            output,
            stream,
        } => format!(
            "(fft s{stream} {} -> {} {})",
            at(input),
            at(output),
            problem.describe()
        ),
        Step::Transfer {
            from,
            to,
            dims: d,
            complex,
            stream,
        } => format!(
            "(transfer s{stream} {} -> {} [{}]{})",
            at(from),
            at(to),
            dims(d),
            if *complex { "" } else { " real" }
        ),
        Step::Twiddle {
            at: a,
            rows,
            cols,
            first_col,
            n,
            sign,
            stream,
            ..
        } => format!(
            "(twiddle s{stream} {} n={n} sign={sign} rows={}:{} cols={}:{}+{first_col})",
            at(a),
            rows.n,
            rows.stride,
            cols.n,
            cols.stride
        ),
        Step::Record { event, stream } => format!("(record s{stream} e{event})"),
        Step::Wait { event, stream } => format!("(wait s{stream} e{event})"),
        Step::Kernel { kernel, stream } => format!("(kernel s{stream} {})", kernel.describe()),
        Step::Collective { kind, parts } => {
            let mut s = format!("({}", kind.name());
            for p in parts {
                let _ = write!(
                    s,
                    " (s{} {} -> {} [{}])",
                    p.stream,
                    at(&p.from),
                    at(&p.to),
                    dims(&p.dims)
                );
            }
            s + ")"
        }
        Step::Fmm(f) => f.describe(),
    }
}
