# What GrCUDA's HITS (b7), conjugate-gradient (b9) and CNN (b10) benchmarks compute on polygpu, against
# references computed here from the very inputs the kernels got. b7's own validation cannot tell (it never reads
# the GPU's result, so it compares against zeros, and its reference uses the transposed graph where the kernels
# use the graph itself), nor can b10's (its reference stops with a TypeError before comparing); b9's runs in
# float64 where the kernels run in float32, so this one also gives the float32 figure.
#   ./polygpu --grcuda.ExecutionPolicy=async|sync bench/grcuda-suite/check.py BENCHMARK_DIR b7|b9|b10 SIZE
# Runs the benchmark once through its harness class (alloc, init, reset_result, execute), then prints the
# distances. This folder (numpy stand-in) is on the Python path because the launcher puts the script's folder
# there; BENCHMARK_DIR is GrCUDA's projects/resources/python/benchmark.
import array
import os
import sys
import tempfile

bench_dir, which, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, os.path.abspath(bench_dir))
from benchmark_result import BenchmarkResult  # noqa: E402


def f32(x):
    return array.array("f", [x])[0]


def run(cls):
    out = tempfile.mkdtemp()
    result = BenchmarkResult(num_iterations=1, cpu_validation=False, debug=False,
                             output_path=os.path.join(out, "result.json"))
    b = cls(result)
    b.run(num_iter=0, size=size, number_of_gpus=1, block_size={"block_size_1d": 32, "block_size_2d": 8},
          exec_policy=None, dependency_policy=None, new_stream_policy=None, parent_stream_policy=None,
          device_selection=None, mem_advise="none", prefetch=None, stream_attach=False, timing=False,
          realloc=False, reinit=False, time_phases=False, prevent_reinit=False, number_of_blocks=None)
    return b


def spmv(ptr, idx, val, vec, rnd=float):
    out = []
    for r in range(len(ptr) - 1):
        s = 0.0
        for k in range(ptr[r], ptr[r + 1]):
            s = rnd(s + rnd(val[k] * vec[idx[k]]))
        out.append(s)
    return out


def report(name, gpu, ref):
    d = [abs(g - r) for g, r in zip(gpu, ref)]
    worst = max(range(len(d)), key=lambda i: d[i])
    print("%s: L1 %.6g, max %.6g at %d (gpu %.9g, reference %.9g), L1 of the reference %.6g"
          % (name, sum(d), d[worst], worst, gpu[worst], ref[worst], sum(abs(r) for r in ref)))


def check_hits():
    from bench.single_gpu.bench_7 import Benchmark7
    b = run(Benchmark7)
    n = b.size
    gpu = [b.auth1[i] + b.hub1[i] for i in range(n)]
    # reset_result loads the graph itself (ptr_cpu, idx_cpu, val_cpu) into both the CSR and the "CSC" arrays
    ptr, idx, val = b.ptr_cpu, b.idx_cpu, b.val_cpu
    auth, hub = [1.0] * n, [1.0] * n
    for _ in range(b.num_iterations):
        a2, h2 = spmv(ptr, idx, val, hub), spmv(ptr, idx, val, auth)
        sa, sh = sum(a2), sum(h2)
        auth, hub = [v / sa for v in a2], [v / sh for v in h2]
    report("b7 auth1 + hub1 vs float64 HITS on the graph the kernels got", gpu, [a + h for a, h in zip(auth, hub)])
    # Every vertex has 3 out-edges, so on the graph itself HITS stays at the uniform vector 1/n: a weak check. Run
    # the same DAG again with the transposed graph in the second matrix, as the benchmark's reference assumes, so
    # that the two branches differ and the values do not stay uniform.
    b.reset_result()
    for i in range(len(b.ptr2_cpu)):
        b.ptr2[i] = b.ptr2_cpu[i]
    for i in range(len(b.idx2_cpu)):
        b.idx2[i] = b.idx2_cpu[i]
    b.execute()
    gpu = [b.auth1[i] + b.hub1[i] for i in range(n)]
    auth, hub = [1.0] * n, [1.0] * n
    for _ in range(b.num_iterations):
        a2, h2 = spmv(b.ptr2_cpu, b.idx2_cpu, val, hub), spmv(ptr, idx, val, auth)
        sa, sh = sum(a2), sum(h2)
        auth, hub = [v / sa for v in a2], [v / sh for v in h2]
    report("b7 with the transposed graph loaded, vs float64 HITS (the benchmark's own reference)", gpu,
           [a + h for a, h in zip(auth, hub)])


def cg(b, rnd):
    """b9's conjugate gradient (4 iterations from x = 1) with every operation rounded by rnd."""
    n = b.size
    val = [rnd(v) for v in b.val_cpu]
    x = [1.0] * n
    ax = spmv(b.ptr_cpu, b.idx_cpu, val, x, rnd)
    r = [rnd(rnd(bi) - a) for bi, a in zip(b.b_cpu, ax)]
    p = list(r)
    t1 = 0.0
    for v in r:
        t1 = rnd(t1 + rnd(v * v))
    curv = []
    for _ in range(b.num_iterations):
        y = spmv(b.ptr_cpu, b.idx_cpu, val, p, rnd)
        t2 = 0.0
        for u, v in zip(p, y):
            t2 = rnd(t2 + rnd(u * v))
        curv.append((t1, t2))
        alpha = t1 / t2
        old = t1
        x = [rnd(xi + rnd(rnd(alpha) * pi)) for xi, pi in zip(x, p)]
        r = [rnd(ri + rnd(rnd(-alpha) * yi)) for ri, yi in zip(r, y)]
        t1 = 0.0
        for v in r:
            t1 = rnd(t1 + rnd(v * v))
        beta = t1 / old
        p = [rnd(ri + rnd(rnd(beta) * pi)) for ri, pi in zip(r, p)]
    return x, curv


def check_cg():
    from bench.single_gpu.bench_9 import Benchmark9
    b = run(Benchmark9)
    gpu = [b.x[i] for i in range(b.size)]
    x64, curv = cg(b, float)
    x32, _ = cg(b, f32)
    for k, (t1, t2) in enumerate(curv):
        print("iteration %d: r'r %.6g, p'Ap %.6g, alpha %.6g" % (k, t1, t2, t1 / t2))
    report("b9 x vs float64 CG (what the benchmark compares with)", gpu, x64)
    report("b9 x vs float32 CG, sequential sums", gpu, x32)
    report("b9 float32 CG vs float64 CG (no GPU involved)", x32, x64)


def conv2d(x, kern, n, m, depth, k, k_out, stride, out_len):
    """What b10's conv2d kernel computes (its index arithmetic, ReLU), in float64; entries it skips stay 0."""
    out, r = [0.0] * out_len, k // 2
    for i in range(-(-n // stride) - r):
        for j in range(-(-m // stride) - r):
            for o in range(k_out):
                acc = 0.0
                for ki in range(-r, r + 1):
                    for kj in range(-r, r + 1):
                        for c in range(depth):
                            ni, nj = i * stride + r + ki, j * stride + r + kj
                            acc += kern[c + depth * (kj + r + k * (ki + r + k * o))] * x[(ni * m + nj) * depth + c]
                out[o + k_out * (j + m * i // stride)] = max(acc, 0.0)
    return out


def pool(x, n, m, depth, k, stride, out_len):
    """What b10's mean_pooling kernel computes, in float64."""
    out, r = [0.0] * out_len, k // 2
    for i in range(-(-n // stride) - r):
        for j in range(-(-m // stride) - r):
            for c in range(depth):
                acc = 0.0
                for ki in range(-r, r + 1):
                    for kj in range(-r, r + 1):
                        acc += x[((i * stride + r + ki) * m + j * stride + r + kj) * depth + c]
                out[c + depth * (j + m * i // stride)] = acc / (k * k)
    return out


def check_cnn():
    from bench.single_gpu.bench_10 import Benchmark10
    b = run(Benchmark10)
    n, s, p = b.size, b.stride, b.pooling
    dev = lambda a: [a[i] for i in range(len(a))]
    w = dev(b.dense_weights)
    refs = {}
    for image, k1, k2, out, name in ((b.x_cpu, b.kernel_1, b.kernel_2, b.x2, "x2"),
                                     (b.y_cpu, b.kernel_3, b.kernel_4, b.y2, "y2")):
        image = [f32(v) for v in image]
        l1 = conv2d(image, dev(k1), n, n, b.channels, b.K, b.kn1, s, (n // s) * (n // s) * b.kn1)
        l11 = pool(l1, n // s, n // s, b.kn1, p, p, (n // s // p) * (n // s // p) * b.kn1)
        refs[name] = conv2d(l11, dev(k2), n // s // p, n // s // p, b.kn1, b.K, b.kn2, s, len(out))
        report("b10 %s vs float64 layers from the same inputs" % name, dev(out), refs[name])
    z = refs["x2"] + refs["y2"]
    ref = sum(a * c for a, c in zip(z, w))
    print("b10 result: gpu %.9g, reference %.9g, difference %.3g" % (b.res[0], ref, abs(b.res[0] - ref)))


{"b7": check_hits, "b9": check_cg, "b10": check_cnn}[which]()
