# What GrCUDA's HITS (b7), conjugate-gradient (b9, and b9m, its dense multi-GPU form) and CNN (b10) benchmarks
# compute on polygpu, against references computed here from the very inputs the kernels got. b7's own validation
# cannot tell (it never reads the GPU's result, so it compares against zeros, and its reference uses the
# transposed graph where the kernels use the graph itself), nor can b10's (its reference stops with a TypeError
# before comparing) or b9m's (it compares its solution vector with a scalar, a TypeError, and its reference starts
# from another x and b than its kernels); b9's runs in float64 where the kernels run in float32, so this one also
# gives the float32 figure.
#   ./polygpu --grcuda.ExecutionPolicy=async|sync bench/grcuda-suite/check.py BENCHMARK_DIR b6|b6m|b7|b9|b9m|b10 SIZE
# Runs the benchmark once through its harness class (alloc, init, reset_result, execute), then prints the
# distances. This folder (numpy stand-in) is on the Python path because the launcher puts the script's folder
# there; BENCHMARK_DIR is GrCUDA's projects/resources/python/benchmark.
import array
import math
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


def dense_cg(rows, b, x0, iterations, rnd=float):
    """b9m's conjugate gradient: r = b - A x, then `iterations` steps; returns x and the p'Ap seen. rnd rounds
    every vector element, sum and scalar (f32: float32 storage as the kernels have it; each matrix-vector and
    dot-product sum is still taken in float64, then rounded)."""
    mv = lambda v: [rnd(sum(a * u for a, u in zip(row, v))) for row in rows]
    dot = lambda u, v: rnd(sum(a * c for a, c in zip(u, v)))
    x = list(x0)
    r = [rnd(bi - a) for bi, a in zip(b, mv(x))]
    p = list(r)
    t1 = dot(r, r)
    curv = []
    for _ in range(iterations):
        y = mv(p)
        t2 = dot(p, y)
        curv.append(t2)
        alpha, old = rnd(t1 / t2), t1
        x = [rnd(xi + rnd(alpha * pi)) for xi, pi in zip(x, p)]
        r = [rnd(ri - rnd(alpha * yi)) for ri, yi in zip(r, y)]
        t1 = dot(r, r)
        beta = rnd(t1 / old)
        p = [rnd(ri + rnd(beta * pi)) for ri, pi in zip(r, p)]
    return x, curv


def step_by_step(b, rows, x0, iterations, gpu_x):
    """Runs b9m's CG again with its own kernels, launched here one step at a time, and checks each kernel's
    output against float64 from the very values it got (read back from the device): the error of a sum relative
    to the sum of its terms' magnitudes, the scale of its float32 rounding, whatever the conditioning."""
    n, s, parts = b.size, b.S, len(b.A)
    dev = lambda a: [a[i] for i in range(n)]
    worst = {}

    def seen(kernel, gpu, ref, scale):
        for g, r, m in zip(gpu, ref, scale):
            worst[kernel] = max(worst.get(kernel, 0.0), abs(g - r) / m if m else abs(g - r))

    def matvec(w, alpha, vec, out):   # out = w + alpha A vec (axpy form) or A vec (w None), by partitions
        for i in range(parts):
            if w is None:
                b.mmul_kernel(b.num_blocks, b.block_size)(b.A[i], vec, out, s, n, i * s)
            else:
                b.mmul_axpy_kernel(b.num_blocks, b.block_size)(b.A[i], vec, w, alpha, out, s, n, i * s)

    def check_matvec(name, w, alpha, vec, out):
        v, o = dev(vec), dev(out)
        wv = dev(w) if w is not None else [0.0] * n
        seen(name, o, [wv[i] + alpha * sum(a * u for a, u in zip(rows[i], v)) for i in range(n)],
             [abs(wv[i]) + abs(alpha) * sum(abs(a * u) for a, u in zip(rows[i], v)) for i in range(n)])

    def norm(kernel, u, v, out):
        out[0] = 0.0
        if v is None:
            b.l2_norm_kernel(b.num_blocks, b.block_size)(u, out, n)
        else:
            b.dp_kernel(b.num_blocks, b.block_size)(u, v, out, n)
        uu, vv = dev(u), dev(v if v is not None else u)
        seen(kernel, [out[0]], [sum(a * c for a, c in zip(uu, vv))], [sum(abs(a * c) for a, c in zip(uu, vv))])
        return out[0]

    def saxpy(y, val, x, alpha):
        old_val, old_x = dev(val), dev(x)
        b.saxpy_kernel(b.num_blocks, b.block_size)(y, val, x, alpha, n)
        seen("saxpy", dev(y), [a + f32(alpha) * c for a, c in zip(old_val, old_x)],
             [abs(a) + abs(f32(alpha) * c) for a, c in zip(old_val, old_x)])

    for i in range(n):
        b.x[i] = x0[i]
    matvec(b.b, -1, b.x, b.r)
    check_matvec("matrix_vector_mult_axpy", b.b, -1, b.x, b.r)
    b.cpy_kernel(b.num_blocks, b.block_size)(b.p, b.r, n)
    t1 = norm("l2_norm", b.r, None, b.t1)
    for _ in range(iterations):
        matvec(None, 0, b.p, b.y)
        check_matvec("matrix_vector_mult", None, 1, b.p, b.y)
        alpha = t1 / norm("dot", b.p, b.y, b.t2)
        saxpy(b.x, b.x, b.p, alpha)
        saxpy(b.r, b.r, b.y, -alpha)
        old, t1 = t1, norm("l2_norm", b.r, None, b.t1)
        saxpy(b.p, b.r, b.p, t1 / old)
    print("b9m step by step, each kernel against float64 from its own inputs, worst |gpu - reference| / sum of"
          " |terms|: " + ", ".join("%s %.3g" % kv for kv in sorted(worst.items())))
    report("b9m x run step by step vs x of the benchmark's run (same kernels, same inputs)", dev(b.x), gpu_x)


def check_cg_dense():
    from bench.multi_gpu import bench_9
    b = run(bench_9.Benchmark9M)
    n, s = b.size, b.S
    # the matrix as the kernels used it (after `precondition`), row i in partition i // S; b (never written) and
    # x's start (1/size, as reset_result sets it) as the kernels got them
    rows = [[b.A[i // s][(i % s) * n + j] for j in range(n)] for i in range(n)]
    rhs = [b.b[i] for i in range(n)]
    x0 = [f32(1.0 / n)] * n
    gpu_x = [b.x[i] for i in range(n)]
    gpu_y = [b.y[i] for i in range(n)]
    print("b9m: size %d, %d iterations, b is %s" % (n, bench_9.ITER, "all zero" if not any(rhs) else "not zero"))
    report("b9m y (the last kernels: b - A x) vs float64 b - A x from the GPU's own x", gpu_y,
           [bi - sum(a * u for a, u in zip(row, gpu_x)) for bi, row in zip(rhs, rows)])
    x64, curv = dense_cg(rows, rhs, x0, bench_9.ITER)
    print("p'Ap over the iterations: min |p'Ap| %.6g, negative in %d of %d"
          % (min(abs(c) for c in curv), sum(1 for c in curv if c < 0), len(curv)))
    report("b9m x vs float64 CG from the same inputs", gpu_x, x64)
    # How far float32-sized changes to the inputs alone move float64 CG: each entry of A scaled by
    # 1 + u (|u| <= 2^-24, a fixed seed), the matrix kept symmetric
    import random
    rnd = random.Random(24)
    noise = {}
    for i in range(n):
        for j in range(i, n):
            noise[i, j] = 1 + rnd.uniform(-1, 1) * 2.0 ** -24
    perturbed = [[rows[i][j] * noise[min(i, j), max(i, j)] for j in range(n)] for i in range(n)]
    xp, _ = dense_cg(perturbed, rhs, x0, bench_9.ITER)
    report("b9m float64 CG on A perturbed by 2^-24 (seed 24) vs float64 CG (no GPU involved)", xp, x64)
    step_by_step(b, rows, x0, bench_9.ITER, gpu_x)
    x32, _ = dense_cg(rows, rhs, x0, bench_9.ITER, f32)
    report("b9m x vs CG with float32 vectors and scalars (float64 sums)", gpu_x, x32)
    report("b9m CG with float32 vectors and scalars vs float64 CG (no GPU involved)", x32, x64)
    report("b9m y vs float64 b - A x from the float64 CG's x", gpu_y,
           [bi - sum(a * u for a, u in zip(row, x64)) for bi, row in zip(rhs, rows)])


def softmax(v):
    e = [math.exp(a) for a in v]
    t = sum(e)
    return [a / t for a in e]


def first_max(v):
    return max(range(len(v)), key=lambda c: v[c])


def mean_std(total, squares, count):
    m = total / count
    return m, math.sqrt(squares / count - m * m)


def check_ensemble(multi):
    """b6 (b6m if multi): the GPU's predictions against float64 pipelines from the same inputs. b6m's rows are
    checked one in ten (its 1,024 features and 16 classes make a full float64 pipeline take too long here)."""
    if multi:
        from bench.multi_gpu.bench_6 import Benchmark6M as cls
    else:
        from bench.single_gpu.bench_6 import Benchmark6 as cls
    b = run(cls)
    n, f, k = b.size, b.num_features, b.num_classes
    dev = lambda a: [a[i] for i in range(len(a))]
    parts = [dev(p) for p in b.x] if multi else [dev(b.x)]
    s = len(parts[0]) // f   # rows per partition (all of them for b6)
    row = lambda i: parts[i // s][(i % s) * f:(i % s + 1) * f]
    # rr_1 reads each partition as f blocks of s values (x[j * s + i]) and takes block j (summed over the
    # partitions) as feature j; the benchmark's reference normalizes the columns of the row-major matrix
    block_sums = [[0.0, 0.0] for _ in range(f)]
    column_sums = [[0.0, 0.0] for _ in range(f)]
    for p in parts:
        for at, v in enumerate(p):
            for sums, key in ((block_sums, at // s), (column_sums, at % f)):
                sums[key][0] += v
                sums[key][1] += v * v
    block = [mean_std(t, q, n) for t, q in block_sums]
    column = [mean_std(t, q, n) for t, q in column_sums]
    if multi:   # rr_1_2 normalizes x[i][q] with block q's statistics
        z_kernels = lambda i, r: [(r[q] - block[q][0]) / block[q][1] for q in range(f)]
    else:       # rr_1 writes z[j * size + i] with block j's statistics, and rr_2 reads z by rows
        z_kernels = lambda i, r: [(r[q] - block[(i * f + q) // n][0]) / block[(i * f + q) // n][1] for q in range(f)]
    z_columns = lambda i, r: [(r[q] - column[q][0]) / column[q][1] for q in range(f)]
    flp, coef = dev(b.nb_feat_log_prob), dev(b.ridge_coeff)
    prior, icpt = dev(b.nb_class_log_prior), dev(b.ridge_intercept)
    # init copied these four from the numpy arrays' ctypes.data (host addresses)
    flat_list = lambda a: [v for r in a.tolist() for v in (r if isinstance(r, list) else [r])]
    same = all(d == flat_list(h) for d, h in ((flp, b.nb_feat_log_prob_cpu), (coef, b.ridge_coeff_cpu),
                                              (prior, b.nb_class_log_prior_cpu), (icpt, b.ridge_intercept_cpu)))
    print("%s: the parameters copied from ctypes.data equal the numpy arrays: %s" % (b.name, same))
    flp = [flp[c * f:(c + 1) * f] for c in range(k)]
    coef = [coef[c * f:(c + 1) * f] for c in range(k)]
    checked = list(range(0, n, 10 if multi else 1))
    jll, r2_kernels, r2_columns = [], [], []
    for i in checked:
        r = row(i)
        jll.append([prior[c] + sum(a * w for a, w in zip(r, flp[c])) for c in range(k)])
        for out, z in ((r2_kernels, z_kernels(i, r)), (r2_columns, z_columns(i, r))):
            out.append([sum(a * w for a, w in zip(z, coef[c])) + icpt[c] for c in range(k)])
    # nb_3 takes the log-sum-exp of each row; the benchmark's reference (np.log(np.sum(np.exp(X))), no axis)
    # that of the whole matrix, which only b6's full check has
    row_nb = [[math.exp(v - (max(j) + math.log(sum(math.exp(u - max(j)) for u in j)))) for v in j] for j in jll]
    variants = [("the kernels' pipeline", row_nb, r2_kernels),
                ("column statistics, per-row log-sum-exp", row_nb, r2_columns)]
    if not multi:
        total = math.log(sum(math.exp(u - max(j)) for j in jll for u in j))
        whole_nb = [[math.exp(v - max(j) - total) for v in j] for j in jll]
        variants += [("the kernels' statistics, whole-matrix log-sum-exp", whole_nb, r2_kernels),
                     ("column statistics, whole-matrix log-sum-exp (the benchmark's reference)", whole_nb,
                      r2_columns)]
    gpu_r, gpu_r1, gpu_r2 = dev(b.r), dev(b.r1), dev(b.r2)
    pick = lambda a: [a[i * k + c] for i in checked for c in range(k)]
    report("%s r1 (after softmax, %d rows) vs float64 from the same inputs" % (b.name, len(checked)), pick(gpu_r1),
           [v for u in row_nb for v in softmax(u)])
    report("%s r2 (after softmax, %d rows) vs float64 from the same inputs" % (b.name, len(checked)), pick(gpu_r2),
           [v for u in r2_kernels for v in softmax(u)])
    for label, nb, r2 in variants:
        scores = [[a + c for a, c in zip(softmax(u), softmax(v))] for u, v in zip(nb, r2)]
        wrong = [(at, first_max(scores[at])) for at, i in enumerate(checked) if first_max(scores[at]) != gpu_r[i]]
        margin = min((sorted(scores[at])[-1] - sorted(scores[at])[-2] for at, _ in wrong), default=float("nan"))
        print("%s predictions vs float64 with %s: %d of %d differ (sum of |class difference| %d; smallest margin"
              " between the reference's two best scores among them %.3g)"
              % (b.name, label, len(wrong), len(checked), sum(abs(c - gpu_r[checked[at]]) for at, c in wrong),
                 margin))


{"b7": check_hits, "b9": check_cg, "b10": check_cnn, "b9m": check_cg_dense,
 "b6": lambda: check_ensemble(False), "b6m": lambda: check_ensemble(True)}[which]()
