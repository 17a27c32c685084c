/*
 * bench/run's pocl column: the host program that runs the bench's kernels, written in OpenCL C (the .cl files in opencl/,
 * line for line the CUDA C ones), on pocl's CPU device with the same work-group sizes and grids as the CUDA
 * launches. The number of pocl's threads comes from the environment (POCL_MAX_PTHREAD_COUNT, and its newer
 * name POCL_CPU_MAX_CU_COUNT); "ready" reports the device's compute units, which follow it.
 *
 * Usage: oclhost CASE DATAFILE KERNELFILE [BUILD-OPTIONS], then commands on stdin (pgbench.h). CASE is saxpy,
 * reduce_gs, reduce, blackscholes or sgemm. The timed part of an iteration is the launch to clFinish, plus, for
 * the reductions, reading the block partials back and adding them up (as the CPU device's side does).
 * "oclhost probe" only looks for the pocl device and prints "ready <compute units>".
 * Exit status 3: no pocl platform (the ICD loader found none, or only other implementations).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ctype.h>
#include <math.h>
#include "pgbench.h"

#define BLOCK 256
#define GS_BLOCKS 1024

static pg_data in;
static int n;
static cl_context ctx;
static cl_command_queue queue;
static cl_kernel kernel;
static cl_mem out_mem[2];
static size_t global[2];
static size_t local[2];
static cl_uint dims = 1;
static float *host_f;      /* saxpy's y, sgemm's C, the reductions' partials */
static double *host_d[2];  /* blackscholes' call and put */
static int blocks;
static double sum;

static void check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "oclhost: %s failed with OpenCL error %d\n", what, (int) err);
        exit(1);
    }
}

static int contains_pocl(const char *name)
{
    char lower[256];
    size_t i;
    for (i = 0; name[i] != '\0' && i + 1 < sizeof lower; i++) {
        lower[i] = (char) tolower((unsigned char) name[i]);
    }
    lower[i] = '\0';
    return strstr(lower, "pocl") != NULL || strstr(lower, "portable computing language") != NULL;
}

/* The first CPU device of the pocl platform; exit 3 if there is none. */
static cl_device_id pocl_device(void)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    char name[256];
    char seen[1024] = "";
    if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS || count == 0) {
        fprintf(stderr, "no OpenCL platform (is an ICD installed in /etc/OpenCL/vendors?)\n");
        exit(3);
    }
    for (cl_uint p = 0; p < count && p < 16; p++) {
        cl_device_id dev;
        check(clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL), "clGetPlatformInfo");
        if (contains_pocl(name) && clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 1, &dev, NULL) == CL_SUCCESS) {
            return dev;
        }
        strncat(seen, seen[0] ? ", " : "", sizeof seen - strlen(seen) - 1);
        strncat(seen, name, sizeof seen - strlen(seen) - 1);
    }
    fprintf(stderr, "no pocl CPU device among the OpenCL platforms (%s)\n", seen);
    exit(3);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    long size;
    char *text;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        pg_die(path, "cannot read kernel file");
    }
    text = malloc((size_t) size + 1);
    if (text == NULL || fread(text, 1, (size_t) size, f) != (size_t) size) {
        pg_die(path, "cannot read kernel file");
    }
    text[size] = '\0';
    fclose(f);
    return text;
}

static cl_kernel build(cl_device_id dev, const char *path, const char *name, const char *options)
{
    const char *src = read_text(path);
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    check(err, "clCreateProgramWithSource");
    if (clBuildProgram(prog, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
        static char log[16384];
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "oclhost: %s does not build:\n%s\n", path, log);
        exit(1);
    }
    cl_kernel k = clCreateKernel(prog, name, &err);
    check(err, "clCreateKernel");
    return k;
}

static cl_mem input(int a)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              (size_t) in.elem[a] * (size_t) in.len[a], in.data[a], &err);
    check(err, "clCreateBuffer");
    return m;
}

static cl_mem output(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    return m;
}

static void arg_mem(cl_uint i, cl_mem m)
{
    check(clSetKernelArg(kernel, i, sizeof m, &m), "clSetKernelArg");
}

static void arg_int(cl_uint i, int v)
{
    check(clSetKernelArg(kernel, i, sizeof v, &v), "clSetKernelArg");
}

static void launch(void)
{
    check(clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global, local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    check(clFinish(queue), "clFinish");
}

static void read_back(cl_mem m, void *dst, size_t bytes)
{
    check(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL), "clEnqueueReadBuffer");
}

static void zero(cl_mem m, size_t bytes)
{
    const cl_uchar z = 0;
    check(clEnqueueFillBuffer(queue, m, &z, 1, 0, bytes, 0, NULL, NULL), "clEnqueueFillBuffer");
    check(clFinish(queue), "clFinish");
}

static size_t round_up(size_t a, size_t b)
{
    return (a + b - 1) / b * b;
}

/* ---- saxpy: ints {n}, doubles {a}, arrays {x, y0}; output {y} */

static void saxpy_reset(void)
{
    check(clEnqueueWriteBuffer(queue, out_mem[0], CL_TRUE, 0, (size_t) n * 4, in.data[1], 0, NULL, NULL),
          "clEnqueueWriteBuffer");
}

static void saxpy_write(const char *path)
{
    int32_t elem = 4;
    int64_t len = n;
    void *data = host_f;
    read_back(out_mem[0], host_f, (size_t) n * 4);
    pg_write(path, 1, &elem, &len, &data);
}

static void setup_saxpy(void)
{
    float a = (float) in.doubles[0];
    pg_expect(&in, 1, 1, 2, "saxpy");
    out_mem[0] = output((size_t) n * 4);
    host_f = malloc((size_t) n * 4);
    arg_mem(0, out_mem[0]);
    arg_mem(1, input(0));
    check(clSetKernelArg(kernel, 2, sizeof a, &a), "clSetKernelArg");
    arg_int(3, n);
    global[0] = round_up((size_t) n, BLOCK);
    local[0] = BLOCK;
}

/* ---- reduce_gs and reduce: ints {n, blocks}, arrays {x}; output {sum}; the host adds the block partials */

static void reduce_reset(void)
{
    sum = NAN;
}

static void reduce_run(void)
{
    double s = 0;
    launch();
    read_back(out_mem[0], host_f, (size_t) blocks * 4);
    for (int b = 0; b < blocks; b++) {
        s += host_f[b];
    }
    sum = s;
}

static void reduce_write(const char *path)
{
    pg_write_double(path, sum);
}

static void setup_reduce(void)
{
    pg_expect(&in, 2, 0, 1, "reduce");
    blocks = in.ints[1];
    out_mem[0] = output((size_t) blocks * 4);
    host_f = malloc((size_t) blocks * 4);
    arg_mem(0, input(0));
    arg_mem(1, out_mem[0]);
    arg_int(2, n);
    check(clSetKernelArg(kernel, 3, BLOCK * sizeof(float), NULL), "clSetKernelArg");
    global[0] = (size_t) blocks * BLOCK;
    local[0] = BLOCK;
}

/* ---- blackscholes: ints {n}, doubles {r, v}, arrays {price, strike, years}; output {call, put} */

static void bs_reset(void)
{
    zero(out_mem[0], (size_t) n * 8);
    zero(out_mem[1], (size_t) n * 8);
}

static void bs_write(const char *path)
{
    int32_t elem[2] = {8, 8};
    int64_t len[2] = {n, n};
    void *data[2] = {host_d[0], host_d[1]};
    read_back(out_mem[0], host_d[0], (size_t) n * 8);
    read_back(out_mem[1], host_d[1], (size_t) n * 8);
    pg_write(path, 2, elem, len, data);
}

static void setup_bs(void)
{
    pg_expect(&in, 1, 2, 3, "blackscholes");
    for (int o = 0; o < 2; o++) {
        out_mem[o] = output((size_t) n * 8);
        host_d[o] = malloc((size_t) n * 8);
        arg_mem((cl_uint) o, out_mem[o]);
    }
    for (int a = 0; a < 3; a++) {
        arg_mem((cl_uint) (2 + a), input(a));
    }
    check(clSetKernelArg(kernel, 5, sizeof(double), &in.doubles[0]), "clSetKernelArg");
    check(clSetKernelArg(kernel, 6, sizeof(double), &in.doubles[1]), "clSetKernelArg");
    arg_int(7, n);
    global[0] = round_up((size_t) n, BLOCK);
    local[0] = BLOCK;
}

/* ---- sgemm: ints {n, tile}, arrays {a, b}; output {c} */

static void sgemm_reset(void)
{
    zero(out_mem[0], (size_t) n * n * 4);
}

static void sgemm_write(const char *path)
{
    int32_t elem = 4;
    int64_t len = (int64_t) n * n;
    void *data = host_f;
    read_back(out_mem[0], host_f, (size_t) n * n * 4);
    pg_write(path, 1, &elem, &len, &data);
}

static void setup_sgemm(void)
{
    size_t tile = (size_t) in.ints[1];
    pg_expect(&in, 2, 0, 2, "sgemm");
    out_mem[0] = output((size_t) n * n * 4);
    host_f = malloc((size_t) n * n * 4);
    arg_mem(0, input(0));
    arg_mem(1, input(1));
    arg_mem(2, out_mem[0]);
    arg_int(3, n);
    dims = 2;
    global[0] = global[1] = round_up((size_t) n, tile);
    local[0] = local[1] = tile;
}

int main(int argc, char **argv)
{
    static const pg_case saxpy = {saxpy_reset, launch, saxpy_write};
    static const pg_case reduce = {reduce_reset, reduce_run, reduce_write};
    static const pg_case bs = {bs_reset, launch, bs_write};
    static const pg_case sgemm = {sgemm_reset, launch, sgemm_write};
    const char *name = argc > 1 ? argv[1] : "";
    const char *kernel_name = strcmp(name, "blackscholes") == 0 ? "blackScholes" : name;
    const pg_case *c;
    cl_int err;
    cl_uint units;
    if (argc == 2 && strcmp(name, "probe") == 0) {
        check(clGetDeviceInfo(pocl_device(), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL),
              "clGetDeviceInfo");
        printf("ready %u\n", units);
        return 0;
    }
    if (argc < 4 || argc > 5) {
        pg_die("usage", "oclhost CASE DATAFILE KERNELFILE [BUILD-OPTIONS]");
    }
    pg_read(argv[2], &in);
    pg_expect(&in, 1, 0, 1, name);
    n = in.ints[0];
    cl_device_id dev = pocl_device();
    check(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL), "clGetDeviceInfo");
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    check(err, "clCreateContext");
    queue = clCreateCommandQueue(ctx, dev, 0, &err);
    check(err, "clCreateCommandQueue");
    kernel = build(dev, argv[3], kernel_name, argc == 5 ? argv[4] : "");
    if (strcmp(name, "saxpy") == 0 || strcmp(name, "saxpy_gs") == 0) {
        setup_saxpy();
        if (strcmp(name, "saxpy_gs") == 0 && global[0] > GS_BLOCKS * BLOCK) {
            global[0] = GS_BLOCKS * BLOCK; /* the grid-stride form's capped grid, as the CUDA side launches it */
        }
        c = &saxpy;
    } else if (strcmp(name, "reduce_gs") == 0 || strcmp(name, "reduce") == 0) {
        setup_reduce();
        c = &reduce;
    } else if (strcmp(name, "blackscholes") == 0) {
        setup_bs();
        c = &bs;
    } else if (strcmp(name, "sgemm") == 0) {
        setup_sgemm();
        c = &sgemm;
    } else {
        pg_die("unknown case", name);
    }
    return pg_serve(c, (int) units);
}
