// Half-storage FFTs (fftxh_) on the GPU against cuFFT fp16 (cufftXtMakePlanMany, CUDA_C_16F:
// powers of two only) and cuFFT fp32 on the same data, device arrays.
// Build and run on the device machine: bash bench/half.sh (nvcc, .device-tc/lib/libfftx.so).
//
// Each case: batched c2c of shape n (rank 1-3), forward, out of place, random binary16 input in
// (-1, 1). Error: relative L2 of the binary16 output (widened) against cuFFT Z2Z (f64) of the
// same binary16 values. Time: median of timed runs (cudaEvent around each execute), ms.
// Output: one markdown table row per case on stdout.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <fftx.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)
#define CF(x)                                                          \
  do {                                                                 \
    cufftResult r_ = (x);                                              \
    if (r_ != CUFFT_SUCCESS) {                                         \
      fprintf(stderr, "%s:%d %s: cufft %d\n", __FILE__, __LINE__, #x, (int)r_); \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

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
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return t[t.size() / 2];
}

static double rel_err(const std::vector<double>& got, const std::vector<double>& want) {
  double e = 0, w = 0;
  for (size_t i = 0; i < got.size(); i++) {
    double d = got[i] - want[i];
    e += d * d;
    w += want[i] * want[i];
  }
  return std::sqrt(e / w);
}

static std::vector<double> widen(const std::vector<__half>& h) {
  std::vector<double> v(h.size());
  for (size_t i = 0; i < h.size(); i++) v[i] = (double)__half2float(h[i]);
  return v;
}

static bool pow2(long long n) { return n > 0 && (n & (n - 1)) == 0; }

// "768", "1024x1024": a shape as the table and HALF_CASES write it.
static std::string shape_name(const std::vector<long long>& n) {
  std::string shape;
  for (size_t d = 0; d < n.size(); d++) shape += (d ? "x" : "") + std::to_string(n[d]);
  return shape;
}

static void run_case(std::vector<long long> n, long long batch, int reps) {
  long long per = 1;
  for (auto x : n) per *= x;
  long long elems = per * batch;
  int rank = (int)n.size();
  std::string shape = shape_name(n);
  std::mt19937_64 rng(42 + elems);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<__half> hin(2 * elems);
  for (auto& v : hin) v = __float2half_rn(u(rng));
  std::vector<double> din = widen(hin);
  std::vector<float> fin(din.begin(), din.end());

  __half *dx, *dy;
  float *fx, *fy;
  double* zx;
  CK(cudaMalloc(&dx, 4 * elems));
  CK(cudaMalloc(&dy, 4 * elems));
  CK(cudaMalloc(&fx, 8 * elems));
  CK(cudaMalloc(&fy, 8 * elems));
  CK(cudaMalloc(&zx, 16 * elems));
  CK(cudaMemcpy(dx, hin.data(), 4 * elems, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(fx, fin.data(), 8 * elems, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(zx, din.data(), 16 * elems, cudaMemcpyHostToDevice));
  bool ok = true;
  std::vector<int> ni(n.begin(), n.end());

  // Reference: cuFFT Z2Z (f64) in place on the widened binary16 input.
  std::vector<double> ref(2 * elems);
  {
    cufftHandle z;
    CF(cufftPlanMany(&z, rank, ni.data(), nullptr, 1, (int)per, nullptr, 1, (int)per, CUFFT_Z2Z, (int)batch));
    CF(cufftExecZ2Z(z, (cufftDoubleComplex*)zx, (cufftDoubleComplex*)zx, CUFFT_FORWARD));
    CK(cudaMemcpy(ref.data(), zx, 16 * elems, cudaMemcpyDeviceToHost));
    cufftDestroy(z);
  }
  CK(cudaFree(zx));

  // fftxh on device arrays.
  double t_h = NAN, e_h = NAN;
  fftxh_plan p = fftxh_plan_many_dft(rank, ni.data(), (int)batch, (fftxh_complex*)dx, nullptr, 1, (int)per,
                                     (fftxh_complex*)dy, nullptr, 1, (int)per, FFTX_FORWARD, FFTX_ESTIMATE);
  std::string how = "-";
  if (p) {
    char* s = fftxh_sprint_plan(p);
    how = (s && strstr(s, "cuFFT fp16")) ? "gpu cuFFT fp16" : (s && strstr(s, "tensor-core kernel")) ? "gpu tensor-core kernel" : (s && strstr(s, "pass kernel")) ? "gpu pass kernels" : (s && strstr(s, "gather kernel")) ? "gpu gather+cuFFT f32+scatter" : (s && strstr(s, "cpu twin")) ? "cpu-twin" : "?";
    free(s);
    t_h = time_ms([&] { fftxh_execute(p); }, reps);
    std::vector<__half> out(2 * elems);
    CK(cudaMemcpy(out.data(), dy, 4 * elems, cudaMemcpyDeviceToHost));
    e_h = rel_err(widen(out), ref);
    fftxh_destroy_plan(p);
  } else {
    fprintf(stderr, "fftxh plan failed: %s\n", fftx_last_error());
  }

  // cuFFT fp16 (powers of two only).
  double t_16 = NAN, e_16 = NAN;
  bool all2 = true;
  for (auto x : n) all2 = all2 && pow2(x);
  if (all2) {
    cufftHandle h;
    size_t ws = 0;
    ok = true;
    CF(cufftCreate(&h));
    CF(cufftXtMakePlanMany(h, rank, n.data(), nullptr, 1, per, CUDA_C_16F, nullptr, 1, per, CUDA_C_16F, batch, &ws,
                           CUDA_C_16F));
    if (ok) {
      t_16 = time_ms([&] { cufftXtExec(h, dx, dy, CUFFT_FORWARD); }, reps);
      std::vector<__half> out(2 * elems);
      CK(cudaMemcpy(out.data(), dy, 4 * elems, cudaMemcpyDeviceToHost));
      e_16 = rel_err(widen(out), ref);
    }
    cufftDestroy(h);
  }

  // cuFFT fp32 on the same values.
  double t_32 = NAN, e_32 = NAN;
  {
    cufftHandle c;
    ok = true;
    CF(cufftPlanMany(&c, rank, ni.data(), nullptr, 1, (int)per, nullptr, 1, (int)per, CUFFT_C2C, (int)batch));
    if (ok) {
      t_32 = time_ms([&] { cufftExecC2C(c, (cufftComplex*)fx, (cufftComplex*)fy, CUFFT_FORWARD); }, reps);
      std::vector<float> out(2 * elems);
      CK(cudaMemcpy(out.data(), fy, 8 * elems, cudaMemcpyDeviceToHost));
      e_32 = rel_err(std::vector<double>(out.begin(), out.end()), ref);
    }
    cufftDestroy(c);
  }
  double N = (double)per;
  double bound = 1e-3 * std::log2(N);
  // Bytes fftxh moves at the least: read and write binary16 once (8 bytes a complex element).
  double gbs = t_h > 0 ? 8.0 * elems / (t_h * 1e-3) / 1e9 : NAN;
  printf("| %s | %lld | %s | %.4f | %.1f | %s | %.4f | %.4f | %.2f | %.2f | %.2e | %.2e | %.2e | %.1e | %s |\n",
         shape.c_str(), batch, how.c_str(), t_h, gbs, all2 ? "yes" : "no", t_16, t_32, t_16 / t_h, t_32 / t_h, e_h,
         e_16, e_32, bound, (e_h <= bound) ? "ok" : "MISSED");
  fflush(stdout);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(fx);
  cudaFree(fy);
}

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 20;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s\n\n", prop.name);
  printf("| shape | batch | fftxh route | fftxh ms | fftxh GB/s (8 B/elem) | pow2 | cuFFT fp16 ms | cuFFT fp32 ms | fp16/fftxh | fp32/fftxh | fftxh err | fp16 err | fp32 err | bound 1e-3 log2 N | err ok |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  // HALF_CASES (e.g. "768,1000,1024x1024"): only those shapes.
  const char* only = getenv("HALF_CASES");
  auto wanted = [&](std::vector<long long> n) {
    if (!only) return true;
    std::string list = std::string(",") + only + ",";
    return list.find("," + shape_name(n) + ",") != std::string::npos;
  };
  const long long M = 1LL << 24;  // elements per case (complex)
  std::vector<long long> ones = {256,  512, 1024, 2048, 4096,    8192, 16384, 65536,   1 << 18, 1 << 20, 768,
                                 3072, 3 << 12, 3 << 14, 3 << 18, 1000, 1000000, 3125, 15625, 390625};
  for (long long n : ones)
    if (wanted({n})) run_case({n}, std::max(1LL, M / n), reps);
  if (wanted({1024, 1024})) run_case({1024, 1024}, 16, reps);
  if (wanted({1000, 1000})) run_case({1000, 1000}, 16, reps);
  if (wanted({768, 768})) run_case({768, 768}, 16, reps);
  if (wanted({256, 256, 256})) run_case({256, 256, 256}, 1, reps);
  if (wanted({125, 125, 125})) run_case({125, 125, 125}, 8, reps);
  if (wanted({96, 96, 96})) run_case({96, 96, 96}, 16, reps);
  // A last axis over 4096 points.
  if (wanted({2048, 8192})) run_case({2048, 8192}, 1, reps);
  if (wanted({1024, 16384})) run_case({1024, 16384}, 1, reps);
  if (wanted({1000, 15625})) run_case({1000, 15625}, 1, reps);
  return 0;
}
