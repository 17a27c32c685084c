# The numpy stand-in against real numpy, on the operations GrCUDA's harness uses: run with a CPython that has
# numpy (python3 bench/grcuda-suite/compare_numpy.py); prints one line per operation, "differs" where the
# results are not identical. Dot products may differ in the last bit (numpy's BLAS sums in another order).
import importlib.util, math, os, sys
# this script's folder holds the stand-in, and Python puts it first on the path: take it off to get numpy
here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != here]
import numpy as real
assert not real.__file__.startswith(here), "found the stand-in instead of numpy"
spec = importlib.util.spec_from_file_location("fake", os.path.join(os.path.dirname(os.path.abspath(__file__)), "numpy", "__init__.py"))
fake = importlib.util.module_from_spec(spec); spec.loader.exec_module(fake)
def same(a, b, what):
    a = a.tolist() if hasattr(a, "tolist") else a
    b = b.tolist() if hasattr(b, "tolist") else b
    ok = a == b or (isinstance(a, float) and isinstance(b, float) and (a == b or (a != a and b != b)))
    print(("same    " if ok else "differs ") + what, "" if ok else (a if not isinstance(a, list) else a[:5], b if not isinstance(b, list) else b[:5]))
import random
rnd = random.Random(3)
v = [rnd.random() * 10 - 5 for _ in range(1003)]
m = [[rnd.random() for _ in range(7)] for _ in range(5)]
def run(np):
    out = {}
    a = np.array(v); M = np.array(m)
    out["sum"] = np.sum(a); out["sum32"] = np.sum(a.astype(np.float32))
    out["mean"] = np.mean(a); out["std"] = np.std(a)
    out["lin"] = 1 / np.linspace(1, 10000, 10000)
    out["linsum"] = np.sum(2 / np.linspace(1, 10000, 10000))
    out["dot"] = a.dot(a); out["T.dot"] = a.T.dot(a)
    out["exp"] = np.exp(a); out["log"] = np.log(np.abs(a))
    out["f32add"] = (a.astype(np.float32) * 0.1 + 3).tolist()
    out["f32dt"] = str((a.astype(np.float32) * 0.1).dtype)
    out["mix"] = str((a.astype(np.float32) + a).dtype)
    out["ax0"] = np.sum(M, axis=0); out["ax1"] = np.sum(M, axis=1)
    out["mean0"] = np.mean(M, axis=0); out["std0"] = np.std(M, axis=0)
    out["amax1"] = np.amax(M, axis=1); out["argmax1"] = np.argmax(M, axis=1)
    out["norm"] = (M - np.mean(M, axis=0)) / np.std(M, axis=0)
    out["softmax"] = np.exp(M) / np.sum(np.exp(M), axis=1).reshape(M.shape[0], 1)
    out["matvec"] = M @ np.array(v[:7]); out["matmat"] = M.dot(M.T)
    out["at2d"] = (M - np.atleast_2d(np.amax(M, axis=1)).T)
    c = a.copy(); c[c < 0] = 0; c[c > 1] = 1; out["mask"] = c
    x = np.ones(1003); x += 0.5 * a; x -= a * 0.25; out["inplace"] = x
    z = np.zeros((4, 4)); z[1, 2] = 3.5; out["z"] = z; out["row"] = z[1, :]; out["last"] = z[-1, :]
    out["ceil"] = np.ceil(10000 / 32)
    out["bs"] = 1.0 - 1.0 / math.sqrt(2 * np.pi) * np.exp(-a * a / 2.) * (np.float64(1.0) / (1.0 + 0.2316419 * np.absolute(a)))
    out["max"] = np.maximum(a, 0)
    out["i32"] = np.zeros((3, 2), dtype=np.int32) + 1
    out["sl"] = a[:10]
    out["cmp"] = (a < 0)
    return out
r, f = run(real), run(fake)
for k in r:
    same(f[k], r[k], k)
def bs(np):
    X = np.array(v)
    L = np.absolute(X)
    K = np.float64(1.0) / (1.0 + 0.2316419 * L)
    w = 1.0 - 1.0 / math.sqrt(2 * np.pi) * np.exp(-L * L / 2.) * (0.3 * K + 0.2 * (K ** 2))
    mask = X < 0
    w = w * ~mask + (1.0 - w) * mask
    return w
same(bs(fake), bs(real), "bs-mask")
