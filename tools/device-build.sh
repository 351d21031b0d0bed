#!/usr/bin/env bash
# Builds here what the device machine runs (it has CUDA but no Rust) into .device/ (ignored by
# git; carried with the `device` tool's `carry: [".device"]`):
#   .device/lib/libfftx.so (+ the FFTW names as links), .device/tests/<test binaries>.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --lib
rm -rf .device && mkdir -p .device/lib .device/tests
cp target/release/libfftx.so .device/lib/libfftx.so
strip --strip-debug .device/lib/libfftx.so
for n in libfftw3 libfftw3f libfftw3_threads libfftw3f_threads libfftw3_omp libfftw3f_omp libfftw3_mpi libfftw3f_mpi; do
  ln -sf libfftx.so .device/lib/$n.so.3
  ln -sf libfftx.so .device/lib/$n.so
done
bash tools/test-binaries.sh .device/tests
ls -la .device/lib .device/tests
du -sh .device
# The FFTX ctest programs (C and C++), linked against the library above, for FFTX_BACKEND=gpu runs.
mkdir -p .device/ctest
for c in ctest/fftx/*.c; do
  gcc -O2 -std=c11 -Iinclude -Ictest/fftx "$c" -o ".device/ctest/$(basename "$c" .c)" -L.device/lib -lfftx -lm -Wl,-rpath,'$ORIGIN/../lib'
done
for c in ctest/fftx/*.cpp; do
  g++ -O2 -Iinclude -Ictest/fftx "$c" -o ".device/ctest/$(basename "$c" .cpp)" -L.device/lib -lfftx -lm -Wl,-rpath,'$ORIGIN/../lib'
done
ls .device/ctest
