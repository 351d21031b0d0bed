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
    // One card's cuFFT: the reference.
    {
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
    }
    cufftHandle p;
    CK(cufftCreate(&p));
    std::vector<int> gpus(g);
    for (int i = 0; i < g; ++i) gpus[i] = i;
    CK(cufftXtSetGPUs(p, g, gpus.data()));
    std::vector<size_t> work(g);
    CK(cufftMakePlan1d(p, (int) n, type, 1, work.data()));
    cudaLibXtDesc *df, *dn;
    CK(cufftXtMalloc(p, &df, CUFFT_XT_FORMAT_INPLACE));
    CK(cufftXtMalloc(p, &dn, CUFFT_XT_FORMAT_INPLACE));
    CK(cufftXtMemcpy(p, df, h.data(), CUFFT_COPY_HOST_TO_DEVICE));
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
    return true;
}

int main(int argc, char **argv) {
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
