/* Without MPI: fftx plans and executes ordinary FFTs, never loads libmpi, and an fftw_mpi_
 * call answers FFTW's failure value (0) with a message instead of crashing when MPI cannot be
 * loaded (run with FFTX_MPI_LIBRARY pointing at no file). Built without mpi.h. */
#include <fftw3.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fftw3-mpi.h's prototype with Open MPI's MPI_Comm (a pointer). */
ptrdiff_t fftw_mpi_local_size_2d(ptrdiff_t n0, ptrdiff_t n1, void *comm, ptrdiff_t *local_n0,
                                 ptrdiff_t *local_0_start);

static int libmpi_loaded(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, "libmpi.so")) found = 1;
    if (f) fclose(f);
    return found;
}

int main(void) {
    enum { N = 64 };
    fftw_complex *in = fftw_alloc_complex(N), *out = fftw_alloc_complex(N);
    fftw_plan p = fftw_plan_dft_1d(N, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
    for (int k = 0; k < N; ++k) in[k][0] = in[k][1] = 0;
    in[1][0] = 1; /* e^{-2 pi i k / N} */
    fftw_execute(p);
    double err = 0;
    for (int k = 0; k < N; ++k) {
        double a = -2 * M_PI * k / N;
        err = fmax(err, fmax(fabs(out[k][0] - cos(a)), fabs(out[k][1] - sin(a))));
    }
    fftw_destroy_plan(p);
    fftw_free(in);
    fftw_free(out);
    int fail = 0;
    if (err > 1e-12) { printf("FAIL: FFT error %g\n", err); fail = 1; }
    if (libmpi_loaded()) { printf("FAIL: libmpi was loaded by ordinary FFTs\n"); fail = 1; }
    if (getenv("FFTX_MPI_LIBRARY")) {
        ptrdiff_t ln = -1, ls = -1;
        ptrdiff_t a = fftw_mpi_local_size_2d(8, 8, (void *) 0x10, &ln, &ls);
        if (a != 0 || ln != -1) { printf("FAIL: local_size without MPI gave %td\n", a); fail = 1; }
    }
    printf("%s: FFT error %.2g, libmpi %s\n", fail ? "FAIL" : "ok", err,
           libmpi_loaded() ? "loaded" : "not loaded");
    return fail;
}
