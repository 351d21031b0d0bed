// Which LTO-callback plans the installed cuFFT makes (diagnostics for fftx's callback fusion).
// On the device: nvcc -std=c++17 lto_probe.cu -o /tmp/p -lcufft -lnvrtc -lcudart && /tmp/p
// Prints cufftResult codes (0 success, 5 CUFFT_INTERNAL_ERROR) as r1*10000 + r2*100 + r3 for
// the load callback's cufftXtSetJITCallback, the store's, and cufftMakePlanMany64.
// H100, CUDA 13.0 (cuFFT 12.0.0.61, nvJitLink 13.0.88), 2026-11-23: extern "C" callbacks fail
// every plan (5); C++ ones plan everything except a load and a store together on power-of-two
// Z2Z/C2C sizes.
#include <cstdio>
#include <string>
#include <vector>
#include <cufftXt.h>
#include <nvrtc.h>
#include <cuda_runtime.h>

static std::vector<char> lto(const std::string& src, bool dd) {
  nvrtcProgram p; nvrtcCreateProgram(&p, src.c_str(), "cb.cu", 0, 0, 0);
  std::vector<const char*> o = {"--gpu-architecture=compute_90", "--std=c++17", "-dlto", "--relocatable-device-code=true"};
  if (dd) o.push_back("-default-device");
  nvrtcResult r = nvrtcCompileProgram(p, (int)o.size(), o.data());
  if (r != NVRTC_SUCCESS) { size_t n; nvrtcGetProgramLogSize(p, &n); std::string l(n, 0); nvrtcGetProgramLog(p, &l[0]); printf("nvrtc: %s\n", l.c_str()); return {}; }
  size_t n; nvrtcGetLTOIRSize(p, &n); std::vector<char> ir(n); nvrtcGetLTOIR(p, ir.data()); nvrtcDestroyProgram(&p); return ir;
}

static int plan(const std::vector<char>& ir, const char* ld, const char* st, int ldty, int stty, cufftType ty, long long n, long long batch) {
  cufftHandle h; cufftCreate(&h);
  void* info = nullptr; cudaMalloc(&info, 64);
  int r1 = ld ? cufftXtSetJITCallback(h, ld, ir.data(), ir.size(), (cufftXtCallbackType)ldty, &info) : 0;
  int r2 = st ? cufftXtSetJITCallback(h, st, ir.data(), ir.size(), (cufftXtCallbackType)stty, &info) : 0;
  size_t work; long long nn = n;
  int r3 = cufftMakePlanMany64(h, 1, &nn, nullptr, 1, 0, nullptr, 1, 0, ty, batch, &work);
  cufftDestroy(h);
  return r1 * 10000 + r2 * 100 + r3;
}

int main() {
  cudaFree(0);
  int ver; cufftGetVersion(&ver); printf("cufft %d\n", ver);
  const char* body =
    "__device__ double2 zld(void* d, u64 off, void* info, void* s) { return ((double2*)d)[off]; }\n"
    "__device__ void zst(void* d, u64 off, double2 v, void* info, void* s) { ((double2*)d)[off] = v; }\n"
    "__device__ double dld(void* d, u64 off, void* info, void* s) { return ((double*)d)[off]; }\n"
    "__device__ void dst(void* d, u64 off, double v, void* info, void* s) { ((double*)d)[off] = v; }\n"
    "__device__ float2 cld(void* d, u64 off, void* info, void* s) { return ((float2*)d)[off]; }\n"
    "__device__ void cst(void* d, u64 off, float2 v, void* info, void* s) { ((float2*)d)[off] = v; }\n";
  std::string head = "typedef unsigned long long u64;\n";
  auto c_names = lto(head + "extern \"C\" {\n" + body + "}\n", false);
  printf("extern \"C\" names: Z2Z 60x23 ld+st %d, D2Z 40x120 ld+st %d\n",
    plan(c_names, "zld", "zst", CUFFT_CB_LD_COMPLEX_DOUBLE, CUFFT_CB_ST_COMPLEX_DOUBLE, CUFFT_Z2Z, 60, 23),
    plan(c_names, "dld", "zst", CUFFT_CB_LD_REAL_DOUBLE, CUFFT_CB_ST_COMPLEX_DOUBLE, CUFFT_D2Z, 40, 120));
  auto ir = lto(head + body, false);
  printf("C++ names:\n");
  long long ns[] = {32, 64, 128, 256, 1024, 4096, 60, 64};
  long long bs[] = {2, 2, 2, 2, 2, 2, 23, 1000};
  for (int t = 0; t < 8; t++) {
    printf("  Z2Z %lldx%lld ld+st %d  ld %d  st %d   C2C ld+st %d\n", ns[t], bs[t],
      plan(ir, "zld", "zst", CUFFT_CB_LD_COMPLEX_DOUBLE, CUFFT_CB_ST_COMPLEX_DOUBLE, CUFFT_Z2Z, ns[t], bs[t]),
      plan(ir, "zld", nullptr, CUFFT_CB_LD_COMPLEX_DOUBLE, 0, CUFFT_Z2Z, ns[t], bs[t]),
      plan(ir, nullptr, "zst", 0, CUFFT_CB_ST_COMPLEX_DOUBLE, CUFFT_Z2Z, ns[t], bs[t]),
      plan(ir, "cld", "cst", CUFFT_CB_LD_COMPLEX, CUFFT_CB_ST_COMPLEX, CUFFT_C2C, ns[t], bs[t]));
    printf("  D2Z %lldx%lld ld+st %d   Z2D ld+st %d\n", ns[t], bs[t],
      plan(ir, "dld", "zst", CUFFT_CB_LD_REAL_DOUBLE, CUFFT_CB_ST_COMPLEX_DOUBLE, CUFFT_D2Z, ns[t], bs[t]),
      plan(ir, "zld", "dst", CUFFT_CB_LD_COMPLEX_DOUBLE, CUFFT_CB_ST_REAL_DOUBLE, CUFFT_Z2D, ns[t], bs[t]));
  }
  return 0;
}
