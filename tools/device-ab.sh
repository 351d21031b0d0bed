#!/usr/bin/env bash
# A/B of two fftx builds through the FFTW-API benchmark on one device machine, in one call:
# bench/run.sh with fftx only, the builds taking turns (A B A B ...), so that a change is judged
# against its baseline on the same host at the same time (the host's own speed varied up to
# 1.6x between calls). A is AB_BASE (default .device-base/lib: the baseline's libfftx.so and its
# FFTW names), B is .device/lib (tools/device-build.sh). Carry both.
#   AB_ROUNDS (2), BENCH_ALLOCS (default "fftw malloc"), BENCH_FILTER, BENCH_MIN_TIME (0.5)
# Output: $OUT/ab.md (median ms per round and build, and B/A from the best median of each),
# $OUT/ab-raw.tgz (every round's bench-raw.txt).
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
A=${AB_BASE:-$PWD/.device-base/lib}
B=$PWD/.device/lib
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for r in $(seq 1 "${AB_ROUNDS:-2}"); do
  for side in A B; do
    dir=$([ $side = A ] && echo "$A" || echo "$B")
    echo "=== [$(date -u +%H:%M:%S)] round $r build $side ($dir)"
    env OUT="$OUT/ab-$r-$side" FFTX_LIB_DIR="$dir" BENCH_LIBS=fftx \
      BENCH_ALLOCS="${BENCH_ALLOCS:-fftw malloc}" BENCH_MIN_TIME="${BENCH_MIN_TIME:-0.5}" \
      bash bench/run.sh >"$OUT/ab-$r-$side.log" 2>&1
  done
done
python3 - "$OUT" <<'EOF'
import glob, os, re, sys
out = sys.argv[1]
rows = {}  # (problem, alloc) -> {(round, side): median}
for f in sorted(glob.glob(f"{out}/ab-*-*/bench-raw.txt")):
    r, side = re.search(r"ab-(\d+)-([AB])/", f).groups()
    alloc = None
    for line in open(f):
        m = re.match(r"RUN lib=fftx alloc=(\S+) problem=(\S+)", line)
        if m:
            alloc = m.group(1)
        m = re.match(r"RESULT (\S+) \S+ median_ms=([0-9.]+)", line)
        if m and alloc:
            rows.setdefault((m.group(1), alloc), {})[(int(r), side)] = float(m.group(2))
rounds = sorted({k[0] for v in rows.values() for k in v})
head = " | ".join(f"r{r} {s}" for r in rounds for s in "AB")
lines = [f"| problem | arrays | {head} | B/A (best medians) |", "|---|---|" + "---:|" * (2 * len(rounds) + 1)]
for (p, alloc), v in rows.items():
    cells = " | ".join(f"{v[(r, s)]:.4g}" if (r, s) in v else "-" for r in rounds for s in "AB")
    a = [x for (r, s), x in v.items() if s == "A"]
    b = [x for (r, s), x in v.items() if s == "B"]
    ratio = f"{min(b) / min(a):.3f}" if a and b else "-"
    lines.append(f"| {p} | {alloc} | {cells} | {ratio} |")
open(f"{out}/ab.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
tar -C "$OUT" -czf "$OUT/ab-raw.tgz" $(cd "$OUT" && ls -d ab-*-[AB] ab-*.log) && rm -rf "$OUT"/ab-*-[AB] "$OUT"/ab-*.log
ls -la "$OUT"
