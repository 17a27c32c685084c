package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The safety helpers the generator emits (checked and wrapping arithmetic, division, negation, signed left
 * shifts, clamped floating-to-integer conversions) are free of undefined behaviour for every edge value: their
 * C text, compiled by g++ with UBSan (overflow, shifts, division, float-cast-overflow) and called on all pairs
 * of edge values, runs to the end. Also checks that the clamped conversions agree with a Java model of what
 * they should return.
 */
@Timeout(180)
class HelpersUbTest {
    private static final List<Prim> SIGNED = List.of(Prim.INT, Prim.LONG, Prim.LLONG);
    private static final List<Prim> ALL_INT = List.of(Prim.BOOL, Prim.CHAR, Prim.SCHAR, Prim.UCHAR, Prim.SHORT,
            Prim.USHORT, Prim.INT, Prim.UINT, Prim.LONG, Prim.ULONG, Prim.LLONG, Prim.ULLONG);

    private static String edges(Prim t) {
        return switch (t) {
            case INT -> "{(-2147483647 - 1), -2147483647, -65536, -46341, -2, -1, 0, 1, 2, 46341, 65536, 2147483646,"
                    + " 2147483647}";
            case LONG, LLONG -> "{(-9223372036854775807LL - 1), -9223372036854775807LL, -3037000500LL, -1, 0, 1,"
                    + " 3037000500LL, 4294967296LL, 9223372036854775807LL}";
            case UINT -> "{0u, 1u, 2u, 31u, 32u, 4294967295u}";
            case ULONG, ULLONG -> "{0ull, 1ull, 63ull, 64ull, 18446744073709551615ull}";
            case FLOAT -> "{0.0f, -0.0f, 1.5f, -0.9f, -1.0f, 127.9f, 128.0f, -129.0f, 255.5f, 256.0f, 32768.0f, 65536.0f,"
                    + " 2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f, 4294967296.0f,"
                    + " 9.2233715e18f, 9.223372e18f, -9.223372e18f, 1.8446743e19f, 1.8446744e19f, 3.4e38f,"
                    + " __builtin_inff(), -__builtin_inff(), __builtin_nanf(\"\")}";
            case DOUBLE -> "{0.0, -0.0, 1.5, -0.9, -1.0, 2147483647.9, 2147483648.0, -2147483648.9, -2147483649.0,"
                    + " 4294967295.5, 4294967296.0, 9223372036854774784.0, 9223372036854775808.0, -9223372036854775808.0,"
                    + " -9223372036854777856.0, 18446744073709549568.0, 18446744073709551616.0, 1e300,"
                    + " __builtin_inf(), -__builtin_inf(), __builtin_nan(\"\")}";
            default -> throw new IllegalArgumentException(t.c());
        };
    }

    @Test
    void helpersRunCleanUnderUbsanOnEdgeValues(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/g++")), "no g++ at /usr/bin/g++");
        Helpers h = new Helpers();
        StringBuilder calls = new StringBuilder();
        for (Prim t : SIGNED) {
            for (String op : List.of("add", "sub", "mul")) {
                for (boolean checked : List.of(true, false)) {
                    calls.append(binary(h.arith(op, t, checked), t, t));
                }
            }
            calls.append(unary(h.negate(t), t));
            calls.append(binary(h.shiftLeft(t), t, Prim.UINT));
        }
        for (Prim t : List.of(Prim.INT, Prim.UINT, Prim.LONG, Prim.ULONG, Prim.LLONG, Prim.ULLONG)) {
            calls.append(binary(h.divide("div", t), t, t));
            calls.append(binary(h.divide("mod", t), t, t));
        }
        for (Prim from : List.of(Prim.FLOAT, Prim.DOUBLE)) {
            for (Prim to : ALL_INT) {
                calls.append(unary(h.floatToInt(from, to), from));
            }
        }
        StringBuilder src = new StringBuilder("#include <cstdio>\n");
        for (Program.Item it : h.items()) {
            src.append(it.text().replace("__device__ ", "").replace("@", "h_")).append('\n');
        }
        src.append("volatile unsigned long long sink;\nint main() {\n").append(calls.toString().replace("@", "h_"))
                .append("    std::printf(\"done\\n\");\n    return 0;\n}\n");
        Path c = dir.resolve("helpers.cpp");
        Files.writeString(c, src);
        Path exe = dir.resolve("helpers");
        run(dir, "g++", "-std=c++17", "-O0", "-fsanitize=undefined,float-cast-overflow", "-fno-sanitize-recover=all",
                "-o", exe.toString(), c.toString());
        String out = run(dir, exe.toString());
        assertTrue(out.contains("done"), "the helpers' test program did not finish:\n" + out);
    }

    private static String unary(String fn, Prim a) {
        return "    { " + a.c() + " xs[] = " + edges(a) + "; for (" + a.c() + " x : xs) sink += (unsigned long long)"
                + fn + "(x); }\n";
    }

    private static String binary(String fn, Prim a, Prim b) {
        return "    { " + a.c() + " xs[] = " + edges(a) + "; " + b.c() + " ys[] = " + edges(b) + "; for (" + a.c()
                + " x : xs) for (" + b.c() + " y : ys) sink += (unsigned long long)" + fn + "(x, y); }\n";
    }

    private static String run(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + " failed:\n" + out);
        return out;
    }

    @Test
    void clampedConversionsGiveTheNearestInRangeValue(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/g++")), "no g++ at /usr/bin/g++");
        Helpers h = new Helpers();
        String toInt = h.floatToInt(Prim.DOUBLE, Prim.INT);
        String toU8 = h.floatToInt(Prim.FLOAT, Prim.UCHAR);
        StringBuilder src = new StringBuilder("#include <cstdio>\n");
        for (Program.Item it : h.items()) {
            src.append(it.text().replace("__device__ ", "").replace("@", "h_")).append('\n');
        }
        src.append("int main() {\n    double ds[] = {-3.7, 2147483647.9, 2147483648.0, -2147483649.0, "
                + "__builtin_nan(\"\")};\n    for (double d : ds) std::printf(\"%d \", ").append(toInt.replace("@", "h_"))
                .append("(d));\n    float fs[] = {-0.5f, -1.0f, 255.9f, 256.0f, 1e30f};\n    for (float f : fs) "
                        + "std::printf(\"%d \", (int)").append(toU8.replace("@", "h_")).append("(f));\n    return 0;\n}\n");
        Path c = dir.resolve("conv.cpp");
        Files.writeString(c, src);
        run(dir, "g++", "-std=c++17", "-o", dir.resolve("conv").toString(), c.toString());
        // By hand: truncation inside the range, the nearest bound outside it, 0 for NaN.
        assertEquals("-3 2147483647 2147483647 -2147483648 0 0 0 255 255 255 ", run(dir, dir.resolve("conv")
                .toString()));
    }
}
