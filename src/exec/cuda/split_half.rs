//! Issue 17's split-half FFT on tensor cores: batched 1-D c2c f32 of N = 16^K points (K =
//! 1..6) as K radix-16 Stockham stages, each one launch of a generated kernel whose 16-point
//! DFTs are 16x16 complex matrix products on the tensor cores (`mma.sync.m16n8k16`, binary16
//! inputs, f32 accumulation), every operand split as the seed's Algorithm 1 (x/s = hi +
//! lo/2048), three products combined in f32: fp32 accuracy (2e-7 - 4e-7 relative L2 on an
//! H100, bench/results/2026-11-26-h100-split-half.md, the standalone `bench/split_half.cu`
//! this kernel was ported from). The arithmetic, the scale rule and the indexing are those of
//! the CPU twin, `exec::cpu::split_half`, which `tests/gpu.rs` compares with this kernel.
//!
//! The source comes from [`source`] (per sign: the DFT matrix's binary16 parts are constants
//! computed by the twin, so both use the same matrix), compiled by NVRTC through
//! `kernels::compile_generated` (no `cuda_fp16.h`: conversions are PTX `cvt`, as in
//! `half.rs`). Needs compute capability 8.0 or later.
//!
//! [`SplitHalf`] runs the stages on packed device buffers: stage 0 reads the input, the last
//! writes the output, the others ping-pong through a work buffer of the batch's size
//! ([`schedule`]; in place with K odd the chain ends in the work buffer and is copied back).
//! Host arrays, strided layouts and device arrays reach it through `transform::GpuTransform`
//! (`GpuTransform::split_half`): the same chunked staging, layout kernel and recovery as its
//! cuFFT stages. Plans choose it through `Backend::GpuSplitHalf` (`FFTX_TENSOR_CORES=split`,
//! `planner::tensor_cores`).

use super::half::CONVERT;
use super::kernels::{compile_generated, generated_function, launch_grid, Generated};
use super::{check, Device, Error, ErrorKind, Result};
use crate::exec::cpu::split_half::{dft_parts, stages_of};
use crate::problem::{Kind, Precision, Problem};
use cudarc::driver::sys as cu;
use std::ffi::c_void;
use std::fmt::Write;
use std::sync::Arc;

/// The stage kernel (after the prelude, `CONVERT`, the table `fxs_tab` and `FXS_SIGN`).
const KERNEL: &str = r#"__device__ __forceinline__ unsigned fxs_pack(unsigned short a, unsigned short b) { return (unsigned)a | ((unsigned)b << 16); }
__device__ __forceinline__ void fxs_mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// The A fragment (16x16 row-major) of part w of F for this lane: rows g, g+8; columns 2t,
// 2t+1, 2t+8, 2t+9; F(q, r) = fxs_tab[w][(q r) mod 16].
__device__ __forceinline__ void fxs_fragment(unsigned (&a)[4], int w, int g, int t) {
  const int c[4] = {2 * t, 2 * t + 1, 2 * t + 8, 2 * t + 9};
  a[0] = fxs_pack(fxs_tab[w][(g * c[0]) & 15], fxs_tab[w][(g * c[1]) & 15]);
  a[1] = fxs_pack(fxs_tab[w][((g + 8) * c[0]) & 15], fxs_tab[w][((g + 8) * c[1]) & 15]);
  a[2] = fxs_pack(fxs_tab[w][(g * c[2]) & 15], fxs_tab[w][(g * c[3]) & 15]);
  a[3] = fxs_pack(fxs_tab[w][((g + 8) * c[2]) & 15], fxs_tab[w][((g + 8) * c[3]) & 15]);
}
// The least power of two >= mx (the twin's scale_of): 1 for 0, at most 2^127.
__device__ __forceinline__ float fxs_scale(float mx) {
  const unsigned u = __float_as_uint(mx);
  if (u == 0) return 1.f;
  unsigned e = u & 0x7f800000u;
  if (u & 0x7fffffu) e += 0x800000u;
  return __uint_as_float(min(e, 0x7f000000u));
}
// One radix-16 Stockham stage over packed transforms of n points: item i (k = i mod p) takes
// x[i + r n/16], twiddles by exp(sign 2 pi i r k / (16 p)), and writes its 16-point DFT to
// y[(i - k) 16 + k + q p]. A warp does 8 items (the 8 columns of the product).
extern "C" __global__ void __launch_bounds__(256) fxs_stage(const fx_cplx* __restrict__ x, fx_cplx* __restrict__ y, i64 n, i64 p, i64 items_total) {
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  unsigned F[6][4];
#pragma unroll
  for (int w = 0; w < 6; w++) fxs_fragment(F[w], w, g, t);
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);
  const i64 m = n / 16;
  for (i64 w0 = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); w0 * 8 < items_total; w0 += warps) {
    // This lane's column: item g of the warp's 8 (none past the end: zeros); rows 2t, 2t+1,
    // 2t+8, 2t+9 of it.
    const i64 it = w0 * 8 + g;
    const bool live = it < items_total;
    const i64 b = it / m, i = it % m, k = i % p;
    const fx_cplx* xb = x + b * n;
    const int rows[4] = {2 * t, 2 * t + 1, 2 * t + 8, 2 * t + 9};
    fx_cplx v[4];
    float mx = 0.f;
#pragma unroll
    for (int e = 0; e < 4; e++) {
      const int r = rows[e];
      fx_cplx u = live ? xb[i + r * m] : make_float2(0.f, 0.f);
      if (p > 1) {
        float s, c;
        sincospif(2.0f * FXS_SIGN * (float)((r * k) % (16 * p)) / (float)(16 * p), &s, &c);
        u = make_float2(__fsub_rn(__fmul_rn(u.x, c), __fmul_rn(u.y, s)), __fadd_rn(__fmul_rn(u.x, s), __fmul_rn(u.y, c)));
      }
      v[e] = u;
      mx = fmaxf(mx, fmaxf(fabsf(u.x), fabsf(u.y)));
    }
    // The column's scale: the 4 lanes of a column hold its 16 rows.
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 2));
    const float scale = fxs_scale(mx);
    const float inv = 1.f / scale;
    unsigned short rh[4], ih[4], rl[4], il[4];
#pragma unroll
    for (int e = 0; e < 4; e++) {
      const float a = __fmul_rn(v[e].x, inv), c = __fmul_rn(v[e].y, inv);
      rh[e] = fxh_h(a);
      ih[e] = fxh_h(c);
      rl[e] = fxh_h(__fmul_rn(__fsub_rn(a, fxh_f(rh[e])), 2048.f));
      il[e] = fxh_h(__fmul_rn(__fsub_rn(c, fxh_f(ih[e])), 2048.f));
    }
    // B fragments (16x8, column-major): rows 2t, 2t+1 in reg 0, rows 2t+8, 2t+9 in reg 1, column g.
    const unsigned Xrh[2] = {fxs_pack(rh[0], rh[1]), fxs_pack(rh[2], rh[3])};
    const unsigned Xih[2] = {fxs_pack(ih[0], ih[1]), fxs_pack(ih[2], ih[3])};
    const unsigned Xrl[2] = {fxs_pack(rl[0], rl[1]), fxs_pack(rl[2], rl[3])};
    const unsigned Xil[2] = {fxs_pack(il[0], il[1]), fxs_pack(il[2], il[3])};
    float r1[4] = {0, 0, 0, 0}, i1[4] = {0, 0, 0, 0}, r2[4] = {0, 0, 0, 0}, i2[4] = {0, 0, 0, 0};
    fxs_mma(r1, F[0], Xrh);
    fxs_mma(r1, F[2], Xih);
    fxs_mma(i1, F[0], Xih);
    fxs_mma(i1, F[1], Xrh);
    fxs_mma(r2, F[0], Xrl);
    fxs_mma(r2, F[2], Xil);
    fxs_mma(r2, F[3], Xrh);
    fxs_mma(r2, F[5], Xih);
    fxs_mma(i2, F[0], Xil);
    fxs_mma(i2, F[1], Xrl);
    fxs_mma(i2, F[4], Xrh);
    fxs_mma(i2, F[3], Xih);
    // D: rows (q) g and g+8, columns (items) 2t and 2t+1; their scales from those columns' lanes.
#pragma unroll
    for (int c = 0; c < 2; c++) {
      const float sc = __shfl_sync(0xffffffff, scale, 4 * (2 * t + c));
      const i64 itc = w0 * 8 + 2 * t + c;
      if (itc >= items_total) continue;
      const i64 bc = itc / m, ic = itc % m, kc = ic % p;
      fx_cplx* yb = y + bc * n + (ic - kc) * 16 + kc;
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int q = g + 8 * h, d = 2 * h + c;
        yb[q * p] = make_float2(__fmul_rn(sc, __fadd_rn(r1[d], __fmul_rn(r2[d], 1.f / 2048.f))),
                                __fmul_rn(sc, __fadd_rn(i1[d], __fmul_rn(i2[d], 1.f / 2048.f))));
      }
    }
  }
}
"#;

/// The kernel's source for transforms of `sign`: the f32 prelude, the binary16 conversions,
/// the DFT matrix's parts from the twin ([`dft_parts`]), the stage kernel `fxs_stage`.
pub fn source(sign: i32) -> String {
    let mut s = super::cudagen::prelude(Precision::F32);
    s += CONVERT;
    s += "__constant__ unsigned short fxs_tab[6][16] = {\n";
    for row in dft_parts(sign) {
        let words: Vec<String> = row.iter().map(|h| format!("0x{h:04x}")).collect();
        let _ = writeln!(s, "  {{{}}},", words.join(", "));
    }
    let _ = writeln!(s, "}};\n#define FXS_SIGN ({sign})");
    s + KERNEL
}

/// A buffer of a stage chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    In,
    Out,
    Work,
}

/// The (source, destination) of each of `stages` stages, and whether the result must then be
/// copied from the work buffer to the output (in place with K odd: no chain of alternating
/// buffers leads from the input back to the same buffer in an odd number of steps). No stage
/// reads and writes one buffer; the input is written only in place, after stage 0 read it.
pub fn schedule(stages: u32, in_place: bool) -> (Vec<(Slot, Slot)>, bool) {
    let k = stages as usize;
    let last = if in_place && k % 2 == 1 {
        Slot::Work
    } else {
        Slot::Out
    };
    let mut bufs = vec![Slot::In; k + 1];
    bufs[k] = last;
    for s in (1..k).rev() {
        bufs[s] = if bufs[s + 1] == Slot::Work {
            Slot::Out
        } else {
            Slot::Work
        };
    }
    let chain = bufs.windows(2).map(|w| (w[0], w[1])).collect();
    (chain, last == Slot::Work)
}

/// The split-half stages of one problem's transforms, compiled for one device.
pub struct SplitHalf {
    device: Arc<Device>,
    /// `fxs_stage` of the module (valid while the device's generated modules are loaded).
    function: usize,
    n: usize,
    stages: u32,
}

impl SplitHalf {
    /// Compiles (once per device and sign) the kernel for `p` (c2c f32 of 16^K points, as
    /// `stages_of` says; the layout is `GpuTransform`'s concern).
    pub fn new(device: &Arc<Device>, p: &Problem) -> Result<SplitHalf> {
        let stages = stages_of(p).map_err(Error::unsupported)?;
        let Kind::Dft { sign } = p.kind else {
            return Err(Error::unsupported("the split-half path is c2c"));
        };
        if device.capability.0 < 8 {
            return Err(Error::unsupported(format!(
                "compute capability {}.{} (mma.sync.m16n8k16 on binary16 needs 8.0)",
                device.capability.0, device.capability.1
            )));
        }
        let module = match compile_generated(device, &source(sign), false)? {
            Generated::Module(m) => m,
            Generated::Lto(_) => return Err(Error::new(ErrorKind::Internal, "NVRTC gave LTO-IR")),
        };
        Ok(SplitHalf {
            device: device.clone(),
            function: generated_function(module, "fxs_stage")? as usize,
            n: p.dims[0].n as usize,
            stages,
        })
    }

    /// Bytes of the work buffer [`SplitHalf::run`] needs for `batch` transforms.
    pub fn work_bytes(&self, batch: usize) -> usize {
        batch * self.n * 8
    }

    pub fn describe(&self) -> String {
        format!(
            "gpu split-half tensor cores, 16^{}: {} radix-16 stage kernel(s) of mma.sync.m16n8k16, operands split hi + lo/2048 in binary16, 3 products combined in f32",
            self.stages, self.stages
        )
    }

    /// Transforms `batch` packed transforms from `din` into `dout` (the same address: in
    /// place) on `stream`, through `work` ([`SplitHalf::work_bytes`]).
    ///
    /// # Safety
    /// Device buffers of `batch` transforms each (`work`: distinct from both).
    pub unsafe fn run(
        &self,
        din: u64,
        dout: u64,
        work: u64,
        batch: usize,
        stream: cu::CUstream,
    ) -> Result<()> {
        let items = (batch * self.n / 16) as u64;
        let max_grid = self.device.multiprocessors.max(1) as u64 * 16;
        // 8 items a warp, 8 warps a block.
        let grid = items.div_ceil(64).clamp(1, max_grid) as u32;
        let (chain, copy_back) = schedule(self.stages, din == dout);
        let addr = |s: Slot| match s {
            Slot::In => din,
            Slot::Out => dout,
            Slot::Work => work,
        };
        let mut p = 1i64;
        for (from, to) in chain {
            let (mut x, mut y) = (addr(from), addr(to));
            let (mut n, mut pp, mut total) = (self.n as i64, p, items as i64);
            let mut params: [*mut c_void; 5] = [
                &mut x as *mut u64 as *mut c_void,
                &mut y as *mut u64 as *mut c_void,
                &mut n as *mut i64 as *mut c_void,
                &mut pp as *mut i64 as *mut c_void,
                &mut total as *mut i64 as *mut c_void,
            ];
            launch_grid(
                self.function as cu::CUfunction,
                grid,
                256,
                stream,
                &mut params,
            )?;
            p *= 16;
        }
        if copy_back {
            check(
                cu::cuMemcpyDtoDAsync_v2(dout, work, self.work_bytes(batch), stream),
                "cuMemcpyDtoDAsync",
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every chain starts at the input, ends at the output (or in the work buffer, copied
    /// back), never reads and writes one buffer, and never writes the input out of place.
    #[test]
    fn schedules_ping_pong_without_overwriting_what_they_read() {
        for k in 1..=6 {
            for in_place in [false, true] {
                let (chain, copy) = schedule(k, in_place);
                assert_eq!(chain.len(), k as usize);
                assert_eq!(chain[0].0, Slot::In);
                let end = chain.last().unwrap().1;
                assert_eq!(end, if copy { Slot::Work } else { Slot::Out });
                assert_eq!(copy, in_place && k % 2 == 1);
                let same =
                    |a: Slot, b: Slot| a == b || (in_place && a != Slot::Work && b != Slot::Work);
                for (s, &(from, to)) in chain.iter().enumerate() {
                    assert!(!same(from, to), "k={k} in_place={in_place} stage {s}");
                    assert!(to != Slot::In, "k={k}: writes the input");
                    if s > 0 {
                        assert_eq!(from, chain[s - 1].1);
                    }
                }
            }
        }
    }

    /// The source carries the twin's matrix and the sign; the stage kernel is extern "C".
    #[test]
    fn source_has_the_twins_matrix() {
        let s = source(-1);
        let t = dft_parts(-1);
        assert!(s.contains(&format!("0x{:04x}", t[1][4])));
        assert!(s.contains("#define FXS_SIGN (-1)"));
        assert!(s.contains("extern \"C\" __global__ void __launch_bounds__(256) fxs_stage"));
        assert!(!s.contains("cuda_fp16"));
        assert!(source(1).contains("#define FXS_SIGN (1)"));
    }
}
