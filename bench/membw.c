// Host memory copy bandwidth with N threads (glibc memcpy: non-temporal stores for large
// copies), alone and while a DMA loop runs (pinned H2D and D2H, 256 MiB each, two streams).
//   gcc -O2 -I/usr/local/cuda/include bench/membw.c -o membw -L/usr/local/cuda/lib64 -lcudart -lpthread
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime_api.h>
static size_t BYTES = (size_t)1 << 30;
static char *src, *dst;
static int nthreads;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static void *worker(void *arg) {
  long k = (long)arg; size_t per = BYTES / nthreads;
  for (int rep = 0; rep < 3; rep++) memcpy(dst + k * per, src + k * per, per);
  return NULL;
}
static double run(int n) {
  nthreads = n; pthread_t th[64]; double t0 = now();
  for (long k = 0; k < n; k++) pthread_create(&th[k], NULL, worker, (void *)k);
  for (int k = 0; k < n; k++) pthread_join(th[k], NULL);
  return 3.0 * BYTES / (now() - t0) / 1e9;
}
static volatile int dma_on = 0;
static size_t b = (size_t)256 << 20;
static void *h1, *h2, *d1, *d2;
static cudaStream_t s1, s2;
static void *dma(void *arg) {
  (void)arg;
  long moved = 0; double t0 = now();
  while (dma_on) {
    cudaMemcpyAsync(d1, h1, b, cudaMemcpyHostToDevice, s1);
    cudaMemcpyAsync(h2, d2, b, cudaMemcpyDeviceToHost, s2);
    cudaStreamSynchronize(s1); cudaStreamSynchronize(s2); moved += 2 * b;
  }
  printf("  dma both ways during the copies: %.1f GB/s\n", moved / (now() - t0) / 1e9);
  return NULL;
}
int main(void) {
  src = malloc(BYTES); dst = malloc(BYTES); memset(src, 3, BYTES); memset(dst, 0, BYTES);
  int ns[] = {1, 2, 4, 8, 14, 16};
  for (int i = 0; i < 6; i++) printf("copy threads %2d: %.1f GB/s copied (x2 host traffic)\n", ns[i], run(ns[i]));
  cudaMallocHost(&h1, b); cudaMallocHost(&h2, b); cudaMalloc(&d1, b); cudaMalloc(&d2, b);
  memset(h1, 1, b); memset(h2, 1, b);
  cudaStreamCreate(&s1); cudaStreamCreate(&s2);
  for (int i = 3; i < 6; i++) {
    pthread_t d; dma_on = 1; pthread_create(&d, NULL, dma, NULL);
    struct timespec w = {0, 200000000}; nanosleep(&w, NULL);
    double g = run(ns[i]); dma_on = 0; pthread_join(d, NULL);
    printf("copy threads %2d with DMAs: %.1f GB/s copied\n", ns[i], g);
  }
  return 0;
}
