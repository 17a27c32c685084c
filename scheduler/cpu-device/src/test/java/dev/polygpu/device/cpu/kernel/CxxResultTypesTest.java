package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.littleEndianInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Comparisons, {@code &&}, {@code ||} and {@code !} give {@code bool} in CUDA C++, as in C++ (nvcc compiles
 * {@code .cu} files as C++), where C gives {@code int}; a character literal is a {@code char} (case 28629 of seed
 * 7: {@code f('\x0')} with overloads {@code f(long)} and {@code f(char)} was refused as ambiguous). The type shows in overload resolution, template argument
 * deduction, {@code auto}, {@code sizeof} and compound assignment. bench/fuzz's case 5820 (seed 7) found it: a
 * call {@code f(true == x)} with overloads {@code f(short)} and {@code f(bool)} was refused as ambiguous. Also
 * here: casts whose parenthesized operand no declarator spells ({@code (int((int)v & 5u)) & x}, cases 3099,
 * 3187, 3492), which are values in C++, not casts to function types; and {@code signed char}, a type apart from
 * {@code char} (case 53671: {@code t(c ? (signed char)w : '~', 1)} with {@code template <typename T> t(T, T)}
 * was refused as "conflicting types deduced ('char' vs 'int')").
 */
class CxxResultTypesTest {
    private static final String SOURCE = """
            __device__ int pick(short v) { return 10; }
            __device__ int pick(bool v) { return 20; }
            __device__ int over(int v) { return 30; }
            __device__ int over(bool v) { return 40; }
            __device__ int lit(long v) { return 50; }
            __device__ int lit(char v) { return 60; }
            template <typename T>
            __device__ int bumped(T v) { T r = v; r += 5; return (int)r; }
            __device__ int sc(char v) { return 70; }
            __device__ int sc(signed char v) { return 80; }
            template <typename T>
            __device__ int both(T x, T y) { return (int)sizeof(T); }
            extern "C" __global__ void m(const int* in, int* out) {
                int a = in[0];
                int b = in[1];
                out[0] = pick(true == a);
                out[1] = over(a < b);
                out[2] = over(!a);
                out[3] = over(a && b);
                out[4] = bumped(a != b);
                out[5] = bumped(a || b);
                auto c = a <= b;
                c += 7;
                out[6] = c;
                out[7] = (int)(sizeof(a > b) + sizeof(!b) + sizeof(a && b));
                out[8] = (int(((int)a) & 5u)) & b;
                out[9] = (char(a == b)) + b;
                out[10] = (int((int)a ^ 7ull)) - b;
                out[11] = (a < b) + (a < b);
                out[12] = lit('\\x0') + (int)sizeof('a') + over('b' == 98);
                signed char s = (signed char)a;
                char3 v = make_char3(b, 0, 0);
                out[13] = (int)sizeof(a > b ? s : 'c');
                out[14] = sc('c') + sc(s) + sc(v.x);
                out[15] = both(a > b ? s : 'c', 7) + both(s, v.x);
            }
            """;

    /**
     * in = {3, 6}. pick(bool) 20; over(bool) 40 three times; bumped<bool>: true + 5 stored in a bool is true, so 1
     * twice; c is bool: true + 7 is true, 1; sizeof(bool) three times, 3; (3 & 5) & 6 = 1 & 6 = 0; char(false) + 6
     * = 6; (3 ^ 7) - 6 = -2; true + true promote to int, 2; lit(char) 60 + sizeof(char) 1 + over(bool) 40 = 101.
     * {@code signed char} and {@code char} are two types: {@code ?:} of the two converts both to int, 4;
     * sc(char) 70 + sc(signed char) 80 + 80 for a {@code char3} component (CUDA declares it {@code signed char}) =
     * 230; both&lt;int&gt; 4 + both&lt;signed char&gt; 1 = 5.
     */
    @Test
    void theEngineTypesThemAsBool() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer in = ints(dev, new int[] {3, 6});
            UnifiedBuffer out = ints(dev, new int[16]);
            run(dev, dev.compile(SOURCE, "bools.cu").function("m"), 1, 1,
                    KernelArgs.builder().pointer(in).pointer(out).build());
            assertArrayEquals(new int[] {20, 40, 40, 40, 1, 1, 1, 3, 0, 6, -2, 2, 101, 4, 230, 5}, readInts(out, 16));
        }
    }

    @Test
    void nvccsPtxAgreesWithTheEngine() {
        OracleTests.assumeNvcc();
        OracleCase c = new OracleCase("bools", SOURCE, "m", LaunchConfig.of(1, 1), List.of(
                new OracleArg.Buffer("in", OracleType.I32, littleEndianInts(3, 6), 0),
                new OracleArg.Buffer("out", OracleType.I32, littleEndianInts(new int[16]), 0)));
        try (DifferentialOracle g = DifferentialOracle.create()) {
            assertInstanceOf(OracleResult.Equal.class, g.check(c));
        }
    }
}
