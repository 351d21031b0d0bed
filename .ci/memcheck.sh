#!/usr/bin/env bash
# Memory checking (issue 11): every program the ctest suite runs against fftx, and the Rust test
# binaries, under valgrind's memcheck. Any memcheck error (invalid read/write, use of
# uninitialised values, invalid or mismatched free, overlapping memcpy, and for the C/C++/Fortran
# programs a definite leak) fails the run, as does a failing program or test.
#
# Run after .ci/ctest.sh (it needs the programs in build-ctest and the install in ./install); it
# builds the Rust test binaries itself (`cargo test --release --no-run`, a no-op after
# `cargo test --release`). Work files and valgrind logs go to build/memcheck/.
#
#   ctest programs: the tests are read from `ctest -N -V` (so new programs are picked up) and
#     each program that is linked with or loads fftx runs under valgrind exactly as its test runs
#     it: run_compare.cmake tests (compare-*, libpath-*, preload-*) with FFTX_LOG=info and
#     LD_LIBRARY_PATH / LD_PRELOAD as their MODE says, their output then compared with the
#     system-FFTW build's (tools/compare.c) and fftx required to have planned; onecopy-* and
#     data-symbols-libpath; the direct tests (example, example-fortran, fftx-*). The cmake
#     scripts that only inspect files (headers, exports-*, install-layout, relocate) run no fftx
#     code and are left out. These run with --leak-check=full and fail on definite leaks only
#     ("still reachable" is fftx's process-lifetime caches: wisdom, twiddles, plans' registry).
#   Rust tests: every test binary of the crate (the library's unit tests and tests/*.rs) but
#     tests/fuzz.rs (millions of calls: hours under valgrind; it has its own guarded allocator
#     and canaries) and tests/gpu.rs (without a GPU it returns at once; with one, memcheck would
#     report the CUDA driver's own errors). Each binary runs with --test-threads=2, split into
#     MEMCHECK_SHARDS (default 2) valgrind processes by test name, round-robin, so that both
#     cores are busy (valgrind runs one thread of a process at a time). No leak checking here:
#     the tests do not all free what the API hands them (tests/api.rs keeps fftw_sprint_plan's
#     strings), which says nothing about the library; the C programs are leak-checked.
#     Left out under valgrind, each for time only (see SKIP below): api's
#     timelimit_bounds_planning (asserts planning takes < 1 s of wall time: valgrind's slowdown,
#     not a memory question) and large_prime_and_power_of_two_sizes (sizes 65537, 2^20, 999983:
#     two minutes under valgrind, mostly computing accurate twiddles and the test's own direct
#     sums; the same prime-size and power-of-two code runs at smaller sizes in the differential
#     tests, whose sizes include 1009, 4099 and 65536), the library's fftx::fftgen
#     stockham_matches_a_direct_dft
#     (two minutes: its O(n^2) reference DFT at n = 4096; the code under test is a safe-Rust
#     model of the GPU code generator). tests/concurrency.rs honours FFTX_TEST_SECONDS, set
#     small here: every scenario still runs, with fewer iterations.
#
# Not an error for us, handled by options rather than suppressions: several tests dlopen the
# system FFTW with RTLD_DEEPBIND (tests/common/mod.rs). DEEPBIND makes FFTW bind malloc/free to
# libc's own symbols first, which would bypass an allocator interposed by symbol lookup (ASan's);
# memcheck redirects the functions inside libc.so itself, so those calls are still tracked and
# nothing needs to be done (memcheck prints no warning for it).
#
# Suppressions: .ci/valgrind.supp, each entry with the reason it is outside our code.
#
# Environment: JOBS (default 2) valgrind processes at once; MEMCHECK_SHARDS; MEMCHECK_ONLY=ctest
# or rust runs one half; MEMCHECK_TESTS="api concurrency ..." only those Rust test binaries
# ("fftx(lib)" for the unit tests); MEMCHECK_WORK the work folder; VALGRIND_EXTRA more valgrind
# options (e.g. --track-origins=yes).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-2}
shards=${MEMCHECK_SHARDS:-2}
only=${MEMCHECK_ONLY:-}
work=${MEMCHECK_WORK:-$root/build/memcheck}
supp=$root/.ci/valgrind.supp
start=$SECONDS

if ! command -v valgrind >/dev/null; then
  echo "memcheck.sh: valgrind not found (Debian: apt-get install valgrind)" >&2
  exit 1
fi

# Tests that run under valgrind too long for CI, or time themselves (see above). "binary test".
SKIP=(
  "api timelimit_bounds_planning"
  "api large_prime_and_power_of_two_sizes"
  "fftx(lib) fftx::fftgen::tests::stockham_matches_a_direct_dft"
)
export FFTX_TEST_SECONDS=${FFTX_TEST_SECONDS:-0.05}

# With a GPU present, keep CUDA out of it: the driver is closed source and memcheck reports its
# internals by the thousand. CI has no GPU, where this changes nothing.
if ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
  export FFTX_BACKEND=cpu
fi

# --read-inline-info=no: reading the inlined-call tables of libfftx and the test binaries
# (debuginfo from the release profile's debug = 1) costs 1-2 s per process; a job with errors is
# run again with them (below), so its report names the inlined functions.
vg_common=(valgrind --tool=memcheck --error-exitcode=99 --num-callers=40
  --suppressions="$supp" --child-silent-after-fork=yes)
# shellcheck disable=SC2206
vg_common+=(${VALGRIND_EXTRA:-})
vg_prog=("${vg_common[@]}" --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite)
vg_rust=("${vg_common[@]}" --leak-check=no)

rm -rf "$work"
mkdir -p "$work/jobs"
njobs=0

# add_job PRIO NAME DIR CHECK -- COMMAND...: a job script running COMMAND (which contains the
# valgrind argv) in DIR. CHECK is shell code run after a clean run, in DIR, with $out and $err the
# program's output files; it fails the job by returning non-zero. Jobs start in PRIO order
# (0-9), the longest first, so that the last ones to finish are short.
add_job() {
  local prio=$1 name=$2 dir=$3 check=$4
  shift 5
  local f="$work/jobs/$prio-$(printf '%03d' "$njobs")-$name.sh"
  njobs=$((njobs + 1))
  {
    echo "set -u"
    printf 'name=%q; dir=%q; log=%q; out=%q; err=%q\n' "$name" "$dir" \
      "$work/$name.vg" "$work/$name.out" "$work/$name.err"
    echo 'mkdir -p "$dir" && cd "$dir" || exit 1'
    echo 't0=$SECONDS'
    echo "TIMEFORMAT='%U %S'"
    echo -n '{ time '
    local a
    for a in "$@"; do
      printf '%q ' "$a"
      [ "$a" = valgrind ] && printf '%q ' "--log-file=$work/$name.vg" --read-inline-info=no
    done
    echo '>"$out" 2>"$err"; } 2>"$log.time"'
    echo 'rc=$?'
    echo 'read -r u s < "$log.time"; cpu=$(awk -v u="$u" -v s="$s" "BEGIN{printf \"%.1f\", u + s}")'
    echo 'if [ $rc -eq 99 ]; then  # again with the inlined frames in the stacks, for the report'
    echo '  mv "$log" "$log.first"'
    for a in "$@"; do
      printf '%q ' "$a"
      [ "$a" = valgrind ] && printf '%q ' "--log-file=$work/$name.vg" --read-inline-info=yes
    done
    echo '>"$out.again" 2>"$err.again"'
    echo '  grep -q "ERROR SUMMARY: [1-9]" "$log" || mv "$log.first" "$log"'
    echo 'fi'
    echo 'if [ $rc -eq 0 ]; then'
    printf '  %s\n' "$check"
    echo '  rc=$?'
    echo 'fi'
    echo 'echo "$rc $((SECONDS - t0)) $cpu" > "$log.rc"'
  } > "$f"
}

# ---------------------------------------------------------------------------------------------
# Rust test binaries.
if [ "$only" != ctest ]; then
  echo "== memcheck: building the Rust test binaries"
  if ! cargo test --release --no-run --message-format=json 2> "$work/cargo.err" > "$work/cargo.json"; then
    cat "$work/cargo.err" >&2
    echo "memcheck.sh: building the Rust tests failed" >&2
    exit 1
  fi
  nbin=0
  while IFS= read -r line; do
    exe=$(sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' <<< "$line")
    [ -n "$exe" ] || continue
    src=$(sed -n 's/.*"src_path":"\([^"]*\)".*/\1/p' <<< "$line")
    case "$src" in
      */tests/fuzz.rs | */tests/gpu.rs) echo "   skipped: ${src#"$root"/}"; continue ;;
      */src/lib.rs) bin="fftx(lib)" ;;
      */tests/*.rs) bin=$(basename "$src" .rs) ;;
      *) bin=$(basename "$exe") ;;
    esac
    if [ -n "${MEMCHECK_TESTS:-}" ] && [[ " $MEMCHECK_TESTS " != *" $bin "* ]]; then
      continue
    fi
    nbin=$((nbin + 1))
    mapfile -t tests < <("$exe" --list --format=terse 2>/dev/null | sed -n 's/: test$//p')
    kept=()
    for t in "${tests[@]}"; do
      skip=0
      for s in "${SKIP[@]}"; do
        [ "$s" = "$bin $t" ] && skip=1
      done
      if [ $skip = 1 ]; then
        echo "   skipped under valgrind (time): $bin $t"
      else
        kept+=("$t")
      fi
    done
    for ((k = 0; k < shards; k++)); do
      mine=()
      for ((i = k; i < ${#kept[@]}; i += shards)); do mine+=("${kept[i]}"); done
      [ ${#mine[@]} -gt 0 ] || continue
      prio=1
      [ "$bin" = differential ] && prio=0   # the longest: 1.5-3 min per shard
      add_job $prio "rust-${bin//[^A-Za-z0-9_]/_}-$k" "$work/rust" \
        'grep -q "^test result: ok" "$out" || { echo "no passing test result"; false; }' \
        -- "${vg_rust[@]}" "$exe" --test-threads=2 --exact "${mine[@]}"
    done
  done < <(grep '"executable":"' "$work/cargo.json")
  if [ $nbin -eq 0 ]; then
    echo "memcheck.sh: no Rust test binaries found in cargo's output" >&2
    exit 1
  fi
fi

# ---------------------------------------------------------------------------------------------
# ctest programs.
if [ "$only" != rust ]; then
  if [ ! -f build-ctest/CTestTestfile.cmake ]; then
    echo "memcheck.sh: build-ctest is not configured: run .ci/ctest.sh first" >&2
    exit 1
  fi
  (cd build-ctest && ctest -N -V) > "$work/ctest-list.txt"
  declare -A D
  cmd=""
  nprog=0
  while IFS= read -r line; do
    if [[ $line =~ ^[0-9]+:\ Test\ command:\ (.*)$ ]]; then
      cmd=${BASH_REMATCH[1]}
      continue
    fi
    [[ $line =~ ^\ +Test\ +\#[0-9]+:\ (.+)$ ]] || continue
    test=${BASH_REMATCH[1]}
    D=()
    rest=$cmd
    while [[ $rest =~ \"-D([A-Za-z_]+)=([^\"]*)\"(.*)$ ]]; do
      D[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
      rest=${BASH_REMATCH[3]}
    done
    script=""
    [[ $cmd =~ \"-P\"\ \"([^\"]+)\" ]] && script=$(basename "${BASH_REMATCH[1]}")
    dir="$work/ctest/$test"
    case "$script" in
      run_compare.cmake)
        env=(env FFTX_LOG=info)
        case "${D[MODE]}" in
          build) ;;
          libpath) env+=("LD_LIBRARY_PATH=${D[FFTX_LIBDIR]}") ;;
          preload) env+=("LD_PRELOAD=${D[FFTX_LIB]}") ;;
          *) echo "memcheck.sh: $test: unknown MODE ${D[MODE]}" >&2; exit 1 ;;
        esac
        # The reference run (the system FFTW, natively), then the comparison, as the test does.
        check="env -u LD_PRELOAD -u FFTX_LOG $(printf %q "${D[REF]}") > ref.out 2> ref.err || { echo 'the FFTW build failed'; false; }"
        check+=" && { grep -q '^fftx\[info\]: plan' \"\$err\" || { echo 'fftx did not plan'; false; }; }"
        check+=" && $(printf %q "${D[COMPARE]}") ref.out \"\$out\""
        add_job 2 "$test" "$dir" "$check" -- "${env[@]}" "${vg_prog[@]}" "${D[TEST]}"
        ;;
      check_onecopy.cmake)
        env=(env FFTX_LOG=info)
        [ -n "${D[LIBDIR]:-}" ] && env+=("LD_LIBRARY_PATH=${D[LIBDIR]}")
        add_job 2 "$test" "$dir" \
          'grep -q "^plan 1$" "$out" && grep -q "^fftx\[info\]: plan" "$err" || { echo "fftx did not plan"; false; }' \
          -- "${env[@]}" "${vg_prog[@]}" "${D[EXE]}"
        ;;
      check_datasyms.cmake)
        add_job 2 "$test" "$dir" 'grep -q "^fftw_version \[fftw-3.3.10" "$out" || { echo "not fftx/FFTW 3.3.10 data"; false; }' \
          -- env "LD_LIBRARY_PATH=${D[LIBDIR]}" "${vg_prog[@]}" "${D[EXE]}"
        ;;
      "")
        # A program run directly (no arguments in this suite; ctest shows them quoted if any).
        if [[ $cmd =~ [[:space:]] ]]; then
          echo "memcheck.sh: $test: direct test with arguments, not handled: $cmd" >&2
          exit 1
        fi
        add_job 2 "$test" "$root/build-ctest" 'true' -- "${vg_prog[@]}" "$cmd"
        ;;
      *)
        echo "   not a program run (cmake script $script): $test"
        continue
        ;;
    esac
    nprog=$((nprog + 1))
  done < "$work/ctest-list.txt"
  if [ $nprog -eq 0 ]; then
    echo "memcheck.sh: no ctest programs found (ctest -N -V in build-ctest)" >&2
    exit 1
  fi
fi

# ---------------------------------------------------------------------------------------------
echo "== memcheck: $njobs valgrind runs, $jobs at a time"
find "$work/jobs" -name '*.sh' | sort | xargs -P "$jobs" -I{} bash {} || true

fail=0
cpu_total=0
echo "   (wall and CPU seconds of each run)"
for f in "$work"/jobs/*.sh; do
  name=$(basename "$f" .sh)
  name=${name#?-???-}
  read -r rc secs cpu < "$work/$name.vg.rc" 2>/dev/null || { rc=missing; secs=0; cpu=0; }
  cpu_total=$(awk -v a="$cpu_total" -v b="$cpu" 'BEGIN{print a + b}')
  if [ "$rc" = 0 ]; then
    printf '   ok   %4ss %6ss %s\n' "$secs" "$cpu" "$name"
  else
    fail=1
    printf '   FAIL %4ss %6ss %s (exit %s)\n' "$secs" "$cpu" "$name" "$rc"
    echo "---- valgrind log ($work/$name.vg):"
    grep -v '^==[0-9]*== *$' "$work/$name.vg" 2>/dev/null | head -150 || true
    grep -h 'ERROR SUMMARY' "$work/$name.vg" 2>/dev/null || true
    echo "---- stderr (last 40 lines):"
    tail -n 40 "$work/$name.err" 2>/dev/null || true
    echo "---- stdout (last 20 lines):"
    tail -n 20 "$work/$name.out" 2>/dev/null || true
  fi
done
echo "memcheck.sh: $((SECONDS - start)) s, $cpu_total CPU seconds under valgrind"
if [ $fail -ne 0 ]; then
  echo "memcheck.sh: FAILED (valgrind errors, or a program or test failing under valgrind; see above)" >&2
  exit 1
fi
echo "memcheck.sh: all clean"
