#!/usr/bin/env bash
# FFTW 3.3.10's own test program against fftx: `tests/bench` with `libbench2`, built from
# Debian's fftw3 source package against fftx's install (./install, made by .ci/ctest.sh) and
# driven by FFTW's `check.pl`: random problems of every family, rank, vector loop, stride, in
# and out of place, each verified by linearity, impulse and time-shift tests (no reference
# library involved). Both precisions, in the modes of FFTW's `make check` and `bigcheck`:
# random, -0d (rank-0 copies and in-place transposes), -1d (every size to 100 and powers of 2
# to 4096), -2d (every size to 100 x 100 within 900 points per row... FFTW's list), threads,
# the threads callback, estimate, wisdom, patient, exhaustive. Every problem must pass.
#
# Then `bench --accuracy` (errors against an arbitrary-precision DFT) on 1-D problems, for
# fftx and for the system FFTW built from the same bench: the table of error ratios is printed
# and written to build/fftw-check/accuracy.txt; the run fails if a ratio exceeds the bounds
# below (see the README for the target and where it is missed).
#
# FFTX_CHECK_QUICK=1 skips -2d (the longest mode). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/build/fftw-check
mkdir -p "$work"
lib=$root/install/lib
[ -f "$lib/libfftw3.so.3" ] || { echo "fftw-check: no install in $lib (run .ci/ctest.sh first)" >&2; exit 1; }

# --- FFTW's sources (Debian's fftw3 source package: the bench is in tests/ and libbench2/) ---
src=$work/fftw-3.3.10
if [ ! -f "$src/tests/check.pl" ]; then
  if ! (cd "$work" && apt-get source --download-only fftw3 >/dev/null 2>&1); then
    # Fresh Debian machines list binary packages only: add the matching source lines.
    sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      > /etc/apt/sources.list.d/fftx-deb-src.sources
    apt-get update -qq
    (cd "$work" && apt-get source --download-only fftw3 >/dev/null 2>&1)
  fi
  tar -xzf "$work"/fftw3_3.3.10.orig.tar.gz -C "$work"
fi

# --- build bench against fftx and against the system FFTW ---
# libbench2 needs a config.h; these are the facts of any Linux/glibc system. hook.c (which
# reaches into FFTW's internals to re-verify every sub-plan) is replaced by empty hooks: the
# bench then tests the API, which is what fftx provides.
inc=$work/include
mkdir -p "$inc/api"
cp "$root/include/fftw3.h" "$inc/api/fftw3.h"   # the bench includes "api/fftw3.h": ours
cat >"$inc/config.h" <<'EOF'
#define HAVE_THREADS 1
#define HAVE_STRING_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STDDEF_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_DRAND48 1
#define HAVE_DECL_DRAND48 1
#define HAVE_DECL_SRAND48 1
#define HAVE_POSIX_MEMALIGN 1
#define HAVE_DECL_POSIX_MEMALIGN 1
#define HAVE_ISNAN 1
#define HAVE_SNPRINTF 1
#define HAVE_INTTYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_LIMITS_H 1
#define HAVE_COSL 1
EOF
printf 'void install_hook(void) {}\nvoid uninstall_hook(void) {}\n' >"$work/hook.c"
bench_sources=("$src/tests/bench.c" "$src/tests/fftw-bench.c" "$work/hook.c")
for f in "$src"/libbench2/*.c; do
  [ "$(basename "$f")" = useropt.c ] || bench_sources+=("$f")  # fftw-bench.c defines useropt
done
build() { # build NAME PRECISION(d|f) LIBDIR-or-empty
  local def="" libs="-lfftw3 -lfftw3_threads"
  [ "$2" = f ] && def=-DBENCHFFT_SINGLE && libs="-lfftw3f -lfftw3f_threads"
  local link=()
  [ -n "$3" ] && link=(-L"$3" -Wl,-rpath,"$3")
  gcc -O2 -w $def -I"$inc" -I"$src" -I"$src/libbench2" -o "$work/$1" "${bench_sources[@]}" \
    "${link[@]}" $libs -lm -lpthread
}
for p in d f; do
  build "bench-$p" $p "$lib"
  build "fftw-bench-$p" $p ""
  # The bench must really run on fftx: FFTX_LOG=info makes fftx say so.
  case "$(FFTX_LOG=info "$work/bench-$p" --verify ofc8 2>&1)" in
    *'fftx['*) ;;
    *) echo "fftw-check: bench-$p does not run on fftx" >&2; exit 1 ;;
  esac
done

# --- FFTW's check.pl, every mode, both precisions ---
failed=0
check() { # check PRECISION MODE-ARGS...
  local p=$1; shift
  local log="$work/check-$p-$(echo "$*" | tr -c 'a-z0-9=' _).log" t0=$SECONDS
  # (from $work: the wisdom mode writes wis.dat in the current directory)
  (cd "$work" && FFTX_BACKEND=cpu perl -w "$src/tests/check.pl" -k "$@" "$work/bench-$p" >"$log" 2>&1) || true
  local n
  n=$(grep -c '^FAILED' "$log" || true)
  printf '  %-6s %-45s %4ss  %s\n' "$p" "$*" $((SECONDS - t0)) "$([ "$n" = 0 ] && echo pass || echo "$n FAILED")"
  if [ "$n" != 0 ]; then
    failed=1
    grep -A3 '^FAILED' "$log" | awk 'NR <= 12'
  fi
}
echo "== FFTW 3.3.10's check.pl against fftx"
for p in d f; do
  check $p -r -c=30
  check $p -0d
  check $p -1d
  [ "${FFTX_CHECK_QUICK:-0}" = 1 ] || check $p -2d
  check $p -r -c=30 --nthreads=2
  check $p -r -c=5 --threads_callback --nthreads=2
  check $p -r -c=30 --estimate
  check $p -r -c=30 --wisdom
  check $p -r -c=10 --patient
  check $p -r -c=5 --exhaustive
done

# --- bench --accuracy: fftx against FFTW, same bench, same inputs ---
# Columns: forward l1 l2 linf, backward l1 l2 linf relative errors.
echo "== bench --accuracy, error ratio fftx / FFTW 3.3.10 (worst of the six measures)"
problems=()
for n in $(seq 2 100) 128 256 512 1024 2048 4096 1000 3000 4050 59049 65536 65537 999 1009 1048576; do
  problems+=("ofc$n" "obc$n" "ofr$n" "obr$n")
done
# (No DHT, kind h: libbench2's accuracy mode asserts on it, for FFTW itself too.)
for k in e00 e01 e10 e11 o00 o01 o10 o11; do
  for n in 17 64 100 1000; do problems+=("ok$n$k"); done
done
table=$work/accuracy.txt
: >"$table"
for p in "${problems[@]}"; do
  ours=$("$work/bench-d" --accuracy="$p" 2>&1 | tail -n 1)
  theirs=$("$work/fftw-bench-d" --accuracy="$p" 2>&1 | tail -n 1)
  echo "$p $ours | $theirs" >>"$table"
done
# Bounds: the L2 errors (measures 2 and 5) within 1.5x of FFTW's where FFTW's are above
# half an ulp (2^-53 ~ 1.1e-16: below that a single rounding decides the ratio), each of the
# six within 3.5x of the larger of FFTW's and half an ulp (ofr3: 3.5e-17 against FFTW's
# 4.4e-18 is 8x of FFTW and a third of an ulp), and the geometric mean of the worst ratios to
# FFTW's own errors within 1.3x.
awk -F'|' '
  { n = split($1, x, " "); split($2, y, " "); worst = 0; l2 = 0
    floored = 0
    for (i = 2; i <= n; i++) { r = (y[i-1] > 0) ? x[i] / y[i-1] : 1; if (r > worst) worst = r
      f = x[i] / ((y[i-1] > 1.1e-16) ? y[i-1] : 1.1e-16); if (f > floored) floored = f
      if ((i == 3 || i == 6) && y[i-1] > 1.1e-16 && r > l2) l2 = r }
    printf "%-12s worst %5.2f  l2 %5.2f\n", x[1], worst, l2
    s += log(worst); count++
    if (floored > w_max) { w_max = floored; w_at = x[1] }
    if (l2 > l_max) { l_max = l2; l_at = x[1] }
    if (worst > 1.5) over++ }
  END { printf "problems %d; geometric mean of worst ratios %.3f; max over max(FFTW, half an ulp) %.2f (%s); max L2 ratio above half an ulp %.2f (%s); %d over 1.5x\n", count, exp(s / count), w_max, w_at, l_max, l_at, over > "/dev/stderr"
        bad = (exp(s / count) > 1.3) || (w_max > 3.5) || (l_max > 1.5)
        exit bad }' "$table" >"$work/accuracy-ratios.txt" 2>"$work/accuracy-summary.txt" ||
  { failed=1; echo "  accuracy bounds exceeded:"; }
sort -k3 -n -r "$work/accuracy-ratios.txt" | awk 'NR <= 12 { print "  " $0 }'
sed 's/^/  /' "$work/accuracy-summary.txt"

[ "$failed" = 0 ] && echo "fftw-check: all passed" || { echo "fftw-check: FAILED" >&2; exit 1; }
