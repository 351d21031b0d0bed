/* Guru interface, double precision; built as guru (fftw_iodim) and, with -DGURU64, as guru64
 * (fftw_iodim64); the two print the same thing. Arbitrary and negative strides, vector loops of
 * rank 0..2, rank-0 transforms (copies), split arrays, new-array execute. */
#include <fftw3.h>
#include "common.h"

#ifdef GURU64
typedef fftw_iodim64 IODIM;
#define G(name) fftw_plan_guru64_##name
#else
typedef fftw_iodim IODIM;
#define G(name) fftw_plan_guru_##name
#endif

static void fill_c(fftw_complex *a, long n, int seed)
{
    for (long i = 0; i < n; i++) {
        a[i][0] = val(i, seed);
        a[i][1] = val(i, seed + 1);
    }
}
static void sentinel_c(fftw_complex *a, long n)
{
    for (long i = 0; i < n; i++) a[i][0] = a[i][1] = 1000 + i;
}
static void sentinel_r(double *a, long n)
{
    for (long i = 0; i < n; i++) a[i] = 1000 + i;
}

/* c2c with arbitrary dims; in/out point at element 0 of the arrays (which may lie inside the
 * allocation when strides are negative). */
static void dft(const char *label, int rank, const IODIM *dims, int hrank, const IODIM *hdims,
                long in_len, long in_at, long out_len, long out_at, int sign)
{
    fftw_complex *in = fftw_alloc_complex(in_len), *out = fftw_alloc_complex(out_len);
    fftw_plan p = G(dft)(rank, dims, hrank, hdims, in + in_at, out + out_at, sign, FFTW_ESTIMATE);
    printf("== d guru_dft %s\n", label);
    if (PLAN_OK(p)) {
        fill_c(in, in_len, 60);
        sentinel_c(out, out_len);
        fftw_execute(p);
        print_cd(&out[0][0], &out[0][1], out_len, 2);
        fill_c(in, in_len, 62);
        fftw_execute_dft(p, in + in_at, out + out_at);
        printf("== d guru_dft %s new-array\n", label);
        print_cd(&out[0][0], &out[0][1], out_len, 2);
        fftw_destroy_plan(p);
    }
    fftw_free(in);
    fftw_free(out);
}

static void dft_inplace(void)
{
    /* 2-D 6x4 transform stored transposed (strides 1 and 6), 2 transforms at dist 24 */
    IODIM d[] = {{6, 1, 1}, {4, 6, 6}}, h[] = {{2, 24, 24}};
    fftw_complex *a = fftw_alloc_complex(48);
    fftw_plan p = G(dft)(2, d, 1, h, a, a, FFTW_BACKWARD, FFTW_ESTIMATE);
    printf("== d guru_dft in-place transposed\n");
    if (PLAN_OK(p)) {
        fill_c(a, 48, 64);
        fftw_execute(p);
        print_cd(&a[0][0], &a[0][1], 48, 2);
        fftw_destroy_plan(p);
    }
    fftw_free(a);
}

static void split(void)
{
    /* separate real and imaginary arrays: 3 transforms of 10, dist 11 (one padding value) */
    long len = 33;
    double *ri = fftw_alloc_real(len), *ii = fftw_alloc_real(len), *ro = fftw_alloc_real(len),
           *io = fftw_alloc_real(len);
    IODIM d = {10, 1, 1}, h = {3, 11, 11};
    fftw_plan p = G(split_dft)(1, &d, 1, &h, ri, ii, ro, io, FFTW_ESTIMATE);
    printf("== d guru_split_dft separate\n");
    if (PLAN_OK(p)) {
        for (long i = 0; i < len; i++) {
            ri[i] = val(i, 70);
            ii[i] = val(i, 71);
        }
        sentinel_r(ro, len);
        sentinel_r(io, len);
        fftw_execute(p);
        print_cd(ro, io, len, 1);
        /* backward transform by swapping the real and imaginary arrays */
        sentinel_r(ro, len);
        sentinel_r(io, len);
        fftw_execute_split_dft(p, ii, ri, io, ro);
        printf("== d guru_split_dft swapped (backward)\n");
        print_cd(ro, io, len, 1);
        fftw_destroy_plan(p);
    }
    /* interleaved data through the split interface: ii = ri + 1, stride 2; 2-D 5x4 */
    fftw_complex *c = fftw_alloc_complex(20), *o = fftw_alloc_complex(20);
    IODIM d2[] = {{5, 8, 8}, {4, 2, 2}};
    p = G(split_dft)(2, d2, 0, NULL, &c[0][0], &c[0][1], &o[0][0], &o[0][1], FFTW_ESTIMATE);
    printf("== d guru_split_dft interleaved\n");
    if (PLAN_OK(p)) {
        fill_c(c, 20, 72);
        fftw_execute(p);
        print_cd(&o[0][0], &o[0][1], 20, 2);
        fftw_destroy_plan(p);
    }
    /* split r2c and c2r: 2 transforms of 12 */
    IODIM dr = {12, 1, 1}, hr = {2, 12, 7};
    double *x = fftw_alloc_real(24);
    p = G(split_dft_r2c)(1, &dr, 1, &hr, x, ro, io, FFTW_ESTIMATE);
    printf("== d guru_split_dft_r2c\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < 24; i++) x[i] = val(i, 74);
        sentinel_r(ro, 14);
        sentinel_r(io, 14);
        fftw_execute_split_dft_r2c(p, x, ro, io);
        print_cd(ro, io, 14, 1);
        fftw_destroy_plan(p);
    }
    IODIM dc = {12, 2, 1}, hc = {2, 1, 12};   /* the 2 half spectra interleaved: stride 2, dist 1 */
    p = G(split_dft_c2r)(1, &dc, 1, &hc, ri, ii, x, FFTW_ESTIMATE);
    printf("== d guru_split_dft_c2r\n");
    if (PLAN_OK(p)) {
        int n = 12;
        double xs[12], spec[14];
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < n; i++) xs[i] = val(i, 75 + b);
            half_spectrum(1, &n, xs, spec);
            for (int k = 0; k < 7; k++) {
                ri[k * 2 + b] = spec[2 * k];
                ii[k * 2 + b] = spec[2 * k + 1];
            }
        }
        sentinel_r(x, 24);
        fftw_execute_split_dft_c2r(p, ri, ii, x);
        print_rd(x, 24, 1);
        fftw_destroy_plan(p);
    }
    fftw_free(x);
    fftw_free(c);
    fftw_free(o);
    fftw_free(ri);
    fftw_free(ii);
    fftw_free(ro);
    fftw_free(io);
}

static void real(void)
{
    /* r2c: 2-D 5x6 with row stride 8, 3 transforms at dist 41; out half 5x4 transposed */
    IODIM d[] = {{5, 8, 1}, {6, 1, 5}}, h[] = {{3, 41, 20}};
    double *x = fftw_alloc_real(123);
    fftw_complex *X = fftw_alloc_complex(60);
    fftw_plan p = G(dft_r2c)(2, d, 1, h, x, X, FFTW_ESTIMATE);
    printf("== d guru_dft_r2c 2d strided\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < 123; i++) x[i] = val(i, 80);
        sentinel_c(X, 60);
        fftw_execute(p);
        print_cd(&X[0][0], &X[0][1], 60, 2);
        for (int i = 0; i < 123; i++) x[i] = val(i, 81);
        fftw_execute_dft_r2c(p, x, X);
        printf("== d guru_dft_r2c 2d strided new-array\n");
        print_cd(&X[0][0], &X[0][1], 60, 2);
        fftw_destroy_plan(p);
    }
    /* c2r: 1-D n 10 with input stride 2, output stride 3, 2 transforms */
    IODIM dc = {10, 2, 3}, hc = {2, 1, 1};
    fftw_complex *in = fftw_alloc_complex(12);
    double *out = fftw_alloc_real(30);
    p = G(dft_c2r)(1, &dc, 1, &hc, in, out, FFTW_ESTIMATE);
    printf("== d guru_dft_c2r strided\n");
    if (PLAN_OK(p)) {
        int n = 10;
        double xs[10], spec[12];
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < n; i++) xs[i] = val(i, 82 + b);
            half_spectrum(1, &n, xs, spec);
            for (int k = 0; k < 6; k++) {
                in[2 * k + b][0] = spec[2 * k];
                in[2 * k + b][1] = spec[2 * k + 1];
            }
        }
        sentinel_r(out, 30);
        fftw_execute(p);
        print_rd(out, 30, 1);
        fftw_destroy_plan(p);
    }
    /* r2r: 2-D 4x6 (REDFT10 x RODFT01) with negative input stride in the second dimension */
    IODIM dd[] = {{4, 6, 6}, {6, -1, 1}};
    fftw_r2r_kind k[] = {FFTW_REDFT10, FFTW_RODFT01};
    double *a = fftw_alloc_real(24), *b = fftw_alloc_real(24);
    p = G(r2r)(2, dd, 0, NULL, a + 5, b, k, FFTW_ESTIMATE);
    printf("== d guru_r2r negative stride\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < 24; i++) a[i] = val(i, 84);
        sentinel_r(b, 24);
        fftw_execute(p);
        print_rd(b, 24, 1);
        fftw_destroy_plan(p);
    }
    /* r2r rank 1 with a rank-2 vector loop */
    IODIM d1 = {8, 1, 1}, h2[] = {{2, 24, 24}, {3, 8, 8}};
    fftw_r2r_kind kd[] = {FFTW_DHT};
    double *c = fftw_alloc_real(48), *e = fftw_alloc_real(48);
    p = G(r2r)(1, &d1, 2, h2, c, e, kd, FFTW_ESTIMATE);
    printf("== d guru_r2r vector rank 2\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < 48; i++) c[i] = val(i, 85);
        fftw_execute(p);
        print_rd(e, 48, 1);
        fftw_destroy_plan(p);
    }
    fftw_free(c);
    fftw_free(e);
    fftw_free(a);
    fftw_free(b);
    fftw_free(in);
    fftw_free(out);
    fftw_free(x);
    fftw_free(X);
}

int main(void)
{
    {   /* 2-D 4x3, arbitrary strides, vector of 2 */
        IODIM d[] = {{4, 9, 1}, {3, 2, 8}}, h[] = {{2, 1, 32}};
        dft("2d strided", 2, d, 1, h, 36, 0, 64, 0, FFTW_FORWARD);
    }
    {   /* 1-D n 8, input stride -1 (reversed), output stride 2 */
        IODIM d[] = {{8, -1, 2}};
        dft("negative input stride", 1, d, 0, NULL, 8, 7, 16, 0, FFTW_FORWARD);
    }
    {   /* 1-D n 7, input stride 3, output stride -2; vector of 3 with dists 1 and -14 */
        IODIM d[] = {{7, 3, -2}}, h[] = {{3, 1, -14}};
        dft("negative output stride", 1, d, 1, h, 21, 0, 42, 41, FFTW_BACKWARD);
    }
    {   /* 3-D 2x3x4 with a rank-2 vector loop */
        IODIM d[] = {{2, 12, 12}, {3, 4, 4}, {4, 1, 1}}, h[] = {{2, 48, 48}, {2, 24, 24}};
        dft("3d vector rank 2", 3, d, 2, h, 96, 0, 96, 0, FFTW_FORWARD);
    }
    {   /* rank 0: a copy of 5 elements, stride 2 -> 1 */
        IODIM h[] = {{5, 2, 1}};
        dft("rank 0 copy", 0, NULL, 1, h, 10, 0, 5, 0, FFTW_FORWARD);
    }
    {   /* rank 0 with a rank-2 vector: a transposition */
        IODIM h[] = {{3, 4, 1}, {4, 1, 3}};
        dft("rank 0 transpose", 0, NULL, 2, h, 12, 0, 12, 0, FFTW_FORWARD);
    }
    {   /* vector loop of length 1 and a size-1 dimension */
        IODIM d[] = {{1, 5, 5}, {5, 1, 1}}, h[] = {{1, 100, 100}};
        dft("size-1 dims", 2, d, 1, h, 5, 0, 5, 0, FFTW_BACKWARD);
    }
    dft_inplace();
    split();
    real();
    fftw_cleanup();
    return 0;
}
