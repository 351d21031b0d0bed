/*
 * first_plan: what the first plan of a process costs (issue 13: under 2 ms on the GPU box for a
 * problem that stays on the CPU), and whether planning loaded the CUDA driver.
 *
 *   first_plan LIB      (one library per process: run it once for fftx, once for FFTW)
 *
 * Loads LIB (fftx's libfftx.so, or FFTW's libfftw3.so.3), then times, in this order, with
 * FFTW_ESTIMATE on pageable arrays: fftw_plan_dft_1d(1024), fftw_plan_dft_r2c_3d(32, 32, 32),
 * fftw_plan_dft_1d(1024) again (a second plan of a seen problem). Prints one line:
 *   FIRSTPLAN lib=<path> load_ms=<dlopen> first_ms=<c2c 1024> r2c_ms=<r2c 32^3> again_ms=<..>
 *             cuda_loaded=<0|1>
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cuda_loaded(void) {
    char line[4096];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "libcuda.so")) found = 1;
    fclose(f);
    return found;
}

typedef void *(*plan_1d_t)(int, void *, void *, int, unsigned);
typedef void *(*plan_r2c_3d_t)(int, int, int, double *, void *, unsigned);

int main(int argc, char **argv) {
    double t0, load, first, r2c, again;
    void *h, *p;
    plan_1d_t plan_1d;
    plan_r2c_3d_t plan_r2c_3d;
    double *a = calloc(2 * 32 * 32 * 32, sizeof(double)), *b = calloc(2 * 32 * 32 * 32, sizeof(double));
    if (argc != 2) {
        fprintf(stderr, "usage: %s LIB\n", argv[0]);
        return 2;
    }
    t0 = now_ms();
    h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    load = now_ms() - t0;
    if (!h) {
        fprintf(stderr, "first_plan: %s\n", dlerror());
        return 3;
    }
    *(void **)&plan_1d = dlsym(h, "fftw_plan_dft_1d");
    *(void **)&plan_r2c_3d = dlsym(h, "fftw_plan_dft_r2c_3d");
    if (!plan_1d || !plan_r2c_3d) return 3;
    t0 = now_ms();
    p = plan_1d(1024, a, b, -1, 1U << 6 /* FFTW_ESTIMATE */);
    first = now_ms() - t0;
    t0 = now_ms();
    p = plan_r2c_3d(32, 32, 32, a, b, 1U << 6) ? p : NULL;
    r2c = now_ms() - t0;
    t0 = now_ms();
    p = plan_1d(1024, a, b, -1, 1U << 6) ? p : NULL;
    again = now_ms() - t0;
    printf("FIRSTPLAN lib=%s load_ms=%.3f first_ms=%.3f r2c_ms=%.3f again_ms=%.3f cuda_loaded=%d%s\n", argv[1], load,
           first, r2c, again, cuda_loaded(), p ? "" : " (a plan was NULL)");
    return 0;
}
