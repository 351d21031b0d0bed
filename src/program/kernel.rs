//! Kernels: the generated code of a Program ([`super::Step::Kernel`]), described here so that
//! both executors run the same description (the CPU interprets it, `exec::cuda` compiles it).
//!
//! - [`Code`]: a pointwise program (FFTX's recorded `FFTX_*` calls), an instruction list over a
//!   few registers applied to each element.
//! - [`Kernel::Map`]: one element-wise pass over a strided box: a copy, or `out = code(in,
//!   data)`.
//! - [`Kernel::Chain`]: a fused chain of transforms and pointwise programs on a work buffer:
//!   loads (zero elsewhere), stages, stores; transforms compute only the pencils that can be
//!   non-zero and are read later ([`passes`]). `program::pencil` lowers a chain to batched 1-D
//!   passes (the GPU's form, and its CPU twin).
//!
//! Positions in an [`Access`] count elements of the buffer (complex elements where the buffer
//! holds complex ones), as FFTX's iodims do. The types are generic over what names a buffer: the
//! FFTX front end builds them over its graph buffers, a Program holds them over [`Elements`].

use super::BufId;
use crate::problem::Kind;
use crate::real::Real;
use num_complex::Complex;
use std::fmt;
use std::fmt::Write;
use std::ops::Range;
use std::sync::Arc;

/// A register of the pointwise program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    In,
    Out,
    Data,
    Temp(u16),
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reg::In => f.write_str("in"),
            Reg::Out => f.write_str("out"),
            Reg::Data => f.write_str("data"),
            Reg::Temp(i) => write!(f, "t{i}"),
        }
    }
}

/// One instruction: the destination is the first operand (two-operand form, as in the paper).
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    Mov(Reg, Reg),
    Add(Reg, Reg),
    Sub(Reg, Reg),
    Mul(Reg, Reg),
    Div(Reg, Reg),
    /// d = conj(d) (complex programs only).
    Conj(Reg),
    Neg(Reg),
    /// d = d * c, c a real constant.
    Scale(Reg, f64),
    /// d = re + i im (im is 0 in real programs).
    Set(Reg, f64, f64),
}

impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inst::Mov(d, s) => write!(f, "mov {d} {s}"),
            Inst::Add(d, s) => write!(f, "add {d} {s}"),
            Inst::Sub(d, s) => write!(f, "sub {d} {s}"),
            Inst::Mul(d, s) => write!(f, "mul {d} {s}"),
            Inst::Div(d, s) => write!(f, "div {d} {s}"),
            Inst::Conj(d) => write!(f, "conj {d}"),
            Inst::Neg(d) => write!(f, "neg {d}"),
            Inst::Scale(d, c) => write!(f, "scale {d} {c:e}"),
            Inst::Set(d, re, im) => write!(f, "set {d} {re:e} {im:e}"),
        }
    }
}

/// A pointwise program: instructions over a few registers (`in`, `out`, `data`, temporaries),
/// applied to every element a kernel covers.
#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    pub complex: bool,
    pub temps: u16,
    pub insts: Vec<Inst>,
    pub uses_data: bool,
}

impl Code {
    /// Applies the program to one element: `out = p(input, data)`, in the plan's precision `T`
    /// (recorded constants are kept as f64 and rounded to `T` here).
    #[inline]
    pub fn run<T: Real>(
        &self,
        input: Complex<T>,
        data: Complex<T>,
        regs: &mut Vec<Complex<T>>,
    ) -> Complex<T> {
        regs.clear();
        regs.resize(3 + self.temps as usize, Complex::default());
        regs[0] = input;
        regs[2] = data;
        let at = |r: Reg| match r {
            Reg::In => 0,
            Reg::Out => 1,
            Reg::Data => 2,
            Reg::Temp(i) => 3 + i as usize,
        };
        for inst in &self.insts {
            match *inst {
                Inst::Mov(d, s) => regs[at(d)] = regs[at(s)],
                Inst::Add(d, s) => regs[at(d)] = regs[at(d)] + regs[at(s)],
                Inst::Sub(d, s) => regs[at(d)] = regs[at(d)] - regs[at(s)],
                Inst::Mul(d, s) => regs[at(d)] = regs[at(d)] * regs[at(s)],
                Inst::Div(d, s) => {
                    regs[at(d)] = if self.complex {
                        regs[at(d)] / regs[at(s)]
                    } else {
                        Complex::new(regs[at(d)].re / regs[at(s)].re, T::zero())
                    }
                }
                Inst::Conj(d) => regs[at(d)] = regs[at(d)].conj(),
                Inst::Neg(d) => regs[at(d)] = -regs[at(d)],
                Inst::Scale(d, c) => regs[at(d)] = regs[at(d)] * T::cast(c),
                Inst::Set(d, re, im) => regs[at(d)] = Complex::new(T::cast(re), T::cast(im)),
            }
        }
        regs[1]
    }

    pub fn describe(&self) -> String {
        self.insts
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A buffer of a Program as a kernel addresses it: holding complex elements or reals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elements {
    pub buf: BufId,
    pub complex: bool,
}

/// A strided box over a buffer: index `j` (one entry per axis of the index space) is at element
/// position `base + sum_k j_k * strides[k]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Access<B = Elements> {
    pub buf: B,
    pub base: isize,
    pub strides: Vec<isize>,
}

impl<B> Access<B> {
    /// (lowest, highest) element position the box touches over `shape` (empty shape: base).
    pub fn span(&self, shape: &[usize]) -> (isize, isize) {
        let (mut lo, mut hi) = (self.base, self.base);
        for (&n, &s) in shape.iter().zip(&self.strides) {
            let ext = (n as isize - 1).max(0) * s;
            if ext < 0 {
                lo += ext
            } else {
                hi += ext
            }
        }
        (lo, hi)
    }
}

/// A box of a chain's work buffer and where its elements live in a buffer: chain index `i`
/// (within `origin + [0, extent)`) is at `access.base + sum_d (i_d - origin_d) * access.strides[d]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment<B = Elements> {
    pub origin: Vec<usize>,
    pub extent: Vec<usize>,
    pub access: Access<B>,
    /// The subplan this segment came from.
    pub from: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stage<B = Elements> {
    /// One multi-dimensional transform (`Kind::Dft`, `R2c` or `C2r`) over the work buffers, computing
    /// only pencils that can be non-zero (`in_live`) and whose results are read (`out_live`).
    Fft {
        kind: Kind,
        in_live: Vec<Range<usize>>,
        out_live: Vec<Range<usize>>,
    },
    /// A pointwise program over every element of the complex work buffer; `data` is indexed by
    /// the work buffer's index.
    Pointwise {
        prog: Arc<Code>,
        data: Option<Access<B>>,
    },
}

/// How the GPU runs a chain's loads, stores and pointwise stages (`exec::cuda::kernel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fusion {
    /// Our pass kernels: loads, a shared-memory FFT of whole pencils, stores (passes whose
    /// length has no split run as `Kernel`).
    Fused,
    /// cuFFT LTO callbacks: inside cuFFT's own loads and stores.
    Callback,
    /// A gather kernel before and a scatter kernel after each plain cuFFT plan.
    Kernel,
}

impl Fusion {
    pub fn name(self) -> &'static str {
        match self {
            Fusion::Fused => "fused",
            Fusion::Callback => "callback",
            Fusion::Kernel => "kernel",
        }
    }
    pub fn parse(s: &str) -> Option<Fusion> {
        [Fusion::Fused, Fusion::Callback, Fusion::Kernel]
            .into_iter()
            .find(|f| f.name() == s)
    }
}

/// Fused steps around one or two DFTs, run as one unit on work buffers: loads (zero elsewhere),
/// stages, stores.
#[derive(Clone, Debug, PartialEq)]
pub struct Chain<B = Elements> {
    pub labels: Vec<String>,
    /// Logical (real) transform sizes.
    pub n: Vec<usize>,
    pub loads: Vec<Segment<B>>,
    pub stages: Vec<Stage<B>>,
    pub stores: Vec<Segment<B>>,
    /// How the GPU runs it, where that was decided before (from wisdom: [`Chain::wisdom_key`]);
    /// None: the GPU executor chooses (timing the ways unless FFTX_ESTIMATE).
    pub fusion: Option<Fusion>,
}

impl<B> Chain<B> {
    fn ffts(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&Kind, &Vec<Range<usize>>, &Vec<Range<usize>>)> {
        self.stages.iter().filter_map(|s| match s {
            Stage::Fft {
                kind,
                in_live,
                out_live,
            } => Some((kind, in_live, out_live)),
            Stage::Pointwise { .. } => None,
        })
    }
    pub fn first_kind(&self) -> &Kind {
        self.ffts().next().expect("a chain has a transform").0
    }
    pub fn last_kind(&self) -> &Kind {
        self.ffts().next_back().expect("a chain has a transform").0
    }
    /// The first transform's input box (a leading pointwise stage runs on all of it).
    pub fn first_in(&self) -> &[Range<usize>] {
        self.ffts().next().expect("a chain has a transform").1
    }
    /// The last transform's output box (a trailing pointwise stage keeps it).
    pub fn last_out(&self) -> &[Range<usize>] {
        self.ffts().next_back().expect("a chain has a transform").2
    }
    /// 1-D transforms of one run on the pencil engine.
    pub fn pencils(&self) -> u64 {
        self.ffts()
            .map(|(kind, i, o)| pencil_count(&passes(kind, &self.n, i, o)))
            .sum()
    }

    /// The same chain over other buffer names.
    pub fn map<C>(&self, f: &mut impl FnMut(&Access<B>) -> Access<C>) -> Chain<C> {
        let seg = |s: &Segment<B>, f: &mut dyn FnMut(&Access<B>) -> Access<C>| Segment {
            origin: s.origin.clone(),
            extent: s.extent.clone(),
            access: f(&s.access),
            from: s.from.clone(),
        };
        Chain {
            labels: self.labels.clone(),
            n: self.n.clone(),
            loads: self.loads.iter().map(|s| seg(s, f)).collect(),
            stages: self
                .stages
                .iter()
                .map(|s| match s {
                    Stage::Fft {
                        kind,
                        in_live,
                        out_live,
                    } => Stage::Fft {
                        kind: kind.clone(),
                        in_live: in_live.clone(),
                        out_live: out_live.clone(),
                    },
                    Stage::Pointwise { prog, data } => Stage::Pointwise {
                        prog: prog.clone(),
                        data: data.as_ref().map(&mut *f),
                    },
                })
                .collect(),
            stores: self.stores.iter().map(|s| seg(s, f)).collect(),
            fusion: self.fusion,
        }
    }
}

impl<B: Clone + fmt::Debug> Chain<B> {
    /// The chain's name in wisdom: its sizes, and a hash of everything that decides how fast
    /// each way of fusing runs it (boxes, strides, stages, pointwise programs), not of its
    /// labels or of a fusion already chosen. The same in every process (FNV-1a of the
    /// printed structure).
    pub fn wisdom_key(&self) -> String {
        let mut bare = self.clone();
        bare.labels.clear();
        bare.fusion = None;
        for s in bare.loads.iter_mut().chain(bare.stores.iter_mut()) {
            s.from.clear();
        }
        let hash = format!("{bare:?}")
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
            });
        let n: Vec<String> = self.n.iter().map(usize::to_string).collect();
        format!("fftx-chain {} #{hash:016x}", n.join("x"))
    }
}

/// The shape of a transform's complex side: `n`, the last axis halved (`n/2 + 1`) for the
/// complex side of an r2c or c2r transform.
pub fn shape_of(n: &[usize], halved: bool) -> Vec<usize> {
    let mut s = n.to_vec();
    if halved {
        if let Some(l) = s.last_mut() {
            *l = *l / 2 + 1;
        }
    }
    s
}

/// Axis order of a transform's passes: r2c transforms the (real) last axis first, c2r last.
pub fn pass_order(kind: &Kind, rank: usize) -> Vec<usize> {
    match kind {
        Kind::R2c if rank > 0 => std::iter::once(rank - 1).chain(0..rank - 1).collect(),
        _ => (0..rank).collect(),
    }
}

/// For each pass (axis, pencil ranges over all axes, with the pass axis at its full input range):
/// an axis already transformed only needs the pencils read later (`out_live`), one not yet
/// transformed only those that can be non-zero (`in_live`).
pub fn passes(
    kind: &Kind,
    n: &[usize],
    in_live: &[Range<usize>],
    out_live: &[Range<usize>],
) -> Vec<(usize, Vec<Range<usize>>)> {
    passes_in_order(&pass_order(kind, n.len()), n, in_live, out_live)
}

/// [`passes`] in a given axis order.
pub fn passes_in_order(
    order: &[usize],
    n: &[usize],
    in_live: &[Range<usize>],
    out_live: &[Range<usize>],
) -> Vec<(usize, Vec<Range<usize>>)> {
    let rank = n.len();
    let mut done = vec![false; rank];
    let mut v = Vec::new();
    for &a in order {
        let ranges = (0..rank)
            .map(|b| {
                if b == a {
                    0..1
                } else if done[b] {
                    out_live[b].clone()
                } else {
                    in_live[b].clone()
                }
            })
            .collect();
        v.push((a, ranges));
        done[a] = true;
    }
    v
}

/// A box in printouts: `[o..o+e,...]` for its origin and extent.
pub fn box_text(origin: &[usize], extent: &[usize]) -> String {
    let spans: Vec<String> = origin
        .iter()
        .zip(extent)
        .map(|(&o, &e)| format!("{}..{}", o, o + e))
        .collect();
    format!("[{}]", spans.join(","))
}

/// Ranges in printouts: `[a..b,...]`.
pub fn ranges_text(r: &[Range<usize>]) -> String {
    let spans: Vec<String> = r
        .iter()
        .map(|x| format!("{}..{}", x.start, x.end))
        .collect();
    format!("[{}]", spans.join(","))
}

/// 1-D transforms of a pass list.
pub fn pencil_count(p: &[(usize, Vec<Range<usize>>)]) -> u64 {
    p.iter()
        .map(|(_, r)| r.iter().map(|x| x.len() as u64).product::<u64>())
        .sum()
}

/// What a [`super::Step::Kernel`] computes.
#[derive(Clone, Debug, PartialEq)]
pub enum Kernel {
    /// Over every index of `shape`: `dst = code(src, data)`, or a copy without `code`.
    Map {
        shape: Vec<usize>,
        src: Access,
        dst: Access,
        data: Option<Access>,
        code: Option<Arc<Code>>,
    },
    /// A fused chain (see [`Chain`]).
    Chain(Chain),
}

impl Kernel {
    /// The buffers the kernel addresses.
    pub fn buffers(&self) -> Vec<BufId> {
        let mut v = Vec::new();
        match self {
            Kernel::Map { src, dst, data, .. } => {
                v.extend([src.buf.buf, dst.buf.buf]);
                v.extend(data.iter().map(|d| d.buf.buf));
            }
            Kernel::Chain(c) => {
                c.map(&mut |a| {
                    v.push(a.buf.buf);
                    a.clone()
                });
            }
        }
        v
    }

    /// The kernel in the Program's printout (after `(kernel sN `).
    pub fn describe(&self) -> String {
        let acc = |a: &Access| {
            format!(
                "b{}{}+{} strides={:?}",
                a.buf.buf,
                if a.buf.complex { "" } else { " real" },
                a.base,
                a.strides
            )
        };
        let mut s = String::new();
        match self {
            Kernel::Map {
                shape,
                src,
                dst,
                data,
                code,
            } => {
                let _ = write!(s, "map {:?} {} -> {}", shape, acc(src), acc(dst));
                if let Some(c) = code {
                    let _ = write!(s, " \"{}\"", c.describe());
                }
                if let Some(d) = data {
                    let _ = write!(s, " data={}", acc(d));
                }
            }
            Kernel::Chain(c) => {
                let _ = write!(s, "chain n={:?}", c.n);
                for l in &c.loads {
                    let _ = write!(
                        s,
                        "\n    (load {} {})",
                        box_text(&l.origin, &l.extent),
                        acc(&l.access)
                    );
                }
                for st in &c.stages {
                    match st {
                        Stage::Fft {
                            kind,
                            in_live,
                            out_live,
                        } => {
                            let _ = write!(
                                s,
                                "\n    ({} live-in={} live-out={})",
                                kind.name(),
                                ranges_text(in_live),
                                ranges_text(out_live)
                            );
                        }
                        Stage::Pointwise { prog, data } => {
                            let _ = write!(s, "\n    (pointwise \"{}\"", prog.describe());
                            if let Some(d) = data {
                                let _ = write!(s, " data={}", acc(d));
                            }
                            s.push(')');
                        }
                    }
                }
                for l in &c.stores {
                    let _ = write!(
                        s,
                        "\n    (store {} {})",
                        box_text(&l.origin, &l.extent),
                        acc(&l.access)
                    );
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruned_passes_of_the_3d_convolution() {
        let n = [128usize, 128, 128];
        let full_r: Vec<Range<usize>> = vec![0..128, 0..128, 0..128];
        let full_c: Vec<Range<usize>> = vec![0..128, 0..128, 0..65];
        let box64: Vec<Range<usize>> = vec![0..64, 0..64, 0..64];
        let r2c = passes(&Kind::R2c, &n, &box64, &full_c);
        assert_eq!(r2c.iter().map(|p| p.0).collect::<Vec<_>>(), vec![2, 0, 1]);
        assert_eq!(pencil_count(&r2c), 64 * 64 + 64 * 65 + 128 * 65);
        assert_eq!(
            pencil_count(&passes(&Kind::R2c, &n, &full_r, &full_c)),
            128 * 128 + 2 * 128 * 65
        );
        let c2r = passes(&Kind::C2r, &n, &full_c, &[64..128, 64..128, 64..128]);
        assert_eq!(pencil_count(&c2r), 128 * 65 + 64 * 65 + 64 * 64);
    }
}
