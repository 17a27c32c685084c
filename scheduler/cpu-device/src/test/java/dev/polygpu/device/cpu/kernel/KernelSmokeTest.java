package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.Device;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The pipeline end to end on three kernel shapes: straight-line, block barriers, warp shuffles. */
@Timeout(30)
class KernelSmokeTest {
    private static Device dev;

    @BeforeAll
    static void start() {
        dev = new CpuDevice();
    }

    @AfterAll
    static void stop() {
        dev.close();
    }

    @Test
    void saxpy() {
        int n = 10_000;
        long seed = 42;
        Random r = new Random(seed);
        UnifiedBuffer x = dev.allocate(n * 4L);
        UnifiedBuffer y = dev.allocate(n * 4L);
        float[] ex = new float[n];
        for (int i = 0; i < n; i++) {
            float xv = r.nextFloat() + 0.5f;
            float yv = r.nextFloat() - 2f;
            x.setFloat(i, xv);
            y.setFloat(i, yv);
            ex[i] = 2.5f * xv + yv;
        }
        Module m = dev.compile("""
                __global__ void saxpy(float *y, const float *x, float a, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) y[i] = a * x[i] + y[i];
                }""", "saxpy.cu");
        Stream s = dev.defaultStream();
        s.launch(m.function("saxpy"), LaunchConfig.of((n + 255) / 256, 256),
                KernelArgs.builder().pointer(y).pointer(x).f32(2.5f).i32(n).build());
        s.synchronize();
        for (int i = 0; i < n; i++) {
            assertEquals(ex[i], y.getFloat(i), "element " + i + " (seed " + seed + ")");
        }
    }

    @Test
    void sharedMemoryReductionWithBarriers() {
        int n = 5000;
        int block = 128;
        int blocks = (n + block - 1) / block;
        UnifiedBuffer in = dev.allocate(n * 4L);
        UnifiedBuffer out = dev.allocate(blocks * 4L);
        int[] sums = new int[blocks];
        for (int i = 0; i < n; i++) {
            in.setInt(i, i % 7 + 1);
            sums[i / block] += i % 7 + 1;
        }
        Module m = dev.compile("""
                __global__ void reduce(const int *in, int *out, int n) {
                    extern __shared__ int s[];
                    unsigned int t = threadIdx.x;
                    unsigned int i = blockIdx.x * blockDim.x + t;
                    s[t] = i < n ? in[i] : 0;
                    __syncthreads();
                    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
                        if (t < stride) s[t] += s[t + stride];
                        __syncthreads();
                    }
                    if (t == 0) out[blockIdx.x] = s[0];
                }""", "reduce.cu");
        Stream s = dev.defaultStream();
        s.launch(m.function("reduce"), new LaunchConfig(Dim3.of(blocks), Dim3.of(block), block * 4),
                KernelArgs.builder().pointer(in).pointer(out).i32(n).build());
        s.synchronize();
        for (int b = 0; b < blocks; b++) {
            assertEquals(sums[b], out.getInt(b), "block " + b);
        }
    }

    @Test
    void warpShuffleSum() {
        int threads = 64;
        UnifiedBuffer out = dev.allocate(threads * 4L);
        Module m = dev.compile("""
                __global__ void warpsum(int *out) {
                    int v = threadIdx.x;
                    for (int off = 16; off > 0; off /= 2)
                        v += __shfl_down_sync(0xffffffff, v, off);
                    out[threadIdx.x] = v;
                }""", "warp.cu");
        Stream s = dev.defaultStream();
        s.launch(m.function("warpsum"), LaunchConfig.of(1, threads), KernelArgs.builder().pointer(out).build());
        s.synchronize();
        assertEquals(31 * 32 / 2, out.getInt(0));
        assertEquals(32 * 32 + 31 * 32 / 2, out.getInt(32));
    }
}
