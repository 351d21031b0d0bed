/* FFTW_MEASURE plans of fftx's FFTW-MPI API: the planner times its transposes both ways
 * (MPI_Alltoallv and pairwise MPI_Sendrecv) and every process takes process 0's choice. A
 * 3-D c2c and a transpose plan, each planned with FFTW_MEASURE and with FFTW_ESTIMATE (which
 * exchanges by MPI_Alltoallv) on the same input, must give the same output. Exits non-zero on
 * a difference. Built against fftx only (.ci/mpi.sh), run with 2-4 processes. */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdio.h>

static double val(ptrdiff_t g) { return (double) ((g * 7919 + 13) % 1009) / 504.5 - 1.0; }

static int compare(const char *what, const double *a, const double *b, ptrdiff_t count) {
    double worst = 0;
    for (ptrdiff_t i = 0; i < count; ++i) worst = fmax(worst, fabs(a[i] - b[i]));
    if (worst > 1e-12) {
        fprintf(stderr, "mpi_measure: %s differs by %g\n", what, worst);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    fftw_mpi_init();
    int failed = 0;
    const ptrdiff_t n[3] = {16, 12, 10};
    ptrdiff_t local_n0, start0;
    ptrdiff_t alloc = fftw_mpi_local_size_3d(n[0], n[1], n[2], MPI_COMM_WORLD, &local_n0, &start0);
    fftw_complex *in = fftw_alloc_complex(alloc), *a = fftw_alloc_complex(alloc),
                 *b = fftw_alloc_complex(alloc);
    fftw_plan measured = fftw_mpi_plan_dft_3d(n[0], n[1], n[2], in, a, MPI_COMM_WORLD,
                                              FFTW_FORWARD, FFTW_MEASURE);
    fftw_plan estimated = fftw_mpi_plan_dft_3d(n[0], n[1], n[2], in, b, MPI_COMM_WORLD,
                                               FFTW_FORWARD, FFTW_ESTIMATE);
    ptrdiff_t count = local_n0 * n[1] * n[2];
    for (ptrdiff_t i = 0; i < count; ++i) {
        in[i][0] = val(start0 * n[1] * n[2] + i);
        in[i][1] = val(start0 * n[1] * n[2] + i + 5);
    }
    fftw_execute(measured);
    fftw_execute(estimated);
    failed |= compare("a 3-D c2c", (double *) a, (double *) b, 2 * count);
    fftw_destroy_plan(measured);
    fftw_destroy_plan(estimated);

    const ptrdiff_t rows = 36, cols = 20;
    ptrdiff_t ln0, s0, ln1, s1;
    ptrdiff_t talloc = fftw_mpi_local_size_2d_transposed(rows, cols, MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
    double *x = fftw_alloc_real(2 * talloc), *y = fftw_alloc_real(2 * talloc), *z = fftw_alloc_real(2 * talloc);
    fftw_plan tm = fftw_mpi_plan_transpose(rows, cols, x, y, MPI_COMM_WORLD, FFTW_MEASURE);
    fftw_plan te = fftw_mpi_plan_transpose(rows, cols, x, z, MPI_COMM_WORLD, FFTW_ESTIMATE);
    for (ptrdiff_t i = 0; i < ln0 * cols; ++i) x[i] = val(s0 * cols + i);
    fftw_execute(tm);
    fftw_execute(te);
    failed |= compare("a transpose", y, z, ln1 * rows);
    fftw_destroy_plan(tm);
    fftw_destroy_plan(te);
    fftw_free(in); fftw_free(a); fftw_free(b); fftw_free(x); fftw_free(y); fftw_free(z);
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any;
}
