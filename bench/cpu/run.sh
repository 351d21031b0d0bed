#!/usr/bin/env bash
# fftx's CPU executor against FFTW 3.3.10, FFTW_ESTIMATE, at 1 thread and at all cores: a
# markdown table of fftx/FFTW per problem, with geometric means. Run from anywhere:
#   bash bench/cpu/run.sh [path/to/libfftx.so]
# Needs bash, gcc, FFTW 3.3.10 (libfftw3{,f}{,_threads}.so.3 and fftw3.h, from the system's
# packages or a build under /usr/local) and a built fftx library; no Rust. On another machine:
# copy the repository's bench/cpu and target/release/libfftx.so (built here with
# `cargo build --release`), then `bash bench/cpu/run.sh /path/to/libfftx.so`. See README.md.
#
# Environment:
#   FFTX_LIB       fftx's library, if no argument is given (default: target/release/libfftx.so,
#                  else .device/lib/libfftx.so, made by tools/device-build.sh)
#   FFTW_LIB_DIR   directory of the system FFTW's libraries (default: found with ldconfig/find
#                  under /usr, /usr/local, /opt, never a directory holding fftx's FFTW names)
#   FFTW_INC_DIR   directory of FFTW's fftw3.h (default: found next to it, or /usr/include)
#   BENCH_THREADS  the "all cores" column (default: nproc)
#   BENCH_MIN_TIME seconds of timed executes per library, problem and thread count (default 0.3)
#   BENCH_FILTER   only problems whose name contains this
#   BENCH_LARGE=1  also the large problems (r2c/c2r 512^3, c2c 256^3 f64: several GiB, minutes)
#   BENCH_MEASURE=1 also FFTW_MEASURE for problems up to 2^22 elements (FFTW's planning is slow)
#   BENCH_TIMEOUT  seconds per problem (default 600); a crash or timeout is a FAILED row
#   BENCH_ARGS     more cpu_bench options, e.g. "--fftw-malloc --all-cores-only" (placement.sh)
#   OUT            directory for the table (cpu-table.md) and the raw lines (cpu-raw.txt);
#                  default ./bench-out
# fftx runs with FFTX_BACKEND=cpu unless FFTX_BACKEND is set.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-$PWD/bench-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RAW=$OUT/cpu-raw.txt
TABLE=$OUT/cpu-table.md
THREADS=${BENCH_THREADS:-$(nproc)}
MIN_TIME=${BENCH_MIN_TIME:-0.3}
TMO=${BENCH_TIMEOUT:-600}
export FFTX_BACKEND=${FFTX_BACKEND:-cpu}

FFTX_LIB=${1:-${FFTX_LIB:-}}
if [ -z "$FFTX_LIB" ]; then
  for f in "$ROOT/target/release/libfftx.so" "$ROOT/.device/lib/libfftx.so"; do
    [ -e "$f" ] && { FFTX_LIB=$f; break; }
  done
fi
[ -n "$FFTX_LIB" ] && [ -e "$FFTX_LIB" ] || { echo "run.sh: no fftx library (give its path, or set FFTX_LIB)" >&2; exit 1; }
FFTX_LIB=$(readlink -f "$FFTX_LIB")

# The system FFTW: a directory with all four libraries, none of them fftx.
is_fftx() { grep -q -a fftx_plan_compose "$1" 2>/dev/null; }
FFTW_DIR=${FFTW_LIB_DIR:-}
if [ -z "$FFTW_DIR" ]; then
  for f in $( (ldconfig -p 2>/dev/null | awk '$1 == "libfftw3f_threads.so.3" { print $NF }'
               find -H /usr /usr/local /opt -name libfftw3f_threads.so.3 2>/dev/null) | sort -u); do
    d=$(dirname "$(readlink -f "$f")")
    case "$d" in "$ROOT"*|*/.device/*) continue ;; esac
    ok=1
    for l in libfftw3 libfftw3f libfftw3_threads libfftw3f_threads; do
      { [ -e "$d/$l.so.3" ] && ! is_fftx "$(readlink -f "$d/$l.so.3")"; } || ok=0
    done
    [ $ok = 1 ] && { FFTW_DIR=$d; break; }
  done
fi
[ -n "$FFTW_DIR" ] || { echo "run.sh: FFTW 3.3.10's libraries not found (set FFTW_LIB_DIR)" >&2; exit 1; }
FFTW_INC=${FFTW_INC_DIR:-}
if [ -z "$FFTW_INC" ]; then
  for h in "$FFTW_DIR/../include/fftw3.h" "$FFTW_DIR/../../include/fftw3.h" /usr/include/fftw3.h \
           /usr/local/include/fftw3.h; do
    [ -f "$h" ] && { FFTW_INC=$(dirname "$(readlink -f "$h")"); break; }
  done
fi
[ -n "$FFTW_INC" ] || { echo "run.sh: fftw3.h not found (set FFTW_INC_DIR)" >&2; exit 1; }
FFTW_VER=$(grep -a -o -m1 'fftw-3\.[0-9.]*' "$FFTW_DIR/libfftw3.so.3" | head -1)
[ "$FFTW_VER" = fftw-3.3.10 ] || echo "run.sh: warning: $FFTW_DIR has ${FFTW_VER:-an unknown FFTW}, not 3.3.10" >&2

BIN=${BENCH_BIN:-/tmp/fftx-cpu-bench-$$}
gcc -O2 -std=c11 -Wall -I"$FFTW_INC" "$HERE/cpu_bench.c" -o "$BIN" -ldl || { echo "run.sh: build failed" >&2; exit 1; }
trap 'rm -f "$BIN"' EXIT

ARGS=(--fftw-dir "$FFTW_DIR" --fftx "$FFTX_LIB" --threads "$THREADS" --min-time "$MIN_TIME")
[ "${BENCH_LARGE:-0}" = 1 ] && ARGS+=(--large)
[ "${BENCH_MEASURE:-0}" = 1 ] && ARGS+=(--measure)
# shellcheck disable=SC2206
[ -n "${BENCH_ARGS:-}" ] && ARGS+=(${BENCH_ARGS})
LIST_ARGS=()
[ -n "${BENCH_FILTER:-}" ] && LIST_ARGS+=(--filter "$BENCH_FILTER")
[ "${BENCH_LARGE:-0}" = 1 ] && LIST_ARGS+=(--large)
PROBLEMS=$("$BIN" --list ${LIST_ARGS[@]+"${LIST_ARGS[@]}"})

CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
{
  echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "# host: $(hostname), $CPU, $(nproc) cores"
  echo "# fftw: $FFTW_DIR ($FFTW_VER); fftx: $FFTX_LIB (FFTX_BACKEND=$FFTX_BACKEND)"
  echo "# threads: 1 and $THREADS, min_time: $MIN_TIME s; load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
} >"$RAW"
cat "$RAW"

# Each problem in its own process (both libraries in it, executes alternating): a crash or a
# timeout costs one row.
for p in $PROBLEMS; do
  start=$(date +%s)
  timeout -k 10 "$TMO" "$BIN" "${ARGS[@]}" --exact "$p" >>"$RAW" 2>"$OUT/stderr.txt"
  rc=$?
  [ $rc -ne 0 ] && echo "FAIL $p threads=all reason=exit-$rc$([ $rc = 124 ] && echo -timeout)" >>"$RAW"
  grep -E "^(RESULT|FAIL) $p " "$RAW" | awk -v s=$(( $(date +%s) - start )) '
    { printf "%-28s %-10s %s %s %s (%ss)\n", $2, $3, $6, $7, $5, s }' | sed 's/fftx_ms=/fftx /; s/ratio=/ratio /' >&2
done

# The table: one row per problem, per thread count fftw ms, fftx ms, ratio; geometric means.
awk -v threads="$THREADS" -v measure="${BENCH_MEASURE:-0}" '
  function val(k,   i, kv) { for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] } return "" }
  function ms(x) { return x < 0.01 ? sprintf("%.4f", x) : x < 1 ? sprintf("%.3f", x) : x < 100 ? sprintf("%.2f", x) : sprintf("%.0f", x) }
  /^# / { head = head substr($0, 3) "  \n"; next }
  /^RESULT / {
    p = $2; t = val("threads"); f = val("flags")
    if (!(p in seen)) { seen[p] = 1; order[++np] = p }
    key = p SUBSEP t SUBSEP f
    fw[key] = val("fftw_ms"); fx[key] = val("fftx_ms"); r[key] = val("ratio"); e[key] = val("err")
    if (e[key] + 0 > err[p] + 0) err[p] = e[key]
    next
  }
  /^FAIL / { p = $2; if (!(p in seen)) { seen[p] = 1; order[++np] = p }; failed[p] = 1; next }
  END {
    print "# fftx CPU executor vs FFTW 3.3.10\n"
    printf "%s\n", head
    print "FFTW_ESTIMATE, median time of one execute (ms) over alternating executes of the two libraries in one process; ratio = fftx / FFTW (below 1: fftx is faster); err = max |fftx - FFTW| / max |FFTW| over sampled outputs.\n"
    hdr = "| problem | FFTW 1T | fftx 1T | ratio 1T | FFTW " threads "T | fftx " threads "T | ratio " threads "T |"
    sep = "|---|---:|---:|---:|---:|---:|---:|"
    if (measure == 1) { hdr = hdr " ratio 1T MEASURE | ratio " threads "T MEASURE |"; sep = sep "---:|---:|" }
    print hdr " err |"; print sep "---:|"
    ncols = measure == 1 ? 4 : 2
    for (i = 1; i <= np; i++) {
      p = order[i]; line = "| " p " |"
      for (c = 1; c <= 2; c++) {
        t = c == 1 ? 1 : threads; k = p SUBSEP t SUBSEP "estimate"
        if (k in r) {
          line = line " " ms(fw[k]) " | " ms(fx[k]) " | " sprintf("%.2f", r[k]) " |"
          if (r[k] > 0) { lsum[c] += log(r[k]); cnt[c]++ }
          if (r[k] > 1.5) over[c] = over[c] " " p
        } else line = line " FAILED | FAILED | - |"
      }
      if (measure == 1) for (c = 1; c <= 2; c++) {
        t = c == 1 ? 1 : threads; k = p SUBSEP t SUBSEP "measure"
        if (k in r) { line = line " " sprintf("%.2f", r[k]) " |"; if (r[k] > 0) { lsum[c + 2] += log(r[k]); cnt[c + 2]++ } }
        else line = line " - |"
      }
      print line " " (p in err ? sprintf("%.1e", err[p]) : "-") " |"
    }
    line = "| **geometric mean** (" cnt[1] " problems) | | | **" (cnt[1] ? sprintf("%.2f", exp(lsum[1] / cnt[1])) : "-") "** | | | **" (cnt[2] ? sprintf("%.2f", exp(lsum[2] / cnt[2])) : "-") "** |"
    if (measure == 1) line = line " " (cnt[3] ? sprintf("%.2f", exp(lsum[3] / cnt[3])) : "-") " | " (cnt[4] ? sprintf("%.2f", exp(lsum[4] / cnt[4])) : "-") " |"
    print line " |"
    print ""
    print "Above 1.5x at 1 thread:" (over[1] == "" ? " none" : over[1]) "  "
    print "Above 1.5x at " threads " threads:" (over[2] == "" ? " none" : over[2])
  }' "$RAW" >"$TABLE"
{
  echo
  echo "## Machine"
  echo
  echo '```'
  echo "\$ nproc"
  nproc
  echo "\$ lscpu | head -20"
  lscpu 2>/dev/null | head -20
  echo '```'
} >>"$TABLE"
echo
cat "$TABLE"
echo
echo "table: $TABLE; raw: $RAW"
