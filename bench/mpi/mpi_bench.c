/*
 * mpi_bench: an FFTW-MPI program timed as it is, against whichever libfftw3_mpi it is linked or
 * loaded with (FFTW 3.3.10's own, or fftx's through LD_LIBRARY_PATH): a 3-D c2c (or r2c) of
 * n0 x n1 x n2 in double precision distributed over the ranks by fftw_mpi_local_size_3d,
 * FFTW_ESTIMATE, out of place, each rank with `threads` threads (fftw_plan_with_nthreads).
 *
 *   mpirun -np P mpi_bench c2c|r2c n0 n1 n2 [threads] [reps]
 *
 * Prints one line (rank 0):
 *   RESULT <kind>_<n0>x<n1>x<n2> np=<P> threads=<t> median_ms=<..> min_ms=<..> plan_ms=<..>
 *          checksum=<sum over every rank of sum |out|^2>
 * The time of one execute is the slowest rank's (MPI_Allreduce max after an MPI_Barrier).
 */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double val(ptrdiff_t g, int seed) { return sin(0.001 * (double) g * (seed + 1) + seed); }

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    if (argc < 5) {
        fprintf(stderr, "usage: mpi_bench c2c|r2c n0 n1 n2 [threads] [reps]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int r2c = strcmp(argv[1], "r2c") == 0;
    ptrdiff_t n0 = atol(argv[2]), n1 = atol(argv[3]), n2 = atol(argv[4]);
    int threads = argc > 5 ? atoi(argv[5]) : 1, reps = argc > 6 ? atoi(argv[6]) : 10;
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    fftw_init_threads();
    fftw_mpi_init();
    fftw_plan_with_nthreads(threads);
    ptrdiff_t nc = r2c ? n2 / 2 + 1 : n2, ln0, s0;
    ptrdiff_t alloc = fftw_mpi_local_size_3d(n0, n1, nc, MPI_COMM_WORLD, &ln0, &s0);
    fftw_complex *out = fftw_alloc_complex(alloc);
    double *rin = NULL;
    fftw_complex *cin = NULL;
    double t0 = MPI_Wtime();
    fftw_plan p;
    if (r2c) {
        rin = fftw_alloc_real(2 * alloc);
        for (ptrdiff_t i = 0; i < ln0; ++i)
            for (ptrdiff_t j = 0; j < n1; ++j)
                for (ptrdiff_t k = 0; k < n2; ++k)
                    rin[(i * n1 + j) * 2 * nc + k] = val(((s0 + i) * n1 + j) * n2 + k, 1);
        p = fftw_mpi_plan_dft_r2c_3d(n0, n1, n2, rin, out, MPI_COMM_WORLD, FFTW_ESTIMATE);
    } else {
        cin = fftw_alloc_complex(alloc);
        for (ptrdiff_t e = 0; e < ln0 * n1 * n2; ++e) {
            cin[e][0] = val(s0 * n1 * n2 + e, 2);
            cin[e][1] = val(s0 * n1 * n2 + e, 3);
        }
        p = fftw_mpi_plan_dft_3d(n0, n1, n2, cin, out, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
    }
    double plan_ms = (MPI_Wtime() - t0) * 1e3;
    if (!p) {
        if (rank == 0) printf("FAIL %s_%tdx%tdx%td np=%d reason=NULL plan\n", argv[1], n0, n1, n2, np);
        MPI_Finalize();
        return 1;
    }
    fftw_execute(p); /* warm-up */
    double *ms = malloc(sizeof(double) * reps);
    for (int r = 0; r < reps; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        fftw_execute(p);
        double mine = (MPI_Wtime() - t) * 1e3;
        MPI_Allreduce(&mine, &ms[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    double local = 0, sum = 0;
    for (ptrdiff_t e = 0; e < ln0 * n1 * nc; ++e) local += out[e][0] * out[e][0] + out[e][1] * out[e][1];
    MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    qsort(ms, reps, sizeof(double), cmp);
    if (rank == 0)
        printf("RESULT %s_%tdx%tdx%td np=%d threads=%d median_ms=%.3f min_ms=%.3f plan_ms=%.1f checksum=%.12e\n",
               argv[1], n0, n1, n2, np, threads, ms[reps / 2], ms[0], plan_ms, sum);
    fftw_destroy_plan(p);
    fftw_free(out);
    fftw_free(rin);
    fftw_free(cin);
    free(ms);
    fftw_mpi_cleanup();
    MPI_Finalize();
    return 0;
}
