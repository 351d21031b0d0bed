#!/usr/bin/env bash
# The benchmark, on the device machine, from the repository root (after tools/device-build.sh
# here): the same FFTW-API program against FFTW 3.3.10 (16 threads), cuFFTW (LD_PRELOAD) and
# fftx (LD_PRELOAD of .device/lib/libfftx.so), for fftw_malloc and malloc arrays; then fftx
# against cuFFT called directly on device arrays. Raw lines and the table go to $OUT.
set -u
OUT=${OUT:-$PWD/bench-out}
mkdir -p "$OUT"
RAW=$OUT/bench-raw.txt
: > "$RAW"
B=/tmp/fftw_bench
CUDA=/usr/local/cuda
FFTW_LIBS="-l:libfftw3.so.3 -l:libfftw3f.so.3 -l:libfftw3_threads.so.3 -l:libfftw3f_threads.so.3"
gcc -O2 -std=gnu99 -Iinclude bench/fftw_bench.c -o $B $FFTW_LIBS -lm || { echo "build failed"; exit 1; }
gcc -O2 -std=gnu99 -Iinclude -I$CUDA/include -DFFTX_BENCH_CUDA bench/fftw_bench.c -o $B-cuda \
    -L$CUDA/lib64 $FFTW_LIBS -lcufft -lcudart -lm || { echo "cuda build failed"; exit 1; }
export LD_LIBRARY_PATH=$CUDA/lib64:${LD_LIBRARY_PATH:-}
FILTER=${BENCH_FILTER:-}
MIN=${BENCH_MIN_TIME:-1}
run() { # label, env..., -- args
  local label=$1; shift
  echo "--- $label" | tee -a "$RAW"
  timeout 400 env "$@" --min-time "$MIN" ${FILTER:+--filter "$FILTER"} 2>>"$OUT/bench-stderr.txt" \
    | sed "s/^RESULT \([^ ]*\) \([^ ]*\)/RESULT \1 \2 $label/" | tee -a "$RAW" || echo "FAILED $label" | tee -a "$RAW"
}
for alloc in fftw malloc; do
  run fftw     $B --threads 16 --alloc $alloc
  run cufftw   LD_PRELOAD=$CUDA/lib64/libcufftw.so.12 $B --threads 16 --alloc $alloc
  run fftx     LD_PRELOAD=$PWD/.device/lib/libfftx.so FFTX_LOG=info $B --threads 16 --alloc $alloc
done
run fftx     LD_PRELOAD=$PWD/.device/lib/libfftx.so FFTX_LOG=info $B-cuda --threads 16 --alloc device
grep "fftx\[info\]: plan" "$OUT/bench-stderr.txt" | cut -c1-300 > "$OUT/fftx-choices.txt"
python3 bench/ratios.py "$RAW" | tee "$OUT/bench-table.md"
