//! Out-of-card lowering: a complex DFT whose data exceed a device's memory budget becomes a
//! Program that streams tiles of the caller's arrays through two device buffers.
//!
//! The transform is done in rounds (Gu et al., "Out-of-card FFTs", ICS'11, §3–4). Each round
//! transforms some axes completely; it cuts the other axes into tiles that fit one device
//! buffer, and for each tile: gathers it from host memory into the device buffer (`Transfer`),
//! transforms it there (`Fft`, batched over the tile's other axes), and scatters it back. Tiles
//! alternate between two buffers on two streams, so one tile's transfers overlap another's
//! transform; rounds are separated by events.
//!
//! - A problem whose every transform fits is one round, tiled over its loops.
//! - Multi-dimensional transforms group their axes from the innermost while a group fits (slabs,
//!   then pencils); each group is a round.
//! - An axis longer than a tile holds is split four-step style, N = N1·N2 (n = N2·n1 + n2,
//!   k = k1 + N1·k2): round A transforms n1 for tiles of columns n2, multiplies by the twiddles
//!   exp(sign·2πi·k1·n2/N) and writes element (k1, n2) at output position k1 + N1·n2; round B
//!   transforms n2 in place on the output, which leaves X[k1 + N1·k2] where it belongs. In place
//!   (N = M²), round A writes back where it read, round B leaves the M × M result transposed,
//!   and round C transposes it in place, swapping pairs of blocks through the two buffers. Only
//!   one axis can be split.
//!
//! The first round reads the input and writes the output; later rounds work in place on the
//! output. Device memory: two tile buffers, each at most a sixth of the budget; a third is left
//! to the executor's scratch (per stream, where a transfer's device side is strided: the CUDA
//! executor packs it there so that the host copies contiguous runs) and a third to the FFT
//! library's work area.

use crate::error::{Error, Result};
use crate::problem::{IoDim, Kind, Problem};
use crate::program::{At, Axis, BufId, Placement, Program, Step, INPUT, OUTPUT};

pub use super::Budget;

/// One axis of a round's view of the data: `n` elements, `src`/`dst` real scalars apart in the
/// buffers the round reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RoundAxis {
    n: usize,
    src: isize,
    dst: isize,
}

/// The four-step twiddles of a round: rows are axis `rows` (k1), columns axis `cols` (n2).
#[derive(Clone, Copy, Debug)]
struct Twiddles {
    rows: usize,
    cols: usize,
    n: usize,
    sign: i32,
}

/// What a round does to each of its tiles.
#[derive(Clone, Debug)]
enum Work {
    /// Transforms `axes` (indices into the round's axes, outermost first) by `kind`, then the
    /// twiddles. For r2c and c2r the last of `axes` is the real-data one: its round axis counts
    /// the logical (real) length; on the complex side it has n/2 + 1 elements.
    Transform {
        kind: Kind,
        axes: Vec<usize>,
        twiddles: Option<Twiddles>,
    },
    /// Transposes the square of axes `rows` and `cols` (the same length) in place, swapping
    /// pairs of blocks through the two device buffers.
    Transpose { rows: usize, cols: usize },
}

#[derive(Clone, Debug)]
struct Round {
    axes: Vec<RoundAxis>,
    work: Work,
    src: BufId,
    dst: BufId,
}

impl Round {
    /// The axes a tile takes whole.
    fn whole(&self) -> &[usize] {
        match &self.work {
            Work::Transform { axes, .. } => axes,
            Work::Transpose { .. } => &[],
        }
    }
}

/// How the caller's host arrays reach the device: through pinned staging blocks and copy
/// threads (pageable arrays), or by DMA alone (pinned ones). It decides how tiles copy
/// ([`HostCopy`]); either program computes the same from either kind of array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostArrays {
    Pageable,
    Pinned,
}

/// Lowers `problem` to a program that keeps at most `budget.bytes` on device `budget.device`:
/// the resident schedule (`passes::resident`) when its data fit the budget once, else rounds,
/// their copies cut for arrays of kind `host`.
pub fn lower(problem: &Problem, budget: Budget, host: HostArrays) -> Result<Program> {
    let cut = Cut {
        bytes: super::stream::BLOCK_BYTES,
        whole_transposes: host == HostArrays::Pinned,
    };
    lower_in_blocks(problem, budget, cut)
}

/// How the copies of a round's tiles are cut: into blocks of at most `bytes`, except, where
/// `whole_transposes`, those whose device side is not in the host side's rows.
#[derive(Clone, Copy, Debug)]
struct Cut {
    bytes: usize,
    whole_transposes: bool,
}

/// [`lower`], each tile's copies cut as `cut` says ([`HostCopy`]).
fn lower_in_blocks(problem: &Problem, budget: Budget, cut: Cut) -> Result<Program> {
    if let Some(program) = super::resident::lower(problem, budget) {
        return Ok(program);
    }
    if problem.dims.is_empty() {
        return Err(Error::unsupported(
            "a rank-0 problem has no transform to lower",
        ));
    }
    if problem.dims.iter().chain(&problem.loops).any(|d| d.n <= 0) {
        return Err(Error::bad_input("nothing to transform"));
    }
    let element = 2 * problem.precision.bytes();
    let cap = budget.bytes / (6 * element);
    let rounds = match problem.kind {
        Kind::Dft { sign } => rounds(problem, sign, cap)?,
        Kind::R2c | Kind::C2r => real_rounds(problem, cap)?,
        Kind::R2r(_) => {
            return Err(Error::unsupported(
                "r2r: the out-of-card pass lowers complex and real-data DFTs",
            ))
        }
    };
    Ok(schedule(&rounds, cap, problem, budget.device, cut))
}

/// The rounds of the transform, with tiles of at most `cap` elements.
fn rounds(p: &Problem, sign: i32, cap: usize) -> Result<Vec<Round>> {
    let axis = |d: &IoDim| RoundAxis {
        n: d.n as usize,
        src: d.is,
        dst: d.os,
    };
    let loops: Vec<RoundAxis> = p.loops.iter().map(axis).collect();
    let dims: Vec<RoundAxis> = p.dims.iter().map(axis).collect();
    let too_small = |what: String| {
        Err(Error::unsupported(format!(
            "a device budget of {cap} elements per tile is too small for {what}"
        )))
    };
    // Groups of transform axes, innermost first; an axis alone too long for a tile is split.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut split: Option<usize> = None;
    for d in (0..dims.len()).rev() {
        let fits_with =
            |g: &Vec<usize>| dims[d].n * g.iter().map(|&i| dims[i].n).product::<usize>() <= cap;
        match groups.last_mut() {
            Some(g) if !g.is_empty() && fits_with(g) => g.insert(0, d),
            _ if dims[d].n <= cap => groups.push(vec![d]),
            _ => {
                if split.is_some() {
                    return too_small("two axes that each need splitting".into());
                }
                split = Some(d);
                groups.push(Vec::new());
            }
        }
    }
    let mut rounds = Vec::new();
    if let Some(d) = split {
        let others: Vec<RoundAxis> = loops
            .iter()
            .chain(
                dims.iter()
                    .enumerate()
                    .filter(|(i, _)| *i != d)
                    .map(|(_, a)| a),
            )
            .copied()
            .collect();
        rounds = split_rounds(dims[d], &others, sign, cap, p.in_place)?;
    }
    // The groups of whole axes, each a round over (loops, dims).
    let all: Vec<RoundAxis> = loops.iter().chain(&dims).copied().collect();
    for g in groups.iter().filter(|g| !g.is_empty()) {
        let first = rounds.is_empty();
        let axes: Vec<RoundAxis> = if first {
            all.clone()
        } else {
            all.iter()
                .map(|a| RoundAxis {
                    n: a.n,
                    src: a.dst,
                    dst: a.dst,
                })
                .collect()
        };
        rounds.push(Round {
            axes,
            work: Work::Transform {
                kind: Kind::Dft { sign },
                axes: g.iter().map(|&d| loops.len() + d).collect(),
                twiddles: None,
            },
            src: if first { INPUT } else { OUTPUT },
            dst: OUTPUT,
        });
    }
    Ok(rounds)
}

/// The rounds of an r2c or c2r transform: the real-data round over the innermost axes that fit
/// a tile (the last one with them), and complex rounds over the others, in place on the complex
/// array: after the r2c round on the output; before the c2r round on the input, which they
/// overwrite (as FFTW's multi-dimensional c2r does).
fn real_rounds(p: &Problem, cap: usize) -> Result<Vec<Round>> {
    let r2c = p.kind == Kind::R2c;
    let rank = p.dims.len();
    let n_last = p.dims[rank - 1].n as usize;
    // A tile of E logical elements takes E real scalars and E/n·(n/2 + 1) complex elements.
    let real_cap = cap * n_last / (n_last + 1);
    let mut inner = vec![rank - 1];
    let mut size = n_last;
    while inner[0] > 0 && size * p.dims[inner[0] - 1].n as usize <= real_cap {
        inner.insert(0, inner[0] - 1);
        size *= p.dims[inner[0]].n as usize;
    }
    if size > real_cap {
        return Err(Error::unsupported(format!(
            "a real-data axis of {n_last} elements is longer than a tile of {real_cap}: \
             the out-of-card pass splits complex axes only"
        )));
    }
    // The complex array's view: its strides on both sides, n/2 + 1 along the last axis.
    let (complex_side, sign) = if r2c { (OUTPUT, -1) } else { (INPUT, 1) };
    let complex_axis = |d: &IoDim, last: bool| {
        let stride = if r2c { d.os } else { d.is };
        let n = if last {
            d.n as usize / 2 + 1
        } else {
            d.n as usize
        };
        RoundAxis {
            n,
            src: stride,
            dst: stride,
        }
    };
    let outer = p.dims[..inner[0]].to_vec();
    let complex_view = Problem {
        kind: Kind::Dft { sign },
        dims: outer
            .iter()
            .map(|d| {
                IoDim::new(
                    d.n,
                    if r2c { d.os } else { d.is },
                    if r2c { d.os } else { d.is },
                )
            })
            .collect(),
        loops: p
            .loops
            .iter()
            .chain(&p.dims[inner[0]..])
            .enumerate()
            .map(|(i, d)| {
                let a = complex_axis(d, i + 1 == p.loops.len() + rank - inner[0]);
                IoDim::new(a.n as isize, a.src, a.dst)
            })
            .collect(),
        precision: p.precision,
        in_place: true,
    };
    let mut complex_rounds = if outer.is_empty() {
        Vec::new()
    } else {
        rounds(&complex_view, sign, cap)?
    };
    for r in &mut complex_rounds {
        (r.src, r.dst) = (complex_side, complex_side);
    }
    let axis = |d: &IoDim| RoundAxis {
        n: d.n as usize,
        src: d.is,
        dst: d.os,
    };
    let nloops = p.loops.len();
    let real_round = Round {
        axes: p.loops.iter().chain(&p.dims).map(axis).collect(),
        work: Work::Transform {
            kind: p.kind.clone(),
            axes: inner.iter().map(|&d| nloops + d).collect(),
            twiddles: None,
        },
        src: INPUT,
        dst: OUTPUT,
    };
    Ok(if r2c {
        std::iter::once(real_round).chain(complex_rounds).collect()
    } else {
        complex_rounds
            .into_iter()
            .chain(std::iter::once(real_round))
            .collect()
    })
}

/// The rounds of a four-step split of axis `a` (the other axes `others` ride along).
///
/// Out of place: round A reads the input and writes element (k1, n2) at output position
/// k1 + N1·n2; round B transforms n2 in place there. In place (N = M², every stride the same on
/// both sides): round A writes (k1, n2) back where it read it, round B leaves X[k1 + M·k2] at
/// k1·M + k2, and round C transposes the M × M matrix in place.
fn split_rounds(
    a: RoundAxis,
    others: &[RoundAxis],
    sign: i32,
    cap: usize,
    in_place: bool,
) -> Result<Vec<Round>> {
    let n = a.n;
    let n1 = if in_place {
        let m = (n as f64).sqrt().round() as usize;
        if m * m != n || a.src != a.dst || others.iter().any(|o| o.src != o.dst) {
            return Err(Error::unsupported(format!(
                "an in-place transform with an axis of {n} elements, more than a tile of {cap}: \
                 split in place only for N = M² and the same strides on both sides"
            )));
        }
        m
    } else {
        split_factor(n, cap).ok_or_else(|| {
            Error::unsupported(format!(
                "a device budget of {cap} elements per tile is too small for an axis of {n} \
                 elements (no factors N1·N2 both fit)"
            ))
        })?
    };
    let n2 = n / n1;
    if n1 > cap || n2 > cap {
        return Err(Error::unsupported(format!(
            "a device budget of {cap} elements per tile is too small for an axis of {n} elements"
        )));
    }
    let (is, os) = (a.src, a.dst);
    let (row_dst, col_dst) = if in_place {
        (n2 as isize * os, os)
    } else {
        (os, n1 as isize * os)
    };
    let mut axes = vec![
        RoundAxis {
            n: n1,
            src: n2 as isize * is,
            dst: row_dst,
        },
        RoundAxis {
            n: n2,
            src: is,
            dst: col_dst,
        },
    ];
    axes.extend_from_slice(others);
    let on_output: Vec<RoundAxis> = axes
        .iter()
        .map(|a| RoundAxis {
            n: a.n,
            src: a.dst,
            dst: a.dst,
        })
        .collect();
    let mut rounds = vec![
        Round {
            axes,
            work: Work::Transform {
                kind: Kind::Dft { sign },
                axes: vec![0],
                twiddles: Some(Twiddles {
                    rows: 0,
                    cols: 1,
                    n,
                    sign,
                }),
            },
            src: INPUT,
            dst: OUTPUT,
        },
        Round {
            axes: on_output.clone(),
            work: Work::Transform {
                kind: Kind::Dft { sign },
                axes: vec![1],
                twiddles: None,
            },
            src: OUTPUT,
            dst: OUTPUT,
        },
    ];
    if in_place {
        rounds.push(Round {
            axes: on_output,
            work: Work::Transpose { rows: 0, cols: 1 },
            src: OUTPUT,
            dst: OUTPUT,
        });
    }
    Ok(rounds)
}

/// N1 of a four-step split of `n`: the divisor nearest √n with N1 and N/N1 both at most `cap`.
fn split_factor(n: usize, cap: usize) -> Option<usize> {
    let mut best: Option<usize> = None;
    let mut d = 1;
    while d * d <= n {
        if n.is_multiple_of(d) {
            for n1 in [d, n / d] {
                if n1 <= cap && n / n1 <= cap {
                    let score = |m: usize| (m as f64).ln() - (n as f64).sqrt().ln();
                    if best.is_none_or(|b| score(n1).abs() < score(b).abs()) {
                        best = Some(n1);
                    }
                }
            }
        }
        d += 1;
    }
    best
}

/// A tile of a round: where it starts and how many elements it takes along each axis.
#[derive(Clone, Debug)]
struct Tile {
    start: Vec<usize>,
    extent: Vec<usize>,
}

/// The tiles of a round. Transform rounds: transform axes whole; the other axes, smallest source
/// stride first, whole while the tile fits, then a block of the next, then single elements.
/// Transpose rounds: square blocks of the rows and columns, single elements of the rest.
fn tiles(r: &Round, cap: usize, scalar_bytes: usize) -> Vec<Tile> {
    let element_scalars = match &r.work {
        Work::Transform { kind, .. } if !kind.input_is_complex() => 1,
        _ => 2,
    };
    let element_bytes = element_scalars * scalar_bytes;
    // A real-data tile of E logical elements takes about E (n + 1)/n complex elements' room.
    let cap = match &r.work {
        Work::Transform {
            kind: Kind::R2c | Kind::C2r,
            axes,
            ..
        } => {
            let n = r.axes[*axes.last().expect("a transform axis")].n;
            cap * n / (n + 1)
        }
        _ => cap,
    };
    let mut extent: Vec<usize> = r.axes.iter().map(|_| 1).collect();
    if let Work::Transpose { rows, cols } = r.work {
        let b = ((cap as f64).sqrt() as usize).clamp(1, r.axes[rows].n);
        (extent[rows], extent[cols]) = (b, b);
    }
    for &t in r.whole() {
        extent[t] = r.axes[t].n;
    }
    let mut size: usize = extent.iter().product();
    let mut batch: Vec<usize> = (0..r.axes.len())
        .filter(|i| matches!(r.work, Work::Transform { .. }) && !r.whole().contains(i))
        .collect();
    batch.sort_by_key(|&i| r.axes[i].src.unsigned_abs());
    for &b in &batch {
        let most = cap / size;
        let take = if r.axes[b].src.unsigned_abs() == element_scalars {
            // The tile's rows are runs of this axis: DMA rows of `take` elements.
            dma_row(r.axes[b].n, most, element_bytes)
        } else {
            most.clamp(1, r.axes[b].n)
        };
        extent[b] = take;
        size *= take;
        if take < r.axes[b].n {
            break;
        }
    }
    // Enumerate the tile starts, the last batch axis fastest.
    let mut out = Vec::new();
    let mut start = vec![0usize; r.axes.len()];
    loop {
        let ext = (0..r.axes.len())
            .map(|i| extent[i].min(r.axes[i].n - start[i]))
            .collect();
        out.push(Tile {
            start: start.clone(),
            extent: ext,
        });
        let mut i = r.axes.len();
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            start[i] += extent[i];
            if start[i] < r.axes[i].n {
                break;
            }
            start[i] = 0;
        }
    }
}

/// How many of an axis's `n` elements a tile takes when at most `most` fit and they are
/// contiguous in host memory (each a row of `element` bytes in a 2-D DMA): as many as fit,
/// except rows between 8 and 18 KiB, which shrink to 8 KiB.
///
/// 2-D DMA rates of column tiles from pinned host memory on the H100 box, by row width (H2D and
/// D2H at once, GB/s; 2026-11-27, `bench/results/2026-11-27-h100-ooc-tiles.md`): 4 KiB 66,
/// 6 KiB 84, 8 KiB 96, 10 KiB 59-61, 10.9 KB 69, 12 KiB 72, 14 KiB 85-88, 16 KiB 87-95,
/// 18-32 KiB 92-101. c2c f32 2^28 with a 1 GiB budget took 150-156 ms with 1365-column tiles
/// (10.9 KB rows) and 140.4-141.3 with 1024 (8 KiB).
fn dma_row(n: usize, most: usize, element: usize) -> usize {
    const FAST_SHORT: usize = 8 << 10;
    const FAST_LONG: usize = 18 << 10;
    let take = most.clamp(1, n);
    let row = take * element;
    if take < n && row > FAST_SHORT && row < FAST_LONG {
        FAST_SHORT / element
    } else {
        take
    }
}

/// The program: the rounds' tiles on two buffers and two streams, rounds separated by events.
fn schedule(rounds: &[Round], cap: usize, p: &Problem, device: usize, cut: Cut) -> Program {
    let mut prog = Program::new();
    let round_tiles: Vec<Vec<Tile>> = rounds
        .iter()
        .map(|r| tiles(r, cap, p.precision.bytes()))
        .collect();
    let largest = rounds
        .iter()
        .zip(&round_tiles)
        .flat_map(|(r, tiles)| tiles.iter().map(|t| DeviceTile::new(r, t).scalars))
        .max()
        .unwrap_or(0);
    let transposes = rounds
        .iter()
        .any(|r| matches!(r.work, Work::Transpose { .. }));
    let streams = if transposes || round_tiles.iter().any(|t| t.len() > 1) {
        2
    } else {
        1
    };
    let bufs: Vec<BufId> = (0..streams)
        .map(|_| prog.temp(largest, Placement::Device(device)))
        .collect();
    let mut event = 0;
    for (k, (r, tiles)) in rounds.iter().zip(&round_tiles).enumerate() {
        if k > 0 && streams > 1 {
            // Every stream waits for every other's part of the previous round.
            for s in 0..streams {
                prog.steps.push(Step::Record {
                    event: event + s,
                    stream: s,
                });
            }
            for s in 0..streams {
                for o in (0..streams).filter(|&o| o != s) {
                    prog.steps.push(Step::Wait {
                        event: event + o,
                        stream: s,
                    });
                }
            }
            event += streams;
        }
        match r.work {
            Work::Transform { .. } => {
                for (t, tile) in tiles.iter().enumerate() {
                    let stream = t % streams;
                    tile_steps(&mut prog, r, tile, (bufs[stream], stream), p, cut);
                }
            }
            Work::Transpose { rows, cols } => {
                for tile in tiles.iter().filter(|t| t.start[rows] <= t.start[cols]) {
                    swap_steps(&mut prog, r, tile, (rows, cols), &bufs, p, cut);
                }
            }
        }
    }
    prog
}

/// How a round's tile lies in a device buffer: per axis the element counts and strides (real
/// scalars) of its input and its output, and where the output starts (in place for complex
/// rounds; after the input for r2c and c2r).
struct DeviceTile {
    order: Vec<usize>,
    extent_in: Vec<usize>,
    extent_out: Vec<usize>,
    stride_in: Vec<isize>,
    stride_out: Vec<isize>,
    out_offset: isize,
    scalars: usize,
}

impl DeviceTile {
    fn new(r: &Round, tile: &Tile) -> DeviceTile {
        let rank = r.axes.len();
        // The axis of smallest source stride innermost.
        let mut order: Vec<usize> = (0..rank).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(r.axes[i].src.unsigned_abs()));
        let (kind, real_axis) = match &r.work {
            Work::Transform { kind, axes, .. } => (kind.clone(), axes.last().copied()),
            Work::Transpose { .. } => (Kind::Dft { sign: -1 }, None),
        };
        let half = |complex: bool| {
            let mut e = tile.extent.clone();
            if let (true, Some(a), Kind::R2c | Kind::C2r) = (complex, real_axis, &kind) {
                e[a] = e[a] / 2 + 1;
            }
            e
        };
        let (ci, co) = (kind.input_is_complex(), kind.output_is_complex());
        let (extent_in, extent_out) = (half(ci), half(co));
        let strides = |extent: &[usize], complex: bool| {
            let mut st = vec![0isize; rank];
            let mut s = if complex { 2 } else { 1 };
            for &i in order.iter().rev() {
                st[i] = s;
                s *= extent[i] as isize;
            }
            (st, s as usize)
        };
        let (stride_in, n_in) = strides(&extent_in, ci);
        let (stride_out, n_out) = strides(&extent_out, co);
        let in_place = matches!(kind, Kind::Dft { .. });
        DeviceTile {
            order,
            extent_in,
            extent_out,
            stride_in,
            stride_out,
            out_offset: if in_place { 0 } else { n_in as isize },
            scalars: if in_place { n_in } else { n_in + n_out },
        }
    }
}

/// Gather, transform (and twiddle), scatter one tile through device buffer `dev`.
fn tile_steps(
    prog: &mut Program,
    r: &Round,
    tile: &Tile,
    (dev, stream): (BufId, usize),
    p: &Problem,
    cut: Cut,
) {
    let Work::Transform {
        kind,
        axes: whole,
        twiddles,
    } = &r.work
    else {
        unreachable!("transform rounds only")
    };
    let rank = r.axes.len();
    let d = DeviceTile::new(r, tile);
    let offset = |stride: &dyn Fn(&RoundAxis) -> isize| {
        (0..rank)
            .map(|i| tile.start[i] as isize * stride(&r.axes[i]))
            .sum::<isize>()
    };
    let box_dims =
        |extent: &[usize], from: &dyn Fn(usize) -> isize, to: &dyn Fn(usize) -> isize| {
            d.order
                .iter()
                .map(|&i| IoDim::new(extent[i] as isize, from(i), to(i)))
                .collect::<Vec<_>>()
        };
    let dev_in = At {
        buf: dev,
        offset: 0,
    };
    let dev_out = At {
        buf: dev,
        offset: d.out_offset,
    };
    let host_in = At {
        buf: r.src,
        offset: offset(&|a| a.src),
    };
    let dims = box_dims(&d.extent_in, &|i| r.axes[i].src, &|i| d.stride_in[i]);
    let complex = kind.input_is_complex();
    let copy = HostCopy::new(complex, stream, cut, p);
    copy.push(prog, (host_in, dev_in), dims, true);
    // Logical lengths along the transform axes, the output's counts along the others.
    let fft_dim = |i: usize| IoDim::new(tile.extent[i] as isize, d.stride_in[i], d.stride_out[i]);
    let problem = Problem {
        kind: kind.clone(),
        dims: whole.iter().map(|&i| fft_dim(i)).collect(),
        loops: d
            .order
            .iter()
            .filter(|i| !whole.contains(i) && tile.extent[**i] > 1)
            .map(|&i| fft_dim(i))
            .collect(),
        precision: p.precision,
        in_place: d.out_offset == 0,
    };
    prog.steps.push(Step::Fft {
        problem,
        input: dev_in,
        output: dev_out,
        stream,
    });
    if let Some(tw) = twiddles {
        let axis = |i: usize| Axis {
            n: tile.extent[i],
            stride: d.stride_out[i],
        };
        prog.steps.push(Step::Twiddle {
            at: dev_out,
            rows: axis(tw.rows),
            cols: axis(tw.cols),
            first_col: tile.start[tw.cols],
            rest: (0..rank)
                .filter(|&i| i != tw.rows && i != tw.cols)
                .map(axis)
                .collect(),
            n: tw.n,
            sign: tw.sign,
            stream,
        });
    }
    let host_out = At {
        buf: r.dst,
        offset: offset(&|a| a.dst),
    };
    // The box with the host's strides first, so that blocks cut it along the host side.
    let dims = box_dims(&d.extent_out, &|i| r.axes[i].dst, &|i| d.stride_out[i]);
    let copy = HostCopy::new(kind.output_is_complex(), stream, cut, p);
    copy.push(prog, (host_out, dev_out), dims, false);
}

/// How a round copies between host and device: complex or real elements, on `stream`, in
/// blocks of at most `most` elements, or whole where `whole_transposes` and the copy transposes.
///
/// From pageable host arrays every transfer goes through a pinned staging block: whole tiles
/// (128 MiB with a 1 GiB budget) left room for two blocks, so each tile's gather waited for the
/// previous tile's DMAs; blocks let the copy threads, the DMAs and the transforms of
/// consecutive tiles overlap (c2c f32 2^30 from `malloc` arrays with a 4 GiB budget: 774 ms,
/// 1571 with whole transposing copies). From pinned arrays a transposing copy's DMA lands in
/// the stream's scratch and a kernel places it, so in blocks each block's DMA waits for the
/// last block's kernel: there it stays whole (the same case from pinned arrays: 467 ms, 500
/// in blocks; H200, `bench/results/2026-11-29-h200-copy-crews.md`).
struct HostCopy {
    complex: bool,
    stream: usize,
    most: usize,
    whole_transposes: bool,
}

impl HostCopy {
    /// Copies of `p`'s scalars cut as `cut` says.
    fn new(complex: bool, stream: usize, cut: Cut, p: &Problem) -> HostCopy {
        let element = p.precision.bytes() * (1 + complex as usize);
        HostCopy {
            complex,
            stream,
            most: (cut.bytes / element).max(1),
            whole_transposes: cut.whole_transposes,
        }
    }

    /// The transfers between the box `dims` at `host` (strides `is`) and at `device` (strides
    /// `os`), into the device or out of it, cut into blocks along the host's outer axes, so
    /// rows stay whole where a block holds one (the DMA rows `dma_row` chose).
    fn push(
        &self,
        prog: &mut Program,
        (host, device): (At, At),
        mut dims: Vec<IoDim>,
        into_device: bool,
    ) {
        let shift = |a: At, by: isize| At {
            buf: a.buf,
            offset: a.offset + by,
        };
        dims.sort_by_key(|d| std::cmp::Reverse(d.is.unsigned_abs()));
        // The host's innermost (non-trivial) axis is not the device's rows.
        let step = 1 + self.complex as isize;
        let transposes = (dims.iter().rev().find(|d| d.n > 1)).is_some_and(|d| d.os != step);
        let most = match self.whole_transposes && transposes {
            true => usize::MAX,
            false => self.most,
        };
        for (host_offset, dev_offset, dims) in super::split(&dims, most) {
            let (h, d) = (shift(host, host_offset), shift(device, dev_offset));
            let (from, to, dims) = match into_device {
                true => (h, d, dims),
                false => (
                    d,
                    h,
                    dims.iter().map(|x| IoDim::new(x.n, x.os, x.is)).collect(),
                ),
            };
            prog.steps.push(Step::Transfer {
                from,
                to,
                dims,
                complex: self.complex,
                stream: self.stream,
            });
        }
    }
}

/// Swaps block `tile` (rows × cols from its start) with its mirror, each transposed, through
/// the two device buffers on stream 0: load both transposed, store each at the other's place.
/// A block on the diagonal is transposed in place through buffer 0.
fn swap_steps(
    prog: &mut Program,
    r: &Round,
    tile: &Tile,
    (rows, cols): (usize, usize),
    bufs: &[BufId],
    p: &Problem,
    cut: Cut,
) {
    let mirror = |t: &Tile| {
        let mut m = t.clone();
        m.start.swap(rows, cols);
        m.extent.swap(rows, cols);
        m
    };
    let at = |t: &Tile, buf: BufId, stride: &dyn Fn(&RoundAxis) -> isize| At {
        buf,
        offset: (0..r.axes.len())
            .map(|i| t.start[i] as isize * stride(&r.axes[i]))
            .sum(),
    };
    let blocks = if tile.start[rows] == tile.start[cols] {
        vec![(tile.clone(), bufs[0])]
    } else {
        vec![(tile.clone(), bufs[0]), (mirror(tile), bufs[1])]
    };
    // Block (i, j) of h rows and w columns lands on the device as w rows of h: (j, i).
    let copy = HostCopy::new(true, 0, cut, p);
    let device = |buf: BufId| At { buf, offset: 0 };
    for (t, buf) in &blocks {
        let (h, w) = (t.extent[rows] as isize, t.extent[cols] as isize);
        let dims = vec![
            IoDim::new(h, r.axes[rows].src, 2),
            IoDim::new(w, r.axes[cols].src, 2 * h),
        ];
        copy.push(prog, (at(t, r.src, &|a| a.src), device(*buf)), dims, true);
    }
    for (t, buf) in &blocks {
        let (h, w) = (t.extent[rows] as isize, t.extent[cols] as isize);
        let dims = vec![
            IoDim::new(w, r.axes[rows].dst, 2 * h),
            IoDim::new(h, r.axes[cols].dst, 2),
        ];
        copy.push(
            prog,
            (at(&mirror(t), r.dst, &|a| a.dst), device(*buf)),
            dims,
            false,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::program_error;
    use super::*;

    /// Tiles copied in blocks compute what whole tiles do: four-step rounds (out of place, and
    /// in place with the transposing round), slabs of a 3-D r2c, interleaved batches; every
    /// host-side block within the block size, and more transfers than with whole tiles. Cut
    /// for pinned arrays, the transposing copies (those of the 1-D four-step) stay whole.
    #[test]
    fn tiles_copied_in_blocks_compute_the_transform() {
        let dft = |dims: Vec<IoDim>, loops: Vec<IoDim>, kind: Kind, in_place: bool| Problem {
            kind,
            dims,
            loops,
            precision: crate::problem::Precision::F64,
            in_place,
        };
        let fwd = Kind::Dft { sign: -1 };
        let cases = [
            (
                dft(vec![IoDim::new(1 << 16, 2, 2)], vec![], fwd.clone(), false),
                64 << 10,
                1 << 17,
            ),
            (
                dft(vec![IoDim::new(1 << 16, 2, 2)], vec![], fwd.clone(), true),
                64 << 10,
                1 << 17,
            ),
            (
                dft(
                    vec![
                        IoDim::new(32, 2048, 2176),
                        IoDim::new(32, 64, 68),
                        IoDim::new(64, 1, 2),
                    ],
                    vec![],
                    Kind::R2c,
                    false,
                ),
                48 << 10,
                2 * 32 * 32 * 33 * 2,
            ),
            (
                dft(
                    vec![IoDim::new(4096, 2 * 24, 2 * 24)],
                    vec![IoDim::new(24, 2, 2)],
                    Kind::Dft { sign: 1 },
                    false,
                ),
                96 << 10,
                2 * 4096 * 24,
            ),
        ];
        let block = 1 << 10;
        let cut = |bytes, whole_transposes| Cut {
            bytes,
            whole_transposes,
        };
        let transfers = |prog: &Program| {
            (prog.steps.iter())
                .filter(|s| matches!(s, Step::Transfer { .. }))
                .count()
        };
        for (p, bytes, len) in cases {
            let budget = Budget { device: 0, bytes };
            let whole = lower_in_blocks(&p, budget, cut(usize::MAX, false)).unwrap();
            let blocks = lower_in_blocks(&p, budget, cut(block, false)).unwrap();
            let pinned = lower_in_blocks(&p, budget, cut(block, true)).unwrap();
            let one_d = p.dims.len() == 1 && p.loops.is_empty();
            assert!(transfers(&blocks) > transfers(&whole));
            // The 1-D four-step's column rounds transpose: from pinned arrays they stay whole.
            assert!(transfers(&pinned) <= transfers(&blocks));
            assert_eq!(one_d, transfers(&pinned) < transfers(&blocks));
            for (prog, pinned) in [(&blocks, false), (&pinned, true)] {
                prog.validate().unwrap();
                for step in &prog.steps {
                    let Step::Transfer {
                        from,
                        to,
                        dims,
                        complex,
                        ..
                    } = step
                    else {
                        continue;
                    };
                    let into_device = from.buf == INPUT || from.buf == OUTPUT;
                    let host = into_device || to.buf == INPUT || to.buf == OUTPUT;
                    let elements: isize = dims.iter().map(|d| d.n).product();
                    let row = dims.last().map_or(1, |d| d.n);
                    let bytes = elements as usize * 8 * (1 + *complex as usize);
                    // Whole from pinned arrays: a copy whose host rows are not the device's.
                    let device_step = |d: &IoDim| if into_device { d.os } else { d.is };
                    let transposes = dims
                        .iter()
                        .rev()
                        .find(|d| d.n > 1)
                        .is_some_and(|d| device_step(d) != 1 + *complex as isize);
                    let whole_ok = pinned && transposes;
                    assert!(
                        bytes <= block || elements == row || !host || whole_ok,
                        "{dims:?}"
                    );
                }
                let err = program_error(&p, prog, len, len);
                assert!(err < 1e-12, "{err:e}: {}", prog.describe());
            }
        }
    }

    #[test]
    fn tiles_avoid_the_slow_dma_rows() {
        // c2c f32: 8-byte elements
        assert_eq!(dma_row(1 << 14, 1365, 8), 1024);
        assert_eq!(dma_row(1 << 15, 2730, 8), 2730);
        assert_eq!(dma_row(1 << 14, 1000, 8), 1000);
        assert_eq!(dma_row(1 << 14, 1 << 20, 8), 1 << 14);
        // a whole axis is one run, whatever its length
        assert_eq!(dma_row(1500, 1500, 8), 1500);
        assert_eq!(dma_row(7, 0, 16), 1);
    }

    #[test]
    fn column_tiles_of_the_budget_cases_have_fast_dma_rows() {
        // Round A of c2c f32 2^28 (1 GiB) and 2^30 (4 GiB): whole columns of the N1 x N2 split,
        // tiles of adjacent columns, each row of a tile one DMA row of 8-byte elements.
        let ax = |n, src| RoundAxis { n, src, dst: src };
        for (m, budget, columns, count) in [
            (1 << 14, 1usize << 30, 1024, 16),
            (1 << 15, 1 << 32, 2730, 13),
        ] {
            let r = Round {
                axes: vec![ax(m, 2 * m as isize), ax(m, 2)],
                work: Work::Transform {
                    kind: Kind::Dft { sign: -1 },
                    axes: vec![0],
                    twiddles: None,
                },
                src: INPUT,
                dst: OUTPUT,
            };
            let t = tiles(&r, budget / (6 * 8), 4);
            assert_eq!(t.len(), count);
            assert_eq!(t[0].extent, vec![m, columns]);
        }
    }

    #[test]
    fn split_factors_are_near_the_square_root_and_fit() {
        assert_eq!(split_factor(1 << 16, 1365), Some(256));
        assert_eq!(split_factor(6720, 100), Some(80)); // 80 · 84
        assert_eq!(split_factor(65537, 1000), None); // prime
        assert_eq!(split_factor(1 << 20, 512), None); // 2^20 > 512²
    }

    /// Every element of a round's box is in exactly one tile, and no tile exceeds the cap.
    #[test]
    fn tiles_cover_the_box_once_within_the_cap() {
        let ax = |n, src| RoundAxis { n, src, dst: src };
        for (axes, transform, cap) in [
            (vec![ax(7, 300), ax(5, 60), ax(12, 1)], vec![2], 40),
            (vec![ax(7, 300), ax(5, 60), ax(12, 1)], vec![0], 9),
            (vec![ax(3, 1), ax(10, 3)], vec![], 4),
            (vec![ax(64, 2)], vec![0], 64),
        ] {
            let r = Round {
                axes: axes.clone(),
                work: Work::Transform {
                    kind: Kind::Dft { sign: -1 },
                    axes: transform,
                    twiddles: None,
                },
                src: INPUT,
                dst: OUTPUT,
            };
            let total: usize = axes.iter().map(|a| a.n).product();
            let mut seen = vec![0u8; total];
            for t in tiles(&r, cap, 8) {
                assert!(t.extent.iter().product::<usize>() <= cap.max(axes[0].n));
                let mut idx = vec![0usize];
                for (i, a) in axes.iter().enumerate() {
                    idx = idx
                        .iter()
                        .flat_map(|&x| {
                            (t.start[i]..t.start[i] + t.extent[i]).map(move |k| x * a.n + k)
                        })
                        .collect();
                }
                idx.iter().for_each(|&i| seen[i] += 1);
            }
            assert!(seen.iter().all(|&s| s == 1), "{axes:?}");
        }
    }

    #[test]
    fn device_buffers_stay_in_the_budget() {
        for (n, bytes) in [
            (1usize << 16, 64usize << 10),
            (4096 * 6, 48 << 10),
            (300, 1 << 20),
        ] {
            let p = Problem {
                kind: Kind::Dft { sign: -1 },
                dims: vec![IoDim::new(n as isize, 2, 2)],
                loops: vec![],
                precision: crate::problem::Precision::F64,
                in_place: false,
            };
            let prog = lower(&p, Budget { device: 0, bytes }, HostArrays::Pageable).unwrap();
            assert!(
                prog.device_scalars(0) * 8 <= bytes / 3,
                "{}",
                prog.describe()
            );
            prog.validate().unwrap();
        }
    }
}
