//! The resident schedule of a complex DFT whose data fit a device's budget but not twice (the
//! streamed path keeps an input and an output copy, cuFFT a work area as large again): the
//! data cross PCIe once each way, and every pass runs on the card in place.
//!
//! The program copies the input into one device buffer `D` (dense, in the input's logical
//! order) in blocks, transforms each axis in place in tiles (tiles small enough that their
//! cuFFT work areas fit what the data leave of the budget), and copies `D` back in blocks. An
//! axis longer than a tile holds is split four-step style, N = N1·N2 (n = N2·n1 + n2,
//! k = k1 + N1·k2): the n1 pass multiplies by the twiddles exp(sign·2πi·k1·n2/N), the n2 pass
//! follows, and `D` then holds X[k1 + N1·k2] at k1·N2 + k2; each block on the way out is
//! gathered into natural order on the card first (a device copy into one of two small
//! buffers), so the copy to the host stays contiguous.
//!
//! Host transfers: the whole input in, the whole output out, in blocks of `BLOCK_BYTES` that
//! alternate between two streams. On the H100 box's 80 GB card that makes a 64 GiB transform
//! two crossings of PCIe, where the round-by-round schedule of `out_of_card` takes six.

use super::Budget;
use crate::problem::{IoDim, Kind, Problem};
use crate::program::{At, Axis, BufId, Placement, Program, Step, INPUT, OUTPUT};

/// Bytes of one host transfer block (and of each gather buffer).
const BLOCK_BYTES: usize = 256 << 20;

/// One logical axis of the data: its length, its strides (real scalars) in the caller's input
/// and output arrays, and in `D`.
#[derive(Clone, Copy, Debug)]
struct DataAxis {
    n: usize,
    input: isize,
    output: isize,
    dense: isize,
}

/// A pass: transform axis `axis` of the data (in place on `D`), with the four-step twiddles
/// between axes `axis` (k1) and `cols` (n2) of a split length `n` when `twiddle` says so.
#[derive(Clone, Copy, Debug)]
struct Pass {
    axis: usize,
    twiddle: Option<(usize, usize)>,
}

/// The resident program of `p` within `budget`, if `p` is a complex DFT whose data and
/// tiles fit; `None` leaves it to the round-by-round schedule.
pub fn lower(p: &Problem, budget: Budget) -> Option<Program> {
    let Kind::Dft { sign } = p.kind else {
        return None;
    };
    if p.dims.is_empty() || p.dims.iter().chain(&p.loops).any(|d| d.n <= 0) {
        return None;
    }
    let element = 2 * p.precision.bytes();
    let points: usize = p
        .dims
        .iter()
        .chain(&p.loops)
        .map(|d| d.n as usize)
        .product();
    // Blocks of at most a sixteenth of the data, so that the copies in and out pipeline.
    let block = (BLOCK_BYTES / element).min(points / 16).max(1);
    let data = points.checked_mul(element)?;
    // What the data and the two gather buffers leave, shared by the two streams' cuFFT work
    // areas; a tile's work area is taken as at most twice the tile.
    let left = budget.bytes.checked_sub(data + 2 * block * element)?;
    let tile_cap = left / (2 * 2 * element);
    let (axes, passes, n_split) = axes_and_passes(p, tile_cap)?;
    // A block holds at least one index of its outer axis: it may exceed `block`.
    let out_blocks = blocks(&axes, |a| a.output, block);
    let gathers = if n_split.is_some() { 2 } else { 0 };
    let largest =
        out_blocks.1.iter().map(|b| b.1).max().unwrap_or(0) * points / axes[out_blocks.0].n;
    if data + gathers * largest * element + 4 * tile_cap * element > budget.bytes {
        return None;
    }
    let mut prog = Program::new();
    let d = prog.temp(2 * points, Placement::Device(budget.device));
    let gather: Vec<BufId> = (0..gathers)
        .map(|_| prog.temp(2 * largest, Placement::Device(budget.device)))
        .collect();
    let mut event = 0;
    copy_in(&mut prog, &axes, d, block);
    for pass in &passes {
        join(&mut prog, &mut event);
        for (t, (offset, batch)) in tiles(&axes, pass.axis, tile_cap).into_iter().enumerate() {
            tile_steps(
                &mut prog,
                &axes,
                pass,
                (d, offset),
                &batch,
                t % 2,
                p,
                sign,
                n_split,
            );
        }
    }
    join(&mut prog, &mut event);
    copy_out(&mut prog, &axes, d, &gather, out_blocks);
    Some(prog)
}

/// The data's axes (loops and dims, the split one as two), the passes over them, and the
/// length of the split axis if one is split. `None` when a pass's transform does not fit a
/// tile (or two axes would need splitting).
fn axes_and_passes(
    p: &Problem,
    tile_cap: usize,
) -> Option<(Vec<DataAxis>, Vec<Pass>, Option<usize>)> {
    let mut axes = Vec::new();
    let mut passes = Vec::new();
    let mut split = None;
    let nloops = p.loops.len();
    for (i, d) in p.loops.iter().chain(&p.dims).enumerate() {
        let n = d.n as usize;
        let whole = DataAxis {
            n,
            input: d.is,
            output: d.os,
            dense: 0,
        };
        if i < nloops || n <= tile_cap {
            if i >= nloops {
                passes.push(Pass {
                    axis: axes.len(),
                    twiddle: None,
                });
            }
            axes.push(whole);
            continue;
        }
        let n1 = split_factor(n, tile_cap)?;
        let n2 = n / n1;
        if split.replace(n).is_some() {
            return None;
        }
        // n = N2·n1 + n2 on the input side; k = k1 + N1·k2 on the output side (the axes
        // hold (k1, k2) once both passes ran).
        let (rows, cols) = (axes.len(), axes.len() + 1);
        axes.push(DataAxis {
            n: n1,
            input: n2 as isize * d.is,
            output: d.os,
            dense: 0,
        });
        axes.push(DataAxis {
            n: n2,
            input: d.is,
            output: n1 as isize * d.os,
            dense: 0,
        });
        passes.push(Pass {
            axis: rows,
            twiddle: Some((rows, cols)),
        });
        passes.push(Pass {
            axis: cols,
            twiddle: None,
        });
    }
    let mut stride = 2isize;
    for a in axes.iter_mut().rev() {
        a.dense = stride;
        stride *= a.n as isize;
    }
    Some((axes, passes, split))
}

/// N1 of a split of `n`: the divisor nearest √n with N1 and N/N1 both at most `cap`.
fn split_factor(n: usize, cap: usize) -> Option<usize> {
    let root = (n as f64).sqrt();
    (1..=n.isqrt())
        .filter(|d| n.is_multiple_of(*d))
        .flat_map(|d| [d, n / d])
        .filter(|&n1| n1 <= cap && n / n1 <= cap)
        .min_by(|&a, &b| {
            let off = |m: usize| ((m as f64).ln() - root.ln()).abs();
            off(a).total_cmp(&off(b))
        })
}

/// The tiles of a pass over `axis`: that axis whole, the others (smallest dense stride first)
/// whole while the tile fits `cap`, then a block of the next, then single elements. Each tile
/// as (scalar offset in `D`, per axis (start, extent)).
fn tiles(axes: &[DataAxis], axis: usize, cap: usize) -> Vec<(isize, Vec<(usize, usize)>)> {
    let mut extent: Vec<usize> = vec![1; axes.len()];
    extent[axis] = axes[axis].n;
    let mut size = extent[axis];
    let mut others: Vec<usize> = (0..axes.len()).filter(|&i| i != axis).collect();
    others.sort_by_key(|&i| axes[i].dense);
    for &b in &others {
        let take = (cap / size).clamp(1, axes[b].n);
        extent[b] = take;
        size *= take;
        if take < axes[b].n {
            break;
        }
    }
    let mut out = Vec::new();
    let mut start = vec![0usize; axes.len()];
    loop {
        let offset = (0..axes.len())
            .map(|i| start[i] as isize * axes[i].dense)
            .sum();
        let tile = (0..axes.len())
            .map(|i| (start[i], extent[i].min(axes[i].n - start[i])))
            .collect();
        out.push((offset, tile));
        let mut i = axes.len();
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            start[i] += extent[i];
            if start[i] < axes[i].n {
                break;
            }
            start[i] = 0;
        }
    }
}

/// Every stream waits for the other's steps so far (between phases).
fn join(prog: &mut Program, event: &mut usize) {
    for s in 0..2 {
        prog.steps.push(Step::Record {
            event: *event + s,
            stream: s,
        });
    }
    for s in 0..2 {
        prog.steps.push(Step::Wait {
            event: *event + 1 - s,
            stream: s,
        });
    }
    *event += 2;
}

/// The transform (and twiddles) of one tile, in place on `D`.
#[allow(clippy::too_many_arguments)]
fn tile_steps(
    prog: &mut Program,
    axes: &[DataAxis],
    pass: &Pass,
    (d, offset): (BufId, isize),
    tile: &[(usize, usize)],
    stream: usize,
    p: &Problem,
    sign: i32,
    n_split: Option<usize>,
) {
    let at = At { buf: d, offset };
    let dim = |i: usize| IoDim::new(tile[i].1 as isize, axes[i].dense, axes[i].dense);
    let problem = Problem {
        kind: Kind::Dft { sign },
        dims: vec![dim(pass.axis)],
        loops: (0..axes.len())
            .filter(|&i| i != pass.axis && tile[i].1 > 1)
            .map(dim)
            .collect(),
        precision: p.precision,
        in_place: true,
    };
    prog.steps.push(Step::Fft {
        problem,
        input: at,
        output: at,
        stream,
    });
    if let (Some((rows, cols)), Some(n)) = (pass.twiddle, n_split) {
        let axis = |i: usize| Axis {
            n: tile[i].1,
            stride: axes[i].dense,
        };
        prog.steps.push(Step::Twiddle {
            at,
            rows: axis(rows),
            cols: axis(cols),
            first_col: tile[cols].0,
            rest: (0..axes.len())
                .filter(|&i| i != rows && i != cols)
                .map(axis)
                .collect(),
            n,
            sign,
            stream,
        });
    }
}

/// Blocks of the data along the axis of largest stride in `key` (the others whole): per block
/// the start and extent along that axis, at most about `block` elements each.
fn blocks(
    axes: &[DataAxis],
    key: impl Fn(&DataAxis) -> isize,
    block: usize,
) -> (usize, Vec<(usize, usize)>) {
    let outer = (0..axes.len())
        .max_by_key(|&i| key(&axes[i]).unsigned_abs())
        .expect("at least one axis");
    let inner: usize = axes.iter().map(|a| a.n).product::<usize>() / axes[outer].n;
    let step = (block / inner.max(1)).clamp(1, axes[outer].n);
    let parts = (0..axes[outer].n)
        .step_by(step)
        .map(|s| (s, step.min(axes[outer].n - s)))
        .collect();
    (outer, parts)
}

/// The box of `axes` with `outer` cut to `part`, as transfer dims from `from` strides to `to`.
fn part_dims(
    axes: &[DataAxis],
    (outer, part): (usize, (usize, usize)),
    from: impl Fn(&DataAxis) -> isize,
    to: impl Fn(&DataAxis) -> isize,
) -> Vec<IoDim> {
    (0..axes.len())
        .map(|i| {
            let n = if i == outer { part.1 } else { axes[i].n };
            IoDim::new(n as isize, from(&axes[i]), to(&axes[i]))
        })
        .collect()
}

/// The input into `D`, block by block, alternating streams.
fn copy_in(prog: &mut Program, axes: &[DataAxis], d: BufId, block: usize) {
    let (outer, parts) = blocks(axes, |a| a.dense, block);
    for (b, &part) in parts.iter().enumerate() {
        let s = part.0 as isize;
        prog.steps.push(Step::Transfer {
            from: At {
                buf: INPUT,
                offset: s * axes[outer].input,
            },
            to: At {
                buf: d,
                offset: s * axes[outer].dense,
            },
            dims: part_dims(axes, (outer, part), |a| a.input, |a| a.dense),
            complex: true,
            stream: b % 2,
        });
    }
}

/// `D` into the output, block by block in the output's order, alternating streams. With
/// `gather` buffers (after a split) each block is gathered into output order in one first.
fn copy_out(
    prog: &mut Program,
    axes: &[DataAxis],
    d: BufId,
    gather: &[BufId],
    (outer, parts): (usize, Vec<(usize, usize)>),
) {
    // Dense strides of a block in output order (the order of the output's strides).
    let mut order: Vec<usize> = (0..axes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(axes[i].output.unsigned_abs()));
    for (b, &part) in parts.iter().enumerate() {
        let stream = b % 2;
        let s = part.0 as isize;
        let from = At {
            buf: d,
            offset: s * axes[outer].dense,
        };
        let to = At {
            buf: OUTPUT,
            offset: s * axes[outer].output,
        };
        if gather.is_empty() {
            prog.steps.push(Step::Transfer {
                from,
                to,
                dims: part_dims(axes, (outer, part), |a| a.dense, |a| a.output),
                complex: true,
                stream,
            });
            continue;
        }
        let mut packed = vec![0isize; axes.len()];
        let mut stride = 2isize;
        for &i in order.iter().rev() {
            packed[i] = stride;
            stride *= if i == outer { part.1 } else { axes[i].n } as isize;
        }
        let g = At {
            buf: gather[stream],
            offset: 0,
        };
        let dims = |from: &dyn Fn(usize) -> isize, to: &dyn Fn(usize) -> isize| {
            order
                .iter()
                .map(|&i| {
                    let n = if i == outer { part.1 } else { axes[i].n };
                    IoDim::new(n as isize, from(i), to(i))
                })
                .collect::<Vec<_>>()
        };
        prog.steps.push(Step::Transfer {
            from,
            to: g,
            dims: dims(&|i| axes[i].dense, &|i| packed[i]),
            complex: true,
            stream,
        });
        prog.steps.push(Step::Transfer {
            from: g,
            to,
            dims: dims(&|i| packed[i], &|i| axes[i].output),
            complex: true,
            stream,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Precision;

    fn c2c(ns: &[isize], precision: Precision) -> Problem {
        Problem::packed(ns, Kind::Dft { sign: -1 }, precision)
    }

    #[test]
    fn data_that_fit_once_are_resident_and_cross_once_each_way() {
        // 2^16 f64 points (1 MiB) in 1.25 MiB: the data fit, whole transforms do not.
        let p = c2c(&[1 << 16], Precision::F64);
        let prog = lower(
            &p,
            Budget {
                device: 0,
                bytes: 5 << 18,
            },
        )
        .expect("resident");
        prog.validate().unwrap();
        let moved: usize = prog
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Transfer { from, to, dims, .. } if from.buf == INPUT || to.buf == OUTPUT => {
                    Some(dims.iter().map(|d| d.n as usize).product::<usize>())
                }
                _ => None,
            })
            .sum();
        assert_eq!(moved, 2 << 16, "every point in once and out once");
        let twiddles = prog
            .steps
            .iter()
            .filter(|s| matches!(s, Step::Twiddle { .. }))
            .count();
        assert!(twiddles > 0, "split four-step style:\n{}", prog.describe());
        assert!(prog.device_scalars(0) * 8 <= 5 << 18);
    }

    #[test]
    fn data_larger_than_the_budget_are_left_to_rounds() {
        let p = c2c(&[1 << 16], Precision::F64);
        assert!(lower(
            &p,
            Budget {
                device: 0,
                bytes: 1 << 20
            }
        )
        .is_none());
        let r2c = Problem::packed(&[64, 64], Kind::R2c, Precision::F32);
        assert!(lower(
            &r2c,
            Budget {
                device: 0,
                bytes: 1 << 30
            }
        )
        .is_none());
    }

    #[test]
    fn split_factors_are_near_the_square_root_and_fit() {
        assert_eq!(split_factor(1 << 32, 1 << 20), Some(1 << 16));
        assert_eq!(split_factor(6720, 100), Some(80));
        assert_eq!(split_factor(65537, 1000), None);
    }
}
