/*
 * cpu_bench: fftx's CPU executor against FFTW 3.3.10, through the FFTW3 C API, in one process.
 *
 * Both libraries are loaded with dlopen(RTLD_LOCAL) (FFTW's threads libraries, which bring its
 * base libraries, and fftx's one library), so each keeps its own fftw_* symbols, and every
 * problem is timed with executes of the two libraries alternating on the same arrays: noise on a
 * shared machine hits both alike. See bench/cpu/README.md.
 *
 *   cpu_bench --fftw-dir DIR --fftx LIB [--threads N] [--min-time SEC] [--min-reps K]
 *             [--exact NAME | --filter SUBSTR] [--large] [--measure] [--list]
 *             [--fftw-malloc] [--all-cores-only] [--placement]
 *
 * For each problem and each thread count (1, and N when N > 1): plans with FFTW_ESTIMATE (and,
 * with --measure, FFTW_MEASURE for problems up to 2^22 elements) in both libraries, executes each
 * once on the same input and compares the outputs (max |fftx - fftw| / max |fftw| over up to 4096
 * sampled output scalars), then alternates timed executes (CLOCK_MONOTONIC around fftw_execute)
 * until --min-time seconds per library and at least --min-reps of each. The input is restored
 * before every execute (outside the timer) where a transform may overwrite it: in place, c2r, HC2R.
 * Output, one line per (problem, threads, flags):
 *   RESULT <name> threads=<t> flags=<estimate|measure> fftw_ms=<median> fftx_ms=<median>
 *          ratio=<fftx/fftw> err=<..> reps=<..> fftw_plan_ms=<..> fftx_plan_ms=<..>
 *   FAIL <name> threads=<t> reason=<..>
 * With --placement (GPU machines: where FFTX_BACKEND=auto puts each problem), one line each:
 *   PLACEMENT <name> threads=<t> fftw_ms=<..> auto_ms=<..> gpu_ms=<..> cpu_ms=<..> auto_plan_ms=<..>
 *             chose=<gpu|cpu> (the backend auto's printed plan names)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fftw3.h>

enum { K_C2C, K_R2C, K_C2R, K_R2R };
static const char *kind_names[] = {"c2c", "r2c", "c2r", "r2r"};
static const char *r2r_names[] = {"r2hc",    "hc2r",    "dht",     "redft00", "redft01", "redft10",
                                  "redft11", "rodft00", "rodft01", "rodft10", "rodft11"};

typedef struct {
    int kind;
    int dbl;
    int rank;
    int n[3];
    int howmany;
    int inplace;
    int r2r;   /* fftw_r2r_kind for every dimension of K_R2R */
    int large; /* only with --large */
} problem_t;

#define P1(k, d, n0, hm, ip) {k, d, 1, {n0, 0, 0}, hm, ip, 0, 0}
#define P2(k, d, n0, n1, ip) {k, d, 2, {n0, n1, 0}, 1, ip, 0, 0}
#define P3(k, d, n0, ip) {k, d, 3, {n0, n0, n0}, 1, ip, 0, 0}
static const problem_t problems[] = {
    /* 1-D c2c: powers of two, composites, primes */
    P1(K_C2C, 0, 16, 1, 0),
    P1(K_C2C, 1, 64, 1, 0),
    P1(K_C2C, 0, 1000, 1, 0),
    P1(K_C2C, 1, 1009, 1, 0),
    P1(K_C2C, 0, 1024, 1, 0),
    P1(K_C2C, 1, 4050, 1, 0),
    P1(K_C2C, 0, 59049, 1, 0), /* 3^10 */
    P1(K_C2C, 0, 65536, 1, 0),
    P1(K_C2C, 1, 65537, 1, 0),
    P1(K_C2C, 1, 1 << 20, 1, 0),
    P1(K_C2C, 0, 1 << 20, 1, 1),
    P1(K_C2C, 0, 1 << 24, 1, 0),
    /* batched 1-D */
    P1(K_C2C, 0, 64, 100000, 0),
    P1(K_C2C, 1, 1024, 1024, 0),
    P1(K_C2C, 0, 4096, 4096, 1),
    P1(K_R2C, 1, 512, 16384, 0),
    /* multi-dimensional c2c */
    P2(K_C2C, 0, 2048, 2048, 0),
    P3(K_C2C, 1, 64, 1),
    P3(K_C2C, 1, 128, 0),
    P3(K_C2C, 0, 256, 0),
    /* r2c / c2r, 1-D to 3-D */
    P1(K_R2C, 1, 4096, 1, 0),
    P1(K_R2C, 0, 1 << 20, 1, 0),
    P1(K_C2R, 1, 65536, 1, 0),
    P2(K_R2C, 0, 1024, 1024, 0),
    P2(K_R2C, 1, 512, 512, 0),
    P2(K_C2R, 0, 1024, 1024, 0),
    P2(K_C2R, 1, 2048, 2048, 1),
    P3(K_R2C, 0, 32, 0),
    P3(K_R2C, 1, 32, 0),
    P3(K_R2C, 0, 64, 0),
    P3(K_R2C, 0, 128, 0),
    P3(K_R2C, 1, 128, 0),
    P3(K_R2C, 1, 128, 1),
    P3(K_R2C, 1, 256, 0),
    P3(K_C2R, 1, 128, 0),
    P3(K_C2R, 0, 64, 1),
    P3(K_C2R, 0, 256, 0),
    /* r2r kinds, 2-D and 3-D */
    {K_R2R, 1, 2, {512, 512, 0}, 1, 0, FFTW_REDFT10, 0},
    {K_R2R, 0, 3, {128, 128, 128}, 1, 0, FFTW_REDFT10, 0},
    {K_R2R, 0, 3, {256, 256, 256}, 1, 0, FFTW_REDFT10, 0},
    {K_R2R, 1, 3, {64, 64, 64}, 1, 0, FFTW_REDFT01, 0},
    {K_R2R, 0, 3, {64, 64, 64}, 1, 1, FFTW_REDFT11, 0},
    {K_R2R, 1, 2, {513, 513, 0}, 1, 0, FFTW_REDFT00, 0},
    {K_R2R, 0, 2, {511, 511, 0}, 1, 0, FFTW_RODFT00, 0},
    {K_R2R, 1, 2, {256, 256, 0}, 1, 0, FFTW_DHT, 0},
    {K_R2R, 1, 1, {4096, 0, 0}, 256, 0, FFTW_R2HC, 0},
    /* large: --large (BENCH_LARGE=1) */
    {K_R2C, 0, 3, {512, 512, 512}, 1, 0, 0, 1},
    {K_C2C, 1, 3, {256, 256, 256}, 1, 0, 0, 1},
    {K_C2R, 1, 3, {512, 512, 512}, 1, 0, 0, 1},
};
#define NPROBLEMS ((int)(sizeof problems / sizeof problems[0]))

#define NSAMPLE 4096
#define MAX_REPS 100000

/* ---------------------------------------------------------------- the two libraries */
typedef void *(*plan_many_dft_t)(int, const int *, int, void *, const int *, int, int, void *,
                                 const int *, int, int, int, unsigned);
typedef void *(*plan_many_real_t)(int, const int *, int, void *, const int *, int, int, void *,
                                  const int *, int, int, unsigned);
typedef void *(*plan_many_r2r_t)(int, const int *, int, void *, const int *, int, int, void *,
                                 const int *, int, int, const int *, unsigned);

typedef struct {
    int (*init_threads)(void);
    void (*plan_with_nthreads)(int);
    plan_many_dft_t plan_many_dft;
    plan_many_real_t plan_many_r2c, plan_many_c2r;
    plan_many_r2r_t plan_many_r2r;
    void (*execute)(void *);
    void (*destroy_plan)(void *);
    void (*set_timelimit)(double);
    void *(*malloc)(size_t);
    void (*free)(void *);
    void (*forget_wisdom)(void);
    char *(*sprint_plan)(void *);
} api_t;

typedef struct {
    const char *name;
    api_t prec[2]; /* [0] fftwf_, [1] fftw_ */
} lib_t;

static void *sym(void *h, const char *prefix, const char *name, const char *what) {
    char full[128];
    void *f;
    snprintf(full, sizeof full, "%s%s", prefix, name);
    f = dlsym(h, full);
    if (!f) {
        fprintf(stderr, "cpu_bench: %s has no %s (%s)\n", what, full, dlerror());
        exit(3);
    }
    return f;
}

static void load_api(api_t *a, void *h, const char *prefix, const char *what) {
    *(void **)&a->init_threads = sym(h, prefix, "init_threads", what);
    *(void **)&a->plan_with_nthreads = sym(h, prefix, "plan_with_nthreads", what);
    *(void **)&a->plan_many_dft = sym(h, prefix, "plan_many_dft", what);
    *(void **)&a->plan_many_r2c = sym(h, prefix, "plan_many_dft_r2c", what);
    *(void **)&a->plan_many_c2r = sym(h, prefix, "plan_many_dft_c2r", what);
    *(void **)&a->plan_many_r2r = sym(h, prefix, "plan_many_r2r", what);
    *(void **)&a->execute = sym(h, prefix, "execute", what);
    *(void **)&a->destroy_plan = sym(h, prefix, "destroy_plan", what);
    *(void **)&a->set_timelimit = sym(h, prefix, "set_timelimit", what);
    *(void **)&a->malloc = sym(h, prefix, "malloc", what);
    *(void **)&a->free = sym(h, prefix, "free", what);
    *(void **)&a->forget_wisdom = sym(h, prefix, "forget_wisdom", what);
    *(void **)&a->sprint_plan = sym(h, prefix, "sprint_plan", what);
    if (!a->init_threads()) {
        fprintf(stderr, "cpu_bench: %s: %sinit_threads failed\n", what, prefix);
        exit(3);
    }
}

static void *open_lib(const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "cpu_bench: cannot load %s: %s\n", path, dlerror());
        exit(3);
    }
    return h;
}

static void load_fftw(lib_t *l, const char *dir) {
    char p[4096];
    void *hf, *hd;
    /* the base libraries first, by path, so that the threads libraries' NEEDED entries find them
       (never an fftx named libfftw3.so.3 on the library path) */
    snprintf(p, sizeof p, "%s/libfftw3f.so.3", dir);
    open_lib(p);
    snprintf(p, sizeof p, "%s/libfftw3.so.3", dir);
    open_lib(p);
    snprintf(p, sizeof p, "%s/libfftw3f_threads.so.3", dir);
    hf = open_lib(p);
    snprintf(p, sizeof p, "%s/libfftw3_threads.so.3", dir);
    hd = open_lib(p);
    l->name = "fftw";
    load_api(&l->prec[0], hf, "fftwf_", "FFTW");
    load_api(&l->prec[1], hd, "fftw_", "FFTW");
}

static void load_fftx(lib_t *l, const char *path) {
    void *h = open_lib(path);
    l->name = "fftx";
    load_api(&l->prec[0], h, "fftwf_", "fftx");
    load_api(&l->prec[1], h, "fftw_", "fftx");
}

/* ---------------------------------------------------------------- helpers */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void problem_name(const problem_t *p, char *buf, size_t len) {
    char dims[64];
    const char *kind = p->kind == K_R2R ? r2r_names[p->r2r] : kind_names[p->kind];
    if (p->rank == 3 && p->n[0] == p->n[1] && p->n[1] == p->n[2])
        snprintf(dims, sizeof dims, "%d^3", p->n[0]);
    else if (p->rank == 3)
        snprintf(dims, sizeof dims, "%dx%dx%d", p->n[0], p->n[1], p->n[2]);
    else if (p->rank == 2)
        snprintf(dims, sizeof dims, "%dx%d", p->n[0], p->n[1]);
    else if ((p->n[0] & (p->n[0] - 1)) == 0 && p->n[0] >= (1 << 16))
        snprintf(dims, sizeof dims, "2^%d", __builtin_ctz((unsigned)p->n[0]));
    else if (p->n[0] == 59049)
        snprintf(dims, sizeof dims, "3^10");
    else
        snprintf(dims, sizeof dims, "%d", p->n[0]);
    if (p->howmany > 1)
        snprintf(buf, len, "%s_f%d_%s_x%d%s", kind, p->dbl ? 64 : 32, dims, p->howmany,
                 p->inplace ? "_inplace" : "");
    else
        snprintf(buf, len, "%s_f%d_%s%s", kind, p->dbl ? 64 : 32, dims, p->inplace ? "_inplace" : "");
}

/* splitmix64: one step from *state */
static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* the placement rotation's orders (fixed seed: runs are repeatable) */
static uint64_t next_random(void) {
    static uint64_t state = 0x0dde7u;
    return splitmix64(&state);
}

/* uniform in [-1, 1) */
static void fill_random(void *buf, size_t nscalars, int dbl, uint64_t seed) {
    uint64_t x = seed;
    size_t i;
    for (i = 0; i < nscalars; i++) {
        uint64_t z = splitmix64(&x);
        double v = (double)(z >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
        if (dbl)
            ((double *)buf)[i] = v;
        else
            ((float *)buf)[i] = (float)v;
    }
}

static double scalar_at(const void *a, size_t i, int dbl) {
    return dbl ? ((const double *)a)[i] : (double)((const float *)a)[i];
}

/* ---------------------------------------------------------------- geometry */
typedef struct {
    problem_t p;
    size_t scalar;
    size_t in_scalars, out_scalars; /* per array, all transforms (in place: the larger) */
    int in_dist, out_dist;          /* in elements of the array's type */
    int inembed[3], onembed[3];
    int embed; /* inembed/onembed given (in-place r2c/c2r padding) */
    int restore; /* input may be overwritten: restore before every execute */
} geom_t;

static void make_geom(const problem_t *p, geom_t *g) {
    int d;
    size_t rows = 1, nl = (size_t)p->n[p->rank - 1], h = nl / 2 + 1, total = 1;
    memset(g, 0, sizeof *g);
    g->p = *p;
    g->scalar = p->dbl ? 8 : 4;
    for (d = 0; d < p->rank; d++) total *= (size_t)p->n[d];
    rows = total / nl;
    for (d = 0; d < p->rank; d++) g->inembed[d] = g->onembed[d] = p->n[d];
    switch (p->kind) {
    case K_C2C:
        g->in_dist = g->out_dist = (int)total;
        g->in_scalars = g->out_scalars = 2 * total * (size_t)p->howmany;
        break;
    case K_R2C:
    case K_C2R: {
        size_t real_dist = p->inplace ? rows * 2 * h : total, cplx_dist = rows * h;
        int r = p->kind == K_R2C;
        if (p->inplace) {
            g->embed = 1;
            (r ? g->inembed : g->onembed)[p->rank - 1] = (int)(2 * h);
            (r ? g->onembed : g->inembed)[p->rank - 1] = (int)h;
        }
        g->in_dist = (int)(r ? real_dist : cplx_dist);
        g->out_dist = (int)(r ? cplx_dist : real_dist);
        g->in_scalars = (r ? real_dist : 2 * cplx_dist) * (size_t)p->howmany;
        g->out_scalars = (r ? 2 * cplx_dist : real_dist) * (size_t)p->howmany;
        break;
    }
    case K_R2R:
        g->in_dist = g->out_dist = (int)total;
        g->in_scalars = g->out_scalars = total * (size_t)p->howmany;
        break;
    }
    g->restore = p->inplace || p->kind == K_C2R || (p->kind == K_R2R && p->r2r == FFTW_HC2R);
}

static void *make_plan(const api_t *a, const geom_t *g, void *in, void *out, unsigned flags) {
    const problem_t *p = &g->p;
    const int *ie = g->embed ? g->inembed : NULL, *oe = g->embed ? g->onembed : NULL;
    int kinds[3] = {p->r2r, p->r2r, p->r2r};
    switch (p->kind) {
    case K_C2C:
        return a->plan_many_dft(p->rank, p->n, p->howmany, in, ie, 1, g->in_dist, out, oe, 1, g->out_dist,
                                FFTW_FORWARD, flags);
    case K_R2C:
        return a->plan_many_r2c(p->rank, p->n, p->howmany, in, ie, 1, g->in_dist, out, oe, 1, g->out_dist,
                                flags);
    case K_C2R:
        return a->plan_many_c2r(p->rank, p->n, p->howmany, in, ie, 1, g->in_dist, out, oe, 1, g->out_dist,
                                flags);
    default:
        return a->plan_many_r2r(p->rank, p->n, p->howmany, in, ie, 1, g->in_dist, out, oe, 1, g->out_dist,
                                kinds, flags);
    }
}

/* ---------------------------------------------------------------- options */
static const char *opt_fftw_dir = NULL, *opt_fftx = NULL, *opt_filter = NULL, *opt_exact = NULL;
static int opt_threads = 1, opt_large = 0, opt_measure = 0, opt_list = 0, opt_min_reps = 5;
/* --fftw-malloc: the arrays from fftx's fftw_malloc (pinned where a GPU is used) instead of
   aligned_alloc (pageable, as malloc); --all-cores-only: no 1-thread run */
static int opt_fftw_malloc = 0, opt_all_cores_only = 0;
/* --placement: fftx planned three times (FFTX_BACKEND auto, gpu, cpu; wisdom forgotten between)
   and timed against FFTW with the four plans' executes alternating in this process */
static int opt_placement = 0;
static double opt_min_time = 0.3;

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s --fftw-dir DIR --fftx LIB [--threads N] [--min-time SEC] [--min-reps K]\n"
            "          [--exact NAME | --filter SUBSTR] [--large] [--measure] [--list]\n"
            "          [--fftw-malloc] [--all-cores-only] [--placement]\n",
            argv0);
    exit(2);
}

/* The problem's arrays: fftx's fftw_malloc with --fftw-malloc, else pageable memory. */
static void *alloc_array(size_t bytes, const lib_t *libs, int dbl) {
    if (opt_fftw_malloc) return libs[1].prec[dbl].malloc(bytes);
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static void free_array(void *p, const lib_t *libs, int dbl) {
    if (!p) return;
    if (opt_fftw_malloc) libs[1].prec[dbl].free(p);
    else free(p);
}

/* ---------------------------------------------------------------- placement */
/* FFTW and fftx planned as FFTX_BACKEND=auto, gpu and cpu (auto first, so that it plans as a
   fresh process would; wisdom forgotten before each, so that each setting plans anew), then
   executes of the four alternating, in an order drawn anew each round: the times share the
   machine's state, and no plan always follows the same one. */
static void compare_placement(lib_t libs[2], const geom_t *g, const char *name, void *in, void *out,
                              void *orig, int threads) {
    /* BENCH_PLACEMENT_SETTINGS="cpu gpu cpu" (say) plans other settings in the three slots: a
       check that a slot's place in the rotation does not bias its time */
    static char settings_text[64];
    const char *settings[3] = {"auto", "gpu", "cpu"};
    const int dbl = g->p.dbl;
    const api_t *fw = &libs[0].prec[dbl], *fx = &libs[1].prec[dbl];
    void *plans[4];
    double *times[4], auto_plan_ms = 0, t_start;
    int k, reps = 0;
    if (getenv("BENCH_PLACEMENT_SETTINGS")) {
        char *save = NULL, *tok;
        snprintf(settings_text, sizeof settings_text, "%s", getenv("BENCH_PLACEMENT_SETTINGS"));
        for (k = 0, tok = strtok_r(settings_text, " ", &save); tok && k < 3; tok = strtok_r(NULL, " ", &save))
            settings[k++] = tok;
    }
    fw->plan_with_nthreads(threads);
    fx->plan_with_nthreads(threads);
    memcpy(in, orig, g->in_scalars * g->scalar);
    plans[0] = make_plan(fw, g, in, out, FFTW_ESTIMATE);
    for (k = 0; k < 3; k++) {
        double t0;
        setenv("FFTX_BACKEND", settings[k], 1);
        fx->forget_wisdom();
        t0 = now_s();
        plans[k + 1] = make_plan(fx, g, in, out, FFTW_ESTIMATE);
        if (k == 0) auto_plan_ms = 1e3 * (now_s() - t0);
    }
    setenv("FFTX_BACKEND", "auto", 1);
    for (k = 0; k < 4; k++) {
        if (!plans[k]) {
            printf("FAIL %s threads=%d reason=plan-%d-NULL\n", name, threads, k);
            for (k = 0; k < 4; k++)
                if (plans[k]) (k ? fx : fw)->destroy_plan(plans[k]);
            return;
        }
        times[k] = malloc(MAX_REPS * sizeof(double));
    }
    t_start = now_s();
    while (reps < MAX_REPS && (reps < opt_min_reps || now_s() - t_start < 4 * opt_min_time)) {
        /* A new order each round, so that every plan follows every other as often: the plan
           that always ran right after FFTW's (auto's, in a fixed rotation) ran up to 1.5x
           slower than the same plan in another slot on the H100 box's 16 cores (2026-11-27) */
        int order[4] = {0, 1, 2, 3};
        for (k = 3; k > 0; k--) {
            int j = (int)(next_random() % (unsigned)(k + 1)), tmp = order[k];
            order[k] = order[j];
            order[j] = tmp;
        }
        for (k = 0; k < 4; k++) {
            int which = order[k];
            double t0;
            if (g->restore) memcpy(in, orig, g->in_scalars * g->scalar);
            t0 = now_s();
            (which ? fx : fw)->execute(plans[which]);
            times[which][reps] = 1e3 * (now_s() - t0);
        }
        reps++;
    }
    {
        /* where auto put it: fftx's printed Program names its backend, "(gpu" or "(cpu" */
        char *text = fx->sprint_plan(plans[1]);
        const char *chose = !text ? "?" : strstr(text, "(gpu") ? "gpu" : strstr(text, "(cpu") ? "cpu" : "?";
        printf("PLACEMENT %s threads=%d fftw_ms=%.6g auto_ms=%.6g gpu_ms=%.6g cpu_ms=%.6g auto_plan_ms=%.3g "
               "chose=%s reps=%d\n",
               name, threads, median(times[0], reps), median(times[1], reps), median(times[2], reps),
               median(times[3], reps), auto_plan_ms, chose, reps);
        free(text);
    }
    fflush(stdout);
    for (k = 0; k < 4; k++) {
        (k ? fx : fw)->destroy_plan(plans[k]);
        free(times[k]);
    }
}

/* ---------------------------------------------------------------- one comparison */
static void compare(lib_t libs[2], const geom_t *g, const char *name, void *in, void *out, void *orig,
                    int threads, unsigned flags, const char *flagname) {
    const int dbl = g->p.dbl;
    void *plans[2];
    double plan_ms[2], *times[2], ref_max = 0.0, diff_max = 0.0, t_start;
    size_t nsample = g->out_scalars < NSAMPLE ? g->out_scalars : NSAMPLE;
    size_t step = g->out_scalars / nsample, i;
    double *ref = malloc(nsample * sizeof *ref);
    int l, reps = 0;
    for (l = 0; l < 2; l++) {
        const api_t *a = &libs[l].prec[dbl];
        double t0;
        a->plan_with_nthreads(threads);
        if (!(flags & FFTW_ESTIMATE)) a->set_timelimit(5.0);
        memcpy(in, orig, g->in_scalars * g->scalar); /* MEASURE overwrites the arrays */
        t0 = now_s();
        plans[l] = make_plan(a, g, in, out, flags);
        plan_ms[l] = 1e3 * (now_s() - t0);
        if (!plans[l]) {
            printf("FAIL %s threads=%d flags=%s reason=%s-returned-NULL-plan\n", name, threads, flagname,
                   libs[l].name);
            if (l == 1) libs[0].prec[dbl].destroy_plan(plans[0]);
            free(ref);
            return;
        }
    }
    /* one execute each on the same input: the outputs must agree */
    for (l = 0; l < 2; l++) {
        memcpy(in, orig, g->in_scalars * g->scalar);
        libs[l].prec[dbl].execute(plans[l]);
        for (i = 0; i < nsample; i++) {
            double v = scalar_at(out, i * step, dbl);
            if (l == 0) {
                ref[i] = v;
                if (ref_max < (v < 0 ? -v : v)) ref_max = v < 0 ? -v : v;
            } else {
                double d = v - ref[i];
                d = d < 0 ? -d : d;
                if (!(d <= diff_max)) diff_max = d; /* NaN wins */
            }
        }
    }
    times[0] = malloc(MAX_REPS * sizeof(double));
    times[1] = malloc(MAX_REPS * sizeof(double));
    t_start = now_s();
    while (reps < MAX_REPS && (reps < opt_min_reps || now_s() - t_start < 2 * opt_min_time)) {
        for (l = 0; l < 2; l++) {
            int which = (reps % 2) ? 1 - l : l; /* alternate who goes first */
            const api_t *a = &libs[which].prec[dbl];
            double t0;
            if (g->restore) memcpy(in, orig, g->in_scalars * g->scalar);
            t0 = now_s();
            a->execute(plans[which]);
            times[which][reps] = 1e3 * (now_s() - t0);
        }
        reps++;
    }
    {
        double f = median(times[0], reps), x = median(times[1], reps);
        printf("RESULT %s threads=%d flags=%s fftw_ms=%.6g fftx_ms=%.6g ratio=%.4f err=%.3g reps=%d "
               "fftw_plan_ms=%.3g fftx_plan_ms=%.3g\n",
               name, threads, flagname, f, x, x / f, ref_max > 0 ? diff_max / ref_max : diff_max, reps,
               plan_ms[0], plan_ms[1]);
        fflush(stdout);
    }
    for (l = 0; l < 2; l++) libs[l].prec[dbl].destroy_plan(plans[l]);
    free(times[0]);
    free(times[1]);
    free(ref);
}

int main(int argc, char **argv) {
    int i, pi, ran = 0;
    lib_t libs[2];
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--fftw-dir") && v) opt_fftw_dir = argv[++i];
        else if (!strcmp(a, "--fftx") && v) opt_fftx = argv[++i];
        else if (!strcmp(a, "--threads") && v) opt_threads = atoi(argv[++i]);
        else if (!strcmp(a, "--min-time") && v) opt_min_time = atof(argv[++i]);
        else if (!strcmp(a, "--min-reps") && v) opt_min_reps = atoi(argv[++i]);
        else if (!strcmp(a, "--filter") && v) opt_filter = argv[++i];
        else if (!strcmp(a, "--exact") && v) opt_exact = argv[++i];
        else if (!strcmp(a, "--large")) opt_large = 1;
        else if (!strcmp(a, "--measure")) opt_measure = 1;
        else if (!strcmp(a, "--list")) opt_list = 1;
        else if (!strcmp(a, "--fftw-malloc")) opt_fftw_malloc = 1;
        else if (!strcmp(a, "--all-cores-only")) opt_all_cores_only = 1;
        else if (!strcmp(a, "--placement")) opt_placement = 1;
        else usage(argv[0]);
    }
    if (opt_threads < 1 || opt_min_reps < 1) usage(argv[0]);
    if (!opt_list && (!opt_fftw_dir || !opt_fftx)) usage(argv[0]);
    if (!opt_list) {
        load_fftw(&libs[0], opt_fftw_dir);
        load_fftx(&libs[1], opt_fftx);
    }
    for (pi = 0; pi < NPROBLEMS; pi++) {
        const problem_t *p = &problems[pi];
        char name[128];
        geom_t g;
        void *in, *out, *orig;
        size_t in_bytes, out_bytes;
        int t;
        problem_name(p, name, sizeof name);
        if (opt_exact ? strcmp(name, opt_exact) != 0 : (opt_filter && !strstr(name, opt_filter))) continue;
        if (p->large && !opt_large && !opt_exact) continue;
        if (opt_list) {
            printf("%s\n", name);
            continue;
        }
        make_geom(p, &g);
        in_bytes = g.in_scalars * g.scalar;
        out_bytes = g.out_scalars * g.scalar;
        if (p->inplace) {
            in_bytes = out_bytes = in_bytes > out_bytes ? in_bytes : out_bytes;
        }
        in = alloc_array(in_bytes, libs, p->dbl);
        out = p->inplace ? in : alloc_array(out_bytes, libs, p->dbl);
        orig = aligned_alloc(64, (in_bytes + 63) / 64 * 64);
        if (!in || !out || !orig) {
            printf("FAIL %s threads=0 reason=out-of-memory\n", name);
            free_array(in, libs, p->dbl);
            if (!p->inplace) free_array(out, libs, p->dbl);
            free(orig);
            continue;
        }
        fill_random(orig, in_bytes / g.scalar, p->dbl, 0x5eed0000u + (uint64_t)pi);
        memcpy(in, orig, in_bytes);
        if (!p->inplace) memset(out, 0, out_bytes);
        for (t = opt_all_cores_only ? opt_threads : 1; t <= opt_threads;
             t = t == opt_threads ? t + 1 : opt_threads) {
            if (opt_placement) {
                compare_placement(libs, &g, name, in, out, orig, t);
                continue;
            }
            compare(libs, &g, name, in, out, orig, t, FFTW_ESTIMATE, "estimate");
            if (opt_measure && in_bytes / g.scalar <= (1u << 22))
                compare(libs, &g, name, in, out, orig, t, FFTW_MEASURE, "measure");
        }
        free_array(in, libs, p->dbl);
        if (!p->inplace) free_array(out, libs, p->dbl);
        free(orig);
        ran++;
    }
    if (!ran && !opt_list) {
        fprintf(stderr, "cpu_bench: no problem matches\n");
        return 1;
    }
    return 0;
}
