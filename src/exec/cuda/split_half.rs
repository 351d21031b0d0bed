//! Issue 17's split-half FFT on tensor cores: batched 1-D c2c f32 of N = 16^K points (K =
//! 1..6), or 16^K r (r = 2, 4, 8; K >= 3; up to 2^26), as K radix-16 Stockham stages whose
//! 16-point DFTs are 16x16 complex matrix products on the tensor cores (`mma.sync.m16n8k16`,
//! binary16 inputs, f32 accumulation), every operand split as the seed's Algorithm 1 (x/s =
//! hi + lo/2048), three products combined in f32: fp32 accuracy (2e-7 - 4e-7 relative L2 on
//! an H100). The arithmetic of a stage (its twiddles, the scale rule, the split, the
//! products' order), and the Stockham indexing are those of the CPU twin,
//! `exec::cpu::split_half`, which `tests/gpu.rs` compares with these kernels; the twiddles
//! are sincospif's (its own polynomials after an exact integer reduction to the nearest
//! quarter turn), within an ulp of the twin's. A length 16^K r ends with one radix-r stage in
//! f32 on the CUDA cores (`fxs_tail`, the twin's `tail_stage`): its own launch, one more trip
//! through memory, reading and writing the same elements (so in place).
//!
//! Fused passes: the stages are grouped into passes of up to three ([`default_passes`]: 16^K
//! for K <= 3 in one pass, 16^4 as 2 + 2, 16^5 as 3 + 2, 16^6 as 2 + 2 + 2), each one launch
//! and one trip through memory: a block loads a tile into shared memory (`cp.async`), runs the
//! pass's stages there and stores it. Stages s .. s+L-1 mix the elements of a group: with p =
//! 16^s and the transform's index in base-16 digits, stage s takes its input digit from the
//! top and puts its output digit at position s (item i, k = i mod p, reads x[i + r N/16] and
//! writes y[(i - k) 16 + k + q p]), so L stages from s read the L top digits and write digits
//! s .. s+L-1: group gi (< N/16^L, gi = k + p j, k < p) reads x[gi + (N/16^L) R] and writes
//! y[k + p Q + p 16^L j] (R, Q < 16^L), the group running its own 16^L-point Stockham stages
//! with the transform's twiddles (k' = k + p k_local). A tile is 2^LOGT consecutive groups
//! (consecutive gi differ by 1 in both their inputs and outputs: loads and stores are runs of
//! adjacent elements): 4096 elements (32 KiB, 128 threads, 6 blocks an SM) or, for a 3-stage
//! pass of a longer transform, 2 groups (64 KiB, 256 threads; runs of 2 elements, slow). In
//! shared memory the stages run in place (a column reads and writes the same 16 slots: the
//! group's output Q ends at its digit-reversed position), the slots swizzled against bank
//! conflicts (`fxs_swz`). A pass that ends the transform (gi = k) reads and writes the same
//! elements per tile, so it may run in place; the others alternate between the output and a
//! work buffer ([`schedule`]). On an H100 the passes of 2 stages move 2.1 TB/s; those of 3 are
//! bound by their arithmetic (bench/results/2026-11-26-h100-split-half-fused.md).
//!
//! The source comes from [`source`] (per sign and plan: the DFT matrix's binary16 parts are
//! constants computed by the twin, so both use the same matrix), compiled by NVRTC through
//! `kernels::compile_generated` (no `cuda_fp16.h`: conversions are PTX `cvt`, as in
//! `half.rs`). Needs compute capability 8.0 or later (`mma.sync`, `cp.async`).
//!
//! Device arrays and strided layouts reach [`SplitHalf`] through `transform::GpuTransform`
//! (`GpuTransform::split_half`: the same layout kernel as its cuFFT stages); host arrays through
//! the streamed Program, whose `Fft` steps the kernels take run as that transform
//! (`program::Options::split_half`), with the same staging and recovery as cuFFT's. Plans choose it through `Backend::GpuSplitHalf`
//! (`FFTX_TENSOR_CORES=split`, `planner::tensor_cores`).

use super::half::CONVERT;
use super::kernels::{
    compile_generated, generated_function, launch, launch_grid_shared, Generated,
};
use super::{check, Device, Error, ErrorKind, Result};
use crate::exec::cpu::split_half::{dft_parts, shape_of, twiddle, Shape};
use crate::problem::{Kind, Precision, Problem};
use cudarc::driver::sys as cu;
use std::ffi::c_void;
use std::fmt::Write;
use std::sync::Arc;

/// The pass kernel (after the prelude, `CONVERT`, the table `fxs_tab` and `FXS_SIGN`); the
/// entry points of a plan's passes follow ([`Pass::entry`]).
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
// a and b split as hi + lo/2048 (binary16, rounded to nearest even), packed two a register
// as the B fragments hold them (a in the low half): one cvt.rn.f16x2.f32 a pair.
__device__ __forceinline__ void fxs_split2(float a, float b, unsigned& hi, unsigned& lo) {
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(hi) : "f"(b), "f"(a));
  const float ha = fxh_f((unsigned short)(hi & 0xffffu)), hb = fxh_f((unsigned short)(hi >> 16));
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(lo) : "f"(__fmul_rn(__fsub_rn(b, hb), 2048.f)), "f"(__fmul_rn(__fsub_rn(a, ha), 2048.f)));
}
// The least power of two >= mx (the twin's scale_of): 1 for 0, at most 2^127.
__device__ __forceinline__ float fxs_scale(float mx) {
  const unsigned u = __float_as_uint(mx);
  if (u == 0) return 1.f;
  unsigned e = u & 0x7f800000u;
  if (u & 0x7fffffu) e += 0x800000u;
  return __uint_as_float(min(e, 0x7f000000u));
}
// u times exp(2 pi i a / 2^32), a the angle in 2^-32 turns (a multiple of 2^6): u turned by
// the nearest quarter turn q (exactly: parts swapped and negated), then times (cos, sin) of
// the rest, x half-turns (|x| <= 1/4, exact), by the polynomials of CUDA's sincospif. The
// same as u times sincospif's (cos, sin) of the whole angle, as the twin multiplies.
__device__ __forceinline__ fx_cplx fxs_turn(fx_cplx u, unsigned a) {
  const unsigned a2 = a + 0x20000000u;
  const float x = __fmaf_rn((float)(a2 & 0x3fffffffu), 4.656612873077392578125e-10f, -0.25f);
  const float x2 = __fmul_rn(x, x);
  float ps = __fmaf_rn(x2, __uint_as_float(0xbf17acc9u), __uint_as_float(0x40233590u));
  ps = __fmaf_rn(x2, ps, __uint_as_float(0xc0a55df6u));
  const float s = __fmaf_rn(x, __uint_as_float(0x40490fdbu), __fmul_rn(ps, __fmul_rn(x, x2)));
  float pc = __fmaf_rn(x2, __uint_as_float(0x3e684e12u), __uint_as_float(0xbfaad2e0u));
  pc = __fmaf_rn(x2, pc, __uint_as_float(0x4081e0cfu));
  pc = __fmaf_rn(x2, pc, __uint_as_float(0xc09de9e6u));
  const float c = __fmaf_rn(x2, pc, 1.0f);
  // u i^q: swapped for odd q; the real part negated for q = 1, 2, the imaginary for q = 2, 3.
  const bool odd = (a2 & 0x40000000u) != 0;
  const unsigned nre = (a2 ^ (a2 << 1)) & 0x80000000u, nim = a2 & 0x80000000u;
  const float ur = __uint_as_float(__float_as_uint(odd ? u.y : u.x) ^ nre);
  const float ui = __uint_as_float(__float_as_uint(odd ? u.x : u.y) ^ nim);
  return make_float2(__fsub_rn(__fmul_rn(ur, c), __fmul_rn(ui, s)), __fadd_rn(__fmul_rn(ur, s), __fmul_rn(ui, c)));
}
// The shared-memory slot of tile index a: its low 4 bits (which of the 16 8-byte bank pairs)
// XOR a bit permutation (bits 0 1 2 3 to 0 3 2 1) of the XOR of its higher 4-bit groups, so
// that the accesses of every stage, load and store are free of bank conflicts. Linear over
// XOR: the slot of a ^ b is the XOR of their slots.
__device__ __forceinline__ unsigned fxs_swz(unsigned a) {
  unsigned h = a >> 4;
  h = (h ^ (h >> 4) ^ (h >> 8)) & 15u;
  return a ^ ((h & 5u) | ((h & 2u) << 2) | ((h & 8u) >> 2));
}
// The D base-16 digits of k reversed.
template <int D> __device__ __forceinline__ unsigned fxs_rev(unsigned k) {
  unsigned r = 0;
#pragma unroll
  for (int i = 0; i < D; i++) { r = (r << 4) | (k & 15u); k >>= 4; }
  return r;
}
// Where column c (one 16-point DFT) of local stage l of a pass of L stages sits in the tile:
// the tile index of its row 0 (row r at base + (r << RS)), the group t of the tile it belongs
// to and its local k (i mod 16^l of the group's own Stockham stage). The stages run in place:
// local stage l keeps the group's element of Stockham index [r | j | k] (r the top digit, k
// the l low digits) at position [rev(k) | r | j], which its output [j | q | k] takes over with
// q for r, so a column reads and writes the same 16 slots; a group's input R is at position R
// and its output Q ends at rev(Q). GM: group t at t 16^L + position; otherwise position 2^LOGT + t.
template <int L, int LOGT, bool GM, int l>
__device__ __forceinline__ void fxs_col(unsigned c, unsigned& base, unsigned& t, unsigned& kl) {
  constexpr int JD = L - 1 - l;
  if (GM) {
    const unsigned j = c & ((1u << (4 * JD)) - 1u), rest = c >> (4 * JD);
    kl = rest & ((1u << (4 * l)) - 1u);
    t = rest >> (4 * l);
    base = (t << (4 * L)) + (fxs_rev<l>(kl) << (4 * (L - l))) + j;
  } else {
    t = c & ((1u << LOGT) - 1u);
    const unsigned rest = c >> LOGT;
    const unsigned j = rest & ((1u << (4 * JD)) - 1u);
    kl = rest >> (4 * JD);
    base = (((fxs_rev<l>(kl) << (4 * (L - l))) + j) << LOGT) | t;
  }
}
// Local stage l of a pass on the tile in shared memory, in place: stage s + l of the transform
// (p' = p 16^l). Column (item) i of the stage, k' = i mod p', takes its 16 elements times
// exp(sign 2 pi i r k' / (16 p')) (TW; none in the transform's stage 0) and the split-half DFT
// replaces them. A warp does 8 columns at once (the 8 columns of the product), 8 times. The
// swizzle is linear over XOR and a column's base, its row offset and the lane's column within
// the 8 have disjoint bits, so a slot is the warp's column base XOR a per-lane constant.
template <int L, int LOGT, bool GM, int l, bool TW>
__device__ __forceinline__ void fxs_stage(fx_cplx* sm, const unsigned (&F)[6][4], unsigned plog, unsigned gi0) {
  constexpr int TILE = (1 << (4 * L)) << LOGT, WARPS = TILE / 1024, JD = L - 1 - l;
  constexpr int RS = GM ? 4 * JD : 4 * JD + LOGT;
  // Column x (< 8) of the warp's 8 is at base + (x << XS); it adds x to the local k (KIN 1),
  // to the group (KIN 2) or to j (KIN 0).
  constexpr int XS = (GM && JD == 0) ? (l > 0 ? 4 * (L - 1) : 4 * L) : 0;
  constexpr int KIN = GM ? (JD > 0 ? 0 : (l > 0 ? 1 : 2)) : 2;
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  const unsigned p = 1u << plog;
  // The twiddle exp(sign 2 pi i r k' / 2^logs) is r K / 2^32 turns, K = sign k' 2^(32 - logs).
  const unsigned logs = 4 + plog + 4 * l;
  const int rows[4] = {2 * t, 2 * t + 1, 2 * t + 8, 2 * t + 9};
  unsigned rd[4], wr[4];
#pragma unroll
  for (int e = 0; e < 4; e++) rd[e] = 8 * (fxs_swz((unsigned)rows[e] << RS) ^ fxs_swz((unsigned)g << XS));
#pragma unroll
  for (int c = 0; c < 2; c++)
#pragma unroll
    for (int h = 0; h < 2; h++) wr[2 * c + h] = 8 * (fxs_swz((unsigned)(g + 8 * h) << RS) ^ fxs_swz((unsigned)(2 * t + c) << XS));
  const unsigned klane = KIN == 1 ? ((unsigned)g << plog) : (KIN == 2 ? ((unsigned)g & (p - 1u)) : 0u);
  char* smb = (char*)sm;
#pragma unroll 1
  for (int w = threadIdx.x >> 5; w < TILE / 128; w += WARPS) {
    unsigned base, tg, kl;
    fxs_col<L, LOGT, GM, l>(w * 8, base, tg, kl);
    const unsigned B = 8 * fxs_swz(base);
    const unsigned kp = ((gi0 + tg) & (p - 1u)) + (kl << plog) + klane;
    const unsigned K = (unsigned)FXS_SIGN * (kp << (32 - logs));
    fx_cplx v[4];
    float mx = 0.f;
#pragma unroll
    for (int e = 0; e < 4; e++) {
      fx_cplx u = *(const fx_cplx*)(smb + (B ^ rd[e]));
      if (TW) u = fxs_turn(u, (unsigned)rows[e] * K);
      v[e] = u;
      mx = fmaxf(mx, fmaxf(fabsf(u.x), fabsf(u.y)));
    }
    // The column's scale: the 4 lanes of a column hold its 16 rows. 1 / scale from its bits
    // (scale is a power of two, 2^127 at most).
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 2));
    const float scale = fxs_scale(mx);
    const unsigned sbits = __float_as_uint(scale);
    const float inv = __uint_as_float(sbits < 0x7f000000u ? 0x7f000000u - sbits : 0x00400000u);
    // B fragments (16x8, column-major): rows 2t, 2t+1 in reg 0, rows 2t+8, 2t+9 in reg 1, column g.
    unsigned Xrh[2], Xih[2], Xrl[2], Xil[2];
#pragma unroll
    for (int c = 0; c < 2; c++) {
      fxs_split2(__fmul_rn(v[2 * c].x, inv), __fmul_rn(v[2 * c + 1].x, inv), Xrh[c], Xrl[c]);
      fxs_split2(__fmul_rn(v[2 * c].y, inv), __fmul_rn(v[2 * c + 1].y, inv), Xih[c], Xil[c]);
    }
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
    // D: rows (q) g and g+8, columns 2t and 2t+1, back into the slots those columns read (every
    // lane's reads were done: the products took them); their scales from those columns' lanes.
    // r1 + r2 / 2048 in one rounding, as the twin's add of the exact r2 / 2048.
#pragma unroll
    for (int c = 0; c < 2; c++) {
      const float sc = __shfl_sync(0xffffffff, scale, 4 * (2 * t + c));
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int d = 2 * h + c;
        *(fx_cplx*)(smb + (B ^ wr[2 * c + h])) = make_float2(__fmul_rn(sc, __fmaf_rn(r2[d], 1.f / 2048.f, r1[d])),
                                                             __fmul_rn(sc, __fmaf_rn(i2[d], 1.f / 2048.f, i1[d])));
      }
    }
  }
}
__device__ __forceinline__ void fxs_cp8(unsigned slot_addr, const fx_cplx* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(slot_addr), "l"(src) : "memory");
}
// Tile element e of a load (the group's input R) or a store (its output Q, at rev(Q)): its
// group tg in the tile and its R or Q, in the order the pass walks the tile; and its slot.
// SINGLE or the store of the first pass: group after group (both sides contiguous); otherwise
// 2^LOGT groups at each R or Q (GM: 16 R or Q of a group, then the next group's).
template <int L, int LOGT, bool GM, bool BY_GROUP>
__device__ __forceinline__ void fxs_walk(unsigned e, unsigned& tg, unsigned& rq) {
  constexpr int T = 1 << LOGT;
  if (BY_GROUP) {
    tg = e >> (4 * L);
    rq = e & ((1u << (4 * L)) - 1u);
  } else if (GM) {
    tg = (e >> 4) & (T - 1);
    rq = ((e >> (4 + LOGT)) << 4) | (e & 15u);
  } else {
    tg = e & (T - 1);
    rq = e >> LOGT;
  }
}
template <int L, int LOGT, bool GM>
__device__ __forceinline__ unsigned fxs_slot(unsigned tg, unsigned pos) {
  return GM ? fxs_swz((tg << (4 * L)) + pos) : fxs_swz((pos << LOGT) + tg);
}
// One pass: stages s .. s+L-1 (p = 16^s = 2^plog; FIRST: s = 0) of packed transforms of n =
// 2^nlog points, total = batch n elements. A block takes a tile of 2^LOGT groups of 16^L
// elements (a group: the elements that L consecutive stages mix): group gi of a transform (gi
// < n / 16^L) reads x[gi + (n / 16^L) R] (R < 16^L) and writes y[k + p Q + p 16^L j] (gi = k +
// p j, k < p). SINGLE: the pass is the whole transform (2^LOGT transforms a tile, the last tile
// maybe partial); otherwise the tile's groups are consecutive (2^LOGT divides p, or p is 1), so
// its loads and stores are runs of 2^LOGT elements (or whole groups). In the last pass (gi = k)
// a tile's reads and writes are the same elements, so it may run in place there.
template <int L, int LOGT, bool SINGLE, bool GM, bool FIRST>
__device__ __forceinline__ void fxs_pass(const fx_cplx* x, fx_cplx* y, unsigned nlog, unsigned plog, i64 total) {
  constexpr int M = 1 << (4 * L), T = 1 << LOGT, TILE = M * T, THREADS = TILE / 32, EACH = TILE / THREADS;
  static_assert(SINGLE || (L >= 2 && T <= THREADS), "a strided pass walks whole runs of T groups");
  extern __shared__ fx_cplx fxs_sm[];
  const unsigned tid = threadIdx.x;
  const int lane = tid & 31, g = lane >> 2, t = lane & 3;
  unsigned F[6][4];
#pragma unroll
  for (int w = 0; w < 6; w++) fxs_fragment(F[w], w, g, t);
  if (FIRST) plog = 0;
  const unsigned glog = nlog - 4 * L;
  i64 tbase;
  unsigned gi0;
  if (SINGLE) {
    tbase = (i64)blockIdx.x * TILE;
    gi0 = 0;
  } else {
    const i64 gall = (i64)blockIdx.x * T;
    tbase = (gall >> glog) << nlog;
    gi0 = (unsigned)gall & ((1u << glog) - 1u);
  }
  // Load: adjacent lanes take adjacent elements. Element tid + i THREADS is tid's plus i
  // THREADS R (or i THREADS elements); its slot is tid's XOR that of i THREADS.
  {
    unsigned tg, r;
    fxs_walk<L, LOGT, GM, SINGLE>(tid, tg, r);
    const unsigned slot0 = fxs_slot<L, LOGT, GM>(tg, r);
    const fx_cplx* src = SINGLE ? x + tbase + tid : x + tbase + gi0 + tg + ((i64)r << glog);
    const i64 step = SINGLE ? (i64)THREADS : (i64)(THREADS >> LOGT) << glog;
    const unsigned sb = (unsigned)__cvta_generic_to_shared(fxs_sm);
    if (!SINGLE || tbase + TILE <= total) {
#pragma unroll
      for (int i = 0; i < EACH; i++) {
        unsigned ti, ri;
        fxs_walk<L, LOGT, GM, SINGLE>(i * THREADS, ti, ri);
        fxs_cp8(sb + 8 * (slot0 ^ fxs_slot<L, LOGT, GM>(ti, ri)), src + i * step);
      }
    } else {
#pragma unroll 1
      for (int i = 0; i < EACH; i++) {
        unsigned ti, ri;
        fxs_walk<L, LOGT, GM, SINGLE>(i * THREADS, ti, ri);
        const unsigned slot = slot0 ^ fxs_slot<L, LOGT, GM>(ti, ri);
        if (tbase + tid + i * THREADS < total)
          fxs_cp8(sb + 8 * slot, src + i * step);
        else
          fxs_sm[slot] = make_float2(0.f, 0.f);
      }
    }
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
  }
  __syncthreads();
  fxs_stage<L, LOGT, GM, 0, !FIRST>(fxs_sm, F, plog, gi0);
  __syncthreads();
  if constexpr (L > 1) {
    fxs_stage<L, LOGT, GM, 1, true>(fxs_sm, F, plog, gi0);
    __syncthreads();
  }
  if constexpr (L > 2) {
    fxs_stage<L, LOGT, GM, 2, true>(fxs_sm, F, plog, gi0);
    __syncthreads();
  }
  // Store: output Q of group tg is at rev(Q); adjacent lanes write adjacent elements.
  {
    constexpr bool BY_GROUP = SINGLE || FIRST;
    unsigned tg, q;
    fxs_walk<L, LOGT, GM, BY_GROUP>(tid, tg, q);
    const unsigned slot0 = fxs_slot<L, LOGT, GM>(tg, fxs_rev<L>(q));
    fx_cplx* dst;
    i64 step;
    if (BY_GROUP) {
      dst = y + tbase + ((i64)gi0 << (4 * L)) + tid;
      step = THREADS;
    } else {
      const unsigned k0 = gi0 & ((1u << plog) - 1u), j0 = gi0 >> plog;
      dst = y + tbase + k0 + tg + ((i64)q << plog) + ((i64)j0 << (plog + 4 * L));
      step = (i64)(THREADS >> LOGT) << plog;
    }
    const bool whole = !SINGLE || tbase + TILE <= total;
#pragma unroll
    for (int i = 0; i < EACH; i++) {
      unsigned ti, qi;
      fxs_walk<L, LOGT, GM, BY_GROUP>(i * THREADS, ti, qi);
      const fx_cplx v = fxs_sm[slot0 ^ fxs_slot<L, LOGT, GM>(ti, fxs_rev<L>(qi))];
      if (whole || tbase + tid + i * THREADS < total) dst[i * step] = v;
    }
  }
}
__device__ __forceinline__ fx_cplx fxs_mul(fx_cplx u, fx_cplx w) {
  return make_float2(__fsub_rn(__fmul_rn(u.x, w.x), __fmul_rn(u.y, w.y)), __fadd_rn(__fmul_rn(u.x, w.y), __fmul_rn(u.y, w.x)));
}
// The radix-R stage that ends transforms of n = 2^nlog = 16^K R points (p = n / R = 2^plog),
// the twin's tail_stage: item i of transform b takes x[b n + i + j p] (j < R) turned by
// exp(sign 2 pi i j i / n) and writes its R-point DFT, the sum over j in order of u_j times
// fxs_w[(j q) mod R] (the twin's constants), in f32 to y[b n + i + q p]. A thread reads and
// writes the same R elements: the stage may run in place. Items in a grid-stride loop, as
// `kernels::launch` launches.
template <int R, int LOGR>
__device__ __forceinline__ void fxs_tail(const fx_cplx* x, fx_cplx* y, unsigned nlog, i64 items) {
  const unsigned plog = nlog - LOGR;
  for (i64 idx = (i64)blockIdx.x * blockDim.x + threadIdx.x; idx < items; idx += (i64)gridDim.x * blockDim.x) {
    const unsigned i = (unsigned)idx & ((1u << plog) - 1u);
    const i64 base = ((idx >> plog) << nlog) + i;
    fx_cplx u[R];
#pragma unroll
    for (int j = 0; j < R; j++) u[j] = x[base + ((i64)j << plog)];
#pragma unroll
    for (int j = 0; j < R; j++) u[j] = fxs_turn(u[j], (unsigned)FXS_SIGN * (((unsigned)j * i) << (32 - nlog)));
#pragma unroll
    for (int q = 0; q < R; q++) {
      fx_cplx acc = make_float2(0.f, 0.f);
#pragma unroll
      for (int j = 0; j < R; j++) {
        const int w = (j * q) % R;
        const fx_cplx t = fxs_mul(u[j], make_float2(__uint_as_float(fxs_w[w][0]), __uint_as_float(fxs_w[w][1])));
        acc = make_float2(__fadd_rn(acc.x, t.x), __fadd_rn(acc.y, t.y));
      }
      y[base + ((i64)q << plog)] = acc;
    }
  }
}
"#;

/// The tail kernel's entry point for radix `r`.
fn tail_name(r: u32) -> String {
    format!("fxs_tail_{r}")
}

/// One launch: `stages` (L) consecutive radix-16 stages from stage `first`, on tiles of
/// 2^`log_groups` groups of 16^L elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    pub first: u32,
    pub stages: u32,
    pub log_groups: u32,
    /// The pass is the whole transform (a tile: 2^log_groups whole transforms).
    pub single: bool,
}

impl Pass {
    /// Tile elements.
    pub fn tile(&self) -> usize {
        1 << (4 * self.stages + self.log_groups)
    }

    /// Threads of a block: 8 warp-tasks of 8 columns per warp and stage.
    pub fn threads(&self) -> u32 {
        (self.tile() / 32) as u32
    }

    /// Dynamic shared memory of a block (the tile, f32 complex).
    pub fn shared_bytes(&self) -> usize {
        self.tile() * 8
    }

    /// Groups of a tile in shared memory group after group (else interleaved, group index
    /// innermost).
    fn group_major(&self) -> bool {
        self.single || self.log_groups < 3
    }

    fn name(&self) -> String {
        format!(
            "fxs_pass_{}_{}_{}{}",
            self.stages,
            self.log_groups,
            if self.single {
                "s"
            } else if self.group_major() {
                "g"
            } else {
                "t"
            },
            if self.first == 0 { "f" } else { "" }
        )
    }

    /// The pass's extern "C" entry point: 6 blocks of 32 KiB on an SM (3 of 64 KiB), so at
    /// most 80 registers a thread.
    fn entry(&self) -> String {
        let b = |v: bool| if v { "true" } else { "false" };
        format!(
            "extern \"C\" __global__ void __launch_bounds__({}, {}) {}(const fx_cplx* x, fx_cplx* y, unsigned nlog, unsigned plog, i64 total) {{ fxs_pass<{}, {}, {}, {}, {}>(x, y, nlog, plog, total); }}\n",
            self.threads(),
            (6 * 4096 / self.tile()).max(1),
            self.name(),
            self.stages,
            self.log_groups,
            b(self.single),
            b(self.group_major()),
            b(self.first == 0)
        )
    }
}

/// The radix-16 stages of each pass for 16^K (and 16^K r): one pass up to 16^3, then 16^4 as
/// 2 + 2, 16^5 as 3 + 2 and 16^6 as 2 + 2 + 2 (on an H100 2 + 2 + 2 took 0.385 ms, 3 + 3 0.688: a 3-stage pass of
/// a longer transform reads or writes runs of 2 elements and is compute-heavy,
/// bench/results/2026-11-26-h100-split-half-fused.md).
pub fn default_passes(k: u32) -> Vec<u32> {
    match k {
        0..=3 => vec![k],
        4 => vec![2, 2],
        5 => vec![3, 2],
        _ => vec![2, 2, 2],
    }
}

/// The radix-16 passes of `shape` grouped as `split` (stages a pass, in order), or why not:
/// each pass 1 to 3 stages, their sum K, and a pass of a longer transform (or of one with a
/// tail) 2 or 3 stages whose tile holds whole runs of groups (16 groups of 256, 2 of 4096)
/// within one transform.
pub fn passes(shape: Shape, split: &[u32]) -> std::result::Result<Vec<Pass>, String> {
    let k = shape.stages;
    if split.iter().sum::<u32>() != k || split.iter().any(|&l| !(1..=3).contains(&l)) {
        return Err(format!(
            "{split:?} is no split of 16^{k} into passes of 1 to 3 stages"
        ));
    }
    let single = split.len() == 1 && shape.tail == 1;
    if !single && split.contains(&1) {
        return Err(format!(
            "{split:?}: a pass of one stage must be the whole transform"
        ));
    }
    let mut first = 0;
    let mut out = Vec::with_capacity(split.len());
    for &l in split {
        let log_groups = if single {
            12 - 4 * l
        } else {
            [0, 0, 4, 1][l as usize]
        };
        if !single && shape.n() >> (4 * l) < 1 << log_groups {
            return Err(format!(
                "{split:?}: a pass of {l} stages of {} takes {} groups a tile",
                shape.name(),
                1 << log_groups
            ));
        }
        out.push(Pass {
            first,
            stages: l,
            log_groups,
            single,
        });
        first += l;
    }
    Ok(out)
}

/// The source for transforms of `sign` by `passes` (and a radix-`tail` stage, 1: none): the
/// f32 prelude, the binary16 conversions, the DFT matrix's parts and the tail's constants from
/// the twin ([`dft_parts`], `twiddle`), the pass kernel and the entry points.
pub fn source(sign: i32, passes: &[Pass], tail: u32) -> String {
    let mut s = super::cudagen::prelude(Precision::F32);
    s += CONVERT;
    s += "__constant__ unsigned short fxs_tab[6][16] = {\n";
    for row in dft_parts(sign) {
        let words: Vec<String> = row.iter().map(|h| format!("0x{h:04x}")).collect();
        let _ = writeln!(s, "  {{{}}},", words.join(", "));
    }
    s += "};\n__constant__ unsigned fxs_w[8][2] = {";
    for j in 0..8 {
        let w = twiddle(sign, j % tail as u64, tail as u64);
        let _ = write!(
            s,
            "{{0x{:08x}u, 0x{:08x}u}}, ",
            w.re.to_bits(),
            w.im.to_bits()
        );
    }
    let _ = writeln!(s, "}};\n#define FXS_SIGN ({sign})");
    s += KERNEL;
    let mut names = Vec::new();
    for p in passes {
        if !names.contains(&p.name()) {
            names.push(p.name());
            s += &p.entry();
        }
    }
    if tail > 1 {
        let _ = writeln!(
            s,
            "extern \"C\" __global__ void __launch_bounds__(256) {}(const fx_cplx* x, fx_cplx* y, unsigned nlog, i64 items) {{ fxs_tail<{tail}, {}>(x, y, nlog, items); }}",
            tail_name(tail),
            tail.trailing_zeros()
        );
    }
    s
}

/// A buffer of a pass chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    In,
    Out,
    Work,
}

/// The (source, destination) of each of `passes` passes. The last writes the output, from
/// where the one before wrote (the last pass may read and write one buffer: its tiles read and
/// write the same elements); the others alternate between the output and the work buffer,
/// starting with the work buffer in place (the input is the output), so none of them reads
/// and writes one buffer and the input is written only in place, after the first pass read it.
pub fn schedule(passes: usize, in_place: bool) -> Vec<(Slot, Slot)> {
    let mut chain = Vec::with_capacity(passes);
    let mut from = Slot::In;
    let mut to = if in_place { Slot::Work } else { Slot::Out };
    for s in 0..passes {
        if s + 1 == passes {
            to = Slot::Out;
        }
        chain.push((from, to));
        from = to;
        to = if to == Slot::Out {
            Slot::Work
        } else {
            Slot::Out
        };
    }
    chain
}

/// The split-half passes of one problem's transforms, compiled for one device.
pub struct SplitHalf {
    /// The device whose module holds `functions` (kept alive with them).
    device: Arc<Device>,
    /// Each pass's kernel, then the tail's (valid while the device's generated modules are
    /// loaded).
    functions: Vec<usize>,
    passes: Vec<Pass>,
    shape: Shape,
}

impl SplitHalf {
    /// Compiles (once per device, sign and plan) the kernels for `p` (c2c f32 of 16^K or 16^K r
    /// points, as `shape_of` says; the layout is `GpuTransform`'s concern), in
    /// [`default_passes`].
    pub fn new(device: &Arc<Device>, p: &Problem) -> Result<SplitHalf> {
        let shape = shape_of(p)?;
        SplitHalf::with_passes(device, p, &default_passes(shape.stages))
    }

    /// As [`SplitHalf::new`], the radix-16 stages grouped into passes as `split` says
    /// ([`passes`]).
    pub fn with_passes(device: &Arc<Device>, p: &Problem, split: &[u32]) -> Result<SplitHalf> {
        let shape = shape_of(p)?;
        let Kind::Dft { sign } = p.kind else {
            return Err(Error::unsupported("the split-half path is c2c"));
        };
        if device.capability.0 < 8 {
            return Err(Error::unsupported(format!(
                "compute capability {}.{} (mma.sync.m16n8k16 on binary16 needs 8.0)",
                device.capability.0, device.capability.1
            )));
        }
        let passes = passes(shape, split).map_err(Error::unsupported)?;
        let module = match compile_generated(device, &source(sign, &passes, shape.tail), false)? {
            Generated::Module(m) => m,
            Generated::Lto(_) => return Err(Error::new(ErrorKind::Internal, "NVRTC gave LTO-IR")),
        };
        let mut functions = Vec::new();
        for pass in &passes {
            let f = generated_function(module, &pass.name())?;
            // SAFETY: a kernel of a loaded module; attributes within the device's limits
            // (64 KiB of dynamic shared memory at most; the carveout a percentage).
            unsafe {
                super::kernels::allow_dynamic_shared(f, pass.shared_bytes())?;
                // As much shared memory as the SM has: 6 tiles of 32 KiB (3 of 64) an SM.
                check(
                    cu::cuFuncSetAttribute(
                        f,
                        cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                        100,
                    ),
                    "cuFuncSetAttribute",
                )?;
            }
            functions.push(f as usize);
        }
        if shape.tail > 1 {
            functions.push(generated_function(module, &tail_name(shape.tail))? as usize);
        }
        Ok(SplitHalf {
            device: device.clone(),
            functions,
            passes,
            shape,
        })
    }

    /// Launches: the passes, then the tail.
    fn launches(&self) -> usize {
        self.passes.len() + (self.shape.tail > 1) as usize
    }

    /// Bytes of the work buffer [`SplitHalf::run`] needs for `batch` transforms (none for one
    /// launch).
    pub fn work_bytes(&self, batch: usize) -> usize {
        if self.launches() > 1 {
            batch * self.shape.n() * 8
        } else {
            0
        }
    }

    pub fn describe(&self) -> String {
        let split: Vec<String> = self.passes.iter().map(|p| p.stages.to_string()).collect();
        let tail = match self.shape.tail {
            1 => String::new(),
            r => format!(", then a radix-{r} stage in f32 (one more launch)"),
        };
        format!(
            "gpu split-half tensor cores, {}: {} pass(es) of {} radix-16 stages fused in shared memory, mma.sync.m16n8k16, operands split hi + lo/2048 in binary16, 3 products combined in f32{tail}",
            self.shape.name(),
            self.passes.len(),
            split.join(" + ")
        )
    }

    /// Transforms `batch` packed transforms from `din` into `dout` (the same address: in
    /// place) on `stream`, through `work` ([`SplitHalf::work_bytes`]).
    ///
    /// # Safety
    /// Device buffers of `batch` transforms each, 8-byte aligned (`work`: distinct from both).
    pub unsafe fn run(
        &self,
        din: u64,
        dout: u64,
        work: u64,
        batch: usize,
        stream: cu::CUstream,
    ) -> Result<()> {
        let addr = |s: Slot| match s {
            Slot::In => din,
            Slot::Out => dout,
            Slot::Work => work,
        };
        let n = self.shape.n();
        let chain = schedule(self.launches(), din == dout);
        for (s, ((from, to), &f)) in chain.into_iter().zip(&self.functions).enumerate() {
            let (mut x, mut y) = (addr(from), addr(to));
            let mut nlog = n.trailing_zeros();
            let mut total = (batch * n) as i64;
            let Some(pass) = self.passes.get(s) else {
                // The tail: batch n / r items.
                let mut items = total / self.shape.tail as i64;
                let mut params: [*mut c_void; 4] = [
                    &mut x as *mut u64 as *mut c_void,
                    &mut y as *mut u64 as *mut c_void,
                    &mut nlog as *mut u32 as *mut c_void,
                    &mut items as *mut i64 as *mut c_void,
                ];
                launch(
                    &self.device,
                    f as cu::CUfunction,
                    items as u64,
                    stream,
                    &mut params,
                )?;
                continue;
            };
            let tiles = if pass.single {
                batch.div_ceil(1 << pass.log_groups)
            } else {
                (batch * (n >> (4 * pass.stages))) >> pass.log_groups
            };
            let grid = u32::try_from(tiles)
                .ok()
                .filter(|&g| g < 1 << 31)
                .ok_or_else(|| Error::unsupported(format!("{batch} transforms: {tiles} tiles")))?;
            let mut plog = 4 * pass.first;
            let mut params: [*mut c_void; 5] = [
                &mut x as *mut u64 as *mut c_void,
                &mut y as *mut u64 as *mut c_void,
                &mut nlog as *mut u32 as *mut c_void,
                &mut plog as *mut u32 as *mut c_void,
                &mut total as *mut i64 as *mut c_void,
            ];
            launch_grid_shared(
                f as cu::CUfunction,
                grid,
                pass.threads(),
                pass.shared_bytes() as u32,
                stream,
                &mut params,
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every chain starts at the input and ends at the output; each pass reads what the one
    /// before wrote; only the last may read and write one buffer; the input is written only in
    /// place; the work buffer is used only where it must be.
    #[test]
    fn schedules_alternate_without_overwriting_what_they_read() {
        for n in 1..=3 {
            for in_place in [false, true] {
                let chain = schedule(n, in_place);
                assert_eq!(chain.len(), n);
                assert_eq!(chain[0].0, Slot::In);
                assert_eq!(chain.last().unwrap().1, Slot::Out);
                let same =
                    |a: Slot, b: Slot| a == b || (in_place && a != Slot::Work && b != Slot::Work);
                for (s, &(from, to)) in chain.iter().enumerate() {
                    if s + 1 < n {
                        assert!(!same(from, to), "{n} passes, in place {in_place}: pass {s}");
                    }
                    assert!(to != Slot::In, "{n} passes: writes the input");
                    if s > 0 {
                        assert_eq!(from, chain[s - 1].1);
                    }
                }
                let work = chain
                    .iter()
                    .any(|&(a, b)| a == Slot::Work || b == Slot::Work);
                assert_eq!(work, n >= 3 || (in_place && n >= 2), "{n} {in_place}");
            }
        }
    }

    /// The default plans and the alternatives the timing tries are valid; a pass of one stage
    /// only as the whole transform; tiles of 4096 elements, or 2 groups of 4096.
    #[test]
    fn plans_group_every_stage_once() {
        let sh = |stages, tail| Shape { stages, tail };
        for k in 1..=6 {
            let p = passes(sh(k, 1), &default_passes(k)).unwrap();
            assert_eq!(p.iter().map(|p| p.stages).sum::<u32>(), k);
            assert!(p.len() <= 3);
            let mut first = 0;
            for q in &p {
                assert_eq!(q.first, first);
                first += q.stages;
                assert!(q.tile() == 4096 || q.tile() == 8192, "{q:?}");
                assert_eq!(q.threads() as usize * 32, q.tile());
            }
        }
        assert!(passes(sh(5, 1), &[2, 3]).is_ok() && passes(sh(6, 1), &[3, 3]).is_ok());
        assert!(passes(sh(4, 1), &[3, 1]).is_err() && passes(sh(3, 1), &[1, 1, 1]).is_err());
        assert!(passes(sh(4, 1), &[2, 1]).is_err() && passes(sh(7, 1), &[4, 3]).is_err());
        assert_eq!(passes(sh(3, 1), &[3]).unwrap()[0].log_groups, 0);
        assert_eq!(
            passes(sh(6, 1), &[3, 3]).unwrap()[1].name(),
            "fxs_pass_3_1_g"
        );
        assert_eq!(
            passes(sh(4, 1), &[2, 2]).unwrap()[0].name(),
            "fxs_pass_2_4_tf"
        );
        // With a tail no pass is the whole transform: 16^3 x 2 takes one pass of 2 groups a
        // tile; 16^2 x 8 cannot fill a tile of 16 groups of 256.
        let t = passes(sh(3, 2), &[3]).unwrap();
        assert_eq!(
            (t[0].single, t[0].log_groups, t[0].name()),
            (false, 1, "fxs_pass_3_1_gf".into())
        );
        assert!(passes(sh(2, 8), &[2]).is_err() && passes(sh(3, 4), &[2, 1]).is_err());
        for tail in [2, 4, 8] {
            for k in 3..=6 {
                let p = passes(sh(k, tail), &default_passes(k)).unwrap();
                assert!(p.iter().all(|q| !q.single), "16^{k} x {tail}");
            }
        }
    }

    /// The source carries the twin's matrix, the sign and one extern "C" entry per kind of
    /// pass.
    #[test]
    fn source_has_the_twins_matrix_and_the_passes() {
        let sh = |stages, tail| Shape { stages, tail };
        let p = passes(sh(6, 1), &[3, 3]).unwrap();
        let s = source(-1, &p, 1);
        let t = dft_parts(-1);
        assert!(s.contains(&format!("0x{:04x}", t[1][4])));
        assert!(s.contains("#define FXS_SIGN (-1)"));
        assert!(
            s.contains("extern \"C\" __global__ void __launch_bounds__(256, 3) fxs_pass_3_1_gf(")
        );
        assert!(s.contains("fxs_pass_3_1_g(") && !s.contains("cuda_fp16"));
        let q = passes(sh(4, 1), &[2, 2]).unwrap();
        assert_eq!(source(1, &q, 1).matches("extern \"C\"").count(), 2);
        assert!(source(1, &q, 1).contains("#define FXS_SIGN (1)"));
        // A tail: its entry, and the twin's radix-8 constants (exp(-2 pi i 3/8) = (-c, -c)).
        let t = source(-1, &passes(sh(5, 8), &[3, 2]).unwrap(), 8);
        assert!(t.contains("fxs_tail_8(") && t.contains("fxs_tail<8, 3>"));
        let c = twiddle(-1, 3, 8);
        assert!(t.contains(&format!(
            "{{0x{:08x}u, 0x{:08x}u}}",
            c.re.to_bits(),
            c.im.to_bits()
        )));
        assert!(!source(-1, &passes(sh(5, 1), &[3, 2]).unwrap(), 1).contains("fxs_tail_"));
    }
}
