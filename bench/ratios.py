#!/usr/bin/env python3
"""Turns bench/run.sh's raw output into the comparison table (markdown, also printed).

    python3 bench/ratios.py [--md TABLE.md] [--lib NAME] RAW...

Reads `RUN lib=.. alloc=.. problem=..` / `RUN_END ... rc=..` frames (bench/run.sh), `RESULT`
and `FAIL` lines (bench/fftw_bench.c) and `INFO` lines (the machine). A RESULT line outside a
frame counts for --lib (default fftw); the older form `RESULT <problem> <alloc> <lib> k=v ...`
is read as well. A cell is the median ms of one execute; FAILED when the process failed or
printed FAIL for it, `-` when it was not run. `x` ratios are speed-ups (>1: fftx is faster);
`fftx / direct` is a time ratio (1.00: as fast as cuFFT on the same device arrays). `check`
compares fftx's checksum with FFTW's (else cuFFTW's, else cuFFT's).
"""
import os
import argparse
import re
import sys

HOST_LIBS = ("fftw", "cufftw", "fftx")
PROBLEM_ORDER = ["c2c_f32_1024", "c2c_f32_4096x4096", "c2c_f32_2^26", "c2c_f32_512^3", "r2c_f64_256^3",
                 "c2c_f32_4096x4096_inplace"]
H2D, D2H = 45e9, 54e9  # PCIe 5 x16 rates (bytes/s) for the floor of c2c_f32_2^26


def fmt_ms(v):
    return f"{v:.1f}" if v >= 100 else f"{v:.2f}" if v >= 1 else f"{v:.3f}" if v >= 0.01 else f"{v:.5f}"


def kv(tokens):
    out = {}
    for t in tokens:
        if "=" in t:
            k, v = t.split("=", 1)
            out[k] = v
    return out


def parse(paths, default_lib):
    results = {}  # (lib, alloc, problem) -> dict(median_ms=, checksum=, ...)
    failed = {}   # (lib, alloc, problem) -> reason
    info = []
    problems = []
    for path in paths:
        frame = None
        for line in open(path, errors="replace"):
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "INFO":
                info.append(line[5:].rstrip())
            elif tok[0] == "RUN":
                f = kv(tok[1:])
                frame = (f.get("lib", "?"), f.get("alloc", "?"), f.get("problem", "?"))
                if frame[2] not in problems:
                    problems.append(frame[2])
            elif tok[0] == "RUN_END":
                f = kv(tok[1:])
                key = (f.get("lib", "?"), f.get("alloc", "?"), f.get("problem", "?"))
                rc = f.get("rc", "?")
                if rc != "0":
                    why = {"124": "timeout", "137": "killed", "139": "segfault", "134": "abort"}.get(rc, "rc=" + rc)
                    for k in [key, ("cufft", "cufft-direct", key[2])] if key[1] == "device" else [key]:
                        if k not in results:
                            failed.setdefault(k, why)
                frame = None
            elif tok[0] in ("RESULT", "FAIL") and len(tok) >= 3:
                problem, alloc = tok[1], tok[2]
                if problem not in problems:
                    problems.append(problem)
                lib = frame[0] if frame else default_lib
                if len(tok) > 3 and "=" not in tok[3] and tok[3] != "FAILED":  # RESULT p alloc lib ...
                    lib = tok[3]
                if alloc == "cufft-direct":
                    lib = "cufft"
                key = (lib, alloc, problem)
                f = kv(tok[3:])
                if tok[0] == "RESULT" and "median_ms" in f:
                    try:
                        results[key] = {k: float(v) for k, v in f.items() if re.match(r"^[-+0-9.eE]+$", v)}
                        failed.pop(key, None)
                    except ValueError:
                        failed[key] = "unparsable"
                else:
                    failed.setdefault(key, f.get("reason", "failed"))
    order = [p for p in PROBLEM_ORDER if p in problems] + [p for p in problems if p not in PROBLEM_ORDER]
    return results, failed, info, order


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", nargs="+")
    ap.add_argument("--md", help="also write the table to this markdown file")
    ap.add_argument("--lib", default="fftw", help="library of RESULT lines outside RUN frames")
    a = ap.parse_args()
    results, failed, info, problems = parse(a.raw, a.lib)

    def cell(lib, alloc, p):
        r = results.get((lib, alloc, p))
        if r:
            return r["median_ms"], fmt_ms(r["median_ms"])
        if (lib, alloc, p) in failed:
            return None, f"FAILED ({failed[(lib, alloc, p)]})"
        return None, "-"

    def speedup(ref, x):
        return f"{ref / x:.2f}x" if ref and x else "-"

    def check(alloc, p):
        x = results.get(("fftx", alloc, p))
        if not x or "checksum" not in x:
            return "-"
        for lib, al in (("fftw", alloc), ("cufftw", alloc), ("cufft", "cufft-direct")):
            ref = results.get((lib, al, p))
            if ref and "checksum" in ref and ref["checksum"]:
                rel = abs(x["checksum"] - ref["checksum"]) / abs(ref["checksum"])
                return ("ok" if rel < 1e-3 else "MISMATCH") + f" {rel:.0e} vs {lib}"
        return "-"

    flags = "FFTW_ESTIMATE" if os.environ.get("BENCH_ESTIMATE") == "1" else "FFTW_MEASURE"
    lines = ["# fftx benchmark through the FFTW API", ""]
    lines += [f"- {i}" for i in info if i.split(":")[0] in ("date", "gpu", "cpu", "fftw", "cufftw", "threads")]
    lines += ["", "Median ms of one `fftw_execute` (host array to host array; `device`: cudaMalloc'ed arrays, "
              "timed to a cudaDeviceSynchronize). FFTW 3.3.10 with its threads, cuFFTW and fftx (FFTX_BACKEND=auto) "
              f"through LD_PRELOAD; {flags} plans. Speed-ups > 1: fftx is faster.", ""]
    host_allocs = [al for al in ("fftw", "malloc") if any(k[1] == al for k in list(results) + list(failed))]
    if host_allocs:
        lines += ["| problem | arrays | FFTW ms | cuFFTW ms | fftx ms | fftx vs FFTW | fftx vs cuFFTW | check |",
                  "|---|---|---:|---:|---:|---:|---:|---|"]
        for al in host_allocs:
            for p in problems:
                (f, fs), (c, cs), (x, xs) = (cell(lib, al, p) for lib in HOST_LIBS)
                if fs == cs == xs == "-":
                    continue
                lines.append(f"| {p} | {al} | {fs} | {cs} | {xs} | {speedup(f, x)} | {speedup(c, x)} | {check(al, p)} |")
        lines.append("")
    if any(k[1] in ("device", "cufft-direct") for k in list(results) + list(failed)):
        lines += ["| problem | arrays | fftx ms | cuFFT direct ms | fftx / direct | check |", "|---|---|---:|---:|---:|---|"]
        for p in problems:
            (x, xs), (d, ds) = cell("fftx", "device", p), cell("cufft", "cufft-direct", p)
            if xs == ds == "-":
                continue
            lines.append(f"| {p} | device | {xs} | {ds} | {f'{x / d:.2f}' if x and d else '-'} | {check('device', p)} |")
        lines.append("")

    # PCIe floor of the one big 1-D transform: bytes in and out over the bus, plus cuFFT's own time
    p = "c2c_f32_2^26"
    d = results.get(("cufft", "cufft-direct", p))
    for al in host_allocs:
        x = results.get(("fftx", al, p))
        if not x:
            continue
        bi = x.get("bytes_in", 2 ** 26 * 8)
        bo = x.get("bytes_out", 2 ** 26 * 8)
        floor = (bi / H2D + bo / D2H) * 1e3 + (d["median_ms"] if d else 0.0)
        lines.append(f"- {p}, {al} arrays: PCIe floor {floor:.2f} ms = in {bi / H2D * 1e3:.2f} + out {bo / D2H * 1e3:.2f}"
                     f" + cuFFT {d['median_ms']:.2f}" if d else
                     f"- {p}, {al} arrays: PCIe floor {floor:.2f} ms = in {bi / H2D * 1e3:.2f} + out {bo / D2H * 1e3:.2f}"
                     " (no cufft-direct time)")
        lines[-1] += f"; fftx {x['median_ms']:.2f} ms = {x['median_ms'] / floor:.2f}x the floor"
    text = "\n".join(lines).rstrip() + "\n"
    sys.stdout.write(text)
    if a.md:
        with open(a.md, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
