//! The in-order distributed 1-D FFT over P devices two ways, as Programs over device buffers:
//!
//! - [`fmm_fft`]: the low-communication FMM-FFT of the seed (Cecka, SC17, after Edelman et al.):
//!   F_N = F_(M,P) · H, N = P·M, where H applies P − 1 interleaved periodic cotangent-kernel
//!   FMMs along the data's own order (so devices exchange only halos of boxes and the base
//!   level's multipoles), and F_(M,P) is a 2-D FFT of M × P: size-P FFTs in place, ONE
//!   all-to-all, size-M FFTs whose rows are blocks of the output in order.
//! - [`six_step`]: the classic distributed FFT (N = N1·N2: transpose, FFTs of N1, twiddles,
//!   transpose, FFTs of N2, transpose): three all-to-alls, the baseline.
//!
//! Device g holds the g-th block of the input (N/G points in order) and ends with the g-th block
//! of the output. Each device works on its own stream (stream g); a barrier (every stream records
//! an event, every other stream waits for it) precedes each exchange.
//!
//! Why the FMM-FFT holds: with n = P·j + p and k = b·M + a, y_k = Σ_p ω_P^(pb) [F_M (C_p u_p)]_a
//! where u_p[j] = x[P·j + p] and C_p = F_M⁻¹ diag(ω_N^(pa)) F_M, whose entries are
//! ρ_p (cot(π(n − m)/M + πp/N) + i) with ρ_p = e^(−iπp/P) sin(πp/P)/M (forward; conjugated
//! backward).

use super::exchange_order;
use crate::error::{Error, Result};
use crate::problem::{IoDim, Kind, Precision, Problem};
use crate::program::{
    At, Axis, BufId, Collective, FmmGeom, FmmOp, FmmStep, Part, Placement, Program, Step, INPUT,
    OUTPUT,
};

/// The FMM-FFT's parameters (the seed's names): N = `p` · `leaf` · 2^L with L ≥ `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FmmParams {
    /// P: the FFT factor (P − 1 FMMs of size M = N/P); at least the number of devices.
    pub p: usize,
    /// M_L: points per leaf box per FMM.
    pub leaf: usize,
    /// Q: Chebyshev nodes per expansion ([`FmmParams::terms_for`]).
    pub terms: usize,
    /// B ≥ 2: the base level (2^B boxes, at least one per device).
    pub base: u32,
}

impl FmmParams {
    /// Q for a precision: the smallest that keeps the relative L2 error below 1e-13 (f64) and
    /// 2e-6 (f32) in tests/fmm.rs over leaf sizes 8 to 64 (the seed used 16 and 8).
    pub fn terms_for(precision: Precision) -> usize {
        match precision {
            Precision::F64 => 18,
            Precision::F32 => 8,
        }
    }

    /// The parameters for `n` points over `devices` devices: the largest P up to 256 (the
    /// seed's) with a leaf of 16 to 128 points (nearest 64), else of 8 or more; `None` if `n`
    /// has no such factorization.
    pub fn choose(n: usize, devices: usize, precision: Precision) -> Option<FmmParams> {
        let terms = Self::terms_for(precision);
        let min_base = devices.max(4).trailing_zeros().max(2);
        for (lo, hi) in [(16, 128), (8, usize::MAX)] {
            for p in (1..=8).rev().map(|k| 1usize << k) {
                if p < devices || !n.is_multiple_of(p) {
                    continue;
                }
                let m = n / p;
                let best = (0..=m.trailing_zeros())
                    .map(|l| (m >> l, l))
                    .filter(|&(leaf, l)| leaf >= lo && leaf <= hi && l >= min_base)
                    .min_by_key(|&(leaf, _)| (leaf as f64 / 64.0).ln().abs().to_bits());
                if let Some((leaf, l)) = best {
                    let base = if l > 3 { min_base.max(3) } else { min_base };
                    return Some(FmmParams {
                        p,
                        leaf,
                        terms,
                        base,
                    });
                }
            }
        }
        None
    }
}

/// The block of `n` items part `i` of `parts` holds: (start, len).
fn block(n: usize, parts: usize, i: usize) -> (usize, usize) {
    let (base, extra) = (n / parts, n % parts);
    (i * base + i.min(extra), base + usize::from(i < extra))
}

/// The transform's length, input and output strides, and sign (a 1-D c2c problem).
fn one_d(problem: &Problem, devices: &[usize]) -> Result<(usize, IoDim, i32)> {
    let Kind::Dft { sign } = problem.kind else {
        return Err(Error::unsupported(
            "a distributed 1-D transform is a complex DFT",
        ));
    };
    let ([d], []) = (&problem.dims[..], &problem.loops[..]) else {
        return Err(Error::unsupported(
            "the distributed 1-D FFTs take one transform of rank 1",
        ));
    };
    if devices.is_empty() {
        return Err(Error::bad_input("no devices"));
    }
    if d.n <= 0 {
        return Err(Error::bad_input("nothing to transform"));
    }
    Ok((d.n as usize, *d, sign))
}

/// A barrier between the devices' streams: each records an event, each waits for the others'.
fn barrier(prog: &mut Program, g_count: usize, next_event: &mut usize) {
    if g_count < 2 {
        return;
    }
    let first = *next_event;
    *next_event += g_count;
    for g in 0..g_count {
        prog.steps.push(Step::Record {
            event: first + g,
            stream: g,
        });
    }
    for g in 0..g_count {
        for o in (0..g_count).filter(|&o| o != g) {
            prog.steps.push(Step::Wait {
                event: first + o,
                stream: g,
            });
        }
    }
}

/// A position in the caller's array `buf`, `offset` real scalars in.
fn caller(buf: BufId, offset: isize) -> At {
    At { buf, offset }
}

fn at(buf: BufId, offset: usize) -> At {
    At {
        buf,
        offset: offset as isize,
    }
}

/// A contiguous run of `len` complex elements.
fn run(len: usize) -> Vec<IoDim> {
    vec![IoDim::new(len as isize, 2, 2)]
}

/// In-place batched complex FFTs: `batch` transforms of `n` contiguous elements, `dist` apart.
fn batched_fft(
    sign: i32,
    prec: Precision,
    buf: BufId,
    n: usize,
    batch: usize,
    dist: usize,
) -> Step {
    let d = |n: usize, s: usize| IoDim::new(n as isize, 2 * s as isize, 2 * s as isize);
    Step::Fft {
        problem: Problem {
            kind: Kind::Dft { sign },
            dims: vec![d(n, 1)],
            loops: vec![d(batch, dist)],
            precision: prec,
            in_place: true,
        },
        input: at(buf, 0),
        output: at(buf, 0),
        stream: 0,
    }
}

fn on_stream(mut step: Step, s: usize) -> Step {
    if let Step::Fft { stream, .. } = &mut step {
        *stream = s;
    }
    step
}

/// The FMM-FFT of a 1-D c2c `problem` over `devices` with [`FmmParams::choose`]'s parameters.
pub fn fmm_fft(problem: &Problem, devices: &[usize]) -> Result<Program> {
    let (n, _, _) = one_d(problem, devices)?;
    let params = FmmParams::choose(n, devices.len(), problem.precision).ok_or_else(|| {
        Error::unsupported(format!(
            "the FMM-FFT needs N = P·M_L·2^L; {n} over {} devices has none",
            devices.len()
        ))
    })?;
    fmm_fft_with(problem, devices, params)
}

/// The buffers of one device in the FMM-FFT (`mult[ℓ − B]`, `local[ℓ − B]` per level ℓ).
struct DevBufs {
    src: BufId,
    tgt: BufId,
    rows: BufId,
    mult: Vec<BufId>,
    local: Vec<BufId>,
}

/// The tree's shape on G devices.
#[derive(Clone, Copy)]
struct Tree {
    geom: FmmGeom,
    leaf_level: u32,
    devices: usize,
}

impl Tree {
    /// Boxes of level ℓ per device.
    fn boxes(&self, level: u32) -> usize {
        (1usize << level) / self.devices
    }
    /// Where a device's box 0 of level ℓ's multipoles is, in real scalars (after two halo
    /// boxes; at the base level, its place in the ring).
    fn mult_at(&self, level: u32, g: usize) -> usize {
        let k = 2 * self.geom.exp_box();
        if level == self.geom.base {
            g * self.boxes(level) * k
        } else {
            2 * k
        }
    }
}

/// The FMM-FFT with the given parameters (see the module's notes).
pub fn fmm_fft_with(problem: &Problem, devices: &[usize], params: FmmParams) -> Result<Program> {
    let (n, d, sign) = one_d(problem, devices)?;
    let g_count = devices.len();
    let FmmParams {
        p,
        leaf,
        terms,
        base,
    } = params;
    let boxes = n / (p.max(1) * leaf.max(1));
    let bad = |why: &str| Err(Error::unsupported(format!("FMM-FFT of {n}: {why}")));
    if !g_count.is_power_of_two() {
        return bad("the devices must be a power of two");
    }
    if p < 2 || p < g_count || leaf == 0 || terms == 0 || base < 2 {
        return bad("needs P ≥ 2 and P ≥ the devices, M_L ≥ 1, Q ≥ 1, B ≥ 2");
    }
    if boxes * p * leaf != n || !boxes.is_power_of_two() || boxes < 1 << base {
        return bad("N must be P·M_L·2^L with L ≥ B");
    }
    if (1usize << base) < g_count {
        return bad("2^B must be at least the devices");
    }
    let tree = Tree {
        geom: FmmGeom {
            n,
            p,
            leaf,
            terms,
            base,
            sign,
        },
        leaf_level: boxes.trailing_zeros(),
        devices: g_count,
    };
    let mut prog = Program::new();
    let bufs: Vec<DevBufs> = devices
        .iter()
        .enumerate()
        .map(|(g, &dev)| fmm_buffers(&mut prog, &tree, g, Placement::Device(dev)))
        .collect();
    let mut events = 0;
    let (per_dev, m) = (n / g_count, n / p);
    for (g, b) in bufs.iter().enumerate() {
        prog.steps.push(Step::Transfer {
            from: caller(INPUT, g as isize * per_dev as isize * d.is),
            to: at(b.src, 2 * tree.geom.data_box()),
            dims: vec![IoDim::new(per_dev as isize, d.is, 2)],
            complex: true,
            stream: g,
        });
    }
    barrier(&mut prog, g_count, &mut events);
    let src: Vec<BufId> = bufs.iter().map(|b| b.src).collect();
    prog.steps.push(halo(&tree, tree.leaf_level, &src, 1));
    for (g, b) in bufs.iter().enumerate() {
        upward(&mut prog, &tree, g, b);
    }
    barrier(&mut prog, g_count, &mut events);
    for level in base + 1..=tree.leaf_level {
        let mult: Vec<BufId> = bufs
            .iter()
            .map(|b| b.mult[(level - base) as usize])
            .collect();
        prog.steps.push(halo(&tree, level, &mult, 2));
    }
    if g_count > 1 {
        prog.steps.push(gather_ring(&tree, &bufs));
    }
    for (g, b) in bufs.iter().enumerate() {
        downward(&mut prog, &tree, g, b);
        let fft = batched_fft(sign, problem.precision, b.tgt, p, per_dev / p, p);
        prog.steps.push(on_stream(fft, g));
    }
    barrier(&mut prog, g_count, &mut events);
    prog.steps.push(rows_all_to_all(&tree, &bufs));
    for (h, b) in bufs.iter().enumerate() {
        let (row0, rows) = block(p, g_count, h);
        let fft = batched_fft(sign, problem.precision, b.rows, m, rows, m);
        prog.steps.push(on_stream(fft, h));
        prog.steps.push(Step::Transfer {
            from: at(b.rows, 0),
            to: caller(OUTPUT, (row0 * m) as isize * d.os),
            dims: vec![IoDim::new((rows * m) as isize, 2, d.os)],
            complex: true,
            stream: h,
        });
    }
    Ok(prog)
}

fn fmm_buffers(prog: &mut Program, tree: &Tree, g: usize, place: Placement) -> DevBufs {
    let geom = &tree.geom;
    let (d, k) = (2 * geom.data_box(), 2 * geom.exp_box());
    let nb = tree.boxes(tree.leaf_level);
    let src = prog.temp(d * (nb + 2), place);
    let tgt = prog.temp(d * nb, place);
    let rows = block(geom.p, tree.devices, g).1;
    let rows = prog.temp(2 * geom.n / geom.p * rows, place);
    let (mut mult, mut local) = (Vec::new(), Vec::new());
    for level in geom.base..=tree.leaf_level {
        let held = if level == geom.base {
            1 << level
        } else {
            tree.boxes(level) + 4
        };
        mult.push(prog.temp(k * held, place));
        local.push(prog.temp(k * tree.boxes(level), place));
    }
    DevBufs {
        src,
        tgt,
        rows,
        mult,
        local,
    }
}

/// One device's FMM step on its stream.
fn fmm_step(tree: &Tree, g: usize, op: FmmOp, src: At, dst: At, level: u32) -> Step {
    let boxes = tree.boxes(level);
    Step::Fmm(FmmStep {
        op,
        geom: tree.geom,
        src,
        dst,
        boxes,
        level,
        first: g * boxes,
        stream: g,
    })
}

/// S2M, S2T (after the sources' halo) and the M2Ms up to the base level.
fn upward(prog: &mut Program, tree: &Tree, g: usize, b: &DevBufs) {
    let (base, leaf) = (tree.geom.base, tree.leaf_level);
    let src = at(b.src, 2 * tree.geom.data_box());
    let mult = |level: u32| at(b.mult[(level - base) as usize], tree.mult_at(level, g));
    let steps = &mut prog.steps;
    steps.push(fmm_step(tree, g, FmmOp::S2m, src, mult(leaf), leaf));
    steps.push(fmm_step(tree, g, FmmOp::S2t, src, at(b.tgt, 0), leaf));
    for level in (base..leaf).rev() {
        steps.push(fmm_step(
            tree,
            g,
            FmmOp::M2m,
            mult(level + 1),
            mult(level),
            level,
        ));
    }
}

/// The M2Ls of every level (after the halos and the ring), the L2Ls down to the leaves, L2T and
/// the post-processing.
fn downward(prog: &mut Program, tree: &Tree, g: usize, b: &DevBufs) {
    let (base, leaf) = (tree.geom.base, tree.leaf_level);
    let mult = |level: u32| at(b.mult[(level - base) as usize], tree.mult_at(level, g));
    let local = |level: u32| at(b.local[(level - base) as usize], 0);
    let steps = &mut prog.steps;
    for level in base..=leaf {
        let src = if level == base {
            at(b.mult[0], 0)
        } else {
            mult(level)
        };
        steps.push(fmm_step(tree, g, FmmOp::M2l, src, local(level), level));
    }
    for level in base..leaf {
        steps.push(fmm_step(
            tree,
            g,
            FmmOp::L2l,
            local(level),
            local(level + 1),
            level,
        ));
    }
    let tgt = at(b.tgt, 0);
    steps.push(fmm_step(tree, g, FmmOp::L2t, local(leaf), tgt, leaf));
    steps.push(fmm_step(tree, g, FmmOp::Post, at(b.mult[0], 0), tgt, leaf));
}

/// The halo of `width` boxes on each side of every device's boxes of `level` (the sources at
/// the leaf level, else the multipoles), from its neighbours on the ring.
fn halo(tree: &Tree, level: u32, bufs: &[BufId], width: usize) -> Step {
    let g_count = tree.devices;
    let nb = tree.boxes(level);
    let (elems, box0) = if width == 1 {
        (tree.geom.data_box(), 1)
    } else {
        (tree.geom.exp_box(), 2)
    };
    let pos = |b: isize| 2 * ((box0 as isize + b) * elems as isize);
    let mut parts = Vec::new();
    for g in 0..g_count {
        let (left, right) = ((g + g_count - 1) % g_count, (g + 1) % g_count);
        let w = width as isize;
        for (from, fb, tb) in [(left, nb as isize - w, -w), (right, 0, nb as isize)] {
            parts.push(Part {
                from: At {
                    buf: bufs[from],
                    offset: pos(fb),
                },
                to: At {
                    buf: bufs[g],
                    offset: pos(tb),
                },
                dims: run(width * elems),
                stream: g,
            });
        }
    }
    Step::Collective {
        kind: Collective::Halo,
        parts,
    }
}

/// Every device's base-level multipoles into every other device's ring.
fn gather_ring(tree: &Tree, bufs: &[DevBufs]) -> Step {
    let base = tree.geom.base;
    let len = tree.boxes(base) * tree.geom.exp_box();
    let mut parts = Vec::new();
    for h in 0..tree.devices {
        for g in exchange_order(h, tree.devices).skip(1) {
            let off = tree.mult_at(base, g);
            parts.push(Part {
                from: at(bufs[g].mult[0], off),
                to: at(bufs[h].mult[0], off),
                dims: run(len),
                stream: h,
            });
        }
    }
    Step::Collective {
        kind: Collective::AllGather,
        parts,
    }
}

/// The FMM-FFT's one all-to-all: device h receives rows b of its block (each M long) from
/// every device's columns j (its block of the M points). The source's contiguous axis is the
/// box's last (the copy kernel's fastest): between cards the destination reads its peer's
/// memory in runs, and writes its own strided. Likewise in [`transpose`].
fn rows_all_to_all(tree: &Tree, bufs: &[DevBufs]) -> Step {
    let g_count = tree.devices;
    let p = tree.geom.p;
    let m = tree.geom.n / p;
    let cols = m / g_count;
    let mut parts = Vec::new();
    for (h, dst) in bufs.iter().enumerate() {
        let (row0, rows) = block(p, g_count, h);
        for g in exchange_order(h, g_count) {
            let src = &bufs[g];
            parts.push(Part {
                from: at(src.tgt, 2 * row0),
                to: at(dst.rows, 2 * g * cols),
                dims: vec![
                    IoDim::new(cols as isize, 2 * p as isize, 2),
                    IoDim::new(rows as isize, 2, 2 * m as isize),
                ],
                stream: h,
            });
        }
    }
    Step::Collective {
        kind: Collective::AllToAll,
        parts,
    }
}

/// A distributed transpose: device h receives, from each device g, the `cols` block h of g's
/// `rows` block (row-major `rows × width` on g: `a`; `cols × height` on h: `b`).
fn transpose(a: &[BufId], b: &[BufId], height: usize, width: usize) -> Step {
    let g_count = a.len();
    let mut parts = Vec::new();
    for (h, &dst) in b.iter().enumerate() {
        let (c0, cn) = block(width, g_count, h);
        for g in exchange_order(h, g_count) {
            let (src, (r0, rn)) = (a[g], block(height, g_count, g));
            parts.push(Part {
                from: at(src, 2 * c0),
                to: at(dst, 2 * r0),
                dims: vec![
                    IoDim::new(rn as isize, 2 * width as isize, 2),
                    IoDim::new(cn as isize, 2, 2 * height as isize),
                ],
                stream: h,
            });
        }
    }
    Step::Collective {
        kind: Collective::AllToAll,
        parts,
    }
}

/// The classic distributed 1-D FFT (six-step, three all-to-alls): with n = N2·n1 + n2 and
/// k = k1 + N1·k2, device g's rows n1 of X[n1][n2] go to columns (transpose), FFTs of N1 along
/// n1 and the twiddles ω_N^(n2·k1), back to rows k1 (transpose), FFTs of N2, and to rows k2
/// (transpose), which are the output's blocks in order.
pub fn six_step(problem: &Problem, devices: &[usize]) -> Result<Program> {
    let (n, d, sign) = one_d(problem, devices)?;
    let g_count = devices.len();
    let root = (n as f64).sqrt() as usize;
    let n1 = (1..=root).rev().find(|&f| n.is_multiple_of(f)).unwrap_or(1);
    let n2 = n / n1;
    if n1 < g_count {
        return Err(Error::unsupported(format!(
            "six-step of {n}: its factor {n1} is smaller than the {g_count} devices"
        )));
    }
    let mut prog = Program::new();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (g, &dev) in devices.iter().enumerate() {
        let place = Placement::Device(dev);
        a.push(prog.temp(2 * block(n1, g_count, g).1 * n2, place));
        b.push(prog.temp(2 * block(n2, g_count, g).1 * n1, place));
    }
    let mut events = 0;
    for (g, &buf) in a.iter().enumerate() {
        let (r0, rn) = block(n1, g_count, g);
        prog.steps.push(Step::Transfer {
            from: caller(INPUT, (r0 * n2) as isize * d.is),
            to: at(buf, 0),
            dims: vec![IoDim::new((rn * n2) as isize, d.is, 2)],
            complex: true,
            stream: g,
        });
    }
    barrier(&mut prog, g_count, &mut events);
    prog.steps.push(transpose(&a, &b, n1, n2));
    for (h, &buf) in b.iter().enumerate() {
        let (c0, cn) = block(n2, g_count, h);
        let fft = batched_fft(sign, problem.precision, buf, n1, cn, n1);
        prog.steps.push(on_stream(fft, h));
        prog.steps.push(Step::Twiddle {
            at: at(buf, 0),
            rows: Axis { n: n1, stride: 2 },
            cols: Axis {
                n: cn,
                stride: 2 * n1 as isize,
            },
            first_col: c0,
            rest: vec![],
            n,
            sign,
            stream: h,
        });
    }
    barrier(&mut prog, g_count, &mut events);
    prog.steps.push(transpose(&b, &a, n2, n1));
    for (h, &buf) in a.iter().enumerate() {
        let rows = block(n1, g_count, h).1;
        let fft = batched_fft(sign, problem.precision, buf, n2, rows, n2);
        prog.steps.push(on_stream(fft, h));
    }
    barrier(&mut prog, g_count, &mut events);
    prog.steps.push(transpose(&a, &b, n1, n2));
    for (h, &buf) in b.iter().enumerate() {
        let (c0, cn) = block(n2, g_count, h);
        prog.steps.push(Step::Transfer {
            from: at(buf, 0),
            to: caller(OUTPUT, (c0 * n1) as isize * d.os),
            dims: vec![IoDim::new((cn * n1) as isize, 2, d.os)],
            complex: true,
            stream: h,
        });
    }
    Ok(prog)
}
