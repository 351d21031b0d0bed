"""The placement table from placement.sh's six raw files: per problem and array kind, fftx
(FFTX_BACKEND=auto) against the best of FFTW at all cores, fftx on the GPU and fftx on the CPU.

    python3 placement_table.py OUT_DIR    (reads OUT_DIR/{malloc,fftw_malloc}-{auto,gpu,cpu}/cpu-raw.txt)
"""
import os
import sys


def results(path):
    """problem -> {key: value} of its RESULT line (estimate, the all-cores thread count)."""
    rows, head = {}, []
    if not os.path.exists(path):
        return rows, head
    for line in open(path):
        if line.startswith("# "):
            head.append(line[2:].strip())
        if not line.startswith("RESULT "):
            continue
        f = line.split()
        kv = dict(x.split("=", 1) for x in f[2:] if "=" in x)
        if kv.get("flags") == "estimate":
            rows[f[1]] = kv
    return rows, head


def ms(x):
    return f"{x:.4f}" if x < 0.01 else f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:.0f}"


def main(out):
    allocs = ["malloc", "fftw_malloc"]
    runs = {(a, b): results(os.path.join(out, f"{a}-{b}", "cpu-raw.txt")) for a in allocs for b in ["auto", "gpu", "cpu"]}
    print("# Placement: fftx (FFTX_BACKEND=auto) against the best of FFTW, fftx on the GPU, fftx on the CPU\n")
    for line in runs[("malloc", "auto")][1]:
        print(line + "  ")
    print("\nFFTW_ESTIMATE, all cores, median ms of one execute. FFTW: FFTW 3.3.10 in the auto run (its executes alternate with fftx's); gpu and cpu: fftx forced there, in runs of their own. "
          "ratio = auto / min(FFTW, gpu, cpu); the target is at most 1.1. `malloc`: pageable arrays; `fftw_malloc`: fftx's fftw_malloc (pinned when a GPU is used).\n")
    over, worst = [], {}
    for a in allocs:
        auto, gpu, cpu = (runs[(a, b)][0] for b in ["auto", "gpu", "cpu"])
        print(f"## {a} arrays\n")
        print("| problem | FFTW | fftx gpu | fftx cpu | fftx auto | best | auto / best | auto plan ms |")
        print("|---|---:|---:|---:|---:|---|---:|---:|")
        for p, r in auto.items():
            # The gpu and cpu runs are other processes on the same machine: their times as
            # measured (scaling them by FFTW's times would import FFTW's own thread-start noise).
            cand = {"FFTW": float(r["fftw_ms"])}
            for name, run in (("gpu", gpu), ("cpu", cpu)):
                if p in run:
                    cand[name] = float(run[p]["fftx_ms"])
            best = min(cand, key=cand.get)
            x = float(r["fftx_ms"])
            ratio = x / cand[best]
            worst[a] = max(worst.get(a, 0), ratio)
            if ratio > 1.1:
                over.append(f"{p} ({a}, {ratio:.2f})")
            cell = lambda k: ms(cand[k]) if k in cand else "-"
            print(f"| {p} | {cell('FFTW')} | {cell('gpu')} | {cell('cpu')} | {ms(x)} | {best} | {ratio:.2f} | {float(r['fftx_plan_ms']):.3g} |")
        print()
    print("Worst auto / best: " + ", ".join(f"{a} {w:.2f}" for a, w in worst.items()) + "  ")
    print("Above 1.1: " + (", ".join(over) if over else "none"))


if __name__ == "__main__":
    main(sys.argv[1])
