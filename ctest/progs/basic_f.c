/* Single precision (fftwf_): basic, advanced, guru and r2r entry points, new-array execute. */
#include <fftw3.h>
#include "common.h"

static void c2c(int rank, const int *n, int sign)
{
    long total = 1;
    for (int d = 0; d < rank; d++) total *= n[d];
    fftwf_complex *in = fftwf_alloc_complex(total), *out = fftwf_alloc_complex(total);
    fftwf_plan p = rank == 1 ? fftwf_plan_dft_1d(n[0], in, out, sign, FFTW_ESTIMATE)
                 : rank == 2 ? fftwf_plan_dft_2d(n[0], n[1], in, out, sign, FFTW_ESTIMATE)
                 : rank == 3 ? fftwf_plan_dft_3d(n[0], n[1], n[2], in, out, sign, FFTW_ESTIMATE)
                 : fftwf_plan_dft(rank, n, in, out, sign, FFTW_ESTIMATE);
    printf("== f c2c rank %d n0 %d sign %d\n", rank, n[0], sign);
    if (PLAN_OK(p)) {
        for (long i = 0; i < total; i++) {
            in[i][0] = (float)val(i, 5);
            in[i][1] = (float)val(i, 6);
        }
        fftwf_execute(p);
        print_cf(&out[0][0], &out[0][1], total, 2);
        /* new-array execute on a second pair of arrays */
        fftwf_complex *in2 = fftwf_alloc_complex(total), *out2 = fftwf_alloc_complex(total);
        for (long i = 0; i < total; i++) {
            in2[i][0] = (float)val(i, 7);
            in2[i][1] = (float)val(i, 8);
        }
        fftwf_execute_dft(p, in2, out2);
        printf("== f c2c new-array rank %d n0 %d sign %d\n", rank, n[0], sign);
        print_cf(&out2[0][0], &out2[0][1], total, 2);
        fftwf_free(in2);
        fftwf_free(out2);
        fftwf_destroy_plan(p);
    }
    fftwf_free(in);
    fftwf_free(out);
}

static void r2c_c2r(int rank, const int *n)
{
    long total = 1, htotal = 1;
    for (int d = 0; d < rank; d++) {
        total *= n[d];
        htotal *= d == rank - 1 ? n[d] / 2 + 1 : n[d];
    }
    float *x = fftwf_alloc_real(total);
    fftwf_complex *X = fftwf_alloc_complex(htotal);
    fftwf_plan p = fftwf_plan_dft_r2c(rank, n, x, X, FFTW_ESTIMATE);
    printf("== f r2c rank %d n0 %d\n", rank, n[0]);
    if (PLAN_OK(p)) {
        for (long i = 0; i < total; i++) x[i] = (float)val(i, 9);
        fftwf_execute(p);
        print_cf(&X[0][0], &X[0][1], htotal, 2);
        fftwf_destroy_plan(p);
    }
    /* c2r of an exact half spectrum */
    double *xd = malloc(sizeof(double) * total), *spec = malloc(sizeof(double) * 2 * htotal);
    for (long i = 0; i < total; i++) xd[i] = val(i, 10);
    half_spectrum(rank, n, xd, spec);
    p = fftwf_plan_dft_c2r(rank, n, X, x, FFTW_ESTIMATE);
    printf("== f c2r rank %d n0 %d\n", rank, n[0]);
    if (PLAN_OK(p)) {
        for (long h = 0; h < 2 * htotal; h++) (&X[0][0])[h] = (float)spec[h];
        fftwf_execute(p);
        print_rf(x, total, 1);
        fftwf_destroy_plan(p);
    }
    free(xd);
    free(spec);
    fftwf_free(x);
    fftwf_free(X);
}

static void r2r(fftwf_r2r_kind kind, int n)
{
    float *in = fftwf_alloc_real(n), *out = fftwf_alloc_real(n);
    fftwf_plan p = fftwf_plan_r2r_1d(n, in, out, kind, FFTW_ESTIMATE);
    printf("== f r2r kind %d n %d\n", (int)kind, n);
    if (PLAN_OK(p)) {
        for (int i = 0; i < n; i++) in[i] = (float)val(i, 11);
        fftwf_execute(p);
        print_rf(out, n, 1);
        fftwf_destroy_plan(p);
    }
    fftwf_free(in);
    fftwf_free(out);
}

static void many_and_guru(void)
{
    /* plan_many: 3 transforms of size 10, interleaved (stride 3, dist 1) */
    int n = 10, howmany = 3;
    fftwf_complex *in = fftwf_alloc_complex(n * howmany), *out = fftwf_alloc_complex(n * howmany);
    fftwf_plan p = fftwf_plan_many_dft(1, &n, howmany, in, NULL, howmany, 1, out, NULL, 1, n,
                                       FFTW_FORWARD, FFTW_ESTIMATE);
    printf("== f many_dft interleaved\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < n * howmany; i++) {
            in[i][0] = (float)val(i, 12);
            in[i][1] = (float)val(i, 13);
        }
        fftwf_execute(p);
        print_cf(&out[0][0], &out[0][1], n * howmany, 2);
        fftwf_destroy_plan(p);
    }
    /* guru split, 2 transforms of size 9 */
    float *ri = fftwf_alloc_real(18), *ii = fftwf_alloc_real(18), *ro = fftwf_alloc_real(18),
          *io = fftwf_alloc_real(18);
    fftwf_iodim dim = {9, 1, 1}, hm = {2, 9, 9};
    p = fftwf_plan_guru_split_dft(1, &dim, 1, &hm, ri, ii, ro, io, FFTW_ESTIMATE);
    printf("== f guru_split_dft\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < 18; i++) {
            ri[i] = (float)val(i, 14);
            ii[i] = (float)val(i, 15);
        }
        fftwf_execute_split_dft(p, ri, ii, ro, io);
        print_cf(ro, io, 18, 1);
        fftwf_destroy_plan(p);
    }
    /* guru64 r2c, 2 transforms of size 12 with output stride 2 */
    fftwf_iodim64 d64 = {12, 1, 2}, h64 = {2, 12, 1};
    float *x = fftwf_alloc_real(24);
    fftwf_complex *X = fftwf_alloc_complex(14);
    p = fftwf_plan_guru64_dft_r2c(1, &d64, 1, &h64, x, X, FFTW_ESTIMATE);
    printf("== f guru64_dft_r2c\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < 24; i++) x[i] = (float)val(i, 16);
        fftwf_execute_dft_r2c(p, x, X);
        print_cf(&X[0][0], &X[0][1], 14, 2);
        fftwf_destroy_plan(p);
    }
    fftwf_free(x);
    fftwf_free(X);
    fftwf_free(ri);
    fftwf_free(ii);
    fftwf_free(ro);
    fftwf_free(io);
    fftwf_free(in);
    fftwf_free(out);
}

int main(void)
{
    static const int n1[] = {1, 4, 7, 12, 16, 25, 64};
    for (unsigned i = 0; i < sizeof n1 / sizeof *n1; i++) {
        c2c(1, &n1[i], FFTW_FORWARD);
        c2c(1, &n1[i], FFTW_BACKWARD);
        r2c_c2r(1, &n1[i]);
    }
    int n2[] = {8, 6}, n3[] = {4, 3, 6};
    c2c(2, n2, FFTW_FORWARD);
    c2c(3, n3, FFTW_BACKWARD);
    r2c_c2r(2, n2);
    r2c_c2r(3, n3);
    for (int k = FFTW_R2HC; k <= FFTW_RODFT11; k++) r2r((fftwf_r2r_kind)k, 8);
    many_and_guru();
    fftwf_cleanup();
    return 0;
}
