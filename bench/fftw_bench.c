/*
 * fftw_bench: times a fixed list of FFT problems through the FFTW3 C API.
 *
 * The same binary runs against FFTW 3.3.10, cuFFTW (LD_PRELOAD) and fftx (LD_PRELOAD /
 * LD_LIBRARY_PATH), so the three are compared on identical calls. See bench/README.md.
 *
 *   fftw_bench [--threads N] [--filter SUBSTR] [--exact NAME] [--alloc fftw|malloc|device]
 *              [--min-time SEC] [--small] [--list]
 *
 * Built with -DFFTX_BENCH_CUDA (and -lcudart -lcufft), `--alloc device` puts the arrays in
 * cudaMalloc memory, passes those device pointers to the FFTW API, and also times cuFFT called
 * directly on the same arrays (printed as alloc `cufft-direct`).
 *
 * Output, one line per problem and alloc (plus `#` comment lines):
 *   RESULT <problem> <alloc> median_ms=.. min_ms=.. reps=.. plan_ms=.. checksum=.. bytes_in=.. bytes_out=..
 *   FAIL <problem> <alloc> reason=..
 * The checksum is the sum of |out|^2 over (at most) 4096 evenly spaced output elements; every
 * library gets the same input (seeded by the problem name), so checksums should agree closely.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fftw3.h>

#ifdef FFTX_BENCH_CUDA
#include <cuda_runtime_api.h>
#include <cufft.h>
#endif

enum { K_C2C = 0, K_R2C = 1 };
enum { A_FFTW = 0, A_MALLOC = 1, A_DEVICE = 2 };
static const char *alloc_names[] = {"fftw", "malloc", "device"};

typedef struct {
    const char *name;
    int dbl;     /* 0: single precision (fftwf_), 1: double (fftw_) */
    int kind;    /* K_C2C or K_R2C (forward) */
    int rank;    /* 1..3 */
    long n[3];   /* a 1-D length above INT_MAX is planned through the guru64 interface */
    int howmany; /* contiguous batch: dist = product of n */
    int inplace; /* c2c only */
    int named_only; /* run only when --exact or --filter names it (too long for every table) */
    int huge;    /* no pristine copy (the array is half the host): every refill regenerates the
                    input, no warm-up executes */
} problem_t;

static const problem_t problems[] = {
    {"c2c_f32_1024", 0, K_C2C, 1, {1024, 0, 0}, 1, 0},
    {"c2c_f32_4096x4096", 0, K_C2C, 1, {4096, 0, 0}, 4096, 0},
    {"c2c_f32_2^26", 0, K_C2C, 1, {1 << 26, 0, 0}, 1, 0},
    {"c2c_f32_512^3", 0, K_C2C, 3, {512, 512, 512}, 1, 0},
    {"r2c_f64_256^3", 1, K_R2C, 3, {256, 256, 256}, 1, 0},
    {"c2c_f32_4096x4096_inplace", 0, K_C2C, 1, {4096, 0, 0}, 4096, 1},
    /* issue 14's budget case: 2 GiB each way, run with FFTX_GPU_MEMORY=1073741824 */
    {"c2c_f32_2^28", 0, K_C2C, 1, {1 << 28, 0, 0}, 1, 0, 1},
    /* issue 14's 4 GiB-budget cases (FFTX_GPU_MEMORY=4294967296): 8 GiB each way, and an r2c */
    {"c2c_f32_2^30", 0, K_C2C, 1, {1 << 30, 0, 0}, 1, 0, 1},
    {"c2c_f32_1024^3", 0, K_C2C, 3, {1024, 1024, 1024}, 1, 0, 1},
    {"r2c_f32_1024^3", 0, K_R2C, 3, {1024, 1024, 1024}, 1, 0, 1},
    /* issue 14's whole-host cases: 64 GiB in place (the H100 box has 80 GB of card, 128 GiB of host) */
    {"c2c_f64_2^32_inplace", 1, K_C2C, 1, {1L << 32, 0, 0}, 1, 1, 1, 1},
    {"c2c_f32_2048^3_inplace", 0, K_C2C, 3, {2048, 2048, 2048}, 1, 1, 1, 1},
    {"r2c_f32_2048^3", 0, K_R2C, 3, {2048, 2048, 2048}, 1, 0, 1, 1},
};
#define NPROBLEMS ((int)(sizeof problems / sizeof problems[0]))

#define NSAMPLE 4096
#define WARMUPS 2
#define MIN_REPS 5
#define MAX_REPS 2000000

/* ---------------------------------------------------------------- options */
static int opt_threads = 1;
static const char *opt_filter = NULL;
static const char *opt_exact = NULL;
static int opt_alloc = A_FFTW;
static double opt_min_time = 1.0;
static int opt_small = 0;
static int opt_list = 0;
static int opt_min_reps = MIN_REPS;
static unsigned opt_flags = FFTW_MEASURE; /* --estimate: FFTW_ESTIMATE */

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--threads N] [--filter SUBSTR] [--exact NAME] [--alloc fftw|malloc|device]\n"
            "          [--min-time SEC] [--min-reps K] [--estimate] [--small] [--list]\n",
            argv0);
    exit(2);
}

/* ---------------------------------------------------------------- helpers */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t hash_name(const char *s) { /* FNV-1a */
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* uniform in [-1, 1), splitmix64: element i depends on (seed, i) alone, so threads fill parts */
typedef struct {
    void *buf;
    size_t begin, end;
    int dbl;
    uint64_t seed;
} fill_part_t;

static void *fill_part(void *arg) {
    const fill_part_t *f = arg;
    size_t i;
    for (i = f->begin; i < f->end; i++) {
        uint64_t z = f->seed + (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull;
        double v;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        v = (double)(z >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
        if (f->dbl)
            ((double *)f->buf)[i] = v;
        else
            ((float *)f->buf)[i] = (float)v;
    }
    return NULL;
}

static void fill_random(void *buf, size_t nscalars, int dbl, uint64_t seed) {
    enum { MAX_FILLERS = 64 };
    pthread_t tid[MAX_FILLERS];
    fill_part_t part[MAX_FILLERS];
    int t, nt = nscalars < ((size_t)1 << 24) ? 1 : (opt_threads < MAX_FILLERS ? opt_threads : MAX_FILLERS);
    int started[MAX_FILLERS] = {0};
    for (t = 0; t < nt; t++) {
        part[t].buf = buf;
        part[t].begin = nscalars / nt * t;
        part[t].end = t + 1 == nt ? nscalars : nscalars / nt * (t + 1);
        part[t].dbl = dbl;
        part[t].seed = seed;
        started[t] = t > 0 && pthread_create(&tid[t], NULL, fill_part, &part[t]) == 0;
    }
    fill_part(&part[0]);
    for (t = 1; t < nt; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            fill_part(&part[t]);
    }
}

/* sum of |x|^2 over nsample complex elements, `step` elements apart */
static double checksum_host(const void *out, size_t nsample, size_t step, int dbl) {
    double s = 0.0;
    size_t i;
    for (i = 0; i < nsample; i++) {
        size_t k = 2 * i * step;
        double re, im;
        if (dbl) {
            re = ((const double *)out)[k];
            im = ((const double *)out)[k + 1];
        } else {
            re = ((const float *)out)[k];
            im = ((const float *)out)[k + 1];
        }
        s += re * re + im * im;
    }
    return s;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---------------------------------------------------------------- problem geometry */
typedef struct {
    problem_t p;        /* possibly shrunk by --small */
    size_t scalar;      /* 4 or 8 */
    size_t n_total;     /* elements of one transform */
    size_t in_scalars;  /* real scalars in the input (all batches) */
    size_t out_elems;   /* complex elements in the output (all batches) */
    size_t in_bytes, out_bytes;
    int in_dist, out_dist; /* per-transform distance, in elements of the array's type */
    size_t nsample, step;  /* checksum sampling */
} geom_t;

static void make_geom(const problem_t *src, geom_t *g) {
    int d;
    size_t last_out;
    memset(g, 0, sizeof *g);
    g->p = *src;
    if (opt_small) {
        for (d = 0; d < g->p.rank; d++) g->p.n[d] = g->p.n[d] / 16 > 0 ? g->p.n[d] / 16 : 1;
        g->p.howmany = g->p.howmany / 16 > 0 ? g->p.howmany / 16 : 1;
    }
    g->scalar = g->p.dbl ? 8 : 4;
    g->n_total = 1;
    for (d = 0; d < g->p.rank; d++) g->n_total *= (size_t)g->p.n[d];
    if (g->p.kind == K_C2C) {
        g->in_dist = g->out_dist = g->p.howmany > 1 ? (int)g->n_total : 0; /* used by batches only */
        g->in_scalars = 2 * g->n_total * (size_t)g->p.howmany;
        g->out_elems = g->n_total * (size_t)g->p.howmany;
    } else {
        /* sizes in size_t: r2c 2048^3 has 2^33 reals (an int distance held 33554432 bytes of
         * its output); the int distances matter to batches only */
        size_t out_one;
        last_out = (size_t)g->p.n[g->p.rank - 1] / 2 + 1;
        out_one = g->n_total / (size_t)g->p.n[g->p.rank - 1] * last_out;
        g->in_dist = g->p.howmany > 1 ? (int)g->n_total : 0;
        g->out_dist = g->p.howmany > 1 ? (int)out_one : 0;
        g->in_scalars = g->n_total * (size_t)g->p.howmany;
        g->out_elems = out_one * (size_t)g->p.howmany;
    }
    g->in_bytes = g->in_scalars * g->scalar;
    g->out_bytes = g->out_elems * 2 * g->scalar;
    g->nsample = g->out_elems < NSAMPLE ? g->out_elems : NSAMPLE;
    g->step = g->out_elems / g->nsample;
}

/* ---------------------------------------------------------------- FFTW API */
static void *make_plan(const geom_t *g, void *in, void *out, unsigned flags) {
    const problem_t *p = &g->p;
    int n[3] = {(int)p->n[0], (int)p->n[1], (int)p->n[2]};
    if (p->rank == 1 && p->howmany == 1 && p->n[0] > INT_MAX) {
        /* only the guru64 interface takes such a length (c2c only here) */
        fftw_iodim64 d = {p->n[0], 1, 1};
        if (p->kind != K_C2C) return NULL;
        return p->dbl ? (void *)fftw_plan_guru64_dft(1, &d, 0, NULL, (fftw_complex *)in, (fftw_complex *)out,
                                                      FFTW_FORWARD, flags)
                      : (void *)fftwf_plan_guru64_dft(1, &d, 0, NULL, (fftwf_complex *)in,
                                                       (fftwf_complex *)out, FFTW_FORWARD, flags);
    }
    if (!p->dbl) {
        if (p->kind == K_C2C) {
            fftwf_complex *i = (fftwf_complex *)in, *o = (fftwf_complex *)out;
            if (p->howmany > 1)
                return fftwf_plan_many_dft(p->rank, n, p->howmany, i, NULL, 1, g->in_dist, o, NULL, 1,
                                           g->out_dist, FFTW_FORWARD, flags);
            if (p->rank == 1) return fftwf_plan_dft_1d(n[0], i, o, FFTW_FORWARD, flags);
            if (p->rank == 3) return fftwf_plan_dft_3d(n[0], n[1], n[2], i, o, FFTW_FORWARD, flags);
            return fftwf_plan_dft(p->rank, n, i, o, FFTW_FORWARD, flags);
        } else {
            float *i = (float *)in;
            fftwf_complex *o = (fftwf_complex *)out;
            if (p->howmany > 1)
                return fftwf_plan_many_dft_r2c(p->rank, n, p->howmany, i, NULL, 1, g->in_dist, o, NULL, 1,
                                               g->out_dist, flags);
            if (p->rank == 1) return fftwf_plan_dft_r2c_1d(n[0], i, o, flags);
            if (p->rank == 3) return fftwf_plan_dft_r2c_3d(n[0], n[1], n[2], i, o, flags);
            return fftwf_plan_dft_r2c(p->rank, n, i, o, flags);
        }
    } else {
        if (p->kind == K_C2C) {
            fftw_complex *i = (fftw_complex *)in, *o = (fftw_complex *)out;
            if (p->howmany > 1)
                return fftw_plan_many_dft(p->rank, n, p->howmany, i, NULL, 1, g->in_dist, o, NULL, 1,
                                          g->out_dist, FFTW_FORWARD, flags);
            if (p->rank == 1) return fftw_plan_dft_1d(n[0], i, o, FFTW_FORWARD, flags);
            if (p->rank == 3) return fftw_plan_dft_3d(n[0], n[1], n[2], i, o, FFTW_FORWARD, flags);
            return fftw_plan_dft(p->rank, n, i, o, FFTW_FORWARD, flags);
        } else {
            double *i = (double *)in;
            fftw_complex *o = (fftw_complex *)out;
            if (p->howmany > 1)
                return fftw_plan_many_dft_r2c(p->rank, n, p->howmany, i, NULL, 1, g->in_dist, o, NULL, 1,
                                              g->out_dist, flags);
            if (p->rank == 1) return fftw_plan_dft_r2c_1d(n[0], i, o, flags);
            if (p->rank == 3) return fftw_plan_dft_r2c_3d(n[0], n[1], n[2], i, o, flags);
            return fftw_plan_dft_r2c(p->rank, n, i, o, flags);
        }
    }
}

static void destroy_plan(int dbl, void *plan) {
    if (dbl)
        fftw_destroy_plan((fftw_plan)plan);
    else
        fftwf_destroy_plan((fftwf_plan)plan);
}

static void *host_alloc(int alloc, int dbl, size_t bytes) {
    if (alloc == A_FFTW) return dbl ? fftw_malloc(bytes) : fftwf_malloc(bytes);
    return malloc(bytes);
}

static void host_free(int alloc, int dbl, void *p) {
    if (!p) return;
    if (alloc == A_FFTW) {
        if (dbl)
            fftw_free(p);
        else
            fftwf_free(p);
    } else {
        free(p);
    }
}

/* ---------------------------------------------------------------- CUDA error checks */
#ifdef FFTX_BENCH_CUDA
static const char *cufft_err(cufftResult r) {
    switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    default: return "CUFFT_(other)";
    }
}

/* A failed CUDA call may leave the context unusable (sticky errors), so the caller gives up
 * on the problem; the message names the call. */
#define CUDA_OK(call, pname, aname)                                                                       \
    ((cuda_rc = (call)) == cudaSuccess                                                                    \
         ? 1                                                                                              \
         : (printf("FAIL %s %s reason=cuda:%s:%s\n", pname, aname, #call, cudaGetErrorString(cuda_rc)),   \
            fflush(stdout), 0))
#define CUFFT_OK(call, pname)                                                                             \
    ((cufft_rc = (call)) == CUFFT_SUCCESS                                                                 \
         ? 1                                                                                              \
         : (printf("FAIL %s cufft-direct reason=cufft:%s:%s(%d)\n", pname, #call, cufft_err(cufft_rc),      \
                   (int)cufft_rc),                                                                        \
            fflush(stdout), 0))
static cudaError_t cuda_rc;
static cufftResult cufft_rc;
#endif

/* ---------------------------------------------------------------- run state */
typedef struct {
    const geom_t *g;
    int alloc;
    void *in, *out;     /* host or device arrays (out == in for in-place) */
    void *pristine;     /* host copy of the input */
    void *plan;         /* FFTW plan */
#ifdef FFTX_BENCH_CUDA
    cufftHandle cplan;
#endif
    const char *label;  /* alloc name printed in RESULT lines */
} run_t;

/* copy the pristine input into `in`; returns 0 on success */
static int refill(run_t *r) {
#ifdef FFTX_BENCH_CUDA
    if (r->alloc == A_DEVICE) {
        if (!CUDA_OK(cudaMemcpy(r->in, r->pristine, r->g->in_bytes, cudaMemcpyHostToDevice), r->g->p.name,
                     r->label))
            return -1;
        return 0;
    }
#endif
    if (r->g->p.huge)
        fill_random(r->in, r->g->in_scalars, r->g->p.dbl, hash_name(r->g->p.name));
    else
        memcpy(r->in, r->pristine, r->g->in_bytes);
    return 0;
}

static int exec_fftw(run_t *r) {
    if (r->g->p.dbl)
        fftw_execute((fftw_plan)r->plan);
    else
        fftwf_execute((fftwf_plan)r->plan);
#ifdef FFTX_BENCH_CUDA
    /* FFTW's execute is synchronous; the sync only guards against a library that is not */
    if (r->alloc == A_DEVICE && !CUDA_OK(cudaDeviceSynchronize(), r->g->p.name, r->label)) return -1;
#endif
    return 0;
}

#ifdef FFTX_BENCH_CUDA
static int exec_cufft(run_t *r) {
    const geom_t *g = r->g;
    cufftResult rc;
    if (g->p.kind == K_C2C)
        rc = g->p.dbl ? cufftExecZ2Z(r->cplan, (cufftDoubleComplex *)r->in, (cufftDoubleComplex *)r->out,
                                     CUFFT_FORWARD)
                      : cufftExecC2C(r->cplan, (cufftComplex *)r->in, (cufftComplex *)r->out, CUFFT_FORWARD);
    else
        rc = g->p.dbl ? cufftExecD2Z(r->cplan, (cufftDoubleReal *)r->in, (cufftDoubleComplex *)r->out)
                      : cufftExecR2C(r->cplan, (cufftReal *)r->in, (cufftComplex *)r->out);
    if (!CUFFT_OK(rc, g->p.name)) return -1;
    if (!CUDA_OK(cudaDeviceSynchronize(), g->p.name, r->label)) return -1;
    return 0;
}
#endif

static int checksum(run_t *r, double *sum) {
    const geom_t *g = r->g;
#ifdef FFTX_BENCH_CUDA
    if (r->alloc == A_DEVICE) {
        size_t el = 2 * g->scalar;
        void *h = malloc(g->nsample * el);
        if (!h) return -1;
        if (!CUDA_OK(cudaMemcpy2D(h, el, r->out, g->step * el, el, g->nsample, cudaMemcpyDeviceToHost),
                     g->p.name, r->label)) {
            free(h);
            return -1;
        }
        *sum = checksum_host(h, g->nsample, 1, g->p.dbl);
        free(h);
        return 0;
    }
#endif
    *sum = checksum_host(r->out, g->nsample, g->step, g->p.dbl);
    return 0;
}

/* warm up, then time `exec` until min-time and at least MIN_REPS; prints the RESULT line */
static int time_and_report(run_t *r, int (*exec)(run_t *), double plan_ms) {
    const geom_t *g = r->g;
    int do_refill = g->p.inplace; /* the input is overwritten by the transform */
    size_t cap = 1024, reps = 0;
    double *t = malloc(cap * sizeof *t), total = 0.0, sum = 0.0;
    int w;
    if (!t) return -1;
    for (w = 0; w < (g->p.huge ? 0 : WARMUPS); w++) {
        if ((do_refill && refill(r)) || exec(r)) goto fail;
    }
    while ((reps < opt_min_reps || total < opt_min_time) && reps < MAX_REPS) {
        double t0, t1;
        if (do_refill && refill(r)) goto fail;
        t0 = now_s();
        if (exec(r)) goto fail;
        t1 = now_s();
        if (reps == cap) {
            double *nt = realloc(t, 2 * cap * sizeof *t);
            if (!nt) goto fail;
            t = nt;
            cap *= 2;
        }
        t[reps++] = t1 - t0;
        total += t1 - t0;
    }
    if (checksum(r, &sum)) goto fail;
    qsort(t, reps, sizeof *t, cmp_double);
    printf("RESULT %s %s median_ms=%.6f min_ms=%.6f reps=%zu plan_ms=%.3f checksum=%.9e bytes_in=%zu "
           "bytes_out=%zu\n",
           g->p.name, r->label,
           1e3 * (reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2])), 1e3 * t[0], reps, plan_ms,
           sum, g->in_bytes, g->out_bytes);
    fflush(stdout);
    free(t);
    return 0;
fail:
    free(t);
    return -1;
}

/* ---------------------------------------------------------------- one problem */
static int run_problem(const problem_t *src) {
    geom_t g;
    run_t r;
    double t0, plan_ms;
    int rc = 0;
    const char *an = alloc_names[opt_alloc];

    make_geom(src, &g);
    memset(&r, 0, sizeof r);
    r.g = &g;
    r.alloc = opt_alloc;
    r.label = an;

    if (g.p.inplace && g.p.kind != K_C2C) {
        printf("FAIL %s %s reason=inplace_only_c2c\n", g.p.name, an);
        return -1;
    }

    if (g.p.huge && opt_alloc == A_DEVICE) {
        printf("FAIL %s %s reason=huge_problems_are_host_only\n", g.p.name, an);
        return -1;
    }
    if (!g.p.huge) {
        r.pristine = malloc(g.in_bytes);
        if (!r.pristine) {
            printf("FAIL %s %s reason=host_alloc\n", g.p.name, an);
            return -1;
        }
        fill_random(r.pristine, g.in_scalars, g.p.dbl, hash_name(src->name));
    }

    if (opt_alloc == A_DEVICE) {
#ifdef FFTX_BENCH_CUDA
        if (!CUDA_OK(cudaMalloc(&r.in, g.in_bytes), g.p.name, an)) {
            r.in = NULL;
            rc = -1;
            goto done;
        }
        if (g.p.inplace) {
            r.out = r.in;
        } else if (!CUDA_OK(cudaMalloc(&r.out, g.out_bytes), g.p.name, an)) {
            r.out = NULL;
            rc = -1;
            goto done;
        }
#endif
    } else {
        r.in = host_alloc(opt_alloc, g.p.dbl, g.in_bytes);
        r.out = g.p.inplace ? r.in : host_alloc(opt_alloc, g.p.dbl, g.out_bytes);
        if (!r.in || !r.out) {
            printf("FAIL %s %s reason=alloc\n", g.p.name, an);
            rc = -1;
            goto done;
        }
    }
    /* first touch outside the planning timer; MEASURE overwrites the arrays anyway */
    if (refill(&r)) {
        rc = -1;
        goto done;
    }

#ifdef FFTX_BENCH_CUDA
    /* ---- cuFFT directly on the same device arrays (first: a crash in the library under
     * test then still leaves the reference line) */
    if (opt_alloc == A_DEVICE) {
        int n[3];
        int d, ok;
        cufftType type = g.p.kind == K_C2C ? (g.p.dbl ? CUFFT_Z2Z : CUFFT_C2C) : (g.p.dbl ? CUFFT_D2Z : CUFFT_R2C);
        for (d = 0; d < g.p.rank; d++) n[d] = g.p.n[d];
        r.label = "cufft-direct";
        t0 = now_s();
        ok = CUFFT_OK(cufftPlanMany(&r.cplan, g.p.rank, n, NULL, 1, g.in_dist, NULL, 1, g.out_dist, type,
                                    g.p.howmany),
                      g.p.name) &&
             CUDA_OK(cudaDeviceSynchronize(), g.p.name, r.label);
        plan_ms = 1e3 * (now_s() - t0);
        if (ok) {
            if (refill(&r) || time_and_report(&r, exec_cufft, plan_ms)) {
                printf("FAIL %s cufft-direct reason=execute\n", g.p.name);
                fflush(stdout);
                rc = -1;
            }
            if (!CUFFT_OK(cufftDestroy(r.cplan), g.p.name)) rc = -1;
        } else {
            rc = -1;
        }
        r.label = an;
    }
#endif

    /* ---- through the FFTW API (whatever library provides it) */
    t0 = now_s();
    r.plan = make_plan(&g, r.in, r.out, opt_flags);
    plan_ms = 1e3 * (now_s() - t0);
    if (!r.plan) {
        printf("FAIL %s %s reason=plan_null plan_ms=%.3f\n", g.p.name, an, plan_ms);
        fflush(stdout);
        rc = -1;
    } else {
        if (refill(&r) || time_and_report(&r, exec_fftw, plan_ms)) {
            printf("FAIL %s %s reason=execute\n", g.p.name, an);
            fflush(stdout);
            rc = -1;
        }
        destroy_plan(g.p.dbl, r.plan);
        r.plan = NULL;
    }

done:
    if (opt_alloc == A_DEVICE) {
#ifdef FFTX_BENCH_CUDA
        if (r.out && r.out != r.in) (void)CUDA_OK(cudaFree(r.out), g.p.name, an);
        if (r.in) (void)CUDA_OK(cudaFree(r.in), g.p.name, an);
#endif
    } else {
        if (r.out && r.out != r.in) host_free(opt_alloc, g.p.dbl, r.out);
        host_free(opt_alloc, g.p.dbl, r.in);
    }
    free(r.pristine);
    fflush(stdout);
    return rc;
}

/* ---------------------------------------------------------------- main */
static const char *symbol_origin(const char *sym) {
    Dl_info info;
    void *p = dlsym(RTLD_DEFAULT, sym);
    if (p && dladdr(p, &info) && info.dli_fname) return info.dli_fname;
    return p ? "?" : "(not found)";
}

static int selected(const problem_t *p) {
    if (opt_exact && strcmp(p->name, opt_exact) != 0) return 0;
    if (opt_filter && !strstr(p->name, opt_filter)) return 0;
    return !p->named_only || opt_exact || opt_filter;
}

int main(int argc, char **argv) {
    int i, failures = 0, ran = 0;
    const char *ver;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--threads") && i + 1 < argc)
            opt_threads = atoi(argv[++i]);
        else if (!strcmp(a, "--filter") && i + 1 < argc)
            opt_filter = argv[++i];
        else if (!strcmp(a, "--exact") && i + 1 < argc)
            opt_exact = argv[++i];
        else if (!strcmp(a, "--min-time") && i + 1 < argc)
            opt_min_time = atof(argv[++i]);
        else if (!strcmp(a, "--small"))
            opt_small = 1;
        else if (!strcmp(a, "--min-reps") && i + 1 < argc)
            opt_min_reps = atoi(argv[++i]);
        else if (!strcmp(a, "--estimate"))
            opt_flags = FFTW_ESTIMATE;
        else if (!strcmp(a, "--list"))
            opt_list = 1;
        else if (!strcmp(a, "--alloc") && i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(v, "fftw"))
                opt_alloc = A_FFTW;
            else if (!strcmp(v, "malloc"))
                opt_alloc = A_MALLOC;
            else if (!strcmp(v, "device"))
                opt_alloc = A_DEVICE;
            else
                usage(argv[0]);
        } else
            usage(argv[0]);
    }
    if (opt_threads < 1) opt_threads = 1;
    if (opt_list) {
        for (i = 0; i < NPROBLEMS; i++)
            if (selected(&problems[i])) printf("%s\n", problems[i].name);
        return 0;
    }
#ifndef FFTX_BENCH_CUDA
    if (opt_alloc == A_DEVICE) {
        fprintf(stderr, "fftw_bench: --alloc device needs a build with -DFFTX_BENCH_CUDA\n");
        return 2;
    }
#endif

    /* fftw_version is data: look it up so a library without it still loads */
    ver = (const char *)dlsym(RTLD_DEFAULT, "fftw_version");
    printf("# fftw_bench threads=%d alloc=%s min_time=%g small=%d cuda=%d\n", opt_threads,
           alloc_names[opt_alloc], opt_min_time, opt_small,
#ifdef FFTX_BENCH_CUDA
           1
#else
           0
#endif
    );
    printf("# fftw_version=%s\n", ver ? ver : "(not exported)");
    printf("# fftwf_execute from %s\n", symbol_origin("fftwf_execute"));
    printf("# fftw_execute from %s\n", symbol_origin("fftw_execute"));
    fflush(stdout);

    fftw_init_threads();
    fftwf_init_threads();
    fftw_plan_with_nthreads(opt_threads);
    fftwf_plan_with_nthreads(opt_threads);
    fftw_set_timelimit(10.0);
    fftwf_set_timelimit(10.0);

    for (i = 0; i < NPROBLEMS; i++) {
        if (!selected(&problems[i])) continue;
        ran++;
        if (run_problem(&problems[i])) failures++;
    }
    if (!ran) fprintf(stderr, "fftw_bench: no problem matches the filter\n");
    return failures ? 1 : (ran ? 0 : 2);
}
