//! The FFTX graph: an ordered list of nodes (the subplans, in the order given to
//! `fftx_plan_compose`) over buffers (the caller's arrays and FFTX temporaries).
//!
//! Every node reads its input (and, for pointwise nodes, a data operand) and writes its output
//! through an [`Access`]: a strided box over a logical index space. Positions are counted in
//! elements of the buffer (complex elements for complex buffers), as FFTX's iodims count them.
//! Offsets of `fftx_iodimx` are resolved when a node is made: along a dimension with stride `s`
//! and offset `o`, index `j` is at position `o*|s| + j*s` (the paper's `(o + j)*s` for `s >= 0`;
//! for `s < 0` the walk starts at index `o` and goes down, which is how Fig. 7 reflects the
//! Green's function octant).

use crate::problem::{IoDim, Kind, Precision, Problem};
use crate::program::kernel::Code;
use std::ops::Range;
use std::sync::Arc;

/// The FFTX flag bits the layers below the C interface act on (`capi` defines them for C, and
/// its tests check they are these).
pub mod flags {
    /// Plan with the cost model only (FFTX_MEASURE is 0, as FFTW_MEASURE).
    pub const ESTIMATE: u32 = 1 << 6;
    /// A subplan of a compose: not compiled on its own.
    pub const SUBPLAN: u32 = 1 << 24;
    /// Compose keeping the graph as given (no pruning, no fusion): the reference the tests and
    /// the printout compare the optimized plan with.
    pub const NO_OPTIMIZE: u32 = 1 << 27;
}

/// An FFTX temporary: storage the library owns, sized by the dims it was created with.
#[derive(Debug)]
pub struct Temp {
    pub id: u64,
    pub complex: bool,
    /// Elements (complex elements for a complex temporary).
    pub len: usize,
    /// Created by `fftx_create_zero_temp_*`: every entry is zero at the start of each execute.
    pub zero: bool,
    /// `fftx_create_*` (F64) or `fftxf_create_*` (F32).
    pub precision: Precision,
}

#[derive(Clone, Debug)]
pub enum Buf {
    /// A caller's array: its address and element type (the precision is the entry point's:
    /// `fftx_*` F64, `fftxf_*` F32). Its extent is not known.
    User {
        addr: usize,
        complex: bool,
        precision: Precision,
    },
    Temp(Arc<Temp>),
}

impl Buf {
    pub fn complex(&self) -> bool {
        match self {
            Buf::User { complex, .. } => *complex,
            Buf::Temp(t) => t.complex,
        }
    }
    pub fn temp_id(&self) -> Option<u64> {
        match self {
            Buf::Temp(t) => Some(t.id),
            Buf::User { .. } => None,
        }
    }
    pub fn temp(&self) -> Option<&Arc<Temp>> {
        match self {
            Buf::Temp(t) => Some(t),
            Buf::User { .. } => None,
        }
    }
    pub fn precision(&self) -> Precision {
        match self {
            Buf::User { precision, .. } => *precision,
            Buf::Temp(t) => t.precision,
        }
    }
    /// Bytes of one element.
    pub fn elem_bytes(&self) -> isize {
        let real = self.precision().bytes() as isize;
        if self.complex() {
            2 * real
        } else {
            real
        }
    }
    pub fn name(&self) -> String {
        // Single-precision buffers say so; double is the default and unmarked.
        let f32 = if self.precision() == Precision::F32 {
            "f32-"
        } else {
            ""
        };
        match self {
            Buf::User { addr, complex, .. } => format!(
                "{f32}{}array@{:#x}",
                if *complex { "complex-" } else { "real-" },
                addr
            ),
            Buf::Temp(t) => format!(
                "{f32}{}temp#{}[{}]{}",
                if t.complex { "complex-" } else { "real-" },
                t.id,
                t.len,
                if t.zero { "=0" } else { "" }
            ),
        }
    }
}

/// A strided box over a buffer of the graph (see `program::kernel::Access`).
pub type Access = crate::program::kernel::Access<Buf>;

impl Access {
    /// Byte range `[lo, hi)` of a caller's array the box touches (None for temporaries).
    pub fn user_bytes(&self, shape: &[usize]) -> Option<(isize, isize)> {
        match self.buf {
            Buf::User { addr, .. } => {
                let (lo, hi) = self.span(shape);
                let e = self.buf.elem_bytes();
                Some((addr as isize + lo * e, addr as isize + (hi + 1) * e))
            }
            Buf::Temp(_) => None,
        }
    }

    /// Same buffer and the same position for every index (an elementwise in-place access pair).
    pub fn same_map(&self, other: &Access, shape: &[usize]) -> bool {
        self.buf.same(&other.buf)
            && self.base == other.base
            && shape
                .iter()
                .enumerate()
                .all(|(k, &n)| n <= 1 || self.strides[k] == other.strides[k])
    }
}

impl Buf {
    /// The same storage (same temporary, or a caller's array at the same address).
    pub fn same(&self, other: &Buf) -> bool {
        match (self, other) {
            (Buf::Temp(a), Buf::Temp(b)) => a.id == b.id,
            (Buf::User { addr: a, .. }, Buf::User { addr: b, .. }) => a == b,
            _ => false,
        }
    }
}

/// Do two accesses (over their shapes) possibly touch common memory?
pub fn may_overlap(a: &Access, sa: &[usize], b: &Access, sb: &[usize]) -> bool {
    match (&a.buf, &b.buf) {
        (Buf::Temp(x), Buf::Temp(y)) => x.id == y.id,
        (Buf::User { .. }, Buf::User { .. }) => {
            let (alo, ahi) = a.user_bytes(sa).unwrap();
            let (blo, bhi) = b.user_bytes(sb).unwrap();
            alo < bhi && blo < ahi
        }
        _ => false,
    }
}

/// What a node computes: a copy, a transform (FFTW's problem kind, [`Kind`]) or a pointwise
/// program.
#[derive(Clone, Debug)]
pub enum Op {
    Copy,
    Transform(Kind),
    Pointwise(Arc<Code>),
}

impl Op {
    pub fn name(&self) -> String {
        match self {
            Op::Copy => "copy".into(),
            Op::Transform(kind) => kind.name(),
            Op::Pointwise(_) => "pointwise".into(),
        }
    }
    pub fn is_fft(&self) -> bool {
        matches!(self, Op::Transform(_))
    }
    /// The transform's kind; None for copy and pointwise.
    pub fn kind(&self) -> Option<&Kind> {
        match self {
            Op::Transform(kind) => Some(kind),
            _ => None,
        }
    }
}

/// One subplan.
#[derive(Clone, Debug)]
pub struct Node {
    /// "subplan 3 (dft_c2r)": how errors and the printout name it.
    pub label: String,
    pub op: Op,
    /// Leading axes of the index spaces that are howmany loops; the rest are transform axes.
    pub loops: usize,
    /// Logical transform sizes (the real sizes for r2c/c2r); empty for copy and pointwise.
    pub n: Vec<usize>,
    pub in_shape: Vec<usize>,
    pub out_shape: Vec<usize>,
    pub input: Access,
    pub output: Access,
    /// Pointwise data operand, indexed like the input.
    pub data: Option<Access>,
    /// Set by pruning: the input is zero outside these index ranges of the transform axes.
    pub in_live: Option<Vec<Range<usize>>>,
    /// Set by pruning: only these output index ranges of the transform axes are read later.
    pub out_live: Option<Vec<Range<usize>>>,
}

impl Node {
    /// Buffers read (with their index shapes).
    pub fn reads(&self) -> Vec<(&Access, &[usize])> {
        let mut v = vec![(&self.input, &self.in_shape[..])];
        if let Some(d) = &self.data {
            v.push((d, &self.in_shape[..]));
        }
        v
    }
    pub fn touches_temp(&self, id: u64) -> bool {
        self.input.buf.temp_id() == Some(id)
            || self.output.buf.temp_id() == Some(id)
            || self.data.as_ref().and_then(|d| d.buf.temp_id()) == Some(id)
    }
    /// Transform axes of the input / output index space.
    pub fn in_tshape(&self) -> &[usize] {
        &self.in_shape[self.loops..]
    }
    pub fn out_tshape(&self) -> &[usize] {
        &self.out_shape[self.loops..]
    }
}

#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
}

impl Graph {
    /// The precision of every buffer of the graph (`plan` and `capi` keep one per graph);
    /// F64 for an empty graph.
    pub fn precision(&self) -> Precision {
        self.nodes
            .first()
            .map_or(Precision::F64, |n| n.input.buf.precision())
    }
}

/// Calls `f(index, position)` for every index of `shape` in row-major order.
pub fn walk(shape: &[usize], base: isize, strides: &[isize], mut f: impl FnMut(&[usize], isize)) {
    if shape.contains(&0) {
        return;
    }
    let r = shape.len();
    let mut idx = vec![0usize; r];
    let mut pos = base;
    loop {
        f(&idx, pos);
        let mut d = r;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            pos += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            pos -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}

/// The row-major index of linear position `lin` in `shape`.
pub fn unravel(shape: &[usize], mut lin: usize) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = lin % shape[d];
        lin /= shape[d];
    }
    idx
}

/// The FFTW problem of a transform node (strides in real scalars).
pub fn problem_of(node: &Node) -> Problem {
    let (si, so) = (
        if node.input.buf.complex() { 2 } else { 1 },
        if node.output.buf.complex() { 2 } else { 1 },
    );
    let kind = node.op.kind().expect("not a transform").clone();
    let l = node.loops;
    let dims = (0..node.n.len())
        .map(|d| {
            IoDim::new(
                node.n[d] as isize,
                node.input.strides[l + d] * si,
                node.output.strides[l + d] * so,
            )
        })
        .collect();
    let loops = (0..l)
        .map(|k| {
            IoDim::new(
                node.in_shape[k] as isize,
                node.input.strides[k] * si,
                node.output.strides[k] * so,
            )
        })
        .collect();
    let in_place =
        node.input.buf.same(&node.output.buf) && node.input.base * si == node.output.base * so;
    Problem {
        kind,
        dims,
        loops,
        precision: node.input.buf.precision(),
        in_place,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_visits_row_major_with_negative_strides() {
        let mut seen = vec![];
        walk(&[2, 3], 10, &[-5, 1], |i, p| seen.push((i.to_vec(), p)));
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[0], (vec![0, 0], 10));
        assert_eq!(seen[2], (vec![0, 2], 12));
        assert_eq!(seen[3], (vec![1, 0], 5));
        assert_eq!(seen[5], (vec![1, 2], 7));
        let a = Access {
            buf: Buf::User {
                addr: 800,
                complex: false,
                precision: Precision::F64,
            },
            base: 10,
            strides: vec![-5, 1],
        };
        assert_eq!(a.span(&[2, 3]), (5, 12));
        assert_eq!(a.user_bytes(&[2, 3]), Some((840, 904)));
    }

    #[test]
    fn unravel_is_row_major() {
        let s = [3, 4, 5];
        for l in 0..60 {
            let i = unravel(&s, l);
            assert_eq!((i[0] * 4 + i[1]) * 5 + i[2], l);
        }
    }
}
