#!/usr/bin/env bash
# Builds what tools/device-split.sh runs into DEST (default .device-split of this checkout,
# ignored by git; carried with the device tool's carry [".device-split"]): the tests/gpu.rs
# binary, stripped of debug info. Other checkouts of this repository (git worktrees) that
# build into the same target/ can leave a gpu binary of their own source there: the binary is
# checked for the split-half tests, and CARGO_TARGET_DIR=/tmp/target-split (say) avoids it.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=${1:-.device-split}
rm -rf "$DEST"
bash tools/test-binaries.sh "$DEST" --test gpu
test -x "$DEST/gpu" || { echo "no tests/gpu.rs binary: see cargo test --release --test gpu --no-run" >&2; exit 1; }
"$DEST/gpu" --list 2>/dev/null | grep -q '^split_half_plan_timing' ||
  { echo "$DEST/gpu lacks the split-half tests (stale target/?): set CARGO_TARGET_DIR" >&2; exit 1; }
du -sh "$DEST"; ls -la "$DEST"
