#!/usr/bin/env bash
# The Hockney benchmark against two builds of the library in one device call, alternating
# (A = .device-base/lib, B = .device/lib; carry [".device", ".device-base"]): NS (default 128)
# and the host- and device-resident f64 pipelines, two rounds, ROW lines in $OUT/ab.txt.
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
for side in A B; do
  lib=$([ $side = A ] && echo .device-base/lib || echo .device/lib)
  /usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=sm_90 bench/hockney.cu -I include -L $lib -lfftx -lcufft \
    -Xlinker -rpath=$PWD/$lib -o /tmp/hk-$side >>"$OUT/ab.txt" 2>&1
done
for r in 1 2; do
  for side in A B; do
    echo "== $side round $r" >>"$OUT/ab.txt"
    timeout 120 /tmp/hk-$side --n "${NS:-128}" --pipelines fftx-f64-host,naive-f64-host,fftx-f64-device \
      --min-time 0.5 2>/dev/null | grep ROW >>"$OUT/ab.txt"
  done
done
