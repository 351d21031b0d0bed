"""Reads bench/run.sh's raw RESULT lines and prints the markdown table of times and ratios."""
import collections, datetime, re, subprocess, sys

rows = collections.defaultdict(dict)  # (problem, alloc) -> {library: median_ms}
for line in open(sys.argv[1]):
    m = re.match(r"RESULT (\S+) (\S+) (\S+) median_ms=([\d.]+)", line)
    if not m:
        continue
    problem, alloc, lib, ms = m.group(1), m.group(2), m.group(3), float(m.group(4))
    if alloc == "cufft-direct":
        rows[(problem, "device")]["cufft-direct"] = ms
    else:
        rows[(problem, alloc)][lib] = ms

def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except Exception:
        return "?"

print(f"# fftx benchmark, {datetime.date.today()}")
print(f"GPU: {sh('nvidia-smi --query-gpu=name,driver_version --format=csv,noheader')}; "
      f"CPU: {sh('grep -m1 \"model name\" /proc/cpuinfo | cut -d: -f2').strip()}, {sh('nproc')} cores")
print("Median ms per execute (host array to host array; `device`: device arrays). FFTW 3.3.10 with 16 threads, "
      "cuFFTW by LD_PRELOAD, fftx by LD_PRELOAD; all FFTW_MEASURE.\n")
print("| problem | arrays | FFTW | cuFFTW | fftx | fftx vs FFTW | fftx vs cuFFTW | cuFFT direct | fftx / direct |")
print("|---|---|---|---|---|---|---|---|---|")
fmt = lambda v: f"{v:.3f}" if v is not None else "FAILED"
ratio = lambda a, b: f"{a / b:.2f}x" if a and b else "-"
for (problem, alloc), r in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    f, c, x, d = r.get("fftw"), r.get("cufftw"), r.get("fftx"), r.get("cufft-direct")
    print(f"| {problem} | {alloc} | {fmt(f) if alloc != 'device' else '-'} | {fmt(c) if alloc != 'device' else '-'} | {fmt(x)} "
          f"| {ratio(f, x)} | {ratio(c, x)} | {fmt(d) if d else '-'} | {ratio(x, d) if d else '-'} |")

# The PCIe floor of the 2^26 c2c f32 transform: bytes in at 45 GB/s, out at 54 GB/s, plus cuFFT.
direct = rows.get(("c2c_f32_2^26", "device"), {}).get("cufft-direct")
fx = rows.get(("c2c_f32_2^26", "fftw"), {}).get("fftx")
if direct and fx:
    b = 2 ** 26 * 8
    floor = b / 45e9 * 1e3 + b / 54e9 * 1e3 + direct
    print(f"\nc2c f32 2^26, fftw_malloc arrays: PCIe floor {floor:.2f} ms (in {b / 45e9 * 1e3:.2f} + out {b / 54e9 * 1e3:.2f} + cuFFT {direct:.2f}); fftx {fx:.2f} ms = {fx / floor:.2f}x the floor")
