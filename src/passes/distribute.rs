//! Distribution over several devices: a multi-dimensional transform by slabs (FFTW-MPI's
//! default decomposition, [`slabs`]) or, in 3-D, by pencils over a 2-D grid of devices
//! ([`pencils`]), as in heFFTe (Ayala et al.).
//!
//! Slabs, forward (c2c, r2c): device p receives the slab of planes i0 in S_p (a block of the first
//! axis) and transforms it along every other axis; an exchange (peer transfers, every device to
//! every device: an all-to-all) gives device q every i0 of the block T_q of the second axis;
//! device q transforms along the first axis and sends its pencils to the output. Backward
//! (c2r) runs the same in reverse: pencils first (the complex dft along the first axis), the
//! exchange, then the c2r of the slabs.
//!
//! Slabs and pencils keep the problem's axis order, so that a part of the exchange is rows of
//! whole planes' worth of the second and later axes: long rows contiguous on both sides, which
//! the copy engines move between cards (`exec::cuda::copy`) without taking multiprocessors
//! from the FFTs. The first phase runs in [`EXCHANGE_CHUNKS`] chunks (forward: of the slab's
//! planes; backward: of the pencils' block of the second axis), each recording an event when
//! transformed; device q's copy stream (stream P + q) waits for each chunk and moves its part
//! while the next chunk transforms (the exchange pipelined with the local FFTs, issue 15), and
//! device q's second phase waits for the copy stream's last part.
//!
//! Each device computes on its own stream (stream p for device p). Device memory per device:
//! its slab and its pencils, about 2/P of the problem (3/P for r2c and c2r, whose slabs have a
//! real and a complex part).

use super::exchange_order;
use crate::error::{Error, Result};
use crate::problem::{IoDim, Kind, Problem};
use crate::program::{At, Axis, BufId, Placement, Program, Step, INPUT, OUTPUT};

/// The chunks the phase before an exchange is cut into (fewer where it is shorter along the
/// axis cut): each chunk's parts move beside the next chunk's FFTs.
pub const EXCHANGE_CHUNKS: usize = 4;

/// The block of `n` elements device `p` of `parts` holds: [start, start + len).
fn block(n: usize, parts: usize, p: usize) -> (usize, usize) {
    let base = n / parts;
    let extra = n % parts;
    let start = p * base + p.min(extra);
    (start, base + usize::from(p < extra))
}

/// Row-major strides (real scalars) of a packed box with `extent` in memory order `order`.
fn packed(extent: &[usize], order: &[usize], scalars: isize) -> Vec<isize> {
    let mut stride = vec![0isize; extent.len()];
    let mut s = scalars;
    for &i in order.iter().rev() {
        stride[i] = s;
        s *= extent[i] as isize;
    }
    stride
}

/// A box of the problem's axes (loops, then dims): where it starts and how far it goes.
#[derive(Clone, Debug)]
struct Region {
    start: Vec<usize>,
    extent: Vec<usize>,
}

impl Region {
    /// The box of `extent` from the origin.
    fn whole(extent: &[usize]) -> Region {
        Region {
            start: vec![0; extent.len()],
            extent: extent.to_vec(),
        }
    }
}

/// The layout of one device buffer: its strides per axis (the region it holds starts at 0).
struct DevBuf {
    buf: BufId,
    stride: Vec<isize>,
}

/// Transfers `region` (of the problem's axes) from one layout to another.
fn move_region(
    prog: &mut Program,
    region: &Region,
    from: (BufId, &[isize], &Region),
    to: (BufId, &[isize], &Region),
    complex: bool,
    stream: usize,
) {
    // A buffer holding region `held` addresses element x at (x - held.start)·stride.
    let at = |(buf, stride, held): (BufId, &[isize], &Region)| At {
        buf,
        offset: region
            .start
            .iter()
            .zip(&held.start)
            .zip(stride)
            .map(|((&x, &h), &st)| (x as isize - h as isize) * st)
            .sum(),
    };
    prog.steps.push(Step::Transfer {
        from: at(from),
        to: at(to),
        dims: (0..region.extent.len())
            .map(|i| IoDim::new(region.extent[i] as isize, from.1[i], to.1[i]))
            .collect(),
        complex,
        stream,
    });
}

/// Lowers `problem` to a program over `devices`: by slabs and pencils (rank ≥ 2), or as the
/// distributed six-step (a 1-D c2c).
pub fn spread(problem: &Problem, devices: &[usize]) -> Result<Program> {
    if problem.dims.len() == 1 {
        one_dimension(problem, devices)
    } else {
        slabs(problem, devices)
    }
}

/// Lowers `problem` (rank ≥ 2: c2c, r2c or c2r) to a program over `devices`.
pub fn slabs(problem: &Problem, devices: &[usize]) -> Result<Program> {
    slabs_with(problem, devices, None)
}

/// Lowers a 1-D c2c `problem` to a program over `devices`: the classic distributed FFT (the
/// six-step one's factorization, N = N1·N2 with n = N2·n1 + n2 and k = k1 + N1·k2) as a 2-D
/// problem of axes (n2, n1) whose output axes are (k2, k1): slabs of columns n2 transform n1,
/// multiply by the twiddles exp(sign·2πi·k1·n2/N), one all-to-all, pencils transform n2.
pub fn one_dimension(problem: &Problem, devices: &[usize]) -> Result<Program> {
    let Kind::Dft { sign } = problem.kind else {
        return Err(Error::unsupported(
            "a distributed 1-D transform is a complex DFT",
        ));
    };
    let [d] = problem.dims[..] else {
        return Err(Error::unsupported("one_dimension takes a rank-1 problem"));
    };
    let n = d.n as usize;
    // N1 the largest divisor of N up to √N (1 for a prime: then one device transforms it all).
    let root = (n as f64).sqrt() as usize;
    let n1 = (1..=root).rev().find(|&f| n.is_multiple_of(f)).unwrap_or(1);
    let n2 = n / n1;
    let view = Problem {
        dims: vec![
            IoDim::new(n2 as isize, d.is, n1 as isize * d.os),
            IoDim::new(n1 as isize, n2 as isize * d.is, d.os),
        ],
        ..problem.clone()
    };
    slabs_with(&view, devices, Some(SlabTwiddles { n, sign }))
}

/// The four-step twiddles after the slab phase: element (n2 = first axis, k1 = second axis) is
/// multiplied by exp(sign·2πi·k1·n2/n).
#[derive(Clone, Copy)]
struct SlabTwiddles {
    n: usize,
    sign: i32,
}

/// What either decomposition needs: devices, and a non-empty c2c, r2c or c2r.
fn check(problem: &Problem, devices: &[usize]) -> Result<()> {
    if devices.is_empty() {
        return Err(Error::bad_input("no devices"));
    }
    if problem.dims.iter().chain(&problem.loops).any(|d| d.n <= 0) {
        return Err(Error::bad_input("nothing to transform"));
    }
    if matches!(problem.kind, Kind::R2r(_)) {
        return Err(Error::unsupported("r2r is not distributed"));
    }
    Ok(())
}

/// Lowers `problem` by slabs over `devices`; with `twiddles`, the four-step twiddles follow
/// the slab phase (the distributed 1-D transform).
fn slabs_with(
    problem: &Problem,
    devices: &[usize],
    twiddles: Option<SlabTwiddles>,
) -> Result<Program> {
    if problem.dims.len() < 2 {
        return Err(Error::unsupported(
            "slabs and pencils need two dimensions or more",
        ));
    }
    check(problem, devices)?;
    let mut prog = Program::new();
    let slabs = Slabs::new(problem, devices, &mut prog);
    if problem.kind != Kind::C2r {
        slabs.forward(&mut prog, twiddles);
    } else {
        slabs.backward(&mut prog);
    }
    Ok(prog)
}

/// A slab decomposition: the problem's axes and shapes, and each device's buffers.
struct Slabs<'a> {
    problem: &'a Problem,
    nloops: usize,
    axes: usize,
    /// The first and second transform axes (after the loops).
    a0: usize,
    a1: usize,
    /// The logical extents, and those of the complex side (the last halved for r2c and c2r).
    logical: Vec<usize>,
    complex: Vec<usize>,
    real: bool,
    sign: i32,
    /// The host arrays' strides.
    host_in: Vec<isize>,
    host_out: Vec<isize>,
    /// Per device: its slab and its pencils (complex), with the regions they hold.
    slab_bufs: Vec<(DevBuf, Region)>,
    pencil_bufs: Vec<(DevBuf, Region)>,
    /// The real part of a slab (r2c input, c2r output), beside the complex one.
    real_slabs: Vec<Option<(DevBuf, Region)>>,
}

impl<'a> Slabs<'a> {
    /// The decomposition of `problem` over `devices`, its buffers made in `prog`.
    fn new(problem: &'a Problem, devices: &[usize], prog: &mut Program) -> Slabs<'a> {
        let nloops = problem.loops.len();
        let axes = nloops + problem.dims.len();
        let (a0, a1) = (nloops, nloops + 1);
        let all: Vec<&IoDim> = problem.loops.iter().chain(&problem.dims).collect();
        let logical: Vec<usize> = all.iter().map(|d| d.n as usize).collect();
        let real = !matches!(problem.kind, Kind::Dft { .. });
        let mut complex = logical.clone();
        if real {
            complex[axes - 1] = complex[axes - 1] / 2 + 1;
        }
        let with = |base: &[usize], axis: usize, (start, len): (usize, usize)| {
            let mut r = Region::whole(base);
            r.start[axis] = start;
            r.extent[axis] = len;
            r
        };
        let p_count = devices.len();
        // Slabs and pencils both in the problem's order (a part of the exchange is long rows).
        let order: Vec<usize> = (0..axes).collect();
        let mut slab_bufs = Vec::new();
        let mut pencil_bufs = Vec::new();
        for (p, &dev) in devices.iter().enumerate() {
            let s = with(&complex, a0, block(logical[a0], p_count, p));
            let t = with(&complex, a1, block(complex[a1], p_count, p));
            let scalars = |r: &Region| 2 * r.extent.iter().product::<usize>();
            let slab = DevBuf {
                buf: prog.temp(scalars(&s), Placement::Device(dev)),
                stride: packed(&s.extent, &order, 2),
            };
            let pencil = DevBuf {
                buf: prog.temp(scalars(&t), Placement::Device(dev)),
                stride: packed(&t.extent, &order, 2),
            };
            slab_bufs.push((slab, s));
            pencil_bufs.push((pencil, t));
        }
        let real_slabs = devices
            .iter()
            .enumerate()
            .map(|(p, &dev)| {
                real.then(|| {
                    let s = with(&logical, a0, block(logical[a0], p_count, p));
                    let buf = prog.temp(s.extent.iter().product(), Placement::Device(dev));
                    (
                        DevBuf {
                            buf,
                            stride: packed(&s.extent, &order, 1),
                        },
                        s,
                    )
                })
            })
            .collect();
        Slabs {
            problem,
            nloops,
            axes,
            a0,
            a1,
            logical,
            complex,
            real,
            sign: problem.kind.sign().expect("not r2r"),
            host_in: all.iter().map(|d| d.is).collect(),
            host_out: all.iter().map(|d| d.os).collect(),
            slab_bufs,
            pencil_bufs,
            real_slabs,
        }
    }

    /// Forward (c2c, r2c): slabs in, transformed along the other axes (then twiddled, with
    /// `twiddles`) chunk by chunk, each chunk's part of the exchange after it, pencils
    /// transformed along the first axis and out.
    fn forward(&self, prog: &mut Program, twiddles: Option<SlabTwiddles>) {
        let kind = if self.real {
            Kind::R2c
        } else {
            Kind::Dft { sign: self.sign }
        };
        for p in 0..self.slab_bufs.len() {
            let (slab, s) = &self.slab_bufs[p];
            let input = self.slab_in(prog, p);
            for (k, c) in chunks(s, self.a0).iter().enumerate() {
                prog.steps
                    .push(self.slab_fft(kind.clone(), (input, slab), s, c, p));
                if let Some(tw) = twiddles {
                    prog.steps.push(self.twiddle(tw, slab, s, c, p));
                }
                prog.steps.push(Step::Record {
                    event: SLAB_EVENTS.chunk(p, k),
                    stream: p,
                });
            }
        }
        self.pipelined_exchange(prog, true);
        for (q, (pencil, t)) in self.pencil_bufs.iter().enumerate() {
            prog.steps.push(self.pencil_fft(pencil, t, t, q));
            move_region(
                prog,
                t,
                (pencil.buf, &pencil.stride, t),
                (OUTPUT, &self.host_out, &Region::whole(&self.complex)),
                true,
                q,
            );
        }
    }

    /// Backward (c2r): pencils in, transformed along the first axis, the exchange, then the
    /// slabs' c2r and out.
    fn backward(&self, prog: &mut Program) {
        for (q, (pencil, t)) in self.pencil_bufs.iter().enumerate() {
            move_region(
                prog,
                t,
                (INPUT, &self.host_in, &Region::whole(&self.complex)),
                (pencil.buf, &pencil.stride, t),
                true,
                q,
            );
            for (k, c) in chunks(t, self.a1).iter().enumerate() {
                prog.steps.push(self.pencil_fft(pencil, t, c, q));
                prog.steps.push(Step::Record {
                    event: SLAB_EVENTS.chunk(q, k),
                    stream: q,
                });
            }
        }
        self.pipelined_exchange(prog, false);
        for p in 0..self.slab_bufs.len() {
            let (slab, s) = &self.slab_bufs[p];
            let (r, rs) = self.real_slabs[p].as_ref().expect("c2r has real slabs");
            prog.steps
                .push(self.slab_fft(Kind::C2r, (slab, r), s, s, p));
            move_region(
                prog,
                rs,
                (r.buf, &r.stride, rs),
                (OUTPUT, &self.host_out, &Region::whole(&self.logical)),
                false,
                p,
            );
        }
    }

    /// Moves device `p`'s slab of the input onto it; returns the buffer holding it (the real
    /// slab for r2c).
    fn slab_in(&self, prog: &mut Program, p: usize) -> &DevBuf {
        let (slab, s) = &self.slab_bufs[p];
        match &self.real_slabs[p] {
            Some((r, rs)) => {
                move_region(
                    prog,
                    rs,
                    (INPUT, &self.host_in, &Region::whole(&self.logical)),
                    (r.buf, &r.stride, rs),
                    false,
                    p,
                );
                r
            }
            None => {
                move_region(
                    prog,
                    s,
                    (INPUT, &self.host_in, &Region::whole(&self.complex)),
                    (slab.buf, &slab.stride, s),
                    true,
                    p,
                );
                slab
            }
        }
    }

    /// The transform along every axis but the first, by `kind`, of the planes `c` of the slab
    /// region `s` that `input` and `output` (device buffers) hold, on `stream`.
    fn slab_fft(
        &self,
        kind: Kind,
        (input, output): (&DevBuf, &DevBuf),
        s: &Region,
        c: &Region,
        stream: usize,
    ) -> Step {
        let dim = |i: usize| IoDim::new(c.extent[i] as isize, input.stride[i], output.stride[i]);
        let first = (c.start[self.a0] - s.start[self.a0]) as isize;
        // Logical lengths (a c2r's and an r2c's count the real side).
        let dims = (self.a1..self.axes)
            .map(|i| IoDim::new(self.logical[i] as isize, input.stride[i], output.stride[i]))
            .collect();
        Step::Fft {
            problem: Problem {
                kind,
                dims,
                loops: (0..=self.a0).map(dim).collect(),
                precision: self.problem.precision,
                in_place: input.buf == output.buf,
            },
            input: At {
                buf: input.buf,
                offset: first * input.stride[self.a0],
            },
            output: At {
                buf: output.buf,
                offset: first * output.stride[self.a0],
            },
            stream,
        }
    }

    /// The DFT in place along the first axis of the part `c` of the pencils `t` in `b`, on
    /// `stream`.
    fn pencil_fft(&self, b: &DevBuf, t: &Region, c: &Region, stream: usize) -> Step {
        let dim = |i: usize| IoDim::new(c.extent[i] as isize, b.stride[i], b.stride[i]);
        let at = At {
            buf: b.buf,
            offset: (c.start[self.a1] - t.start[self.a1]) as isize * b.stride[self.a1],
        };
        Step::Fft {
            problem: Problem {
                kind: Kind::Dft { sign: self.sign },
                dims: vec![dim(self.a0)],
                loops: (0..self.axes).filter(|&i| i != self.a0).map(dim).collect(),
                precision: self.problem.precision,
                in_place: true,
            },
            input: at,
            output: at,
            stream,
        }
    }

    /// The four-step twiddles of the transformed planes `c` of device `p`'s slab `s` in `slab`.
    fn twiddle(&self, tw: SlabTwiddles, slab: &DevBuf, s: &Region, c: &Region, p: usize) -> Step {
        let axis = |i: usize| Axis {
            n: c.extent[i],
            stride: slab.stride[i],
        };
        let first = (c.start[self.a0] - s.start[self.a0]) as isize;
        Step::Twiddle {
            at: At {
                buf: slab.buf,
                offset: first * slab.stride[self.a0],
            },
            rows: axis(self.a1),
            cols: axis(self.a0),
            first_col: c.start[self.a0],
            rest: (0..self.nloops).map(axis).collect(),
            n: tw.n,
            sign: tw.sign,
            stream: p,
        }
    }

    /// The all-to-all, chunk by chunk ([`push_exchange`]; `forward`: slabs to pencils, chunks
    /// of planes; else pencils to slabs, chunks of the second axis).
    fn pipelined_exchange(&self, prog: &mut Program, forward: bool) {
        let p_count = self.slab_bufs.len();
        let chunks: Vec<Vec<Region>> = (0..p_count)
            .map(|p| match forward {
                true => chunks(&self.slab_bufs[p].1, self.a0),
                false => chunks(&self.pencil_bufs[p].1, self.a1),
            })
            .collect();
        let part = |d: usize, p: usize, k: usize| {
            let c = chunks[p].get(k)?;
            // The slabs' device and the pencils' device of this part.
            let (sp, tp) = if forward { (p, d) } else { (d, p) };
            let ((slab, s), (pencil, t)) = (&self.slab_bufs[sp], &self.pencil_bufs[tp]);
            let slab_side = (slab.buf, slab.stride.clone(), s.clone());
            let pencil_side = (pencil.buf, pencil.stride.clone(), t.clone());
            Some(if forward {
                (self.part(c, t), slab_side, pencil_side)
            } else {
                (self.part(s, c), pencil_side, slab_side)
            })
        };
        push_exchange(prog, p_count, SLAB_EVENTS, None, part);
    }

    /// What the slab region `c` and the pencil region `t` share: `c` within `t`'s block of the
    /// second axis.
    fn part(&self, c: &Region, t: &Region) -> Region {
        let mut part = c.clone();
        part.start[self.a1] = t.start[self.a1];
        part.extent[self.a1] = t.extent[self.a1];
        part
    }
}

/// The events of one pipelined exchange, numbered from `base`: per device p and chunk k, the
/// one p's stream records once it transformed the chunk; then per device, the one its copy
/// stream records once every part for it has arrived.
#[derive(Clone, Copy)]
struct ExchangeEvents {
    base: usize,
}

/// The slab decomposition's one exchange.
const SLAB_EVENTS: ExchangeEvents = ExchangeEvents { base: 0 };

impl ExchangeEvents {
    fn chunk(self, p: usize, k: usize) -> usize {
        self.base + p * EXCHANGE_CHUNKS + k
    }
    fn arrived(self, p_count: usize, q: usize) -> usize {
        self.chunk(p_count, 0) + q
    }
    /// The events after these (the next exchange's base).
    fn end(self, p_count: usize) -> usize {
        self.arrived(p_count, p_count)
    }
}

/// A box moved between two device buffers: the box (of the problem's axes), and each side's
/// buffer, strides and the region it holds.
type Move = (
    Region,
    (BufId, Vec<isize>, Region),
    (BufId, Vec<isize>, Region),
);

/// An exchange pipelined with the FFTs before it: on each device d's copy stream (stream P + d),
/// first (with `after`) a wait for every other device's copy stream of that earlier exchange
/// (which read the buffer this one writes), then for each chunk k, round the ring from d, the
/// part `part(d, p, k)` of device p's chunk k (where there is one) after a wait for p's event of
/// that chunk; then d's stream waits for its copy stream's last part.
fn push_exchange(
    prog: &mut Program,
    p_count: usize,
    events: ExchangeEvents,
    after: Option<ExchangeEvents>,
    part: impl Fn(usize, usize, usize) -> Option<Move>,
) {
    for d in 0..p_count {
        let copies = p_count + d;
        if let Some(before) = after {
            for r in (0..p_count).filter(|&r| r != d) {
                prog.steps.push(Step::Wait {
                    event: before.arrived(p_count, r),
                    stream: copies,
                });
            }
        }
        for k in 0..EXCHANGE_CHUNKS {
            for p in exchange_order(d, p_count) {
                let Some((region, from, to)) = part(d, p, k) else {
                    continue;
                };
                prog.steps.push(Step::Wait {
                    event: events.chunk(p, k),
                    stream: copies,
                });
                let (from, to) = ((from.0, &from.1[..], &from.2), (to.0, &to.1[..], &to.2));
                move_region(prog, &region, from, to, true, copies);
            }
        }
        prog.steps.push(Step::Record {
            event: events.arrived(p_count, d),
            stream: copies,
        });
        prog.steps.push(Step::Wait {
            event: events.arrived(p_count, d),
            stream: d,
        });
    }
}

/// The device grid of a pencil decomposition: P = P1·P2 with P2 the largest divisor of P up to
/// √P (P1 ≥ P2; a prime P gives P1 = P, P2 = 1).
pub fn pencil_grid(parts: usize) -> (usize, usize) {
    let root = (parts as f64).sqrt() as usize;
    let p2 = (1..=root.max(1))
        .rev()
        .find(|&f| parts.is_multiple_of(f))
        .unwrap_or(1);
    (parts / p2, p2)
}

/// The region `r` cut along `axis` into (at most) [`EXCHANGE_CHUNKS`] chunks: the pieces of a
/// phase whose exchange runs beside the next piece's FFTs.
fn chunks(r: &Region, axis: usize) -> Vec<Region> {
    let length = r.extent[axis];
    let count = EXCHANGE_CHUNKS.min(length).max(1);
    (0..count)
        .map(|k| {
            let (start, len) = block(length, count, k);
            let mut c = r.clone();
            c.start[axis] += start;
            c.extent[axis] = len;
            c
        })
        .collect()
}

/// The part of `a` that `b` also covers, if any.
fn intersect(a: &Region, b: &Region) -> Option<Region> {
    let mut r = a.clone();
    for i in 0..a.start.len() {
        let lo = a.start[i].max(b.start[i]);
        let hi = (a.start[i] + a.extent[i]).min(b.start[i] + b.extent[i]);
        if hi <= lo {
            return None;
        }
        r.start[i] = lo;
        r.extent[i] = hi - lo;
    }
    Some(r)
}

/// Lowers a rank-3 `problem` (c2c, r2c or c2r; loops allowed) to a pencil decomposition over
/// `devices`, as heFFTe's pencils: the devices form a P1 × P2 grid ([`pencil_grid`]) and each
/// holds, per phase, the pencils along one axis (whole) of a block of the other two (the
/// first of them split P1 ways, the second P2 ways). Forward (c2c, r2c): pencils along the last
/// axis (the r2c there), an exchange within each row of the grid, pencils along the middle
/// axis, an exchange within each column, pencils along the first axis, which go to the output.
/// Backward (c2r) runs the phases in reverse, the c2r last. Two exchanges of P2 and P1 devices
/// instead of the slabs' one of P: more, smaller messages, but any P up to n0·n1 devices.
///
/// Each phase's pencils are packed with their axis innermost (unit stride for cuFFT); the
/// exchanges transpose, each pipelined as the slabs' ([`Exchange`]: the phase before it in
/// chunks of its outermost axis, device q's copy stream moving each chunk's parts while the
/// next chunk transforms). Device memory per device: two pencil buffers (the first phase's is
/// reused by the last: before a device's copy stream writes it again, it waits for every other
/// device's copy stream of the first exchange, so every read of it is done), about 2/P of the
/// problem, and for r2c/c2r the real pencils beside them.
pub fn pencils(problem: &Problem, devices: &[usize]) -> Result<Program> {
    if problem.dims.len() != 3 {
        return Err(Error::unsupported(
            "pencils take a rank-3 problem (rank 2: slabs)",
        ));
    }
    check(problem, devices)?;
    let mut prog = Program::new();
    let grid = Pencils::new(problem, devices, &mut prog);
    let (d0, d1, d2) = (grid.d0, grid.d1, grid.d2);
    let p_count = devices.len();
    // The phases in order of the data: forward last → middle → first axis, backward reversed.
    let phases = if problem.kind == Kind::C2r {
        [d0, d1, d2]
    } else {
        [d2, d1, d0]
    };
    // Each exchange pipelined: its first phase's FFTs in chunks, the parts of each moved beside
    // the next chunk's FFTs.
    let first = Exchange::new(&grid, phases[0], phases[1], 0);
    let second = Exchange::new(&grid, phases[1], phases[2], first.events.end(p_count));
    for p in 0..p_count {
        grid.first_phase(&mut prog, phases[0], p, &first);
    }
    grid.exchange(&mut prog, &first, None);
    for p in 0..p_count {
        let mid = grid.layout(phases[1], p);
        let dft = Kind::Dft { sign: grid.sign };
        grid.fft_in_chunks(&mut prog, dft, phases[1], (&mid, &mid), &second, p);
    }
    // The last phase writes buffer X, which the first exchange read on other devices' copy
    // streams: the second exchange into X waits for all of those first.
    grid.exchange(&mut prog, &second, Some(&first));
    for p in 0..p_count {
        grid.last_phase(&mut prog, phases[2], p);
    }
    Ok(prog)
}

/// One exchange of a pencil decomposition, from the phase along `from` to the one along `to`,
/// pipelined along `chunk_axis`, the outermost of the `from` phase's layout (so that a chunk's
/// FFTs stay one cuFFT batch): the phase's FFTs go chunk by chunk, and each chunk's parts move
/// beside the next chunk's FFTs.
struct Exchange {
    from: usize,
    to: usize,
    chunk_axis: usize,
    events: ExchangeEvents,
}

impl Exchange {
    /// The exchange from the phase along `from` to the one along `to`, its events from `base`.
    fn new(grid: &Pencils, from: usize, to: usize, base: usize) -> Exchange {
        Exchange {
            from,
            to,
            chunk_axis: grid.split(from).0,
            events: ExchangeEvents { base },
        }
    }
}

/// A pencil decomposition: the problem's axes and shapes, the device grid and each device's
/// buffers.
struct Pencils<'a> {
    problem: &'a Problem,
    nloops: usize,
    axes: usize,
    /// The three transform axes (after the loops).
    d0: usize,
    d1: usize,
    d2: usize,
    /// The logical extents, and those of the complex side (the last halved for r2c and c2r).
    logical: Vec<usize>,
    complex: Vec<usize>,
    sign: i32,
    /// The device grid, P1 × P2.
    p1: usize,
    p2: usize,
    /// The host arrays' strides.
    host_in: Vec<isize>,
    host_out: Vec<isize>,
    /// Per device: buffer X (the first and last phases), buffer Y (the middle one), and for
    /// r2c/c2r the real pencils along the last axis.
    x_bufs: Vec<BufId>,
    y_bufs: Vec<BufId>,
    real_bufs: Vec<Option<BufId>>,
}

/// A phase's layout on a device: buffer, strides, region.
struct Layout {
    buf: BufId,
    stride: Vec<isize>,
    region: Region,
}

impl<'a> Pencils<'a> {
    /// The decomposition of `problem` over `devices`, its buffers made in `prog`.
    fn new(problem: &'a Problem, devices: &[usize], prog: &mut Program) -> Pencils<'a> {
        let nloops = problem.loops.len();
        let (d0, d1, d2) = (nloops, nloops + 1, nloops + 2);
        let all: Vec<&IoDim> = problem.loops.iter().chain(&problem.dims).collect();
        let logical: Vec<usize> = all.iter().map(|d| d.n as usize).collect();
        let real = !matches!(problem.kind, Kind::Dft { .. });
        let mut complex = logical.clone();
        if real {
            complex[d2] = complex[d2] / 2 + 1;
        }
        let (p1, p2) = pencil_grid(devices.len());
        let mut grid = Pencils {
            problem,
            nloops,
            axes: nloops + 3,
            d0,
            d1,
            d2,
            logical,
            complex,
            sign: problem.kind.sign().expect("not r2r"),
            p1,
            p2,
            host_in: all.iter().map(|d| d.is).collect(),
            host_out: all.iter().map(|d| d.os).collect(),
            x_bufs: Vec::new(),
            y_bufs: Vec::new(),
            real_bufs: Vec::new(),
        };
        let scalars = |r: &Region, per: usize| per * r.extent.iter().product::<usize>();
        for (p, &dev) in devices.iter().enumerate() {
            let (complex, logical) = (&grid.complex, &grid.logical);
            let x = scalars(&grid.region(complex, d2, p), 2)
                .max(scalars(&grid.region(complex, d0, p), 2));
            let x_buf = prog.temp(x, Placement::Device(dev));
            let y = scalars(&grid.region(complex, d1, p), 2);
            let y_buf = prog.temp(y, Placement::Device(dev));
            let real_buf = real.then(|| {
                prog.temp(
                    scalars(&grid.region(logical, d2, p), 1),
                    Placement::Device(dev),
                )
            });
            grid.x_bufs.push(x_buf);
            grid.y_bufs.push(y_buf);
            grid.real_bufs.push(real_buf);
        }
        grid
    }

    /// Per phase (the axis transformed whole), the two axes split over the grid, in order.
    fn split(&self, axis: usize) -> (usize, usize) {
        match axis {
            a if a == self.d2 => (self.d0, self.d1),
            a if a == self.d1 => (self.d0, self.d2),
            _ => (self.d1, self.d2),
        }
    }

    /// Device p = i·P2 + j: its region of a phase along `axis` in a box of `extent`.
    fn region(&self, extent: &[usize], axis: usize, p: usize) -> Region {
        let (u, v) = self.split(axis);
        let (i, j) = (p / self.p2, p % self.p2);
        let mut r = Region::whole(extent);
        (r.start[u], r.extent[u]) = block(extent[u], self.p1, i);
        (r.start[v], r.extent[v]) = block(extent[v], self.p2, j);
        r
    }

    /// The memory order of a phase along `axis`: packed, the phase's axis innermost.
    fn order(&self, axis: usize) -> Vec<usize> {
        let (u, v) = self.split(axis);
        (0..self.nloops).chain([u, v, axis]).collect()
    }

    /// The layout of the phase along `axis` on device `p`.
    fn layout(&self, axis: usize, p: usize) -> Layout {
        let r = self.region(&self.complex, axis, p);
        Layout {
            buf: if axis == self.d1 {
                self.y_bufs[p]
            } else {
                self.x_bufs[p]
            },
            stride: packed(&r.extent, &self.order(axis), 2),
            region: r,
        }
    }

    /// The layout of device `p`'s real pencils (r2c input, c2r output).
    fn real_layout(&self, p: usize) -> Layout {
        let r = self.region(&self.logical, self.d2, p);
        Layout {
            buf: self.real_bufs[p].expect("real problems have real pencils"),
            stride: packed(&r.extent, &self.order(self.d2), 1),
            region: r,
        }
    }

    /// Device `p`'s input, the pencils of the first phase (along `axis`), and their transform
    /// (the r2c for r2c) in the chunks of exchange `x`.
    fn first_phase(&self, prog: &mut Program, axis: usize, p: usize, x: &Exchange) {
        let first = self.layout(axis, p);
        if self.problem.kind == Kind::R2c {
            let r = self.real_layout(p);
            move_region(
                prog,
                &r.region,
                (INPUT, &self.host_in, &Region::whole(&self.logical)),
                (r.buf, &r.stride, &r.region),
                false,
                p,
            );
            self.fft_in_chunks(prog, Kind::R2c, self.d2, (&r, &first), x, p);
        } else {
            move_region(
                prog,
                &first.region,
                (INPUT, &self.host_in, &Region::whole(&self.complex)),
                (first.buf, &first.stride, &first.region),
                true,
                p,
            );
            let dft = Kind::Dft { sign: self.sign };
            self.fft_in_chunks(prog, dft, axis, (&first, &first), x, p);
        }
    }

    /// The transform of device `p`'s pencils of the last phase (along `axis`; the c2r for
    /// c2r), and its output.
    fn last_phase(&self, prog: &mut Program, axis: usize, p: usize) {
        let last = self.layout(axis, p);
        if self.problem.kind == Kind::C2r {
            let r = self.real_layout(p);
            self.fft(prog, Kind::C2r, self.d2, (&last, &r), &last.region, p);
            move_region(
                prog,
                &r.region,
                (r.buf, &r.stride, &r.region),
                (OUTPUT, &self.host_out, &Region::whole(&self.logical)),
                false,
                p,
            );
        } else {
            let dft = Kind::Dft { sign: self.sign };
            self.fft(prog, dft, axis, (&last, &last), &last.region, p);
            move_region(
                prog,
                &last.region,
                (last.buf, &last.stride, &last.region),
                (OUTPUT, &self.host_out, &Region::whole(&self.complex)),
                true,
                p,
            );
        }
    }

    /// The transforms of device p's pencils along `axis` (the r2c or c2r when `kind` is one)
    /// in the chunks of exchange `x`'s chunk axis, each recording its event.
    fn fft_in_chunks(
        &self,
        prog: &mut Program,
        kind: Kind,
        axis: usize,
        (from, to): (&Layout, &Layout),
        x: &Exchange,
        p: usize,
    ) {
        for (k, c) in chunks(&to.region, x.chunk_axis).iter().enumerate() {
            self.fft(prog, kind.clone(), axis, (from, to), c, p);
            prog.steps.push(Step::Record {
                event: x.events.chunk(p, k),
                stream: p,
            });
        }
    }

    /// The transforms along `axis` of the part `c` (a box of `to`'s region but along `axis`)
    /// of device p's pencils (the r2c or c2r when `kind` is one).
    fn fft(
        &self,
        prog: &mut Program,
        kind: Kind,
        axis: usize,
        (from, to): (&Layout, &Layout),
        c: &Region,
        p: usize,
    ) {
        let offset = |l: &Layout| -> isize {
            (0..self.axes)
                .filter(|&i| i != axis)
                .map(|i| (c.start[i] - l.region.start[i]) as isize * l.stride[i])
                .sum()
        };
        prog.steps.push(Step::Fft {
            problem: Problem {
                kind,
                dims: vec![IoDim::new(
                    self.logical[axis] as isize,
                    from.stride[axis],
                    to.stride[axis],
                )],
                loops: (0..self.axes)
                    .filter(|&i| i != axis)
                    .map(|i| IoDim::new(c.extent[i] as isize, from.stride[i], to.stride[i]))
                    .collect(),
                precision: self.problem.precision,
                in_place: from.buf == to.buf,
            },
            input: At {
                buf: from.buf,
                offset: offset(from),
            },
            output: At {
                buf: to.buf,
                offset: offset(to),
            },
            stream: p,
        });
    }

    /// Exchange `x` ([`push_exchange`]), after the copy streams of `after`.
    fn exchange(&self, prog: &mut Program, x: &Exchange, after: Option<&Exchange>) {
        let p_count = self.x_bufs.len();
        let chunks: Vec<Vec<Region>> = (0..p_count)
            .map(|p| chunks(&self.layout(x.from, p).region, x.chunk_axis))
            .collect();
        let part = |q: usize, p: usize, k: usize| {
            let to = self.layout(x.to, q);
            let region = intersect(chunks[p].get(k)?, &to.region)?;
            let from = self.layout(x.from, p);
            Some((
                region,
                (from.buf, from.stride, from.region),
                (to.buf, to.stride, to.region),
            ))
        };
        push_exchange(prog, p_count, x.events, after.map(|a| a.events), part);
    }
}
