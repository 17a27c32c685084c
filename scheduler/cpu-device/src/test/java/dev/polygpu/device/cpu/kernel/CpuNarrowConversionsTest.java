package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.cpu.CpuDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Floating-point values converted to the narrow integer types as nvcc compiles the conversion (checked with
 * {@code nvcc -ptx}): {@code cvt.rzi.u32.f32} for the unsigned ones and {@code cvt.rzi.s32.f32} for the signed
 * ones, each saturating to its 32-bit range (NaN gives 0), then the low 8 or 16 bits. The differential oracle
 * found the engine converting to unsigned char through a signed int, so {@code (unsigned char) -1.0f} was 255
 * where a GPU gives 0. Expected values are worked out from those two steps.
 */
@Timeout(60)
class CpuNarrowConversionsTest {
    private static Device dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        dev.close();
    }

    @Test
    void narrowConversionsSaturateAt32BitsThenTruncate() {
        String src = """
                __global__ void k(const float* x, int* out, int n)
                {
                    int i = threadIdx.x;
                    if (i < n) {
                        float v = x[i];
                        double d = (double) v;
                        out[6 * i] = (unsigned char) v;
                        out[6 * i + 1] = (unsigned short) v;
                        out[6 * i + 2] = (signed char) v;
                        out[6 * i + 3] = (short) v;
                        out[6 * i + 4] = (unsigned char) d;
                        out[6 * i + 5] = (unsigned short) d;
                    }
                }""";
        float[] x = {-1f, -0.5f, 300.7f, 70000.5f, 5e9f, -5e9f, Float.NaN, 255.9f, -129.5f, 40000f};
        var in = floats(dev, x);
        var out = dev.allocate(4L * 6 * x.length);
        KernelTestSupport.run(dev, KernelTestSupport.kernel(dev, src, "narrow.cu", "k"), 1, 32,
                KernelArgs.builder().pointer(in).pointer(out).i32(x.length).build());
        // u32 step: -1 -> 0, -0.5 -> 0, 300.7 -> 300, 70000.5 -> 70000, 5e9 -> 0xFFFFFFFF, -5e9 -> 0, NaN -> 0,
        // 255.9 -> 255, -129.5 -> 0, 40000 -> 40000; s32 step: -1, 0, 300, 70000, INT_MAX, INT_MIN, 0, 255, -129,
        // 40000; then the low bits as the narrow type.
        int[] expected = {
            0, 0, -1, -1, 0, 0,
            0, 0, 0, 0, 0, 0,
            300 & 0xFF, 300, (byte) 300, 300, 300 & 0xFF, 300,
            70000 & 0xFF, 70000 & 0xFFFF, (byte) 70000, (short) 70000, 70000 & 0xFF, 70000 & 0xFFFF,
            0xFF, 0xFFFF, -1, -1, 0xFF, 0xFFFF,
            0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0,
            255, 255, -1, 255, 255, 255,
            0, 0, 127, -129, 0, 0,
            40000 & 0xFF, 40000, (byte) 40000, (short) 40000, 40000 & 0xFF, 40000};
        assertArrayEquals(expected, readInts(out, 6 * x.length));
    }

    /**
     * {@code ++} and {@code --} of a signed type narrower than int work on the promoted value and convert it back
     * (C++ [expr.pre.incr]: {@code ++x} is {@code x += 1}), and that conversion wraps modulo 2^N (C++20
     * [conv.integral]; what gcc and clang do), so the maximum steps to the minimum. nvcc 13.0's optimized PTX
     * folds {@code s++; s > -4092} into {@code s > -4093} as if it could not wrap (campaign case 37969): this is
     * the engine's side of that difference, worked out by hand.
     */
    @Test
    void narrowSignedIncrementsWrapAtTheirMaximum() {
        String src = """
                __global__ void k(short s, signed char c, int* out)
                {
                    short a = s; a++; out[0] = a;
                    short b = s; out[1] = ++b > -4092;
                    short d = -s - 1; d--; out[2] = d;
                    signed char e = c; ++e; out[3] = e;
                    signed char f = c; out[4] = f++; out[5] = f;
                    short g = s; out[6] = (double) (++g) > -4091.5;
                }""";
        var out = dev.allocate(4L * 7);
        KernelTestSupport.run(dev, KernelTestSupport.kernel(dev, src, "incr.cu", "k"), 1, 1,
                KernelArgs.builder().i16((short) 32767).i8((byte) 127).pointer(out).build());
        // 32767 + 1 -> -32768; -32768 > -4092 is false; -32768 - 1 -> 32767; 127 + 1 -> -128; f++ yields 127 and
        // leaves -128; -32768 > -4091.5 is false
        assertArrayEquals(new int[] {-32768, 0, 32767, -128, 127, -128, 0}, readInts(out, 7));
    }
}
