package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.graalvm.polyglot.PolyglotException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * GrCUDA's API as Python and JavaScript scripts use it: table-driven cases of {name, language, script,
 * expected output} and {name, language, script, expected guest error type, message fragment}.
 */
class ApiTest {
    private static final String PY = "import polyglot\ncu = polyglot.eval(language=\"grcuda\", string=\"CU\")\n";
    private static final String JS = "const cu = Polyglot.eval(\"grcuda\", \"CU\");\n";
    private static final String SQUARE = """
            __global__ void square(float *x, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    x[i] = x[i] * x[i];
                }
            }""";
    private static final String PY_SQUARE = PY + "SRC = '''" + SQUARE + "'''\n"
            + "x = cu.DeviceArray('float', 100)\nfor i in range(100): x[i] = i\n";
    private static final String JS_SQUARE = JS + "const SRC = `" + SQUARE + "`;\n"
            + "const x = cu.DeviceArray('float', 100);\nfor (let i = 0; i < 100; i++) x[i] = i;\n";
    private static final String NIDL = "square(x: inout pointer float, n: sint32)";
    /** Writes y = 3x and then x = 7: a write through x, which a signature may wrongly declare 'in'. */
    private static final String SCALE = """
            __global__ void scale(float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) { y[i] = 3 * x[i]; x[i] = 7; }
            }""";
    private static final String PY_SCALE = PY + "SRC = '''" + SCALE + "'''\n"
            + "x = cu.DeviceArray('float', 100)\ny = cu.DeviceArray('float', 100)\nfor i in range(100): x[i] = i\n";
    private static final String JS_SCALE = JS + "const SRC = `" + SCALE + "`;\n"
            + "const x = cu.DeviceArray('float', 100);\nconst y = cu.DeviceArray('float', 100);\n"
            + "for (let i = 0; i < 100; i++) x[i] = i;\n";

    private record Ok(String name, String language, String script, String expected) {
    }

    private record Fails(String name, String language, String script, String type, String fragment) {
    }

    private static final Ok[] OK = {
        new Ok("a kernel that writes a parameter declared 'inout'", "python", PY_SCALE + """
                k = cu.buildkernel(SRC, "scale(x: inout pointer float, y: out pointer float, n: sint32)")
                k(4, 32)(x, y, 100)
                print(y[9], x[9])""", "27.0 7.0"),
        new Ok("a kernel that writes a parameter declared 'inout'", "js", JS_SCALE
                + "const k = cu.buildkernel(SRC, 'scale(x: inout pointer float, y: out pointer float, n: sint32)');\n"
                + "k(4, 32)(x, y, 100);\nconsole.log(y[9], x[9]);", "27 7"),
        // buildkernel finds the write through x in the source and schedules x as 'inout' (with a warning)
        new Ok("a kernel that writes a parameter its signature declares 'in'", "python", PY_SCALE + """
                k = cu.buildkernel(SRC, "scale(x: in pointer float, y: out pointer float, n: sint32)")
                k(4, 32)(x, y, 100)
                print(y[9], x[9], str(k))""",
                "27.0 7.0 kernel scale(x: inout pointer float, y: out pointer float, n: sint32)"),
        new Ok("a kernel that writes a parameter its signature declares 'in'", "js", JS_SCALE + """
                const k = cu.buildkernel(SRC, "scale(x: in pointer float, y: out pointer float, n: sint32)");
                k(4, 32)(x, y, 100);
                console.log(y[9], x[9]);""", "27 7"),
        new Ok("create, write, read, len", "python", PY + """
                a = cu.DeviceArray("float", 10)
                for i in range(10): a[i] = i * 1.5
                print(len(a), a[3], a[9])""", "10 4.5 13.5"),
        new Ok("iteration", "python", PY + """
                a = cu.DeviceArray("int", 4)
                for i in range(4): a[i] = i + 1
                print([v for v in a], sum(a))""", "[1, 2, 3, 4] 10"),
        new Ok("every element type", "python", PY + """
                print([len(cu.DeviceArray(t, 3)) for t in ("char", "short", "int", "long", "float", "double", "boolean")])""",
                "[3, 3, 3, 3, 3, 3, 3]"),
        new Ok("array expression", "python", """
                import polyglot
                a = polyglot.eval(language="grcuda", string="double[2*3]")
                m = polyglot.eval(language="grcuda", string="int[4][5]")
                print(len(a), len(m), len(m[0]))""", "6 4 5"),
        new Ok("curried constructor", "python", PY + """
                make = cu.DeviceArray("double")
                print(len(make(7)))""", "7"),
        new Ok("multi-dimensional, row- and column-major", "python", PY + """
                for order in ("C", "F"):
                    m = cu.DeviceArray("int", 3, 4, order)
                    for i in range(3):
                        for j in range(4): m[i][j] = 10 * i + j
                    print(len(m), len(m[0]), m[2][3], m[1][0])""", "3 4 23 10\n3 4 23 10"),
        new Ok("copyFrom and copyTo", "python", PY + """
                a = cu.DeviceArray("float", 5)
                b = cu.DeviceArray("float", 5)
                for i in range(5): a[i] = i + 0.5
                b.copyFrom(a)
                c = cu.DeviceArray("float", 5)
                b.copyTo(c)
                print(b[4], c[2])""", "4.5 2.5"),
        new Ok("free", "python", PY + """
                a = cu.DeviceArray("float", 5)
                print(a.isMemoryFreed)
                a.free()
                print(a.isMemoryFreed)""", "False\nTrue"),
        new Ok("buildkernel, NIDL signature", "python", PY_SQUARE + """
                k = cu.buildkernel(SRC, "%s")
                k(4, 32)(x, 100)
                print(x[9], x[99], k.name, k.launchCount)""".formatted(NIDL), "81.0 9801.0 square 1"),
        new Ok("buildkernel, legacy signature", "python", PY_SQUARE + """
                k = cu.buildkernel(SRC, "square", "pointer, sint32")
                k(4, 32)(x, 100)
                print(x[3])""", "9.0"),
        new Ok("launch configurations", "python", PY_SQUARE + """
                k = cu.buildkernel(SRC, "%s")
                k((2,), (32,))(x, 100)
                k([2, 1, 1], [32, 1, 1])(x, 100)
                k(2, 32, 0)(x, 100)
                print(x[2], k.launchCount)""".formatted(NIDL), "256.0 3"),
        new Ok("create, write, read, length", "js", JS + """
                const a = cu.DeviceArray("float", 10);
                for (let i = 0; i < 10; i++) a[i] = i * 1.5;
                console.log(a.length, a[3], a[9]);""", "10 4.5 13.5"),
        new Ok("iteration", "js", JS + """
                const a = cu.DeviceArray("int", 4);
                for (let i = 0; i < 4; i++) a[i] = i + 1;
                console.log(Array.from(a).join(","), [...a].reduce((s, v) => s + v, 0));""", "1,2,3,4 10"),
        new Ok("multi-dimensional", "js", JS + """
                const m = cu.DeviceArray("double", 2, 3);
                m[1][2] = 0.25;
                console.log(m.length, m[0].length, m[1][2]);""", "2 3 0.25"),
        new Ok("copy and free", "js", JS + """
                const a = cu.DeviceArray("int", 3), b = cu.DeviceArray("int", 3);
                a[0] = 5; a[1] = 6; a[2] = 7;
                b.copyFrom(a);
                a.free();
                console.log(b[2], a.isMemoryFreed);""", "7 true"),
        // One access site that sees arrays of every element type: more than the element accesses' inline cache
        // holds, so it goes on with the generic case, which must convert exactly as the cached ones.
        new Ok("one access site, every element type", "js", JS + """
                const rw = (t, v) => { const a = cu.DeviceArray(t, 2); a[1] = v; return a[1]; };
                const rw2 = (t, v) => { const m = cu.DeviceArray(t, 2, 2); m[1][1] = v; return m[1][1]; };
                const cases = [["char", -7], ["uchar", 200], ["short", -30000], ["ushort", 65535],
                    ["int", -2000000000], ["uint", 4000000000], ["long", -5], ["ulong", 2 ** 53], ["float", 1.5],
                    ["double", 0.1], ["bool", true]];
                console.log(cases.map(([t, v]) => rw(t, v)).join(","));
                console.log(cases.map(([t, v]) => rw2(t, v)).join(","));""",
                "-7,200,-30000,65535,-2000000000,4000000000,-5,9007199254740992,1.5,0.1,true\n"
                + "-7,200,-30000,65535,-2000000000,4000000000,-5,9007199254740992,1.5,0.1,true"),
        new Ok("one access site, every element type", "python", PY + """
                def rw(t, v):
                    a = cu.DeviceArray(t, 2)
                    a[1] = v
                    return a[1]
                cases = (("char", -7), ("uchar", 200), ("ushort", 65535), ("uint", 4000000000), ("ulong", 2 ** 64 - 1),
                         ("float", 1.5), ("double", 0.1), ("bool", True))
                print([rw(t, v) for t, v in cases])""",
                "[-7, 200, 65535, 4000000000, 18446744073709551615, 1.5, 0.1, True]"),
        new Ok("reads past the end after many in range", "js", JS + """
                const a = cu.DeviceArray("float", 3);
                a[0] = 1; a[1] = 2; a[2] = 3;
                const at = i => a[i];
                let s = 0;
                for (let k = 0; k < 3000; k++) s += at(k % 3);
                console.log(s, at(3), at(1));""", "6000 undefined 2"),
        new Ok("buildkernel, both signature forms, launch forms", "js", JS_SQUARE + """
                const k = cu.buildkernel(SRC, "%s");
                k(4, 32)(x, 100);
                const legacy = cu.buildkernel(SRC, "square", "pointer, sint32");
                legacy([2], [32, 1])(x, 100);
                console.log(x[3], k.name, k.launchCount);""".formatted(NIDL), "81 square 1"),
        // A name CU does not have is the guest's own "no such attribute" error, not an internal error.
        new Ok("unknown name of CU", "python", PY + """
                try:
                    cu.cudaMallocc(16)
                except AttributeError as e:
                    print("AttributeError", "cudaMallocc" in str(e))""", "AttributeError True"),
        // DeviceArray looks like a constructor, and JavaScript programmers call it with new.
        new Ok("new DeviceArray in JavaScript", "js", JS + """
                const a = new cu.DeviceArray("float", 4);
                const m = new cu.DeviceArray("int", 2, 3, "F");
                a[3] = 1.5;
                m[1][2] = 7;
                console.log(a.length, a[3], m.length, m[0].length, m[1][2], cu.DeviceArray("int", 2).length);""",
                "4 1.5 2 3 7 2"),
        // A tuple cannot take elements: the error says so (not interop's "Message not supported."), and the
        // array keeps working.
        new Ok("copyTo a read-only sequence, then to a list", "python", PY + """
                a = cu.DeviceArray("int", 3)
                a.copyFrom([1, 2, 3])
                try:
                    a.copyTo((0, 0, 0))
                except polyglot.ForeignException as e:
                    print(str(e))
                out = [0, 0, 0]
                a.copyTo(out)
                print(out)""", "copyTo: the destination cannot be written: it is a read-only sequence (a Python"
                + " tuple, a frozen JavaScript array, …); pass a list, a host array or a device array\n[1, 2, 3]"),
        // JavaScript prints a foreign object through its toString member, if it has one: grcuda's objects show
        // what they are (GraalJS's fallbacks were "[object Object]", "function () { [native code] }" and the
        // bare elements), a freed array included; toString is not listed among the members.
        new Ok("grcuda objects as JavaScript strings", "js", JS_SQUARE + """
                const k = cu.buildkernel(SRC, "%s");
                const a = cu.DeviceArray("int", 3);
                a[0] = 7;
                const m = cu.DeviceArray("int", 2, 2);
                m[1][0] = 5;
                const freed = cu.DeviceArray("float", 2);
                freed.free();
                console.log([String(k), `${k(2, 32)}`, "" + a, String(m[1]), String(freed),
                    String(cu.cudaStreamCreate()).startsWith("stream "), String(cu.cudaEventCreate()),
                    String(cu) === `namespace CU (${Object.keys(cu).length} names)`, String(cu.getdevices()),
                    Object.keys(a).includes("toString"), typeof cu.cudaMallocc].join(" | "));""".formatted(NIDL),
                "kernel square(x: inout pointer float, n: sint32)"
                        + " | kernel square(x: inout pointer float, n: sint32) with grid (2, 1, 1), block (32, 1, 1)"
                        + " | DeviceArray(int, 3)[7, 0, 0] | view [1] of DeviceArray(int, 2, 2)[5, 0]"
                        + " | DeviceArray(float, 2)[freed] | true | event | true | devices (1) | false | undefined"),
        // Same size, both integers: a kernel may read a char array as uint8.
        new Ok("typed pointer, array of the same representation", "python", PY + """
                k = cu.buildkernel('__global__ void inc(unsigned char *b) { b[0] += 1; }',
                                   'inc(b: inout pointer uint8)')
                b = cu.DeviceArray('char', 1)
                b[0] = 41
                k(1, 1)(b)
                print(b[0])""", "42"),
        // A row of a row-major array is contiguous: the kernel gets exactly that row.
        new Ok("a row of a C-order array as a kernel argument", "python", PY_SQUARE + """
                k = cu.buildkernel(SRC, "%s")
                m = cu.DeviceArray("float", 3, 4)
                for i in range(3):
                    for j in range(4): m[i][j] = 10 * i + j
                k(1, 32)(m[1], 4)
                print([[int(v) for v in row] for row in m])""".formatted(NIDL),
                "[[0, 1, 2, 3], [100, 121, 144, 169], [20, 21, 22, 23]]"),
        // What the README says about errors in Python: grcuda errors are polyglot.ForeignException, which
        // 'except Exception' does not catch; GraalPy replaces the reason of an argument TypeError. If GraalPy
        // changes either, this fails and the README's "Errors in Python" needs updating.
        new Ok("errors as Python sees them", "python", PY_SQUARE + """
                try:
                    try:
                        cu.DeviceArray("float", 0)
                    except Exception:
                        print("caught by Exception")
                except polyglot.ForeignException as e:
                    print("ForeignException", "must be positive" in str(e))
                k = cu.buildkernel(SRC, "%s")
                try:
                    k(1, 32)(x)
                except TypeError as e:
                    print("TypeError", e)""".formatted(NIDL),
                "ForeignException True\nTypeError invalid instantiation of foreign object"),
        // GrCUDA's getoptions() is a hash: scripts index it and turn it into a dict (Python) or iterate it (JS).
        new Ok("getoptions() and properties as dicts", "python", PY + """
                opts = cu.getoptions()
                print(opts["grcuda.ExecutionPolicy"], dict(opts)["grcuda.DependencyPolicy"], "grcuda.Device" in opts,
                      getattr(opts, "grcuda.ExecutionPolicy"))
                p = cu.getdevice(0).properties
                print(p["warpSize"] == p.warpSize, "maxThreadsPerBlock" in p.keys())""",
                "async with-const True async\nTrue True"),
        new Ok("getoptions() as a Map", "js", JS + """
                const o = cu.getoptions();
                const entries = [...o].filter(([k, v]) => k === "grcuda.DependencyPolicy");
                console.log(o.get("grcuda.ExecutionPolicy"), o["grcuda.ExecutionPolicy"], JSON.stringify(entries));""",
                "async async [[\"grcuda.DependencyPolicy\",\"with-const\"]]"),
        // GrCUDA scripts name the attribute by its cudaDeviceAttr code (10 = cudaDevAttrWarpSize).
        new Ok("cudaDeviceGetAttribute by CUDA code and by name", "python", PY + """
                p = cu.getdevice(0).properties
                print(cu.cudaDeviceGetAttribute(10, 0), cu.cudaDeviceGetAttribute("warpSize", 0),
                      cu.cudaDeviceGetAttribute(1, 0) == p.maxThreadsPerBlock,
                      cu.cudaDeviceGetAttribute(75, 0) == p.computeCapabilityMajor)""", "32 32 True True"),
        // A uint64 scalar takes the whole range up to 2^64 - 1 (beyond a long), from Python ints and JS BigInts.
        // An integer a double cannot hold exactly is rounded once, as C converts it; one beyond the range is refused.
        new Ok("large integers for float and double scalars", "python", PY + """
                k = cu.buildkernel('__global__ void f(double *r, double v, float w) { r[0] = v; r[1] = w; }',
                                   'f(r: out pointer double, v: double, w: float)')
                r = cu.DeviceArray('double', 2)
                k(1, 1)(r, 2 ** 64 - 1, 2 ** 53 + 1)
                print(r[0] == float(2 ** 64 - 1), r[1] == 2.0 ** 53)
                k(1, 1)(r, 2 ** 53 + 1, 2 ** 24 + 1)
                print(r[0] == 2.0 ** 53, r[1] == 2.0 ** 24)""", "True True\nTrue True"),
        new Ok("uint64 scalar beyond a long", "python", PY + """
                src = '__global__ void top(int *r, unsigned long long v) { r[0] = v == ~0ull; r[1] = v >> 60; }'
                k = cu.buildkernel(src, 'top(r: out pointer sint32, v: uint64)')
                r = cu.DeviceArray('int', 2)
                k(1, 1)(r, 2 ** 64 - 1)
                print(r[0], r[1])""", "1 15"),
        new Ok("uint64 scalar beyond a long", "js", JS + """
                const k = cu.buildkernel('__global__ void top(int *r, unsigned long long v) { r[0] = v == ~0ull; }',
                                         'top(r: out pointer sint32, v: uint64)');
                const r = cu.DeviceArray('int', 1);
                k(1, 1)(r, 2n ** 64n - 1n);
                console.log(r[0]);""", "1"),
        // GrCUDA's raw memory: a kernel fills cudaMalloc memory, copies move it by pointer and by address.
        new Ok("cudaMalloc, kernels and copies by address", "python", PY_SQUARE + """
                k = cu.buildkernel(SRC, "%s")
                p = cu.cudaMalloc(4 * 100)
                cu.cudaMemcpy(p, x, 4 * 100)
                k(1, 32)(p, 100)
                y = cu.DeviceArray("float", 100)
                cu.cudaMemcpy(y.pointer + 4 * 90, p, 4 * 10)
                print(int(y[0]), int(y[93]), cu.cudaDeviceCanAccessPeer(0, 0))
                cu.cudaFree(p)""".formatted(NIDL), "0 9 0"),
        new Ok("cudaMallocManaged and cudaMemcpyAsync on a stream", "js", JS_SQUARE + """
                const k = cu.buildkernel(SRC, "%s");
                const p = cu.cudaMallocManaged(400);
                const s = cu.cudaStreamCreate();
                x.copyTo(p);
                k(1, 32, 0, s)(p, 100);
                const y = cu.DeviceArray("float", 100);
                cu.cudaMemcpyAsync(y, p, 400, s);
                console.log(y[7]);
                cu.cudaFree(p);""".formatted(NIDL), "49"),
        // A row of a 2-D array has no pointer; the array's pointer plus the row's bytes (a JS number) names it.
        new Ok("a row of a 2-D array by address, ordered with the array", "js", JS + """
                const k = cu.buildkernel('__global__ void set(int *r, int v, int n) {'
                                         + ' if (threadIdx.x < n) r[threadIdx.x] = v + threadIdx.x; }',
                                         'set(r: out pointer sint32, v: sint32, n: sint32)');
                const m = cu.DeviceArray('int', 3, 4);
                k(1, 16)(m, 10, 12);
                k(1, 4)(m.pointer + 4 * 4, 100, 4);
                cu.cudaMemsetAsync(m.pointer + 2 * 16 + 4, 0, 8, null);
                console.log([0, 1, 2].map(i => Array.from(m[i]).join(' ')).join(' | '));""",
                "10 11 12 13 | 100 101 102 103 | 18 0 0 21"),
        // ulong elements of 2^63 or more read back as exact integers: Python ints, values JS turns into BigInts.
        new Ok("ulong elements beyond a long", "python", PY + """
                a = cu.DeviceArray("ulong", 3)
                a[0] = 2 ** 64 - 1
                a[1] = 2 ** 63
                a[2] = 2 ** 63 - 1
                print(a[0], a[1] + 1, a[0] == 2 ** 64 - 1, isinstance(a[1], int), a[2], list(a))""",
                "18446744073709551615 9223372036854775809 True True 9223372036854775807"
                + " [18446744073709551615, 9223372036854775808, 9223372036854775807]"),
        new Ok("ulong elements written by a kernel", "python", PY + """
                src = '__global__ void down(unsigned long long *a, unsigned long long top, int n) {' \\
                      '    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = top - i; }'
                k = cu.buildkernel(src, 'down(a: out pointer uint64, top: uint64, n: sint32)')
                a = cu.DeviceArray('ulong', 300)
                k(3, 128)(a, 2 ** 64 - 1, 300)
                print([v for v in a] == [2 ** 64 - 1 - i for i in range(300)], a[299])""",
                "True 18446744073709551316"),
        new Ok("ulong elements beyond a long", "js", JS + """
                const a = cu.DeviceArray("ulong", 2);
                a[0] = 2n ** 64n - 1n;
                a[1] = 2n ** 63n;
                const b = cu.DeviceArray("ulong", 1);
                b[0] = a[0];
                console.log(BigInt(a[0]) === 2n ** 64n - 1n, String(BigInt(a[1]) + 1n), String(b[0]));""",
                "true 9223372036854775809 18446744073709551615"),
        // CUDA allows shared memory declared at file scope: the extern one is the launch's dynamic shared memory.
        new Ok("file-scope extern __shared__, dynamic shared memory of the launch", "python", PY + """
                src = '''extern __shared__ float partial[];
                __global__ void blockSums(const float *x, float *sums, int n) {
                    unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
                    partial[t] = i < n ? x[i] : 0.0f;
                    __syncthreads();
                    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
                        if (t < s) partial[t] += partial[t + s];
                        __syncthreads();
                    }
                    if (t == 0) sums[blockIdx.x] = partial[0];
                }'''
                k = cu.buildkernel(src, 'blockSums(x: in pointer float, sums: out pointer float, n: sint32)')
                x = cu.DeviceArray('float', 1000)
                for i in range(1000): x[i] = i % 7
                sums = cu.DeviceArray('float', 8)
                k(8, 128, 128 * 4)(x, sums, 1000)
                print([s for s in sums] == [float(sum(i % 7 for i in range(b * 128, min(1000, b * 128 + 128))))
                                            for b in range(8)], sum(sums))""", "True 2997.0"),
    };

    private static final Fails[] FAILS = {
        new Fails("index past the end", "python", PY + "a = cu.DeviceArray('float', 3)\na[3]", "IndexError", ""),
        new Fails("negative size", "python", PY + "cu.DeviceArray('float', -1)", "", "-1"),
        new Fails("element of the wrong type", "python", PY + "a = cu.DeviceArray('float', 3)\na[0] = 'x'",
                "TypeError", ""),
        new Fails("unknown element type", "python", PY + "cu.DeviceArray('flot', 3)", "", "flot"),
        new Fails("access after free", "python", PY + "a = cu.DeviceArray('float', 3)\na.free()\na[0]", "", "freed"),
        new Fails("access after free, in a loop that ran before", "js", JS + """
                const a = cu.DeviceArray("float", 3);
                const sum = () => { let s = 0; for (let i = 0; i < 3; i++) s += a[i]; return s; };
                for (let k = 0; k < 3000; k++) sum();
                a.free();
                sum();""", "", "was freed"),
        new Fails("kernel arguments of the wrong number", "python", PY_SQUARE
                + "k = cu.buildkernel(SRC, '" + NIDL + "')\nk(1, 32)(x)", "TypeError", ""),
        new Fails("kernel argument of the wrong type", "python", PY_SQUARE
                + "k = cu.buildkernel(SRC, '" + NIDL + "')\nk(1, 32)('x', 100)", "TypeError", ""),
        // An integer for a pointer is an address (GrCUDA's raw pointers): checked against the live allocations.
        new Fails("an integer for a pointer that is no live address", "python", PY_SQUARE
                + "k = cu.buildkernel(SRC, '" + NIDL + "')\nk(1, 32)(5, 100)", "",
                "argument 1 ('x') of kernel 'square' is the address 0x5, which is not inside any live allocation"),
        new Fails("an address with a fraction", "js", JS
                + "const a = cu.DeviceArray('float', 8);\ncu.cudaMemset(a.pointer + 0.5, 0, 4);", "",
                "cudaMemset: argument 1 (memory) is the number "),
        new Fails("cudaFree of a row of a 2-D array", "python", PY
                + "m = cu.DeviceArray('float', 3, 4)\ncu.cudaFree(m[0])", "",
                "cudaFree: argument 1 is a view of DeviceArray(float, 3, 4) (m[i] of a multi-dimensional array),"
                + " which is part of an allocation, not one; free the whole array (cudaFree(m) or m.free())"),
        new Fails("cudaMemcpy past the end of cudaMalloc memory", "js", JS
                + "const p = cu.cudaMalloc(16);\ncu.cudaMemcpy(p, cu.DeviceArray('float', 8), 32);", "",
                "cudaMemcpy: cannot copy 32 bytes; the destination GPUPointer("),
        new Fails("bad signature", "python", PY_SQUARE + "cu.buildkernel(SRC, 'square(x: inout pointr float)')",
                "", "pointr"),
        new Fails("source that does not compile", "python", PY
                + "cu.buildkernel('__global__ void k(int *x) { x[0] = y; }', 'k(x: inout pointer sint32)')", "", "y"),
        // In sloppy mode JavaScript ignores a failed element write (the element keeps its value); strict mode
        // reports it, with the array's own message.
        new Fails("element of the wrong type", "js", "'use strict';\n" + JS
                + "const a = cu.DeviceArray('float', 3);\na[0] = 'x';", "TypeError", "expected a number"),
        new Fails("index past the end", "js", "'use strict';\n" + JS + "const a = cu.DeviceArray('float', 3);\na[5] = 1;",
                "TypeError", "index 5"),
        new Fails("DeviceArray without arguments", "js", JS + "cu.DeviceArray();", "TypeError", ""),
        // JavaScript writes an index that is no array index (negative, fractional) as a member of that name.
        new Fails("negative index", "js", "'use strict';\n" + JS + "const a = cu.DeviceArray('float', 3);\na[-1] = 1;",
                "", "index -1 is out of bounds for DeviceArray(float, 3): valid indices are 0 to 2"),
        new Fails("fractional index", "js", "'use strict';\n" + JS + "const a = cu.DeviceArray('int', 3);\na[1.5] = 1;",
                "", "index 1.5 is out of bounds for DeviceArray(int, 3): valid indices are 0 to 2"),
        new Fails("negative index of a 2-D array", "js", "'use strict';\n" + JS
                + "const m = cu.DeviceArray('float', 2, 4);\nm[-2] = 1;", "",
                "index -2 is out of bounds for DeviceArray(float, 2, 4): valid indices are 0 to 1"),
        new Fails("assigning a method of an array", "js", "'use strict';\n" + JS
                + "const a = cu.DeviceArray('float', 3);\na.free = 1;", "",
                "'free' of DeviceArray(float, 3) cannot be assigned: it is part of the array's API"),
        // The kernel would read the ints' bytes as floats: refused instead of a silently wrong result.
        new Fails("array of another element type for a typed pointer", "python", PY_SQUARE
                + "k = cu.buildkernel(SRC, '" + NIDL + "')\nk(1, 32)(cu.DeviceArray('int', 100), 100)", "",
                "argument 1 ('x') of kernel 'square' is a pointer to float, but the device array passed holds int"),
        new Fails("array of another element type for a typed pointer", "js", JS_SQUARE
                + "const k = cu.buildkernel(SRC, '" + NIDL + "');\nk(1, 32)(cu.DeviceArray('double', 100), 100);", "",
                "is a pointer to float, but the device array passed holds double"),
        new Fails("signature's pointer type differs from the kernel's", "python", PY_SQUARE
                + "cu.buildkernel(SRC, 'square(x: inout pointer double, n: sint32)')", "",
                "parameter 1 ('x') of kernel 'square' is a pointer to double in the signature, but the kernel declares"
                + " 'float* x'"),
        new Fails("a string for an integer argument is shown quoted", "js", JS_SQUARE
                + "const k = cu.buildkernel(SRC, '" + NIDL + "');\nk(1, 32)(x, '100');", "TypeError",
                "argument 2 ('n') of kernel 'square' (sint32) must be an integer, got \"100\""),
        // Its elements are strided in memory: a kernel or a byte copy would see other elements.
        new Fails("a row of an F-order array as a kernel argument", "python", PY_SQUARE
                + "k = cu.buildkernel(SRC, '" + NIDL + "')\nm = cu.DeviceArray('float', 4, 5, 'F')\nk(1, 32)(m[1], 5)",
                "", "argument 1 ('x') of kernel 'square' is a row of a column-major (\"F\") array"),
        new Fails("a row of an F-order array to cudaMemcpy", "js", JS
                + "const m = cu.DeviceArray('float', 4, 5, 'F');\ncu.cudaMemcpy(m[1], cu.DeviceArray('float', 5), 20);",
                "", "cudaMemcpy: the destination is a row of a column-major (\"F\") array"),
        // 92 is reserved in CUDA's cudaDeviceAttr (driver_types.h): no attribute has it
        new Fails("cudaDeviceGetAttribute, a code that is no attribute", "js", JS
                + "cu.cudaDeviceGetAttribute(92, 0);", "",
                "cudaDeviceGetAttribute: attribute code 92 is not a cudaDeviceAttr code of a device attribute"),
        new Fails("source without kernels", "python", PY + "cu.buildkernel('', 'k(x: out pointer sint32)')", "",
                "no kernel named 'k' in k.cu; it declares no __global__ function"),
        // GraalPy's own message names the array by its toString: the description, not a Java class name.
        new Fails("assigning to a row of a multi-dimensional array", "python", PY
                + "m = cu.DeviceArray('int', 2, 3)\nm[0] = 1", "IndexError",
                "item 0 of DeviceArray(int, 2, 3) object is not writable"),
        new Fails("uint64 scalar past 2^64 - 1", "js", JS
                + "const k = cu.buildkernel('__global__ void top(int *r, unsigned long long v) { r[0] = 1; }',"
                + " 'top(r: out pointer sint32, v: uint64)');\nk(1, 1)(cu.DeviceArray('int', 1), 2n ** 64n);",
                "TypeError", "argument 2 ('v') of kernel 'top' (uint64) must be between 0 and 18446744073709551615"),
        new Fails("ulong element past 2^64 - 1", "js", "'use strict';\n" + JS
                + "const a = cu.DeviceArray('ulong', 1);\na[0] = 2n ** 64n;", "TypeError",
                "cannot store 18446744073709551616n in a DeviceArray of ulong: out of range 0 to 18446744073709551615"),
        new Fails("negative ulong element", "python", PY + "a = cu.DeviceArray('ulong', 1)\na[0] = -1", "TypeError",
                ""),
        new Fails("an integer beyond a double's range for a double scalar", "js", JS
                + "const k = cu.buildkernel('__global__ void f(double *r, double v) { r[0] = v; }',"
                + " 'f(r: out pointer double, v: double)');\nk(1, 1)(cu.DeviceArray('double', 1), 10n ** 400n);",
                "TypeError", "argument 2 ('v') of kernel 'f' (double) cannot hold"),
        new Fails("sint64 scalar past 2^63 - 1", "js", JS
                + "const k = cu.buildkernel('__global__ void s(int *r, long long v) { r[0] = 1; }',"
                + " 's(r: out pointer sint32, v: sint64)');\nk(1, 1)(cu.DeviceArray('int', 1), 2n ** 63n);",
                "TypeError", "(sint64) must be between -9223372036854775808 and 9223372036854775807, got"),
        new Fails("kernel arguments of the wrong number", "js", JS_SQUARE
                + "const k = cu.buildkernel(SRC, '" + NIDL + "');\nk(1, 32)(x);", "TypeError", ""),
    };

    @TestFactory
    Stream<DynamicTest> scriptsPrintWhatTheyShould() {
        return Stream.of(OK).map(c -> DynamicTest.dynamicTest(c.language() + ": " + c.name(), () -> {
            String out = Guests.eval(c.language(), c.script());
            assertEquals(c.expected(), out.strip(), () -> "script:\n" + c.script());
        }));
    }

    @TestFactory
    Stream<DynamicTest> errorsAreGuestErrors() {
        return Stream.of(FAILS).map(c -> DynamicTest.dynamicTest(c.language() + ": " + c.name(), () -> {
            PolyglotException e = assertThrows(PolyglotException.class, () -> Guests.eval(c.language(), c.script()),
                    () -> "script:\n" + c.script());
            assertTrue(e.isGuestException() && !e.isInternalError(), () -> "not a guest error: " + e);
            String message = String.valueOf(e.getMessage());
            assertTrue(message.startsWith(c.type()), () -> "expected a " + c.type() + ", got: " + message);
            assertTrue(message.contains(c.fragment()), () -> "expected '" + c.fragment() + "' in: " + message);
        }));
    }
}
