# How far GrCUDA's conjugate-gradient benchmark (b9) can land from its float64 reference with no GPU involved:
# the same kind of matrix (each row 3 random off-diagonal columns with values uniform in [0, 1), made
# symmetric, zero diagonal), the same 4 iterations from x = 1, run once in float64 and once in float32, for
# many seeds. Run with a CPython that has numpy: python3 bench/grcuda-suite/cg_sensitivity.py [SIZE] [SEEDS]
# Prints per seed the L1 distance between the float32 and float64 solutions and the smallest |p'Ap| met
# (the matrix is indefinite: its trace is 0, so p'Ap can come close to 0 and alpha = r'r / p'Ap blow up).
import os
import random
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != here]  # numpy itself, not the stand-in
import numpy as np  # noqa: E402


def matrix(n, rnd):
    rows, cols, vals = [], [], []
    for i in range(n):
        for e in rnd.sample(range(n), 3):
            while e == i:
                e = rnd.randint(0, n - 1)
            v = rnd.random()
            rows += [i, e]
            cols += [e, i]
            vals += [v, v]
    return np.array(rows), np.array(cols), np.array(vals)


def spmv(rows, cols, vals, v):
    out = np.zeros(len(v), dtype=v.dtype)
    np.add.at(out, rows, (vals * v[cols]).astype(v.dtype))
    return out


def cg(rows, cols, vals, b, dt):
    vals, b = vals.astype(dt), b.astype(dt)
    x = np.ones(len(b), dtype=dt)
    r = b - spmv(rows, cols, vals, x)
    p = r.copy()
    t1 = r.dot(r)
    smallest = float("inf")
    for _ in range(4):
        y = spmv(rows, cols, vals, p)
        t2 = p.dot(y)
        smallest = min(smallest, abs(float(t2)))
        alpha = dt(t1 / t2)
        x = x + alpha * p
        r = r - alpha * y
        old, t1 = t1, r.dot(r)
        p = r + dt(t1 / old) * p
    return x, smallest


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    for seed in range(seeds):
        rnd = random.Random(seed)
        rows, cols, vals = matrix(n, rnd)
        b = np.array([rnd.random() for _ in range(n)])
        x64, small = cg(rows, cols, vals, b, np.float64)
        x32, _ = cg(rows, cols, vals, b, np.float32)
        print("seed %2d: L1 |x32 - x64| = %.4g, max |x64| = %.4g, smallest |p'Ap| = %.4g"
              % (seed, np.abs(x32.astype(np.float64) - x64).sum(), np.abs(x64).max(), small))


main()
