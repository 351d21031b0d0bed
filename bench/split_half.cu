// Split-half fp32 FFT on tensor cores: an experiment for issue 17 (ported into fftwf_ plans: src/exec/cuda/split_half.rs).
// First run on an H100 2026-11-26 (bench/results/2026-11-26-h100-split-half.md): errors
// 1.9e-7 - 3.5e-7 (cuFFT fp32: 1.8e-7 - 3.1e-7), speed 0.17x - 0.26x cuFFT fp32 (one pass over
// memory per radix-16 stage). Its arithmetic and Stockham indexing are also emulated on the CPU
// by bench/split_half_emulate.cpp (errors 1.2e-7 - 2.0e-7 for N = 2^8 ... 2^20).
// Batched 1-D c2c FFTs of N = 16^K points in f32, as K radix-16 Stockham stages, each stage one
// kernel whose 16-point DFTs are 16x16 complex matrix products on tensor cores
// (mma.sync.m16n8k16, f16 inputs, f32 accumulation). Every operand is split as in the seed's
// Algorithm 1: a column of 16 twiddled inputs x with scale s (a power of two >= max |x|) is
// x/s = hi + lo/2048 (hi, lo binary16), the DFT matrix F = Fhi + Flo/2048; the product keeps
// Fhi.hi + (Fhi.lo + Flo.hi)/2048 (12 real mma per 8 columns), combined and rescaled in f32.
// Twiddles in f32 (sincospif). Compared with cuFFT C2C f32 on the same data (time) and cuFFT
// Z2Z (error: relative L2).
// Build and run on the device: nvcc -O3 -std=c++17 -arch=sm_90 bench/split_half.cu -lcufft
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#define CK(x)                                                                           \
  do {                                                                                  \
    cudaError_t e_ = (x);                                                               \
    if (e_ != cudaSuccess) {                                                            \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

__device__ __forceinline__ uint32_t pack(__half a, __half b) {
  return (uint32_t)__half_as_ushort(a) | ((uint32_t)__half_as_ushort(b) << 16);
}

__device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// The A fragment (16x16 row-major) of matrix M(q, r) for this lane: rows g, g+8; columns
// 2t, 2t+1, 2t+8, 2t+9 (g = lane / 4, t = lane % 4), of the part `which` of F:
// 0: Fr hi, 1: Fi hi, 2: -Fi hi, 3: Fr lo, 4: Fi lo, 5: -Fi lo.
__device__ void fragment_f(uint32_t (&a)[4], int which, int sign, int lane) {
  const int g = lane >> 2, t = lane & 3;
  auto part = [&](int q, int r) -> __half {
    float s, c;
    sincospif(2.0f * sign * (float)((q * r) % 16) / 16.0f, &s, &c);
    float v = (which % 3 == 0) ? c : (which % 3 == 1 ? s : -s);
    __half hi = __float2half_rn(v);
    if (which < 3) return hi;
    return __float2half_rn((v - __half2float(hi)) * 2048.0f);
  };
  a[0] = pack(part(g, 2 * t), part(g, 2 * t + 1));
  a[1] = pack(part(g + 8, 2 * t), part(g + 8, 2 * t + 1));
  a[2] = pack(part(g, 2 * t + 8), part(g, 2 * t + 9));
  a[3] = pack(part(g + 8, 2 * t + 8), part(g + 8, 2 * t + 9));
}

// One radix-16 Stockham stage over `batch` transforms of n points: item i (k = i % p) takes
// x[i + r n/16], twiddles by exp(sign 2 pi i r k / (16 p)), and writes its 16-point DFT to
// y[(i - k) 16 + k + q p]. A warp does 8 items (the 8 columns of the product).
__global__ void __launch_bounds__(256) stage(const float2* __restrict__ x, float2* __restrict__ y, long long n,
                                             long long p, int sign, long long items_total) {
  const int lane = threadIdx.x & 31;
  const int g = lane >> 2, t = lane & 3;
  uint32_t F[6][4];
#pragma unroll
  for (int w = 0; w < 6; w++) fragment_f(F[w], w, sign, lane);
  const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
  const long long m = n / 16;
  for (long long w0 = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); w0 * 8 < items_total;
       w0 += warps) {
    // This lane's column: item g of the warp's 8; rows 2t, 2t+1, 2t+8, 2t+9 of it.
    const long long it = w0 * 8 + g;
    const long long b = it / m, i = it % m, k = i % p;
    const float2* xb = x + b * n;
    float2 v[4];
    const int rows[4] = {2 * t, 2 * t + 1, 2 * t + 8, 2 * t + 9};
    float mx = 0.f;
#pragma unroll
    for (int e = 0; e < 4; e++) {
      const int r = rows[e];
      float2 u = xb[i + r * m];
      if (p > 1) {
        float s, c;
        sincospif(2.0f * sign * (float)((r * k) % (16 * p)) / (float)(16 * p), &s, &c);
        u = make_float2(u.x * c - u.y * s, u.x * s + u.y * c);
      }
      v[e] = u;
      mx = fmaxf(mx, fmaxf(fabsf(u.x), fabsf(u.y)));
    }
    // The column's scale: the 4 lanes of a column hold its 16 rows.
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 2));
    const float scale = mx > 0.f ? exp2f(ceilf(log2f(mx))) : 1.f;
    const float inv = 1.f / scale;
    __half rh[4], ih[4], rl[4], il[4];
#pragma unroll
    for (int e = 0; e < 4; e++) {
      const float a = v[e].x * inv, c = v[e].y * inv;
      rh[e] = __float2half_rn(a);
      ih[e] = __float2half_rn(c);
      rl[e] = __float2half_rn((a - __half2float(rh[e])) * 2048.f);
      il[e] = __float2half_rn((c - __half2float(ih[e])) * 2048.f);
    }
    // B fragments (16x8, column-major): rows 2t, 2t+1 in reg 0, rows 2t+8, 2t+9 in reg 1, column g.
    const uint32_t Xrh[2] = {pack(rh[0], rh[1]), pack(rh[2], rh[3])};
    const uint32_t Xih[2] = {pack(ih[0], ih[1]), pack(ih[2], ih[3])};
    const uint32_t Xrl[2] = {pack(rl[0], rl[1]), pack(rl[2], rl[3])};
    const uint32_t Xil[2] = {pack(il[0], il[1]), pack(il[2], il[3])};
    float r1[4] = {0, 0, 0, 0}, i1[4] = {0, 0, 0, 0}, r2[4] = {0, 0, 0, 0}, i2[4] = {0, 0, 0, 0};
    mma(r1, F[0], Xrh);
    mma(r1, F[2], Xih);
    mma(i1, F[0], Xih);
    mma(i1, F[1], Xrh);
    mma(r2, F[0], Xrl);
    mma(r2, F[2], Xil);
    mma(r2, F[3], Xrh);
    mma(r2, F[5], Xih);
    mma(i2, F[0], Xil);
    mma(i2, F[1], Xrl);
    mma(i2, F[4], Xrh);
    mma(i2, F[3], Xih);
    // D: rows (q) g and g+8, columns (items) 2t and 2t+1; their scales from those columns' lanes.
#pragma unroll
    for (int c = 0; c < 2; c++) {
      const float sc = __shfl_sync(0xffffffff, scale, 4 * (2 * t + c));
      const long long itc = w0 * 8 + 2 * t + c;
      if (itc >= items_total) continue;
      const long long bc = itc / m, ic = itc % m, kc = ic % p;
      float2* yb = y + bc * n + (ic - kc) * 16 + kc;
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int q = g + 8 * h, d = 2 * h + c;
        yb[q * p] = make_float2(sc * (r1[d] + r2[d] * (1.f / 2048.f)), sc * (i1[d] + i2[d] * (1.f / 2048.f)));
      }
    }
  }
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s\n\n", prop.name);
  printf("| N | batch | split-half TC ms | cuFFT fp32 ms | TC/cuFFT speed | TC err | cuFFT fp32 err | TC bytes moved (GB) | TC GB/s |\n");
  printf("|---|---|---|---|---|---|---|---|---|\n");
  for (int K = 3; K <= 6; K++) {
    long long n = 1LL << (4 * K);
    long long elems = 1LL << 24;
    long long batch = std::max(1LL, elems / n);
    elems = n * batch;
    std::mt19937_64 rng(7 + K);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<float> h(2 * elems);
    for (auto& v : h) v = u(rng);
    std::vector<double> hd(h.begin(), h.end());
    float2 *a, *b;
    double* z;
    CK(cudaMalloc(&a, 8 * elems));
    CK(cudaMalloc(&b, 8 * elems));
    CK(cudaMalloc(&z, 16 * elems));
    CK(cudaMemcpy(z, hd.data(), 16 * elems, cudaMemcpyHostToDevice));
    cufftHandle pz, pc;
    int ni = (int)n;
    cufftPlanMany(&pz, 1, &ni, nullptr, 1, ni, nullptr, 1, ni, CUFFT_Z2Z, (int)batch);
    cufftExecZ2Z(pz, (cufftDoubleComplex*)z, (cufftDoubleComplex*)z, CUFFT_FORWARD);
    std::vector<double> ref(2 * elems);
    CK(cudaMemcpy(ref.data(), z, 16 * elems, cudaMemcpyDeviceToHost));
    cufftDestroy(pz);
    CK(cudaFree(z));
    auto err = [&](const float2* d) {
      std::vector<float> o(2 * elems);
      CK(cudaMemcpy(o.data(), d, 8 * elems, cudaMemcpyDeviceToHost));
      double e = 0, w = 0;
      for (long long i = 0; i < 2 * elems; i++) {
        e += (o[i] - ref[i]) * (o[i] - ref[i]);
        w += ref[i] * ref[i];
      }
      return std::sqrt(e / w);
    };
    auto upload = [&]() { CK(cudaMemcpy(a, h.data(), 8 * elems, cudaMemcpyHostToDevice)); };
    // Tensor-core FFT: K stages, ping-pong a -> b -> a ...; the result is in (K odd ? b : a).
    const long long items = elems / 16;
    const int blocks = (int)std::min<long long>((items / 8 + 7) / 8, 132LL * 16);
    auto tc = [&]() {
      long long p = 1;
      for (int s = 0; s < K; s++) {
        const float2* src = (s % 2 == 0) ? a : b;
        float2* dst = (s % 2 == 0) ? b : a;
        stage<<<blocks, 256>>>(src, dst, n, p, -1, items);
        p *= 16;
      }
    };
    upload();
    tc();
    CK(cudaDeviceSynchronize());
    double e_tc = err(K % 2 ? b : a);
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    auto timeit = [&](auto f) {
      std::vector<float> ts;
      for (int r = 0; r < 20; r++) {
        cudaEventRecord(t0);
        f();
        cudaEventRecord(t1);
        cudaEventSynchronize(t1);
        float ms;
        cudaEventElapsedTime(&ms, t0, t1);
        ts.push_back(ms);
      }
      std::sort(ts.begin(), ts.end());
      return (double)ts[ts.size() / 2];
    };
    double t_tc = timeit(tc);
    upload();
    cufftPlanMany(&pc, 1, &ni, nullptr, 1, ni, nullptr, 1, ni, CUFFT_C2C, (int)batch);
    cufftExecC2C(pc, (cufftComplex*)a, (cufftComplex*)b, CUFFT_FORWARD);
    CK(cudaDeviceSynchronize());
    double e_cu = err(b);
    double t_cu = timeit([&]() { cufftExecC2C(pc, (cufftComplex*)a, (cufftComplex*)b, CUFFT_FORWARD); });
    cufftDestroy(pc);
    double bytes = 16.0 * elems * K / 1e9;
    printf("| 2^%d | %lld | %.4f | %.4f | %.2f | %.2e | %.2e | %.2f | %.0f |\n", 4 * K, batch, t_tc, t_cu, t_cu / t_tc,
           e_tc, e_cu, bytes, bytes / (t_tc * 1e-3));
    fflush(stdout);
    CK(cudaFree(a));
    CK(cudaFree(b));
  }
  return 0;
}
