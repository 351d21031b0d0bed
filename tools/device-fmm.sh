#!/usr/bin/env bash
# One device call for the distributed transforms (issues 15/16), from .device-coll/ (built here
# by tools/device-fmm-build.sh, carried with carry [".device-coll"]): the card topology, the
# GPU tests of distributed and FMM programs (and the out-of-card ones, which use the same box
# copies), then tests/fmm_bench.rs with step profiles, and the bench of OLD (a build of an
# earlier commit, if .device-coll/fmm_bench_old exists) on the same cards. Logs under $OUT.
#   GPU_TESTS (default "fmm distributed out_of_card"), FMM_SIZES (default "24 26 28"),
#   OLD_SIZES (default "24 28"), SKIP (sections to skip: "gpu old").
set -u
D=.device-coll
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvidia-smi topo -m; } >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
section() { # name, seconds, command...
  local name=$1 secs=$2; shift 2
  case " ${SKIP:-} " in *" $name "*) return ;; esac
  echo "=== [$(date +%H:%M:%S)] $name" | tee -a "$OUT/summary.txt"
  timeout -k 5 "$secs" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  grep -E "^test result|FAILED|panicked|^failures:|^\| 2\^|^profile|Cards:" "$OUT/$name.log" | head -60 | tee -a "$OUT/summary.txt"
  echo "--- $name rc=$rc" | tee -a "$OUT/summary.txt"
}
section gpu "${GPU_SECS:-200}" env FFTX_REQUIRE_GPU=1 FFTX_LOG=warn $D/gpu --test-threads=1 ${GPU_TESTS:-fmm distributed out_of_card}
section new "${NEW_SECS:-240}" env FFTX_REQUIRE_GPU=1 FFTX_LOG=warn FFTX_DEVICES=all FMM_PROFILE="${FMM_PROFILE:-1}" \
  FMM_SIZES="${FMM_SIZES:-24 26 28}" FMM_OUT="$OUT/fmm.md" $D/fmm_bench --ignored --nocapture --test-threads=1
[ -x $D/fmm_bench_old ] && section old "${OLD_SECS:-120}" env FFTX_REQUIRE_GPU=1 FFTX_LOG=warn FFTX_DEVICES=all \
  FMM_SIZES="${OLD_SIZES:-24 28}" FMM_OUT="$OUT/fmm-old.md" $D/fmm_bench_old --ignored --nocapture --test-threads=1
ls -la "$OUT"
