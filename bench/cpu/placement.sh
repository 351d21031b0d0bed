#!/usr/bin/env bash
# Placement on a GPU machine (issue 13's target): for every problem of the CPU table, at all
# cores, FFTW_ESTIMATE, fftx with FFTX_BACKEND=auto against the best of (FFTW 3.3.10, fftx forced
# to the GPU, fftx forced to the CPU), for pageable (malloc) and fftw_malloc arrays:
#   bash bench/cpu/placement.sh [path/to/libfftx.so]
# Runs bench/cpu/run.sh twice with BENCH_ARGS="--all-cores-only --placement [--fftw-malloc]":
# in each problem's process fftx is planned with FFTX_BACKEND=auto (first, as a fresh process
# plans), gpu and cpu, and the executes of the four plans alternate in a new order each round,
# so that all four times share the machine's state. run.sh's environment (BENCH_FILTER,
# BENCH_MIN_TIME, FFTW_LIB_DIR, ...) applies. Writes $OUT/placement.md (default ./bench-out)
# and the raw files beside it.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/bench-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
for alloc in malloc fftw_malloc; do
  extra="--all-cores-only --placement"
  [ $alloc = fftw_malloc ] && extra="$extra --fftw-malloc"
  echo "== $alloc arrays" >&2
  OUT=$OUT/$alloc BENCH_ARGS="$extra" FFTX_BACKEND=auto bash "$HERE/run.sh" "$@" >/dev/null
done
python3 "$HERE/placement_table.py" "$OUT" >"$OUT/placement.md"
cat "$OUT/placement.md"
