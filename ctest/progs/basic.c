/* Basic interface, double precision: 1-D/2-D/3-D/rank-n c2c (both signs, in and out of place),
 * r2c and c2r. */
#include <fftw3.h>
#include "common.h"

static void c2c(int rank, const int *n, int sign, int inplace)
{
    long total = 1;
    for (int d = 0; d < rank; d++) total *= n[d];
    fftw_complex *in = fftw_alloc_complex(total);
    fftw_complex *out = inplace ? in : fftw_alloc_complex(total);
    fftw_plan p;
    switch (rank) {
    case 1: p = fftw_plan_dft_1d(n[0], in, out, sign, FFTW_ESTIMATE); break;
    case 2: p = fftw_plan_dft_2d(n[0], n[1], in, out, sign, FFTW_ESTIMATE); break;
    case 3: p = fftw_plan_dft_3d(n[0], n[1], n[2], in, out, sign, FFTW_ESTIMATE); break;
    default: p = fftw_plan_dft(rank, n, in, out, sign, FFTW_ESTIMATE); break;
    }
    printf("== d c2c rank %d n0 %d sign %d inplace %d\n", rank, n[0], sign, inplace);
    if (PLAN_OK(p)) {
        for (long i = 0; i < total; i++) {
            in[i][0] = val(i, 1);
            in[i][1] = val(i, 2);
        }
        fftw_execute(p);
        print_cd(&out[0][0], &out[0][1], total, 2);
        fftw_destroy_plan(p);
    }
    if (!inplace) fftw_free(out);
    fftw_free(in);
}

static void r2c(int rank, const int *n, int inplace)
{
    long total = 1, htotal = 1, padded = 1;
    for (int d = 0; d < rank; d++) {
        total *= n[d];
        htotal *= d == rank - 1 ? n[d] / 2 + 1 : n[d];
        padded *= d == rank - 1 ? 2 * (n[d] / 2 + 1) : n[d];
    }
    double *in = fftw_alloc_real(inplace ? padded : total);
    fftw_complex *out = inplace ? (fftw_complex *)in : fftw_alloc_complex(htotal);
    fftw_plan p;
    switch (rank) {
    case 1: p = fftw_plan_dft_r2c_1d(n[0], in, out, FFTW_ESTIMATE); break;
    case 2: p = fftw_plan_dft_r2c_2d(n[0], n[1], in, out, FFTW_ESTIMATE); break;
    case 3: p = fftw_plan_dft_r2c_3d(n[0], n[1], n[2], in, out, FFTW_ESTIMATE); break;
    default: p = fftw_plan_dft_r2c(rank, n, in, out, FFTW_ESTIMATE); break;
    }
    printf("== d r2c rank %d n0 %d inplace %d\n", rank, n[0], inplace);
    if (PLAN_OK(p)) {
        int last = n[rank - 1], row = inplace ? 2 * (last / 2 + 1) : last;
        for (long i = 0; i < total; i++) in[(i / last) * row + i % last] = val(i, 3);
        fftw_execute(p);
        print_cd(&out[0][0], &out[0][1], htotal, 2);
        fftw_destroy_plan(p);
    }
    if (!inplace) fftw_free(out);
    fftw_free(in);
}

static void c2r(int rank, const int *n, int inplace)
{
    long total = 1, htotal = 1;
    for (int d = 0; d < rank; d++) {
        total *= n[d];
        htotal *= d == rank - 1 ? n[d] / 2 + 1 : n[d];
    }
    double *x = malloc(sizeof(double) * total), *spec = malloc(sizeof(double) * 2 * htotal);
    for (long i = 0; i < total; i++) x[i] = val(i, 4);
    half_spectrum(rank, n, x, spec);
    fftw_complex *in = fftw_alloc_complex(htotal);
    double *out = inplace ? (double *)in : fftw_alloc_real(total);
    fftw_plan p;
    switch (rank) {
    case 1: p = fftw_plan_dft_c2r_1d(n[0], in, out, FFTW_ESTIMATE); break;
    case 2: p = fftw_plan_dft_c2r_2d(n[0], n[1], in, out, FFTW_ESTIMATE); break;
    case 3: p = fftw_plan_dft_c2r_3d(n[0], n[1], n[2], in, out, FFTW_ESTIMATE); break;
    default: p = fftw_plan_dft_c2r(rank, n, in, out, FFTW_ESTIMATE); break;
    }
    printf("== d c2r rank %d n0 %d inplace %d\n", rank, n[0], inplace);
    if (PLAN_OK(p)) {
        memcpy(in, spec, sizeof(double) * 2 * htotal);
        fftw_execute(p);
        int last = n[rank - 1], row = inplace ? 2 * (last / 2 + 1) : last;
        for (long i = 0; i < total; i++) printf("%ld: %.17g\n", i, out[(i / last) * row + i % last]);
        fftw_destroy_plan(p);
    }
    if (!inplace) fftw_free(out);
    fftw_free(in);
    free(x);
    free(spec);
}

int main(void)
{
    static const int n1[] = {1, 2, 3, 5, 12, 15, 16, 17, 60, 97, 128};
    for (unsigned i = 0; i < sizeof n1 / sizeof *n1; i++) {
        c2c(1, &n1[i], FFTW_FORWARD, 0);
        c2c(1, &n1[i], FFTW_BACKWARD, 0);
        r2c(1, &n1[i], 0);
        c2r(1, &n1[i], 0);
    }
    int n16 = 16, n15 = 15;
    c2c(1, &n16, FFTW_FORWARD, 1);
    c2c(1, &n15, FFTW_BACKWARD, 1);
    r2c(1, &n16, 1);
    c2r(1, &n15, 1);

    int n2[] = {8, 6}, n2b[] = {5, 7}, n3[] = {4, 5, 6}, n3b[] = {3, 1, 8}, n4[] = {3, 4, 2, 5};
    c2c(2, n2, FFTW_FORWARD, 0);
    c2c(2, n2b, FFTW_BACKWARD, 1);
    c2c(3, n3, FFTW_BACKWARD, 0);
    c2c(3, n3b, FFTW_FORWARD, 0);
    c2c(4, n4, FFTW_FORWARD, 0);
    r2c(2, n2, 0);
    r2c(2, n2b, 1);
    r2c(3, n3, 0);
    r2c(4, n4, 0);
    c2r(2, n2, 0);
    c2r(2, n2b, 1);
    c2r(3, n3, 0);
    c2r(3, n3b, 1);
    c2r(4, n4, 0);
    fftw_cleanup();
    return 0;
}
