#!/usr/bin/env bash
# Builds what tools/device-dist.sh runs into DEST (default .device-dist of this checkout; a
# helper's worktree passes the session checkout's, since the device tool sends that one):
# tests/gpu.rs, tests/fmm_bench.rs and tests/dist_bench.rs, stripped, and the script itself.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=${1:-.device-dist}
bash tools/test-binaries.sh "$DEST" --test gpu --test fmm_bench --test dist_bench
cp tools/device-dist.sh "$DEST/run.sh"
du -sh "$DEST"; ls -la "$DEST"
