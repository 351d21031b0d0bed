/* Advanced interface, double precision: fftw_plan_many_* with embeds, strides and distances,
 * then new-array execute. Output arrays are printed whole, padding included: a library must
 * not write outside the elements the plan describes. */
#include <fftw3.h>
#include "common.h"

static void fill_c(fftw_complex *a, long n, int seed)
{
    for (long i = 0; i < n; i++) {
        a[i][0] = val(i, seed);
        a[i][1] = val(i, seed + 1);
    }
}

static void many_dft(const char *label, int rank, const int *n, int howmany,
                     const int *inembed, int istride, int idist,
                     const int *onembed, int ostride, int odist, int sign, long in_len, long out_len)
{
    fftw_complex *in = fftw_alloc_complex(in_len), *out = fftw_alloc_complex(out_len);
    fftw_plan p = fftw_plan_many_dft(rank, n, howmany, in, inembed, istride, idist,
                                     out, onembed, ostride, odist, sign, FFTW_ESTIMATE);
    printf("== d many_dft %s\n", label);
    if (PLAN_OK(p)) {
        fill_c(in, in_len, 20);
        for (long i = 0; i < out_len; i++) out[i][0] = out[i][1] = 1000 + i; /* sentinels */
        fftw_execute(p);
        print_cd(&out[0][0], &out[0][1], out_len, 2);

        fftw_complex *in2 = fftw_alloc_complex(in_len), *out2 = fftw_alloc_complex(out_len);
        fill_c(in2, in_len, 22);
        for (long i = 0; i < out_len; i++) out2[i][0] = out2[i][1] = -(double)i;
        fftw_execute_dft(p, in2, out2);
        printf("== d many_dft %s new-array\n", label);
        print_cd(&out2[0][0], &out2[0][1], out_len, 2);
        fftw_free(in2);
        fftw_free(out2);
        fftw_destroy_plan(p);
    }
    fftw_free(in);
    fftw_free(out);
}

static void many_r2c(const char *label, int rank, const int *n, int howmany,
                     const int *inembed, int istride, int idist,
                     const int *onembed, int ostride, int odist, long in_len, long out_len)
{
    double *in = fftw_alloc_real(in_len);
    fftw_complex *out = fftw_alloc_complex(out_len);
    fftw_plan p = fftw_plan_many_dft_r2c(rank, n, howmany, in, inembed, istride, idist,
                                         out, onembed, ostride, odist, FFTW_ESTIMATE);
    printf("== d many_r2c %s\n", label);
    if (PLAN_OK(p)) {
        for (long i = 0; i < in_len; i++) in[i] = val(i, 30);
        for (long i = 0; i < out_len; i++) out[i][0] = out[i][1] = 500 + i;
        fftw_execute(p);
        print_cd(&out[0][0], &out[0][1], out_len, 2);
        for (long i = 0; i < in_len; i++) in[i] = val(i, 31);
        fftw_execute_dft_r2c(p, in, out);
        printf("== d many_r2c %s again\n", label);
        print_cd(&out[0][0], &out[0][1], out_len, 2);
        fftw_destroy_plan(p);
    }
    fftw_free(in);
    fftw_free(out);
}

/* c2r of howmany exact half spectra laid out by (inembed, istride, idist). */
static void many_c2r(const char *label, int rank, const int *n, int howmany,
                     const int *inembed, int istride, int idist,
                     const int *onembed, int ostride, int odist, long in_len, long out_len)
{
    long total = 1, htotal = 1;
    for (int d = 0; d < rank; d++) {
        total *= n[d];
        htotal *= d == rank - 1 ? n[d] / 2 + 1 : n[d];
    }
    fftw_complex *in = fftw_alloc_complex(in_len);
    double *out = fftw_alloc_real(out_len);
    fftw_plan p = fftw_plan_many_dft_c2r(rank, n, howmany, in, inembed, istride, idist,
                                         out, onembed, ostride, odist, FFTW_ESTIMATE);
    printf("== d many_c2r %s\n", label);
    if (PLAN_OK(p)) {
        double *x = malloc(sizeof(double) * total), *spec = malloc(sizeof(double) * 2 * htotal);
        for (long i = 0; i < in_len; i++) in[i][0] = in[i][1] = 7; /* padding, never read */
        for (int b = 0; b < howmany; b++) {
            for (long i = 0; i < total; i++) x[i] = val(i, 40 + b);
            half_spectrum(rank, n, x, spec);
            for (long h = 0; h < htotal; h++) {
                /* element h of the logical half array -> its place in the embedding */
                long off = 0, r = h, mul = 1;
                for (int d = rank - 1; d >= 0; d--) {
                    int len = d == rank - 1 ? n[d] / 2 + 1 : n[d];
                    int emb = inembed ? inembed[d] : len;
                    off += (r % len) * mul;
                    r /= len;
                    mul *= emb;
                }
                long at = b * (long)idist + off * istride;
                in[at][0] = spec[2 * h];
                in[at][1] = spec[2 * h + 1];
            }
        }
        for (long i = 0; i < out_len; i++) out[i] = 300 + i;
        fftw_execute(p);
        print_rd(out, out_len, 1);
        free(x);
        free(spec);
        fftw_destroy_plan(p);
    }
    fftw_free(in);
    fftw_free(out);
}

static void many_r2r(void)
{
    int n = 8, howmany = 3;
    fftw_r2r_kind kind[] = {FFTW_REDFT10};
    double *in = fftw_alloc_real(n * howmany), *out = fftw_alloc_real(n * howmany + 5);
    fftw_plan p = fftw_plan_many_r2r(1, &n, howmany, in, NULL, howmany, 1,
                                     out, NULL, 1, n + 1, kind, FFTW_ESTIMATE);
    printf("== d many_r2r\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < n * howmany; i++) in[i] = val(i, 50);
        for (int i = 0; i < n * howmany + 5; i++) out[i] = 100 + i;
        fftw_execute(p);
        print_rd(out, n * howmany + 5, 1);
        for (int i = 0; i < n * howmany; i++) in[i] = val(i, 51);
        fftw_execute_r2r(p, in, out);
        printf("== d many_r2r again\n");
        print_rd(out, n * howmany + 5, 1);
        fftw_destroy_plan(p);
    }
    /* 2 in-place 2-D transforms (DHT x RODFT00) of 4x6, dist 25 */
    int n2[] = {4, 6};
    fftw_r2r_kind k2[] = {FFTW_DHT, FFTW_RODFT00};
    double *a = fftw_alloc_real(50);
    p = fftw_plan_many_r2r(2, n2, 2, a, NULL, 1, 25, a, NULL, 1, 25, k2, FFTW_ESTIMATE);
    printf("== d many_r2r 2d in-place\n");
    if (PLAN_OK(p)) {
        for (int i = 0; i < 50; i++) a[i] = val(i, 52);
        fftw_execute(p);
        print_rd(a, 50, 1);
        fftw_destroy_plan(p);
    }
    fftw_free(a);
    fftw_free(in);
    fftw_free(out);
}

int main(void)
{
    /* 2-D 4x6 in a 5x8 embedding, stride 2, dist 80; out 4x7 embedding, stride 1, dist 31 */
    {
        int n[] = {4, 6}, inembed[] = {5, 8}, onembed[] = {4, 7};
        many_dft("2d embeds", 2, n, 3, inembed, 2, 80, onembed, 1, 31, FFTW_FORWARD, 240, 93);
    }
    /* contiguous batches, NULL embeds */
    {
        int n = 12;
        many_dft("1d contiguous", 1, &n, 4, NULL, 1, 12, NULL, 1, 12, FFTW_BACKWARD, 48, 48);
    }
    /* interleaved batch (stride = howmany, dist = 1) in, contiguous out */
    {
        int n = 9;
        many_dft("1d interleaved", 1, &n, 5, NULL, 5, 1, NULL, 1, 9, FFTW_FORWARD, 45, 45);
    }
    /* 3-D, in-place, padded dist */
    {
        int n[] = {3, 4, 5};
        fftw_complex *a = fftw_alloc_complex(2 * 64);
        fftw_plan p = fftw_plan_many_dft(3, n, 2, a, NULL, 1, 64, a, NULL, 1, 64,
                                         FFTW_FORWARD, FFTW_ESTIMATE);
        printf("== d many_dft 3d in-place\n");
        if (PLAN_OK(p)) {
            fill_c(a, 128, 24);
            fftw_execute(p);
            print_cd(&a[0][0], &a[0][1], 128, 2);
            fftw_destroy_plan(p);
        }
        fftw_free(a);
    }
    /* r2c: rank 1, n 10, 4 transforms, input rows of 12, output rows of 7 */
    {
        int n = 10, inembed = 12, onembed = 7;
        many_r2c("1d embeds", 1, &n, 4, &inembed, 1, 12, &onembed, 1, 7, 48, 28);
    }
    /* r2c: rank 2, 4x6, interleaved batch of 3 */
    {
        int n[] = {4, 6};
        many_r2c("2d interleaved", 2, n, 3, NULL, 3, 1, NULL, 3, 1, 72, 48);
    }
    /* c2r: rank 2, 4x6 in a 5x5 complex embedding (stride 1, dist 26), out 4x7 (stride 2) */
    {
        int n[] = {4, 6}, inembed[] = {5, 5}, onembed[] = {4, 7};
        many_c2r("2d embeds", 2, n, 2, inembed, 1, 26, onembed, 2, 57, 52, 114);
    }
    /* c2r: rank 1, n 9, interleaved batch of 3 */
    {
        int n = 9;
        many_c2r("1d interleaved", 1, &n, 3, NULL, 3, 1, NULL, 1, 9, 15, 27);
    }
    many_r2r();
    fftw_cleanup();
    return 0;
}
