#!/usr/bin/env bash
# Placement on a GPU machine (issue 13's target): for every problem of the CPU table, at all
# cores, FFTW_ESTIMATE, fftx with FFTX_BACKEND=auto against the best of (FFTW 3.3.10, fftx forced
# to the GPU, fftx forced to the CPU), for pageable (malloc) and fftw_malloc arrays:
#   bash bench/cpu/placement.sh [path/to/libfftx.so]
# Runs bench/cpu/run.sh six times (BENCH_ARGS="--all-cores-only [--fftw-malloc]", FFTX_BACKEND
# auto, gpu, cpu); its environment (BENCH_FILTER, BENCH_MIN_TIME, FFTW_LIB_DIR, ...) applies.
# Writes $OUT/placement.md (default ./bench-out) and the six raw files beside it.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/bench-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
for alloc in malloc fftw_malloc; do
  extra=--all-cores-only
  [ $alloc = fftw_malloc ] && extra="$extra --fftw-malloc"
  for backend in auto gpu cpu; do
    echo "== $alloc, FFTX_BACKEND=$backend" >&2
    OUT=$OUT/$alloc-$backend BENCH_ARGS="$extra" FFTX_BACKEND=$backend \
      bash "$HERE/run.sh" "$@" >/dev/null
  done
done
python3 "$HERE/placement_table.py" "$OUT" >"$OUT/placement.md"
cat "$OUT/placement.md"
