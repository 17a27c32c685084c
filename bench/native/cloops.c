/*
 * bench/run's C column: each case as an idiomatic C loop with OpenMP, the same computation as the plain-Java
 * side (CpuDeviceBench's cases), on OMP_NUM_THREADS threads. Built by the bench with
 * gcc -O3 -march=native -fopenmp -ffp-contract=off (no fused multiply-add, so that the arithmetic is Java's
 * and SAXPY can be compared bit for bit).
 *
 * Usage: cloops CASE DATAFILE, then commands on stdin (pgbench.h). CASE is saxpy, reduce_gs, reduce,
 * blackscholes or sgemm; the data file holds the case's inputs as CpuDeviceBench writes them.
 */
#include <math.h>
#include <omp.h>
#include "pgbench.h"

/* SGEMM's k blocking, as the Java side's: a 128-row panel of B stays in cache across a thread's rows. */
#define K_BLOCK 128

static pg_data in;
static int n;
static float *y;
static double sum;
static double *call_out;
static double *put_out;
static float *c_out;

static void *alloc(size_t bytes)
{
    void *p = aligned_alloc(64, bytes + 64);
    if (p == NULL) {
        pg_die("cloops", "out of memory");
    }
    return p;
}

static void write_floats(const char *path, float *v, int64_t len)
{
    int32_t elem = 4;
    void *data = v;
    pg_write(path, 1, &elem, &len, &data);
}

/* ---- saxpy: y = a * x + y; ints {n}, doubles {a}, arrays {x, y0}; output {y} */

static void saxpy_reset(void)
{
    memcpy(y, in.data[1], (size_t) n * 4);
}

static void saxpy_run(void)
{
    const float a = (float) in.doubles[0];
    const float *x = in.data[0];
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        y[i] = a * x[i] + y[i];
    }
}

static void saxpy_write(const char *path)
{
    write_floats(path, y, n);
}

/* ---- reduce_gs and reduce: the sum of n floats in a double; ints {n}, arrays {x}; output {sum} */

static void reduce_reset(void)
{
    sum = NAN;
}

static void reduce_run(void)
{
    const float *x = in.data[0];
    double s = 0;
#pragma omp parallel for schedule(static) reduction(+:s)
    for (int i = 0; i < n; i++) {
        s += x[i];
    }
    sum = s;
}

static void reduce_write(const char *path)
{
    pg_write_double(path, sum);
}

/* ---- blackscholes: ints {n}, doubles {r, v}, arrays {price, strike, years}; output {call, put} */

#define A1 0.31938153
#define A2 -0.356563782
#define A3 1.781477937
#define A4 -1.821255978
#define A5 1.330274429
#define RSQRT2PI 0.39894228040143267793994605993438

static double cnd(double d)
{
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = RSQRT2PI * exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0 ? 1.0 - c : c;
}

static void bs_reset(void)
{
    memset(call_out, 0, (size_t) n * 8);
    memset(put_out, 0, (size_t) n * 8);
}

static void bs_run(void)
{
    const double r = in.doubles[0];
    const double v = in.doubles[1];
    const double *price = in.data[0];
    const double *strike = in.data[1];
    const double *years = in.data[2];
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        double s = price[i];
        double x = strike[i];
        double t = years[i];
        double sqrtT = sqrt(t);
        double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrtT);
        double d2 = d1 - v * sqrtT;
        double cndD1 = cnd(d1);
        double cndD2 = cnd(d2);
        double expRT = exp(-r * t);
        call_out[i] = s * cndD1 - x * expRT * cndD2;
        put_out[i] = x * expRT * (1.0 - cndD2) - s * (1.0 - cndD1);
    }
}

static void bs_write(const char *path)
{
    int32_t elem[2] = {8, 8};
    int64_t len[2] = {n, n};
    void *data[2] = {call_out, put_out};
    pg_write(path, 2, elem, len, data);
}

/* ---- sgemm: C = A * B, n x n row-major; ints {n, tile}, arrays {a, b}; output {c} */

static void sgemm_reset(void)
{
    memset(c_out, 0, (size_t) n * n * 4);
}

static void sgemm_run(void)
{
    const float *a = in.data[0];
    const float *b = in.data[1];
    float *c = c_out;
    /* One contiguous band of rows per thread, blocked over k (i-k-j: the j loop vectorizes). */
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        int nt = omp_get_num_threads();
        int from = (int) ((long) n * t / nt);
        int to = (int) ((long) n * (t + 1) / nt);
        memset(c + (size_t) from * n, 0, (size_t) (to - from) * n * 4);
        for (int kk = 0; kk < n; kk += K_BLOCK) {
            int kEnd = kk + K_BLOCK < n ? kk + K_BLOCK : n;
            for (int i = from; i < to; i++) {
                float *ci = c + (size_t) i * n;
                for (int k = kk; k < kEnd; k++) {
                    float aik = a[(size_t) i * n + k];
                    const float *bk = b + (size_t) k * n;
                    for (int j = 0; j < n; j++) {
                        ci[j] += aik * bk[j];
                    }
                }
            }
        }
    }
}

static void sgemm_write(const char *path)
{
    write_floats(path, c_out, (int64_t) n * n);
}

int main(int argc, char **argv)
{
    static const pg_case saxpy = {saxpy_reset, saxpy_run, saxpy_write};
    static const pg_case reduce = {reduce_reset, reduce_run, reduce_write};
    static const pg_case bs = {bs_reset, bs_run, bs_write};
    static const pg_case sgemm = {sgemm_reset, sgemm_run, sgemm_write};
    const pg_case *c;
    if (argc != 3) {
        pg_die("usage", "cloops CASE DATAFILE");
    }
    pg_read(argv[2], &in);
    pg_expect(&in, 1, 0, 1, argv[1]);
    n = in.ints[0];
    if (strcmp(argv[1], "saxpy") == 0 || strcmp(argv[1], "saxpy_gs") == 0) {
        pg_expect(&in, 1, 1, 2, argv[1]);
        y = alloc((size_t) n * 4);
        c = &saxpy;
    } else if (strcmp(argv[1], "reduce_gs") == 0 || strcmp(argv[1], "reduce") == 0) {
        c = &reduce;
    } else if (strcmp(argv[1], "blackscholes") == 0) {
        pg_expect(&in, 1, 2, 3, argv[1]);
        call_out = alloc((size_t) n * 8);
        put_out = alloc((size_t) n * 8);
        c = &bs;
    } else if (strcmp(argv[1], "sgemm") == 0) {
        pg_expect(&in, 1, 0, 2, argv[1]);
        c_out = alloc((size_t) n * n * 4);
        c = &sgemm;
    } else {
        pg_die("unknown case", argv[1]);
    }
    return pg_serve(c, omp_get_max_threads());
}
