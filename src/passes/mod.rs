//! Pure functions over problems (and, with FFTX, plan graphs): each unit-tested on its own.

pub mod distribute;
pub mod fmm;
pub mod normalize;
pub mod out_of_card;
pub mod place;
pub mod resident;
pub mod stream;

use crate::problem::IoDim;
use crate::program::box_offsets;
use normalize::merge_loops;

/// The device memory a program may use: `bytes` on device `device`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub device: usize,
    pub bytes: usize,
}

/// The order in which device `dest` takes its parts of an exchange among `count` devices: its
/// own part first, then each next device around the ring, so that at every step each card's
/// link serves one reader. With every destination starting at device 0 (the plain loop) all
/// readers queue on card 0's link, then on card 1's: on 4 H100s an all-to-all of 256 MiB-2 GiB
/// a card by peer-read kernels moved 170-171 GB/s out of each card that way and 298-313 GB/s
/// rotated (NCCL: 276-345);
/// a 1024³ c2c f32 by slabs over 4 cards went from 18.2 to 12.3 ms
/// (`bench/alltoall.cu`, bench/results/2026-11-26-exchange.md).
pub fn exchange_order(dest: usize, count: usize) -> impl Iterator<Item = usize> {
    (0..count).map(move |k| (dest + k) % count)
}

/// The box `dims` (strides `is` from, `os` to) cut into boxes of at most `most` elements (one
/// row of the innermost axis where that alone is more), each merged to its fewest axes
/// (`normalize::merge_loops`: a packed box is one run to copy), with its offsets from the box's
/// start on both sides.
pub(crate) fn split(dims: &[IoDim], most: usize) -> Vec<(isize, isize, Vec<IoDim>)> {
    let mut pieces = cut(dims, most);
    for (_, _, part) in &mut pieces {
        *part = merge_loops(part);
    }
    pieces
}

/// The box `dims` cut in order into boxes of at most `most` elements: the axes inside the cut
/// axis whole, runs of the cut axis, one index of each axis outside it; each with its offsets
/// from the box's start on both sides and its axes (the cut one first).
pub(crate) fn cut(dims: &[IoDim], most: usize) -> Vec<(isize, isize, Vec<IoDim>)> {
    let n = |d: &IoDim| d.n.max(0) as usize;
    let inside = |a: usize| dims[a + 1..].iter().map(n).product::<usize>();
    let Some(at) = (0..dims.len()).find(|&a| inside(a) <= most) else {
        return vec![(0, 0, dims.to_vec())];
    };
    let run = (most / inside(at).max(1)).clamp(1, n(&dims[at]).max(1));
    let outer: usize = dims[..at].iter().map(n).product();
    let d = &dims[at];
    let mut out = Vec::new();
    for o in 0..outer {
        let (from, to) = box_offsets(&dims[..at], o);
        for first in (0..n(d)).step_by(run) {
            let mut part = vec![IoDim::new(run.min(n(d) - first) as isize, d.is, d.os)];
            part.extend_from_slice(&dims[at + 1..]);
            let first = first as isize;
            out.push((from + first * d.is, to + first * d.os, part));
        }
    }
    out
}

/// Test support shared by the passes' tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::exec::cpu::layout::ArrayPtr;
    use crate::exec::cpu::program::CpuProgram;
    use crate::exec::cpu::CpuTransform;
    use crate::problem::Problem;
    use crate::program::Program;
    use rand::{Rng, SeedableRng};

    /// Runs `prog` (a lowering of `p`) on the CPU executor and `p` as one CPU transform on the
    /// same random input (`in_len` f64 scalars; the output array `out_len`); the largest
    /// difference relative to the largest output.
    pub fn program_error(p: &Problem, prog: &Program, in_len: usize, out_len: usize) -> f64 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let x: Vec<f64> = (0..in_len).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let run = |program: bool| {
            let (mut a, mut b) = (x.clone(), vec![0.0; out_len]);
            let at = |v: &mut Vec<f64>, complex: bool| {
                let r = v.as_mut_ptr() as usize;
                match complex {
                    true => ArrayPtr::Complex { re: r, im: r + 8 },
                    false => ArrayPtr::Real(r),
                }
            };
            let i = at(&mut a, p.kind.input_is_complex());
            // In place the output is the input's array, with the output's element kind.
            let o = match p.in_place {
                true => at(&mut a, p.kind.output_is_complex()),
                false => at(&mut b, p.kind.output_is_complex()),
            };
            // SAFETY: the arrays hold what the problem addresses (lengths from the caller).
            unsafe {
                match program {
                    true => CpuProgram::<f64>::new(prog, 1).unwrap().run(i, o).unwrap(),
                    false => CpuTransform::<f64>::new(p, 1).execute(i, o).unwrap(),
                }
            }
            if p.in_place {
                a
            } else {
                b
            }
        };
        let (got, want) = (run(true), run(false));
        let top = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let diff = got.iter().zip(&want).map(|(g, w)| (g - w).abs());
        diff.fold(0.0, f64::max) / top
    }
}

#[cfg(test)]
mod tests {
    use super::exchange_order;

    #[test]
    fn each_step_of_an_exchange_reads_every_device_once() {
        for count in 1..=8 {
            for dest in 0..count {
                let order: Vec<usize> = exchange_order(dest, count).collect();
                assert_eq!(order[0], dest, "own part first");
                let mut sorted = order.clone();
                sorted.sort();
                assert_eq!(sorted, (0..count).collect::<Vec<_>>());
            }
            // At step k the destinations read from distinct sources.
            for k in 0..count {
                let mut sources: Vec<usize> = (0..count)
                    .map(|d| exchange_order(d, count).nth(k).unwrap())
                    .collect();
                sources.sort();
                sources.dedup();
                assert_eq!(sources.len(), count);
            }
        }
    }
}
