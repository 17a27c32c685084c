package dev.polygpu.grcuda.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.grcuda.GrContext;
import java.time.Duration;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Device arrays no guest can reach are released after the work that uses them; {@code free()} releases at once;
 * {@code cudaMalloc} memory is kept until {@code cudaFree}. Memory is read from the device's allocated-bytes
 * counter.
 */
class GrArrayReleaseTest {
    private static final int N = 64 * 1024;
    private static final long ARRAY_BYTES = 4L * N;
    private static final String COPY_PLUS_ONE = """
            __global__ void plusOne(const float* a, float* b, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                for (int s = 0; s < 20; s++) __nanosleep(1000000);
                if (i < n) b[i] = a[i] + 1.0f;
            }
            """;
    private Context context;
    private Value cu;

    @BeforeEach
    void open() {
        context = Context.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").allowAllAccess(true)
                .build();
        cu = context.eval("grcuda", "CU");
    }

    @AfterEach
    void close() {
        context.close();
    }

    private long allocated() {
        context.enter();
        try {
            return GrContext.get(null).device().allocatedBytes();
        } finally {
            context.leave();
        }
    }

    /** Hints collections until the device holds at most {@code bytes}; the bytes it holds at the end. */
    private long awaitAtMost(long bytes) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long now = allocated();
        while (now > bytes && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
            now = allocated();
        }
        return now;
    }

    private Value newArray(String type, long n) {
        return cu.getMember("DeviceArray").execute(type, n);
    }

    @Test
    void droppedArraysAreReleasedAndMemoryStaysBounded() throws InterruptedException {
        long before = allocated();
        long most = 0;
        // 2,000 arrays of 256 KiB: 500 MiB if none were released.
        for (int i = 0; i < 2000; i++) {
            Value a = newArray("float", N);
            a.setArrayElement(i % N, (float) i);
            assertEquals((float) i, a.getArrayElement(i % N).asFloat());
            Value m = cu.getMember("DeviceArray").execute("int", 16, 16);
            m.getArrayElement(3).setArrayElement(4, i);
            if (i % 50 == 49) {
                System.gc();
                most = Math.max(most, allocated() - before);
            }
        }
        assertTrue(most < 3 * Allocations.MIN_HINT_BYTES + 100 * ARRAY_BYTES, "the device held " + most
                + " bytes at most in the loop, not " + (2000 * ARRAY_BYTES) + " (no release)");
        long left = awaitAtMost(before) - before;
        assertEquals(0, left, "every dropped array was released");
    }

    @Test
    void withoutCollectionsOfItsOwnTheLoopStillStaysBounded() throws InterruptedException {
        // The heap alone does not prompt a collection here (the arrays are off the heap); the context hints one.
        long before = allocated();
        long most = 0;
        for (int i = 0; i < 2000; i++) {
            Value a = newArray("float", N);
            a.setArrayElement(0, (float) i);
            most = Math.max(most, allocated() - before);
        }
        assertTrue(most < 3 * Allocations.MIN_HINT_BYTES + 100 * ARRAY_BYTES, "the device held " + most
                + " bytes at most, of " + (2000 * ARRAY_BYTES) + " allocated");
    }

    @Test
    void aDroppedArrayThatQueuedWorkStillReadsKeepsItsMemoryUntilTheWorkIsDone() throws InterruptedException {
        Value k = cu.getMember("buildkernel").execute(COPY_PLUS_ONE, "plusOne", "const pointer, pointer, sint32");
        Value b = newArray("float", 1024);
        long before = allocated();
        Value a = newArray("float", 1024);
        for (int i = 0; i < 1024; i++) {
            a.setArrayElement(i, i * 0.5f);
        }
        // 20 ms of device time per block: the array is dropped while the kernel is queued or running.
        k.execute(4, 256).execute(a, b, 1024);
        a = null;
        System.gc();
        for (int i = 0; i < 1024; i++) {
            assertEquals(i * 0.5f + 1.0f, b.getArrayElement(i).asFloat(), "b[" + i + "]");
        }
        assertEquals(before, awaitAtMost(before), "the dropped input is released once the kernel is done");
    }

    @Test
    void freeReleasesAtOnceAndCudaMallocMemoryIsKeptUntilCudaFree() throws InterruptedException {
        long before = allocated();
        Value a = newArray("double", 1000);
        assertEquals(before + 8000, allocated());
        a.invokeMember("free");
        assertEquals(before, allocated(), "free() releases at once, without a collection");

        long address = cu.getMember("cudaMalloc").execute(4096).asNativePointer();
        System.gc();
        Thread.sleep(100);
        System.gc();
        assertEquals(before + 4096, awaitAtMost(before + 4096));
        assertEquals(before + 4096, allocated(), "memory known by its address alone stays");
        cu.getMember("cudaFree").execute(address);
        assertEquals(before, allocated());
    }
}
