#!/usr/bin/env bash
# Nsight Compute on the Hockney benchmark's kernels, for one `device` call (after
# tools/device-build.sh here, with carry [".device"]): the fused FFTX pass kernels of the f32 and
# f64 chains and the naive cuFFT pipelines' kernels, at each n of PROFILE_NS (default "128 256").
#   bash tools/device-profile.sh
# Writes $OUT/ncu-<pipeline>-<n>.txt (ncu's details page per kernel) and $OUT/profile.md (a
# table of the counters that say what bounds a kernel: DRAM throughput, duration, shared-memory
# bank conflicts, occupancy, issue activity). Clocks stay as they are (--clock-control none).
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true)
[ -x "$CUDA_HOME/bin/ncu" ] && NCU=$CUDA_HOME/bin/ncu
BIN=/tmp/hockney-profile
"$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -arch=sm_90 bench/hockney.cu -I include -L .device/lib -lfftx -lcufft \
  -Xlinker -rpath="$PWD/.device/lib" -o "$BIN" >"$OUT/build.log" 2>&1 || { echo "nvcc failed"; exit 1; }
echo "ncu: ${NCU:-none}" | tee -a "$OUT/summary.txt"
[ -n "$NCU" ] || exit 1
# The counters, once: metric|column|scale (the table's unit). Stalls: warps stalled per issue.
COLUMNS="gpu__time_duration.sum|us|1e-3
dram__bytes_read.sum|MB rd|1e-6
dram__bytes_write.sum|MB wr|1e-6
dram__throughput.avg.pct_of_peak_sustained_elapsed|DRAM %|1
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum|smem conflicts|1
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum|smem wavefronts|1
sm__warps_active.avg.pct_of_peak_sustained_active|occupancy %|1
smsp__issue_active.avg.pct_of_peak_sustained_active|issue %|1
sm__inst_executed.sum|inst (M)|1e-6
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio|stall barrier|1
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio|stall long sb|1
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio|stall short sb|1
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio|stall mio|1
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio|stall lg|1
launch__registers_per_thread|regs|1
launch__block_size|block|1
launch__grid_size|grid|1"
metrics=$(cut -d'|' -f1 <<<"$COLUMNS" | paste -sd,)
for n in ${PROFILE_NS:-128 256}; do
  for pl in ${PROFILE_PIPELINES:-fftx-f32-device fftx-f64-device naive-f32 naive-f64}; do
    case $pl in fftx*) filter=(-k regex:fftx_pass) skip=0 count=${PROFILE_FFTX_COUNT:-10} ;; *) filter=() skip=20 count=${PROFILE_NAIVE_COUNT:-10} ;; esac
    # The fused pass kernels of a chain are the same at plan time (its trials) and at run time.
    timeout -k 5 240 env FFTX_LOG=warn ${PROFILE_ENV:-} "$NCU" --clock-control none --metrics "$metrics" \
      "${filter[@]}" --launch-skip "$skip" --launch-count "$count" --csv --page raw \
      "$BIN" --n "$n" --pipelines "$pl" --min-time 0.01 --max-reps 4 >"$OUT/ncu-$pl-$n.csv" 2>"$OUT/ncu-$pl-$n.err"
    echo "$pl n=$n rc=$? rows=$(grep -c '^"' "$OUT/ncu-$pl-$n.csv")" | tee -a "$OUT/summary.txt"
  done
done
COLUMNS="$COLUMNS" python3 - "$OUT" <<'PY' >"$OUT/profile.md" 2>>"$OUT/summary.txt"
import csv, glob, os, sys
out = sys.argv[1]
cols = [(m, label, float(scale)) for m, label, scale in
        (line.split("|") for line in os.environ["COLUMNS"].splitlines())]
print("| run | kernel | " + " | ".join(c[1] for c in cols) + " |")
print("|---|---|" + "---:|" * len(cols))
for f in sorted(glob.glob(os.path.join(out, "ncu-*.csv"))):
    lines = [l for l in open(f, errors="replace") if l.startswith('"')]
    if len(lines) < 3:
        continue
    rows = list(csv.reader(lines))
    head, data = rows[0], rows[2:]
    for r in data:
        d = dict(zip(head, r))
        vals = []
        for key, _, scale in cols:
            v = d.get(key, "")
            try:
                x = float(v.replace(",", "")) * scale
                vals.append(f"{x:.3g}" if x < 1000 else f"{x:.0f}")
            except ValueError:
                vals.append(v or "-")
        name = d.get("Kernel Name", "?")[:40]
        print(f"| {os.path.basename(f)[4:-4]} | {name} | " + " | ".join(vals) + " |")
PY
cat "$OUT/profile.md" >>"$OUT/summary.txt"
# The device tool returns at most 8 files: the raw ones go into one archive.
(cd "$OUT" && tar czf /tmp/profile-raw.tgz ncu-* build.log && rm -f ncu-* build.log && mv /tmp/profile-raw.tgz raw.tgz)
