//! Graph passes, each a pure function over the graph:
//!
//! - [`zeros`]: forward, element by element over every temporary: which entries are known zero
//!   (zero temporaries, and what copies move from zero regions), which hold values, which are
//!   undefined. Reading an undefined entry is the "temporary used before written" error. A DFT
//!   whose input is known zero outside a box gets that box (`in_live`).
//! - [`needed`]: backward: which entries of each temporary are read later. A node none of whose
//!   output is read is dead; a DFT whose output is read only inside a box gets it (`out_live`).
//! - [`prune`]: applies both (sets the boxes, drops dead nodes).
//! - [`fuse`]: turns DFTs into chains: copies into a temporary feeding a DFT become the DFT's
//!   loads; a pointwise node between two DFTs runs on the DFT's work buffer; copies out of a
//!   DFT's output temporary become its stores. Temporaries only the fused nodes used are gone.
//!
//! The boxes are exact bounding boxes computed on the elements (strides of any sign, several
//! copies into one temporary); the element maps behind every fusion are checked, not assumed.

use super::graph::{may_overlap, unravel, walk, Access, Buf, Graph, Node, Op};
use crate::problem::Kind;
use std::collections::HashMap;
use std::ops::Range;

const ZERO: u8 = 0;
const UNDEF: u8 = 1;
const VALUE: u8 = 2;

fn full(shape: &[usize]) -> Vec<Range<usize>> {
    shape.iter().map(|&n| 0..n).collect()
}

/// Bounding box over the transform axes (from `loops` on) of the indices for which `hit` is set.
/// None when no index hits.
fn bounding_box(shape: &[usize], loops: usize, hits: &[bool]) -> Option<Vec<Range<usize>>> {
    let t = &shape[loops..];
    let mut lo = t.to_vec();
    let mut hi = vec![0usize; t.len()];
    let mut any = false;
    let mut l = 0;
    walk(shape, 0, &vec![0; shape.len()], |idx, _| {
        l += 1; // row-major: the linear index of idx is l - 1
        if hits[l - 1] {
            any = true;
            for (d, &i) in idx[loops..].iter().enumerate() {
                lo[d] = lo[d].min(i);
                hi[d] = hi[d].max(i + 1);
            }
        }
    });
    any.then(|| lo.into_iter().zip(hi).map(|(a, b)| a..b).collect())
}

/// Index ranges per transform axis.
pub type Boxes = Vec<Range<usize>>;

/// Input boxes found by zero propagation, one per node (Some only for DFTs whose input is zero
/// outside a box smaller than the whole input). Errors: reading an undefined entry.
pub fn zeros(g: &Graph) -> Result<Vec<Option<Vec<Range<usize>>>>, String> {
    let mut state: HashMap<u64, Vec<u8>> = HashMap::new();
    let mut out = Vec::with_capacity(g.nodes.len());
    for node in &g.nodes {
        let st = |state: &mut HashMap<u64, Vec<u8>>, b: &Buf| {
            if let Buf::Temp(t) = b {
                state
                    .entry(t.id)
                    .or_insert_with(|| vec![if t.zero { ZERO } else { UNDEF }; t.len]);
            }
        };
        st(&mut state, &node.input.buf);
        st(&mut state, &node.output.buf);
        if let Some(d) = &node.data {
            st(&mut state, &d.buf);
        }
        // Reads.
        let read = |state: &HashMap<u64, Vec<u8>>,
                    a: &Access,
                    shape: &[usize],
                    what: &str|
         -> crate::error::Result<Vec<u8>> {
            let count: usize = shape.iter().product();
            let Buf::Temp(t) = &a.buf else {
                return Ok(vec![VALUE; count]);
            };
            let s = &state[&t.id];
            let mut v = Vec::with_capacity(count);
            let mut bad = None;
            walk(shape, a.base, &a.strides, |_, p| {
                let x = s[p as usize];
                if x == UNDEF && bad.is_none() {
                    bad = Some(p);
                }
                v.push(x);
            });
            match bad {
                Some(p) => Err(format!(
                    "{}: reads {} {} at element {p} before anything writes it",
                    node.label,
                    what,
                    a.buf.name()
                )
                .into()),
                None => Ok(v),
            }
        };
        let input = read(&state, &node.input, &node.in_shape, "its input")?;
        if let Some(d) = &node.data {
            read(&state, d, &node.in_shape, "its data operand")?;
        }
        // What the node writes, per output index.
        let count_out: usize = node.out_shape.iter().product();
        let mut live = None;
        let written: Vec<u8> = match &node.op {
            Op::Copy => input,
            Op::Pointwise(_) => vec![VALUE; count_out],
            _ => {
                let hits: Vec<bool> = input.iter().map(|&x| x == VALUE).collect();
                match bounding_box(&node.in_shape, node.loops, &hits) {
                    None => vec![ZERO; count_out], // a transform of zeros
                    Some(b) => {
                        if b != full(node.in_tshape()) {
                            live = Some(b);
                        }
                        vec![VALUE; count_out]
                    }
                }
            }
        };
        if let Buf::Temp(t) = &node.output.buf {
            let s = state.get_mut(&t.id).unwrap();
            let mut k = 0;
            walk(
                &node.out_shape,
                node.output.base,
                &node.output.strides,
                |_, p| {
                    s[p as usize] = written[k];
                    k += 1;
                },
            );
        }
        out.push(live);
    }
    Ok(out)
}

/// Backward liveness: (node is live, output box of DFTs read only inside a smaller box).
pub fn needed(g: &Graph) -> (Vec<bool>, Vec<Option<Boxes>>) {
    let mut need: HashMap<u64, Vec<bool>> = HashMap::new();
    let n = g.nodes.len();
    let mut live = vec![false; n];
    let mut boxes = vec![None; n];
    for i in (0..n).rev() {
        let node = &g.nodes[i];
        let count_out: usize = node.out_shape.iter().product();
        let out_needed: Vec<bool> = match &node.output.buf {
            Buf::User { .. } => vec![true; count_out],
            Buf::Temp(t) => {
                let s = need.entry(t.id).or_insert_with(|| vec![false; t.len]);
                let mut v = Vec::with_capacity(count_out);
                walk(
                    &node.out_shape,
                    node.output.base,
                    &node.output.strides,
                    |_, p| {
                        v.push(s[p as usize]);
                        s[p as usize] = false; // overwritten here: earlier values there are dead
                    },
                );
                v
            }
        };
        if !out_needed.iter().any(|&x| x) {
            continue;
        }
        live[i] = true;
        let elementwise = matches!(node.op, Op::Copy | Op::Pointwise(_));
        if !elementwise && matches!(node.output.buf, Buf::Temp(_)) {
            if let Some(b) = bounding_box(&node.out_shape, node.loops, &out_needed) {
                if b != full(node.out_tshape()) {
                    boxes[i] = Some(b);
                }
            }
        }
        for (a, shape) in node.reads() {
            if let Buf::Temp(t) = &a.buf {
                let s = need.entry(t.id).or_insert_with(|| vec![false; t.len]);
                let mut k = 0;
                walk(shape, a.base, &a.strides, |_, p| {
                    if !elementwise || out_needed[k] {
                        s[p as usize] = true;
                    }
                    k += 1;
                });
            }
        }
    }
    (live, boxes)
}

/// What pruning did, for the printout.
#[derive(Clone, Debug, Default)]
pub struct PruneReport {
    pub dead: Vec<String>,
}

/// Zero propagation + liveness: sets `in_live` / `out_live` of c2c, r2c and c2r nodes without
/// howmany loops, and removes dead nodes.
pub fn prune(g: &Graph) -> crate::error::Result<(Graph, PruneReport)> {
    let ins = zeros(g)?;
    let (live, outs) = needed(g);
    let mut report = PruneReport::default();
    let mut nodes = Vec::new();
    for (i, node) in g.nodes.iter().enumerate() {
        if !live[i] {
            report.dead.push(node.label.clone());
            continue;
        }
        let mut node = node.clone();
        if matches!(
            node.op.kind(),
            Some(Kind::Dft { .. } | Kind::R2c | Kind::C2r)
        ) && node.loops == 0
        {
            node.in_live = ins[i].clone();
            node.out_live = outs[i].clone();
        }
        nodes.push(node);
    }
    Ok((Graph { nodes }, report))
}

/// The fused forms of the program layer (`program::kernel`) over the graph's buffers.
pub type Segment = crate::program::kernel::Segment<Buf>;
pub type Stage = crate::program::kernel::Stage<Buf>;
pub type Chain = crate::program::kernel::Chain<Buf>;

#[derive(Clone, Debug)]
pub enum Step {
    Node(Node),
    Chain(Chain),
}

/// Position -> index of an injective access over a temporary.
enum Locator {
    /// Positive strides, each at least the whole extent of the next smaller one: the index is
    /// read off the position by division, no memory needed.
    Nested {
        base: isize,
        order: Vec<usize>,
        strides: Vec<isize>,
        shape: Vec<usize>,
    },
    /// Anything else: temporary position -> 1 + linear index (0: not addressed).
    Table { table: Vec<u32>, shape: Vec<usize> },
}

impl Locator {
    /// None if the access is not injective or leaves the temporary.
    fn new(a: &Access, shape: &[usize]) -> Option<Locator> {
        let t = a.buf.temp()?;
        let (lo, hi) = a.span(shape);
        if shape.contains(&0) || lo < 0 || hi >= t.len as isize {
            return None;
        }
        let mut order: Vec<usize> = (0..shape.len()).filter(|&d| shape[d] > 1).collect();
        order.sort_by_key(|&d| std::cmp::Reverse(a.strides[d]));
        let nested = order.iter().all(|&d| a.strides[d] > 0)
            && order
                .windows(2)
                .all(|w| a.strides[w[0]] >= a.strides[w[1]] * shape[w[1]] as isize);
        if nested {
            return Some(Locator::Nested {
                base: a.base,
                order,
                strides: a.strides.clone(),
                shape: shape.to_vec(),
            });
        }
        let count: usize = shape.iter().product();
        if count >= u32::MAX as usize {
            return None;
        }
        let mut table = vec![0u32; t.len];
        let mut ok = true;
        let mut l = 0u32;
        walk(shape, a.base, &a.strides, |_, p| {
            l += 1;
            match table.get_mut(p as usize) {
                Some(x) if *x == 0 => *x = l,
                _ => ok = false,
            }
        });
        ok.then(|| Locator::Table {
            table,
            shape: shape.to_vec(),
        })
    }

    /// The index at position `p`, if the access addresses it.
    fn locate(&self, p: isize) -> Option<Vec<usize>> {
        match self {
            Locator::Nested {
                base,
                order,
                strides,
                shape,
            } => {
                let mut r = p - base;
                let mut idx = vec![0; shape.len()];
                for &d in order {
                    if r < 0 {
                        return None;
                    }
                    let i = r / strides[d];
                    if i as usize >= shape[d] {
                        return None;
                    }
                    idx[d] = i as usize;
                    r -= i * strides[d];
                }
                (r == 0).then_some(idx)
            }
            Locator::Table { table, shape } => {
                let l = *table.get(usize::try_from(p).ok()?)?;
                (l > 0).then(|| unravel(shape, l as usize - 1))
            }
        }
    }

    fn shape(&self) -> &[usize] {
        match self {
            Locator::Nested { shape, .. } | Locator::Table { shape, .. } => shape,
        }
    }
}

/// Maps a box written or read by an elementwise node (positions `base + sum_k j_k strides[k]`,
/// `j < ext`) into the index space of the access behind `loc`: (origin, axis of each box axis
/// (None for extent-1 axes)). None unless every box axis is one unit step of a distinct index
/// axis and the box stays inside.
fn map_box(
    loc: &Locator,
    base: isize,
    strides: &[isize],
    ext: &[usize],
) -> Option<(Vec<usize>, Vec<Option<usize>>)> {
    let shape = loc.shape();
    let origin = loc.locate(base)?;
    let mut used = vec![false; shape.len()];
    let mut axes = vec![None; ext.len()];
    for k in 0..ext.len() {
        if ext[k] == 0 {
            return None;
        }
        if ext[k] == 1 {
            continue;
        }
        let c = loc.locate(base + strides[k])?;
        let diff: Vec<usize> = (0..shape.len()).filter(|&d| c[d] != origin[d]).collect();
        let [d] = diff[..] else { return None };
        if c[d] != origin[d] + 1 || used[d] || origin[d] + ext[k] > shape[d] {
            return None;
        }
        used[d] = true;
        axes[k] = Some(d);
    }
    Some((origin, axes))
}

/// Strides per chain axis from the strides per box axis.
fn per_axis(
    rank: usize,
    axes: &[Option<usize>],
    strides: &[isize],
    ext: &[usize],
) -> (Vec<isize>, Vec<usize>) {
    let mut s = vec![0isize; rank];
    let mut e = vec![1usize; rank];
    for (k, a) in axes.iter().enumerate() {
        if let Some(d) = a {
            s[*d] = strides[k];
            e[*d] = ext[k];
        }
    }
    (s, e)
}

fn writes_conflict(writer: &Node, a: &Access, shape: &[usize]) -> bool {
    may_overlap(&writer.output, &writer.out_shape, a, shape)
}

/// Can node `x` run at position `to` instead (with the nodes in `fused` moving along)?
fn can_move(nodes: &[Node], x: usize, to: usize, fused: &[usize]) -> bool {
    let (lo, hi) = if x < to { (x, to) } else { (to, x) };
    let me = &nodes[x];
    (lo + 1..hi).filter(|k| !fused.contains(k)).all(|k| {
        let other = &nodes[k];
        let reads_ok = me
            .reads()
            .iter()
            .all(|(a, s)| !writes_conflict(other, a, s));
        let writes_ok = !other
            .reads()
            .iter()
            .any(|(a, s)| may_overlap(&me.output, &me.out_shape, a, s))
            && !writes_conflict(other, &me.output, &me.out_shape);
        reads_ok && writes_ok
    })
}

/// Indices of the nodes that touch temporary `id`.
fn users(nodes: &[Node], id: u64) -> Vec<usize> {
    (0..nodes.len())
        .filter(|&k| nodes[k].touches_temp(id))
        .collect()
}

fn fusable_fft(n: &Node) -> bool {
    matches!(n.op.kind(), Some(Kind::Dft { .. } | Kind::R2c | Kind::C2r)) && n.loops == 0
}

/// Pointwise fusion: D1 -> T2 -> P -> T3 -> D2. Returns (p, d2, data access per chain axis).
fn find_pointwise(nodes: &[Node], i: usize) -> Option<(usize, usize, Option<Access>)> {
    let d1 = &nodes[i];
    let t2 = d1.output.buf.temp()?;
    let u2 = users(nodes, t2.id);
    let [a, p] = u2[..] else { return None };
    if a != i || p <= i {
        return None;
    }
    let pw = &nodes[p];
    let Op::Pointwise(prog) = &pw.op else {
        return None;
    };
    if !prog.complex || pw.input.buf.temp_id() != Some(t2.id) {
        return None;
    }
    let t3 = pw.output.buf.temp()?;
    let u3 = users(nodes, t3.id);
    let [b, j] = u3[..] else { return None };
    if b != p || j <= p {
        return None;
    }
    let d2 = &nodes[j];
    if !fusable_fft(d2)
        || d2.input.buf.temp_id() != Some(t3.id)
        || d1.out_live.is_some()
        || d2.in_live.is_some()
    {
        return None;
    }
    let kinds_ok = matches!(
        (d1.op.kind(), d2.op.kind()),
        (Some(Kind::Dft { .. }), Some(Kind::Dft { .. })) | (Some(Kind::R2c), Some(Kind::C2r))
    );
    if !kinds_ok || d1.n != d2.n || d1.out_shape != d2.in_shape {
        return None;
    }
    let shape = &d1.out_shape;
    let t1 = Locator::new(&d1.output, shape)?;
    let (o1, axes) = map_box(&t1, pw.input.base, &pw.input.strides, &pw.in_shape)?;
    let t3tab = Locator::new(&d2.input, shape)?;
    let (o3, axes3) = map_box(&t3tab, pw.output.base, &pw.output.strides, &pw.out_shape)?;
    if axes != axes3 || o1.iter().any(|&x| x != 0) || o3.iter().any(|&x| x != 0) {
        return None;
    }
    // Full coverage: every element of the work buffer is one element of the pointwise box.
    let (_, ext) = per_axis(shape.len(), &axes, &pw.input.strides, &pw.in_shape);
    if &ext != shape || pw.in_shape.iter().product::<usize>() != shape.iter().product::<usize>() {
        return None;
    }
    let data = pw.data.as_ref().map(|d| {
        let (s, _) = per_axis(shape.len(), &axes, &d.strides, &pw.in_shape);
        Access {
            buf: d.buf.clone(),
            base: d.base,
            strides: s,
        }
    });
    Some((p, j, data))
}

/// Trailing pointwise fusion: D (c2c or r2c) -> T -> P -> anywhere, P the only other user of T
/// and covering D's whole output. Returns (p, data access per chain axis, P's output as a store).
fn find_trailing(nodes: &[Node], i: usize) -> Option<(usize, Option<Access>, Segment)> {
    let d = &nodes[i];
    if !matches!(d.op.kind(), Some(Kind::Dft { .. } | Kind::R2c)) || d.out_live.is_some() {
        return None;
    }
    let t = d.output.buf.temp()?;
    let [a, p] = users(nodes, t.id)[..] else {
        return None;
    };
    if a != i || p <= i {
        return None;
    }
    let pw = &nodes[p];
    let Op::Pointwise(prog) = &pw.op else {
        return None;
    };
    if !prog.complex
        || pw.input.buf.temp_id() != Some(t.id)
        || pw.output.buf.temp_id() == Some(t.id)
    {
        return None;
    }
    let shape = &d.out_shape;
    let loc = Locator::new(&d.output, shape)?;
    let (origin, axes) = map_box(&loc, pw.input.base, &pw.input.strides, &pw.in_shape)?;
    let (_, ext) = per_axis(shape.len(), &axes, &pw.input.strides, &pw.in_shape);
    if origin.iter().any(|&x| x != 0)
        || &ext != shape
        || pw.in_shape.iter().product::<usize>() != shape.iter().product::<usize>()
    {
        return None;
    }
    let data = pw.data.as_ref().map(|x| Access {
        buf: x.buf.clone(),
        base: x.base,
        strides: per_axis(shape.len(), &axes, &x.strides, &pw.in_shape).0,
    });
    let (out_strides, _) = per_axis(shape.len(), &axes, &pw.output.strides, &pw.in_shape);
    let store = Segment {
        origin: vec![0; shape.len()],
        extent: shape.clone(),
        access: Access {
            buf: pw.output.buf.clone(),
            base: pw.output.base,
            strides: out_strides,
        },
        from: pw.label.clone(),
    };
    Some((p, data, store))
}

/// Leading pointwise fusion: anywhere -> P -> T -> D (c2c), P the only other user of T and
/// writing D's whole input. Returns (p, data access per chain axis, P's input as the load).
fn find_leading(nodes: &[Node], i: usize) -> Option<(usize, Option<Access>, Segment)> {
    let d = &nodes[i];
    if !matches!(d.op.kind(), Some(Kind::Dft { .. })) || d.in_live.is_some() {
        return None;
    }
    let t = d.input.buf.temp()?;
    let [p, b] = users(nodes, t.id)[..] else {
        return None;
    };
    if b != i || p >= i {
        return None;
    }
    let pw = &nodes[p];
    let Op::Pointwise(prog) = &pw.op else {
        return None;
    };
    if !prog.complex
        || pw.output.buf.temp_id() != Some(t.id)
        || pw.input.buf.temp_id() == Some(t.id)
    {
        return None;
    }
    let shape = &d.in_shape;
    let loc = Locator::new(&d.input, shape)?;
    let (origin, axes) = map_box(&loc, pw.output.base, &pw.output.strides, &pw.out_shape)?;
    let (_, ext) = per_axis(shape.len(), &axes, &pw.output.strides, &pw.out_shape);
    if origin.iter().any(|&x| x != 0)
        || &ext != shape
        || pw.out_shape.iter().product::<usize>() != shape.iter().product::<usize>()
    {
        return None;
    }
    let data = pw.data.as_ref().map(|x| Access {
        buf: x.buf.clone(),
        base: x.base,
        strides: per_axis(shape.len(), &axes, &x.strides, &pw.in_shape).0,
    });
    let (in_strides, _) = per_axis(shape.len(), &axes, &pw.input.strides, &pw.in_shape);
    let load = Segment {
        origin: vec![0; shape.len()],
        extent: shape.clone(),
        access: Access {
            buf: pw.input.buf.clone(),
            base: pw.input.base,
            strides: in_strides,
        },
        from: pw.label.clone(),
    };
    Some((p, data, load))
}

/// Load fusion: every writer of D's input temporary is a copy before D that maps into D's input.
fn find_loads(nodes: &[Node], i: usize) -> Option<(Vec<usize>, Vec<Segment>)> {
    let d = &nodes[i];
    let t = d.input.buf.temp()?;
    let us = users(nodes, t.id);
    let copies: Vec<usize> = us.iter().copied().filter(|&k| k != i).collect();
    if copies.is_empty() || copies.iter().any(|&k| k > i) {
        return None;
    }
    let table = Locator::new(&d.input, &d.in_shape)?;
    let mut segs = Vec::new();
    for &k in &copies {
        let c = &nodes[k];
        if !matches!(c.op, Op::Copy)
            || c.output.buf.temp_id() != Some(t.id)
            || c.input.buf.temp_id() == Some(t.id)
        {
            return None;
        }
        let (origin, axes) = map_box(&table, c.output.base, &c.output.strides, &c.out_shape)?;
        let (s, e) = per_axis(d.in_shape.len(), &axes, &c.input.strides, &c.in_shape);
        segs.push(Segment {
            origin,
            extent: e,
            access: Access {
                buf: c.input.buf.clone(),
                base: c.input.base,
                strides: s,
            },
            from: c.label.clone(),
        });
    }
    Some((copies, segs))
}

/// Store fusion: D's output temporary is only read by copies after D that map from D's output.
fn find_stores(nodes: &[Node], i: usize) -> Option<(Vec<usize>, Vec<Segment>)> {
    let d = &nodes[i];
    let t = d.output.buf.temp()?;
    let us = users(nodes, t.id);
    let copies: Vec<usize> = us.iter().copied().filter(|&k| k != i).collect();
    if copies.is_empty() || copies.iter().any(|&k| k < i) {
        return None;
    }
    let table = Locator::new(&d.output, &d.out_shape)?;
    let mut segs = Vec::new();
    for &k in &copies {
        let c = &nodes[k];
        if !matches!(c.op, Op::Copy)
            || c.input.buf.temp_id() != Some(t.id)
            || c.output.buf.temp_id() == Some(t.id)
        {
            return None;
        }
        let (origin, axes) = map_box(&table, c.input.base, &c.input.strides, &c.in_shape)?;
        let (s, e) = per_axis(d.out_shape.len(), &axes, &c.output.strides, &c.out_shape);
        segs.push(Segment {
            origin,
            extent: e,
            access: Access {
                buf: c.output.buf.clone(),
                base: c.output.base,
                strides: s,
            },
            from: c.label.clone(),
        });
    }
    Some((copies, segs))
}

fn full_segment(a: &Access, shape: &[usize], from: &str) -> Segment {
    Segment {
        origin: vec![0; shape.len()],
        extent: shape.to_vec(),
        access: a.clone(),
        from: from.to_string(),
    }
}

fn fft_stage(n: &Node) -> Stage {
    Stage::Fft {
        kind: n.op.kind().expect("a transform node").clone(),
        in_live: n.in_live.clone().unwrap_or_else(|| full(&n.in_shape)),
        out_live: n.out_live.clone().unwrap_or_else(|| full(&n.out_shape)),
    }
}

/// Fusion: DFTs become chains where something is gained (pruning, or fused neighbours); every
/// other node stays a node. The steps come back in execution order.
pub fn fuse(g: &Graph) -> Vec<Step> {
    let nodes = &g.nodes;
    let mut consumed = vec![false; nodes.len()];
    let mut chain_at: HashMap<usize, Chain> = HashMap::new();
    for i in 0..nodes.len() {
        if consumed[i] || !fusable_fft(&nodes[i]) {
            continue;
        }
        if let Some(around) = around(nodes, i, &consumed) {
            let last = *around.members.last().unwrap();
            chain_at.insert(last, chain(nodes, around, &mut consumed));
        }
    }
    let mut steps = Vec::new();
    for (k, node) in nodes.iter().enumerate() {
        if let Some(c) = chain_at.remove(&k) {
            steps.push(Step::Chain(c));
        } else if !consumed[k] {
            steps.push(Step::Node(node.clone()));
        }
    }
    steps
}

/// What joins the transform at node `i` in a chain (none of it consumed by an earlier chain).
struct Around {
    /// The transform, and with a pointwise product between two transforms, the product and the
    /// second transform.
    members: Vec<usize>,
    /// The product between two transforms: its node and data.
    between: Option<(usize, Option<Access>)>,
    /// A pointwise function reading the whole output (its node, data, and where it writes).
    tail: Option<(usize, Option<Access>, Segment)>,
    /// The copies that fill the first transform's input (their nodes and boxes).
    loads: Option<(Vec<usize>, Vec<Segment>)>,
    /// Or a pointwise function writing the whole input of a c2c (node, data, where it reads).
    head: Option<(usize, Option<Access>, Segment)>,
    /// The copies out of the last transform's output.
    stores: Option<(Vec<usize>, Vec<Segment>)>,
}

/// The nodes that may join the transform at node `i`; None when a chain would gain nothing
/// (the transform alone, unpruned: it runs as the plain transform).
fn around(nodes: &[Node], i: usize, consumed: &[bool]) -> Option<Around> {
    let mut members = vec![i];
    let mut between = None;
    if let Some((p, j, data)) = find_pointwise(nodes, i) {
        let moves = can_move(nodes, i, j, &[i, p, j]) && can_move(nodes, p, j, &[i, p, j]);
        if moves && !consumed[p] && !consumed[j] {
            members = vec![i, p, j];
            between = Some((p, data));
        }
    }
    // Otherwise a pointwise function reading the whole output: it runs in the work buffer
    // and writes where it wrote.
    let mut tail = None;
    if between.is_none() {
        if let Some((p, data, seg)) = find_trailing(nodes, i) {
            if !consumed[p] && can_move(nodes, i, p, &[i, p]) {
                members = vec![i, p];
                tail = Some((p, data, seg));
            }
        }
    }
    let last = *members.last().unwrap();
    let free_to_move = |copies: &[usize], all: &[usize]| {
        copies
            .iter()
            .all(|&c| !consumed[c] && can_move(nodes, c, last, all))
    };
    let mut loads = None;
    if let Some((copies, segs)) = find_loads(nodes, i) {
        let all: Vec<usize> = members.iter().chain(&copies).copied().collect();
        if free_to_move(&copies, &all) {
            loads = Some((copies, segs));
        }
    }
    // Or a pointwise function writing the whole input of a c2c: it runs in the work buffer,
    // loading from where it read.
    let mut head = None;
    if loads.is_none() {
        if let Some((p, data, seg)) = find_leading(nodes, i) {
            let all: Vec<usize> = members.iter().copied().chain([p]).collect();
            if !consumed[p] && can_move(nodes, p, last, &all) {
                head = Some((p, data, seg));
            }
        }
    }
    let mut stores = None;
    // A trailing pointwise function's own output is the store.
    if tail.is_none() {
        if let Some((copies, segs)) = find_stores(nodes, last) {
            let mut all: Vec<usize> = members.iter().chain(&copies).copied().collect();
            all.extend(loads.iter().flat_map(|(l, _)| l));
            all.extend(head.iter().map(|(p, _, _)| *p));
            if free_to_move(&copies, &all) {
                stores = Some((copies, segs));
            }
        }
    }
    let (first, last_node) = (&nodes[i], &nodes[last]);
    let pruned = first.in_live.is_some()
        || first.out_live.is_some()
        || last_node.in_live.is_some()
        || last_node.out_live.is_some();
    if members.len() == 1 && loads.is_none() && head.is_none() && stores.is_none() && !pruned {
        return None;
    }
    Some(Around {
        members,
        between,
        tail,
        loads,
        head,
        stores,
    })
}

/// The chain of what [`around`] found, its nodes marked consumed.
fn chain(nodes: &[Node], a: Around, consumed: &mut [bool]) -> Chain {
    let (first, last_node) = (&nodes[a.members[0]], &nodes[*a.members.last().unwrap()]);
    let pointwise = |p: usize, data: Option<Access>| {
        let Op::Pointwise(prog) = &nodes[p].op else {
            unreachable!("a pointwise node")
        };
        Stage::Pointwise {
            prog: prog.clone(),
            data,
        }
    };
    let mut labels: Vec<String> = Vec::new();
    let mut take = |k: usize, labels: &mut Vec<String>| {
        consumed[k] = true;
        labels.push(nodes[k].label.clone());
    };
    let mut stages = vec![];
    let loads = match (a.loads, a.head) {
        (Some((copies, segs)), _) => {
            copies.into_iter().for_each(|c| take(c, &mut labels));
            segs
        }
        (None, Some((p, data, seg))) => {
            take(p, &mut labels);
            stages.push(pointwise(p, data));
            vec![seg]
        }
        (None, None) => vec![full_segment(&first.input, &first.in_shape, &first.label)],
    };
    stages.push(fft_stage(first));
    if let Some((p, data)) = a.between {
        stages.push(pointwise(p, data));
        stages.push(fft_stage(last_node));
    }
    let mut tail_store = None;
    if let Some((p, data, seg)) = a.tail {
        stages.push(pointwise(p, data));
        tail_store = Some(seg);
    }
    a.members.iter().for_each(|&m| take(m, &mut labels));
    let stores = match (tail_store, a.stores) {
        (Some(seg), _) => vec![seg],
        (None, Some((copies, segs))) => {
            copies.into_iter().for_each(|c| take(c, &mut labels));
            segs
        }
        (None, None) => vec![full_segment(
            &last_node.output,
            &last_node.out_shape,
            &last_node.label,
        )],
    };
    Chain {
        labels,
        n: first.n.clone(),
        loads,
        stages,
        stores,
        fusion: None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::fftx::graph::Temp;
    use crate::program::kernel::{shape_of, Code, Inst, Reg};
    use std::sync::Arc;

    pub fn temp(id: u64, complex: bool, len: usize, zero: bool) -> Buf {
        Buf::Temp(Arc::new(Temp {
            id,
            complex,
            len,
            zero,
            precision: crate::problem::Precision::F64,
        }))
    }
    pub fn user(addr: usize, complex: bool) -> Buf {
        Buf::User {
            addr,
            complex,
            precision: crate::problem::Precision::F64,
        }
    }
    fn acc(buf: &Buf, base: isize, strides: &[isize]) -> Access {
        Access {
            buf: buf.clone(),
            base,
            strides: strides.to_vec(),
        }
    }
    pub fn copy(label: &str, shape: &[usize], src: Access, dst: Access) -> Node {
        Node {
            label: label.into(),
            op: Op::Copy,
            loops: 0,
            n: vec![],
            in_shape: shape.to_vec(),
            out_shape: shape.to_vec(),
            input: src,
            output: dst,
            data: None,
            in_live: None,
            out_live: None,
        }
    }
    pub fn fft(label: &str, kind: Kind, n: &[usize], src: Access, dst: Access) -> Node {
        let in_shape = shape_of(n, kind == Kind::C2r);
        let out_shape = shape_of(n, kind == Kind::R2c);
        Node {
            label: label.into(),
            op: Op::Transform(kind),
            loops: 0,
            n: n.to_vec(),
            in_shape,
            out_shape,
            input: src,
            output: dst,
            data: None,
            in_live: None,
            out_live: None,
        }
    }
    fn scaling() -> Arc<Code> {
        Arc::new(Code {
            complex: true,
            temps: 0,
            insts: vec![Inst::Mov(Reg::Out, Reg::In), Inst::Mul(Reg::Out, Reg::Data)],
            uses_data: true,
        })
    }
    fn pointwise(label: &str, shape: &[usize], src: Access, dst: Access, data: Access) -> Node {
        let mut n = copy(label, shape, src, dst);
        n.op = Op::Pointwise(scaling());
        n.data = Some(data);
        n
    }

    /// The paper's Fig. 2 graph in 2-D (n x n, input box ns x ns, output the last nd x nd).
    pub fn fig2(n: usize, ns: usize, nd: usize) -> Graph {
        let nk = n / 2 + 1;
        let (ni, nn) = (n as isize, n as isize);
        let t1 = temp(1, false, n * n, true);
        let t2 = temp(2, true, n * nk, false);
        let t3 = temp(3, true, n * nk, false);
        let t4 = temp(4, false, n * n, false);
        let input = user(0x1000, false);
        let out = user(0x100000, false);
        let g = user(0x200000, true);
        let nkk = nk as isize;
        Graph {
            nodes: vec![
                copy(
                    "subplan 0 (copy)",
                    &[ns, ns],
                    acc(&input, 0, &[ns as isize, 1]),
                    acc(&t1, 0, &[nn, 1]),
                ),
                fft(
                    "subplan 1 (r2c)",
                    Kind::R2c,
                    &[n, n],
                    acc(&t1, 0, &[nn, 1]),
                    acc(&t2, 0, &[nkk, 1]),
                ),
                pointwise(
                    "subplan 2 (pointwise)",
                    &[n, nk],
                    acc(&t2, 0, &[nkk, 1]),
                    acc(&t3, 0, &[nkk, 1]),
                    acc(&g, 0, &[nkk, 1]),
                ),
                fft(
                    "subplan 3 (c2r)",
                    Kind::C2r,
                    &[n, n],
                    acc(&t3, 0, &[nkk, 1]),
                    acc(&t4, 0, &[nn, 1]),
                ),
                copy(
                    "subplan 4 (copy)",
                    &[nd, nd],
                    acc(&t4, (ni - nd as isize) * nn + (ni - nd as isize), &[nn, 1]),
                    acc(&out, 0, &[nd as isize, 1]),
                ),
            ],
        }
    }

    #[test]
    fn zeros_finds_the_copied_box_and_use_before_write() {
        let g = fig2(16, 5, 7);
        let z = zeros(&g).unwrap();
        assert_eq!(z[1], Some(vec![0..5, 0..5]));
        assert_eq!(z[3], None); // the pointwise output is full
                                // A temporary read before anything writes it.
        let mut bad = fig2(16, 5, 7);
        bad.nodes.remove(1);
        let e = zeros(&bad).unwrap_err();
        assert!(
            e.starts_with("subplan 2 (pointwise): reads its input complex-temp#2"),
            "{e}"
        );
    }

    #[test]
    fn zeros_propagates_through_partial_copies_and_reversed_strides() {
        // Two copies into one zero temp of 10, one reversed: live box = elements 2..8.
        let t = temp(1, false, 10, true);
        let u = user(0x1000, false);
        let o = temp(2, true, 6, false);
        let g = Graph {
            nodes: vec![
                copy("c0", &[3], acc(&u, 0, &[1]), acc(&t, 2, &[1])),
                copy("c1", &[2], acc(&u, 3, &[1]), acc(&t, 7, &[-1])),
                fft("f", Kind::R2c, &[10], acc(&t, 0, &[1]), acc(&o, 0, &[1])),
            ],
        };
        assert_eq!(zeros(&g).unwrap()[2], Some(std::iter::once(2..8).collect()));
        // Copying zeros from a zero temp keeps them zero.
        let z = temp(3, false, 10, true);
        let g2 = Graph {
            nodes: vec![
                copy("c0", &[2], acc(&u, 0, &[1]), acc(&t, 0, &[1])),
                copy("zeros", &[10], acc(&z, 0, &[1]), acc(&t, 0, &[1])),
                copy("c1", &[1], acc(&u, 0, &[1]), acc(&t, 4, &[1])),
                fft("f", Kind::R2c, &[10], acc(&t, 0, &[1]), acc(&o, 0, &[1])),
            ],
        };
        assert_eq!(
            zeros(&g2).unwrap()[3],
            Some(std::iter::once(4..5).collect())
        );
    }

    #[test]
    fn zeros_refuses_reading_the_unwritten_part_of_a_temporary() {
        // A non-zero temporary of 8, only 0..5 written, then read whole.
        let t = temp(1, false, 8, false);
        let u = user(0x1000, false);
        let o = user(0x9000, false);
        let g = Graph {
            nodes: vec![
                copy("c0", &[5], acc(&u, 0, &[1]), acc(&t, 0, &[1])),
                copy("c1", &[8], acc(&t, 0, &[1]), acc(&o, 0, &[1])),
            ],
        };
        let e = zeros(&g).unwrap_err();
        assert!(
            e.contains("c1: reads its input real-temp#1[8] at element 5 before anything writes it"),
            "{e}"
        );
        // Written whole by two copies: fine.
        let mut g2 = g.clone();
        g2.nodes
            .insert(1, copy("c2", &[3], acc(&u, 0, &[1]), acc(&t, 7, &[-1])));
        assert!(zeros(&g2).is_ok());
    }

    #[test]
    fn needed_finds_the_output_box_and_dead_nodes() {
        let mut g = fig2(16, 5, 7);
        // A dead copy: writes a temp no one reads.
        let t9 = temp(9, false, 4, false);
        g.nodes.push(copy(
            "dead",
            &[4],
            acc(&user(0x1000, false), 0, &[1]),
            acc(&t9, 0, &[1]),
        ));
        let (live, boxes) = needed(&g);
        assert_eq!(live, vec![true, true, true, true, true, false]);
        assert_eq!(boxes[3], Some(vec![9..16, 9..16]));
        assert_eq!(boxes[1], None); // the pointwise reads every element of the spectrum
        let (p, report) = prune(&g).unwrap();
        assert_eq!(report.dead, vec!["dead".to_string()]);
        assert_eq!(p.nodes.len(), 5);
        assert_eq!(p.nodes[1].in_live, Some(vec![0..5, 0..5]));
        assert_eq!(p.nodes[3].out_live, Some(vec![9..16, 9..16]));
    }

    #[test]
    fn fuse_makes_one_chain_of_fig2() {
        let (g, _) = prune(&fig2(16, 5, 7)).unwrap();
        let steps = fuse(&g);
        assert_eq!(steps.len(), 1, "{steps:?}");
        let Step::Chain(c) = &steps[0] else { panic!() };
        assert_eq!(c.labels.len(), 5);
        assert_eq!(c.loads.len(), 1);
        assert_eq!(c.loads[0].origin, vec![0, 0]);
        assert_eq!(c.loads[0].extent, vec![5, 5]);
        assert_eq!(c.loads[0].access.strides, vec![5, 1]);
        assert_eq!(c.stores[0].origin, vec![9, 9]);
        assert_eq!(c.stores[0].access.strides, vec![7, 1]);
        assert_eq!(c.stages.len(), 3);
        assert!(
            matches!(&c.stages[1], Stage::Pointwise { data: Some(d), .. } if d.strides == vec![9, 1])
        );
    }

    #[test]
    fn fuse_takes_a_trailing_pointwise_that_covers_the_output() {
        let t = temp(1, true, 8, false);
        let (u, v, g) = (user(0x1000, true), user(0x9000, true), user(0x20000, true));
        let graph = |n: usize| Graph {
            nodes: vec![
                fft(
                    "f",
                    Kind::Dft { sign: -1 },
                    &[8],
                    acc(&u, 0, &[1]),
                    acc(&t, 0, &[1]),
                ),
                pointwise(
                    "p",
                    &[n],
                    acc(&t, 0, &[1]),
                    acc(&v, 0, &[2]),
                    acc(&g, 0, &[1]),
                ),
            ],
        };
        let steps = fuse(&prune(&graph(8)).unwrap().0);
        let [Step::Chain(c)] = &steps[..] else {
            panic!("{steps:?}")
        };
        assert_eq!(c.stages.len(), 2);
        assert!(matches!(
            &c.stages[1],
            Stage::Pointwise { data: Some(_), .. }
        ));
        assert_eq!(
            (c.stores.len(), c.stores[0].access.strides.clone()),
            (1, vec![2])
        );
        // Covering only part of the output: not fused (and the transform's output is pruned).
        let steps = fuse(&prune(&graph(5)).unwrap().0);
        assert_eq!(steps.len(), 2, "{steps:?}");
    }

    #[test]
    fn fuse_refuses_when_an_intermediate_node_writes_a_moved_read() {
        // copy in -> t1 ; copy other -> in (overwrites the source) ; dft t1 -> user
        let t1 = temp(1, false, 8, true);
        let u = user(0x1000, false);
        let v = user(0x9000, false);
        let o = user(0x20000, true);
        let g = Graph {
            nodes: vec![
                copy("c0", &[4], acc(&u, 0, &[1]), acc(&t1, 0, &[1])),
                copy("c1", &[4], acc(&v, 0, &[1]), acc(&u, 0, &[1])),
                fft("f", Kind::R2c, &[8], acc(&t1, 0, &[1]), acc(&o, 0, &[1])),
            ],
        };
        let (g, _) = prune(&g).unwrap();
        let steps = fuse(&g);
        // The DFT is still pruned (a chain), but the copy stays a node: no load fusion.
        assert_eq!(steps.len(), 3);
        let Step::Chain(c) = &steps[2] else {
            panic!("{steps:?}")
        };
        assert_eq!(c.labels, vec!["f".to_string()]);
        // Without the conflicting node the copy is fused.
        let mut g2 = g.clone();
        g2.nodes.remove(1);
        let steps = fuse(&g2);
        assert_eq!(steps.len(), 1);
    }

    #[test]
    fn map_box_checks_every_axis() {
        // A 4x6 index space at strides (6, 1): nested; the same with a reversed axis: a table.
        let t = temp(1, false, 24, false);
        for a in [acc(&t, 0, &[6, 1]), acc(&t, 5, &[6, -1])] {
            let loc = Locator::new(&a, &[4, 6]).unwrap();
            let at = |i: usize, j: usize| a.base + i as isize * 6 + j as isize * a.strides[1];
            assert!(matches!(loc, Locator::Nested { .. }) == (a.strides[1] > 0));
            for i in 0..4 {
                for j in 0..6 {
                    assert_eq!(loc.locate(at(i, j)), Some(vec![i, j]));
                }
            }
            assert_eq!(loc.locate(24), None);
            assert_eq!(loc.locate(-1), None);
        }
        let loc = Locator::new(&acc(&t, 0, &[6, 1]), &[4, 6]).unwrap();
        assert_eq!(
            map_box(&loc, 7, &[6, 1], &[2, 3]),
            Some((vec![1, 1], vec![Some(0), Some(1)]))
        );
        assert_eq!(
            map_box(&loc, 7, &[1, 6], &[3, 2]),
            Some((vec![1, 1], vec![Some(1), Some(0)]))
        );
        assert_eq!(map_box(&loc, 7, &[2, 1], &[2, 3]), None); // stride 2: not a unit step
        assert_eq!(map_box(&loc, 4, &[6, 1], &[2, 3]), None); // leaves the row
                                                              // A padded layout (row stride 8 for rows of 6) is nested; positions in the padding are not addressed.
        let p = Locator::new(&acc(&temp(2, false, 32, false), 0, &[8, 1]), &[4, 6]).unwrap();
        assert!(matches!(p, Locator::Nested { .. }));
        assert_eq!(p.locate(6), None);
        assert_eq!(p.locate(9), Some(vec![1, 1]));
        // Non-injective access: no locator.
        assert!(Locator::new(&acc(&t, 0, &[1, 1]), &[4, 6]).is_none());
    }
}
