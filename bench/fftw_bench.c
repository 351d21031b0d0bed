/* fftw_bench: times a fixed list of problems through the FFTW3 API, so that the same binary
 * measures FFTW 3.3.10, cuFFTW (LD_PRELOAD=libcufftw.so) and fftx (LD_PRELOAD=libfftx.so).
 *
 *   fftw_bench [--threads N] [--alloc fftw|malloc|device] [--filter SUBSTR] [--min-time SEC]
 *
 * One line per problem: RESULT <problem> <alloc> median_ms=.. min_ms=.. reps=.. plan_ms=..
 * checksum=..  (execute is synchronous, as FFTW defines it: the time is host array to host
 * array, or device to device with --alloc device). Built with -DFFTX_BENCH_CUDA it also takes
 * --alloc device (cudaMalloc'ed arrays) and then times cuFFT called directly on the same arrays:
 * RESULT <problem> cufft-direct ...
 */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef FFTX_BENCH_CUDA
#include <cuda_runtime.h>
#include <cufft.h>
#endif

typedef struct {
    const char *name;
    int r2c;    /* 0: c2c forward, 1: r2c */
    int dbl;    /* double precision */
    int rank;
    int n[3];
    int howmany;
    int inplace;
} problem;

static const problem PROBLEMS[] = {
    {"c2c_f32_1024", 0, 0, 1, {1024}, 1, 0},
    {"c2c_f32_4096x4096", 0, 0, 1, {4096}, 4096, 0},
    {"c2c_f32_4096x4096_inplace", 0, 0, 1, {4096}, 4096, 1},
    {"c2c_f32_2^26", 0, 0, 1, {1 << 26}, 1, 0},
    {"c2c_f32_512^3", 0, 0, 3, {512, 512, 512}, 1, 0},
    {"r2c_f64_256^3", 1, 1, 3, {256, 256, 256}, 1, 0},
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#ifdef FFTX_BENCH_CUDA
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CF(x) do { cufftResult r_ = (x); if (r_ != CUFFT_SUCCESS) { fprintf(stderr, "%s: cufft error %d\n", #x, (int)r_); exit(1); } } while (0)
#endif

static void *alloc(const char *how, size_t bytes) {
    void *p = NULL;
    if (!strcmp(how, "fftw")) p = fftw_malloc(bytes);
    else if (!strcmp(how, "malloc")) p = malloc(bytes);
#ifdef FFTX_BENCH_CUDA
    else if (!strcmp(how, "device")) CK(cudaMalloc(&p, bytes));
#endif
    if (!p) { fprintf(stderr, "cannot allocate %zu bytes (%s)\n", bytes, how); exit(1); }
    return p;
}

static void release(const char *how, void *p) {
    if (!strcmp(how, "fftw")) fftw_free(p);
    else if (!strcmp(how, "malloc")) free(p);
#ifdef FFTX_BENCH_CUDA
    else cudaFree(p);
#endif
}

/* Random values in [-1, 1), never zeros, written to host or device memory. */
static void fill(const char *how, void *p, size_t bytes, int dbl, unsigned seed) {
    size_t n = bytes / (dbl ? 8 : 4);
    void *h = strcmp(how, "device") ? p : malloc(bytes);
    srand(seed);
    for (size_t i = 0; i < n; i++) {
        double v = 2.0 * rand() / ((double)RAND_MAX + 1.0) - 1.0;
        if (dbl) ((double *)h)[i] = v; else ((float *)h)[i] = (float)v;
    }
#ifdef FFTX_BENCH_CUDA
    if (h != p) { CK(cudaMemcpy(p, h, bytes, cudaMemcpyHostToDevice)); free(h); }
#endif
}

static double checksum(const char *how, const void *p, size_t bytes, int dbl) {
    size_t n = bytes / (dbl ? 8 : 4), step = n / 4096 + 1;
    const void *h = p;
    void *tmp = NULL;
#ifdef FFTX_BENCH_CUDA
    if (!strcmp(how, "device")) { tmp = malloc(bytes); CK(cudaMemcpy(tmp, p, bytes, cudaMemcpyDeviceToHost)); h = tmp; }
#endif
    double s = 0;
    for (size_t i = 0; i < n; i += step) {
        double v = dbl ? ((const double *)h)[i] : ((const float *)h)[i];
        s += v * v;
    }
    free(tmp);
    return s;
}

typedef void (*exec_fn)(void *);

/* Runs `exec` until min_time has passed and at least 5 times, after 2 warm-ups; prints. */
static void time_it(const char *name, const char *label, exec_fn exec, void *ctx, double plan_ms, double min_time, double sum) {
    double t[100000];
    int reps = 0;
    exec(ctx);
    exec(ctx);
    double start = now();
    while ((reps < 5 || now() - start < min_time) && reps < 100000) {
        double a = now();
        exec(ctx);
        t[reps++] = (now() - a) * 1e3;
    }
    qsort(t, reps, sizeof(double), cmp);
    printf("RESULT %s %s median_ms=%.4f min_ms=%.4f reps=%d plan_ms=%.1f checksum=%.6e\n", name, label, t[reps / 2], t[0], reps, plan_ms, sum);
    fflush(stdout);
}

static void run_fftw(void *p) { fftw_execute((fftw_plan)p); }
static void run_fftwf(void *p) { fftwf_execute((fftwf_plan)p); }

#ifdef FFTX_BENCH_CUDA
typedef struct { cufftHandle h; const problem *pb; void *in, *out; } direct;
static void run_direct(void *c) {
    direct *d = (direct *)c;
    if (d->pb->r2c) CF(cufftExecD2Z(d->h, (cufftDoubleReal *)d->in, (cufftDoubleComplex *)d->out));
    else CF(cufftExecC2C(d->h, (cufftComplex *)d->in, (cufftComplex *)d->out, CUFFT_FORWARD));
    CK(cudaDeviceSynchronize());
}
#endif

int main(int argc, char **argv) {
    int threads = 1;
    const char *how = "fftw", *filter = "";
    double min_time = 1.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--alloc")) how = argv[i + 1];
        else if (!strcmp(argv[i], "--filter")) filter = argv[i + 1];
        else if (!strcmp(argv[i], "--min-time")) min_time = atof(argv[i + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    fftw_init_threads();
    fftwf_init_threads();
    fftw_plan_with_nthreads(threads);
    fftwf_plan_with_nthreads(threads);
    fftw_set_timelimit(10);
    fftwf_set_timelimit(10);
    for (size_t k = 0; k < sizeof PROBLEMS / sizeof PROBLEMS[0]; k++) {
        const problem *pb = &PROBLEMS[k];
        if (*filter && !strstr(pb->name, filter)) continue;
        size_t points = (size_t)pb->howmany, last_c = 1;
        for (int d = 0; d < pb->rank; d++) points *= (size_t)pb->n[d];
        size_t unit = pb->dbl ? 8 : 4;
        size_t in_bytes = pb->r2c ? points * unit : points * 2 * unit;
        if (pb->r2c) { last_c = points / pb->n[pb->rank - 1] * (pb->n[pb->rank - 1] / 2 + 1); }
        size_t out_bytes = pb->r2c ? last_c * 2 * unit : in_bytes;
        void *in = alloc(how, in_bytes);
        void *out = pb->inplace ? in : alloc(how, out_bytes);
        fill(how, in, in_bytes, pb->dbl, 1234 + (unsigned)k);
        double t0 = now();
        void *plan;
        exec_fn exec;
        int dist = pb->n[0];
        if (pb->dbl) {
            plan = pb->r2c ? (void *)fftw_plan_dft_r2c(pb->rank, pb->n, in, out, FFTW_MEASURE)
                           : (void *)fftw_plan_many_dft(pb->rank, pb->n, pb->howmany, in, NULL, 1, dist, out, NULL, 1, dist, FFTW_FORWARD, FFTW_MEASURE);
            exec = run_fftw;
        } else {
            plan = pb->r2c ? (void *)fftwf_plan_dft_r2c(pb->rank, pb->n, in, out, FFTW_MEASURE)
                           : (void *)fftwf_plan_many_dft(pb->rank, pb->n, pb->howmany, in, NULL, 1, dist, out, NULL, 1, dist, FFTW_FORWARD, FFTW_MEASURE);
            exec = run_fftwf;
        }
        double plan_ms = (now() - t0) * 1e3;
        if (!plan) { printf("RESULT %s %s FAILED plan\n", pb->name, how); continue; }
        /* MEASURE may have overwritten the input: fill it again. */
        fill(how, in, in_bytes, pb->dbl, 1234 + (unsigned)k);
        exec(plan);
        double sum = checksum(how, out, out_bytes, pb->dbl);
        time_it(pb->name, how, exec, plan, plan_ms, min_time, sum);
        if (pb->dbl) fftw_destroy_plan((fftw_plan)plan); else fftwf_destroy_plan((fftwf_plan)plan);
#ifdef FFTX_BENCH_CUDA
        if (!strcmp(how, "device")) {
            direct d = {0, pb, in, out};
            t0 = now();
            long long n[3];
            for (int i = 0; i < pb->rank; i++) n[i] = pb->n[i];
            size_t work;
            CF(cufftCreate(&d.h));
            CF(cufftMakePlanMany64(d.h, pb->rank, n, NULL, 1, n[0], NULL, 1, n[0], pb->r2c ? CUFFT_D2Z : CUFFT_C2C, pb->howmany, &work));
            plan_ms = (now() - t0) * 1e3;
            fill(how, in, in_bytes, pb->dbl, 1234 + (unsigned)k);
            run_direct(&d);
            sum = checksum(how, out, out_bytes, pb->dbl);
            time_it(pb->name, "cufft-direct", run_direct, &d, plan_ms, min_time, sum);
            cufftDestroy(d.h);
        }
#endif
        release(how, in);
        if (!pb->inplace) release(how, out);
    }
    return 0;
}
