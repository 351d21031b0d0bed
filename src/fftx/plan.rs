//! FFTX plans: a graph (one node per subplan) and, once made executable, its compiled form.
//! Node construction and the per-node checks (element types, bounds, aliasing) live here, so
//! the C layer only reads arguments.

use super::decompose::unpruned_count;
use super::exec::{self, Compiled};
use super::graph::problem_of;
use super::graph::{may_overlap, Access, Buf, Graph, Node, Op, Temp};
use super::passes::{fuse, prune, zeros, Chain, PruneReport, Segment, Stage, Step};
use super::recorder::{precision_name, Code};
use crate::problem::{Kind, Precision, R2rKind};
use crate::program::kernel::{box_text, passes, pencil_count, ranges_text, shape_of};
use once_cell::sync::Lazy;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::graph::flags::{NO_OPTIMIZE, SUBPLAN};

/// One dimension as the C layer read it: FFTW's `{n, is, os}` with FFTX's offsets (zero for
/// `fftx_iodim`).
#[derive(Clone, Copy, Debug, Default)]
pub struct DimX {
    pub n: isize,
    pub iofs: isize,
    pub oofs: isize,
    pub dofs: isize,
    pub is: isize,
    pub os: isize,
    pub ds: isize,
}

impl DimX {
    pub fn plain(n: isize, is: isize, os: isize) -> DimX {
        DimX {
            n,
            is,
            os,
            ..Default::default()
        }
    }
}

static NEXT_TEMP: AtomicU64 = AtomicU64::new(1);
/// Live temporaries by handle address.
static TEMPS: Lazy<Mutex<HashMap<usize, Arc<Temp>>>> = Lazy::new(|| Mutex::new(HashMap::new()));

/// Makes a temporary of `precision` (`fftx_create_*` F64, `fftxf_create_*` F32); returns its
/// handle (an address only the library hands out).
pub fn create_temp(
    dims: &[DimX],
    complex: bool,
    zero: bool,
    precision: Precision,
) -> crate::error::Result<usize> {
    let mut len: isize = 1;
    for (i, d) in dims.iter().enumerate() {
        if d.n < 1 {
            return Err(format!("temporary dimension {i} has n = {} (must be >= 1)", d.n).into());
        }
        let s = d.is.abs().max(d.os.abs());
        len = (d.n - 1)
            .checked_mul(s)
            .and_then(|x| x.checked_add(len))
            .ok_or("temporary size overflows")?;
    }
    if len as i128 * 16 > isize::MAX as i128 / 2 {
        return Err("temporary size overflows".into());
    }
    let t = Arc::new(Temp {
        id: NEXT_TEMP.fetch_add(1, Ordering::Relaxed),
        complex,
        len: len as usize,
        zero,
        precision,
    });
    // The handle: 16 bytes of our own, never dereferenced by us; its address is the key.
    let handle = Box::into_raw(Box::new([0u64; 2])) as usize;
    TEMPS.lock().insert(handle, t);
    Ok(handle)
}

pub fn destroy_temp(
    handle: usize,
    complex: bool,
    precision: Precision,
) -> crate::error::Result<()> {
    if handle == 0 {
        return Ok(());
    }
    let mut temps = TEMPS.lock();
    match temps.get(&handle) {
        None => Err(format!("{handle:#x} is not a live FFTX temporary").into()),
        Some(t) if t.complex != complex => Err(format!(
            "temporary #{} is {}, released as {}",
            t.id,
            kind(t.complex),
            kind(complex)
        )
        .into()),
        Some(t) if t.precision != precision => Err(format!(
            "temporary #{} is {}, released by the {} interface",
            t.id,
            precision_name(t.precision),
            precision_name(precision)
        )
        .into()),
        Some(_) => {
            temps.remove(&handle);
            // SAFETY: made by `create_temp` with this layout, removed from the registry once.
            drop(unsafe { Box::from_raw(handle as *mut [u64; 2]) });
            Ok(())
        }
    }
}

fn kind(complex: bool) -> &'static str {
    if complex {
        "complex"
    } else {
        "real"
    }
}

/// The buffer behind a pointer a caller passed: one of our temporaries, or the caller's array.
/// `precision`: the entry point's (a temporary of the other precision is refused).
pub fn buffer(
    ptr: usize,
    complex: bool,
    what: &str,
    precision: Precision,
) -> crate::error::Result<Buf> {
    if ptr == 0 {
        return Err(format!("{what} is NULL").into());
    }
    match TEMPS.lock().get(&ptr) {
        Some(t) if t.complex != complex => Err(format!(
            "{what} is temporary #{} ({}), but a {} array is needed here",
            t.id,
            kind(t.complex),
            kind(complex)
        )
        .into()),
        Some(t) if t.precision != precision => Err(format!(
            "{what} is temporary #{} of {}, but this plan is {}: one plan takes one precision",
            t.id,
            precision_name(t.precision),
            precision_name(precision)
        )
        .into()),
        Some(t) => Ok(Buf::Temp(t.clone())),
        None => Ok(Buf::User {
            addr: ptr,
            complex,
            precision,
        }),
    }
}

/// An access over `dims` (slowest first, as given): offsets resolved as the module doc of
/// `graph` says. `pick` chooses (offset, stride) of the side.
fn access(
    buf: Buf,
    dims: &[DimX],
    pick: impl Fn(&DimX) -> (isize, isize),
) -> crate::error::Result<Access> {
    let mut base: isize = 0;
    let mut strides = Vec::with_capacity(dims.len());
    for d in dims {
        let (o, s) = pick(d);
        base = o
            .checked_mul(s.abs())
            .and_then(|x| x.checked_add(base))
            .ok_or("offset overflows")?;
        strides.push(s);
    }
    Ok(Access { buf, base, strides })
}

/// The checks every node passes when it is made: sizes, bounds, aliasing, and the transform as
/// an FFTW problem.
fn check(node: &Node, offsets: bool) -> crate::error::Result<()> {
    let label = &node.label;
    let sides: Vec<(&str, &Access, &[usize])> = {
        let mut v = vec![
            ("input", &node.input, &node.in_shape[..]),
            ("output", &node.output, &node.out_shape[..]),
        ];
        if let Some(d) = &node.data {
            v.push(("data", d, &node.in_shape[..]));
        }
        v
    };
    for (what, a, shape) in &sides {
        for (k, &d) in shape.iter().enumerate() {
            if d == 0 && k >= node.loops {
                return Err(format!("{label}: {what} dimension {k} has n = 0").into());
            }
        }
        if shape.contains(&0) {
            continue;
        }
        let (lo, hi) = a.span(shape);
        match &a.buf {
            Buf::Temp(t) if lo < 0 || hi >= t.len as isize => {
                return Err(format!(
                    "{label}: the {what} strides leave {}: they reach elements {lo}..={hi} of {} (shapes do not chain)",
                    a.buf.name(),
                    t.len
                ).into());
            }
            Buf::User { .. } if offsets && lo < 0 => {
                return Err(format!("{label}: the {what} offsets and strides reach element {lo}, before the start of the array").into());
            }
            _ => {}
        }
    }
    if let Some(d) = &node.data {
        if may_overlap(d, &node.in_shape, &node.output, &node.out_shape) {
            return Err(format!("{label}: the data operand overlaps the output").into());
        }
    }
    let overlap = may_overlap(&node.input, &node.in_shape, &node.output, &node.out_shape);
    match &node.op {
        Op::Copy | Op::Pointwise(_) => {
            if overlap && !node.input.same_map(&node.output, &node.in_shape) {
                return Err(format!("{label}: input and output overlap without being the same elements (the result would depend on the order)").into());
            }
        }
        _ => {
            let p = problem_of(node);
            if overlap && !p.in_place {
                return Err(format!("{label}: input and output overlap but are not the same array (in-place needs the same start)").into());
            }
            if p.in_place && !p.batches_independent_in_place() {
                return Err(format!(
                    "{label}: an in-place transform needs the same strides for input and output"
                )
                .into());
            }
            if let Op::Transform(Kind::Dft { sign }) = node.op {
                if sign != -1 && sign != 1 {
                    return Err(format!(
                        "{label}: sign {sign} is neither FFTX_FORWARD (-1) nor FFTX_BACKWARD (+1)"
                    )
                    .into());
                }
            }
            p.validate().map_err(|e| format!("{label}: {e}"))?;
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn node(
    label: &str,
    op: Op,
    loops: usize,
    n: Vec<usize>,
    in_shape: Vec<usize>,
    out_shape: Vec<usize>,
    input: Access,
    output: Access,
    data: Option<Access>,
) -> Node {
    Node {
        label: label.into(),
        op,
        loops,
        n,
        in_shape,
        out_shape,
        input,
        output,
        data,
        in_live: None,
        out_live: None,
    }
}

fn sizes(dims: &[DimX], what: &str, min: isize) -> crate::error::Result<Vec<usize>> {
    dims.iter()
        .enumerate()
        .map(|(i, d)| {
            if d.n < min {
                Err(format!("{what} dimension {i} has n = {} (must be >= {min})", d.n).into())
            } else {
                Ok(d.n as usize)
            }
        })
        .collect()
}

/// A transform node: c2c, r2c, c2r or r2r. `dims` and `loops` as FFTW's guru interface.
pub fn transform(
    label: &str,
    kind: Kind,
    dims: &[DimX],
    loops: &[DimX],
    input: Buf,
    output: Buf,
) -> crate::error::Result<Node> {
    if dims.is_empty() {
        return Err(format!("{label}: rank must be >= 1").into());
    }
    let n = sizes(dims, "transform", 1)?;
    let l = sizes(loops, "howmany", 0)?;
    let all: Vec<DimX> = loops.iter().chain(dims).copied().collect();
    let shape = |halved| -> Vec<usize> { l.iter().copied().chain(shape_of(&n, halved)).collect() };
    let (ins, outs) = (shape(kind == Kind::C2r), shape(kind == Kind::R2c));
    let i = access(input, &all, |d| (0, d.is))?;
    let o = access(output, &all, |d| (0, d.os))?;
    let node = node(
        label,
        Op::Transform(kind),
        loops.len(),
        n,
        ins,
        outs,
        i,
        o,
        None,
    );
    check(&node, false)?;
    Ok(node)
}

pub fn copy(label: &str, dims: &[DimX], input: Buf, output: Buf) -> crate::error::Result<Node> {
    let shape = sizes(dims, "copy", 1)?;
    let i = access(input, dims, |d| (d.iofs, d.is))?;
    let o = access(output, dims, |d| (d.oofs, d.os))?;
    let node = node(label, Op::Copy, 0, vec![], shape.clone(), shape, i, o, None);
    check(&node, true)?;
    Ok(node)
}

pub fn pointwise(
    label: &str,
    prog: Code,
    dims: &[DimX],
    loops: &[DimX],
    input: Buf,
    output: Buf,
    data: Option<Buf>,
) -> crate::error::Result<Node> {
    let all: Vec<DimX> = loops.iter().chain(dims).copied().collect();
    let shape: Vec<usize> = sizes(loops, "howmany", 0)?
        .into_iter()
        .chain(sizes(dims, "pointwise", 1)?)
        .collect();
    let i = access(input, &all, |d| (d.iofs, d.is))?;
    let o = access(output, &all, |d| (d.oofs, d.os))?;
    let dt = match data {
        Some(b) if prog.uses_data => Some(access(b, &all, |d| (d.dofs, d.ds))?),
        _ => None,
    };
    let node = node(
        label,
        Op::Pointwise(Arc::new(prog)),
        loops.len(),
        vec![],
        shape.clone(),
        shape,
        i,
        o,
        dt,
    );
    check(&node, true)?;
    Ok(node)
}

/// The executable form and what the passes did.
pub struct Ready {
    pub compiled: Compiled,
    pub steps: Vec<Step>,
    pub report: PruneReport,
    pub optimized: bool,
    /// 1-D transforms of the graph as given (every transform whole).
    pub unoptimized_transforms: u64,
}

pub struct FftxPlan {
    pub graph: Graph,
    pub flags: u32,
    /// Made when the plan is made (a plan without FFTX_SUBPLAN) or on its first execute.
    pub ready: Mutex<Option<Ready>>,
}

/// Runs the passes and lowers the graph.
pub fn compile(g: &Graph, flags: u32) -> crate::error::Result<Ready> {
    zeros(g)?; // the checks across subplans: nothing read before it is written
    let optimized = flags & NO_OPTIMIZE == 0;
    let (steps, report) = if optimized {
        let (p, report) = prune(g)?;
        (fuse(&p), report)
    } else {
        (
            g.nodes.iter().cloned().map(Step::Node).collect(),
            PruneReport::default(),
        )
    };
    let unoptimized_transforms = g.nodes.iter().map(unpruned_count).sum();
    let compiled = exec::lower(&steps, flags, g.precision())?;
    Ok(Ready {
        compiled,
        steps,
        report,
        optimized,
        unoptimized_transforms,
    })
}

impl FftxPlan {
    pub fn new(graph: Graph, flags: u32) -> crate::error::Result<FftxPlan> {
        let p = graph.precision();
        if let Some(n) = graph.nodes.iter().find(|n| n.input.buf.precision() != p) {
            return Err(format!(
                "{} is {}, but {} is {}: the subplans of one plan must have one precision",
                n.label,
                precision_name(n.input.buf.precision()),
                graph.nodes[0].label,
                precision_name(p)
            )
            .into());
        }
        let ready = if flags & SUBPLAN == 0 {
            Some(compile(&graph, flags)?)
        } else {
            None
        };
        Ok(FftxPlan {
            graph,
            flags,
            ready: Mutex::new(ready),
        })
    }

    /// Runs the plan (compiling it first if it was made as a subplan).
    ///
    /// # Safety
    /// The caller's arrays the plan was made for must still be valid.
    pub unsafe fn execute(&self) -> crate::error::Result<()> {
        let mut r = self.ready.lock();
        if r.is_none() {
            *r = Some(compile(&self.graph, self.flags)?);
        }
        r.as_mut().unwrap().compiled.execute()
    }

    /// The printout: the optimized graph with the live boxes, the Program it lowers to, and the
    /// 1-D transform counts.
    pub fn describe(&self) -> String {
        let r = self.ready.lock();
        let mut s = String::new();
        let Some(r) = r.as_ref() else {
            let _ = write!(
                s,
                "(fftx-subplan{}",
                self.graph
                    .nodes
                    .iter()
                    .map(|n| format!("\n  {}", node_text(n)))
                    .collect::<String>()
            );
            s.push(')');
            return s;
        };
        let _ = write!(
            s,
            "(fftx-plan subplans={} steps={} {}",
            self.graph.nodes.len(),
            r.steps.len(),
            if r.optimized {
                "optimized"
            } else {
                "unoptimized"
            }
        );
        let temps: Vec<String> = r
            .compiled
            .temps()
            .map(|t| Buf::Temp(t.clone()).name())
            .collect();
        let _ = write!(
            s,
            "\n  (temporaries {})",
            if temps.is_empty() {
                "none".to_string()
            } else {
                temps.join(" ")
            }
        );
        for step in &r.steps {
            match step {
                Step::Node(n) => {
                    let _ = write!(s, "\n  {}", node_text(n));
                }
                Step::Chain(c) => s.push_str(&chain_text(c)),
            }
        }
        // What runs: the Program the steps lower to.
        let _ = write!(
            s,
            "\n  {}",
            r.compiled.shown().describe().replace('\n', "\n  ")
        );
        for l in r.compiled.gpu_lines() {
            let _ = write!(s, "\n  {l}");
        }
        if !r.report.dead.is_empty() {
            let _ = write!(s, "\n  (removed-dead [{}])", r.report.dead.join(", "));
        }
        let _ = write!(
            s,
            "\n  (1-D transforms per execute: {}; unoptimized graph: {})",
            r.compiled.planned_transforms, r.unoptimized_transforms
        );
        let _ = write!(
            s,
            "\n  (executed: {} 1-D transforms in {} executes))",
            r.compiled.executed_transforms, r.compiled.executions
        );
        s
    }
}

/// A chain's lines of the printout: its loads, stages and stores.
fn chain_text(c: &Chain) -> String {
    let mut s = format!("\n  (chain [{}]", c.labels.join(", "));
    let segment = |s: &mut String, what: &str, l: &Segment, dir: &str| {
        let _ = write!(
            s,
            "\n    ({what} {} {dir} {} base={} strides={:?} ({}))",
            box_text(&l.origin, &l.extent),
            l.access.buf.name(),
            l.access.base,
            l.access.strides,
            l.from
        );
    };
    for l in &c.loads {
        segment(&mut s, "load", l, "from");
    }
    for st in &c.stages {
        match st {
            Stage::Fft {
                kind,
                in_live,
                out_live,
            } => {
                let p = passes(kind, &c.n, in_live, out_live);
                let per: Vec<String> = p
                    .iter()
                    .map(|(a, r)| {
                        let count: u64 = r.iter().map(|x| x.len() as u64).product();
                        format!("axis{a}:{count}")
                    })
                    .collect();
                let _ = write!(
                    s,
                    "\n    ({} n={:?} live-in={} live-out={} pencils {} = {})",
                    kind.name(),
                    c.n,
                    ranges_text(in_live),
                    ranges_text(out_live),
                    per.join(" "),
                    pencil_count(&p)
                );
            }
            Stage::Pointwise { prog, data } => {
                let data = data.as_ref().map(|d| {
                    format!(
                        " data={} base={} strides={:?}",
                        d.buf.name(),
                        d.base,
                        d.strides
                    )
                });
                let _ = write!(
                    s,
                    "\n    (pointwise \"{}\"{})",
                    prog.describe(),
                    data.unwrap_or_default()
                );
            }
        }
    }
    for l in &c.stores {
        segment(&mut s, "store", l, "to");
    }
    s.push(')');
    s
}

fn node_text(n: &Node) -> String {
    let mut s = format!(
        "({} {} in={} base={} strides={:?} shape={:?} out={} base={} strides={:?}",
        n.label,
        n.op.name(),
        n.input.buf.name(),
        n.input.base,
        n.input.strides,
        n.in_shape,
        n.output.buf.name(),
        n.output.base,
        n.output.strides
    );
    if let Some(d) = &n.data {
        let _ = write!(
            s,
            " data={} base={} strides={:?}",
            d.buf.name(),
            d.base,
            d.strides
        );
    }
    if let Op::Pointwise(p) = &n.op {
        let _ = write!(s, " \"{}\"", p.describe());
    }
    if n.op.is_fft() {
        let _ = write!(s, " 1-D transforms={}", unpruned_count(n));
    }
    s.push(')');
    s
}

/// r2r kinds from FFTW's enum values.
pub fn r2r_kinds(k: &[i32]) -> crate::error::Result<Vec<R2rKind>> {
    k.iter()
        .map(|&x| R2rKind::from_c(x).ok_or_else(|| format!("unknown r2r kind {x}").into()))
        .collect()
}
