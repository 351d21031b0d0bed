/* Real-to-real transforms, double precision: all 11 kinds in 1-D (several sizes, in and out of
 * place), 2-D/3-D/rank-n with mixed kinds, fftw_plan_many_r2r. */
#include <fftw3.h>
#include "common.h"

static const char *kind_name[] = {"R2HC", "HC2R", "DHT", "REDFT00", "REDFT01", "REDFT10",
                                  "REDFT11", "RODFT00", "RODFT01", "RODFT10", "RODFT11"};

static void r2r(int rank, const int *n, const fftw_r2r_kind *kind, int inplace)
{
    long total = 1;
    for (int d = 0; d < rank; d++) total *= n[d];
    double *in = fftw_alloc_real(total), *out = inplace ? in : fftw_alloc_real(total);
    fftw_plan p;
    switch (rank) {
    case 1: p = fftw_plan_r2r_1d(n[0], in, out, kind[0], FFTW_ESTIMATE); break;
    case 2: p = fftw_plan_r2r_2d(n[0], n[1], in, out, kind[0], kind[1], FFTW_ESTIMATE); break;
    case 3: p = fftw_plan_r2r_3d(n[0], n[1], n[2], in, out, kind[0], kind[1], kind[2], FFTW_ESTIMATE); break;
    default: p = fftw_plan_r2r(rank, n, in, out, kind, FFTW_ESTIMATE); break;
    }
    printf("== d r2r rank %d inplace %d", rank, inplace);
    for (int d = 0; d < rank; d++) printf(" %s:%d", kind_name[kind[d]], n[d]);
    printf("\n");
    if (PLAN_OK(p)) {
        for (long i = 0; i < total; i++) in[i] = val(i, 90 + (int)kind[0]);
        fftw_execute(p);
        print_rd(out, total, 1);
        fftw_destroy_plan(p);
    }
    if (!inplace) fftw_free(out);
    fftw_free(in);
}

int main(void)
{
    static const int sizes[] = {1, 2, 3, 4, 5, 8, 9, 16, 31, 64};
    for (int k = FFTW_R2HC; k <= FFTW_RODFT11; k++) {
        fftw_r2r_kind kind = (fftw_r2r_kind)k;
        for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            if (kind == FFTW_REDFT00 && sizes[s] < 2) continue; /* REDFT00 needs n > 1 */
            r2r(1, &sizes[s], &kind, 0);
        }
        int n = 12;
        r2r(1, &n, &kind, 1);
    }
    {
        int n[] = {6, 8};
        fftw_r2r_kind k[] = {FFTW_REDFT10, FFTW_RODFT11};
        r2r(2, n, k, 0);
        fftw_r2r_kind k2[] = {FFTW_R2HC, FFTW_HC2R};
        r2r(2, n, k2, 1);
        fftw_r2r_kind k3[] = {FFTW_DHT, FFTW_DHT};
        r2r(2, n, k3, 0);
    }
    {
        int n[] = {4, 5, 6};
        fftw_r2r_kind k[] = {FFTW_DHT, FFTW_REDFT00, FFTW_RODFT00};
        r2r(3, n, k, 0);
        fftw_r2r_kind k2[] = {FFTW_REDFT01, FFTW_RODFT10, FFTW_REDFT11};
        r2r(3, n, k2, 1);
    }
    {
        int n[] = {3, 4, 2, 5};
        fftw_r2r_kind k[] = {FFTW_RODFT01, FFTW_R2HC, FFTW_REDFT10, FFTW_DHT};
        r2r(4, n, k, 0);
    }
    {   /* plan_many_r2r: 4 RODFT10 transforms of 7 in rows of 9, out interleaved */
        int n = 7, inembed = 9;
        fftw_r2r_kind k = FFTW_RODFT10;
        double *in = fftw_alloc_real(36), *out = fftw_alloc_real(28);
        fftw_plan p = fftw_plan_many_r2r(1, &n, 4, in, &inembed, 1, 9, out, NULL, 4, 1, &k, FFTW_ESTIMATE);
        printf("== d many_r2r RODFT10\n");
        if (PLAN_OK(p)) {
            for (int i = 0; i < 36; i++) in[i] = val(i, 99);
            fftw_execute(p);
            print_rd(out, 28, 1);
            fftw_destroy_plan(p);
        }
        fftw_free(in);
        fftw_free(out);
    }
    fftw_cleanup();
    return 0;
}
