//! Places an FFTX Program on a device: the lowering that lets the one CUDA executor of Programs
//! (`exec::cuda::program`) run FFTX plans.
//!
//! An FFTX Program (`fftx::exec::lower_program`) addresses the caller's arrays by address
//! (`Role::Array`, host) and has host temporaries (`Temp`, `ZeroTemp`). [`place`] returns the
//! same computation with its memory on device `d`:
//! - every temporary is placed `Device(d)` (a `ZeroTemp` stays one: zero at the start of every
//!   run);
//! - a caller's array that is device memory (the executor knows that, from the addresses: it
//!   hands the set in) is placed `Device(d)` and addressed where it is;
//! - every other array the steps touch gets a device mirror, a `Temp` on `Device(d)` over the
//!   scalars the steps touch ([`array_spans`]), with one `Transfer` into it before the steps
//!   (unless the steps only write all of it, without gaps) and one `Transfer` out of it after
//!   them (if written); the steps address the mirror instead of the array.
//!
//! The CPU executor runs a placed Program as it runs the unplaced one (device placements are
//! host memory there): `fftx::exec`'s tests compare the two.

use crate::error::Error;
use crate::problem::{IoDim, Kind, Precision, Problem};
use crate::program::kernel::{shape_of, Access, Elements, Kernel, Stage};
use crate::program::{At, BufId, Buffer, Placement, Program, Role, Step};
use std::collections::{BTreeMap, BTreeSet};

/// The real scalars `[lo, hi)` of a caller's array (from its address) that a Program's steps
/// touch, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub lo: isize,
    pub hi: isize,
    pub read: bool,
    pub written: bool,
    /// Scalar ranges that writes cover without gaps.
    pub dense_writes: Vec<(isize, isize)>,
}

impl Span {
    /// Whether a device copy must start as the host's: something is read, or a write leaves
    /// gaps that the copy out would otherwise overwrite.
    pub fn needs_copy_in(&self) -> bool {
        self.read
            || !self
                .dense_writes
                .iter()
                .any(|&(lo, hi)| lo == self.lo && hi == self.hi)
    }
}

/// An access that covers its span without gaps or repeats: sorted by stride, every stride is the
/// extent of the axes inside it.
pub fn dense(a: &Access, shape: &[usize]) -> bool {
    let mut axes: Vec<(isize, usize)> = a
        .strides
        .iter()
        .map(|s| s.abs())
        .zip(shape.iter().copied())
        .filter(|&(_, n)| n > 1)
        .collect();
    axes.sort();
    let mut extent = 1isize;
    for (s, n) in axes {
        if s != extent {
            return false;
        }
        extent *= n as isize;
    }
    true
}

/// An `Fft` step's input or output as an element access over its index shape (loops, then the
/// transform axes; the complex side of r2c/c2r halved).
fn fft_side(problem: &Problem, at: &At, input: bool) -> (Access, Vec<usize>) {
    let complex = if input {
        problem.kind.input_is_complex()
    } else {
        problem.kind.output_is_complex()
    };
    let per = if complex { 2 } else { 1 };
    let halved = match problem.kind {
        Kind::C2r => input,
        Kind::R2c => !input,
        _ => false,
    };
    let dims: Vec<usize> = problem.dims.iter().map(|d| d.n as usize).collect();
    let shape = problem
        .loops
        .iter()
        .map(|d| d.n as usize)
        .chain(shape_of(&dims, halved))
        .collect();
    let strides = problem
        .loops
        .iter()
        .chain(&problem.dims)
        .map(|d| if input { d.is } else { d.os } / per)
        .collect();
    let access = Access {
        buf: Elements {
            buf: at.buf,
            complex,
        },
        base: at.offset / per,
        strides,
    };
    (access, shape)
}

/// Every access of the Program's steps with its index shape and whether it is written.
fn accesses(program: &Program) -> Vec<(Access, Vec<usize>, bool)> {
    let mut v = Vec::new();
    for s in &program.steps {
        match s {
            Step::Fft {
                problem,
                input,
                output,
                ..
            } => {
                let (i, si) = fft_side(problem, input, true);
                let (o, so) = fft_side(problem, output, false);
                v.push((i, si, false));
                v.push((o, so, true));
            }
            Step::Kernel {
                kernel:
                    Kernel::Map {
                        shape,
                        src,
                        dst,
                        data,
                        ..
                    },
                ..
            } => {
                v.push((src.clone(), shape.clone(), false));
                v.push((dst.clone(), shape.clone(), true));
                if let Some(d) = data {
                    v.push((d.clone(), shape.clone(), false));
                }
            }
            Step::Kernel {
                kernel: Kernel::Chain(c),
                ..
            } => {
                let cshape = shape_of(&c.n, !matches!(c.first_kind(), Kind::Dft { .. }));
                for l in &c.loads {
                    v.push((l.access.clone(), l.extent.clone(), false));
                }
                for l in &c.stores {
                    v.push((l.access.clone(), l.extent.clone(), true));
                }
                for st in &c.stages {
                    if let Stage::Pointwise { data: Some(d), .. } = st {
                        v.push((d.clone(), cshape.clone(), false));
                    }
                }
            }
            _ => {}
        }
    }
    v
}

/// The scalars of each caller's array (`Role::Array` buffer) that the steps touch, and how.
/// Arrays only addressed by empty boxes have none.
pub fn array_spans(program: &Program) -> BTreeMap<BufId, Span> {
    let mut m: BTreeMap<BufId, Span> = BTreeMap::new();
    for (a, shape, written) in accesses(program) {
        if !matches!(program.buffers[a.buf.buf].role, Role::Array { .. }) || shape.contains(&0) {
            continue;
        }
        let (lo, hi) = a.span(&shape);
        let per = if a.buf.complex { 2 } else { 1 };
        let (lo, hi) = (lo * per, (hi + 1) * per);
        let s = m.entry(a.buf.buf).or_insert(Span {
            lo,
            hi,
            read: false,
            written: false,
            dense_writes: Vec::new(),
        });
        s.lo = s.lo.min(lo);
        s.hi = s.hi.max(hi);
        if written {
            s.written = true;
            if dense(&a, &shape) {
                s.dense_writes.push((lo, hi));
            }
        } else {
            s.read = true;
        }
    }
    m
}

/// The byte range `[lo, hi)` of the span of array buffer `b` (at `addr`), `precision`'s scalars.
pub fn span_bytes(addr: usize, span: &Span, precision: Precision) -> (usize, usize) {
    let e = precision.bytes() as isize;
    let at = |s: isize| (addr as isize + s * e) as usize;
    (at(span.lo), at(span.hi))
}

/// Where the steps find a buffer after placement: a buffer and a shift of its offsets (in real
/// scalars).
#[derive(Clone, Copy)]
struct Moved {
    buf: BufId,
    shift: isize,
}

/// The FFTX Program `program` (steps `Fft` and `Kernel` over `Role::Array` arrays and host
/// temporaries, all of `precision`) placed on device `device`; `device_arrays` names the array
/// buffers that are memory of that device (addressed where they are). Fails when two arrays
/// overlap or a step is not an FFTX program's.
pub fn place(
    program: &Program,
    precision: Precision,
    device: usize,
    device_arrays: &BTreeSet<BufId>,
) -> Result<Program, Error> {
    let spans = array_spans(program);
    disjoint(program, &spans, precision, device_arrays)?;
    let Mirrored {
        buffers,
        moved,
        before,
        after,
    } = mirror(program, &spans, Placement::Device(device), device_arrays)?;
    let mut steps = before;
    for (k, s) in program.steps.iter().enumerate() {
        steps.push(readdress(s, &moved).ok_or_else(|| {
            Error::internal(format!("step {k}: not an FFTX program's (Fft or Kernel)"))
        })?);
    }
    steps.extend(after);
    let placed = Program { buffers, steps };
    placed.validate()?;
    Ok(placed)
}

/// `Err` when two of the caller's host arrays overlap (their spans, in bytes).
fn disjoint(
    program: &Program,
    spans: &BTreeMap<BufId, Span>,
    precision: Precision,
    device_arrays: &BTreeSet<BufId>,
) -> Result<(), Error> {
    let mut bytes: Vec<(usize, usize)> = spans
        .iter()
        .filter(|(b, _)| !device_arrays.contains(b))
        .map(|(&b, s)| match program.buffers[b].role {
            Role::Array { addr } => span_bytes(addr, s, precision),
            _ => unreachable!("spans are of arrays"),
        })
        .collect();
    bytes.sort();
    if bytes.windows(2).any(|w| w[0].1 > w[1].0) {
        return Err(Error::bad_input("two of the caller's arrays overlap"));
    }
    Ok(())
}

/// The buffers placed: temporaries and device arrays on the device, each host array with a
/// device mirror of its span; where each buffer's elements now are; the copies into the
/// mirrors before the steps and out of them after.
struct Mirrored {
    buffers: Vec<Buffer>,
    moved: Vec<Moved>,
    before: Vec<Step>,
    after: Vec<Step>,
}

fn mirror(
    program: &Program,
    spans: &BTreeMap<BufId, Span>,
    on_device: Placement,
    device_arrays: &BTreeSet<BufId>,
) -> Result<Mirrored, Error> {
    let mut m = Mirrored {
        buffers: program.buffers.clone(),
        moved: (0..program.buffers.len())
            .map(|buf| Moved { buf, shift: 0 })
            .collect(),
        before: Vec::new(),
        after: Vec::new(),
    };
    for (b, buffer) in program.buffers.iter().enumerate() {
        match buffer.role {
            Role::Temp { .. } | Role::ZeroTemp { .. } => m.buffers[b].placement = on_device,
            Role::Array { .. } if device_arrays.contains(&b) => m.buffers[b].placement = on_device,
            Role::Array { .. } => {
                // The mirror starts at an even scalar, so complex elements stay whole.
                let span = spans.get(&b);
                let lo = span.map_or(0, |s| s.lo - s.lo.rem_euclid(2));
                let scalars = span.map_or(0, |s| s.hi - lo);
                m.buffers.push(Buffer {
                    role: Role::Temp {
                        scalars: scalars as usize,
                    },
                    placement: on_device,
                });
                let mirror = m.buffers.len() - 1;
                m.moved[b] = Moved {
                    buf: mirror,
                    shift: lo,
                };
                let Some(span) = span else { continue };
                let copy = |from: At, to: At| Step::Transfer {
                    from,
                    to,
                    dims: vec![IoDim::new(span.hi - span.lo, 1, 1)],
                    complex: false,
                    stream: 0,
                };
                let host = At {
                    buf: b,
                    offset: span.lo,
                };
                let dev = At {
                    buf: mirror,
                    offset: span.lo - lo,
                };
                if span.needs_copy_in() {
                    m.before.push(copy(host, dev));
                }
                if span.written {
                    m.after.push(copy(dev, host));
                }
            }
            Role::Input | Role::Output => {
                return Err(Error::internal(
                    "an FFTX program addresses the caller's arrays as Role::Array",
                ))
            }
        }
    }
    Ok(m)
}

/// Step `s` over the buffers where `moved` says their elements now are; None for a step that
/// is not an FFTX program's (`Fft` or `Kernel`).
fn readdress(s: &Step, moved: &[Moved]) -> Option<Step> {
    let at = |a: &At| At {
        buf: moved[a.buf].buf,
        offset: a.offset - moved[a.buf].shift,
    };
    let access = |a: &Access| {
        let m = moved[a.buf.buf];
        Access {
            buf: Elements {
                buf: m.buf,
                complex: a.buf.complex,
            },
            base: a.base - m.shift / if a.buf.complex { 2 } else { 1 },
            strides: a.strides.clone(),
        }
    };
    Some(match s {
        Step::Fft {
            problem,
            input,
            output,
            stream,
        } => Step::Fft {
            problem: problem.clone(),
            input: at(input),
            output: at(output),
            stream: *stream,
        },
        Step::Kernel {
            kernel:
                Kernel::Map {
                    shape,
                    src,
                    dst,
                    data,
                    code,
                },
            stream,
        } => Step::Kernel {
            kernel: Kernel::Map {
                shape: shape.clone(),
                src: access(src),
                dst: access(dst),
                data: data.as_ref().map(access),
                code: code.clone(),
            },
            stream: *stream,
        },
        Step::Kernel {
            kernel: Kernel::Chain(c),
            stream,
        } => Step::Kernel {
            kernel: Kernel::Chain(c.map(&mut |a| access(a))),
            stream: *stream,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Kind;

    fn acc(buf: BufId, complex: bool, base: isize, strides: &[isize]) -> Access {
        Access {
            buf: Elements { buf, complex },
            base,
            strides: strides.to_vec(),
        }
    }

    fn array(addr: usize) -> Buffer {
        Buffer {
            role: Role::Array { addr },
            placement: Placement::Host,
        }
    }

    fn map(shape: &[usize], src: Access, dst: Access) -> Step {
        Step::Kernel {
            kernel: Kernel::Map {
                shape: shape.to_vec(),
                src,
                dst,
                data: None,
                code: None,
            },
            stream: 0,
        }
    }

    #[test]
    fn dense_accesses_cover_their_span_once() {
        let a = |s: &[isize]| acc(0, false, 0, s);
        assert!(dense(&a(&[12, 1]), &[3, 12]));
        assert!(dense(&a(&[1, -4]), &[4, 5])); // reversed, transposed
        assert!(dense(&a(&[7, 1]), &[1, 4])); // a length-1 axis strides anywhere
        assert!(!dense(&a(&[16, 1]), &[3, 12])); // gaps between rows
        assert!(!dense(&a(&[2, 1]), &[3, 4])); // rows overlap
        assert!(!dense(&a(&[0, 1]), &[2, 4])); // repeats
    }

    #[test]
    fn only_a_gapless_write_of_the_whole_span_skips_the_copy_in() {
        let span = |read, dense_writes: Vec<(isize, isize)>| Span {
            lo: 0,
            hi: 64,
            read,
            written: true,
            dense_writes,
        };
        assert!(!span(false, vec![(0, 64)]).needs_copy_in());
        assert!(span(true, vec![(0, 64)]).needs_copy_in());
        assert!(span(false, vec![(0, 32)]).needs_copy_in());
        assert!(span(false, vec![]).needs_copy_in());
    }

    /// The spans of an `Fft` step's arrays: a reversed, offset real input and a padded complex
    /// output (rows of 7 complex elements 8 apart: gaps, so the output is copied in).
    #[test]
    fn spans_of_an_fft_step() {
        let problem = Problem {
            kind: Kind::R2c,
            dims: vec![IoDim::new(4, -12, 16), IoDim::new(12, -1, 2)],
            loops: Vec::new(),
            precision: Precision::F64,
            in_place: false,
        };
        let program = Program {
            buffers: vec![array(0x1000), array(0x8000)],
            steps: vec![Step::Fft {
                problem,
                input: At { buf: 0, offset: 47 },
                output: At { buf: 1, offset: 4 },
                stream: 0,
            }],
        };
        let spans = array_spans(&program);
        assert_eq!((spans[&0].lo, spans[&0].hi), (0, 48));
        assert!(spans[&0].read && !spans[&0].written);
        assert_eq!((spans[&1].lo, spans[&1].hi), (4, 4 + 3 * 16 + 14));
        assert!(spans[&1].written && spans[&1].needs_copy_in());
    }

    /// A map from a host array into a zero temporary, a map into a second array written whole,
    /// and a third array on the device: temporaries move to the device, the first array gets
    /// a mirror copied in (from an odd offset: the mirror starts one scalar lower), the
    /// second a mirror copied out only, the device array stays.
    #[test]
    fn place_mirrors_host_arrays_and_moves_temporaries() {
        let program = Program {
            buffers: vec![
                array(0x1000),
                Buffer {
                    role: Role::ZeroTemp { scalars: 32 },
                    placement: Placement::Host,
                },
                array(0x8000),
                array(0x20000),
            ],
            steps: vec![
                map(
                    &[4, 3],
                    acc(0, false, 5, &[4, 1]),
                    acc(1, false, 0, &[8, 1]),
                ),
                map(
                    &[4, 3],
                    acc(1, false, 0, &[8, 1]),
                    acc(2, false, 0, &[3, 1]),
                ),
                map(&[2], acc(1, false, 0, &[1]), acc(3, false, 0, &[1])),
            ],
        };
        let device: BTreeSet<BufId> = [3].into();
        let placed = place(&program, Precision::F64, 1, &device).unwrap();
        let s = placed.describe();
        println!("{s}");
        let dev = Placement::Device(1);
        assert_eq!(placed.buffers[1].placement, dev);
        assert_eq!(placed.buffers[1].role, Role::ZeroTemp { scalars: 32 });
        assert_eq!(placed.buffers[3].placement, dev);
        assert_eq!(placed.buffers[0].placement, Placement::Host);
        // Mirrors: b4 of b0 (scalars 4..20 of it, from 5), b5 of b2 (12 scalars).
        assert_eq!(placed.buffers[4].role, Role::Temp { scalars: 16 });
        assert_eq!(placed.buffers[5].role, Role::Temp { scalars: 12 });
        assert!(
            s.contains("(transfer s0 b0+5 -> b4+1 [15:1:1] real)"),
            "{s}"
        );
        assert!(
            s.contains("(kernel s0 map [4, 3] b4 real+1 strides=[4, 1]"),
            "{s}"
        );
        assert!(s.contains("-> b5 real+0 strides=[3, 1])"), "{s}");
        assert!(
            s.contains("(transfer s0 b5+0 -> b2+0 [12:1:1] real)"),
            "{s}"
        );
        assert!(!s.contains("-> b5+0 [12"), "{s}"); // written whole: no copy in
        assert!(s.contains("b1 real+0 strides=[1] -> b3 real+0"), "{s}");
        assert_eq!(placed.steps.len(), 5);
        // Overlapping host arrays are refused.
        let mut overlapping = program.clone();
        overlapping.buffers[2] = array(0x1000 + 8 * 8);
        assert!(place(&overlapping, Precision::F64, 0, &device).is_err());
        // Only FFTX steps.
        let mut other = program;
        other.steps.push(Step::Record {
            event: 0,
            stream: 0,
        });
        assert!(place(&other, Precision::F64, 0, &device).is_err());
    }
}
