/* The FFTW-MPI API on distributed problems with random data: built once against fftx and once
 * against the system's FFTW 3.3.10 (libfftw3_mpi), run with 1-4 processes; every process writes
 * its local sizes (which must be identical) and its local output (compared within a tolerance
 * by compare.py) to <prefix>.<rank>. */
#include <fftw3-mpi.h>
#include <stdio.h>
#include <stdlib.h>

static FILE *out;

/* A reproducible value in [-1, 1) for element g of data set `seed`. */
static double val(int seed, ptrdiff_t g) {
    unsigned long long x = (unsigned long long) g * 6364136223846793005ULL + (unsigned long long) seed * 1442695040888963407ULL;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    return (double) (x % 2000003ULL) / 1000001.5 - 1.0;
}

#define X(n) fftw_##n
#define XM(n) fftw_mpi_##n
#define XN(n) n##_d
#define R double
#define TAG "d"
#include "mpi_check_body.h"
#undef X
#undef XM
#undef XN
#undef R
#undef TAG
#define X(n) fftwf_##n
#define XM(n) fftwf_mpi_##n
#define XN(n) n##_f
#define R float
#define TAG "f"
#include "mpi_check_body.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char name[4096];
    snprintf(name, sizeof name, "%s.%d", argc > 1 ? argv[1] : "mpi_check", rank);
    out = fopen(name, "w");
    if (!out) { perror(name); MPI_Abort(MPI_COMM_WORLD, 2); }
    run_all_d();
    run_all_f();
    fclose(out);
    MPI_Finalize();
    return 0;
}
