package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.kernel.KernelTestSupport;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Event;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.Chaos;
import dev.polygpu.device.cpu.CpuDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PTX kernels on the CPU device's launch path: ordering across streams through events (also in chaos mode),
 * interleaving with kernels compiled from CUDA C, sticky faults per stream, and buffers pinned while a queued
 * launch uses them.
 */
class PtxLaunchPathTest {
    private static final int N = 4096;

    private static float[] xs() {
        float[] x = new float[N];
        for (int i = 0; i < N; i++) {
            x[i] = i % 97;
        }
        return x;
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 1, 2, 3})
    void eventsOrderPtxLaunchesAcrossStreams(long chaosSeed) {
        try (CpuDevice device = chaosSeed < 0 ? new CpuDevice(2) : new CpuDevice(2, Chaos.withSeed(chaosSeed))) {
            Module m = device.load(PtxTestSupport.resource("kernels_sm75.ptx"), "kernels_sm75.ptx");
            KernelFunction saxpy = m.function("saxpy");
            float[] x = xs();
            float[] ones = new float[N];
            java.util.Arrays.fill(ones, 1f);
            UnifiedBuffer y = floats(device, ones);
            UnifiedBuffer xb = floats(device, x);
            Stream a = device.createStream();
            Stream b = device.createStream();
            Event done = device.createEvent(false);
            LaunchConfig cfg = LaunchConfig.of(N / 128, 128);
            a.launch(saxpy, cfg, KernelArgs.builder().pointer(y).pointer(xb).f32(2f).i32(N).build());
            a.record(done);
            b.waitFor(done);
            b.launch(saxpy, cfg, KernelArgs.builder().pointer(y).pointer(y).f32(3f).i32(N).build());
            b.synchronize();
            float[] r = readFloats(y, N);
            for (int i = 0; i < N; i++) {
                float first = Math.fma(2f, x[i], 1f);
                assertEquals(Math.fma(3f, first, first), r[i], "chaos seed " + chaosSeed + " i=" + i);
            }
        }
    }

    @Test
    void ptxAndCompiledKernelsKeepStreamOrder() {
        try (CpuDevice device = new CpuDevice(2)) {
            Module ptx = device.load(PtxTestSupport.resource("kernels_sm75.ptx"), "kernels_sm75.ptx");
            Module cu = device.compile(PtxTestSupport.text("kernels.cu"), "kernels.cu");
            float[] data = new float[N];
            for (int i = 0; i < N; i++) {
                data[i] = i;
            }
            UnifiedBuffer d = floats(device, data);
            Stream s = device.createStream();
            LaunchConfig cfg = LaunchConfig.of(N / 128, 128);
            for (int round = 0; round < 3; round++) {
                s.launch(ptx.function("scale<float>"), cfg, KernelArgs.builder().pointer(d).f32(2f).i32(N).build());
                s.launch(cu.function("scale<float>"), cfg, KernelArgs.builder().pointer(d).f32(0.5f).i32(N).build());
                s.launch(ptx.function("saxpy"), cfg, KernelArgs.builder().pointer(d).pointer(d).f32(1f).i32(N)
                        .build());
            }
            s.synchronize();
            float[] r = readFloats(d, N);
            for (int i = 0; i < N; i++) {
                assertEquals(i * 8f, r[i], "i=" + i);
            }
        }
    }

    @Test
    void aFaultIsStickyOnItsStreamOnly() {
        try (CpuDevice device = new CpuDevice(2)) {
            Module m = device.load(PtxTestSupport.resource("kernels_sm75.ptx"), "kernels_sm75.ptx");
            UnifiedBuffer small = device.allocate(16);
            UnifiedBuffer y = floats(device, new float[N]);
            UnifiedBuffer x = floats(device, xs());
            Stream bad = device.createStream();
            Stream good = device.createStream();
            bad.launch(m.function("saxpy"), LaunchConfig.of(N / 128, 128), KernelArgs.builder().pointer(small)
                    .pointer(small).f32(1f).i32(N).build());
            good.launch(m.function("saxpy"), LaunchConfig.of(N / 128, 128), KernelArgs.builder().pointer(y)
                    .pointer(x).f32(1f).i32(N).build());
            good.synchronize();
            KernelFaultException f = assertThrows(KernelFaultException.class, bad::synchronize);
            assertEquals(CudaError.ILLEGAL_ADDRESS, f.error());
            assertEquals(xs()[N - 1], readFloats(y, N)[N - 1]);
        }
    }

    @Test
    void aBufferFreedWhileAQueuedLaunchUsesItWaitsForTheLaunch() {
        try (CpuDevice device = new CpuDevice(2)) {
            Module m = device.load(PtxTestSupport.resource("kernels_sm75.ptx"), "kernels_sm75.ptx");
            int n = 20_000;
            int[] in = new int[n];
            for (int i = 0; i < n; i++) {
                in[i] = 1_000_000 + i;
            }
            UnifiedBuffer inb = ints(device, in);
            UnifiedBuffer out = device.allocate(4L * n);
            Stream s = device.createStream();
            s.launch(m.function("collatz"), LaunchConfig.of((n + 127) / 128, 128), KernelArgs.builder().pointer(inb)
                    .pointer(out).i32(n).build());
            inb.free();
            // free() waited for the launch (its pin), so every result is there before any synchronization
            int[] r = KernelTestSupport.readInts(out, n);
            for (int i = 0; i < n; i += 997) {
                int v = in[i];
                int steps = 0;
                while (v != 1 && steps < 1000) {
                    v = v % 2 == 0 ? v / 2 : 3 * v + 1;
                    steps++;
                }
                assertEquals(steps, r[i], "i=" + i);
            }
            s.synchronize();
            out.free();
        }
    }
}
