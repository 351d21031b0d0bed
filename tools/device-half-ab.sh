#!/usr/bin/env bash
# bench/half.cu against two builds of the library in one call, alternating (A = .device-base/lib,
# B = .device/lib; AB_ROUNDS rounds, default 2): $OUT/half-A-<round>.md, $OUT/half-B-<round>.md.
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
for side in A B; do
  lib=$([ $side = A ] && echo .device-base/lib || echo .device/lib)
  "$CUDA_HOME/bin/nvcc" -O2 -std=c++17 -arch=sm_90 -Iinclude bench/half.cu -o /tmp/halfbench-$side -L$lib -lfftx -lcufft \
    -Xlinker -rpath="$PWD/$lib" >>"$OUT/build.txt" 2>&1 || echo "build $side failed" >>"$OUT/build.txt"
done
for r in $(seq 1 "${AB_ROUNDS:-2}"); do
  for side in A B; do
    timeout -k 5 200 /tmp/halfbench-$side "${HALF_REPS:-20}" >"$OUT/half-$side-$r.md" 2>>"$OUT/build.txt"
  done
done
