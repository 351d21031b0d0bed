// Half-storage c2c transforms of N = 256 R points (R = 1..16 or 32) on tensor cores: the
// DFT matrices as fp16 operands of mma.sync m16n8k16 with f32 accumulation (Kang et al., the
// seed's radix-16 products). One transform is
//   step 1 (R > 1): y_a'[m] = W_N^(a' m) sum_a F_R[a'][a] x[256 a + m]   (m = 0..255)
//   step 2: for each a', the 256-point DFT of y_a' as 16 x 16: Y[k1 + 16 k2] =
//           sum_c F16[c][k2] W_256^(c k1) sum_b F16[k1][b] y[16 b + c],  X[a' + R (k1 + 16 k2)] = Y.
// Each sum over 16 is one complex matrix product of a warp (4 real mma: re re, -im im, re im,
// im re). Between the steps the values are rounded to binary16 (shared memory); inside step 2
// the first product's accumulators, times their twiddles, become the second's A operand in
// registers (the accumulator layout of m16n8 is the A layout of two k halves).
// The layout: `Lay::in(t)` / `Lay::out(t)`: the word (complex binary16) offset of transform t
// on the caller's input / output; a transform's points are consecutive words.
// The CPU twin of these roundings is src/exec/cuda/tensor_half.rs's `twin`.

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

// A operand fragments (re, im, -im) of the R x R DFT matrix's tile (mt, kt), zero outside.
template <int R, int SIGN>
__device__ __forceinline__ void fxt_dft_a(unsigned (&re)[4], unsigned (&im)[4], unsigned (&nim)[4], int mt, int kt) {
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int q = 0; q < 4; q++) {
    float r2[2], i2[2];
#pragma unroll
    for (int e = 0; e < 2; e++) {
      int row = 16 * mt + g + 8 * (q & 1), col = 16 * kt + 2 * t + 8 * (q >> 1) + e;
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

// Shared memory per transform: step 1's output (R sub-transforms of 328 words: rows of 20
// words so that step 2's fragment loads and step 1's pair stores meet no bank conflict) and
// the output staging (256 rows of P2 = R | 1 words and 8 words every 32 rows, so that step
// 2's stores meet none).
template <int R>
struct FxtShape {
  static constexpr int SUB = 328;
  static constexpr int P2 = R | 1;
  static constexpr int STAGE = P2 * 256 + 64;
  static constexpr int WORDS = R > 1 ? R * SUB + STAGE : 0;
};

template <int R>
__device__ __forceinline__ int fxt_stage_addr(int r, int a) {
  return FxtShape<R>::P2 * r + a + 8 * (r >> 5);
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

// N = 256: a warp a transform, straight from and to global memory; the next transform's
// words are loaded while this one is computed.
template <int SIGN, class Lay>
__device__ void fxt_kernel_256(fxt_u64 batch, const fxt_u64* P) {
  const unsigned* in = (const unsigned*)P[0];
  unsigned* out = (unsigned*)P[1];
  unsigned fr[4], fi[4], fni[4];
  fxt_dft_a<16, SIGN>(fr, fi, fni, 0, 0);
  float2 tw[8];
  fxt_tw256<SIGN>(tw);
  const fxt_u64 warps = (fxt_u64)gridDim.x * (blockDim.x >> 5);
  fxt_u64 tr = (fxt_u64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  unsigned v[2][4];
  auto fetch = [&](fxt_u64 tr) {
    if (tr < batch) {
      const unsigned* x = in + Lay::in(tr);
      fxt_words_256(v, [&](int b, int c) { return __ldg(x + 16 * b + c); });
    }
  };
  fetch(tr);
  for (; tr < batch; tr += warps) {
    unsigned cur[2][4];
#pragma unroll
    for (int j = 0; j < 2; j++)
#pragma unroll
      for (int q = 0; q < 4; q++) cur[j][q] = v[j][q];
    fetch(tr + warps);
    unsigned* y = out + Lay::out(tr);
    fxt_256<SIGN>(fr, fi, fni, tw, cur, [&](int r, float re, float im) { y[r] = fxt_pack(re, im); });
  }
}

// The same with two transforms' words in flight a warp.
template <int SIGN, class Lay>
__device__ void fxt_kernel_256x2(fxt_u64 batch, const fxt_u64* P) {
  const unsigned* in = (const unsigned*)P[0];
  unsigned* out = (unsigned*)P[1];
  unsigned fr[4], fi[4], fni[4];
  fxt_dft_a<16, SIGN>(fr, fi, fni, 0, 0);
  float2 tw[8];
  fxt_tw256<SIGN>(tw);
  const fxt_u64 warps = (fxt_u64)gridDim.x * (blockDim.x >> 5);
  fxt_u64 tr = (fxt_u64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  unsigned va[2][4], vb[2][4];
  auto fetch = [&](unsigned (&v)[2][4], fxt_u64 tr) {
    if (tr < batch) {
      const unsigned* x = in + Lay::in(tr);
      fxt_words_256(v, [&](int b, int c) { return __ldg(x + 16 * b + c); });
    }
  };
  fetch(va, tr);
  fetch(vb, tr + warps);
  for (; tr < batch; tr += 2 * warps) {
    unsigned cur[2][4];
#pragma unroll
    for (int j = 0; j < 2; j++)
#pragma unroll
      for (int q = 0; q < 4; q++) cur[j][q] = va[j][q];
    fetch(va, tr + 2 * warps);
    unsigned* y = out + Lay::out(tr);
    fxt_256<SIGN>(fr, fi, fni, tw, cur, [&](int r, float re, float im) { y[r] = fxt_pack(re, im); });
    if (tr + warps < batch) {
#pragma unroll
      for (int j = 0; j < 2; j++)
#pragma unroll
        for (int q = 0; q < 4; q++) cur[j][q] = vb[j][q];
      fetch(vb, tr + 3 * warps);
      unsigned* y2 = out + Lay::out(tr + warps);
      fxt_256<SIGN>(fr, fi, fni, tw, cur, [&](int r, float re, float im) { y2[r] = fxt_pack(re, im); });
    }
  }
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

// N = 256 R (R > 1): TPB transforms a block of WARPS warps. Step 1 by mma for R > 4 (item
// (transform, chunk of 16 columns) a warp), in f32 by threads for R <= 4 (a column a thread);
// the next group's input is loaded while this group's step 2 and output run.
template <int R, int SIGN, int TPB, int WARPS, class Lay, bool DIRECT = false>
__device__ void fxt_kernel(fxt_u64 batch, const fxt_u64* P) {
  constexpr int N = 256 * R, MT = (R + 15) / 16, SUB = FxtShape<R>::SUB, STAGE = FxtShape<R>::STAGE;
  constexpr bool SCALAR = R <= 4;
  constexpr int IPW = SCALAR ? 1 : TPB * 16 / WARPS;          // mma items a warp
  constexpr int CPT = SCALAR ? TPB * 256 / (WARPS * 32) : 1;  // columns a thread
  static_assert(SCALAR ? TPB * 256 % (WARPS * 32) == 0 : TPB * 16 % WARPS == 0, "items a warp");
  extern __shared__ unsigned fxt_sm[];
  unsigned* sub = fxt_sm;                    // TPB * R * SUB
  unsigned* stage = fxt_sm + TPB * R * SUB;  // TPB * STAGE
  const unsigned* in = (const unsigned*)P[0];
  unsigned* out = (unsigned*)P[1];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  unsigned f1r[MT][MT][4], f1i[MT][MT][4], f1n[MT][MT][4];
  if constexpr (!SCALAR) {
#pragma unroll
    for (int mt = 0; mt < MT; mt++)
#pragma unroll
      for (int kt = 0; kt < MT; kt++) fxt_dft_a<R, SIGN>(f1r[mt][kt], f1i[mt][kt], f1n[mt][kt], mt, kt);
  }
  unsigned fr[4], fi[4], fni[4];
  fxt_dft_a<16, SIGN>(fr, fi, fni, 0, 0);
  float2 tw[8];
  fxt_tw256<SIGN>(tw);
  // The input words of a group: mma items' B fragments, or the columns' R points.
  unsigned raw[SCALAR ? CPT : IPW][SCALAR ? R : MT][2][4];
  auto fetch = [&](fxt_u64 first) {
    if constexpr (SCALAR) {
#pragma unroll
      for (int c = 0; c < CPT; c++) {
        const int col = threadIdx.x + c * WARPS * 32, tl = col >> 8, m = col & 255;
        const bool live = first + tl < batch;
        const unsigned* x = in + (live ? Lay::in(first + tl) : 0);
#pragma unroll
        for (int a = 0; a < R; a++) raw[c][a][0][0] = live ? __ldg(x + 256 * a + m) : 0u;
      }
    } else {
#pragma unroll
      for (int ii = 0; ii < IPW; ii++) {
        const int item = warp + ii * WARPS, tl = item >> 4, w = item & 15;
        const bool live = first + tl < batch;
        const unsigned* x = in + (live ? Lay::in(first + tl) : 0);
#pragma unroll
        for (int kt = 0; kt < MT; kt++)
#pragma unroll
          for (int j = 0; j < 2; j++)
#pragma unroll
            for (int q = 0; q < 4; q++) {
              const int a = 16 * kt + 2 * t + (q & 1) + 8 * (q >> 1);
              raw[ii][kt][j][q] = (live && a < R) ? __ldg(x + 256 * a + 16 * w + 8 * j + g) : 0u;
            }
      }
    }
  };
  fxt_u64 first = (fxt_u64)blockIdx.x * TPB;
  const fxt_u64 step = (fxt_u64)gridDim.x * TPB;
  if (first < batch) fetch(first);
  for (; first < batch; first += step) {
    if constexpr (SCALAR) {
#pragma unroll
      for (int c = 0; c < CPT; c++) {
        const int col = threadIdx.x + c * WARPS * 32, tl = col >> 8, m = col & 255;
        float2 x[R];
#pragma unroll
        for (int a = 0; a < R; a++) x[a] = make_float2(fxt_lo(raw[c][a][0][0]), fxt_hi(raw[c][a][0][0]));
        fxt_small_dft<R, SIGN>(x);
#pragma unroll
        for (int a = 0; a < R; a++) {
          float2 z = fxt_root_fast<SIGN>((unsigned)(a * m) % N, N);
          sub[(tl * R + a) * SUB + 20 * (m >> 4) + (m & 15)] =
              fxt_pack(x[a].x * z.x - x[a].y * z.y, x[a].x * z.y + x[a].y * z.x);
        }
      }
    } else {
#pragma unroll
      for (int ii = 0; ii < IPW; ii++) {
        const int item = warp + ii * WARPS, tl = item >> 4, w = item & 15;
        float cr[MT][2][4], ci[MT][2][4];
#pragma unroll
        for (int mt = 0; mt < MT; mt++)
#pragma unroll
          for (int j = 0; j < 2; j++)
#pragma unroll
            for (int i = 0; i < 4; i++) cr[mt][j][i] = ci[mt][j][i] = 0.f;
#pragma unroll
        for (int kt = 0; kt < MT; kt++)
#pragma unroll
          for (int j = 0; j < 2; j++) {
            const unsigned* v = raw[ii][kt][j];
            unsigned br0 = fxt_re(v[0], v[1]), br1 = fxt_re(v[2], v[3]);
            unsigned bi0 = fxt_im(v[0], v[1]), bi1 = fxt_im(v[2], v[3]);
#pragma unroll
            for (int mt = 0; mt < MT; mt++)
              fxt_cmma(cr[mt][j], ci[mt][j], f1r[mt][kt], f1i[mt][kt], f1n[mt][kt], br0, br1, bi0, bi1);
          }
#pragma unroll
        for (int mt = 0; mt < MT; mt++)
#pragma unroll
          for (int j = 0; j < 2; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
              const int a = 16 * mt + g + 8 * h;
              if (a < R) {
                unsigned pair[2];
#pragma unroll
                for (int e = 0; e < 2; e++) {
                  const int m = 16 * w + 8 * j + 2 * t + e;
                  float2 z = fxt_root_fast<SIGN>((unsigned)(a * m) % N, N);
                  float xr = cr[mt][j][2 * h + e], xi = ci[mt][j][2 * h + e];
                  pair[e] = fxt_pack(xr * z.x - xi * z.y, xr * z.y + xi * z.x);
                }
                *(uint2*)(sub + (tl * R + a) * SUB + 20 * w + 8 * j + 2 * t) = make_uint2(pair[0], pair[1]);
              }
            }
      }
    }
    if (first + step < batch) fetch(first + step);
    __syncthreads();
    // Step 2: item (transform tl, sub-transform a).
    for (int item = warp; item < TPB * R; item += WARPS) {
      const int tl = item / R, a = item % R;
      const unsigned* y = sub + item * SUB;
      unsigned* st = stage + tl * STAGE;
      unsigned v[2][4];
      fxt_words_256(v, [&](int b, int c) { return y[20 * b + c]; });
      if constexpr (DIRECT) {
        if (first + tl < batch) {
          unsigned* o = out + Lay::out(first + tl) + a;
          fxt_256<SIGN>(fr, fi, fni, tw, v, [&](int r, float re, float im) { o[R * r] = fxt_pack(re, im); });
        }
      } else {
        fxt_256<SIGN>(fr, fi, fni, tw, v, [&](int r, float re, float im) { st[fxt_stage_addr<R>(r, a)] = fxt_pack(re, im); });
      }
    }
    if constexpr (DIRECT) {
      __syncthreads();
      continue;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < TPB * N; i += WARPS * 32) {
      const int tl = i / N, k = i % N;
      if (first + tl < batch) out[Lay::out(first + tl) + k] = stage[tl * STAGE + fxt_stage_addr<R>(k / R, k % R)];
    }
    __syncthreads();
  }
}

// N = 256 R (R > 1) by decimation in frequency: n = a + R m, k = K + 256 k1:
//   step A: for each a, Z_a[K] = W_N^(a K) DFT256(x[a + R m])[K] (the 256-point products, the
//           twiddle in f32, rounded to binary16);
//   step B: X[K + 256 k1] = sum_a F_R[k1][a] Z_a[K] (mma for R > 4, f32 butterflies for R <= 4),
//           stored straight to global memory: consecutive K are consecutive outputs.
// A block takes TPB transforms: their input is copied into shared memory with 16-byte loads
// (the next group's loaded while this one computes), region a of a transform holding x[a + R m]
// at 20 (m >> 4) + (m & 15) (step A's fragment loads), then Z_a[K] at fxt_zpos(K) (step A's
// stores and step B's loads). Regions are DSUB = 324 words apart (= 4 mod 32: step B's
// fragment loads take 32 banks).
__device__ __forceinline__ int fxt_zpos(int k) { return k ^ (((k >> 5) & 3) << 3); }

template <int R, int SIGN, int TPB, int WARPS, class Lay>
__device__ void fxt_kernel_dif(fxt_u64 batch, const fxt_u64* P) {
  constexpr int N = 256 * R, MT = (R + 15) / 16, DSUB = 324;
  constexpr bool SCALAR = R <= 4;
  constexpr int THREADS = WARPS * 32;
  constexpr int VPT = TPB * N / 4 / THREADS;  // 16-byte vectors a thread
  static_assert(TPB * N % (4 * THREADS) == 0, "whole vectors a thread");
  extern __shared__ unsigned fxt_sm[];
  const unsigned* in = (const unsigned*)P[0];
  unsigned* out = (unsigned*)P[1];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  unsigned f1r[MT][MT][4], f1i[MT][MT][4], f1n[MT][MT][4];
  if constexpr (!SCALAR) {
#pragma unroll
    for (int mt = 0; mt < MT; mt++)
#pragma unroll
      for (int kt = 0; kt < MT; kt++) fxt_dft_a<R, SIGN>(f1r[mt][kt], f1i[mt][kt], f1n[mt][kt], mt, kt);
  }
  unsigned fr[4], fi[4], fni[4];
  fxt_dft_a<16, SIGN>(fr, fi, fni, 0, 0);
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
    // Step A: item (transform tl, a).
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
    // Step B.
    if constexpr (SCALAR) {
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
      // Item (transform tl, chunk w of 16 columns K).
      for (int item = warp; item < TPB * 16; item += WARPS) {
        const int tl = item >> 4, w = item & 15;
        if (first + tl >= batch) continue;
        const unsigned* z = fxt_sm + tl * R * DSUB;
        float cr[MT][2][4], ci[MT][2][4];
#pragma unroll
        for (int mt = 0; mt < MT; mt++)
#pragma unroll
          for (int j = 0; j < 2; j++)
#pragma unroll
            for (int i = 0; i < 4; i++) cr[mt][j][i] = ci[mt][j][i] = 0.f;
#pragma unroll
        for (int kt = 0; kt < MT; kt++)
#pragma unroll
          for (int j = 0; j < 2; j++) {
            unsigned v[4];
#pragma unroll
            for (int q = 0; q < 4; q++) {
              const int a = 16 * kt + 2 * t + (q & 1) + 8 * (q >> 1);
              v[q] = a < R ? z[a * DSUB + fxt_zpos(16 * w + 8 * j + g)] : 0u;
            }
            unsigned br0 = fxt_re(v[0], v[1]), br1 = fxt_re(v[2], v[3]);
            unsigned bi0 = fxt_im(v[0], v[1]), bi1 = fxt_im(v[2], v[3]);
#pragma unroll
            for (int mt = 0; mt < MT; mt++)
              fxt_cmma(cr[mt][j], ci[mt][j], f1r[mt][kt], f1i[mt][kt], f1n[mt][kt], br0, br1, bi0, bi1);
          }
        unsigned* o = out + Lay::out(first + tl);
#pragma unroll
        for (int mt = 0; mt < MT; mt++)
#pragma unroll
          for (int j = 0; j < 2; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
              const int k1 = 16 * mt + g + 8 * h;
              if (k1 < R)
                *(uint2*)(o + 16 * w + 8 * j + 2 * t + 256 * k1) =
                    make_uint2(fxt_pack(cr[mt][j][2 * h], ci[mt][j][2 * h]),
                               fxt_pack(cr[mt][j][2 * h + 1], ci[mt][j][2 * h + 1]));
            }
      }
    }
    __syncthreads();
  }
  (void)lane;
}
