//! Streaming lowering: a transform of host arrays that fits the device becomes a Program that
//! moves it through device buffers a tile of whole transforms at a time, so that copies in,
//! transforms and copies out of different tiles overlap.
//!
//! Tiles cut the transforms' loops in their order (the innermost loops whole, a range of one
//! loop, one index of each loop outside it), about [`TILE_BYTES`] of data each (one transform
//! where a transform is larger). A tile's transfers are cut into blocks of at most
//! [`BLOCK_BYTES`] that alternate between two streams each way, so one block's host copy
//! overlaps the other's DMA. Tiles alternate between two pairs of device buffers (input and
//! output, packed: loops outside the transform's axes, row-major):
//!
//! - streams 1 and 2 copy tile c in, once the transform of tile c-2 has read its buffer;
//! - stream 0 transforms tile c once it is in and tile c-2's output is out;
//! - streams 3 and 4 copy tile c out once it is transformed.
//!
//! The steps are listed as tile c in, tile c's transform, tile c-1 out, so the CPU executor,
//! which runs them in order, and the CUDA executor, which issues them in order, both see a
//! valid sequence. An in-place transform reads tile c+1 before writing tile c back: the
//! transforms own disjoint locations (`transform::supports`).
//!
//! The lowered program's tiles ([`TileOut`]) say which transforms are complete in the output once a tile's copies
//! out have landed, so a failed run in place can be finished on the CPU from the first tile
//! not written.

use super::{cut, split, Budget};
use crate::error::{Error, Result};
use crate::problem::{IoDim, Problem};
use crate::program::{At, BufId, Lowered, Placement, Program, Step, TileOut, INPUT, OUTPUT};

/// Bytes of a tile's larger side (the unit of overlap for batched problems).
pub const TILE_BYTES: usize = 16 << 20;
/// Bytes of one transfer step (a block of a tile's copy in or out).
pub const BLOCK_BYTES: usize = 8 << 20;

/// The streams: transforms, copies in (two), copies out (two).
const COMPUTE: usize = 0;
const IN: [usize; 2] = [1, 2];
const OUT: [usize; 2] = [3, 4];

/// One tile: the offsets of its first element in the caller's arrays (real scalars), and the
/// lengths of its loop axes (the cut loop, then the loops inside it).
struct Tile {
    input: isize,
    output: isize,
    loops: Vec<usize>,
}

/// Lowers `p` (its arrays the caller's host arrays) to a streamed program on device
/// `budget.device`; `Err` when its buffers exceed `budget.bytes`.
pub fn lower(p: &Problem, budget: Budget) -> Result<Lowered> {
    if p.dims.is_empty() || p.howmany() == 0 {
        return Err(Error::unsupported("nothing to stream: no transform"));
    }
    let unit = p.precision.bytes();
    let (ci, co) = (p.kind.input_is_complex(), p.kind.output_is_complex());
    let elems = |shape: &[isize]| shape.iter().map(|&n| n as usize).product::<usize>();
    let (in_shape, out_shape) = (p.input_shape(), p.output_shape());
    let (cut, tiles) = tiles(p, transforms_per_tile(p));
    let largest: usize = tiles
        .iter()
        .map(|t| t.loops.iter().product())
        .max()
        .unwrap_or(1);
    let scalars_in = largest * elems(&in_shape) * (1 + ci as usize);
    let scalars_out = largest * elems(&out_shape) * (1 + co as usize);
    let need = 2 * (scalars_in + scalars_out) * unit;
    if need > budget.bytes {
        return Err(Error::new(
            crate::error::ErrorKind::OutOfDeviceMemory,
            format!(
                "streaming needs {need} device bytes, over the {} a plan may use",
                budget.bytes
            ),
        ));
    }
    let mut prog = Program::new();
    let device = Placement::Device(budget.device);
    let din = [0, 1].map(|_| prog.temp(scalars_in, device));
    let dout = [0, 1].map(|_| prog.temp(scalars_out, device));
    let mut s = Schedule {
        prog,
        p,
        cut,
        block: (BLOCK_BYTES / unit).max(2),
        din,
        dout,
        in_used: [[false; 2]; 2],
        out_used: [[false; 2]; 2],
        out_steps: Vec::new(),
    };
    for c in 0..tiles.len() {
        s.copy_in(c, &tiles[c]);
        s.transform(c, &tiles[c]);
        if c > 0 {
            s.copy_out(c - 1, &tiles[c - 1]);
        }
    }
    s.copy_out(tiles.len() - 1, &tiles[tiles.len() - 1]);
    let mut done = 0;
    let tiles = tiles
        .iter()
        .zip(s.out_steps)
        .map(|(t, steps)| {
            done += t.loops.iter().product::<usize>();
            TileOut { steps, done }
        })
        .collect();
    Ok(Lowered {
        program: s.prog,
        tiles,
    })
}

/// Whole transforms a tile holds: about [`TILE_BYTES`] of the larger side, at least one.
fn transforms_per_tile(p: &Problem) -> usize {
    let elems = |shape: Vec<isize>, complex: bool| {
        shape.iter().map(|&n| n as usize).product::<usize>() * (1 + complex as usize)
    };
    let per_transform = elems(p.input_shape(), p.kind.input_is_complex())
        .max(elems(p.output_shape(), p.kind.output_is_complex()))
        * p.precision.bytes();
    (TILE_BYTES / per_transform.max(1)).max(1)
}

/// The tiles [`lower`] moves `p` in (1 for one transform, or none).
pub fn tile_count(p: &Problem) -> usize {
    if p.dims.is_empty() || p.howmany() == 0 {
        return 1;
    }
    tiles(p, transforms_per_tile(p)).1.len()
}

/// The tiles of `p` for `per_tile` transforms each, in loop order (the loops' box [`cut`]),
/// and the index of the loop they cut (the loops inside it are whole; 0 without loops).
fn tiles(p: &Problem, per_tile: usize) -> (usize, Vec<Tile>) {
    let pieces = cut(&p.loops, per_tile);
    let first = p.loops.len() - pieces[0].2.len();
    let tiles = pieces
        .into_iter()
        .map(|(input, output, loops)| Tile {
            input,
            output,
            loops: loops.iter().map(|l| l.n as usize).collect(),
        })
        .collect();
    (first, tiles)
}

/// The program being listed, and which streams each slot's last copies used (their events
/// exist only then).
struct Schedule<'a> {
    prog: Program,
    p: &'a Problem,
    cut: usize,
    /// Real scalars of a block.
    block: usize,
    din: [BufId; 2],
    dout: [BufId; 2],
    /// Per slot, per stream of the pair: did the slot's last copy in (out) use it?
    in_used: [[bool; 2]; 2],
    out_used: [[bool; 2]; 2],
    out_steps: Vec<Vec<usize>>,
}

/// Event ids: per slot, the transform done, each copy-in stream done, each copy-out stream
/// done.
fn computed(slot: usize) -> usize {
    slot
}
fn copied_in(slot: usize, k: usize) -> usize {
    2 + 2 * slot + k
}
fn copied_out(slot: usize, k: usize) -> usize {
    6 + 2 * slot + k
}

impl Schedule<'_> {
    /// The box of tile `t`'s data on one side: its loop axes then the transform's, with the
    /// caller's strides and the packed device strides.
    fn side(&self, t: &Tile, input: bool) -> (Vec<IoDim>, bool) {
        let p = self.p;
        let complex = if input {
            p.kind.input_is_complex()
        } else {
            p.kind.output_is_complex()
        };
        let shape = if input {
            p.input_shape()
        } else {
            p.output_shape()
        };
        let caller = |d: &IoDim| if input { d.is } else { d.os };
        let axes: Vec<(usize, isize)> = t
            .loops
            .iter()
            .zip(&p.loops[self.cut.min(p.loops.len())..])
            .map(|(&n, l)| (n, caller(l)))
            .chain(
                shape
                    .iter()
                    .zip(&p.dims)
                    .map(|(&n, d)| (n as usize, caller(d))),
            )
            .collect();
        let mut packed = 1 + complex as isize;
        let mut dims = vec![IoDim::new(0, 0, 0); axes.len()];
        for (k, &(n, stride)) in axes.iter().enumerate().rev() {
            dims[k] = IoDim::new(n as isize, stride, packed);
            packed *= n as isize;
        }
        (dims, complex)
    }

    fn copy_in(&mut self, c: usize, t: &Tile) {
        self.copies(c, t, true);
    }

    fn copy_out(&mut self, c: usize, t: &Tile) {
        let steps = self.copies(c, t, false);
        self.out_steps.push(steps);
    }

    /// Tile `t`'s (tile `c`'s) copies in or out, in blocks alternating between the two streams
    /// of their way, after the waits that free their buffer; the indices of the copy steps.
    fn copies(&mut self, c: usize, t: &Tile, into_device: bool) -> Vec<usize> {
        let slot = c % 2;
        let (dims, complex) = self.side(t, into_device);
        // Device to host: the box's strides the other way round.
        let dims: Vec<IoDim> = match into_device {
            true => dims,
            false => dims.iter().map(|d| IoDim::new(d.n, d.os, d.is)).collect(),
        };
        let blocks = split(&dims, self.block / (1 + complex as usize));
        let used = [0, 1].map(|k| blocks.len() > k);
        let (streams, done) = match into_device {
            true => (IN, copied_in as fn(usize, usize) -> usize),
            false => (OUT, copied_out as fn(usize, usize) -> usize),
        };
        // A copy in overwrites the slot's input once tile c-2's transform has read it; a copy
        // out reads the output once this tile's transform has written it.
        if !into_device || c >= 2 {
            for k in (0..2).filter(|&k| used[k]) {
                self.wait(computed(slot), streams[k]);
            }
        }
        let mut steps = Vec::new();
        for (b, (from_offset, to_offset, dims)) in blocks.into_iter().enumerate() {
            let at = |buf, offset| At { buf, offset };
            let (from, to) = match into_device {
                true => (
                    at(INPUT, t.input + from_offset),
                    at(self.din[slot], to_offset),
                ),
                false => (
                    at(self.dout[slot], from_offset),
                    at(OUTPUT, t.output + to_offset),
                ),
            };
            steps.push(self.prog.steps.len());
            self.prog.steps.push(Step::Transfer {
                from,
                to,
                dims,
                complex,
                stream: streams[b % 2],
            });
        }
        for k in (0..2).filter(|&k| used[k]) {
            self.record(done(slot, k), streams[k]);
        }
        match into_device {
            true => self.in_used[slot] = used,
            false => self.out_used[slot] = used,
        }
        steps
    }

    fn transform(&mut self, c: usize, t: &Tile) {
        let slot = c % 2;
        let (in_used, out_used) = (self.in_used[slot], self.out_used[slot]);
        for k in (0..2).filter(|&k| in_used[k]) {
            self.wait(copied_in(slot, k), COMPUTE);
        }
        if c >= 2 {
            for k in (0..2).filter(|&k| out_used[k]) {
                self.wait(copied_out(slot, k), COMPUTE);
            }
        }
        let (ins, _) = self.side(t, true);
        let (outs, _) = self.side(t, false);
        let rank = self.p.dims.len();
        let device = |k: usize| IoDim::new(ins[k].n, ins[k].os, outs[k].os);
        let loops = ins.len() - rank;
        let problem = Problem {
            kind: self.p.kind.clone(),
            dims: (loops..ins.len())
                .zip(&self.p.dims)
                .map(|(k, d)| IoDim {
                    n: d.n,
                    ..device(k)
                })
                .collect(),
            loops: (0..loops).map(device).collect(),
            precision: self.p.precision,
            in_place: false,
        };
        self.prog.steps.push(Step::Fft {
            problem,
            input: At {
                buf: self.din[slot],
                offset: 0,
            },
            output: At {
                buf: self.dout[slot],
                offset: 0,
            },
            stream: COMPUTE,
        });
        self.record(computed(slot), COMPUTE);
    }

    fn wait(&mut self, event: usize, stream: usize) {
        self.prog.steps.push(Step::Wait { event, stream });
    }
    fn record(&mut self, event: usize, stream: usize) {
        self.prog.steps.push(Step::Record { event, stream });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::program_error;
    use super::*;
    use crate::problem::{Kind, Precision, R2rKind};

    const BUDGET: Budget = Budget {
        device: 0,
        bytes: 1 << 40,
    };

    /// Runs `p` as its streamed program and as one CPU transform on the same random input;
    /// returns the largest difference relative to the largest output.
    fn compare(p: &Problem, in_len: usize, out_len: usize) -> f64 {
        let s = lower(p, BUDGET).unwrap();
        s.program.validate().unwrap();
        program_error(p, &s.program, in_len, out_len)
    }

    fn problem(
        kind: Kind,
        dims: &[(isize, isize, isize)],
        loops: &[(isize, isize, isize)],
    ) -> Problem {
        let io =
            |v: &[(isize, isize, isize)]| v.iter().map(|&(n, i, o)| IoDim::new(n, i, o)).collect();
        Problem {
            kind,
            dims: io(dims),
            loops: io(loops),
            precision: Precision::F64,
            in_place: false,
        }
    }

    /// Every kind, batched and strided, one or many tiles, in and out of place, runs on the
    /// CPU executor as the direct transform computes it.
    #[test]
    fn streamed_programs_compute_the_transform() {
        let c2c = Kind::Dft { sign: -1 };
        // 300 transforms of 64 x 48 complex: 48 KiB each, 342 a tile, so one tile.
        let cases: Vec<(Problem, usize, usize)> = vec![
            (
                problem(
                    c2c.clone(),
                    &[(64, 96, 96), (48, 2, 2)],
                    &[(300, 6144, 6144)],
                ),
                300 * 6144,
                300 * 6144,
            ),
            // A transform larger than a tile: one a tile, blocks of it alternating streams.
            (
                problem(c2c.clone(), &[(1 << 21, 2, 2)], &[(2, 1 << 22, 1 << 22)]),
                1 << 23,
                1 << 23,
            ),
            // Interleaved batches (the loop innermost in memory), two loops.
            // 4 MiB each: 4 a tile, so the inner loop is cut (6 tiles).
            (
                problem(
                    Kind::Dft { sign: 1 },
                    &[(1 << 18, 2 * 3 * 5, 2 * 3 * 5)],
                    &[(3, 2 * 5, 2 * 5), (5, 2, 2)],
                ),
                30 << 18,
                30 << 18,
            ),
            // r2c and c2r batches over several tiles.
            (
                problem(
                    Kind::R2c,
                    &[(1 << 16, 1, 2)],
                    &[(70, 1 << 16, 2 * ((1 << 15) + 1))],
                ),
                70 << 16,
                70 * 2 * ((1 << 15) + 1),
            ),
            (
                problem(
                    Kind::C2r,
                    &[(256, 2 * 129, 256), (256, 2, 1)],
                    &[(40, 2 * 256 * 129, 65536)],
                ),
                40 * 2 * 256 * 129,
                40 * 65536,
            ),
            (
                problem(
                    Kind::R2r(vec![R2rKind::Redft10, R2rKind::Rodft11]),
                    &[(300, 400, 400), (400, 1, 1)],
                    &[(30, 120000, 120000)],
                ),
                30 * 120000,
                30 * 120000,
            ),
        ];
        for (p, i, o) in &cases {
            let tiles = lower(p, BUDGET).unwrap().tiles;
            let e = compare(p, *i, *o);
            assert!(
                e < 1e-12,
                "{}: {} tiles, error {e:e}",
                p.describe(),
                tiles.len()
            );
        }
        // In place: c2c with many tiles, r2c with the padded rows.
        let mut p = cases[3].0.clone();
        p.dims = vec![IoDim::new(1 << 16, 1, 2)];
        p.loops = vec![IoDim::new(70, 2 * ((1 << 15) + 1), 2 * ((1 << 15) + 1))];
        p.in_place = true;
        let len = 70 * 2 * ((1 << 15) + 1);
        assert!(compare(&p, len, len) < 1e-12);
        let mut p = problem(c2c, &[(4096, 2, 2)], &[(1000, 8192, 8192)]);
        p.in_place = true;
        assert!(lower(&p, BUDGET).unwrap().tiles.len() > 2);
        assert!(compare(&p, 1000 * 8192, 1000 * 8192) < 1e-12);
        // In place with interleaved batches (which the GPU now takes): each tile's elements
        // are its own, though tiles interleave in memory.
        let mut p = cases[2].0.clone();
        p.in_place = true;
        assert!(p.elements_stay_in_place() && !p.batches_independent_in_place());
        assert!(compare(&p, 30 << 18, 30 << 18) < 1e-12);
    }

    /// Tiles cut the loops in order, whole inner loops; their `done` counts grow to every
    /// transform; blocks stay within `BLOCK_BYTES` and cover the tile.
    #[test]
    fn tiles_and_blocks() {
        let c2c = Kind::Dft { sign: -1 };
        // 7 x 300 transforms of 4096 complex f64 (64 KiB): 256 a tile, so the inner loop is
        // cut in runs of 256 (two tiles per outer index).
        let p = problem(
            c2c.clone(),
            &[(4096, 2, 2)],
            &[(7, 2 * 4096 * 300, 2 * 4096 * 300), (300, 8192, 8192)],
        );
        let (cut, t) = tiles(&p, 256);
        assert_eq!((cut, t.len()), (1, 14));
        assert_eq!(t[1].loops, vec![44]);
        assert_eq!(t[2].input, 2 * 4096 * 300);
        let s = lower(&p, BUDGET).unwrap();
        let done: Vec<usize> = s.tiles.iter().map(|t| t.done).collect();
        assert_eq!(done[..3], [256, 300, 556]);
        assert_eq!(*done.last().unwrap(), 2100);
        for tile in &s.tiles {
            for &k in &tile.steps {
                let Step::Transfer { to, dims, .. } = &s.program.steps[k] else {
                    panic!("a transfer")
                };
                assert_eq!(to.buf, OUTPUT);
                let elems: isize = dims.iter().map(|d| d.n).product();
                assert!(elems as usize * 16 <= BLOCK_BYTES);
            }
        }
        // A packed box is one run; strided axes stay apart.
        let packed = [IoDim::new(8, 2 * 512, 2 * 512), IoDim::new(512, 2, 2)];
        assert_eq!(split(&packed, 1024)[1].2, vec![IoDim::new(1024, 2, 2)]);
        let padded = [IoDim::new(4, 2 * 130, 2 * 128), IoDim::new(128, 2, 2)];
        assert_eq!(split(&padded, 1024)[0].2, padded.to_vec());
        // Blocks: a box cut on its outer axis, offsets on both sides.
        let b = split(&[IoDim::new(10, 100, 7), IoDim::new(6, 1, 1)], 25);
        assert_eq!(b.len(), 3);
        assert_eq!((b[1].0, b[1].1, b[1].2[0].n), (400, 28, 4));
        assert_eq!(b[2].2[0].n, 2);
        // A row longer than a block is cut along it.
        let b = split(&[IoDim::new(3, 1000, 1000), IoDim::new(100, 2, 2)], 40);
        assert_eq!(b.len(), 9);
        assert_eq!((b[4].0, b[4].2[0].n), (1000 + 80, 40));
        // The budget is a hard limit.
        assert!(lower(
            &p,
            Budget {
                device: 0,
                bytes: 1 << 20
            }
        )
        .is_err());
    }
}
