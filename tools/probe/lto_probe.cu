// Probe: which LTO-callback plans does the installed cuFFT accept? (diagnostics for fftx's
// callback fusion; run on the device: nvcc lto_probe.cu -lcufft -lnvrtc -o /tmp/p && /tmp/p)
#include <cufft.h>
#include <cufftXt.h>
#include <nvrtc.h>
#include <cstdio>
#include <vector>
#include <string>

static const char* SRC = R"(
typedef unsigned long long u64;
extern "C" __device__ double2 ldz(void* d, u64 off, void* info, void* s) { return ((double2*)d)[off]; }
extern "C" __device__ void stz(void* d, u64 off, double2 e, void* info, void* s) { ((double2*)d)[off] = e; }
extern "C" __device__ float2 ldc(void* d, u64 off, void* info, void* s) { return ((float2*)d)[off]; }
)";

static std::vector<char> lto(const char* src, std::vector<const char*> opts) {
  nvrtcProgram p; nvrtcCreateProgram(&p, src, "p.cu", 0, 0, 0);
  nvrtcResult r = nvrtcCompileProgram(p, (int)opts.size(), opts.data());
  size_t n = 0; nvrtcGetProgramLogSize(p, &n); std::string log(n, 0); nvrtcGetProgramLog(p, &log[0]);
  if (r != NVRTC_SUCCESS) { printf("nvrtc failed: %s\n", log.c_str()); return {}; }
  nvrtcGetLTOIRSize(p, &n); std::vector<char> ir(n); nvrtcGetLTOIR(p, ir.data());
  nvrtcDestroyProgram(&p); return ir;
}

static void attempt(const char* what, std::vector<char>& ir, const char* sym, cufftXtCallbackType t, cufftType ty, int n, int batch, bool many64) {
  cufftHandle h; cufftCreate(&h);
  void* info = nullptr;
  cufftResult a = cufftXtSetJITCallback(h, sym, ir.data(), ir.size(), t, &info);
  size_t work = 0; cufftResult m;
  if (many64) { long long nn = n; m = cufftMakePlanMany64(h, 1, &nn, nullptr, 1, 0, nullptr, 1, 0, ty, batch, &work); }
  else m = cufftMakePlan1d(h, n, ty, batch, &work);
  printf("%-50s set=%d make=%d\n", what, (int)a, (int)m);
  cufftDestroy(h);
}

int main() {
  int v; cufftGetVersion(&v); printf("cufft version %d\n", v);
  auto a = lto(SRC, {"--gpu-architecture=compute_90", "-dlto", "--relocatable-device-code=true"});
  auto b = lto(SRC, {"--gpu-architecture=sm_90", "-dlto", "--relocatable-device-code=true"});
  auto c = lto(SRC, {"--gpu-architecture=compute_90", "-dlto"});
  auto d = lto(SRC, {"-arch=sm_90", "-dlto"});
  struct { const char* name; std::vector<char>* ir; } irs[] = {{"compute_90 dlto rdc", &a}, {"sm_90 dlto rdc", &b}, {"compute_90 dlto", &c}, {"sm_90 dlto", &d}};
  for (auto& x : irs) {
    if (x.ir->empty()) continue;
    std::string w = std::string(x.name);
    attempt((w + " Z2Z load 256x16 plan1d").c_str(), *x.ir, "ldz", CUFFT_CB_LD_COMPLEX_DOUBLE, CUFFT_Z2Z, 256, 16, false);
    attempt((w + " Z2Z load 256x16 many64").c_str(), *x.ir, "ldz", CUFFT_CB_LD_COMPLEX_DOUBLE, CUFFT_Z2Z, 256, 16, true);
    attempt((w + " Z2Z store 256x16 plan1d").c_str(), *x.ir, "stz", CUFFT_CB_ST_COMPLEX_DOUBLE, CUFFT_Z2Z, 256, 16, false);
    attempt((w + " C2C load 256x16 plan1d").c_str(), *x.ir, "ldc", CUFFT_CB_LD_COMPLEX, CUFFT_C2C, 256, 16, false);
    attempt((w + " Z2Z load 6x10 plan1d").c_str(), *x.ir, "ldz", CUFFT_CB_LD_COMPLEX_DOUBLE, CUFFT_Z2Z, 6, 10, false);
  }
  return 0;
}
