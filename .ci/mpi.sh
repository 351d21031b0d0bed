#!/usr/bin/env bash
# FFTW-MPI tests (ctest/mpi/), against the install that .ci/ctest.sh made (./install; made here
# if absent), with Open MPI (packages libopenmpi-dev openmpi-bin libfftw3-mpi-dev):
#   1. mpi_check.c built against fftx and against the system's FFTW 3.3.10 (libfftw3_mpi), run
#      with 1-4 processes; compare.py requires identical local sizes and outputs within
#      eps * 8 * log2(N) of FFTW's;
#   2. mpi_f03.f90 (include 'fftw3-mpi.f03') with 1-4 processes; mpi_check with the transposes
#      exchanging pairwise (FFTX_MPI_EXCHANGE=pairwise) against FFTW too, and mpi_measure.c:
#      FFTW_MEASURE plans, which time both ways, equal to FFTW_ESTIMATE's;
#   3. no_mpi.c: without MPI, fftx still plans and executes (and does not load libmpi);
#   4. fftx's headers (fftw3-mpi.h, fftw3-mpi.f03) with FFTW's own libraries: same results.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
prefix=${FFTX_PREFIX:-$root/install}
if [ -z "$(find "$prefix" -name libfftw3_mpi.so.3 2>/dev/null | head -n 1)" ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
  cmake --build build -j"${JOBS:-2}"
  cmake --install build --prefix "$prefix"
fi
libdir=$(dirname "$(find "$prefix" -name libfftw3_mpi.so.3 | head -n 1)")
out=$root/build-mpi
rm -rf "$out" && mkdir -p "$out"
libs=(-lfftw3_mpi -lfftw3f_mpi -lfftw3 -lfftw3f -lm)
fftx=(-I"$prefix/include" -L"$libdir" -Wl,-rpath,"$libdir")

echo "== build ctest/mpi against $prefix and against the system's FFTW"
mpicc -O1 -Wall -Wextra -Werror "${fftx[@]}" ctest/mpi/mpi_check.c -o "$out/fftx_mpi_check" "${libs[@]}"
mpicc -O1 -Wall -Wextra -Werror ctest/mpi/mpi_check.c -o "$out/sys_mpi_check" "${libs[@]}"
mpif90 -O1 -Wall "${fftx[@]}" ctest/mpi/mpi_f03.f90 -o "$out/fftx_mpi_f03" "${libs[@]}"
mpicc -O1 -Wall -Wextra -Werror "${fftx[@]}" ctest/mpi/mpi_measure.c -o "$out/fftx_mpi_measure" "${libs[@]}"
cc -O1 -Wall -Werror "${fftx[@]}" ctest/mpi/no_mpi.c -o "$out/no_mpi" -lfftw3 -lm
# fftx's headers, FFTW's libraries (the system's directory first, then the headers)
hdr=(-I"$prefix/include" -L/usr/lib/x86_64-linux-gnu -L/usr/lib)
mpicc -O1 -Wall -Wextra -Werror "${hdr[@]}" ctest/mpi/mpi_check.c -o "$out/hdr_mpi_check" "${libs[@]}"
mpif90 -O1 "${hdr[@]}" ctest/mpi/mpi_f03.f90 -o "$out/hdr_mpi_f03" "${libs[@]}"

# (containers often forbid the cross-memory attach Open MPI's shared-memory transport tries)
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
run() { mpirun --oversubscribe --allow-run-as-root -np "$@"; }
for np in 1 2 3 4; do
  echo "== $np processes"
  run "$np" "$out/sys_mpi_check" "$out/sys.$np"
  run "$np" "$out/fftx_mpi_check" "$out/fftx.$np"
  python3 ctest/mpi/compare.py "$out/fftx.$np" "$out/sys.$np" "$np"
  run "$np" "$out/fftx_mpi_f03"
  if [ "$np" -gt 1 ]; then
    FFTX_MPI_EXCHANGE=pairwise run "$np" "$out/fftx_mpi_check" "$out/pairwise.$np"
    python3 ctest/mpi/compare.py "$out/pairwise.$np" "$out/sys.$np" "$np"
    FFTX_LOG=info run "$np" "$out/fftx_mpi_measure" 2>"$out/measure.$np.log"
    grep -q "chosen" "$out/measure.$np.log" || { cat "$out/measure.$np.log"; exit 1; }
  fi
done
echo "== fftx's headers with FFTW's libraries"
run 2 "$out/hdr_mpi_check" "$out/hdr.2"
python3 ctest/mpi/compare.py "$out/hdr.2" "$out/sys.2" 2
run 2 "$out/hdr_mpi_f03"
echo "== without MPI"
"$out/no_mpi"
FFTX_MPI_LIBRARY=/nonexistent/libmpi.so.40 "$out/no_mpi"
echo "mpi.sh: all passed"
