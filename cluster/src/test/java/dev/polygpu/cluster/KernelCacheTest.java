package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.KernelSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class KernelCacheTest {
    private static final KernelSource INC = new KernelSource(
            "extern \"C\" __global__ void inc(int* x) { x[threadIdx.x] += 1; }", "inc", "inc(inout x: sint32)");

    @Test
    void compilesEachKernelOnceEvenWhenItArrivesManyTimesAtOnce() throws Exception {
        try (CpuDevice device = new CpuDevice(2)) {
            KernelCache cache = new KernelCache(device);
            List<Callable<KernelFunction>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(() -> cache.get(INC));
            }
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                KernelFunction first = null;
                for (Future<KernelFunction> f : pool.invokeAll(calls)) {
                    if (first == null) {
                        first = f.get();
                    }
                    assertSame(first, f.get());
                }
            } finally {
                pool.shutdown();
            }
            assertEquals(1, cache.compilations());
            assertEquals("inc", cache.get(INC).name());
        }
    }

    /** What lets a node run a stolen element on the thread that received it: the kernel is ready here. */
    @Test
    void saysWhetherAKernelIsCompiledAlready() {
        try (CpuDevice device = new CpuDevice(2)) {
            KernelCache cache = new KernelCache(device);
            assertNull(cache.compiled(INC), "nothing compiled yet");
            cache.get(INC);
            assertSame(cache.get(INC), cache.compiled(INC));
            assertNull(cache.compiled(new KernelSource(INC.source(), "inc", "inc(x: sint32)")),
                    "another signature is another kernel");
            KernelSource bad = new KernelSource("extern \"C\" __global__ void k(int* x) { x[0] = ; }", "k", "k");
            assertThrows(DeviceException.class, () -> cache.get(bad));
            assertNull(cache.compiled(bad), "a kernel that failed to compile is not compiled");
        }
    }

    @Test
    void theHashCoversSourceNameAndSignature() {
        String base = KernelCache.hash(INC);
        assertNotEquals(base, KernelCache.hash(new KernelSource(INC.source() + " ", "inc", INC.signature())));
        assertNotEquals(base, KernelCache.hash(new KernelSource(INC.source(), "inc2", INC.signature())));
        assertNotEquals(base, KernelCache.hash(new KernelSource(INC.source(), "inc", "inc(x: sint32)")));
        assertEquals(base, KernelCache.hash(new KernelSource(INC.source(), "inc", INC.signature())));
    }

    @Test
    void aCompileErrorIsThrownAndNotCached() {
        try (CpuDevice device = new CpuDevice(2)) {
            KernelCache cache = new KernelCache(device);
            KernelSource bad = new KernelSource("extern \"C\" __global__ void k(int* x) { x[0] = ; }", "k", "k");
            assertThrows(DeviceException.class, () -> cache.get(bad));
            assertThrows(DeviceException.class, () -> cache.get(bad), "tried again, not a cached failure");
            assertEquals(0, cache.compilations());
        }
    }
}
