// What page-locking a caller's `malloc` array costs (issue 14): cuMemHostRegister and
// cuMemHostUnregister of N GiB that were written before (as an FFTW caller's input is), with
// and without transparent huge pages, against the time its DMA takes; and whether the device
// reads pageable memory itself (HMM), and how fast.
// Build: nvcc -O2 -arch=sm_90 bench/pin_cost.cu -o pin_cost -lcuda
// Run:   ./pin_cost [GiB ...]   (default 1 2 8)
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      printf("%s: %s\n", #x, cudaGetErrorString(e_));                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__global__ void sum_host(const float4 *p, size_t n, float *out) {
  float s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    float4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.f) *out = s;
}

static void one(size_t gib, int huge) {
  size_t bytes = gib << 30;
  char *a = (char *)aligned_alloc(2 << 20, bytes);
  if (!a) {
    printf("%zu GiB: no memory\n", gib);
    return;
  }
  if (huge) madvise(a, bytes, MADV_HUGEPAGE);
  else madvise(a, bytes, MADV_NOHUGEPAGE);
  double t0 = now_ms();
  memset(a, 1, bytes);
  double touch = now_ms() - t0;
  void *d;
  size_t chunk = bytes < ((size_t)1 << 30) ? bytes : ((size_t)1 << 30);
  CK(cudaMalloc(&d, chunk));
  // pageable copy (the driver's own staging)
  t0 = now_ms();
  for (size_t o = 0; o < bytes; o += chunk) CK(cudaMemcpy(d, a + o, chunk, cudaMemcpyHostToDevice));
  double pageable = now_ms() - t0;
  t0 = now_ms();
  CK(cudaHostRegister(a, bytes, cudaHostRegisterDefault));
  double reg = now_ms() - t0;
  t0 = now_ms();
  for (size_t o = 0; o < bytes; o += chunk) CK(cudaMemcpy(d, a + o, chunk, cudaMemcpyHostToDevice));
  double pinned = now_ms() - t0;
  t0 = now_ms();
  CK(cudaHostUnregister(a));
  double unreg = now_ms() - t0;
  // again: a second registration of the same (now faulted, already once pinned) pages
  t0 = now_ms();
  CK(cudaHostRegister(a, bytes, cudaHostRegisterDefault));
  double reg2 = now_ms() - t0;
  t0 = now_ms();
  CK(cudaHostUnregister(a));
  double unreg2 = now_ms() - t0;
  printf("%2zu GiB thp=%d: touch %.1f ms; H2D pageable %.1f ms (%.1f GB/s), pinned %.1f ms (%.1f GB/s); "
         "register %.1f ms (%.1f GB/s) unregister %.1f ms; again %.1f / %.1f ms\n",
         gib, huge, touch, pageable, bytes / pageable / 1e6, pinned, bytes / pinned / 1e6, reg,
         bytes / reg / 1e6, unreg, reg2, unreg2);
  CK(cudaFree(d));
  free(a);
  fflush(stdout);
}

int main(int argc, char **argv) {
  CK(cudaFree(0));
  int pma = 0, pmh = 0, conc = 0;
  cudaDeviceGetAttribute(&pma, cudaDevAttrPageableMemoryAccess, 0);
  cudaDeviceGetAttribute(&pmh, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0);
  cudaDeviceGetAttribute(&conc, cudaDevAttrConcurrentManagedAccess, 0);
  printf("pageableMemoryAccess %d, usesHostPageTables %d, concurrentManagedAccess %d\n", pma, pmh,
         conc);
  int n = argc > 1 ? argc - 1 : 3;
  size_t sizes[16] = {1, 2, 8};
  for (int i = 0; i < n && argc > 1; i++) sizes[i] = atoi(argv[i + 1]);
  for (int i = 0; i < n; i++) {
    one(sizes[i], 1);
    one(sizes[i], 0);
  }
  if (pma) {
    size_t bytes = (size_t)1 << 30;
    float4 *a = (float4 *)malloc(bytes);
    memset(a, 0, bytes);
    float *o;
    CK(cudaMalloc(&o, 4));
    for (int r = 0; r < 3; r++) {
      double t0 = now_ms();
      sum_host<<<1024, 256>>>(a, bytes / 16, o);
      CK(cudaDeviceSynchronize());
      double t = now_ms() - t0;
      printf("kernel reading 1 GiB of malloc memory (HMM), round %d: %.1f ms (%.1f GB/s)\n", r, t,
             bytes / t / 1e6);
    }
  }
  return 0;
}
