#!/usr/bin/env bash
# Builds what tools/device-dist.sh runs into DEST (default .device-dist of this checkout; a
# helper's worktree passes the session checkout's, since the device tool sends that one):
# tests/gpu.rs, tests/fmm_bench.rs and tests/dist_bench.rs, stripped, and the script itself.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=${1:-.device-dist}
mkdir -p "$DEST"
cargo test --release --test gpu --test fmm_bench --test dist_bench --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        print(m["target"]["name"], m["executable"])' \
  | while read -r name exe; do cp "$exe" "$DEST/$name"; strip --strip-debug "$DEST/$name"; done
cp tools/device-dist.sh "$DEST/run.sh"
du -sh "$DEST"; ls -la "$DEST"
