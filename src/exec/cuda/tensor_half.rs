//! Half-storage c2c transforms on the tensor cores (issue 17, the seed's radix-16 products):
//! batched 1-D transforms of N = 256 R points whose points are consecutive in both arrays, as
//! `mma.sync.m16n8k16` products of binary16 operands with f32 accumulation, by decimation in
//! frequency. The kernel is `tensor_half.cu` (its header says the algorithm); its CPU twin,
//! which makes the same roundings, and the lengths it takes are `exec::cpu::tensor_half`'s.
//!
//! Used for the R where it measured faster than our f32 pass kernels on an H100 ([`ENABLED`]:
//! through `fftxh_execute`, 2^24 points, 1024 0.0587 ms against 0.0647 and 4096 0.0634 against
//! 0.0695; 512, 768 and 2048 ran 2-9% slower than the pass kernel, 3072 tied (the probe),
//! `bench/results/2026-12-06-h100-tensor-half.md`), on devices of compute capability 8.0 or
//! later, for arrays 16-byte aligned (others take the pass kernels).

use super::kernels::{compile_generated, generated_function, Generated};
use super::{Device, Error, ErrorKind, Result};
use crate::exec::cpu::tensor_half::radix_of;
use crate::problem::{Kind, Problem};
use std::fmt::Write;

const SOURCE: &str = include_str!("tensor_half.cu");

/// The R (of N = 256 R) the planner gives the kernel: those where it measured faster.
pub const ENABLED: &[usize] = &[4, 16];

/// Warps a block and the blocks an SM the kernel's launch bounds ask room for, every R: 2
/// blocks of 8 warps an SM (H100, `bench/tc_probe.cu`: the fastest of 2-6 shapes tried each
/// length; fewer registers than 128 a thread spilled or lost).
const WARPS: usize = 8;
const MIN_BLOCKS: usize = 2;
/// Words between a transform's sub-transform regions in shared memory (`FXT_DSUB` of
/// `tensor_half.cu`).
const REGION_WORDS: usize = 324;

/// How the kernel runs for one length: R and the transforms a block takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub r: usize,
    pub per_block: usize,
}

impl Shape {
    fn of(r: usize) -> Shape {
        // About 4096 points a block: the largest power of two of transforms within them
        // (whole 16-byte vectors a thread).
        Shape {
            r,
            per_block: 1 << (16 / r).max(1).ilog2(),
        }
    }

    /// Dynamic shared memory a block (bytes): R regions a transform.
    pub fn shared_bytes(&self) -> usize {
        4 * self.per_block * self.r * REGION_WORDS
    }
}

/// R when `p` is a 1-D c2c of 256 R points, R in [`ENABLED`]: a length the kernel is used for.
pub fn enabled_radix(p: &Problem) -> Option<usize> {
    if !matches!(p.kind, Kind::Dft { .. }) || p.dims.len() != 1 {
        return None;
    }
    radix_of(p.dims[0].n as usize).filter(|r| ENABLED.contains(r))
}

/// The kernel's shape for `p`, or why it does not take it: a length it is used for
/// ([`enabled_radix`]) whose points are consecutive on both sides, the same loops on both
/// sides (an in-place transform then reads each transform whole before it writes it), their
/// strides multiples of 4 points (16-byte loads; the arrays themselves are checked at execute).
pub fn shape(p: &Problem) -> std::result::Result<Shape, String> {
    let r = enabled_radix(p)
        .ok_or_else(|| format!("not a 1-D c2c of 256 R points, R in {ENABLED:?}"))?;
    let d = p.dims[0];
    if d.is != 2 || d.os != 2 {
        return Err("points not consecutive".into());
    }
    if p.loops.iter().any(|l| l.is != l.os) {
        return Err("loops differ between the sides".into());
    }
    if p.loops.iter().any(|l| l.is % 8 != 0) {
        return Err("transforms not 16 bytes apart".into());
    }
    Ok(Shape::of(r))
}

/// The kernel `fxh_tc(batch, P)` for `p` (P = {input, output} device addresses): the template
/// instantiated with the problem's sign and its loops' layout.
pub fn source(p: &Problem, s: Shape) -> String {
    let sign = match p.kind {
        Kind::Dft { sign } => sign,
        _ => unreachable!("shape() took a c2c"),
    };
    // The word offset of transform t: its digits in the loops' lengths (innermost first).
    let mut pos = String::from("long long pos = 0; fxt_u64 r = t;");
    let loops: Vec<_> = p.loops.iter().rev().collect();
    for (k, l) in loops.iter().enumerate() {
        let words = l.is / 2;
        if k + 1 == loops.len() {
            let _ = write!(pos, " pos += (long long)r * {words}LL;");
        } else {
            let _ = write!(
                pos,
                " pos += (long long)(r % {n}ULL) * {words}LL; r /= {n}ULL;",
                n = l.n
            );
        }
    }
    let mut src = String::from(SOURCE);
    let _ = writeln!(
        src,
        "struct FxtLay {{ static __device__ __forceinline__ long long in(fxt_u64 t) {{ {pos} return pos; }} \
         static __device__ __forceinline__ long long out(fxt_u64 t) {{ return in(t); }} }};"
    );
    let body = format!(
        "fxt_kernel<{}, {sign}, {}, {WARPS}, FxtLay>(batch, P);",
        s.r, s.per_block
    );
    let _ = writeln!(
        src,
        "extern \"C\" __global__ void __launch_bounds__({}, {MIN_BLOCKS}) fxh_tc(fxt_u64 batch, const fxt_u64* P) {{ {body} }}",
        32 * WARPS
    );
    src
}

/// The built kernel: function, grid (blocks; the kernel strides over the batch), threads and
/// dynamic shared memory a block.
pub struct Kernel {
    pub function: usize,
    pub grid: u32,
    pub threads: u32,
    pub shared: u32,
}

/// Compiles the kernel for `p` on `device` (compute capability 8.0 or later).
pub fn build(device: &Device, p: &Problem, s: Shape) -> Result<Kernel> {
    if device.capability.0 < 8 {
        return Err(Error::unsupported(format!(
            "compute capability {}.{} (mma.sync m16n8k16 needs 8.0)",
            device.capability.0, device.capability.1
        )));
    }
    let m = match compile_generated(device, &source(p, s), false)? {
        Generated::Module(m) => m,
        Generated::Lto(_) => return Err(Error::new(ErrorKind::Internal, "NVRTC gave LTO-IR")),
    };
    let f = generated_function(m, "fxh_tc")?;
    let shared = s.shared_bytes();
    if shared > device.shared_optin {
        return Err(Error::unsupported(format!(
            "{shared} bytes of shared memory"
        )));
    }
    if shared > 48 << 10 {
        // SAFETY: a function of a loaded module, within the device's opt-in limit.
        unsafe { super::kernels::allow_dynamic_shared(f, shared)? };
    }
    let batch: u64 = p.loops.iter().map(|l| l.n as u64).product();
    let groups = batch.div_ceil(s.per_block as u64);
    // One wave: a grid of 4 waves measured 4-10% slower (H100).
    let resident = device.multiprocessors.max(1) as u64 * MIN_BLOCKS as u64;
    Ok(Kernel {
        function: f as usize,
        grid: groups.min(resident).max(1) as u32,
        threads: 32 * WARPS as u32,
        shared: shared as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{IoDim, Precision};

    fn c2c(dims: IoDim, loops: Vec<IoDim>) -> Problem {
        Problem {
            kind: Kind::Dft { sign: -1 },
            dims: vec![dims],
            loops,
            precision: Precision::F32,
            in_place: false,
        }
    }

    #[test]
    fn takes_consecutive_points_of_enabled_lengths() {
        let ok = c2c(IoDim::new(1024, 2, 2), vec![IoDim::new(10, 2400, 2400)]);
        assert_eq!(shape(&ok).map(|s| (s.r, s.per_block)), Ok((4, 4)));
        let strided = c2c(IoDim::new(1024, 4, 2), vec![IoDim::new(10, 4800, 2400)]);
        assert!(shape(&strided).is_err());
        let other_loops = c2c(IoDim::new(1024, 2, 2), vec![IoDim::new(10, 2400, 2048)]);
        assert!(shape(&other_loops).is_err());
        let unaligned = c2c(IoDim::new(1024, 2, 2), vec![IoDim::new(10, 2054, 2054)]);
        assert!(shape(&unaligned).is_err());
        for n in [256, 512, 768, 1000, 1280, 2048, 3072, 8192] {
            assert!(shape(&c2c(IoDim::new(n, 2, 2), vec![])).is_err(), "{n}");
        }
        for (r, per_block) in [(2, 8), (3, 4), (4, 4), (8, 2), (12, 1), (16, 1)] {
            assert_eq!(Shape::of(r).per_block, per_block);
        }
    }

    #[test]
    fn the_layout_is_the_loops_digits() {
        let p = c2c(
            IoDim::new(1024, 2, 2),
            vec![IoDim::new(3, 12000, 12000), IoDim::new(5, 2048, 2048)],
        );
        let s = source(&p, shape(&p).unwrap());
        assert!(
            s.contains(
                "pos += (long long)(r % 5ULL) * 1024LL; r /= 5ULL; pos += (long long)r * 6000LL;"
            ),
            "{}",
            &s[s.len() - 600..]
        );
        assert!(s.contains("fxt_kernel<4, -1, 4, 8, FxtLay>"));
    }
}
