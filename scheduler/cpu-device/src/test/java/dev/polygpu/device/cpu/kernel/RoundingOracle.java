package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * What x86-64's own rounding modes give for add, sub, mul, div, fma, sqrt and rcp toward zero, +infinity and
 * -infinity: a C program compiled with gcc sets each mode with {@code fesetround} and computes the operations
 * on given operands (SSE arithmetic and square root, glibc's {@code fma}/{@code fmaf}), so every expected bit comes
 * from the processor. Used by the engine's and the PTX interpreter's tests of directed rounding. Operands: zeros,
 * the smallest subnormals, the largest values, pairs that cancel exactly or nearly, and random bit patterns.
 */
public final class RoundingOracle {
    /** The seed of the random operands. */
    public static final long SEED = 0xD1EC7EDL;
    /** The modes in result order, as CUDA's intrinsics name them. */
    public static final String[] MODES = {"rz", "ru", "rd"};
    /** The operations in result order. */
    public static final String[] OPS = {"add", "sub", "mul", "div", "fma", "sqrt", "rcp"};
    /** Results per operand triple: for each mode, each operation ({@code sqrt} and {@code rcp} of the first). */
    public static final int PER = 21;
    /** Why a test skips without gcc. */
    public static final String NO_GCC = "gcc is not installed: the expected values come from the processor's"
            + " rounding modes";
    private static final String[] C_MODES = {"FE_TOWARDZERO", "FE_UPWARD", "FE_DOWNWARD"};

    private RoundingOracle() {
    }

    /** Where result {@code i} came from, for a failure message. */
    public static String describe(int i, double a, double b, double c) {
        int r = i % PER;
        return OPS[r % 7] + "_" + MODES[r / 7] + " of element " + i / PER + ": a=" + a + " b=" + b + " c=" + c
                + " (seed " + Long.toHexString(SEED) + ")";
    }

    /** Three columns of float operands (a, b, c). */
    public static float[][] floatOperands() {
        List<float[]> l = new ArrayList<>();
        float[] special = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE,
            -Float.MAX_VALUE, 1f, -1f, 3f, 0.1f, Float.POSITIVE_INFINITY, Float.NaN, 1e-40f, 7e37f};
        for (float a : special) {
            for (float b : special) {
                l.add(new float[] {a, b, -a * b});
            }
        }
        Random r = new Random(SEED);
        for (int i = 0; i < 600; i++) {
            float a = randomFloat(r);
            float b = switch (i % 4) {
                case 0 -> -a; // exact cancellation
                case 1 -> -Math.nextUp(a);
                default -> randomFloat(r);
            };
            float c = i % 3 == 0 ? -(a * b) : randomFloat(r);
            l.add(new float[] {a, b, c});
        }
        float[][] cols = new float[3][l.size()];
        for (int i = 0; i < l.size(); i++) {
            for (int j = 0; j < 3; j++) {
                cols[j][i] = l.get(i)[j];
            }
        }
        return cols;
    }

    /** Random bits, mostly of moderate exponent so that sums and products stay finite, some of any exponent. */
    private static float randomFloat(Random r) {
        if (r.nextInt(4) == 0) {
            return Float.intBitsToFloat(r.nextInt());
        }
        return (float) (r.nextGaussian() * Math.pow(2, r.nextInt(40) - 20));
    }

    /** Three columns of double operands (a, b, c). */
    public static double[][] doubleOperands() {
        List<double[]> l = new ArrayList<>();
        double[] special = {0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE,
            -Double.MAX_VALUE, 1.0, -1.0, 3.0, 0.1, Double.NEGATIVE_INFINITY, Double.NaN, 1e-310, 1e308};
        for (double a : special) {
            for (double b : special) {
                l.add(new double[] {a, b, -a * b});
            }
        }
        Random r = new Random(SEED);
        for (int i = 0; i < 600; i++) {
            double a = r.nextInt(4) == 0 ? Double.longBitsToDouble(r.nextLong())
                    : r.nextGaussian() * Math.pow(2, r.nextInt(80) - 40);
            double b = switch (i % 4) {
                case 0 -> -a;
                case 1 -> -Math.nextUp(a);
                default -> r.nextInt(4) == 0 ? Double.longBitsToDouble(r.nextLong())
                        : r.nextGaussian() * Math.pow(2, r.nextInt(80) - 40);
            };
            double c = i % 3 == 0 ? -(a * b) : r.nextGaussian();
            l.add(new double[] {a, b, c});
        }
        double[][] cols = new double[3][l.size()];
        for (int i = 0; i < l.size(); i++) {
            for (int j = 0; j < 3; j++) {
                cols[j][i] = l.get(i)[j];
            }
        }
        return cols;
    }

    /**
     * The results of a C program that computes every operation in every mode on {@code operands} (float[][] or
     * double[][] columns); one word of bits per result, {@link #PER} per operand triple.
     */
    public static long[] processor(Path dir, Object operands, String type, String bitsType, String format,
            String fma, String sqrt, int n) throws IOException, InterruptedException {
        StringBuilder c = new StringBuilder("#include <fenv.h>\n#include <math.h>\n#include <stdio.h>\n"
                + "#include <string.h>\n#pragma STDC FENV_ACCESS ON\n");
        c.append("static ").append(bitsType).append(" bits(").append(type).append(" v) { ").append(bitsType)
                .append(" u; memcpy(&u, &v, sizeof u); return u; }\n");
        c.append("static ").append(type).append(" val(").append(bitsType).append(" u) { ").append(type)
                .append(" v; memcpy(&v, &u, sizeof v); return v; }\n");
        for (int col = 0; col < 3; col++) {
            c.append("static const ").append(bitsType).append(" in").append(col).append("[] = {");
            for (int i = 0; i < n; i++) {
                c.append(i > 0 ? "," : "").append(hex(operands, col, i)).append(type.equals("float") ? "u" : "ull");
            }
            c.append("};\n");
        }
        c.append("int main(void) {\n  const int modes[] = {").append(String.join(", ", C_MODES)).append("};\n")
                .append("  for (int i = 0; i < ").append(n).append("; i++) {\n")
                .append("    volatile ").append(type).append(" x = val(in0[i]), y = val(in1[i]), z = val(in2[i]);\n")
                .append("    for (int m = 0; m < 3; m++) {\n      fesetround(modes[m]);\n")
                .append("      volatile ").append(type).append(" r[7];\n")
                .append("      r[0] = x + y; r[1] = x - y; r[2] = x * y; r[3] = x / y;\n")
                .append("      r[4] = ").append(fma).append("(x, y, z); r[5] = ").append(sqrt).append("(x);")
                .append(" r[6] = (").append(type).append(") 1 / x;\n")
                .append("      fesetround(FE_TONEAREST);\n")
                .append("      for (int j = 0; j < 7; j++) printf(\"").append(format).append("\\n\", bits(r[j]));\n")
                .append("    }\n  }\n  return 0;\n}\n");
        Path src = dir.resolve("directed.c");
        Files.writeString(src, c);
        Path exe = dir.resolve("directed");
        Process cc = new ProcessBuilder("gcc", "-O0", "-frounding-math", "-fno-builtin", "-o", exe.toString(),
                src.toString(), "-lm").redirectErrorStream(true).start();
        String ccOut = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(120, TimeUnit.SECONDS) && cc.exitValue() == 0, "gcc failed: " + ccOut);
        Process run = new ProcessBuilder(exe.toString()).start();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(run.waitFor(60, TimeUnit.SECONDS) && run.exitValue() == 0);
        List<String> lines = out.lines().toList();
        assertEquals(PER * n, lines.size(), "results from the C program");
        long[] r = new long[lines.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = Long.parseUnsignedLong(lines.get(i), 16);
        }
        return r;
    }

    private static String hex(Object operands, int col, int i) {
        if (operands instanceof float[][] f) {
            return "0x" + Integer.toHexString(Float.floatToRawIntBits(f[col][i]));
        }
        return "0x" + Long.toHexString(Double.doubleToRawLongBits(((double[][]) operands)[col][i]));
    }

    /** True if gcc is there to compile a C program (this one, or another test's). */
    public static boolean hasGcc() {
        try {
            Process p = new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
