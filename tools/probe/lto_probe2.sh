#!/usr/bin/env bash
# Second LTO-callback probe: an nvcc-made LTO fatbin, and what cuFFT loads while planning.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
cd "$(dirname "$0")"
cat > /tmp/cb.cu <<'CB'
typedef unsigned long long u64;
extern "C" __device__ double2 ldz(void* d, u64 off, void* info, void* s) { return ((double2*)d)[off]; }
CB
nvcc -gencode=arch=compute_90,code=lto_90 -rdc=true -fatbin /tmp/cb.cu -o /tmp/cb.fatbin 2>&1 | tail -3
ls -la /tmp/cb.fatbin
cat > /tmp/p2.cu <<'P2'
#include <cufft.h>
#include <cufftXt.h>
#include <cstdio>
#include <vector>
int main() {
  FILE* f = fopen("/tmp/cb.fatbin", "rb"); std::vector<char> b(1 << 20); size_t n = fread(b.data(), 1, b.size(), f); fclose(f);
  cufftHandle h; cufftCreate(&h); void* info = nullptr;
  cufftResult a = cufftXtSetJITCallback(h, "ldz", b.data(), n, CUFFT_CB_LD_COMPLEX_DOUBLE, &info);
  size_t work = 0; cufftResult m = cufftMakePlan1d(h, 256, CUFFT_Z2Z, 16, &work);
  printf("fatbin (%zu bytes): set=%d make=%d\n", n, (int)a, (int)m);
  return 0;
}
P2
nvcc /tmp/p2.cu -lcufft -o /tmp/p2 && LD_DEBUG=libs /tmp/p2 2>&1 | grep -E "fatbin|calling init|find library=|JitLink|nvrtc" | grep -v "search path" | head -30
ldd /usr/local/cuda/lib64/libcufft.so.12 | head
nvidia-smi --query-gpu=driver_version --format=csv,noheader
