#!/usr/bin/env bash
# bench/half.cu against several builds of the library in one call, alternating: the library
# directories in HALF_AB_LIBS (default ".device-base/lib .device/lib", sides A, B, C, ... in
# that order), AB_ROUNDS rounds (default 2): $OUT/half-<side>-<round>.md. Each side runs with
# its own directory first on LD_LIBRARY_PATH (which the loader searches before a RUNPATH, so a
# caller's LD_LIBRARY_PATH naming another build would otherwise load that build for every side).
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
libs=(${HALF_AB_LIBS:-.device-base/lib .device/lib})
sides=(A B C D E F)
for i in "${!libs[@]}"; do
  side=${sides[$i]}
  "$CUDA_HOME/bin/nvcc" -O2 -std=c++17 -arch=sm_90 -Iinclude bench/half.cu -o /tmp/halfbench-$side -L${libs[$i]} -lfftx -lcufft \
    >>"$OUT/build.txt" 2>&1 || echo "build $side failed" >>"$OUT/build.txt"
done
run_with() { # library directory, then the command
  local lib=$1
  shift
  LD_LIBRARY_PATH="$PWD/$lib:$CUDA_HOME/lib64" "$@"
}
for r in $(seq 1 "${AB_ROUNDS:-2}"); do
  for i in "${!libs[@]}"; do
    side=${sides[$i]}
    run_with "${libs[$i]}" timeout -k 5 200 /tmp/halfbench-$side "${HALF_REPS:-20}" >"$OUT/half-$side-$r.md" 2>>"$OUT/build.txt"
  done
done
# HALF_NCU_CASES (shapes as bench/half.cu's HALF_CASES): Nsight Compute on every kernel of those
# cases (3 executes a case, the first 120 launches), on the sides in HALF_NCU_SIDES (default
# "A B") -> $OUT/half-ncu-<side>.csv. HALF_CASES limits the timed cases the same way.
if [ -n "${HALF_NCU_CASES:-}" ]; then
  NCU=$CUDA_HOME/bin/ncu
  metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
  for side in ${HALF_NCU_SIDES:-A B}; do
    i=$(( $(printf '%d' "'$side") - 65 ))
    timeout -k 5 240 env HALF_CASES="$HALF_NCU_CASES" LD_LIBRARY_PATH="$PWD/${libs[$i]}:$CUDA_HOME/lib64" "$NCU" --clock-control none --metrics "$metrics" --launch-count 120 --csv --page raw \
      /tmp/halfbench-$side 3 >"$OUT/half-ncu-$side.csv" 2>>"$OUT/build.txt"
  done
fi
