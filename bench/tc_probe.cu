// Probe of the tensor-core half-storage kernel (src/exec/cuda/tensor_half.cu) in block shapes
// against cuFFT fp16 on device arrays: c2c forward, batches of 2^24 points, packed (the
// variants measured on the way, in this file's history: bench/results/2026-12-06-h100-tensor-half-probe-raw.md). Error: relative L2
// against cuFFT Z2Z of the same binary16 values. Build: nvcc -O3 -arch=sm_90 -std=c++17.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "../src/exec/cuda/tensor_half.cu"

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

template <int N>
struct Packed {
  static __device__ __forceinline__ fxt_u64 in(fxt_u64 t) { return t * N; }
  static __device__ __forceinline__ fxt_u64 out(fxt_u64 t) { return t * N; }
};

template <int R, int TPB, int WARPS, int MINB>
__global__ void __launch_bounds__(WARPS * 32, MINB) kD(fxt_u64 batch, const fxt_u64* P) {
  fxt_kernel<R, -1, TPB, WARPS, Packed<256 * R>>(batch, P);
}

template <class F>
static double time_ms(F f, int reps) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < reps; i++) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static const long long M = 1LL << 24;
static __half *dx, *dy;
static fxt_u64* table;
static std::vector<__half> hin;

static double err_vs_ref(long long n) {
  long long batch = M / n;
  std::vector<double> din(2 * M);
  for (long long i = 0; i < 2 * M; i++) din[i] = __half2float(hin[i]);
  double* zx;
  CK(cudaMalloc(&zx, 16 * M));
  CK(cudaMemcpy(zx, din.data(), 16 * M, cudaMemcpyHostToDevice));
  cufftHandle z;
  int ni = (int)n;
  cufftPlanMany(&z, 1, &ni, nullptr, 1, ni, nullptr, 1, ni, CUFFT_Z2Z, (int)batch);
  cufftExecZ2Z(z, (cufftDoubleComplex*)zx, (cufftDoubleComplex*)zx, CUFFT_FORWARD);
  std::vector<double> ref(2 * M);
  CK(cudaMemcpy(ref.data(), zx, 16 * M, cudaMemcpyDeviceToHost));
  cufftDestroy(z);
  cudaFree(zx);
  std::vector<__half> out(2 * M);
  CK(cudaMemcpy(out.data(), dy, 4 * M, cudaMemcpyDeviceToHost));
  double e = 0, w = 0;
  for (long long i = 0; i < 2 * M; i++) {
    double d = (double)__half2float(out[i]) - ref[i];
    e += d * d;
    w += ref[i] * ref[i];
  }
  return std::sqrt(e / w);
}

static double cufft16(long long n, int reps) {
  cufftHandle h;
  size_t ws;
  long long batch = M / n;
  cufftCreate(&h);
  if (cufftXtMakePlanMany(h, 1, &n, nullptr, 1, n, CUDA_C_16F, nullptr, 1, n, CUDA_C_16F, batch, &ws, CUDA_C_16F) !=
      CUFFT_SUCCESS)
    return NAN;
  double t = time_ms([&] { cufftXtExec(h, dx, dy, CUFFT_FORWARD); }, reps);
  cufftDestroy(h);
  return t;
}

template <class K>
static void run(const char* name, long long n, K kernel, int threads, int smem, int reps, double t16) {
  long long batch = M / n;
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  if (smem > 48 * 1024) CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, kernel);
  for (int blocks_mult : {1, 4}) {
    int grid = sms * per_sm * blocks_mult;
    CK(cudaMemset(dy, 0, 4 * M));
    double t = time_ms([&] { kernel<<<grid, threads, smem>>>(batch, table); }, reps);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double e = err_vs_ref(n);
    printf("| %lld | %s | %d regs | %d/SM | grid %d | %.4f | %.4f | %.2f | %.2e |\n", n, name, fa.numRegs, per_sm, grid, t,
           t16, t16 / t, e);
    fflush(stdout);
  }
}

// A configuration: R, transforms a block, warps a block, blocks an SM (launch bounds); the
// library's are src/exec/cuda/tensor_half.rs's `Shape::of`.
#define RUNV(R, TPB, W, MINB)                                                                           \
  run("R" #R " tpb" #TPB " w" #W " minb" #MINB, 256 * R, kD<R, TPB, W, MINB>, W * 32, 4 * TPB * R * FXT_DSUB, \
      reps, t16)

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 20;
  CK(cudaMalloc(&dx, 4 * M));
  CK(cudaMalloc(&dy, 4 * M));
  CK(cudaMalloc(&table, 24));
  fxt_u64 words[3] = {(fxt_u64)dx, (fxt_u64)dy, 0};
  CK(cudaMemcpy(table, words, 24, cudaMemcpyHostToDevice));
  hin.resize(2 * M);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (auto& v : hin) v = __float2half_rn(u(rng));
  CK(cudaMemcpy(dx, hin.data(), 4 * M, cudaMemcpyHostToDevice));
  printf("| n | kernel | regs | blocks/SM | grid | ms | cuFFT fp16 ms | fp16/tc | err |\n|---|---|---|---|---|---|---|---|---|\n");
  double t16;
  t16 = cufft16(512, reps);
  RUNV(2, 8, 8, 2);
  t16 = NAN;
  RUNV(3, 4, 8, 2);
  t16 = cufft16(1024, reps);
  RUNV(4, 4, 8, 2);
  t16 = cufft16(2048, reps);
  RUNV(8, 2, 8, 2);
  t16 = cufft16(4096, reps);
  RUNV(16, 1, 8, 2);
  t16 = NAN;
  RUNV(12, 1, 8, 2);
  return 0;
}
