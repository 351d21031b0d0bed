#!/usr/bin/env bash
# Issue 15/16 probes on a machine of several cards, one device call (no Rust build needed):
# cuFFTXt's multi-GPU execute (bench/cufftxt.cu: which variant of the call order runs, 1-D and
# 3-D), and the all-to-all three ways (bench/alltoall.cu: NCCL, cudaMemcpyPeerAsync, a
# peer-read kernel, each in the plain and the ring order) on 2 cards and, where there are 4, on
# 4. MX_SKIP_XT=1 skips cuFFTXt. Output to $OUT/logs/mx.txt, appended to $OUT/summary.txt.
# Results: bench/results/2026-11-26-exchange.md.
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/logs" /tmp/mx
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
M="$OUT/logs/mx.txt"
{
date -u
CARDS=$(nvidia-smi -L | wc -l)
echo "cards: $CARDS"
[ -n "${MX_SKIP_XT:-}" ] || nvcc -O3 -std=c++17 -arch=sm_90 bench/cufftxt.cu -lcufft -o /tmp/mx/cufftxt 2>&1 | tail -5
nvcc -O3 -std=c++17 -arch=sm_90 bench/alltoall.cu -ldl -o /tmp/mx/alltoall 2>&1 | tail -5
NCCL=$(ls /usr/lib/x86_64-linux-gnu/libnccl.so.2 /usr/local/cuda/lib64/libnccl.so.2 2>/dev/null | head -1)
[ -z "$NCCL" ] && NCCL=$(find / -name 'libnccl.so.2*' -not -path '/proc/*' 2>/dev/null | head -1)
echo "libnccl: ${NCCL:-none}"
[ -n "${MX_SKIP_XT:-}" ] || for v in "" "CUFFTXT_STREAM=1" "CUFFTXT_REF_AFTER=1" "CUFFTXT_STREAM=1 CUFFTXT_REF_AFTER=1"; do
  echo "=== cufftxt 2 cards, env [$v]"
  timeout -k 5 40 env $v /tmp/mx/cufftxt 2 "8 20 24" 2>&1 | tail -12
done
[ -n "${MX_SKIP_XT:-}" ] || for v in "" "CUFFTXT_STREAM=1"; do
  echo "=== cufftxt 3d 2 cards, env [$v]"
  timeout -k 5 40 env $v /tmp/mx/cufftxt 3d 2 2>&1 | tail -12
done
echo "=== alltoall 2 cards"
timeout -k 5 60 env NCCL_LIB="$NCCL" /tmp/mx/alltoall 2 "64 256 1024 2048" 2>&1 | tail -20
if [ "$CARDS" -ge 4 ]; then
  echo "=== alltoall 4 cards"
  timeout -k 5 60 env NCCL_LIB="$NCCL" /tmp/mx/alltoall 4 "64 256 1024 2048" 2>&1 | tail -20
fi
date -u
} >"$M" 2>&1
cat "$M" | tee -a "$OUT/summary.txt"
