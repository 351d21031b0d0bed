// Half-storage c2c transforms of N = 256 R points (R = 2..16) on the tensor cores: the DFT
// matrices as binary16 operands of mma.sync m16n8k16 with f32 accumulation (the seed's
// radix-16 products, Kang et al.), by decimation in frequency (n = a + R m, k = K + 256 k1):
//   step A: for each a, Z_a[K] = W_N^(a K) DFT256(x[a + R m])[K], the 256-point DFT as 16 x 16:
//           C[k1][c] = W_256^(k1 c) sum_b F16[k1][b] y[16 b + c], rounded to binary16, then
//           Y[k1 + 16 k2] = sum_c C[k1][c] F16[c][k2]; times its twiddle in f32, rounded;
//   step B: X[K + 256 k1] = sum_a F_R[k1][a] Z_a[K] (a product for R > 4, f32 butterflies for
//           R <= 4), stored straight to global memory: consecutive K are consecutive outputs.
// Each sum over 16 is one complex product of a warp (4 real mma: re re, -im im, re im, im re).
// Inside step A the first product's accumulators, times their twiddles, become the second's A
// operand in registers (the accumulator layout of m16n8 is the A layout of two k halves).
// The layout: `Lay::in(t)` / `Lay::out(t)`: the word (complex binary16) offset of transform t
// on the caller's input / output; a transform's points are consecutive words, its first 16-byte
// aligned. The CPU twin of these roundings: src/exec/cpu/tensor_half.rs. Measured variants
// (a warp a 256-point transform, decimation in time) and their times: bench/tc_probe.cu's
// history and bench/results/2026-12-06-h100-tensor-half-probe-raw.md.

typedef unsigned long long fxt_u64;

__device__ __forceinline__ unsigned fxt_pack(float lo, float hi) {
  unsigned r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}
__device__ __forceinline__ float fxt_lo(unsigned w) {
  float f;
  asm("{ .reg .f16 l, h; mov.b32 {l, h}, %1; cvt.f32.f16 %0, l; }" : "=f"(f) : "r"(w));
  return f;
}
__device__ __forceinline__ float fxt_hi(unsigned w) {
  float f;
  asm("{ .reg .f16 l, h; mov.b32 {l, h}, %1; cvt.f32.f16 %0, h; }" : "=f"(f) : "r"(w));
  return f;
}
// (re, im) words of two points -> the real parts' and the imaginary parts' pair.
__device__ __forceinline__ unsigned fxt_re(unsigned a, unsigned b) { return __byte_perm(a, b, 0x5410); }
__device__ __forceinline__ unsigned fxt_im(unsigned a, unsigned b) { return __byte_perm(a, b, 0x7632); }

__device__ __forceinline__ void fxt_mma(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// exp(SIGN 2 pi i k / n) for k in [0, n), f32.
template <int SIGN>
__device__ __forceinline__ float2 fxt_root(unsigned k, unsigned n) {
  float s, c;
  sincospif(2.0f * (float)k / (float)n, &s, &c);
  return make_float2(c, SIGN * s);
}
// The same by the fast path (|error| ~ 1e-6, below binary16's half ulp): k reduced to
// (-n/2, n/2] first.
template <int SIGN>
__device__ __forceinline__ float2 fxt_root_fast(unsigned k, unsigned n) {
  int kk = (int)k > (int)(n / 2) ? (int)k - (int)n : (int)k;
  float s, c;
  __sincosf((float)kk * (6.283185307179586f / (float)n), &s, &c);
  return make_float2(c, SIGN * s);
}

// A operand fragments (re, im, -im) of the R x R DFT matrix (R <= 16), zero outside it.
template <int R, int SIGN>
__device__ __forceinline__ void fxt_dft_a(unsigned (&re)[4], unsigned (&im)[4], unsigned (&nim)[4]) {
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int q = 0; q < 4; q++) {
    float r2[2], i2[2];
#pragma unroll
    for (int e = 0; e < 2; e++) {
      int row = g + 8 * (q & 1), col = 2 * t + 8 * (q >> 1) + e;
      float2 w = make_float2(0.f, 0.f);
      if (row < R && col < R) w = fxt_root<SIGN>((unsigned)(row * col) % R, R);
      r2[e] = w.x;
      i2[e] = w.y;
    }
    re[q] = fxt_pack(r2[0], r2[1]);
    im[q] = fxt_pack(i2[0], i2[1]);
    nim[q] = fxt_pack(-i2[0], -i2[1]);
  }
}

// Complex product accumulate: (cr, ci) += (Ar + i Ai) (Br + i Bi) for a 16 x 8 tile, A as
// (re, im, -im) fragments, B as (re, im) pairs.
__device__ __forceinline__ void fxt_cmma(float (&cr)[4], float (&ci)[4], const unsigned (&ar)[4], const unsigned (&ai)[4],
                                         const unsigned (&ani)[4], unsigned br0, unsigned br1, unsigned bi0, unsigned bi1) {
  fxt_mma(cr, ar, br0, br1);
  fxt_mma(cr, ani, bi0, bi1);
  fxt_mma(ci, ar, bi0, bi1);
  fxt_mma(ci, ai, br0, br1);
}

// Step 2 on one 256-point sub-transform: `v[j][q]` the words of y at (b, c) = (2 t + (q & 1)
// + 8 (q >> 1), 8 j + g) (B fragments, k = b, n = c; `fxt_words_256` reads them), the outputs
// Y[r] (r = k1 + 16 k2) to `store(r, re, im)` (f32). F: the 16-point DFT's fragments.
template <class Load>
__device__ __forceinline__ void fxt_words_256(unsigned (&v)[2][4], Load load) {
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int j = 0; j < 2; j++)
#pragma unroll
    for (int q = 0; q < 4; q++) v[j][q] = load(2 * t + (q & 1) + 8 * (q >> 1), 8 * j + g);
}

template <int SIGN, class Store>
__device__ __forceinline__ void fxt_256(const unsigned (&fr)[4], const unsigned (&fi)[4], const unsigned (&fni)[4],
                                        const float2 (&tw)[8], const unsigned (&v)[2][4], Store store) {
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  float cr[2][4], ci[2][4];
#pragma unroll
  for (int j = 0; j < 2; j++) {
#pragma unroll
    for (int i = 0; i < 4; i++) cr[j][i] = ci[j][i] = 0.f;
    fxt_cmma(cr[j], ci[j], fr, fi, fni, fxt_re(v[j][0], v[j][1]), fxt_re(v[j][2], v[j][3]), fxt_im(v[j][0], v[j][1]),
             fxt_im(v[j][2], v[j][3]));
  }
  // Twiddles W_256^(k1 c), k1 = g + 8 (i >> 1), c = 8 j + 2 t + (i & 1); then the A operand.
  unsigned ar[4], ai[4];
#pragma unroll
  for (int j = 0; j < 2; j++) {
    float xr[4], xi[4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
      float2 w = tw[4 * j + i];
      xr[i] = cr[j][i] * w.x - ci[j][i] * w.y;
      xi[i] = cr[j][i] * w.y + ci[j][i] * w.x;
    }
    ar[2 * j] = fxt_pack(xr[0], xr[1]);
    ar[2 * j + 1] = fxt_pack(xr[2], xr[3]);
    ai[2 * j] = fxt_pack(xi[0], xi[1]);
    ai[2 * j + 1] = fxt_pack(xi[2], xi[3]);
  }
  // (A: rows k1, k = c) x (B: F16, k = c, n = k2): B tile j = A fragments (j, j + 2) of the
  // symmetric F16.
#pragma unroll
  for (int j = 0; j < 2; j++) {
    float dr[4] = {0.f, 0.f, 0.f, 0.f}, di[4] = {0.f, 0.f, 0.f, 0.f};
    fxt_mma(dr, ar, fr[j], fr[j + 2]);
    fxt_mma(dr, ai, fni[j], fni[j + 2]);
    fxt_mma(di, ar, fi[j], fi[j + 2]);
    fxt_mma(di, ai, fr[j], fr[j + 2]);
#pragma unroll
    for (int i = 0; i < 4; i++) {
      int k1 = g + 8 * (i >> 1), k2 = 8 * j + 2 * t + (i & 1);
      store(k1 + 16 * k2, dr[i], di[i]);
    }
  }
}

// The step-2 twiddles of this lane: W_256^(k1 c) for k1 = g + 8 (i >> 1), c = 8 j + 2 t + (i & 1).
template <int SIGN>
__device__ __forceinline__ void fxt_tw256(float2 (&tw)[8]) {
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int j = 0; j < 2; j++)
#pragma unroll
    for (int i = 0; i < 4; i++) tw[4 * j + i] = fxt_root<SIGN>(((g + 8 * (i >> 1)) * (8 * j + 2 * t + (i & 1))) & 255, 256);
}

// A small DFT (R = 2, 3, 4) of x in f32, in place.
template <int R, int SIGN>
__device__ __forceinline__ void fxt_small_dft(float2 (&x)[R]) {
  if constexpr (R == 2) {
    float2 a = x[0], b = x[1];
    x[0] = make_float2(a.x + b.x, a.y + b.y);
    x[1] = make_float2(a.x - b.x, a.y - b.y);
  } else if constexpr (R == 3) {
    const float c = -0.5f, s = SIGN * 0.86602540378443865f;
    float2 a = x[0], b = x[1], d = x[2];
    float2 p = make_float2(b.x + d.x, b.y + d.y), m = make_float2(b.x - d.x, b.y - d.y);
    x[0] = make_float2(a.x + p.x, a.y + p.y);
    float2 q = make_float2(a.x + c * p.x, a.y + c * p.y);
    // x1 = q + i s m, x2 = q - i s m
    x[1] = make_float2(q.x - s * m.y, q.y + s * m.x);
    x[2] = make_float2(q.x + s * m.y, q.y - s * m.x);
  } else {
    float2 a = x[0], b = x[1], c = x[2], d = x[3];
    float2 p = make_float2(a.x + c.x, a.y + c.y), q = make_float2(a.x - c.x, a.y - c.y);
    float2 u = make_float2(b.x + d.x, b.y + d.y), v = make_float2(b.x - d.x, b.y - d.y);
    // SIGN i v
    float2 iv = make_float2(-SIGN * v.y, SIGN * v.x);
    x[0] = make_float2(p.x + u.x, p.y + u.y);
    x[2] = make_float2(p.x - u.x, p.y - u.y);
    x[1] = make_float2(q.x + iv.x, q.y + iv.y);
    x[3] = make_float2(q.x - iv.x, q.y - iv.y);
  }
}

// A block takes TPB transforms: their input is copied into shared memory with 16-byte loads
// (the next group's loaded while this one computes), region a of a transform holding x[a + R m]
// at 20 (m >> 4) + (m & 15) (step A's fragment loads meet no bank conflict), then Z_a[K] at
// fxt_zpos(K) (nor step A's stores). Regions are DSUB = 324 words apart (= 4 mod 32: step B's
// fragment loads take all 32 banks). An in-place transform is safe: a block reads its
// transforms whole before it writes them.
__device__ __forceinline__ int fxt_zpos(int k) { return k ^ (((k >> 5) & 3) << 3); }
constexpr int FXT_DSUB = 324;

template <int R, int SIGN, int TPB, int WARPS, class Lay>
__device__ void fxt_kernel(fxt_u64 batch, const fxt_u64* P) {
  static_assert(R >= 2 && R <= 16, "N = 256 R, R = 2..16");
  constexpr int N = 256 * R, DSUB = FXT_DSUB, THREADS = WARPS * 32;
  constexpr bool SCALAR = R <= 4;
  constexpr int VPT = TPB * N / 4 / THREADS;  // 16-byte vectors a thread
  static_assert(TPB * N % (4 * THREADS) == 0, "whole vectors a thread");
  extern __shared__ unsigned fxt_sm[];
  const unsigned* in = (const unsigned*)P[0];
  unsigned* out = (unsigned*)P[1];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  unsigned frr[4], fri[4], frn[4];  // F_R (step B's products, R > 4)
  if constexpr (!SCALAR) fxt_dft_a<R, SIGN>(frr, fri, frn);
  unsigned fr[4], fi[4], fni[4];  // F16
  fxt_dft_a<16, SIGN>(fr, fi, fni);
  float2 tw[8];
  fxt_tw256<SIGN>(tw);
  uint4 pre[VPT];
  auto fetch = [&](fxt_u64 first) {
#pragma unroll
    for (int v = 0; v < VPT; v++) {
      const int e = 4 * (threadIdx.x + v * THREADS), tl = e / N, n = e % N;
      if (first + tl < batch) pre[v] = *(const uint4*)(in + Lay::in(first + tl) + n);
    }
  };
  fxt_u64 first = (fxt_u64)blockIdx.x * TPB;
  const fxt_u64 step = (fxt_u64)gridDim.x * TPB;
  if (first < batch) fetch(first);
  for (; first < batch; first += step) {
#pragma unroll
    for (int v = 0; v < VPT; v++) {
      const int e = 4 * (threadIdx.x + v * THREADS), tl = e / N;
      const unsigned w4[4] = {pre[v].x, pre[v].y, pre[v].z, pre[v].w};
#pragma unroll
      for (int i = 0; i < 4; i++) {
        const int n = (e + i) % N, a = n % R, m = n / R;
        fxt_sm[(tl * R + a) * DSUB + 20 * (m >> 4) + (m & 15)] = w4[i];
      }
    }
    __syncthreads();
    if (first + step < batch) fetch(first + step);
    // Step A: item (transform tl, a) a warp, in its own region.
    for (int item = warp; item < TPB * R; item += WARPS) {
      const int a = item % R;
      unsigned* reg = fxt_sm + item * DSUB;
      unsigned v[2][4];
      fxt_words_256(v, [&](int b, int c) { return reg[20 * b + c]; });
      __syncwarp();
      fxt_256<SIGN>(fr, fi, fni, tw, v, [&](int k, float re, float im) {
        float2 z = fxt_root_fast<SIGN>((unsigned)(a * k) % N, N);
        reg[fxt_zpos(k)] = fxt_pack(re * z.x - im * z.y, re * z.y + im * z.x);
      });
    }
    __syncthreads();
    if constexpr (SCALAR) {
      // Step B: column (transform tl, K) a thread.
      for (int i = threadIdx.x; i < TPB * 256; i += THREADS) {
        const int tl = i >> 8, k = i & 255;
        if (first + tl >= batch) continue;
        float2 x[R];
#pragma unroll
        for (int a = 0; a < R; a++) {
          unsigned w = fxt_sm[(tl * R + a) * DSUB + fxt_zpos(k)];
          x[a] = make_float2(fxt_lo(w), fxt_hi(w));
        }
        fxt_small_dft<R, SIGN>(x);
        unsigned* o = out + Lay::out(first + tl) + k;
#pragma unroll
        for (int k1 = 0; k1 < R; k1++) o[256 * k1] = fxt_pack(x[k1].x, x[k1].y);
      }
    } else {
      // Step B: item (transform tl, chunk w of 16 columns K) a warp; B = Z (k = a, n = K).
      for (int item = warp; item < TPB * 16; item += WARPS) {
        const int tl = item >> 4, w = item & 15;
        if (first + tl >= batch) continue;
        const unsigned* z = fxt_sm + tl * R * DSUB;
        unsigned* o = out + Lay::out(first + tl);
#pragma unroll
        for (int j = 0; j < 2; j++) {
          unsigned v[4];
#pragma unroll
          for (int q = 0; q < 4; q++) {
            const int a = 2 * t + (q & 1) + 8 * (q >> 1);
            v[q] = a < R ? z[a * DSUB + fxt_zpos(16 * w + 8 * j + g)] : 0u;
          }
          float cr[4] = {0.f, 0.f, 0.f, 0.f}, ci[4] = {0.f, 0.f, 0.f, 0.f};
          fxt_cmma(cr, ci, frr, fri, frn, fxt_re(v[0], v[1]), fxt_re(v[2], v[3]), fxt_im(v[0], v[1]),
                   fxt_im(v[2], v[3]));
#pragma unroll
          for (int h = 0; h < 2; h++) {
            const int k1 = g + 8 * h;
            if (k1 < R)
              *(uint2*)(o + 16 * w + 8 * j + 2 * t + 256 * k1) =
                  make_uint2(fxt_pack(cr[2 * h], ci[2 * h]), fxt_pack(cr[2 * h + 1], ci[2 * h + 1]));
          }
        }
      }
    }
    __syncthreads();
  }
}
