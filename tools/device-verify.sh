#!/usr/bin/env bash
# A shorter device run than tools/device-run.sh, for one `device` call (under 10 minutes): the
# sections named as arguments, in order, each under its own time limit, logs under $OUT.
#   gpu       tests/gpu.rs (GPU vs CPU executor, out-of-card Programs on CudaProgram, fftxf twins)
#   fftx      the FFTX suite (double and single precision) with FFTX_BACKEND=gpu, and the ctest programs
#   diff      the differential suite against FFTW 3.3.10 with FFTX_BACKEND=gpu (every layout)
#   api       the API, FFTW-contract and concurrency suites with FFTX_BACKEND=gpu
#   fusions   the FFTX suite on the GPU once per FFTX_GPU_FUSION (fused, kernel, callback): none
#             of its chains may fall back to the CPU
#   hockney   bench/hockney.sh (HOCKNEY_FUSIONS, default "auto kernel")
#   cpu       bench/cpu/run.sh: fftx's CPU executor vs FFTW 3.3.10 at 1 thread and all cores
#   bench     bench/run.sh: the FFTW-API benchmark against FFTW and cuFFTW
#   placement bench/cpu/placement.sh: FFTX_BACKEND=auto against the best of FFTW, fftx-gpu and
#             fftx-cpu at all cores, malloc and fftw_malloc arrays (BENCH_MIN_TIME default 0.1)
#   firstplan bench/cpu/first_plan.c: the first plan's time in a fresh process (fftx auto, FFTW)
#   ooc4g     issue 14's 4 GiB-budget cases (FFTX_GPU_MEMORY=4294967296, FFTW_ESTIMATE): c2c f32
#             2^30 and 1024^3, r2c f32 1024^3 (8 GiB each way), fftx against FFTW at 16 threads
#   whole     issue 14's whole-host cases (64 GiB each, FFTW_ESTIMATE, 2 executes, the input
#             regenerated before each): WHOLE_LIBS (default "fftx fftw"; fftx from WHOLE_ALLOCS (malloc and
#             fftw_malloc arrays), FFTW at 16 threads from fftw_malloc arrays) on WHOLE_PROBLEMS
#             (default: c2c f64 2^32 in place, c2c f32 2048^3 in place, r2c f32 2048^3)
#   ooc       c2c f32 2^28 (2 GiB each way) from fftw_malloc arrays: fftx with a 1 GiB device
#             budget (out of card) and on the whole card, against FFTW at 16 threads
#   fmm       tests/fmm_bench.rs: FMM-FFT vs six-step, c2c f32/f64 2^24..2^28 device-resident, on the
#             cards FFTX_DEVICES names (default all; FMM_PARTS=2 on one card: partitions [0, 0];
#             FMM_SIZES="24 25" to shorten), table in $OUT/fmm.md
# GPU_TESTS="name ..." runs only the tests of tests/gpu.rs whose names contain one of them.
# Run after tools/device-build.sh here, with carry [".device"]:  bash tools/device-verify.sh gpu fftx hockney
# The device tool returns at most 8 files: at the end every log and raw file goes into
# $OUT/logs.tgz, and $OUT keeps only that, summary.txt and the markdown tables.
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$OUT/gpu.txt" 2>&1
status=0
section() { # name, seconds, command...
  local name=$1 secs=$2; shift 2
  echo "=== [$(date +%H:%M:%S)] $name" | tee -a "$OUT/summary.txt"
  timeout -k 5 "$secs" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  grep -E "^test result|FAILED|panicked|^failures:" "$OUT/$name.log" | head -20 | tee -a "$OUT/summary.txt"
  echo "--- $name rc=$rc" | tee -a "$OUT/summary.txt"
  [ $rc = 0 ] || status=1
}
for s in "$@"; do
  case $s in
    gpu) section gpu 200 env FFTX_REQUIRE_GPU=1 FFTX_LOG=warn .device/tests/gpu --test-threads=1 ${GPU_TESTS:-} ;;
    fftx)
      section fftx-gpu 200 env FFTX_REQUIRE_GPU=1 FFTX_BACKEND=gpu .device/tests/fftx --test-threads=1
      for p in .device/ctest/*; do section "ctest-$(basename "$p")" 60 env FFTX_BACKEND=gpu FFTX_LOG=warn "$p"; done ;;
    diff) section differential-gpu 200 env FFTX_BACKEND=gpu .device/tests/differential --test-threads=8 ;;
    api)
      section api-gpu 100 env FFTX_BACKEND=gpu .device/tests/api --test-threads=1
      section fftw-contract-gpu 100 env FFTX_BACKEND=gpu .device/tests/fftw_contract --test-threads=1
      section concurrency-gpu 100 env FFTX_BACKEND=gpu .device/tests/concurrency ;;
    fusions)
      for f in fused kernel callback; do
        section "fftx-$f" 150 env FFTX_REQUIRE_GPU=1 FFTX_BACKEND=gpu FFTX_GPU_FUSION=$f FFTX_LOG=info \
          .device/tests/fftx --test-threads=1 --nocapture
        fell=$(grep -c "fusion unavailable\|GPU failed\|was reset" "$OUT/fftx-$f.log")
        echo "fftx-$f: $(grep -c "runs with $f fusion" "$OUT/fftx-$f.log") chains with $f fusion, $fell fell back" |
          tee -a "$OUT/summary.txt"
        [ "$fell" = 0 ] || status=1
      done ;;
    hockney) section hockney 330 env OUT="$OUT" HOCKNEY_FUSIONS="${HOCKNEY_FUSIONS:-auto kernel}" bash bench/hockney.sh ;;
    cpu) section cpu-bench 300 env OUT="$OUT" FFTX_LIB="$PWD/.device/lib/libfftx.so" bash bench/cpu/run.sh ;;
    placement) section placement 560 env OUT="$OUT/placement" BENCH_MIN_TIME="${BENCH_MIN_TIME:-0.1}" \
      bash bench/cpu/placement.sh "$PWD/.device/lib/libfftx.so"
      cp "$OUT/placement/placement.md" "$OUT/placement.md" 2>/dev/null ;;
    firstplan)
      gcc -O2 -std=c11 bench/cpu/first_plan.c -o /tmp/first_plan -ldl
      fftw=$(ldconfig -p | awk '$1 == "libfftw3.so.3" { print $NF; exit }')
      for i in 1 2 3; do
        section "firstplan-fftx-$i" 30 env FFTX_BACKEND=auto /tmp/first_plan "$PWD/.device/lib/libfftx.so"
        section "firstplan-fftw-$i" 30 /tmp/first_plan "$fftw"
      done
      grep -h FIRSTPLAN "$OUT"/firstplan-*.log | tee -a "$OUT/summary.txt" ;;
    bench) section bench 560 env OUT="$OUT" bash bench/run.sh ;;
    fmm) section fmm 560 env FFTX_REQUIRE_GPU=1 FFTX_LOG=warn FFTX_DEVICES="${FFTX_DEVICES:-all}" OUT="$OUT" \
      .device/tests/fmm_bench --ignored --nocapture --test-threads=1 ;;
    ooc)
      for budget in 1073741824 none; do
        section "ooc-$budget" 240 env OUT="$OUT/ooc-$budget" BENCH_FILTER='c2c_f32_2^28' BENCH_ALLOCS=fftw \
          BENCH_LIBS="$([ $budget = none ] && echo fftx || echo 'fftw fftx')" BENCH_MIN_TIME=0.5 \
          $([ $budget = none ] || echo FFTX_GPU_MEMORY=$budget) bash bench/run.sh
      done ;;
    ooc4g)
      for f in 'c2c_f32_2^30' '1024^3'; do
        section "ooc4g-${f//[^a-z0-9]/_}" 290 env OUT="$OUT/ooc4g-${f//[^a-z0-9]/_}" BENCH_FILTER="$f" BENCH_ALLOCS=fftw \
          BENCH_LIBS='fftw fftx' BENCH_ESTIMATE=1 BENCH_MIN_TIME=0 BENCH_MIN_REPS=3 FFTX_GPU_MEMORY=4294967296 \
          bash bench/run.sh
      done ;;
    whole)
      for p in ${WHOLE_PROBLEMS:-c2c_f64_2^32_inplace c2c_f32_2048^3_inplace r2c_f32_2048^3}; do
        for lib in ${WHOLE_LIBS:-fftx fftw}; do
          name="whole-$lib-${p//[^a-z0-9]/_}"
          section "$name" 400 env OUT="$OUT/$name" BENCH_FILTER="$p" BENCH_LIBS=$lib \
            BENCH_ALLOCS="$([ $lib = fftx ] && echo "${WHOLE_ALLOCS:-malloc fftw}" || echo fftw)" BENCH_ESTIMATE=1 \
            BENCH_MIN_TIME=0 BENCH_MIN_REPS=2 BENCH_TIMEOUT=390 bash bench/run.sh
          grep -h -E '^(RESULT|FAIL|STDERR)' "$OUT/$name/bench-raw.txt" | tee -a "$OUT/summary.txt"
        done
      done ;;
    *) echo "unknown section $s"; status=1 ;;
  esac
done
echo "device-verify status: $status" | tee -a "$OUT/summary.txt"
bundle() {
  (cd "$OUT" && tar czf /tmp/device-logs.tgz --exclude=summary.txt --exclude='*.md' . &&
    find . -type f ! -name summary.txt ! -name '*.md' -delete && find . -mindepth 1 -type d -empty -delete &&
    mv /tmp/device-logs.tgz logs.tgz)
}
bundle
exit $status
