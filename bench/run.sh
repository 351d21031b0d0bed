#!/usr/bin/env bash
# The FFTW-API benchmark on the device machine, run from the repository root:
#   bash bench/run.sh
# Builds bench/fftw_bench.c against the FFTW 3.3.10 found on the machine (and a CUDA variant),
# then times every problem with FFTW 3.3.10 (16 threads), cuFFTW (LD_PRELOAD) and fftx
# (.device/lib/libfftx.so) for fftw_malloc and malloc arrays, and fftx against cuFFT called
# directly on device arrays. Each (problem, library, alloc) is its own process under a timeout,
# so a crash or a hang costs one cell of the table (FAILED), never the run.
#
# Environment: OUT (default ./bench-out), BENCH_FILTER (substring of problem names),
# BENCH_ALLOCS (default "fftw malloc device"), BENCH_LIBS (default "fftw cufftw fftx"),
# BENCH_THREADS (16), BENCH_TIMEOUT (seconds per process, 300), BENCH_MIN_TIME (1),
# BENCH_SMALL=1 (every problem 16x smaller per dimension; smoke runs only), CUDA_HOME,
# BENCH_ESTIMATE=1 (FFTW_ESTIMATE plans instead of FFTW_MEASURE), BENCH_MIN_REPS (5),
# FFTX_LIB_DIR (where libfftx.so and its FFTW names are; default .device/lib).
# Output: $OUT/bench-raw.txt (every line), $OUT/bench-table.md, $OUT/fftx-log.txt (FFTX_LOG=info).
set -u

ROOT=$PWD
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$ROOT/bench-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RAW=$OUT/bench-raw.txt
TABLE=$OUT/bench-table.md
FLOG=$OUT/fftx-log.txt
BUILD=${BENCH_BUILD_DIR:-/tmp/fftx-bench-build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
THREADS=${BENCH_THREADS:-16}
TMO=${BENCH_TIMEOUT:-300}
MIN_TIME=${BENCH_MIN_TIME:-1}
FILTER=${BENCH_FILTER:-}
ALLOCS=${BENCH_ALLOCS:-fftw malloc device}
LIBS=${BENCH_LIBS:-fftw cufftw fftx}
SMALL=()
[ "${BENCH_SMALL:-0}" = 1 ] && SMALL=(--small)
FFTX_LIB_DIR=${FFTX_LIB_DIR:-$ROOT/.device/lib}
FFTX_LIB=$FFTX_LIB_DIR/libfftx.so
mkdir -p "$BUILD"
: >"$RAW"
: >"$FLOG"

step() { echo "=== [$(date +%H:%M:%S)] $*" | tee -a "$RAW"; }
info() { echo "INFO $*" | tee -a "$RAW"; }
table() { python3 "$HERE/ratios.py" --md "$TABLE" "$RAW" >/dev/null 2>>"$OUT/ratios-err.txt" || true; }

# ---------------------------------------------------------------- the machine
step "machine"
info "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
info "gpu: ${gpu:-none (nvidia-smi gave nothing)}"
info "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
info "threads: $THREADS, min_time: $MIN_TIME s, timeout: $TMO s per process, small: ${BENCH_SMALL:-0}"

# ---------------------------------------------------------------- find FFTW 3.3.10
step "find FFTW"
candidates() { # every path of library file $1: ldconfig's cache first, then a search
  ldconfig -p 2>/dev/null | awk -v n="$1" '$1 == n { print $NF }'
  find -H /usr /usr/local /opt -name "$1" \( -type f -o -type l \) 2>/dev/null | sort
}
FFTW_DIR=""
for f in $(candidates libfftw3.so.3); do
  d=$(dirname "$(readlink -f "$f")")
  case "$d" in "$ROOT"*|*/.device/*|*cuda*) continue ;; esac
  # the real FFTW: its libfftw3 is no link to fftx
  [ "$(readlink -f "$f")" = "$(readlink -f "$FFTX_LIB" 2>/dev/null)" ] && continue
  if [ -e "$d/libfftw3f.so.3" ]; then FFTW_DIR=$d; break; fi
  [ -z "$FFTW_DIR" ] && FFTW_DIR=$d
done
FFTW_LINK=()
if [ -n "$FFTW_DIR" ]; then
  for l in libfftw3f_threads libfftw3_threads libfftw3f libfftw3; do
    if [ -e "$FFTW_DIR/$l.so.3" ]; then FFTW_LINK+=("$FFTW_DIR/$l.so.3"); else info "fftw: $FFTW_DIR has no $l.so.3"; fi
  done
  ver=$(grep -a -o -m1 'fftw-3\.[0-9.]*[-a-z0-9]*' "$FFTW_DIR/libfftw3.so.3" 2>/dev/null | head -1)
  info "fftw: libraries in $FFTW_DIR (${ver:-version unknown})"
else
  info "fftw: NOT FOUND (FFTW runs will fail; building against fftx's names instead)"
  FFTW_LINK=("$ROOT/.device/lib/libfftw3f_threads.so.3" "$ROOT/.device/lib/libfftw3_threads.so.3"
             "$ROOT/.device/lib/libfftw3f.so.3" "$ROOT/.device/lib/libfftw3.so.3")
fi
FFTW_INC=""
for h in "$FFTW_DIR/../include/fftw3.h" $(find -H /usr /usr/local /opt -name fftw3.h -type f 2>/dev/null | sort); do
  case "$h" in "$ROOT"*|*/.device/*) continue ;; esac
  [ -f "$h" ] && { FFTW_INC=$(dirname "$(readlink -f "$h")"); break; }
done
if [ -z "$FFTW_INC" ]; then
  FFTW_INC=$ROOT/include
  info "fftw3.h: not found on the machine; using fftx's $FFTW_INC/fftw3.h"
else
  info "fftw3.h: $FFTW_INC/fftw3.h"
fi
CUFFTW=$CUDA_HOME/lib64/libcufftw.so.12
if [ ! -e "$CUFFTW" ]; then
  CUFFTW=$(find -H "$CUDA_HOME/" /usr/local /usr/lib -name 'libcufftw.so*' 2>/dev/null | sort | head -1)
fi
info "cufftw: ${CUFFTW:-NOT FOUND}"
info "fftx: $FFTX_LIB $([ -e "$FFTX_LIB" ] && echo present || echo MISSING)"
FFTW_LD=${FFTW_DIR:-/nonexistent}:$CUDA_HOME/lib64

# ---------------------------------------------------------------- build
step "build"
BIN=$BUILD/fftw_bench
BIN_CUDA=$BUILD/fftw_bench_cuda
rm -f "$BIN" "$BIN_CUDA"
gcc -O2 -std=c99 -Wall -I"$FFTW_INC" "$HERE/fftw_bench.c" -o "$BIN" "${FFTW_LINK[@]}" -lm -lpthread -ldl \
  >>"$RAW" 2>&1 && info "built $BIN" || info "BUILD FAILED: $BIN"
CUFFT_LINK=(-L"$CUDA_HOME/lib64" -lcufft -lcudart)
[ -e "$CUDA_HOME/lib64/libcufft.so" ] || CUFFT_LINK=("$(ls "$CUDA_HOME"/lib64/libcufft.so.* 2>/dev/null | head -1)"
                                                    "$(ls "$CUDA_HOME"/lib64/libcudart.so.* 2>/dev/null | head -1)")
if [[ " $ALLOCS " == *" device "* ]]; then
  gcc -O2 -std=gnu99 -Wall -DFFTX_BENCH_CUDA -I"$FFTW_INC" -I"$CUDA_HOME/include" "$HERE/fftw_bench.c" -o "$BIN_CUDA" \
    "${FFTW_LINK[@]}" "${CUFFT_LINK[@]}" -lm -lpthread -ldl >>"$RAW" 2>&1 ||
  "$CUDA_HOME/bin/nvcc" -O2 -x c -arch=sm_90 -DFFTX_BENCH_CUDA -I"$FFTW_INC" "$HERE/fftw_bench.c" -o "$BIN_CUDA" \
    "${FFTW_LINK[@]}" -lcufft -lcudart -lm -lpthread -ldl >>"$RAW" 2>&1
  [ -x "$BIN_CUDA" ] && info "built $BIN_CUDA" || info "BUILD FAILED: $BIN_CUDA"
fi
if [ ! -x "$BIN" ]; then
  step "no benchmark binary: stop"
  table
  exit 1
fi
FILTER_ARGS=()
[ -n "$FILTER" ] && FILTER_ARGS=(--filter "$FILTER")
PROBLEMS=$("$BIN" --list ${FILTER_ARGS[@]+"${FILTER_ARGS[@]}"})
info "problems: $(echo $PROBLEMS)"

# ---------------------------------------------------------------- runs
# one(lib, alloc, problem): one process, its lines framed by RUN / RUN_END for ratios.py
one() {
  local lib=$1 alloc=$2 p=$3 bin=$BIN rc
  [ "$alloc" = device ] && bin=$BIN_CUDA
  echo "RUN lib=$lib alloc=$alloc problem=$p" >>"$RAW"
  if [ ! -x "$bin" ]; then
    echo "RUN_END lib=$lib alloc=$alloc problem=$p rc=not-built" >>"$RAW"; return
  fi
  local args=(--threads "$THREADS" --alloc "$alloc" --exact "$p" --min-time "$MIN_TIME" ${SMALL[@]+"${SMALL[@]}"}
              --min-reps "${BENCH_MIN_REPS:-5}")
  [ "${BENCH_ESTIMATE:-0}" = 1 ] && args+=(--estimate)
  case $lib in
    fftw)
      [ -n "$FFTW_DIR" ] || { echo "RUN_END lib=$lib alloc=$alloc problem=$p rc=no-fftw" >>"$RAW"; return; }
      LD_LIBRARY_PATH=$FFTW_LD timeout -k 10 "$TMO" "$bin" "${args[@]}" >>"$RAW" 2>&1
      rc=$? ;;
    cufftw)
      [ -n "$CUFFTW" ] || { echo "RUN_END lib=$lib alloc=$alloc problem=$p rc=no-cufftw" >>"$RAW"; return; }
      LD_LIBRARY_PATH=$FFTW_LD LD_PRELOAD=$CUFFTW timeout -k 10 "$TMO" "$bin" "${args[@]}" >>"$RAW" 2>&1
      rc=$? ;;
    fftx)
      [ -e "$FFTX_LIB" ] || { echo "RUN_END lib=$lib alloc=$alloc problem=$p rc=no-fftx" >>"$RAW"; return; }
      echo "=== fftx $alloc $p" >>"$FLOG"
      local before; before=$(wc -l <"$FLOG")
      LD_LIBRARY_PATH=$FFTX_LIB_DIR:$CUDA_HOME/lib64 LD_PRELOAD=$FFTX_LIB FFTX_BACKEND=auto FFTX_LOG=info \
        timeout -k 10 "$TMO" "$bin" "${args[@]}" >>"$RAW" 2>>"$FLOG"
      rc=$?
      # a failure's last words go into the raw file too
      [ $rc -ne 0 ] && tail -n +$((before + 1)) "$FLOG" | tail -5 | sed 's/^/STDERR /' >>"$RAW" ;;
  esac
  echo "RUN_END lib=$lib alloc=$alloc problem=$p rc=$rc" >>"$RAW"
  [ $rc -ne 0 ] && echo "    $lib $alloc $p: FAILED rc=$rc$([ $rc = 124 ] && echo ' (timeout)')"
}

for alloc in $ALLOCS; do
  for p in $PROBLEMS; do
    step "$p, $alloc arrays"
    start=$(wc -l <"$RAW")
    if [ "$alloc" = device ]; then
      # fftx on device pointers; the same process times cuFFT directly (alloc cufft-direct)
      [[ " $LIBS " == *" fftx "* ]] && one fftx device "$p"
    else
      for lib in $LIBS; do one "$lib" "$alloc" "$p"; done
    fi
    tail -n +$((start + 1)) "$RAW" | grep -E '^(RESULT|FAIL) ' | sed 's/^/    /'
    table
  done
done

# ---------------------------------------------------------------- the table
step "table"
# keep the log under the 16 MiB a returned file may have
if [ "$(stat -c %s "$FLOG")" -gt 15000000 ]; then
  { head -c 7000000 "$FLOG"; echo; echo "... (cut) ..."; tail -c 7000000 "$FLOG"; } >"$FLOG.cut" && mv "$FLOG.cut" "$FLOG"
fi
python3 "$HERE/ratios.py" --md "$TABLE" "$RAW" || echo "ratios.py FAILED (raw lines in $RAW)"
rm -f "$OUT/ratios-err.txt"
step "done: $RAW, $TABLE, $FLOG"
exit 0
