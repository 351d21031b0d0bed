/* Threads, double and single precision (libfftw3_threads / libfftw3f_threads in FFTW):
 * init_threads, plan_with_nthreads, planner_nthreads, make_planner_thread_safe,
 * threads_set_callback, threaded plans, cleanup_threads. */
#include <fftw3.h>
#include "common.h"

static int serial_calls;
/* A serial "parallel loop" for fftw_threads_set_callback. */
static void serial_loop(void *(*work)(char *), char *jobdata, size_t elsize, int njobs, void *data)
{
    (void)data;
    serial_calls++;
    for (int i = 0; i < njobs; i++) work(jobdata + elsize * i);
}

static void dft2d(const char *label, int n0, int n1)
{
    fftw_complex *in = fftw_alloc_complex(n0 * n1), *out = fftw_alloc_complex(n0 * n1);
    fftw_plan p = fftw_plan_dft_2d(n0, n1, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
    printf("== d %s %dx%d\n", label, n0, n1);
    if (PLAN_OK(p)) {
        for (int i = 0; i < n0 * n1; i++) {
            in[i][0] = val(i, 110);
            in[i][1] = val(i, 111);
        }
        fftw_execute(p);
        print_cd(&out[0][0], &out[0][1], n0 * n1, 2);
        fftw_destroy_plan(p);
    }
    fftw_free(in);
    fftw_free(out);
}

int main(void)
{
    printf("init_threads %d\n", fftw_init_threads() != 0);
    printf("fftwf_init_threads %d\n", fftwf_init_threads() != 0);
    printf("planner_nthreads default %d\n", fftw_planner_nthreads());
    fftw_plan_with_nthreads(3);
    printf("planner_nthreads %d\n", fftw_planner_nthreads());
    fftwf_plan_with_nthreads(2);
    printf("fftwf_planner_nthreads %d\n", fftwf_planner_nthreads());
    fftw_make_planner_thread_safe();

    dft2d("threaded dft_2d", 32, 24);

    {   /* threaded 3-D r2c and back */
        int n[] = {16, 12, 10};
        double *x = fftw_alloc_real(16 * 12 * 10);
        fftw_complex *X = fftw_alloc_complex(16 * 12 * 6);
        fftw_plan p = fftw_plan_dft_r2c(3, n, x, X, FFTW_ESTIMATE);
        fftw_plan q = fftw_plan_dft_c2r(3, n, X, x, FFTW_ESTIMATE);
        printf("== d threaded r2c/c2r 16x12x10\n");
        if (PLAN_OK(p) && PLAN_OK(q)) {
            for (int i = 0; i < 16 * 12 * 10; i++) x[i] = val(i, 112);
            fftw_execute(p);
            print_cd(&X[0][0], &X[0][1], 16 * 12 * 6, 2);
            fftw_execute(q);
            printf("== d threaded round trip\n");
            print_rd(x, 16 * 12 * 10, 1);
        }
        if (p) fftw_destroy_plan(p);
        if (q) fftw_destroy_plan(q);
        fftw_free(x);
        fftw_free(X);
    }
    {   /* threaded single precision, batched */
        int n = 64;
        fftwf_complex *in = fftwf_alloc_complex(64 * 16), *out = fftwf_alloc_complex(64 * 16);
        fftwf_plan p = fftwf_plan_many_dft(1, &n, 16, in, NULL, 1, 64, out, NULL, 1, 64,
                                           FFTW_BACKWARD, FFTW_ESTIMATE);
        printf("== f threaded many_dft 16x64\n");
        if (PLAN_OK(p)) {
            for (int i = 0; i < 64 * 16; i++) {
                in[i][0] = (float)val(i, 113);
                in[i][1] = (float)val(i, 114);
            }
            fftwf_execute(p);
            print_cf(&out[0][0], &out[0][1], 64 * 16, 2);
            fftwf_destroy_plan(p);
        }
        fftwf_free(in);
        fftwf_free(out);
    }

    /* a user-supplied parallel loop; how often it is called is the library's business */
    fftw_threads_set_callback(serial_loop, NULL);
    dft2d("threaded dft_2d with callback", 48, 40);
    fftw_threads_set_callback(NULL, NULL);

    fftw_plan_with_nthreads(1);
    printf("planner_nthreads %d\n", fftw_planner_nthreads());
    dft2d("one thread dft_2d", 8, 8);
    fftw_cleanup_threads();
    fftwf_cleanup_threads();
    return 0;
}
