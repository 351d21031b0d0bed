#!/usr/bin/env bash
# bench/tc_probe.cu on the device: the tensor-core half-storage kernels against cuFFT fp16.
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
"$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -arch=sm_90 -Xptxas -v bench/tc_probe.cu -o /tmp/tc_probe -lcufft >"$OUT/tc-build.txt" 2>&1 \
  || { echo "build failed"; tail -30 "$OUT/tc-build.txt"; exit 1; }
grep -E "spill|registers" "$OUT/tc-build.txt" | head -40
LD_LIBRARY_PATH=$CUDA_HOME/lib64 timeout -k 5 300 /tmp/tc_probe "${TC_REPS:-20}" >"$OUT/tc.md" 2>"$OUT/tc.err"
echo "rc=$?"
cat "$OUT/tc.md"; tail -5 "$OUT/tc.err"
# TC_NCU=1: Nsight Compute on every probe kernel launch (stalls, bank conflicts, DRAM) -> $OUT/tc-ncu.csv
if [ -n "${TC_NCU:-}" ]; then
  metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
  LD_LIBRARY_PATH=$CUDA_HOME/lib64 timeout -k 5 200 "$CUDA_HOME/bin/ncu" --clock-control none --metrics "$metrics" -k regex:'kD' --csv --page raw /tmp/tc_probe 1 >"$OUT/tc-ncu.csv" 2>>"$OUT/tc.err"
  echo "ncu rc=$?"
  python3 - "$OUT/tc-ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
if hdr is None:
    print("no ncu rows"); sys.exit()
h = rows[hdr]
for r in rows[hdr + 2:]:
    d = dict(zip(h, r))
    print(d.get("Kernel Name", "")[:40], " ".join(f"{k.split('__')[-1][:38]}={v}" for k, v in d.items() if k.startswith(("gpu__", "dram__", "sm", "l1tex", "launch__"))))
PY
fi
