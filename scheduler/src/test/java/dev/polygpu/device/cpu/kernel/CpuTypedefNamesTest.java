package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
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
 * Variables and parameters named like the typedefs the engine knows without a header ({@code half},
 * {@code uint}, {@code size_t}…): in C++ such a declaration hides the typedef until the end of its scope, and
 * nvcc compiles {@code int half = n / 2;} (the differential oracle's corpus found the engine refusing a
 * parameter named {@code half}). Expected values are worked out by hand in the comments.
 */
@Timeout(60)
class CpuTypedefNamesTest {
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
    void aDeclarationHidesATypedefOfTheSameNameUntilItsScopeEnds() {
        String src = """
                __device__ int twice(int half) { return half * 2; }

                __global__ void k(int* out, int half)
                {
                    int i = threadIdx.x;
                    int uint = half + i;                 // a local named like a typedef
                    out[4 * i] = uint * 3;
                    for (int size_t = 0; size_t < 2; size_t++) {
                        uint += size_t;                  // the loop's own size_t
                    }
                    out[4 * i + 1] = uint;
                    {
                        float ushort = 0.5f;
                        out[4 * i + 2] = (int) (ushort * 4) + twice(half);
                    }
                    ushort back = (ushort) 70000;        // the typedef again once the block has closed
                    size_t wide = (size_t) back;
                    out[4 * i + 3] = (int) wide;
                }""";
        int threads = 3;
        int[] out = new int[4 * threads];
        var buf = ints(dev, out);
        KernelTestSupport.run(dev, KernelTestSupport.kernel(dev, src, "names.cu", "k"), 1, threads,
                KernelArgs.builder().pointer(buf).i32(10).build());
        int[] expected = new int[4 * threads];
        for (int i = 0; i < threads; i++) {
            expected[4 * i] = (10 + i) * 3;
            expected[4 * i + 1] = 10 + i + 0 + 1;
            expected[4 * i + 2] = 2 + 20;
            expected[4 * i + 3] = 70000 - 65536; // 70000 as an unsigned short
        }
        assertArrayEquals(expected, readInts(buf, 4 * threads));
    }
}
