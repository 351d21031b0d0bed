#!/usr/bin/env bash
# Issue 17's kernels on the device, one call (after tools/device-build.sh here, carry [".device"]
# with .device/tests holding gpu and half):
#   tests   tests/half.rs through the GPU (FFTX_BACKEND=gpu), tests/gpu.rs's kernel twins and
#           the split-half kernels against their twin and FFTW
#   bench   bench/half.cu (fftxh_ against cuFFT fp16 and fp32, HALF_REPS executes a case) ->
#           $OUT/half.md
#   split   tools/device-split.sh timing on .device (SPLIT_SIZES) -> $OUT/split/split-half.md
#   ncu     Nsight Compute on the split-half pass kernels of SPLIT_NCU_SIZE (log2 N, default 20)
#           -> $OUT/split-ncu.csv (shared-memory conflicts, instructions, DRAM throughput)
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
log() { echo "=== [$(date -u +%H:%M:%S)] $*" | tee -a "$OUT/summary.txt"; }
for s in ${@:-tests bench split}; do
  case $s in
    tests)
      log half-tests
      timeout -k 5 240 env FFTX_REQUIRE_GPU=1 FFTX_BACKEND=gpu .device/tests/half --test-threads=1 >"$OUT/half-tests.log" 2>&1
      echo "rc=$? $(grep '^test result' "$OUT/half-tests.log")" | tee -a "$OUT/summary.txt"
      log gpu-tests
      timeout -k 5 300 env FFTX_REQUIRE_GPU=1 .device/tests/gpu --test-threads=1 kernels_match split_half_kernel fftx >"$OUT/gpu-tests.log" 2>&1
      echo "rc=$? $(grep '^test result' "$OUT/gpu-tests.log")" | tee -a "$OUT/summary.txt" ;;
    bench)
      log half-bench
      "$CUDA_HOME/bin/nvcc" -O2 -std=c++17 -arch=sm_90 -Iinclude bench/half.cu -o /tmp/halfbench -L.device/lib -lfftx -lcufft \
        -Xlinker -rpath="$PWD/.device/lib" >"$OUT/half-build.log" 2>&1
      timeout -k 5 240 /tmp/halfbench "${HALF_REPS:-20}" >"$OUT/half.md" 2>"$OUT/half-bench.err"
      echo "rc=$?" | tee -a "$OUT/summary.txt" ;;
    split)
      log split-timing
      D=.device/tests OUT="$OUT/split" bash tools/device-split.sh timing >"$OUT/split.log" 2>&1
      echo "rc=$?" | tee -a "$OUT/summary.txt" ;;
    ncu)
      log split-ncu
      timeout -k 5 240 env FFTX_REQUIRE_GPU=1 SPLIT_SIZES="${SPLIT_NCU_SIZE:-20}" "$CUDA_HOME/bin/ncu" --clock-control none \
        --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \
        -k regex:fxs_pass --launch-skip 4 --launch-count 6 --csv --page raw \
        .device/tests/gpu --ignored --test-threads=1 split_half_plan_timing >"$OUT/split-ncu.csv" 2>"$OUT/split-ncu.err"
      echo "rc=$? rows=$(grep -c '^"' "$OUT/split-ncu.csv")" | tee -a "$OUT/summary.txt" ;;
  esac
done
# At most 8 files come back: the logs go into one archive.
(cd "$OUT" && tar czf /tmp/half-logs.tgz --exclude=summary.txt --exclude='*.md' --exclude='*.csv' --exclude=split . &&
  find . -maxdepth 1 -type f -name '*.log' -delete -o -maxdepth 1 -name '*.err' -delete && mv /tmp/half-logs.tgz logs.tgz)
