package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A {@code __device__} function whose declarator makes its return type a pointer ({@code float *f(...)}) returns
 * that pointer, not the specifiers' {@code float} (the engine used to refuse the call's use as a pointer).
 */
class PointerReturnTest {
    private static CpuDevice dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        dev.close();
    }

    @Test
    void aFunctionReturningAPointerChoosesTheBufferThreadsWrite() {
        String src = """
                __device__ float *pick(float *a, float *b, int w) { return w ? b : a; }
                __device__ const float **self(const float **p) { return p; }
                __global__ void k(float *x, float *y, int n) {
                    int i = threadIdx.x;
                    if (i < n) { float *p = pick(x, y, i & 1); p[i] = 10 + i; }
                }""";
        UnifiedBuffer x = floats(dev, new float[4]);
        UnifiedBuffer y = floats(dev, new float[4]);
        run(dev, KernelTestSupport.kernel(dev, src, "pick.cu", "k"), 1, 4,
                KernelArgs.builder().pointer(x).pointer(y).i32(4).build());
        // even threads pick x, odd ones y; thread i writes 10 + i at index i of the buffer it picked
        assertArrayEquals(new float[] {10, 0, 12, 0}, readFloats(x, 4));
        assertArrayEquals(new float[] {0, 11, 0, 13}, readFloats(y, 4));
    }
}
