#!/usr/bin/env bash
# Issue 17's split-half path on the device, one call (under 10 minutes), from .device-split/
# (built here by tools/device-split-build.sh, carried with carry [".device-split"]):
#   test    tests/gpu.rs split_half_kernel_matches_its_twin_and_fftw: the tensor-core kernels
#           against their CPU twin (1e-6) and FFTW f64 (5e-8 log2 N, at least 3e-7) on device and
#           host arrays, other groupings of the stages into passes, and fftwf_ plans under
#           FFTX_TENSOR_CORES=split (gpu-split-half)
#   timing  tests/gpu.rs split_half_plan_timing (ignored test): fftwf_ plans on device arrays,
#           FFTW_ESTIMATE, split-half against the ordinary (cuFFT) GPU plan, N = 2^12 .. 2^26
#           (SPLIT_SIZES, log2 N, default "12 16 20 21 22 23 24 25 26"), batches of 2^24 elements:
#           median ms of 20 executes and rel. L2 error against FFTW f64; then every grouping
#           of the stages into passes timed on SplitHalf itself -> $OUT/split-half.md
# Usage (device tool, carry [".device-split"]):  bash tools/device-split.sh [test] [timing]
# (no argument: both). In $OUT: gpu.txt, summary.txt, split-half.md, logs.tar.gz.
set -u
D=${D:-.device-split}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/logs"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader; } \
  >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
status=0
section() { # name, seconds, command...
  local name=$1 secs=$2; shift 2
  echo "=== [$(date -u +%H:%M:%S)] $name" | tee -a "$OUT/summary.txt"
  local t0=$SECONDS
  timeout -k 5 "$secs" "$@" >"$OUT/logs/$name.log" 2>&1
  local rc=$?
  grep -E "^test result|FAILED|panicked|^failures:|^split-half|^fftwf_ plan|^\| " "$OUT/logs/$name.log" |
    head -80 | tee -a "$OUT/summary.txt"
  echo "--- $name rc=$rc $((SECONDS - t0)) s" | tee -a "$OUT/summary.txt"
  [ $rc = 0 ] || status=1
}
for s in ${@:-test timing}; do
  case $s in
    test) section test "${TEST_SECS:-240}" env FFTX_REQUIRE_GPU=1 FFTX_LOG=info \
      "$D/gpu" --test-threads=1 --nocapture split_half_kernel_matches_its_twin_and_fftw ;;
    timing) section timing "${TIMING_SECS:-300}" env FFTX_REQUIRE_GPU=1 FFTX_LOG=info OUT="$OUT" \
      SPLIT_SIZES="${SPLIT_SIZES:-12 16 20 21 22 23 24 25 26}" "$D/gpu" --ignored --test-threads=1 --nocapture split_half_plan_timing ;;
    *) echo "unknown section $s (test, timing)" | tee -a "$OUT/summary.txt"; status=1 ;;
  esac
done
echo "device-split status: $status" | tee -a "$OUT/summary.txt"
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
ls -la "$OUT"
exit $status
