#!/usr/bin/env bash
# (Reads .device-mpi/{sys,lib} as tools/device-many-build.sh makes them.) FFTW-MPI c2c/r2c 512^3 double, 2 ranks on the one-GPU box: FFTW 3.3.10's libfftw3_mpi against fftx with its transposes by MPI_Alltoallv and by pairwise MPI_Sendrecv.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
M=$PWD/.device-mpi
mpicc -O2 -I"$M/sys/include" bench/mpi/mpi_bench.c -o /tmp/mb_sys -L"$M/sys/lib" -Wl,-rpath,"$M/sys/lib" -lfftw3_mpi -lfftw3_threads -lfftw3 -lm
mpicc -O2 -Iinclude bench/mpi/mpi_bench.c -o /tmp/mb_fftx -L"$M/lib" -Wl,-rpath,"$M/lib" -lfftw3_mpi -lfftw3_threads -lfftw3 -lm
{ date -u; nvidia-smi -L; nproc; } > $OUT/env.txt
for k in c2c r2c; do
  for v in sys alltoall pairwise; do
    b=/tmp/mb_fftx; [ $v = sys ] && b=/tmp/mb_sys
    echo "=== [$(date -u +%T)] $k 512^3 2 ranks $v" >> $OUT/ways.txt
    FFTX_MPI_EXCHANGE=$v timeout -k 5 100 mpirun --bind-to none -np 2 $b $k 512 512 512 8 5 > $OUT/$k-$v.log 2>&1
    grep -E "RESULT|FAIL|rror" $OUT/$k-$v.log >> $OUT/ways.txt
  done
done
