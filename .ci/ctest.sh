#!/usr/bin/env bash
# Drop-in tests, from a clean or a used checkout (idempotent):
#   1. configure, build (cargo) and install the top-level project into ./install;
#   2. configure and build the test project ctest/ in ./build-ctest against that install
#      (CMAKE_PREFIX_PATH=./install, found as users find FFTW);
#   3. run its tests: fftx vs the system's FFTW 3.3.10 (C, C++, Fortran 77, Fortran 2003),
#      LD_PRELOAD and LD_LIBRARY_PATH swaps, export hygiene, FFTW's full export list
#      (../shared/fftw3-abi), install layout, relocatability, the example.
# Exits non-zero if anything fails. JOBS (default 2) sets the parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-2}
abi_dir=${FFTX_ABI_DIR:-$root/../shared/fftw3-abi}

keep_going() { # the generator's "keep going" switch, so one failed program fails only its tests
  case "$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$1/CMakeCache.txt")" in
    Ninja*) echo "-k 0" ;;
    *Makefiles*) echo "-k" ;;
  esac
}

echo "== build and install fftx"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
rm -rf install            # no stale files from an earlier layout
cmake --install build --prefix "$root/install"

echo "== build the tests against $root/install"
cmake -S ctest -B build-ctest -DCMAKE_PREFIX_PATH="$root/install" -DFFTX_ABI_DIR="$abi_dir"
build_rc=0
# shellcheck disable=SC2046
cmake --build build-ctest -j"$jobs" -- $(keep_going build-ctest) || build_rc=$?

echo "== run the tests"
test_rc=0
(cd build-ctest && ctest --output-on-failure -j"$jobs") || test_rc=$?

if [ "$build_rc" -ne 0 ]; then
  echo "ctest.sh: building the test programs failed (exit $build_rc); see above" >&2
fi
if [ "$build_rc" -ne 0 ] || [ "$test_rc" -ne 0 ]; then
  exit 1
fi
echo "ctest.sh: all passed"
