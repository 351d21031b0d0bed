#!/usr/bin/env bash
# Builds test binaries in release mode and copies each, stripped of debug info, into DEST
# under its test's name (the library's unit tests as "unit"), for the device machine, which
# has no Rust. The device build scripts (device-build.sh, device-dist-build.sh,
# device-split-build.sh) share it.
#   tools/test-binaries.sh DEST [cargo test selection, e.g. --test gpu --test fmm_bench]
# With no selection: every test target, the unit tests included.
set -euo pipefail
DEST=$1; shift
mkdir -p "$DEST"
cargo test --release "$@" --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] != ["bin"]:
        name = "unit" if set(m["target"]["kind"]) & {"lib", "rlib", "cdylib"} else m["target"]["name"]
        print(name, m["executable"])' \
  | while read -r name exe; do cp "$exe" "$DEST/$name"; strip --strip-debug "$DEST/$name"; done
