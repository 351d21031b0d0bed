// cuFFTXt's multi-GPU 1-D c2c, the second baseline of issue 15/16 beside our six-step and
// FMM-FFT (tests/fmm_bench.rs): device-resident, N = 2^k over G cards, f32 (C2C) and f64 (Z2Z).
//
//   cufftxt G "24 26 28"
//
// Per (N, precision): cufftCreate, cufftXtSetGPUs(0..G-1), cufftMakePlan1d(N, batch 1),
// cufftXtMalloc(CUFFT_XT_FORMAT_INPLACE), the input copied in once; then timed (median of 5,
// wall clock around the call and a synchronization of every card):
//   exec     cufftXtExecDescriptor (the output stays in cuFFT's shuffled multi-GPU order)
//   natural  exec plus cufftXtMemcpy DEVICE_TO_DEVICE into a second descriptor (natural order,
//            as NVIDIA's 1d_mgpu sample does; our six-step and FMM-FFT produce natural order)
// and the natural-order result against one card's cufftExec on the same input (relative L2).
// Each API call's status is printed when it fails, and the typed entry point
// (cufftXtExecDescriptorC2C/Z2Z) is tried when the generic one fails, to say which works.
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>
#include <algorithm>

static double now_ms() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

#define CK(call)                                                                                   \
    do {                                                                                           \
        cufftResult r_ = (call);                                                                   \
        if (r_ != CUFFT_SUCCESS) {                                                                 \
            printf("FAIL %s = %d\n", #call, (int) r_);                                             \
            return false;                                                                          \
        }                                                                                          \
    } while (0)

static void sync_all(int g) {
    for (int d = 0; d < g; ++d) {
        cudaSetDevice(d);
        cudaDeviceSynchronize();
    }
    cudaSetDevice(0);
}

template <typename C>
static bool run(int g, int log2n, bool dbl) {
    size_t n = (size_t) 1 << log2n;
    cufftType type = dbl ? CUFFT_Z2Z : CUFFT_C2C;
    std::vector<C> h(n), out(n), ref(n);
    for (size_t i = 0; i < n; ++i) {
        h[i].x = (float) sin(0.001 * i) + 0.25 * cos(0.37 * i);
        h[i].y = (float) cos(0.002 * i) - 0.5 * sin(0.11 * i);
    }
    // One card's cuFFT: the reference (before the multi-GPU plan, or after it with
    // CUFFTXT_REF_AFTER=1, the order of NVIDIA's 1d_mgpu_c2c sample).
    auto reference = [&]() -> bool {
        C *d;
        cufftHandle p1;
        cudaSetDevice(0);
        if (cudaMalloc(&d, n * sizeof(C)) != cudaSuccess) { printf("FAIL cudaMalloc ref\n"); return false; }
        cudaMemcpy(d, h.data(), n * sizeof(C), cudaMemcpyHostToDevice);
        CK(cufftPlan1d(&p1, (int) n, type, 1));
        if (dbl) CK(cufftExecZ2Z(p1, (cufftDoubleComplex *) d, (cufftDoubleComplex *) d, CUFFT_FORWARD));
        else CK(cufftExecC2C(p1, (cufftComplex *) d, (cufftComplex *) d, CUFFT_FORWARD));
        cudaMemcpy(ref.data(), d, n * sizeof(C), cudaMemcpyDeviceToHost);
        cufftDestroy(p1);
        cudaFree(d);
        return true;
    };
    bool ref_after = getenv("CUFFTXT_REF_AFTER") != nullptr;
    if (!ref_after && !reference()) return false;
    cufftHandle p;
    CK(cufftCreate(&p));
    // CUFFTXT_STREAM=1: a stream set on the plan before cufftXtSetGPUs, as NVIDIA's sample does
    // (since cuFFT 10.4 a multi-GPU plan may have one; without it execution is synchronous).
    cudaStream_t stream = nullptr;
    if (getenv("CUFFTXT_STREAM")) {
        cudaSetDevice(0);
        if (cudaStreamCreate(&stream) != cudaSuccess) { printf("FAIL cudaStreamCreate\n"); return false; }
        CK(cufftSetStream(p, stream));
    }
    std::vector<int> gpus(g);
    for (int i = 0; i < g; ++i) gpus[i] = i;
    CK(cufftXtSetGPUs(p, g, gpus.data()));
    std::vector<size_t> work(g);
    CK(cufftMakePlan1d(p, (int) n, type, 1, work.data()));
    cudaLibXtDesc *df, *dn;
    CK(cufftXtMalloc(p, &df, CUFFT_XT_FORMAT_INPLACE));
    CK(cufftXtMalloc(p, &dn, CUFFT_XT_FORMAT_INPLACE));
    CK(cufftXtMemcpy(p, df, h.data(), CUFFT_COPY_HOST_TO_DEVICE));
    if (ref_after && !reference()) return false;
    static int typed = 0; // 1 once the generic entry point failed
    auto exec = [&]() -> cufftResult {
        if (!typed) {
            cufftResult r = cufftXtExecDescriptor(p, df, df, CUFFT_FORWARD);
            if (r == CUFFT_SUCCESS) return r;
            printf("NOTE cufftXtExecDescriptor = %d (N=2^%d %s); trying the typed entry point\n", (int) r,
                   log2n, dbl ? "Z2Z" : "C2C");
            typed = 1;
        }
        return dbl ? cufftXtExecDescriptorZ2Z(p, df, df, CUFFT_FORWARD)
                   : cufftXtExecDescriptorC2C(p, df, df, CUFFT_FORWARD);
    };
    // Correctness: one transform, natural order, to the host.
    CK(exec());
    CK(cufftXtMemcpy(p, dn, df, CUFFT_COPY_DEVICE_TO_DEVICE));
    CK(cufftXtMemcpy(p, out.data(), dn, CUFFT_COPY_DEVICE_TO_HOST));
    sync_all(g);
    double num = 0, den = 0;
    for (size_t i = 0; i < n; ++i) {
        double a = out[i].x - ref[i].x, b = out[i].y - ref[i].y;
        num += a * a + b * b;
        den += (double) ref[i].x * ref[i].x + (double) ref[i].y * ref[i].y;
    }
    std::vector<double> te, tn;
    for (int r = 0; r < 6; ++r) {
        sync_all(g);
        double t = now_ms();
        CK(exec());
        sync_all(g);
        double t1 = now_ms();
        CK(cufftXtMemcpy(p, dn, df, CUFFT_COPY_DEVICE_TO_DEVICE));
        sync_all(g);
        double t2 = now_ms();
        if (r) { te.push_back(t1 - t); tn.push_back(t2 - t); }
    }
    std::sort(te.begin(), te.end());
    std::sort(tn.begin(), tn.end());
    printf("CUFFTXT N=2^%d %s gpus=%d exec_ms=%.3f natural_ms=%.3f err=%.2e entry=%s\n", log2n,
           dbl ? "f64" : "f32", g, te[te.size() / 2], tn[tn.size() / 2], sqrt(num / den),
           typed ? "typed" : "generic");
    cufftXtFree(df);
    cufftXtFree(dn);
    cufftDestroy(p);
    if (stream) cudaStreamDestroy(stream);
    return true;
}

// `cufftxt 3d G`: whether cuFFTXt's multi-GPU path executes at all on this CUDA, through the
// case NVIDIA's mgpu_c2c sample runs (3-D 256^3 C2C, CUFFT_XT_FORMAT_INPLACE_SHUFFLED), with a
// stream set first when CUFFTXT_STREAM is set. Prints every call's status.
static int probe_3d(int g) {
    const int n = 256;
    size_t count = (size_t) n * n * n;
    std::vector<cufftComplex> h(count);
    for (size_t i = 0; i < count; ++i) { h[i].x = (float) sin(0.001 * i); h[i].y = (float) cos(0.003 * i); }
    cufftHandle p;
    printf("3d cufftCreate = %d\n", (int) cufftCreate(&p));
    cudaStream_t stream = nullptr;
    if (getenv("CUFFTXT_STREAM")) {
        cudaStreamCreate(&stream);
        printf("3d cufftSetStream = %d\n", (int) cufftSetStream(p, stream));
    }
    std::vector<int> gpus(g);
    for (int i = 0; i < g; ++i) gpus[i] = i;
    printf("3d cufftXtSetGPUs = %d\n", (int) cufftXtSetGPUs(p, g, gpus.data()));
    std::vector<size_t> work(g);
    printf("3d cufftMakePlan3d = %d\n", (int) cufftMakePlan3d(p, n, n, n, CUFFT_C2C, work.data()));
    cudaLibXtDesc *d = nullptr;
    printf("3d cufftXtMalloc = %d\n", (int) cufftXtMalloc(p, &d, CUFFT_XT_FORMAT_INPLACE_SHUFFLED));
    printf("3d cufftXtMemcpy H2D = %d\n", (int) cufftXtMemcpy(p, d, h.data(), CUFFT_COPY_HOST_TO_DEVICE));
    printf("3d cufftXtExecDescriptor = %d\n", (int) cufftXtExecDescriptor(p, d, d, CUFFT_FORWARD));
    printf("3d cufftXtExecDescriptorC2C = %d\n", (int) cufftXtExecDescriptorC2C(p, d, d, CUFFT_FORWARD));
    printf("3d cufftXtMemcpy D2H = %d\n", (int) cufftXtMemcpy(p, h.data(), d, CUFFT_COPY_DEVICE_TO_HOST));
    cufftXtFree(d);
    cufftDestroy(p);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 2 && !strcmp(argv[1], "3d")) return probe_3d(atoi(argv[2]));
    int g = argc > 1 ? atoi(argv[1]) : 2;
    const char *sizes = argc > 2 ? argv[2] : "24 26 28";
    int count = 0;
    cudaGetDeviceCount(&count);
    int v = 0;
    cufftGetVersion(&v);
    printf("cuFFT %d, %d devices, using %d\n", v, count, g);
    char buf[256];
    strncpy(buf, sizes, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        int k = atoi(t);
        run<cufftComplex>(g, k, false);
        run<cufftDoubleComplex>(g, k, true);
    }
    return 0;
}
