#!/usr/bin/env bash
# Runs on the device machine, from the repository root, after tools/device-build.sh here:
#   1. the GPU tests (tests/gpu.rs: GPU vs CPU executor, device arrays, fallback, leaks) and the
#      kernel-vs-twin tests, with FFTX_REQUIRE_GPU=1 so a missing GPU fails;
#   2. the whole differential suite against FFTW 3.3.10 with FFTX_BACKEND=gpu, the API and
#      FFTW-contract tests, and the injected faults (tests/gpu.rs; a real device reset alone;
#      CUDA missing: FFTX_FAULT=no-cuda);
#   3. the benchmark (bench/run.sh), unless DEVICE_SKIP_BENCH=1.
# Logs go to $OUT (the device tool's output folder) or ./device-out.
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
# cuFFT and the real FFTW (the tests' reference) must be findable by dlopen.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
ldconfig -p | grep -E "libfftw3(f)?\.so\.3 |libcufft\.so" | tee -a "$OUT/gpu.txt"
run() { # name, env..., binary args (the log goes to $OUT, which a call may set: OUT=/tmp run ...)
  local name=$1; shift
  echo "=== $name"
  if ! ( set -o pipefail; env "$@" 2>&1 | tee "$OUT/$name.log" | grep -E "^test |test result|panicked|rel\. L2|FAILED|error" ); then
    echo "!!! $name FAILED"; status=1
  fi
}
export FFTX_REQUIRE_GPU=1
if [ "${DEVICE_SKIP_TESTS:-0}" != 1 ]; then
run gpu-tests FFTX_LOG=warn .device/tests/gpu --test-threads=1
OUT=/tmp run unit-tests .device/tests/unit --test-threads=4
OUT=/tmp run fftx-tests FFTX_BACKEND=gpu .device/tests/fftx --test-threads=1
run differential-gpu FFTX_BACKEND=gpu .device/tests/differential --test-threads=${DIFF_THREADS:-8}
run api-gpu FFTX_BACKEND=gpu .device/tests/api --test-threads=1
run fftw-contract-gpu FFTX_BACKEND=gpu .device/tests/fftw_contract --test-threads=1
# Faults: a real device reset between executes (alone: it destroys every device resource of the
# process), and CUDA missing with the GPU asked for (everything must run, right, on the CPU).
run fault-reset FFTX_LOG=warn .device/tests/gpu --ignored --test-threads=1 device_reset_between_executes
OUT=/tmp run fault-no-cuda FFTX_FAULT=no-cuda FFTX_BACKEND=gpu FFTX_REQUIRE_GPU=0 .device/tests/api --test-threads=1
OUT=/tmp run fault-no-cuda-differential FFTX_FAULT=no-cuda FFTX_BACKEND=gpu FFTX_REQUIRE_GPU=0 .device/tests/differential --test-threads=8
# Each way of fusing on every FFTX test chain: none may fall back to the CPU (a chain that cannot
# be built that way, or a GPU failure, logs at info level and would pass on the CPU unseen).
for f in fused kernel callback; do
  OUT=/tmp run fftx-tests-$f FFTX_BACKEND=gpu FFTX_GPU_FUSION=$f FFTX_LOG=info .device/tests/fftx --test-threads=1 --nocapture
  fallbacks=$(grep -c "fusion unavailable\|GPU failed\|was reset" /tmp/fftx-tests-$f.log)
  echo "fftx-tests-$f: $(grep -c "runs with $f fusion" /tmp/fftx-tests-$f.log) chains with $f fusion, $fallbacks fell back"
  [ "$fallbacks" = 0 ] || { echo "!!! fftx-tests-$f FAILED (fallbacks)"; status=1; }
done
# The FFTX C/C++ programs on the GPU (each checks its results against a direct reference).
for p in .device/ctest/*; do
  run ctest-$(basename "$p") FFTX_BACKEND=gpu FFTX_LOG=warn "$p"
done
fi
if [ "${DEVICE_SKIP_HOCKNEY:-0}" != 1 ]; then
  echo "=== hockney"
  bash bench/hockney.sh || { echo "!!! hockney FAILED"; status=1; }
fi
if [ "${DEVICE_SKIP_BENCH:-0}" != 1 ] && [ -x bench/run.sh ]; then
  echo "=== bench"
  bash bench/run.sh || { echo "!!! bench FAILED"; status=1; }
fi
echo "device-run status: $status"
exit $status
