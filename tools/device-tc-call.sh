#!/usr/bin/env bash
# Issue 17's tensor-core half kernel on the device, one call (after building .device with
# tools/test-binaries.sh --test gpu --test half, and a base library in .device-base/lib):
# its GPU tests, tests/half.rs through the GPU, bench/tc_probe.cu, and bench/half.cu A/B on
# the lengths it takes (and 256 as a control) -> $OUT. TC_NO_PROBE=1 skips the probe.
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
timeout 240 env FFTX_REQUIRE_GPU=1 .device/tests/gpu --test-threads=1 half_ >"$OUT/gpu-half.log" 2>&1
echo "gpu rc=$?"
grep -E "tensor-core half|^test |panicked" "$OUT/gpu-half.log" | head -40
timeout 150 env FFTX_REQUIRE_GPU=1 FFTX_BACKEND=gpu .device/tests/half --test-threads=1 >"$OUT/half.log" 2>&1
echo "half rc=$?"
grep "^test result" "$OUT"/*.log
if [ -z "${TC_NO_PROBE:-}" ]; then
  bash tools/device-tc-probe.sh >"$OUT/probe.txt" 2>&1
  echo "probe rc=$?"
  grep "^| [0-9]" "$OUT/probe.txt"
fi
HALF_AB_LIBS=".device-base/lib .device/lib" HALF_CASES="${TC_CASES:-256,512,768,1024,2048,3072,4096}" AB_ROUNDS=2 bash tools/device-half-ab.sh
echo "ab rc=$?"
for f in "$OUT"/half-[AB]-[12].md; do echo "== $f"; grep "^| [0-9]" "$f"; done
rm -f "$OUT"/tc-build.txt "$OUT"/tc.err "$OUT"/tc.md
