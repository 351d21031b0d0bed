"""The placement table from placement.sh's raw files: per problem and array kind, fftx
(FFTX_BACKEND=auto) against the best of FFTW at all cores, fftx on the GPU and fftx on the CPU,
all four timed in one process with their executes alternating (cpu_bench --placement).

    python3 placement_table.py OUT_DIR    (reads OUT_DIR/{malloc,fftw_malloc}/cpu-raw.txt)
"""
import os
import sys


def results(path):
    """(problem -> {key: value} of its PLACEMENT line, the raw file's header lines)."""
    rows, head = {}, []
    if not os.path.exists(path):
        return rows, head
    for line in open(path):
        if line.startswith("# "):
            head.append(line[2:].strip())
        elif line.startswith("PLACEMENT "):
            f = line.split()
            rows[f[1]] = dict(x.split("=", 1) for x in f[2:] if "=" in x)
        elif line.startswith("FAIL "):
            rows.setdefault(line.split()[1], {"fail": line.strip()})
    return rows, head


def ms(x):
    return f"{x:.4f}" if x < 0.01 else f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:.0f}"


def main(out):
    allocs = ["malloc", "fftw_malloc"]
    runs = {a: results(os.path.join(out, a, "cpu-raw.txt")) for a in allocs}
    print("# Placement: fftx (FFTX_BACKEND=auto) against the best of FFTW, fftx on the GPU, fftx on the CPU\n")
    for line in runs["malloc"][1]:
        print(line + "  ")
    print(
        "\nFFTW_ESTIMATE, all cores, median ms of one execute; in each problem's process fftx is planned with "
        "FFTX_BACKEND=auto, gpu and cpu and the executes of the four plans (with FFTW's) alternate, in a new order each round. "
        "ratio = auto / min(FFTW, gpu, cpu); the target is at most 1.1. `malloc`: pageable arrays; "
        "`fftw_malloc`: fftx's fftw_malloc (pinned from 1 MiB when a GPU is used). auto plan ms: the auto plan's "
        "planning time (a first plan that starts CUDA costs 200-600 ms). auto chose: the backend its printed plan names; "
        "chosen / best: the forced plan of that backend against the best (the choice's quality without the noise between "
        "two plans of one backend).\n"
    )
    over, worst = [], {}
    for a in allocs:
        print(f"## {a} arrays\n")
        print("| problem | FFTW | fftx gpu | fftx cpu | fftx auto | best | auto chose | auto / best | chosen / best | auto plan ms |")
        print("|---|---:|---:|---:|---:|---|---|---:|---:|---:|")
        for p, r in runs[a][0].items():
            if "fail" in r:
                print(f"| {p} | FAILED | | | | | | |")
                over.append(f"{p} ({a}, failed)")
                continue
            cand = {k: float(r[k + "_ms"]) for k in ("fftw", "gpu", "cpu")}
            best = min(cand, key=cand.get)
            x = float(r["auto_ms"])
            ratio = x / cand[best]
            chose = r.get("chose", "?")
            # The choice's quality without the noise between two plans of one backend: the
            # forced plan of the backend auto chose, against the best.
            chosen = cand[chose] / cand[best] if chose in cand else ratio
            worst[a] = max(worst.get(a, 0), ratio)
            if ratio > 1.1:
                over.append(f"{p} ({a}, {ratio:.2f}, chosen {chosen:.2f})")
            print(
                f"| {p} | {ms(cand['fftw'])} | {ms(cand['gpu'])} | {ms(cand['cpu'])} | {ms(x)} | "
                f"{'FFTW' if best == 'fftw' else best} | {chose} | {ratio:.2f} | {chosen:.2f} | "
                f"{float(r['auto_plan_ms']):.3g} |"
            )
        print()
    print("Worst auto / best: " + ", ".join(f"{a} {w:.2f}" for a, w in worst.items()) + "  ")
    print("Above 1.1: " + (", ".join(over) if over else "none"))


if __name__ == "__main__":
    main(sys.argv[1])
