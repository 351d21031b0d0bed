#!/usr/bin/env bash
# The Hockney convolution benchmark on the device machine, run from the repository root:
#   bash bench/hockney.sh
# Builds bench/hockney.cu with nvcc against .device/lib/libfftx.so and cuFFT (never the real FFTW),
# then for every n runs the naive cuFFT rows (naive-f32, naive-f64, naive-f64-host) as one process
# and the FFTX rows (fftx-f32-device, fftx-f64-device, fftx-f64-device-nomult, fftx-f64-host) as one process per
# FFTX_GPU_FUSION value, each under a timeout, so a crash or a hang costs only that process's rows.
#
# Environment: OUT (default ./bench-out), HOCKNEY_NS (default "64 128 256"),
# HOCKNEY_FUSIONS (default "auto callback kernel"), BENCH_TIMEOUT (seconds per process, 300),
# BENCH_MIN_TIME (1), HOCKNEY_MAX_REPS (200), HOCKNEY_BIN (/tmp/hockney), CUDA_HOME.
# Output: $OUT/hockney-raw.txt (every line), $OUT/hockney.md (the table),
# $OUT/hockney-stderr.txt (the processes' stderr: fftx's log).
set -u

ROOT=$PWD
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$ROOT/bench-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RAW=$OUT/hockney-raw.txt
MD=$OUT/hockney.md
ERRLOG=$OUT/hockney-stderr.txt
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
TMO=${BENCH_TIMEOUT:-300}
MIN_TIME=${BENCH_MIN_TIME:-1}
MAX_REPS=${HOCKNEY_MAX_REPS:-200}
NS=${HOCKNEY_NS:-64 128 256}
FUSIONS=${HOCKNEY_FUSIONS:-auto callback kernel}
BIN=${HOCKNEY_BIN:-/tmp/hockney}
LIBDIR=$ROOT/.device/lib
: >"$RAW"
: >"$ERRLOG"

step() { echo "=== [$(date +%H:%M:%S)] $*" | tee -a "$RAW"; }
info() { echo "INFO $*" | tee -a "$RAW"; }

# ---------------------------------------------------------------- the machine
step "machine"
info "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
info "gpu: ${gpu:-none (nvidia-smi gave nothing)}"
info "ns: $NS, fusions: $FUSIONS, min_time: $MIN_TIME s, max_reps: $MAX_REPS, timeout: $TMO s per process"
info "fftx: $LIBDIR/libfftx.so $([ -e "$LIBDIR/libfftx.so" ] && echo present || echo MISSING)"

# ---------------------------------------------------------------- the table (python3)
table() {
  python3 - "$RAW" "$MD" <<'PY' || echo "ERROR table script failed" | tee -a "$RAW"
import sys
raw, md = sys.argv[1], sys.argv[2]
rows, notes, errors, info = [], [], [], {}
for line in open(raw, errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("ROW "):
        rows.append(dict(t.split("=", 1) for t in line.split()[1:] if "=" in t))
    elif line.startswith("NOTE "):
        notes.append(line)
    elif line.startswith("ERROR ") or line.startswith("STDERR "):
        errors.append(line)
    elif line.startswith("INFO ") and ": " in line:
        k, v = line[5:].split(": ", 1)
        info.setdefault(k, v)

def num(r, k):
    try:
        return float(r.get(k, "nan"))
    except ValueError:
        return float("nan")

def find(n, pipeline):
    for r in rows:
        if r["n"] == n and r["pipeline"] == pipeline:
            return r
    return None

# the naive row of the same precision and residency
BASE = {"fftx-f64-device": "naive-f64", "fftx-f64-host": "naive-f64-host", "fftx-f32-device": "naive-f32",
        "naive-f64": "naive-f64", "naive-f64-host": "naive-f64-host"}
ORDER = ["naive-f32", "fftx-f32-device", "naive-f64", "fftx-f64-device", "fftx-f64-device-nomult", "naive-f64-host", "fftx-f64-host"]
key = lambda r: (int(r["n"]), ORDER.index(r["pipeline"]) if r["pipeline"] in ORDER else 99, r.get("fusion", ""))
rows.sort(key=key)

def f(x, spec):
    return "-" if x != x else format(x, spec)

out = ["# Hockney convolution (n^3 -> N^3 = (2n)^3, R2C, x Ghat, C2R)", "",
       f"GPU: {info.get('gpu', '?')}  ", f"Date: {info.get('date', '?')}", "",
       "| n | pipeline | resident | fusion | ms | speedup vs naive | rel L2 err | err / naive err | mult_ms |",
       "|---|---|---|---|---|---|---|---|---|"]
for r in rows:
    ms, err = num(r, "ms"), num(r, "err")
    base = find(r["n"], BASE.get(r["pipeline"], ""))
    speed = num(base, "ms") / ms if base and ms > 0 else float("nan")
    eratio = err / num(base, "err") if base and num(base, "err") > 0 else float("nan")
    out.append(f"| {r['n']} | {r['pipeline']} | {r.get('resident', '?')} | {r.get('fusion', '-')} | {f(ms, '.4f')} | "
               f"{f(speed, '.2f')} | {r.get('err', '-')} | {f(eratio, '.2f')} | {r.get('mult_ms', '-')} |")

# fused multiply cost: t(fftx) - t(fftx without the multiply), against the naive multiply kernel
out += ["", "## Fused multiply cost (target: < 15% of the separate multiply pass)", ""]
fused_lines = []
for r in rows:
    if r["pipeline"] != "fftx-f64-device":
        continue
    nm = [x for x in rows if x["n"] == r["n"] and x["pipeline"] == "fftx-f64-device-nomult"
          and x.get("fusion") == r.get("fusion")]
    nv = find(r["n"], "naive-f64")
    if not nm:
        continue
    fused = num(r, "ms") - num(nm[0], "ms")
    mult = num(nv, "mult_ms") if nv else float("nan")
    ratio = fused / mult if mult > 0 else float("nan")
    verdict = "-" if ratio != ratio else ("ok" if ratio < 0.15 else "over target")
    fused_lines.append(f"- n={r['n']} fusion={r.get('fusion')}: fused multiply {fused:.4f} ms "
                       f"(fftx {num(r, 'ms'):.4f} - nomult {num(nm[0], 'ms'):.4f}), separate multiply pass "
                       f"(naive-f64 mult_ms) {f(mult, '.4f')} ms, ratio {f(ratio, '.3f')} ({verdict})")
out += fused_lines or ["- (no fftx-f64-device and fftx-f64-device-nomult pair)"]

out += ["", "## Accuracy (target: err(fftx) / err(naive) of the same precision within 2x)", ""]
acc = []
for r in rows:
    if r["pipeline"] in ("fftx-f64-device", "fftx-f64-host", "fftx-f32-device"):
        base = find(r["n"], BASE[r["pipeline"]])
        if base and num(base, "err") > 0:
            ratio = num(r, "err") / num(base, "err")
            verdict = "-" if ratio != ratio else ("ok" if ratio <= 2 else "over target")
            acc.append(f"- n={r['n']} {r['pipeline']} fusion={r.get('fusion')}: err {r.get('err')} vs "
                       f"{base['pipeline']} {base.get('err')}: ratio {f(ratio, '.2f')} ({verdict})")
    if r["pipeline"] == "fftx-f64-device-nomult" and "identity_err" in r:
        acc.append(f"- n={r['n']} nomult fusion={r.get('fusion')}: phi vs N^3 rho rel L2 err {r['identity_err']}")
out += acc or ["- (no fftx rows)"]

if notes or errors:
    out += ["", "## Notes and errors", "", "```"] + notes + errors + ["```"]
open(md, "w").write("\n".join(out) + "\n")
print("\n".join(fused_lines + acc))
PY
}

# ---------------------------------------------------------------- build
step "build"
rm -f "$BIN"
"$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -arch=sm_90 "$HERE/hockney.cu" -I "$ROOT/include" -L "$LIBDIR" -lfftx -lcufft \
  -Xlinker -rpath="$LIBDIR" -o "$BIN" >>"$RAW" 2>&1
if [ ! -x "$BIN" ]; then
  echo "ERROR build failed (nvcc; see $RAW)" | tee -a "$RAW"
  table
  exit 1
fi
info "built $BIN"

# ---------------------------------------------------------------- runs
# one(n, pipelines, fusion): one process; fusion "-" leaves FFTX_GPU_FUSION unset
one() {
  local n=$1 pipelines=$2 fusion=$3 rc before
  echo "RUN n=$n pipelines=$pipelines fusion=$fusion" >>"$RAW"
  echo "=== n=$n pipelines=$pipelines fusion=$fusion" >>"$ERRLOG"
  before=$(wc -l <"$ERRLOG")
  local envs=(env -u FFTX_GPU_FUSION)
  [ "$fusion" != - ] && envs=(env "FFTX_GPU_FUSION=$fusion")
  "${envs[@]}" LD_LIBRARY_PATH="$LIBDIR:$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    timeout -k 10 "$TMO" "$BIN" --n "$n" --pipelines "$pipelines" --min-time "$MIN_TIME" --max-reps "$MAX_REPS" \
    >>"$RAW" 2>>"$ERRLOG"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "ERROR process n=$n pipelines=$pipelines fusion=$fusion rc=$rc$([ $rc = 124 ] && echo ' (timeout)')" | tee -a "$RAW"
    tail -n +$((before + 1)) "$ERRLOG" | tail -5 | sed 's/^/STDERR /' >>"$RAW"
  fi
}

for n in $NS; do
  step "n=$n naive"
  start=$(wc -l <"$RAW")
  one "$n" naive-f32,naive-f64,naive-f64-host -
  for fusion in $FUSIONS; do
    step "n=$n fftx FFTX_GPU_FUSION=$fusion"
    one "$n" fftx-f32-device,fftx-f64-device,fftx-f64-device-nomult,fftx-f64-host "$fusion"
  done
  tail -n +$((start + 1)) "$RAW" | grep -E '^(ROW|NOTE|ERROR) ' | sed 's/^/    /'
  table >/dev/null
done

# ---------------------------------------------------------------- the table
step "table"
table
# keep the stderr log under the 16 MiB a returned file may have
if [ "$(stat -c %s "$ERRLOG")" -gt 15000000 ]; then
  { head -c 7000000 "$ERRLOG"; echo; echo "... (cut) ..."; tail -c 7000000 "$ERRLOG"; } >"$ERRLOG.cut" && mv "$ERRLOG.cut" "$ERRLOG"
fi
step "done: $RAW, $MD"
exit 0
