package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.longs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readDoubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ulpsDouble;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ulpsFloat;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CUDA C language and runtime features one by one, each checked against a Java model of the C semantics:
 * integer promotions and conversions, control flow, pointers, local arrays, the preprocessor, device
 * functions, thread indexing, warp and block intrinsics, atomics under contention and the math library.
 * Inputs are random with a fixed seed ({@link #SEED}), which failure messages name.
 */
@Timeout(30)
class KernelConformanceTest {
    static final long SEED = 0xC0FFEEL;
    static Device dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice();
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    // =========================================================================================================
    // Integer expressions: one generated kernel per case, r computed from ints a, b and long longs la, lb.
    // =========================================================================================================

    /** The C semantics of one case, in Java. */
    interface IntRef {
        long apply(int a, int b, long la, long lb);
    }

    record IntCase(String name, String prelude, String body, IntRef ref) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static IntCase ic(String name, String body, IntRef ref) {
        return new IntCase(name, "", body, ref);
    }

    static final int N = 2048;
    static final int[] A = new int[N];
    static final int[] B = new int[N];
    static final long[] LA = new long[N];
    static final long[] LB = new long[N];
    static final float[] F = new float[N];
    static final double[] D = new double[N];

    static {
        Random r = new Random(SEED);
        int[] sa = {0, 1, -1, 2, -2, 7, -7, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, 65535, 65536,
            Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE + 1, 1000, -1000, 0x55555555, 0xAAAAAAAA};
        int[] sb = {1, -1, 3, -3, 7, 31, 32, 33, -31, 255, 256, Integer.MAX_VALUE, Integer.MIN_VALUE, 65536,
            -65536, 2, -2, 1000, -1000, -1, 5, 0xFFFF, 0x7FFFFFFF, 9, -9};
        long[] sl = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE + 1, 1L << 32, -(1L << 32), 0xFFFFFFFFL,
            0x8000_0000L, 1L << 62, -12345678901L};
        float[] sf = {0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.49999997f, -0.7f, 0.7f, 1e6f, -1e6f, 16777217f,
            123456.789f, -3.75f, 1e-3f, 8388609.5f, 255.9f, -128.9f};
        double[] sd = {1.0 + Math.scalb(1.0, -24), 1.0 + 3 * Math.scalb(1.0, -24), -1.0 - Math.scalb(1.0, -24),
            1e-40, 0.1, -0.1, 1e10, -1e10, 2.5, 16777217.0, 3.141592653589793};
        for (int i = 0; i < N; i++) {
            int a = i < sa.length ? sa[i] : switch (i % 3) {
                case 0 -> r.nextInt(601) - 300;
                case 1 -> r.nextInt();
                default -> r.nextInt(2_000_001) - 1_000_000;
            };
            int b = i < sb.length ? sb[i] : switch (i % 4) {
                case 0 -> r.nextInt(61) - 30;
                case 1 -> r.nextInt();
                case 2 -> r.nextInt(1 << 16);
                default -> r.nextInt(2_000_001) - 1_000_000;
            };
            if (b == 0) {
                b = 11;
            }
            if (a == Integer.MIN_VALUE && b == -1) {
                b = -3;
            }
            long la = i < sl.length ? sl[i] : i % 3 == 0 ? r.nextInt(2_000_001) - 1_000_000 : r.nextLong();
            long lb = i + 3 < sl.length ? sl[i + 3] : i % 2 == 0 ? r.nextLong() : r.nextInt(100_001) - 50_000;
            if (la == Long.MIN_VALUE) {
                la++;
            }
            if (lb == 0) {
                lb = 13;
            }
            A[i] = a;
            B[i] = b;
            LA[i] = la;
            LB[i] = lb;
            F[i] = i < sf.length ? sf[i] : switch (i % 3) {
                case 0 -> (r.nextFloat() * 2 - 1) * 1e6f;
                case 1 -> (r.nextFloat() * 2 - 1) * 100f;
                default -> (r.nextInt(2001) - 1000) / 2f;
            };
            D[i] = i < sd.length ? sd[i] : i % 2 == 0 ? (r.nextDouble() * 2 - 1) * 1e10 : (r.nextDouble() * 2 - 1) * 10;
        }
    }

    static List<IntCase> intCases() {
        List<IntCase> c = new ArrayList<>();
        // Narrow types wrap on conversion and promote to int in arithmetic.
        c.add(ic("char wraps on assignment", "char c = (char) a; c = c + 100; r = c;", (a, b, la, lb) -> (byte) ((byte) a + 100)));
        c.add(ic("signed char compound assignment wraps", "signed char c = (signed char) a; c += b; r = c;", (a, b, la, lb) -> (byte) (a + b)));
        c.add(ic("unsigned char wraps", "unsigned char u = (unsigned char) a; u += b; r = u;", (a, b, la, lb) -> (a + b) & 0xFF));
        c.add(ic("unsigned char increments wrap past 255",
                "unsigned char u = 250; for (int k = 0; k < (b & 15); k++) { u++; } r = u;", (a, b, la, lb) -> (250 + (b & 15)) & 0xFF));
        c.add(ic("short wraps", "short s = (short) a; s *= 3; r = s;", (a, b, la, lb) -> (short) ((short) a * 3)));
        c.add(ic("unsigned short wraps", "unsigned short s = (unsigned short) a; s -= b; r = s;", (a, b, la, lb) -> (a - b) & 0xFFFF));
        c.add(ic("unsigned char operands promote to int",
                "unsigned char x = (unsigned char) a; unsigned char y = (unsigned char) b; r = x - y;",
                (a, b, la, lb) -> (a & 0xFF) - (b & 0xFF)));
        c.add(ic("signed char product promotes to int",
                "signed char x = (signed char) a; signed char y = (signed char) b; r = x * y;", (a, b, la, lb) -> (byte) a * (byte) b));
        c.add(ic("unsigned char shift promotes to int", "unsigned char x = (unsigned char) a; r = x << 24;",
                (a, b, la, lb) -> (a & 0xFF) << 24));
        c.add(ic("unsigned short promotes to signed int",
                "unsigned short x = (unsigned short) a; r = (x - 70000 < 0) ? 1 : 0;", (a, b, la, lb) -> 1));
        c.add(ic("long long < unsigned int compares as signed 64-bit", "r = (la < (unsigned int) b) ? 1 : 0;",
                (a, b, la, lb) -> la < Integer.toUnsignedLong(b) ? 1 : 0));
        c.add(ic("cast chain", "r = (long long) (short) (unsigned char) (a + 1);", (a, b, la, lb) -> (a + 1) & 0xFF));
        // unsigned int
        c.add(ic("unsigned int multiply wraps",
                "unsigned int x = (unsigned int) a; unsigned int y = (unsigned int) b; r = x * y + 7u;",
                (a, b, la, lb) -> Integer.toUnsignedLong(a * b + 7)));
        c.add(ic("unsigned subtraction wraps", "unsigned int x = a; r = x - (unsigned int) b;", (a, b, la, lb) -> Integer.toUnsignedLong(a - b)));
        c.add(ic("int < unsigned compares as unsigned", "unsigned int u = (unsigned int) b; r = (a < u) ? 1 : 0;",
                (a, b, la, lb) -> Integer.compareUnsigned(a, b) < 0 ? 1 : 0));
        c.add(ic("nothing is below 0u", "unsigned int z = 0u; r = (a < z) ? 1 : 0; r += (-1 < 0u) ? 10 : 0;", (a, b, la, lb) -> 0));
        c.add(ic("int < long long compares as signed", "r = (a < (long long) (unsigned int) b) ? 1 : 0;",
                (a, b, la, lb) -> a < Integer.toUnsignedLong(b) ? 1 : 0));
        c.add(ic("unsigned division", "unsigned int x = a, y = b; r = x / y;", (a, b, la, lb) -> Integer.toUnsignedLong(Integer.divideUnsigned(a, b))));
        c.add(ic("unsigned modulo", "unsigned int x = a, y = b; r = x % y;", (a, b, la, lb) -> Integer.toUnsignedLong(Integer.remainderUnsigned(a, b))));
        c.add(ic("signed division truncates toward zero", "r = a / b;", (a, b, la, lb) -> a / b));
        c.add(ic("signed modulo takes the dividend's sign", "r = a % b;", (a, b, la, lb) -> a % b));
        c.add(ic("small negative division and modulo", "int s = a % 1000; r = s / 7 * 100 + s % 7 + (s / -3) * 10000;",
                (a, b, la, lb) -> (a % 1000) / 7 * 100 + (a % 1000) % 7 + ((a % 1000) / -3) * 10000));
        c.add(ic("signed / unsigned converts to unsigned", "unsigned int y = (unsigned int) b; r = a / y;",
                (a, b, la, lb) -> Integer.toUnsignedLong(Integer.divideUnsigned(a, b))));
        c.add(ic("signed % unsigned converts to unsigned", "r = a % (unsigned int) b;",
                (a, b, la, lb) -> Integer.toUnsignedLong(Integer.remainderUnsigned(a, b))));
        c.add(ic("int / promoted unsigned char stays signed", "unsigned char y = (unsigned char) b; r = a / (y + 1);",
                (a, b, la, lb) -> a / ((b & 0xFF) + 1)));
        // shifts
        c.add(ic("left shift", "r = a << (b & 31);", (a, b, la, lb) -> a << (b & 31)));
        c.add(ic("signed right shift is arithmetic", "r = a >> (b & 31);", (a, b, la, lb) -> a >> (b & 31)));
        c.add(ic("unsigned right shift is logical", "r = (unsigned int) a >> (b & 31);", (a, b, la, lb) -> Integer.toUnsignedLong(a >>> (b & 31))));
        c.add(ic("unsigned shift assignments", "unsigned int u = a; u >>= 3; u <<= 1; r = u;", (a, b, la, lb) -> Integer.toUnsignedLong((a >>> 3) << 1)));
        c.add(ic("bitwise operators", "r = (a & b) ^ (a | ~b);", (a, b, la, lb) -> (a & b) ^ (a | ~b)));
        c.add(ic("|| short-circuits", "int k = 0; int t = (a > 0) || (k = 5); r = t * 10 + k;", (a, b, la, lb) -> a > 0 ? 10 : 15));
        c.add(ic("&& short-circuits", "int k = 0; int t = (a < 0) && ((k = 7) > 100); r = t * 10 + k;", (a, b, la, lb) -> a < 0 ? 7 : 0));
        c.add(ic("logical not and comparisons yield int", "r = !a + (a == b) * 2 + (a != b) * 4 + (a >= b) * 8;",
                (a, b, la, lb) -> (a == 0 ? 1 : 0) + (a == b ? 2 : 0) + (a != b ? 4 : 0) + (a >= b ? 8 : 0)));
        // literals
        c.add(ic("hex literal 0xFFFFFFFF is unsigned", "r = (a == 0xFFFFFFFF) ? 1 : 0; r += (0xFFFFFFFF >> 28) * 10;",
                (a, b, la, lb) -> (a == -1 ? 1 : 0) + 150));
        c.add(ic("decimal literal too big for int is long long", "r = 3000000000 + a;", (a, b, la, lb) -> 3000000000L + a));
        c.add(ic("1u << 31 is unsigned", "r = 1u << 31;", (a, b, la, lb) -> 0x8000_0000L));
        c.add(ic("character literals", "r = 'A' + (a & 7) - '\\0' + '\\n';", (a, b, la, lb) -> 'A' + (a & 7) + 10));
        // 64-bit
        c.add(ic("long long arithmetic", "r = la * lb + la / (lb | 1) - la % (lb | 1);", (a, b, la, lb) -> la * lb + la / (lb | 1) - la % (lb | 1)));
        c.add(ic("long long shifts", "r = (la >> (b & 63)) ^ (lb << (a & 63));", (a, b, la, lb) -> (la >> (b & 63)) ^ (lb << (a & 63))));
        c.add(ic("int product widened before multiply", "r = (long long) a * b;", (a, b, la, lb) -> (long) a * b));
        c.add(ic("int product wraps before widening", "r = a * b;", (a, b, la, lb) -> a * b));
        c.add(ic("unsigned long long division",
                "unsigned long long x = la, y = lb; r = (long long) (x / (y | 1ull));", (a, b, la, lb) -> Long.divideUnsigned(la, lb | 1)));
        c.add(ic("unsigned long long modulo",
                "unsigned long long x = la, y = lb; r = (long long) (x % (y | 1ull));", (a, b, la, lb) -> Long.remainderUnsigned(la, lb | 1)));
        c.add(ic("unsigned long long right shift is logical", "r = (long long) ((unsigned long long) la >> (b & 63));",
                (a, b, la, lb) -> la >>> (b & 63)));
        c.add(ic("unsigned long long comparison", "r = ((unsigned long long) la < (unsigned long long) lb) ? 1 : 0;",
                (a, b, la, lb) -> Long.compareUnsigned(la, lb) < 0 ? 1 : 0));
        c.add(ic("unsigned long long wraps",
                "unsigned long long x = la; x = x * 6364136223846793005ull + 1442695040888963407ull; r = (long long) x;",
                (a, b, la, lb) -> la * 6364136223846793005L + 1442695040888963407L));
        c.add(ic("unsigned int widens with zero extension", "unsigned int u = a; long long w = u; r = w;", (a, b, la, lb) -> Integer.toUnsignedLong(a)));
        c.add(ic("int widens to unsigned long long with sign extension", "unsigned long long w = a; r = (long long) w;", (a, b, la, lb) -> a));
        c.add(ic("long long narrows to int", "r = (int) la;", (a, b, la, lb) -> (int) la));
        c.add(ic("long long narrows to unsigned int", "unsigned int u = (unsigned int) la; r = u;", (a, b, la, lb) -> la & 0xFFFF_FFFFL));
        // operators and statements
        c.add(ic("ternary", "r = a > b ? a - b : b - a;", (a, b, la, lb) -> a > b ? a - b : b - a));
        c.add(ic("nested ternary", "r = a < 0 ? -1 : a == 0 ? 0 : 1;", (a, b, la, lb) -> Integer.signum(a)));
        c.add(ic("compound assignments on a local",
                "int x = a; x += b; x -= 3; x *= 5; x /= 7; x %= 1000; x <<= 2; x >>= 1; x &= 0xFFF0; x |= 5; x ^= b; r = x;",
                (a, b, la, lb) -> {
                    int x = a;
                    x += b;
                    x -= 3;
                    x *= 5;
                    x /= 7;
                    x %= 1000;
                    x <<= 2;
                    x >>= 1;
                    x &= 0xFFF0;
                    x |= 5;
                    x ^= b;
                    return x;
                }));
        c.add(ic("pre and post increment and decrement",
                "int x = a; int y = x++; int z = ++x; int w = x--; --x; r = (long long) y * 31 + z * 7 + w - x;",
                (a, b, la, lb) -> {
                    int x = a;
                    int y = x++;
                    int z = ++x;
                    int w = x--;
                    --x;
                    return (long) y * 31 + z * 7 + w - x;
                }));
        c.add(ic("compound assignments and ++ on local array elements",
                "int t[3] = {a, b, 0}; t[0] += t[1]; t[1] -= 2; t[2]++; ++t[2]; t[t[2] - 1]--; t[0] <<= 1;"
                        + " r = (long long) t[0] * 1000003 + (long long) t[1] * 7 + t[2];",
                (a, b, la, lb) -> (long) ((a + b) << 1) * 1000003 + (long) (b - 3) * 7 + 2));
        c.add(ic("comma operator", "int x = (a, b); int y; y = (x++, x + 1); r = (long long) x * 3 + y;",
                (a, b, la, lb) -> (long) (b + 1) * 3 + (b + 2)));
        c.add(ic("switch with fall-through and default", """
                int k = a & 7;
                int acc = 0;
                switch (k) {
                case 0: acc += 1;
                case 1: acc += 10; break;
                case 2:
                case 3: acc += 100; break;
                case 5: acc += 1000;
                default: acc += 10000;
                }
                r = acc;
                """, (a, b, la, lb) -> {
                    int acc = 0;
                    switch (a & 7) {
                        case 0:
                            acc += 1;
                        case 1:
                            acc += 10;
                            break;
                        case 2:
                        case 3:
                            acc += 100;
                            break;
                        case 5:
                            acc += 1000;
                        default:
                            acc += 10000;
                    }
                    return acc;
                }));
        c.add(ic("switch on negative values without default", """
                r = 4;
                switch (a % 3) {
                case -2: r = 1; break;
                case -1: r = 2; break;
                case 0: r = 3; break;
                }
                """, (a, b, la, lb) -> switch (a % 3) {
                    case -2 -> 1;
                    case -1 -> 2;
                    case 0 -> 3;
                    default -> 4;
                }));
        c.add(ic("do-while", """
                int x = a & 0xFFFF;
                int steps = 0;
                do {
                    x = (x & 1) ? 3 * x + 1 : x / 2;
                    steps++;
                } while (x > 1 && steps < 1000);
                r = steps;
                """, (a, b, la, lb) -> {
                    int x = a & 0xFFFF;
                    int steps = 0;
                    do {
                        x = (x & 1) != 0 ? 3 * x + 1 : x / 2;
                        steps++;
                    } while (x > 1 && steps < 1000);
                    return steps;
                }));
        c.add(ic("break and continue in nested loops", """
                int acc = 0;
                for (int p = 0; p < 10; p++) {
                    if (p == (b & 7) + 2) {
                        break;
                    }
                    for (int q = 0; q < 10; q++) {
                        if ((p + q + a) % 3 == 0) {
                            continue;
                        }
                        if (q > p) {
                            break;
                        }
                        acc += p * q + 1;
                    }
                }
                r = acc;
                """, (a, b, la, lb) -> {
                    int acc = 0;
                    for (int p = 0; p < 10; p++) {
                        if (p == (b & 7) + 2) {
                            break;
                        }
                        for (int q = 0; q < 10; q++) {
                            if ((p + q + a) % 3 == 0) {
                                continue;
                            }
                            if (q > p) {
                                break;
                            }
                            acc += p * q + 1;
                        }
                    }
                    return acc;
                }));
        c.add(ic("while with continue", "int k = 0; int s = 0; while (k < 20) { k++; if (k % 3 == (b & 1)) continue; s += k; } r = s;",
                (a, b, la, lb) -> {
                    int k = 0;
                    int s = 0;
                    while (k < 20) {
                        k++;
                        if (k % 3 == (b & 1)) {
                            continue;
                        }
                        s += k;
                    }
                    return s;
                }));
        c.add(ic("for with two variables and an unbraced body",
                "int s = 0; for (int p = 0, q = 10; p < q; p++, q--) s += p * q; r = s + a;",
                (a, b, la, lb) -> 0 * 10 + 1 * 9 + 2 * 8 + 3 * 7 + 4 * 6 + a));
        // local arrays and pointers to them
        c.add(ic("int array initializer zero-fills the rest",
                "int t[4] = {1, 2, 3}; t[(b & 1) + 2] += a; r = (long long) t[0] + t[1] * 10 + t[2] * 100 + (long long) t[3] * 1000;",
                (a, b, la, lb) -> {
                    int[] t = {1, 2, 3, 0};
                    t[(b & 1) + 2] += a;
                    return (long) t[0] + t[1] * 10 + t[2] * 100 + (long) t[3] * 1000;
                }));
        c.add(ic("float local array",
                "float t[8]; for (int k = 0; k < 8; k++) { t[k] = (float) (a % 100) * k; } float s = 0;"
                        + " for (int k = 7; k >= 0; k -= 2) { s += t[k]; } r = (long long) s;",
                (a, b, la, lb) -> (long) ((float) (a % 100) * 7 + (float) (a % 100) * 5 + (float) (a % 100) * 3 + (float) (a % 100))));
        c.add(ic("local array indexed by data", "int t[16]; for (int k = 0; k < 16; k++) { t[k] = k * k; } r = t[a & 15] - t[b & 15];",
                (a, b, la, lb) -> (a & 15) * (a & 15) - (b & 15) * (b & 15)));
        c.add(ic("pointer arithmetic on a local array",
                "int t[8]; for (int k = 0; k < 8; k++) { t[k] = a + k; } int* p = t; int* q = t + 7; p++; p += 2;"
                        + " int d = (int) (q - p); r = (long long) d * 1000000 + *(p + 1) - p[-1] + *q;",
                (a, b, la, lb) -> 4_000_000L + (a + 4) - (a + 2) + (a + 7)));
        c.add(ic("address-of a local and writing through the pointer",
                "int x = a; int* p = &x; *p += 5; (*p)++; r = x;", (a, b, la, lb) -> a + 6));
        // min, max, abs and bit intrinsics
        c.add(ic("min max abs on int", "r = (long long) min(a, b) * 3 + max(a, b) - abs(a % 100000);",
                (a, b, la, lb) -> (long) Math.min(a, b) * 3 + Math.max(a, b) - Math.abs(a % 100000)));
        c.add(ic("min max on unsigned int", "unsigned int x = a, y = b; r = (long long) min(x, y) + max(x, y);",
                (a, b, la, lb) -> Integer.toUnsignedLong(Integer.compareUnsigned(a, b) < 0 ? a : b)
                        + Integer.toUnsignedLong(Integer.compareUnsigned(a, b) < 0 ? b : a)));
        c.add(ic("min max on long long", "r = min(la, lb) - max(la, lb) / 2;", (a, b, la, lb) -> Math.min(la, lb) - Math.max(la, lb) / 2));
        c.add(ic("__popc", "r = __popc(a);", (a, b, la, lb) -> Integer.bitCount(a)));
        c.add(ic("__ffs", "r = __ffs(a);", (a, b, la, lb) -> a == 0 ? 0 : Integer.numberOfTrailingZeros(a) + 1));
        c.add(ic("__clz", "r = __clz(a);", (a, b, la, lb) -> Integer.numberOfLeadingZeros(a)));
        c.add(ic("__popcll __clzll __ffsll", "r = __popcll(la) * 10000 + __clzll(la) * 100 + __ffsll(la);",
                (a, b, la, lb) -> Long.bitCount(la) * 10000L + Long.numberOfLeadingZeros(la) * 100L
                        + (la == 0 ? 0 : Long.numberOfTrailingZeros(la) + 1)));
        c.add(ic("__brev", "r = __brev((unsigned int) a);", (a, b, la, lb) -> Integer.toUnsignedLong(Integer.reverse(a))));
        // preprocessor and device functions
        c.add(new IntCase("object-like and function-like macros", """
                #define SCALE 3
                #define SQ(x) ((x) * (x))
                #define ADD3(x, y, z) ((x) + (y) + (z))
                #define OFFSET (SCALE + 1)
                #define CLAMP(v, lo, hi) \\
                    ((v) < (lo) ? (lo) : \\
                     (v) > (hi) ? (hi) : (v))
                #if SCALE > 2
                #define BIG 1
                #else
                #define BIG 0
                #endif
                #ifndef UNDEFINED_THING
                #define HAVE_DEFAULT 1
                #endif
                #define TEMP 99
                #undef TEMP
                #ifdef TEMP
                #error TEMP should be undefined
                #endif
                """, "int s = a % 1000; r = SQ(s + 1) + ADD3(s, SCALE, OFFSET) * BIG + CLAMP(b, -50, 50) * SCALE + HAVE_DEFAULT;",
                (a, b, la, lb) -> {
                    int s = a % 1000;
                    return (s + 1) * (s + 1) + (s + 3 + 4) + Math.max(-50, Math.min(50, b)) * 3 + 1;
                }));
        c.add(new IntCase("__device__ helper functions", """
                __device__ int gcd(int x, int y)
                {
                    while (y != 0) {
                        int t = x % y;
                        x = y;
                        y = t;
                    }
                    return x;
                }
                __device__ long long square(int x) { return (long long) x * x; }
                __device__ int sumTo(const int* p, int n) { int s = 0; for (int k = 0; k < n; k++) s += p[k]; return s; }
                __device__ void addTo(int* p, int v) { *p += v; }
                __device__ int twice(int x) { return 2 * x; }
                __device__ int thrice(int x) { return twice(x) + x; }
                """, "int t[3] = {a & 255, b & 255, 7}; addTo(&t[2], 5);"
                        + " r = gcd(abs(a % 10000) + 1, abs(b % 10000) + 1) + square(a % 1000) + sumTo(t, 3) + thrice(b % 1000);",
                (a, b, la, lb) -> gcd(Math.abs(a % 10000) + 1, Math.abs(b % 10000) + 1) + (long) (a % 1000) * (a % 1000)
                        + (a & 255) + (b & 255) + 12 + 3 * (b % 1000)));
        c.add(new IntCase("inline and __forceinline__ helpers", """
                __device__ __forceinline__ int twice(int x) { return 2 * x; }
                __device__ inline int thrice(int x) { return twice(x) + x; }
                static __device__ int four(int x) { return thrice(x) + x; }
                """, "r = four(a % 1000) + thrice(b % 1000);", (a, b, la, lb) -> 4 * (a % 1000) + 3 * (b % 1000)));
        return c;
    }

    private static int gcd(int x, int y) {
        while (y != 0) {
            int t = x % y;
            x = y;
            y = t;
        }
        return x;
    }

    private static String intKernel(IntCase c) {
        return c.prelude() + """

                __global__ void probe(const int* A, const int* B, const long long* LA, const long long* LB, long long* out, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i >= n) {
                        return;
                    }
                    int a = A[i];
                    int b = B[i];
                    long long la = LA[i];
                    long long lb = LB[i];
                    long long r = 0;
                    {
                """ + c.body() + """

                    }
                    out[i] = r;
                }
                """;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("intCases")
    void integerSemantics(IntCase c) {
        KernelFunction k = kernel(dev, intKernel(c), "int-case.cu", "probe");
        UnifiedBuffer out = dev.allocate(N * 8L);
        run(dev, k, (N + 127) / 128, 128, KernelArgs.builder().pointer(ints(dev, A)).pointer(ints(dev, B))
                .pointer(longs(dev, LA)).pointer(longs(dev, LB)).pointer(out).i32(N).build());
        long[] got = readLongs(out, N);
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            long expected = c.ref().apply(A[i], B[i], LA[i], LB[i]);
            if (got[i] != expected) {
                bad.add("a=" + A[i] + " b=" + B[i] + " la=" + LA[i] + " lb=" + LB[i] + ": expected " + expected + ", got " + got[i]);
            }
        }
        reportMismatches(c.name(), bad);
    }

    private static void reportMismatches(String name, List<String> bad) {
        reportMismatches(name, bad, N);
    }

    private static void reportMismatches(String name, List<String> bad, int total) {
        if (!bad.isEmpty()) {
            fail(name + ": " + bad.size() + " of " + total + " inputs differ [seed " + SEED + "], first ones:\n  "
                    + String.join("\n  ", bad.subList(0, Math.min(5, bad.size()))));
        }
    }

    // =========================================================================================================
    // Floating-point conversions: r is a double, computed from int a, long long la, float f, double d.
    // =========================================================================================================

    interface FloatRef {
        double apply(int a, long la, float f, double d);
    }

    record FloatCase(String name, String body, FloatRef ref) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<FloatCase> floatCases() {
        List<FloatCase> c = new ArrayList<>();
        c.add(new FloatCase("float to int truncates toward zero", "r = (int) f;", (a, la, f, d) -> (int) f));
        c.add(new FloatCase("double to int truncates toward zero", "r = (int) (d / 1000.0);", (a, la, f, d) -> (int) (d / 1000.0)));
        c.add(new FloatCase("float to unsigned int", "r = (unsigned int) (f < 0 ? -f : f);", (a, la, f, d) -> (long) Math.abs(f)));
        c.add(new FloatCase("float to long long", "r = (double) (long long) (f * 1000.0f);", (a, la, f, d) -> (long) (f * 1000.0f)));
        c.add(new FloatCase("float to signed char via int", "r = (signed char) (int) (f / 1000.0f);", (a, la, f, d) -> (byte) (int) (f / 1000.0f)));
        c.add(new FloatCase("int to float rounds to nearest even", "float g = (float) a; r = g;", (a, la, f, d) -> (float) a));
        c.add(new FloatCase("implicit int to float in assignment", "float g = a; r = g;", (a, la, f, d) -> (float) a));
        c.add(new FloatCase("unsigned int to float", "float g = (float) (unsigned int) a; r = g;", (a, la, f, d) -> (float) Integer.toUnsignedLong(a)));
        c.add(new FloatCase("long long to float", "r = (float) la;", (a, la, f, d) -> (float) la));
        c.add(new FloatCase("long long to double", "r = (double) la;", (a, la, f, d) -> (double) la));
        c.add(new FloatCase("unsigned long long to double", "r = (double) (unsigned long long) la;",
                (a, la, f, d) -> new BigInteger(Long.toUnsignedString(la)).doubleValue()));
        c.add(new FloatCase("double to float rounds to nearest even", "float g = (float) d; r = g;", (a, la, f, d) -> (float) d));
        c.add(new FloatCase("float widens to double exactly", "double h = f; r = h * 3.0;", (a, la, f, d) -> (double) f * 3.0));
        c.add(new FloatCase("float arithmetic stays in float", "r = f / 3.0f;", (a, la, f, d) -> f / 3.0f));
        c.add(new FloatCase("a double literal promotes to double", "r = f / 3.0;", (a, la, f, d) -> f / 3.0));
        c.add(new FloatCase("integer division before conversion", "r = a / 2 * 1.5f;", (a, la, f, d) -> (float) (a / 2) * 1.5f));
        c.add(new FloatCase("1 / 2 is integer division", "r = 1 / 2 + 0.5;", (a, la, f, d) -> 0.5));
        c.add(new FloatCase("float literal forms", "r = 1.5e3f + 0x10 + 1e-3 + 2.f + .25f;",
                (a, la, f, d) -> (double) (1.5e3f + 0x10) + 1e-3 + 2.f + .25f));
        c.add(new FloatCase("float compound assignment", "float g = f; g += 1.5f; g *= 2; g -= a % 7; g /= 4; r = g;",
                (a, la, f, d) -> {
                    float g = f;
                    g += 1.5f;
                    g *= 2;
                    g -= a % 7;
                    g /= 4;
                    return g;
                }));
        c.add(new FloatCase("float increment and decrement", "float g = f; g++; ++g; g--; r = g;", (a, la, f, d) -> {
            float g = f;
            g++;
            ++g;
            g--;
            return g;
        }));
        c.add(new FloatCase("int compared with double", "r = (a < d) ? 1.0 : 0.0;", (a, la, f, d) -> a < d ? 1.0 : 0.0));
        c.add(new FloatCase("signed char to float", "signed char ch = (signed char) a; r = (float) ch / 2;", (a, la, f, d) -> (float) (byte) a / 2));
        c.add(new FloatCase("float ternary mixes with int", "r = f > 0 ? f : a;", (a, la, f, d) -> f > 0 ? f : (float) a));
        return c;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("floatCases")
    void floatingConversions(FloatCase c) {
        String src = """
                __global__ void probe(const int* A, const long long* LA, const float* F, const double* D, double* out, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i >= n) {
                        return;
                    }
                    int a = A[i];
                    long long la = LA[i];
                    float f = F[i];
                    double d = D[i];
                    double r = 0;
                    {
                """ + c.body() + """

                    }
                    out[i] = r;
                }
                """;
        KernelFunction k = kernel(dev, src, "float-case.cu", "probe");
        UnifiedBuffer out = dev.allocate(N * 8L);
        run(dev, k, (N + 127) / 128, 128, KernelArgs.builder().pointer(ints(dev, A)).pointer(longs(dev, LA))
                .pointer(floats(dev, F)).pointer(doubles(dev, D)).pointer(out).i32(N).build());
        double[] got = readDoubles(out, N);
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            double expected = c.ref().apply(A[i], LA[i], F[i], D[i]);
            if (Double.doubleToLongBits(got[i]) != Double.doubleToLongBits(expected)) {
                bad.add("a=" + A[i] + " la=" + LA[i] + " f=" + F[i] + " d=" + D[i] + ": expected " + expected + ", got " + got[i]);
            }
        }
        reportMismatches(c.name(), bad);
    }

    // =========================================================================================================
    // Pointers and array elements in global memory.
    // =========================================================================================================

    @Test
    void pointerArithmeticOnGlobalMemory() {
        String src = """
                __global__ void ptrs(const int* in, int* out, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i + 4 > n) {
                        return;
                    }
                    const int* p = in + i;
                    const int* q = &in[i + 3];
                    int* o = out + 5 * i;
                    *o = *(p + 1);
                    o++;
                    *o++ = p[2];
                    *o = (int) (q - p);
                    o += 1;
                    const int* s = p;
                    s++;
                    ++s;
                    s--;
                    o[0] = *s + *q;
                    o[1] = (int) (&o[1] - out) * 2 + (p < q ? 1 : 0);
                }
                """;
        int n = 1000;
        int[] in = Arrays.copyOf(A, n);
        UnifiedBuffer out = dev.allocate(5L * n * 4);
        dev.defaultStream().fill(out, 0, out.byteSize(), (byte) 0xFF);
        run(dev, kernel(dev, src, "ptrs.cu", "ptrs"), 4, 256, KernelArgs.builder().pointer(ints(dev, in)).pointer(out).i32(n).build());
        int[] got = readInts(out, 5 * n);
        for (int i = 0; i < n; i++) {
            int[] expected = i + 4 > n ? new int[] {-1, -1, -1, -1, -1}
                    : new int[] {in[i + 1], in[i + 2], 3, in[i + 1] + in[i + 3], (5 * i + 4) * 2 + 1};
            assertArrayEquals(expected, Arrays.copyOfRange(got, 5 * i, 5 * i + 5), "thread " + i + " [seed " + SEED + "]");
        }
    }

    @Test
    void compoundAssignmentsOnGlobalArrayElements() {
        String src = """
                __global__ void compound(int* xi, float* xf, unsigned int* xu, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        xi[i] += 5; xi[i] *= 3; xi[i]--; ++xi[i]; xi[i] <<= 1; xi[i] ^= 0x55; xi[i] %= 1000; xi[i] -= i;
                        int* p = &xi[i];
                        (*p)++;
                        xf[i] *= 2.0f; xf[i] += 1.0f; xf[i]++; xf[i] /= 4;
                        xu[i] -= 10u; xu[i] >>= 1; xu[i] |= 0x80000000u;
                    }
                }
                """;
        int n = N;
        UnifiedBuffer bi = ints(dev, A);
        UnifiedBuffer bf = floats(dev, F);
        UnifiedBuffer bu = ints(dev, B);
        run(dev, kernel(dev, src, "compound.cu", "compound"), (n + 63) / 64, 64,
                KernelArgs.builder().pointer(bi).pointer(bf).pointer(bu).i32(n).build());
        int[] gi = readInts(bi, n);
        float[] gf = readFloats(bf, n);
        int[] gu = readInts(bu, n);
        for (int i = 0; i < n; i++) {
            int x = A[i];
            x += 5;
            x *= 3;
            x--;
            ++x;
            x <<= 1;
            x ^= 0x55;
            x %= 1000;
            x -= i;
            x++;
            float y = F[i];
            y *= 2.0f;
            y += 1.0f;
            y++;
            y /= 4;
            int u = ((B[i] - 10) >>> 1) | 0x8000_0000;
            String at = " at " + i + " [seed " + SEED + "]";
            assertEquals(x, gi[i], "int element" + at);
            assertEquals(y, gf[i], "float element" + at);
            assertEquals(u, gu[i], "unsigned element" + at);
        }
    }

    // =========================================================================================================
    // Device functions: recursion is rejected at compile time.
    // =========================================================================================================

    @Test
    void recursionIsRejected() {
        String direct = """
                __device__ int fact(int n)
                {
                    return n <= 1 ? 1 : n * fact(n - 1);
                }
                __global__ void k(int* out) { out[0] = fact(5); }
                """;
        String mutual = """
                __device__ int odd(int n);
                __device__ int even(int n) { return n == 0 ? 1 : odd(n - 1); }
                __device__ int odd(int n) { return n == 0 ? 0 : even(n - 1); }
                __global__ void k(int* out) { out[0] = even(10); }
                """;
        for (String src : List.of(direct, mutual)) {
            CompileException e = assertThrows(CompileException.class, () -> dev.compile(src, "recursion.cu").function("k"));
            assertEquals(CudaError.COMPILATION_ERROR, e.error());
            assertFalse(e.diagnostics().isEmpty(), e.getMessage());
            assertTrue(e.getMessage().toLowerCase().contains("recurs"), "message should say recursion: " + e.getMessage());
            assertTrue(e.diagnostics().get(0).line() > 0, "diagnostic has a line: " + e.getMessage());
        }
    }

    // =========================================================================================================
    // Thread indexing.
    // =========================================================================================================

    @Test
    void threadAndBlockIndicesIn3d() {
        String src = """
                __global__ void ids(int* out)
                {
                    int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
                    int threads = blockDim.x * blockDim.y * blockDim.z;
                    int local = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
                    int g = block * threads + local;
                    int* o = out + g * 6;
                    o[0] = g;
                    o[1] = threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z;
                    o[2] = blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z;
                    o[3] = blockDim.x + 100 * blockDim.y + 10000 * blockDim.z;
                    o[4] = gridDim.x + 100 * gridDim.y + 10000 * gridDim.z;
                    o[5] = warpSize;
                }
                """;
        Dim3 grid = new Dim3(3, 2, 4);
        Dim3 block = new Dim3(8, 4, 3);
        int total = (int) (grid.volume() * block.volume());
        UnifiedBuffer out = dev.allocate(total * 6L * 4);
        dev.defaultStream().fill(out, 0, out.byteSize(), (byte) 0xFF);
        run(dev, kernel(dev, src, "ids.cu", "ids"), grid, block, 0, KernelArgs.builder().pointer(out).build());
        int[] got = readInts(out, total * 6);
        for (int bz = 0; bz < 4; bz++) {
            for (int by = 0; by < 2; by++) {
                for (int bx = 0; bx < 3; bx++) {
                    for (int tz = 0; tz < 3; tz++) {
                        for (int ty = 0; ty < 4; ty++) {
                            for (int tx = 0; tx < 8; tx++) {
                                int g = (bx + 3 * (by + 2 * bz)) * 96 + tx + 8 * (ty + 4 * tz);
                                int[] expected = {g, tx + 100 * ty + 10000 * tz, bx + 100 * by + 10000 * bz, 8 + 400 + 30000,
                                    3 + 200 + 40000, 32};
                                assertArrayEquals(expected, Arrays.copyOfRange(got, 6 * g, 6 * g + 6),
                                        "block (" + bx + "," + by + "," + bz + ") thread (" + tx + "," + ty + "," + tz + ")");
                            }
                        }
                    }
                }
            }
        }
    }

    // =========================================================================================================
    // Warp and block intrinsics.
    // =========================================================================================================

    @Test
    void warpShufflesAndVotes() {
        String src = """
                __global__ void warps(const int* in, int* out, float* fout, double* dout)
                {
                    int t = blockIdx.x * blockDim.x + threadIdx.x;
                    int lane = threadIdx.x % warpSize;
                    int v = in[t];
                    int* o = out + t * 9;
                    o[0] = __shfl_sync(0xffffffff, v, (lane * 7 + 3) & 31);
                    o[1] = __shfl_sync(0xffffffff, v, lane + 5, 16);
                    o[2] = __shfl_up_sync(0xffffffff, v, 3);
                    o[3] = __shfl_down_sync(0xffffffff, v, 5);
                    o[4] = __shfl_xor_sync(0xffffffff, v, 6);
                    o[5] = __ballot_sync(0xffffffff, v > 0);
                    o[6] = __any_sync(0xffffffff, v > 90) ? 1 : 0;
                    o[7] = __all_sync(0xffffffff, v >= 0) ? 1 : 0;
                    o[8] = lane == (threadIdx.x & 31) ? 1 : 0;
                    fout[t] = __shfl_xor_sync(0xffffffff, v * 0.5f, 1);
                    dout[2 * t] = __shfl_down_sync(0xffffffff, v * 0.25, 1);
                    dout[2 * t + 1] = __shfl_up_sync(0xffffffff, (double) v, 2, 8);
                }
                """;
        int blocks = 3;
        int threads = 64;
        int n = blocks * threads;
        Random r = new Random(SEED + 1);
        int[] in = new int[n];
        for (int t = 0; t < n; t++) {
            in[t] = t < 32 ? 1 + r.nextInt(100) : r.nextInt(201) - 100;
        }
        UnifiedBuffer out = dev.allocate(n * 9L * 4);
        UnifiedBuffer fout = dev.allocate(n * 4L);
        UnifiedBuffer dout = dev.allocate(n * 16L);
        run(dev, kernel(dev, src, "warps.cu", "warps"), blocks, threads,
                KernelArgs.builder().pointer(ints(dev, in)).pointer(out).pointer(fout).pointer(dout).build());
        double[] gotD = readDoubles(dout, 2 * n);
        int[] got = readInts(out, n * 9);
        float[] gotF = readFloats(fout, n);
        for (int t = 0; t < n; t++) {
            int lane = t % 32;
            int base = t - lane;
            int ballot = 0;
            boolean any = false;
            boolean all = true;
            for (int j = 0; j < 32; j++) {
                ballot |= in[base + j] > 0 ? 1 << j : 0;
                any |= in[base + j] > 90;
                all &= in[base + j] >= 0;
            }
            int[] expected = {
                in[base + ((lane * 7 + 3) & 31)],
                in[base + (lane & ~15) + ((lane + 5) & 15)],
                lane < 3 ? in[t] : in[t - 3],
                lane + 5 >= 32 ? in[t] : in[t + 5],
                in[base + (lane ^ 6)],
                ballot,
                any ? 1 : 0,
                all ? 1 : 0,
                1};
            assertArrayEquals(expected, Arrays.copyOfRange(got, 9 * t, 9 * t + 9),
                    "thread " + t + " (shfl, shfl width 16, up, down, xor, ballot, any, all, lane) [seed " + SEED + "]");
            assertEquals(in[base + (lane ^ 1)] * 0.5f, gotF[t], "float __shfl_xor_sync at " + t);
            assertEquals((lane == 31 ? in[t] : in[t + 1]) * 0.25, gotD[2 * t], "double __shfl_down_sync at " + t);
            assertEquals(lane % 8 < 2 ? in[t] : in[t - 2], gotD[2 * t + 1], "double __shfl_up_sync width 8 at " + t);
        }
        assertTrue(got[7] == 1 && got[9 * 32 + 7] == 0, "__all_sync should be true in warp 0 and false in warp 1");
    }

    @Test
    void syncthreadsCountAndOr() {
        String src = """
                __global__ void votes(const int* in, int* out)
                {
                    int t = blockIdx.x * blockDim.x + threadIdx.x;
                    int v = in[t];
                    int c = __syncthreads_count(v > 0);
                    int all = __syncthreads_and(v > -95);
                    int any = __syncthreads_or(v > 98);
                    out[3 * t] = c;
                    out[3 * t + 1] = all ? 1 : 0;
                    out[3 * t + 2] = any ? 1 : 0;
                }
                """;
        int blocks = 6;
        int threads = 100;
        Random r = new Random(SEED + 2);
        int[] in = new int[blocks * threads];
        for (int t = 0; t < in.length; t++) {
            in[t] = t < threads ? r.nextInt(90) : r.nextInt(201) - 100;
        }
        UnifiedBuffer out = dev.allocate(in.length * 3L * 4);
        run(dev, kernel(dev, src, "votes.cu", "votes"), blocks, threads, KernelArgs.builder().pointer(ints(dev, in)).pointer(out).build());
        int[] got = readInts(out, in.length * 3);
        for (int bl = 0; bl < blocks; bl++) {
            int count = 0;
            boolean all = true;
            boolean any = false;
            for (int j = 0; j < threads; j++) {
                int v = in[bl * threads + j];
                count += v > 0 ? 1 : 0;
                all &= v > -95;
                any |= v > 98;
            }
            for (int j = 0; j < threads; j++) {
                int t = bl * threads + j;
                assertArrayEquals(new int[] {count, all ? 1 : 0, any ? 1 : 0}, Arrays.copyOfRange(got, 3 * t, 3 * t + 3),
                        "block " + bl + " thread " + j + " [seed " + SEED + "]");
            }
        }
    }

    // =========================================================================================================
    // Atomics under contention: 64 blocks of 256 threads on a handful of addresses.
    // =========================================================================================================

    private static final int AB = 64;
    private static final int AT = 256;
    private static final int AN = AB * AT;

    private static int[] atomicValues() {
        Random r = new Random(SEED + 3);
        int[] v = new int[AN];
        for (int i = 0; i < AN; i++) {
            v[i] = i % 5 == 0 ? r.nextInt(2001) - 1000 : r.nextInt();
        }
        return v;
    }

    @Test
    void intAtomicsUnderContention() {
        String src = """
                __global__ void atomicsInt(int* c, const int* vals, int* olds, int* exch, int n)
                {
                    int t = blockIdx.x * blockDim.x + threadIdx.x;
                    if (t >= n) {
                        return;
                    }
                    int v = vals[t];
                    olds[t] = atomicAdd(&c[0], 1);
                    atomicAdd(&c[1], (t % 7) - 3);
                    atomicSub(&c[2], 2);
                    exch[t] = atomicExch(&c[3], t + 1);
                    atomicMin(&c[4], v);
                    atomicMax(&c[5], v);
                    atomicAnd(&c[6], ~(1 << (t % 31)));
                    atomicOr(&c[7], 1 << (t % 32));
                    atomicXor(&c[8], v);
                    int old = c[9];
                    int assumed;
                    do {
                        assumed = old;
                        old = atomicCAS(&c[9], assumed, assumed + 3);
                    } while (old != assumed);
                    if (atomicCAS(&c[10 + (t % 16)], 0, t + 1) == 0) {
                        atomicAdd(&c[26], 1);
                    }
                }
                """;
        int[] vals = atomicValues();
        int[] init = new int[27];
        init[4] = Integer.MAX_VALUE;
        init[5] = Integer.MIN_VALUE;
        init[6] = -1;
        UnifiedBuffer c = ints(dev, init);
        UnifiedBuffer olds = dev.allocate(AN * 4L);
        UnifiedBuffer exch = dev.allocate(AN * 4L);
        run(dev, kernel(dev, src, "atomics-int.cu", "atomicsInt"), AB, AT,
                KernelArgs.builder().pointer(c).pointer(ints(dev, vals)).pointer(olds).pointer(exch).i32(AN).build());
        int[] got = readInts(c, 27);
        int sum1 = 0;
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        int xor = 0;
        for (int t = 0; t < AN; t++) {
            sum1 += t % 7 - 3;
            min = Math.min(min, vals[t]);
            max = Math.max(max, vals[t]);
            xor ^= vals[t];
        }
        int[] o = readInts(olds, AN);
        Arrays.sort(o);
        int[] e = Arrays.copyOf(readInts(exch, AN), AN + 1);
        e[AN] = got[3];
        Arrays.sort(e);
        int[] iota = new int[AN + 1];
        Arrays.setAll(iota, i -> i);
        final int s1 = sum1;
        final int mn = min;
        final int mx = max;
        final int x = xor;
        assertAll("int atomics [seed " + SEED + "]",
                () -> assertEquals(AN, got[0], "atomicAdd count"),
                () -> assertArrayEquals(Arrays.copyOf(iota, AN), o, "atomicAdd returns each old value once"),
                () -> assertEquals(s1, got[1], "atomicAdd of mixed signs"),
                () -> assertEquals(-2 * AN, got[2], "atomicSub"),
                () -> assertArrayEquals(iota, e, "atomicExch: the old values and the final value are 0..n once each"),
                () -> assertEquals(mn, got[4], "atomicMin"),
                () -> assertEquals(mx, got[5], "atomicMax"),
                () -> assertEquals(Integer.MIN_VALUE, got[6], "atomicAnd"),
                () -> assertEquals(-1, got[7], "atomicOr"),
                () -> assertEquals(x, got[8], "atomicXor"),
                () -> assertEquals(3 * AN, got[9], "atomicCAS loop"),
                () -> assertEquals(16, got[26], "exactly one atomicCAS wins each slot"),
                () -> {
                    for (int s = 0; s < 16; s++) {
                        assertEquals(s, (got[10 + s] - 1) % 16, "slot " + s + " holds a thread of its own residue");
                    }
                });
    }

    @Test
    void unsignedAtomicsUnderContention() {
        String src = """
                __global__ void atomicsUnsigned(unsigned int* c, const int* vals, int n)
                {
                    int t = blockIdx.x * blockDim.x + threadIdx.x;
                    if (t >= n) {
                        return;
                    }
                    unsigned int v = (unsigned int) vals[t];
                    atomicAdd(&c[0], 1u);
                    atomicMin(&c[1], v);
                    atomicMax(&c[2], v);
                    atomicInc(&c[3], 1000u);
                    atomicDec(&c[4], 1000u);
                    atomicSub(&c[5], 3u);
                    atomicExch(&c[6], 7u);
                    atomicCAS(&c[7], 0u, v | 1u);
                }
                """;
        int[] vals = atomicValues();
        int[] init = {0xFFFF_FF00, -1, 0, 0, 5, 10, 0, 0};
        UnifiedBuffer c = ints(dev, init);
        run(dev, kernel(dev, src, "atomics-unsigned.cu", "atomicsUnsigned"), AB, AT,
                KernelArgs.builder().pointer(c).pointer(ints(dev, vals)).i32(AN).build());
        int[] got = readInts(c, 8);
        int umin = -1;
        int umax = 0;
        int inc = 0;
        int dec = 5;
        for (int t = 0; t < AN; t++) {
            umin = Integer.compareUnsigned(vals[t], umin) < 0 ? vals[t] : umin;
            umax = Integer.compareUnsigned(vals[t], umax) > 0 ? vals[t] : umax;
            inc = Integer.compareUnsigned(inc, 1000) >= 0 ? 0 : inc + 1;
            dec = dec == 0 || Integer.compareUnsigned(dec, 1000) > 0 ? 1000 : dec - 1;
        }
        final int mn = umin;
        final int mx = umax;
        final int in = inc;
        final int de = dec;
        assertAll("unsigned atomics [seed " + SEED + "]",
                () -> assertEquals(AN - 256, got[0], "atomicAdd wraps past 2^32"),
                () -> assertEquals(mn, got[1], "unsigned atomicMin"),
                () -> assertEquals(mx, got[2], "unsigned atomicMax"),
                () -> assertEquals(in, got[3], "atomicInc wraps at the limit"),
                () -> assertEquals(de, got[4], "atomicDec wraps at 0"),
                () -> assertEquals(10 - 3 * AN, got[5], "unsigned atomicSub wraps"),
                () -> assertEquals(7, got[6], "atomicExch"),
                () -> assertTrue((got[7] & 1) == 1 && Arrays.stream(vals).anyMatch(v -> (v | 1) == got[7]),
                        "atomicCAS stored one thread's value: " + got[7]));
    }

    @Test
    void wideAndFloatingAtomicsUnderContention() {
        String src = """
                __global__ void atomicsWide(unsigned long long* cl, float* cf, double* cd, const int* vals, int n)
                {
                    int t = blockIdx.x * blockDim.x + threadIdx.x;
                    if (t >= n) {
                        return;
                    }
                    atomicAdd(&cl[0], (1ull << 33) + t);
                    unsigned long long old = cl[1];
                    unsigned long long assumed;
                    do {
                        assumed = old;
                        old = atomicCAS(&cl[1], assumed, assumed + (1ull << 40));
                    } while (old != assumed);
                    atomicExch(&cl[2], 0xFFFFFFFF00000000ull);
                    atomicAdd(&cf[0], 1.0f);
                    atomicAdd(&cf[1], 0.5f);
                    atomicExch(&cf[2], -2.5f);
                    atomicAdd(&cd[0], 0.25);
                    atomicAdd(&cd[1], (double) vals[t]);
                }
                """;
        int[] vals = atomicValues();
        UnifiedBuffer cl = dev.allocate(3 * 8);
        UnifiedBuffer cf = dev.allocate(3 * 4);
        UnifiedBuffer cd = dev.allocate(2 * 8);
        run(dev, kernel(dev, src, "atomics-wide.cu", "atomicsWide"), AB, AT,
                KernelArgs.builder().pointer(cl).pointer(cf).pointer(cd).pointer(ints(dev, vals)).i32(AN).build());
        long[] l = readLongs(cl, 3);
        float[] f = readFloats(cf, 3);
        double[] d = readDoubles(cd, 2);
        double sum = 0;
        for (int v : vals) {
            sum += v;
        }
        final double s = sum;
        assertAll("64-bit and floating-point atomics [seed " + SEED + "]",
                () -> assertEquals((long) AN * (1L << 33) + (long) AN * (AN - 1) / 2, l[0], "unsigned long long atomicAdd"),
                () -> assertEquals((long) AN << 40, l[1], "unsigned long long atomicCAS loop"),
                () -> assertEquals(0xFFFF_FFFF_0000_0000L, l[2], "unsigned long long atomicExch"),
                () -> assertEquals(AN, f[0], "float atomicAdd of 1"),
                () -> assertEquals(AN / 2f, f[1], "float atomicAdd of 0.5"),
                () -> assertEquals(-2.5f, f[2], "float atomicExch"),
                () -> assertEquals(AN / 4.0, d[0], "double atomicAdd of 0.25"),
                () -> assertEquals(s, d[1], "double atomicAdd of integers (exact in any order)"));
    }

    // =========================================================================================================
    // Math library, float and double, against java.lang.Math within CUDA's documented ulp bounds (+1 for the
    // reference's own rounding).
    // =========================================================================================================

    /** Input generator: the argument with index {@code arg} for element {@code i}. */
    interface Domain {
        double at(Random r, int i, int arg);
    }

    record MathCase(String expr, boolean isFloat, int arity, Domain domain, Ref ref, long maxUlps, int count) {
        MathCase(String expr, boolean isFloat, int arity, Domain domain, Ref ref, long maxUlps) {
            this(expr, isFloat, arity, domain, ref, maxUlps, N);
        }

        @Override
        public String toString() {
            return expr;
        }
    }

    interface Ref {
        double apply(double a, double b, double c);
    }

    private static Domain range(double lo, double hi) {
        return (r, i, arg) -> lo + (hi - lo) * r.nextDouble();
    }

    /** Includes exact halves and integers, where rounding functions differ. */
    private static final Domain ROUNDING = (r, i, arg) -> switch (i % 4) {
        case 0 -> (r.nextInt(2001) - 1000) / 2.0;
        case 1 -> r.nextInt(201) - 100;
        default -> (r.nextDouble() * 2 - 1) * 1000;
    };

    /** Includes NaNs, where fmin/fmax return the other argument. */
    private static final Domain WITH_NAN = (r, i, arg) -> (i + arg) % 17 == 0 ? Double.NaN : (r.nextDouble() * 2 - 1) * 100;

    private static final Domain POW = (r, i, arg) -> {
        if (i % 10 == 0) {
            return arg == 0 ? -(0.5 + 10 * r.nextDouble()) : r.nextInt(11) - 5;
        }
        return arg == 0 ? 0.01 + 99.99 * r.nextDouble() : -5 + 10 * r.nextDouble();
    };

    private static final Domain FMA = (r, i, arg) -> (r.nextDouble() * 2 - 1) * (arg == 2 ? 1e3 : 1e2) + 1.0 / 3;

    private static Ref unary(DoubleUnaryOperator f) {
        return (a, b, c) -> f.applyAsDouble(a);
    }

    private static Ref binary(DoubleBinaryOperator f) {
        return (a, b, c) -> f.applyAsDouble(a, b);
    }

    private static double fmin(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
    }

    private static double fmax(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }

    private static double roundHalfAway(double x) {
        return Math.copySign(Math.floor(Math.abs(x) + 0.5), x);
    }

    private static final MathContext MC = new MathContext(60);
    private static final BigDecimal TWO_OVER_SQRT_PI = BigDecimal.valueOf(2).divide(
            new BigDecimal("3.14159265358979323846264338327950288419716939937510582097494459").sqrt(MC), MC);

    /** erf by its Taylor series in 60-digit decimal arithmetic (|x| <= 4: the terms stay far below 60 digits). */
    static double erf(double x) {
        BigDecimal bx = new BigDecimal(x);
        BigDecimal x2 = bx.multiply(bx, MC);
        BigDecimal term = bx;
        BigDecimal sum = BigDecimal.ZERO;
        for (int n = 0; n < 400; n++) {
            BigDecimal t = term.divide(BigDecimal.valueOf(2L * n + 1), MC);
            sum = sum.add(t, MC);
            if (t.abs().compareTo(new BigDecimal("1e-40")) < 0 && n > 4) {
                break;
            }
            term = term.multiply(x2, MC).negate().divide(BigDecimal.valueOf(n + 1), MC);
        }
        return sum.multiply(TWO_OVER_SQRT_PI, MC).doubleValue();
    }

    /** erf by its Taylor series in double: about 1e-10 relative error for |x| <= 4, plenty for a float result. */
    static double erfFloatRef(double x) {
        double x2 = x * x;
        double term = x;
        double sum = 0;
        for (int n = 0; n < 200; n++) {
            double t = term / (2 * n + 1);
            sum += t;
            if (Math.abs(t) < 1e-20 && n > 4) {
                break;
            }
            term = -term * x2 / (n + 1);
        }
        return sum * 1.1283791670955126;
    }

    static List<MathCase> mathCases() {
        List<MathCase> c = new ArrayList<>();
        for (boolean fl : new boolean[] {true, false}) {
            String s = fl ? "f" : "";
            c.add(new MathCase("sqrt" + s + "(a)", fl, 1, range(0, 1e4), unary(Math::sqrt), 0));
            c.add(new MathCase("exp" + s + "(a)", fl, 1, range(-50, 50), unary(Math::exp), fl ? 3 : 2));
            c.add(new MathCase("log" + s + "(a)", fl, 1, range(1e-3, 1e4), unary(Math::log), 2));
            c.add(new MathCase("sin" + s + "(a)", fl, 1, range(-100, 100), unary(Math::sin), 3));
            c.add(new MathCase("cos" + s + "(a)", fl, 1, range(-100, 100), unary(Math::cos), 3));
            c.add(new MathCase("tanh" + s + "(a)", fl, 1, range(-10, 10), unary(Math::tanh), fl ? 3 : 2));
            // The double reference is a 60-digit series, slow enough to test fewer points.
            c.add(fl ? new MathCase("erff(a)", true, 1, range(-4, 4), unary(KernelConformanceTest::erfFloatRef), 3)
                    : new MathCase("erf(a)", false, 1, range(-4, 4), unary(KernelConformanceTest::erf), 3, 256));
            c.add(new MathCase("pow" + s + "(a, b)", fl, 2, POW, binary(Math::pow), fl ? 5 : 3));
            c.add(new MathCase("fmin" + s + "(a, b)", fl, 2, WITH_NAN, binary(KernelConformanceTest::fmin), 0));
            c.add(new MathCase("fmax" + s + "(a, b)", fl, 2, WITH_NAN, binary(KernelConformanceTest::fmax), 0));
            c.add(new MathCase("floor" + s + "(a)", fl, 1, ROUNDING, unary(Math::floor), 0));
            c.add(new MathCase("ceil" + s + "(a)", fl, 1, ROUNDING, unary(Math::ceil), 0));
            c.add(new MathCase("round" + s + "(a)", fl, 1, ROUNDING, unary(KernelConformanceTest::roundHalfAway), 0));
            c.add(new MathCase("fabs" + s + "(a)", fl, 1, range(-1e3, 1e3), unary(Math::abs), 0));
            c.add(new MathCase("rsqrt" + s + "(a)", fl, 1, range(1e-3, 1e4), unary(x -> 1 / Math.sqrt(x)), fl ? 3 : 2));
            // fma: the reference is fused in the argument type (a double fma of floats is exact, then rounded once).
            c.add(new MathCase("fma" + s + "(a, b, c)", fl, 3, FMA,
                    fl ? (a, b, x) -> Math.fma((float) a, (float) b, (float) x) : Math::fma, 0));
        }
        return c;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mathCases")
    void mathFunctions(MathCase m) {
        String t = m.isFloat() ? "float" : "double";
        String src = """
                __global__ void probe(const T* X, const T* Y, const T* Z, T* out, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        T a = X[i];
                        T b = Y[i];
                        T c = Z[i];
                        out[i] = EXPR;
                    }
                }
                """.replace("T", t).replace("EXPR", m.expr());
        KernelFunction k = kernel(dev, src, "math.cu", "probe");
        Random r = new Random(SEED + m.expr().hashCode());
        int n = m.count();
        double[][] in = new double[3][n];
        for (int arg = 0; arg < 3; arg++) {
            for (int i = 0; i < n; i++) {
                double v = arg < m.arity() ? m.domain().at(r, i, arg) : 0;
                in[arg][i] = m.isFloat() ? (float) v : v;
            }
        }
        UnifiedBuffer out = dev.allocate(n * 8L);
        KernelArgs.Builder args = KernelArgs.builder();
        for (int arg = 0; arg < 3; arg++) {
            if (m.isFloat()) {
                float[] f = new float[n];
                for (int i = 0; i < n; i++) {
                    f[i] = (float) in[arg][i];
                }
                args.pointer(floats(dev, f));
            } else {
                args.pointer(doubles(dev, in[arg]));
            }
        }
        run(dev, k, (n + 127) / 128, 128, args.pointer(out).i32(n).build());
        float[] gotF = m.isFloat() ? readFloats(out, n) : null;
        double[] gotD = m.isFloat() ? null : readDoubles(out, n);
        List<String> bad = new ArrayList<>();
        long worst = 0;
        for (int i = 0; i < n; i++) {
            double exact = m.ref().apply(in[0][i], in[1][i], in[2][i]);
            long ulps;
            String got;
            if (m.isFloat()) {
                ulps = ulpsFloat((float) exact, gotF[i]);
                got = Float.toString(gotF[i]);
            } else {
                ulps = ulpsDouble(exact, gotD[i]);
                got = Double.toString(gotD[i]);
            }
            worst = Math.max(worst, ulps);
            if (ulps > m.maxUlps()) {
                bad.add("a=" + in[0][i] + " b=" + in[1][i] + " c=" + in[2][i] + ": expected "
                        + (m.isFloat() ? Float.toString((float) exact) : Double.toString(exact)) + ", got " + got
                        + " (" + ulps + " ulp)");
            }
        }
        reportMismatches(m.expr() + " (at most " + m.maxUlps() + " ulp; worst " + worst + ")", bad, n);
    }
}
