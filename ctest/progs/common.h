/* Shared helpers of the comparison programs. Each program is built twice, against fftx and
 * against the system's FFTW 3.3.10, and the two outputs are compared by tools/compare.c:
 *   "== d label" / "== f label"  starts a block of double / single precision results,
 *   "k: re im"                    one value (the index token is compared as text),
 *   "# ..."                       not compared (nothing here prints such lines today).
 * Inputs come from fixed formulas, never all zeros. */
#ifndef FFTX_CTEST_COMMON_H
#define FFTX_CTEST_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static inline double val(long i, int seed)
{
    return sin(0.7 * (double)i + 0.31 * seed) + 0.5 * cos(1.9 * (double)i - 0.17 * seed) + 0.01 * seed;
}

/* Failure to plan is a result too (FFTW returns NULL for what it cannot do). */
#define PLAN_OK(p) ((p) ? 1 : (printf("plan: NULL\n"), 0))

static inline void print_cd(const double *re, const double *im, long n, long stride)
{
    for (long k = 0; k < n; k++) printf("%ld: %.17g %.17g\n", k, re[k * stride], im[k * stride]);
}
static inline void print_rd(const double *x, long n, long stride)
{
    for (long k = 0; k < n; k++) printf("%ld: %.17g\n", k, x[k * stride]);
}
static inline void print_cf(const float *re, const float *im, long n, long stride)
{
    for (long k = 0; k < n; k++) printf("%ld: %.9g %.9g\n", k, (double)re[k * stride], (double)im[k * stride]);
}
static inline void print_rf(const float *x, long n, long stride)
{
    for (long k = 0; k < n; k++) printf("%ld: %.9g\n", k, (double)x[k * stride]);
}

/* Half spectrum (last dimension n/2+1, row-major) of the real rank-r array x with dims n[]:
 * a Hermitian-consistent input for c2r transforms, computed by a direct DFT. out is re,im pairs. */
static inline void half_spectrum(int rank, const int *n, const double *x, double *out)
{
    long total = 1, htotal = 1;
    for (int d = 0; d < rank; d++) {
        total *= n[d];
        htotal *= d == rank - 1 ? n[d] / 2 + 1 : n[d];
    }
    for (long h = 0; h < htotal; h++) {
        int k[8];
        long r = h;
        for (int d = rank - 1; d >= 0; d--) {
            int len = d == rank - 1 ? n[d] / 2 + 1 : n[d];
            k[d] = (int)(r % len);
            r /= len;
        }
        double sr = 0, si = 0;
        for (long j = 0; j < total; j++) {
            long q = j;
            double ph = 0;
            for (int d = rank - 1; d >= 0; d--) {
                long jd = q % n[d];
                q /= n[d];
                ph += (double)((jd * k[d]) % n[d]) / n[d];
            }
            sr += x[j] * cos(-2 * M_PI * ph);
            si += x[j] * sin(-2 * M_PI * ph);
        }
        out[2 * h] = sr;
        out[2 * h + 1] = si;
    }
}

#endif
