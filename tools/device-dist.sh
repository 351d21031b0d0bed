#!/usr/bin/env bash
# One device call for issue 16 on a machine of 2 or 4 cards, from .device-dist/ (built here by
# tools/device-dist-build.sh, carried with carry [".device-dist"]): the card topology, the GPU
# tests of the FMM and distributed programs (tests/gpu.rs), the distributed 3-D bench
# (tests/dist_bench.rs: slabs and pencils, c2c and r2c, over 1, 2 and 4 cards, beside one
# card's cuFFT), then the FMM-FFT bench (tests/fmm_bench.rs) on 4 and on 2 cards. Each section
# has its own time limit, so that one call ends within the device's 10 minutes whatever hangs.
# In $OUT: gpu.txt, summary.txt, the tables (dist.md, dist.csv, fmm4.md, fmm2.md) and
# logs.tar.gz (every section's full log); at most 8 files come back.
#   GPU_TESTS (default "fmm distributed"), DIST_SIZES (default "256 512 1024"), DIST_CARDS
#   (default "1 2 4"), DIST2_SIZES (a second 3-D run, f64 c2c unless DIST2_PRECISIONS /
#   DIST2_KINDS say otherwise), FMM_SIZES (default "24 26 28"), SKIP (sections to skip: "gpu
#   dist fmm4 fmm2"), *_SECS (each section's limit in seconds); the benches' other variables
#   (DIST_CPU_MAX, DIST_PRECISIONS, FMM_REPS, ...) pass through.
set -u
D=${D:-.device-dist}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/logs"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export FFTX_REQUIRE_GPU=1 FFTX_LOG=warn
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvidia-smi topo -m; nproc; free -g | head -2; } >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
CARDS=$(nvidia-smi -L 2>/dev/null | wc -l)
section() { # name, seconds, command...
  local name=$1 secs=$2; shift 2
  case " ${SKIP:-} " in *" $name "*) return ;; esac
  echo "=== [$(date -u +%H:%M:%S)] $name" | tee -a "$OUT/summary.txt"
  local t0=$SECONDS
  timeout -k 5 "$secs" "$@" >"$OUT/logs/$name.log" 2>&1
  local rc=$?
  grep -E "^test result|FAILED|panicked|^failures:|^\| [0-9]|^\| 2\^|^profile|Cards:|: [0-9.]+ s$" "$OUT/logs/$name.log" | head -120 | tee -a "$OUT/summary.txt"
  echo "--- $name rc=$rc $((SECONDS - t0)) s" | tee -a "$OUT/summary.txt"
}
section gpu "${GPU_SECS:-120}" $D/gpu --test-threads=1 ${GPU_TESTS:-fmm distributed}
section dist "${DIST_SECS:-200}" env FFTX_DEVICES=all DIST_CARDS="${DIST_CARDS:-1 2 4}" \
  DIST_SIZES="${DIST_SIZES:-256 512 1024}" DIST_PROFILE="${DIST_PROFILE:-1}" \
  DIST_OUT="$OUT/dist.md" DIST_CSV="$OUT/dist.csv" $D/dist_bench --ignored --nocapture --test-threads=1
# A second run of the 3-D bench with its own sizes (e.g. f64 at 1024³), when DIST2_SIZES is set.
if [ -n "${DIST2_SIZES:-}" ]; then
  section dist2 "${DIST2_SECS:-120}" env FFTX_DEVICES=all DIST_CARDS="${DIST_CARDS:-1 2 4}" \
    DIST_SIZES="$DIST2_SIZES" DIST_PRECISIONS="${DIST2_PRECISIONS:-f64}" DIST_KINDS="${DIST2_KINDS:-c2c}" \
    DIST_F64_MAX=1000000 DIST_PROFILE="${DIST_PROFILE:-1}" DIST_OUT="$OUT/dist2.md" DIST_CSV="$OUT/dist2.csv" \
    $D/dist_bench --ignored --nocapture --test-threads=1
fi
if [ "$CARDS" -ge 4 ]; then
  section fmm4 "${FMM4_SECS:-90}" env FFTX_DEVICES=0,1,2,3 FMM_PROFILE="${FMM_PROFILE:-1}" \
    FMM_SIZES="${FMM_SIZES:-24 26 28}" FMM_OUT="$OUT/fmm4.md" $D/fmm_bench --ignored --nocapture --test-threads=1
fi
section fmm2 "${FMM2_SECS:-90}" env FFTX_DEVICES=0,1 FMM_PROFILE="${FMM_PROFILE:-1}" \
  FMM_SIZES="${FMM_SIZES:-24 26 28}" FMM_OUT="$OUT/fmm2.md" $D/fmm_bench --ignored --nocapture --test-threads=1
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
ls -la "$OUT"
