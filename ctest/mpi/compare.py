#!/usr/bin/env python3
"""compare.py FFTX_PREFIX SYSTEM_PREFIX NP: mpi_check's outputs of every process, fftx's against
FFTW's. Local sizes (L lines) and plan refusals (R lines) must be identical; each output (V block)
must agree within eps * 8 * log2(N) relative to its largest value (eps of the block's precision, N
its size).
Prints the worst error/tolerance ratio; exits 1 on any difference."""
import math, sys


def blocks(path):
    res, cur = {}, None
    for line in open(path):
        f = line.split()
        if f[0] in ("L", "NULL", "R"):
            res[" ".join(f[:2]) + (" " + f[2] if f[0] == "NULL" else "")] = f
            cur = None
        elif f[0] == "V":
            cur = res.setdefault("V " + f[1], [])
            if cur:  # a second block of the same name (r2c then c2r)
                cur = res.setdefault("V2 " + f[1], [])
        else:
            cur.extend(float(x) for x in f)
    return res


def main():
    fx, sy, np_ = sys.argv[1], sys.argv[2], int(sys.argv[3])
    worst, bad = (0.0, ""), 0
    for r in range(np_):
        a, b = blocks(f"{fx}.{r}"), blocks(f"{sy}.{r}")
        if a.keys() != b.keys():
            print(f"rank {r}: different cases: {sorted(set(a) ^ set(b))}")
            bad += 1
        for k in sorted(set(a) & set(b)):
            if not k.startswith("V"):
                if a[k] != b[k]:
                    print(f"rank {r}: {k}: fftx {a[k][2:]} FFTW {b[k][2:]}")
                    bad += 1
                continue
            x, y = a[k], b[k]
            if len(x) != len(y):
                print(f"rank {r}: {k}: {len(x)} values, FFTW {len(y)}")
                bad += 1
                continue
            if not y:
                continue
            eps = 1.2e-7 if k.split()[1][0] == "f" else 2.3e-16
            tol = eps * 8 * max(1.0, math.log2(max(len(y), 2))) * max(1.0, max(map(abs, y)))
            err = max(abs(p - q) for p, q in zip(x, y))
            ratio = err / tol
            if ratio > worst[0]:
                worst = (ratio, f"rank {r} {k}: error {err:.3g}, tolerance {tol:.3g}")
            if ratio > 1:
                print(f"rank {r}: {k}: error {err:.3g} > tolerance {tol:.3g}")
                bad += 1
    print(f"np {np_}: worst error/tolerance {worst[0]:.3f} ({worst[1]}); {bad} differences")
    sys.exit(1 if bad else 0)


main()
