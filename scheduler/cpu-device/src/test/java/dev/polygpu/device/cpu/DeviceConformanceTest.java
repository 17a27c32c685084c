package dev.polygpu.device.cpu;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.Event;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * What every {@link Device} must do, written against the SPI only, so that each backend runs the same suite
 * (a subclass per backend supplies {@link #newDevice()}). Kernels are given as CUDA C source.
 */
abstract class DeviceConformanceTest {
    static final String SAXPY = """
            extern "C" __global__ void saxpy(float* y, const float* x, float a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = a * x[i] + y[i];
            }
            """;
    static final String MARK = """
            extern "C" __global__ void mark(int* out) {
                long block = ((long) blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
                long t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
                out[block * blockDim.x * blockDim.y * blockDim.z + t] += 1;
            }
            """;
    static final long SEED = 20240611L;

    protected Device device;

    /** A fresh device of the backend under test. */
    protected abstract Device newDevice();

    @BeforeEach
    void open() {
        device = newDevice();
    }

    @AfterEach
    void close() {
        if (device != null) { // null when newDevice() skipped the test (no such device here)
            device.close();
        }
    }

    static DeviceException expect(CudaError error, Executable call) {
        DeviceException e = assertThrows(DeviceException.class, call);
        assertEquals(error, e.error(), e::getMessage);
        return e;
    }

    static void assertContains(String message, String... parts) {
        for (String p : parts) {
            assertTrue(message.contains(p), () -> "expected '" + p + "' in: " + message);
        }
    }

    @Test
    void propertiesDescribeAGpuLikeDevice() {
        var p = device.properties();
        assertEquals(32, p.warpSize());
        assertTrue(p.maxThreadsPerBlock() >= 1024);
        assertTrue(p.multiProcessorCount() > 0);
        assertTrue(p.totalGlobalMemory() > 0);
        assertEquals(p.name(), p.asMap().get("deviceName"));
    }

    @Test
    void allocateGivesZeroFilledBuffersWithDistinctIds() {
        UnifiedBuffer a = device.allocate(1000);
        UnifiedBuffer b = device.allocate(24);
        assertEquals(1000, a.byteSize());
        assertNotEquals(a.id(), b.id());
        for (int i = 0; i < 1000; i++) {
            assertEquals(0, a.getByte(i));
        }
        a.setFloat(3, 2.5f);
        a.setDouble(10, -7.25);
        a.setLong(20, 1L << 40);
        a.setInt(100, 42);
        a.setShort(300, (short) -3);
        assertEquals(2.5f, a.getFloat(3));
        assertEquals(-7.25, a.getDouble(10));
        assertEquals(1L << 40, a.getLong(20));
        assertEquals(42, a.getInt(100));
        assertEquals(-3, a.getShort(300));
        assertThrows(IndexOutOfBoundsException.class, () -> b.getInt(6));
        a.free();
        b.free();
    }

    @Test
    void allocateRejectsSizesThatAreNotPositive() {
        assertContains(expect(CudaError.INVALID_VALUE, () -> device.allocate(0)).getMessage(), "0 bytes");
        expect(CudaError.INVALID_VALUE, () -> device.allocate(-5));
    }

    @Test
    void freedBufferSaysSoWhenUsed() {
        UnifiedBuffer a = device.allocate(64);
        a.free();
        a.free();
        assertTrue(a.isFreed());
        var e = expect(CudaError.INVALID_VALUE, a::hostView);
        assertContains(e.getMessage(), "buffer #" + a.id(), "64 bytes", "freed");
        expect(CudaError.INVALID_VALUE, () -> a.getInt(0));
        UnifiedBuffer b = device.allocate(64);
        expect(CudaError.INVALID_VALUE, () -> device.defaultStream().copy(b, 0, a, 0, 8));
    }

    @Test
    void copyAndFillMoveTheRightBytes() {
        Stream s = device.createStream();
        UnifiedBuffer a = device.allocate(256);
        UnifiedBuffer b = device.allocate(256);
        Random r = new Random(SEED);
        byte[] data = new byte[256];
        r.nextBytes(data);
        for (int i = 0; i < 256; i++) {
            a.setByte(i, data[i]);
        }
        s.fill(b, 0, 256, (byte) 9);
        s.copy(b, 16, a, 32, 100);
        s.fill(b, 200, 8, (byte) -1);
        s.synchronize();
        for (int i = 0; i < 256; i++) {
            byte want = i >= 16 && i < 116 ? data[i + 16] : i >= 200 && i < 208 ? (byte) -1 : 9;
            assertEquals(want, b.getByte(i), "byte " + i + " (seed " + SEED + ")");
        }
        s.close();
    }

    @Test
    void streamsWithPrioritiesKeepTheirPriorityWithinTheRangeAndRunTheirWork() {
        dev.polygpu.device.StreamPriorities range = device.streamPriorities();
        assertTrue(range.greatest() <= range.least(), range::toString);
        assertEquals(range.least(), device.defaultStream().priority(), "the default stream's priority");
        Stream plain = device.createStream();
        assertEquals(range.least(), plain.priority(), "a stream created without a priority");
        Stream high = device.createStream(range.greatest());
        Stream low = device.createStream(range.least());
        assertEquals(range.greatest(), high.priority());
        assertEquals(range.least(), low.priority());
        // Out of range: clamped, as cuStreamCreateWithPriority clamps.
        assertEquals(range.greatest(), device.createStream(range.greatest() - 7).priority());
        assertEquals(range.least(), device.createStream(range.least() + 7).priority());
        KernelFunction mark = device.compile(MARK, "mark.cu").function("mark");
        int n = 64 * 32;
        UnifiedBuffer out = device.allocate(4L * n);
        // Each stream marks every element once; whatever order the device picks, each ends at 3.
        for (Stream s : List.of(low, high, plain)) {
            s.launch(mark, LaunchConfig.of(64, 32), KernelArgs.builder().pointer(out).build());
            s.synchronize();
        }
        for (int i = 0; i < n; i++) {
            assertEquals(3, out.getInt(i), "element " + i);
        }
        UnifiedBuffer a = device.allocate(4L * n);
        UnifiedBuffer b = device.allocate(4L * n);
        low.launch(mark, LaunchConfig.of(64, 32), KernelArgs.builder().pointer(a).build());
        high.launch(mark, LaunchConfig.of(64, 32), KernelArgs.builder().pointer(b).build());
        low.launch(mark, LaunchConfig.of(64, 32), KernelArgs.builder().pointer(a).build());
        high.launch(mark, LaunchConfig.of(64, 32), KernelArgs.builder().pointer(b).build());
        device.synchronize();
        for (int i = 0; i < n; i++) {
            assertEquals(2, a.getInt(i), "low-priority stream, element " + i);
            assertEquals(2, b.getInt(i), "high-priority stream, element " + i);
        }
    }

    @Test
    void copyAndFillCheckRangesWhenQueued() {
        Stream s = device.defaultStream();
        UnifiedBuffer a = device.allocate(128);
        UnifiedBuffer b = device.allocate(64);
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.copy(b, 0, a, 0, 100)).getMessage(),
                "100 bytes", "buffer #" + b.id(), "64 bytes");
        expect(CudaError.INVALID_VALUE, () -> s.copy(a, -1, b, 0, 8));
        expect(CudaError.INVALID_VALUE, () -> s.copy(a, 0, b, 60, 8));
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.copy(a, 0, a, 8, 16)).getMessage(), "overlap");
        expect(CudaError.INVALID_VALUE, () -> s.fill(b, 60, 8, (byte) 1));
        expect(CudaError.INVALID_VALUE, () -> s.fill(null, 0, 8, (byte) 1));
        expect(CudaError.INVALID_VALUE, () -> s.prefetch(b, 0, 65));
        s.copy(a, 0, a, 64, 64);
        s.prefetch(a, 0, 128);
        s.synchronize();
    }

    @Test
    void operationsOnOneStreamRunInOrder() {
        Stream s = device.createStream();
        UnifiedBuffer a = device.allocate(4096);
        UnifiedBuffer b = device.allocate(4096);
        UnifiedBuffer c = device.allocate(4096);
        List<Integer> order = new CopyOnWriteArrayList<>();
        for (int round = 0; round < 20; round++) {
            int r = round;
            s.fill(a, 0, 4096, (byte) (r + 1));
            s.copy(b, 0, a, 0, 4096);
            s.copy(c, 0, b, 0, 4096);
            s.onComplete(() -> {
                if (c.getByte(4095) == (byte) (r + 1)) {
                    order.add(r);
                }
            });
        }
        s.synchronize();
        assertEquals(java.util.stream.IntStream.range(0, 20).boxed().toList(), order);
        assertTrue(s.isIdle());
        s.close();
    }

    @Test
    void onCompleteRunsWithoutTheHostSynchronizing() throws InterruptedException {
        Stream s = device.createStream();
        UnifiedBuffer a = device.allocate(1 << 20);
        s.fill(a, 0, 1 << 20, (byte) 5);
        CountDownLatch done = new CountDownLatch(1);
        byte[] seen = new byte[1];
        s.onComplete(() -> {
            seen[0] = a.getByte((1 << 20) - 1);
            done.countDown();
        });
        assertTrue(done.await(30, TimeUnit.SECONDS), "callback did not run");
        assertEquals(5, seen[0]);
        s.synchronize();
        s.close();
    }

    @Test
    void aFailingCallbackIsReportedOnceAndTheStreamGoesOn() {
        Stream s = device.createStream();
        UnifiedBuffer a = device.allocate(16);
        s.onComplete(() -> {
            throw new IllegalStateException("callback broke");
        });
        s.fill(a, 0, 16, (byte) 3);
        assertContains(assertThrows(DeviceException.class, s::synchronize).getMessage(), "callback broke");
        assertDoesNotThrow(s::synchronize);
        assertEquals(3, a.getByte(15));
        s.close();
    }

    @Test
    void deviceSynchronizeReportsAStreamFailureOnce() {
        Stream s = device.createStream();
        s.onComplete(() -> {
            throw new IllegalArgumentException("late failure");
        });
        assertContains(assertThrows(DeviceException.class, device::synchronize).getMessage(), "late failure");
        assertDoesNotThrow(device::synchronize);
        assertDoesNotThrow(s::synchronize);
        s.close();
    }

    @Test
    void eventsCompleteInStreamOrderAndMeasureTime() {
        Stream s = device.createStream();
        Event never = device.createEvent(true);
        assertTrue(never.isComplete());
        assertDoesNotThrow(never::synchronize);
        Event start = device.createEvent(true);
        Event end = device.createEvent(true);
        KernelFunction saxpy = device.compile(SAXPY, "saxpy.cu").function("saxpy");
        int n = 1 << 16;
        UnifiedBuffer x = device.allocate(4L * n);
        UnifiedBuffer y = device.allocate(4L * n);
        s.record(start);
        s.launch(saxpy, LaunchConfig.of((n + 255) / 256, 256),
                KernelArgs.builder().pointer(y).pointer(x).f32(2f).i32(n).build());
        s.record(end);
        end.synchronize();
        assertTrue(start.isComplete());
        float ms = end.elapsedMillisSince(start);
        assertTrue(ms > 0, "elapsed " + ms);
        assertTrue(start.elapsedMillisSince(end) < 0);
        Event plain = device.createEvent(false);
        s.record(plain);
        s.synchronize();
        assertFalse(plain.hasTiming());
        expect(CudaError.INVALID_HANDLE, () -> plain.elapsedMillisSince(start));
        expect(CudaError.INVALID_HANDLE, () -> never.elapsedMillisSince(start));
        plain.close();
        plain.close();
        expect(CudaError.INVALID_HANDLE, () -> s.record(plain));
        s.close();
    }

    @Test
    void waitingForANeverRecordedEventDoesNotBlock() {
        Stream s = device.createStream();
        s.waitFor(device.createEvent(false));
        UnifiedBuffer a = device.allocate(8);
        s.fill(a, 0, 8, (byte) 1);
        s.synchronize();
        assertEquals(1, a.getByte(7));
        s.close();
    }

    @Test
    void streamsHaveIdsAndClosedStreamsRefuseWork() {
        assertEquals(0, device.defaultStream().id());
        Stream s1 = device.createStream();
        Stream s2 = device.createStream();
        assertNotEquals(0, s1.id());
        assertNotEquals(s1.id(), s2.id());
        UnifiedBuffer a = device.allocate(8);
        s1.fill(a, 0, 8, (byte) 4);
        s1.close();
        assertEquals(4, a.getByte(0));
        s1.close();
        expect(CudaError.INVALID_HANDLE, () -> s1.fill(a, 0, 8, (byte) 1));
        expect(CudaError.INVALID_HANDLE, s1::synchronize);
        assertThrows(DeviceException.class, () -> device.defaultStream().close());
        device.defaultStream().fill(a, 0, 8, (byte) 6);
        device.defaultStream().synchronize();
        assertEquals(6, a.getByte(7));
        s2.close();
    }

    @Test
    void saxpyOverAGridLargerThanTheDevice() {
        KernelFunction saxpy = device.compile(SAXPY, "saxpy.cu").function("saxpy");
        assertEquals("saxpy", saxpy.name());
        int n = 100_003;
        UnifiedBuffer x = device.allocate(4L * n);
        UnifiedBuffer y = device.allocate(4L * n);
        Random r = new Random(SEED);
        float[] xs = new float[n];
        float[] ys = new float[n];
        for (int i = 0; i < n; i++) {
            xs[i] = r.nextFloat();
            ys[i] = r.nextFloat();
            x.setFloat(i, xs[i]);
            y.setFloat(i, ys[i]);
        }
        Stream s = device.defaultStream();
        s.launch(saxpy, LaunchConfig.of((n + 127) / 128, 128),
                KernelArgs.builder().pointer(y).pointer(x).f32(3f).i32(n).build());
        s.synchronize();
        for (int i = 0; i < n; i++) {
            assertEquals(3f * xs[i] + ys[i], y.getFloat(i), "element " + i + " (seed " + SEED + ")");
        }
    }

    @Test
    void threeDimensionalGridsRunEveryThreadExactlyOnce() {
        KernelFunction mark = device.compile(MARK, "mark.cu").function("mark");
        Dim3 grid = new Dim3(7, 5, 3);
        Dim3 block = new Dim3(4, 2, 2);
        int total = (int) (grid.volume() * block.volume());
        UnifiedBuffer out = device.allocate(4L * total);
        device.defaultStream().launch(mark, new LaunchConfig(grid, block, 0), KernelArgs.builder().pointer(out).build());
        device.synchronize();
        for (int i = 0; i < total; i++) {
            assertEquals(1, out.getInt(i), "element " + i);
        }
    }

    @Test
    void launchArgumentsAreCheckedWhenQueued() {
        Module m = device.compile(SAXPY, "saxpy.cu");
        KernelFunction saxpy = m.function("saxpy");
        UnifiedBuffer x = device.allocate(64);
        UnifiedBuffer y = device.allocate(64);
        Stream s = device.defaultStream();
        LaunchConfig cfg = LaunchConfig.of(1, 16);
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.launch(saxpy, cfg,
                KernelArgs.builder().pointer(y).i32(3).f32(2f).i32(16).build())).getMessage(),
                "argument 2 ('x') of kernel 'saxpy' must be a pointer to a buffer, got int 3");
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.launch(saxpy, cfg,
                KernelArgs.builder().pointer(y).pointer(x).f64(2.0).i32(16).build())).getMessage(),
                "argument 3 ('a')", "float", "double");
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.launch(saxpy, cfg,
                KernelArgs.builder().pointer(y).pointer(x).build())).getMessage(), "'saxpy'", "4", "got 2");
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.launch(saxpy, cfg,
                KernelArgs.builder().pointer(y, 65).pointer(x).f32(2f).i32(16).build())).getMessage(),
                "argument 1 ('y')", "65");
        x.free();
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.launch(saxpy, cfg,
                KernelArgs.builder().pointer(y).pointer(x).f32(2f).i32(16).build())).getMessage(), "freed");
        s.synchronize();
    }

    @Test
    void launchConfigurationsAreCheckedAgainstTheDevice() {
        KernelFunction saxpy = device.compile(SAXPY, "saxpy.cu").function("saxpy");
        UnifiedBuffer y = device.allocate(64);
        KernelArgs args = KernelArgs.builder().pointer(y).pointer(y).f32(1f).i32(0).build();
        Stream s = device.defaultStream();
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.launch(saxpy, LaunchConfig.of(1, 2048), args))
                .getMessage(), "2048 threads");
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.launch(saxpy,
                new LaunchConfig(new Dim3(1, 70000, 1), Dim3.of(32), 0), args)).getMessage(), "grid");
        assertContains(expect(CudaError.INVALID_VALUE, () -> s.launch(saxpy,
                new LaunchConfig(Dim3.of(1), Dim3.of(32), 1 << 20), args)).getMessage(), "shared memory");
        s.synchronize();
    }

    @Test
    void unknownKernelsAreNotFound() {
        Module m = device.compile(SAXPY, "saxpy.cu");
        assertContains(expect(CudaError.NOT_FOUND, () -> m.function("nope")).getMessage(), "saxpy");
        assertTrue(m.function("saxpy") == m.function("saxpy") || m.function("saxpy").name().equals("saxpy"));
        m.close();
    }
}
