#!/usr/bin/env bash
# Builds what tools/device-fmm.sh runs into DEST (default .device-coll of this checkout; a
# helper's worktree passes the session checkout's, since the device tool sends that one):
# tests/gpu.rs and tests/fmm_bench.rs, stripped, and the script itself.
#   OLD_BENCH=path: also carry that fmm_bench binary (an earlier build) as fmm_bench_old.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=${1:-.device-coll}
mkdir -p "$DEST"
cargo test --release --test gpu --test fmm_bench --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        print(m["target"]["name"], m["executable"])' \
  | while read -r name exe; do cp "$exe" "$DEST/$name"; strip --strip-debug "$DEST/$name"; done
if [ -n "${OLD_BENCH:-}" ]; then cp "$OLD_BENCH" "$DEST/fmm_bench_old"; strip --strip-debug "$DEST/fmm_bench_old"; fi
cp tools/device-fmm.sh "$DEST/run.sh"
du -sh "$DEST"; ls -la "$DEST"
