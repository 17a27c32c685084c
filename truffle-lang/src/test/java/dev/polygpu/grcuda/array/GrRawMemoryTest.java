package dev.polygpu.grcuda.array;

import dev.polygpu.grcuda.SharedEngine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The CUDA runtime's raw-memory functions as a GrCUDA script calls them ({@code cudaMalloc},
 * {@code cudaMallocManaged}, {@code cudaFree}, {@code cudaMemcpy[Async]}, {@code cudaMemset[Async]}, prefetch,
 * advice, attach, peer access) and addresses ({@code array.pointer} plus an offset), through the polyglot API.
 * The CPU device runs in chaos mode (random delays and reordering within CUDA's rules), so a copy or kernel
 * that were not ordered after the work it depends on would read stale bytes.
 */
class GrRawMemoryTest {
    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();
    private Context context;
    private Value cu;

    private static final String FILL = """
            __global__ void fill(float *y, float base, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = base + 0.5f * i;
            }""";
    private static final String FILL_SIG = "fill(y: out pointer float, base: float, n: sint32)";

    @BeforeEach
    void open() {
        context = Context.newBuilder("grcuda").engine(ENGINE.get()).allowExperimentalOptions(true)
                .option("grcuda.DeviceChaos", "seed=11,delay=200").build();
        cu = context.eval("grcuda", "CU");
    }

    @AfterEach
    void close() {
        context.close();
    }

    private Value call(String function, Object... args) {
        return cu.getMember(function).execute(args);
    }

    private String error(String function, Object... args) {
        return assertThrows(PolyglotException.class, () -> call(function, args)).getMessage();
    }

    private Value floats(int n) {
        return call("DeviceArray", "float", n);
    }

    private static long address(Value array) {
        return array.getMember("pointer").asLong();
    }

    @Test
    void kernelsWriteMallocMemoryAndCopiesReadItInOrder() {
        int n = 300;
        Value fill = call("buildkernel", FILL, FILL_SIG);
        Value stream = call("cudaStreamCreate");
        for (String alloc : new String[] {"cudaMalloc", "cudaMallocManaged"}) {
            Value p = call(alloc, 4L * n);
            Value host = floats(n);
            for (int round = 0; round < 5; round++) {
                float base = 10 * round + 1;
                fill.execute(3, 128).execute(p, base, n);   // asynchronous
                if (round % 2 == 0) {
                    call("cudaMemcpy", host, p, 4L * n);
                } else {
                    call("cudaMemcpyAsync", host, p, 4L * n, stream);   // the host read below waits for it
                }
                for (int i = 0; i < n; i++) {
                    assertEquals(base + 0.5f * i, host.getArrayElement(i).asFloat(), alloc + " round " + round
                            + " element " + i);
                }
            }
            call("cudaFree", p);
        }
    }

    @Test
    void aPointerIsAGpuPointerWithItsAddress() {
        Value p = call("cudaMalloc", 4096);
        assertTrue(p.isNativePointer());
        assertEquals("GPUPointer", p.getMetaObject().getMetaSimpleName());
        assertTrue(p.toString().startsWith("GPUPointer(0x" + Long.toHexString(p.asNativePointer()) + ", 4096 bytes,"
                + " cudaMalloc"), p.toString());
        assertFalse(p.hasArrayElements());
        assertEquals(java.util.Set.of("pointer"), p.getMemberKeys());
        long at = p.getMember("pointer").asLong();
        assertEquals(p.asNativePointer(), at);
        // bytes 16..23 of the raw memory, by address: written from an array, read back into another
        Value a = floats(2);
        a.setArrayElement(0, 1.5f);
        a.setArrayElement(1, -2f);
        call("cudaMemcpy", at + 16, a, 8);
        Value b = floats(4);
        call("cudaMemcpy", b, p, 16);   // bytes 0..15: untouched, zero
        assertEquals(0f, b.getArrayElement(3).asFloat());
        call("cudaMemcpy", b, at + 16, 8);
        assertEquals(1.5f, b.getArrayElement(0).asFloat());
        assertEquals(-2f, b.getArrayElement(1).asFloat());
        call("cudaFree", p);
        assertTrue(p.toString().endsWith(", freed)"), p.toString());
    }

    @Test
    void addressesInsideArraysAreCheckedAndOrdered() {
        int n = 64;
        Value a = floats(n);
        Value b = floats(n);
        for (int i = 0; i < n; i++) {
            a.setArrayElement(i, 100f + i);
        }
        // b[8..24) = a[0..16), by addresses as GrCUDA's cudaMemcpy takes them
        call("cudaMemcpy", address(b) + 8 * 4, address(a), 16 * 4);
        for (int i = 0; i < n; i++) {
            assertEquals(i >= 8 && i < 24 ? 100f + i - 8 : 0f, b.getArrayElement(i).asFloat(), "element " + i);
        }
        // a kernel on the second half of a: fill(a + 32, 5, 32)
        Value fill = call("buildkernel", FILL, FILL_SIG);
        fill.execute(1, 64).execute(address(a) + 32 * 4, 5f, 32);
        for (int i = 0; i < n; i++) {
            assertEquals(i < 32 ? 100f + i : 5f + 0.5f * (i - 32), a.getArrayElement(i).asFloat(), "element " + i);
        }
        String misaligned = assertThrows(PolyglotException.class,
                () -> fill.execute(1, 64).execute(address(a) + 2, 5f, 4)).getMessage();
        assertTrue(misaligned.contains("is not a multiple of 4 bytes from the start of its allocation; CUDA faults"
                + " on such a misaligned pointer"), misaligned);
        Value ints = call("DeviceArray", "int", n);
        String wrongType = assertThrows(PolyglotException.class,
                () -> fill.execute(1, 64).execute(address(ints) + 4, 5f, 4)).getMessage();
        assertTrue(wrongType.contains("is a pointer to float, but the device array passed holds int"), wrongType);
        String tooFar = error("cudaMemcpy", address(b) + 60 * 4, address(a), 16 * 4);
        assertTrue(tooFar.contains("cannot copy 64 bytes; the destination 0x") && tooFar.contains(
                "(byte 240 of DeviceArray(float, 64)) has 16 bytes from there on"), tooFar);
        String overlap = error("cudaMemcpy", address(a) + 4, address(a), 8);
        assertTrue(overlap.contains("overlap within 8 bytes; CUDA leaves the result of such a copy undefined"),
                overlap);
        long end = address(b) + 4L * n;
        Value c = floats(n);
        if (address(c) != end) {   // an address just past an allocation belongs to none
            String outside = error("cudaMemcpy", end, address(a), 4);
            assertTrue(outside.contains("argument 1 (destination) is the address 0x" + Long.toHexString(end)
                    + ", which is not inside any live allocation of this context"), outside);
        }
        long freedAddress = address(c);
        c.invokeMember("free");
        String freed = error("cudaMemcpy", freedAddress, address(a), 4);
        assertTrue(freed.contains("which is not inside any live allocation"), freed);
    }

    @Test
    void arraysCopyFromAndToRawMemory() {
        int n = 10;
        Value p = call("cudaMalloc", 4L * n);
        Value a = floats(n);
        for (int i = 0; i < n; i++) {
            a.setArrayElement(i, i * i);
        }
        a.invokeMember("copyTo", p);
        Value b = floats(n);
        b.invokeMember("copyFrom", p, 4);
        for (int i = 0; i < n; i++) {
            assertEquals(i < 4 ? i * i : 0f, b.getArrayElement(i).asFloat(), "element " + i);
        }
        b.invokeMember("copyFrom", address(a) + 4 * 5, 5);   // a raw pointer as an integer
        assertEquals(25f, b.getArrayElement(0).asFloat());
        assertEquals(81f, b.getArrayElement(4).asFloat());
        String tooMany = assertThrows(PolyglotException.class, () -> b.invokeMember("copyFrom", address(a) + 4 * 5,
                6)).getMessage();
        assertTrue(tooMany.contains("copyFrom: cannot copy 24 bytes; the source"), tooMany);
    }

    @Test
    void memsetSetsBytes() {
        Value ints = call("DeviceArray", "int", 4);
        call("cudaMemset", ints, 0x3f, 16);
        assertEquals(0x3f3f3f3f, ints.getArrayElement(3).asInt());
        call("cudaMemset", address(ints) + 4, 255, 4);
        assertEquals(-1, ints.getArrayElement(1).asInt());
        assertEquals(0x3f3f3f3f, ints.getArrayElement(2).asInt());
        Value stream = call("cudaStreamCreate");
        call("cudaMemsetAsync", ints, 0, 8, stream);
        assertEquals(0, ints.getArrayElement(1).asInt());
        assertEquals(0x3f3f3f3f, ints.getArrayElement(2).asInt());
        assertTrue(error("cudaMemset", ints, 300, 4).contains("argument 2 (value) is the value of each byte, from"
                + " -128 to 255, got 300"));
        assertTrue(error("cudaMemset", ints, 0, 17).contains("cannot set 17 bytes; DeviceArray(int, 4) has 16 bytes"));
        assertEquals("cudaMemset: argument 3 (byte count) must not be negative, got -4",
                error("cudaMemset", ints, 0, -4));
    }

    @Test
    void freeingChecksWhatItFrees() {
        Value p = call("cudaMalloc", 64);
        Value fill = call("buildkernel", FILL, FILL_SIG);
        call("cudaFree", p);
        assertTrue(error("cudaFree", p).contains("cudaFree: cudaMalloc(64) was already freed"));
        String used = assertThrows(PolyglotException.class, () -> fill.execute(1, 16).execute(p, 1f, 16))
                .getMessage();
        assertTrue(used.contains("argument 1 ('y') of kernel 'fill' is GPUPointer(") && used.contains(
                "which was freed"), used);
        call("cudaFree", 0);   // cudaFree(NULL) does nothing
        Value a = floats(8);
        String inside = error("cudaFree", address(a) + 4);
        assertTrue(inside.contains("is not the start of a live allocation of this context"), inside);
        call("cudaFree", a);
        assertTrue(a.getMember("isMemoryFreed").asBoolean());
        Value b = floats(8);
        call("cudaFree", address(b));
        assertTrue(b.getMember("isMemoryFreed").asBoolean());
        // a row of a multi-dimensional array is part of an allocation, even the first one that starts with it
        Value m = call("DeviceArray", "float", 3, 4);
        for (int row : new int[] {0, 1}) {
            String view = error("cudaFree", m.getArrayElement(row));
            assertTrue(view.contains("cudaFree: argument 1 is a view of DeviceArray(float, 3, 4) (m[i] of a"
                    + " multi-dimensional array), which is part of an allocation, not one; free the whole array"),
                    view);
        }
        assertFalse(m.getMember("isMemoryFreed").asBoolean());
        call("cudaFree", m);
        assertTrue(m.getMember("isMemoryFreed").asBoolean());
        assertEquals("cudaFree: DeviceArray(float, 3, 4) was already freed", error("cudaFree", m));
        assertTrue(error("cudaMalloc", 0).contains("cudaMalloc: the size must be a positive number of bytes, got 0"));
        String huge = error("cudaMalloc", 1L << 62);
        assertTrue(huge.startsWith("cudaMalloc: cannot allocate 4611686018427387904 bytes"), huge);
        assertTrue(error("cudaMallocManaged", 8, 4).contains("argument 2 (flags) must be one of 1"
                + " (cudaMemAttachGlobal), 2 (cudaMemAttachHost), got 4"));
    }

    @Test
    void hintsAreCheckedAndKeepResults() {
        int n = 100;
        Value p = call("cudaMallocManaged", 4L * n);
        Value stream = call("cudaStreamCreate");
        Value fill = call("buildkernel", FILL, FILL_SIG);
        call("cudaMemAdvise", p, 4L * n, 1, 0);
        call("cudaMemAdvise", p, 4L * n, 3, -1);
        call("cudaStreamAttachMemAsync", p);
        call("cudaStreamAttachMemAsync", stream, p);
        call("cudaStreamAttachMemAsync", stream, p, 4);
        call("cudaStreamAttachMemAsync", stream, p, 0, 1);
        fill.execute(1, 128).execute(p, 2f, n);
        call("cudaMemPrefetchAsync", p, 4L * n, 0, stream);
        call("cudaMemPrefetchAsync", p, 4L * n, -1);
        Value host = floats(n);
        call("cudaMemcpy", host, p, 4L * n);
        assertEquals(2f + 0.5f * 99, host.getArrayElement(99).asFloat());
        assertTrue(error("cudaMemPrefetchAsync", p, 4L * n + 1, 0).contains("argument 2 (byte count) must be 0 to"
                + " 400"));
        assertTrue(error("cudaMemPrefetchAsync", p, 4, 3).contains("there is no device 3"));
        assertTrue(error("cudaMemAdvise", p, 4, 9, 0).contains("argument 3 (advice) must be a cudaMemoryAdvise from 1"));
        assertTrue(error("cudaStreamAttachMemAsync", stream, p, 3).contains("argument 3 (flags) must be one of 1"
                + " (cudaMemAttachGlobal), 2 (cudaMemAttachHost), 4 (cudaMemAttachSingle), got 3"));
        assertTrue(error("cudaStreamAttachMemAsync", stream, p, 8, 4).contains("argument 3 (length) must be 0 or"
                + " the whole 400 bytes"));
    }

    private static final String COPY = """
            __global__ void copy(float *y, const float *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i];
            }""";

    @Test
    void addressesAsJavaScriptNumbersAndTheirMistakes() {
        Value ints = call("DeviceArray", "int", 4);
        call("cudaMemset", (double) (address(ints) + 4), 1, 4);   // a whole double is an address
        assertEquals(0x01010101, ints.getArrayElement(1).asInt());
        assertEquals(0, ints.getArrayElement(0).asInt());
        String fraction = error("cudaMemset", address(ints) + 4.5, 1, 4);
        assertTrue(fraction.startsWith("cudaMemset: argument 1 (memory) is the number ") && fraction.endsWith(
                ", which is not an address: an address is an array's pointer plus a whole number of bytes"),
                fraction);
        String huge = error("cudaMemcpy", ints, new BigInteger("2").pow(70), 4);
        assertTrue(huge.startsWith("cudaMemcpy: argument 2 (source) is the number 1180591620717411303424, which is"
                + " not an address"), huge);
        Value fill = call("buildkernel", FILL, FILL_SIG);
        String kernel = assertThrows(PolyglotException.class,
                () -> fill.execute(1, 4).execute(Double.NaN, 1f, 4)).getMessage();
        assertTrue(kernel.contains("argument 1 ('y') of kernel 'fill' is the number NaN, which is not an address"),
                kernel);
    }

    /**
     * A row of a 2-D array has no {@code pointer}, but the array's pointer plus the row's bytes names it: work
     * through that address is ordered with work on the whole array, under many chaos seeds.
     */
    @Test
    void anAddressOfARowIsOrderedWithWorkOnTheWholeArray() {
        int rows = 3;
        int cols = 96;
        for (int seed = 1; seed <= 6; seed++) {
            try (Context c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowExperimentalOptions(true)
                    .option("grcuda.DeviceChaos", "seed=" + seed + ",delay=300").build()) {
                Value cu = c.eval("grcuda", "CU");
                Value fill = cu.getMember("buildkernel").execute(FILL, FILL_SIG);
                Value copy = cu.getMember("buildkernel").execute(COPY,
                        "copy(y: out pointer float, x: in pointer float, n: sint32)");
                Value m = cu.getMember("DeviceArray").execute("float", rows, cols);
                Value whole = cu.getMember("DeviceArray").execute("float", rows * cols);
                long row1 = m.getMember("pointer").asLong() + 4L * cols;
                for (int round = 0; round < 4; round++) {
                    float base = 7 * round + seed;
                    fill.execute(3, 128).execute(m, -1f, rows * cols);                  // all of m
                    fill.execute(1, 128).execute(row1, base, cols);                     // then row 1, by address
                    copy.execute(1, 512).execute(whole, m, rows * cols);                // reads all of m
                    fill.execute(1, 128).execute(row1 + 4L * cols, 1000f + base, cols); // row 2 after the read
                    for (int i = 0; i < rows * cols; i++) {
                        int r = i / cols;
                        int j = i % cols;
                        float expected = r == 1 ? base + 0.5f * j : -1f + 0.5f * i;
                        assertEquals(expected, whole.getArrayElement(i).asFloat(),
                                "seed " + seed + " round " + round + " element " + i);
                    }
                    assertEquals(1000f + base + 0.5f * 5, m.getArrayElement(2).getArrayElement(5).asFloat(),
                            "seed " + seed + " round " + round);
                }
            }
        }
    }

    /** A kernel reads cudaMalloc memory ({@code in}) that other kernels write before and after it. */
    @Test
    void aReaderOfRawMemoryIsOrderedBetweenItsWriters() {
        int n = 200;
        for (int seed = 1; seed <= 6; seed++) {
            for (String policy : new String[] {"with-const", "no-const"}) {
                try (Context c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowExperimentalOptions(true)
                        .option("grcuda.DeviceChaos", "seed=" + seed + ",delay=300")
                        .option("grcuda.DependencyPolicy", policy).build()) {
                    Value cu = c.eval("grcuda", "CU");
                    Value fill = cu.getMember("buildkernel").execute(FILL, FILL_SIG);
                    Value copy = cu.getMember("buildkernel").execute(COPY,
                            "copy(y: out pointer float, x: in pointer float, n: sint32)");
                    Value p = cu.getMember("cudaMalloc").execute(4L * n);
                    Value[] outs = new Value[4];
                    for (int k = 0; k < outs.length; k++) {
                        outs[k] = cu.getMember("DeviceArray").execute("float", n);
                        fill.execute(2, 128).execute(p, 100f * k + seed, n);
                        copy.execute(2, 128).execute(outs[k], p, n);
                        copy.execute(2, 128).execute(outs[k], p, n / 2);   // a second reader beside the first
                    }
                    for (int k = 0; k < outs.length; k++) {
                        for (int i = 0; i < n; i += 7) {
                            assertEquals(100f * k + seed + 0.5f * i, outs[k].getArrayElement(i).asFloat(),
                                    policy + " seed " + seed + " output " + k + " element " + i);
                        }
                    }
                }
            }
        }
    }

    /**
     * cudaFree waits for the kernels queued on the memory, so they cannot write into memory handed out again;
     * and an old integer address names whatever is allocated there now, as in CUDA.
     */
    @Test
    void freeingWaitsForQueuedWorkAndAnOldAddressNamesTheNewAllocation() {
        Value nap = call("buildkernel", """
                __global__ void nap(int *y, int ms, int v) {
                    for (int k = 0; k < ms; k++) __nanosleep(1000000);
                    y[threadIdx.x] = v;
                }""", "nap(y: out pointer sint32, ms: sint32, v: sint32)");
        // Whether the allocator hands the freed block out again depends on what else the thread allocated in
        // between (the JVM mallocs too), so a round that gets other blocks frees them and starts again.
        long old = 0;
        Value again = null;
        for (int round = 0; round < 20 && again == null; round++) {
            Value q = call("cudaMalloc", 64);
            old = q.asNativePointer();
            nap.execute(1, 16).execute(q, round == 0 ? 200 : 20, 99);
            call("cudaFree", q);
            List<Value> others = new ArrayList<>();
            for (int i = 0; i < 50 && again == null; i++) {
                Value a = call("DeviceArray", "int", 16);
                if (address(a) == old) {
                    again = a;
                } else {
                    others.add(a);
                }
            }
            for (Value a : others) {
                a.invokeMember("free");
            }
        }
        assertNotNull(again, "in 20 rounds the CPU device never handed out a freed block of the same size again"
                + " (this test needs it)");
        for (int i = 0; i < 16; i++) {
            again.setArrayElement(i, -i);
        }
        call("cudaDeviceSynchronize");   // a kernel still running on the old memory would have written 99s
        for (int i = 0; i < 16; i++) {
            assertEquals(-i, again.getArrayElement(i).asInt(), "element " + i + " of the new allocation");
        }
        call("cudaMemset", old + 8, 0x7f, 4);
        assertEquals(0x7f7f7f7f, again.getArrayElement(2).asInt(), "the old address names the new array");
    }

    /**
     * Contexts on several Java threads at once (one thread per context, as the polyglot API requires) each see
     * only their own allocations: an address of another context's memory is refused, never written.
     */
    @Test
    void contextsOnSeveralThreadsKeepTheirAddressesApart() throws Exception {
        int threads = 4;
        int n = 64;
        long[] published = new long[threads];
        CyclicBarrier allocated = new CyclicBarrier(threads);
        List<Future<String>> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int t = 0; t < threads; t++) {
                int me = t;
                results.add(pool.submit(() -> {
                    try (Context c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowExperimentalOptions(true)
                            .option("grcuda.DeviceChaos", "seed=" + (20 + me) + ",delay=100").build()) {
                        Value cu = c.eval("grcuda", "CU");
                        Value fill = cu.getMember("buildkernel").execute(FILL, FILL_SIG);
                        Value p = cu.getMember("cudaMalloc").execute(4L * n + 64);
                        published[me] = p.asNativePointer();
                        allocated.await(30, TimeUnit.SECONDS);
                        long other = published[(me + 1) % threads];
                        PolyglotException e = assertThrows(PolyglotException.class,
                                () -> cu.getMember("cudaMemset").execute(other, 0, 4));
                        assertTrue(e.getMessage().contains("which is not inside any live allocation of this context"),
                                e.getMessage());
                        Value host = cu.getMember("DeviceArray").execute("float", n);
                        for (int round = 0; round < 10; round++) {
                            float base = 1000 * me + round;
                            fill.execute(1, 64).execute(p.asNativePointer() + 64, base, n);
                            cu.getMember("cudaMemcpy").execute(host, p.asNativePointer() + 64, 4L * n);
                            for (int i = 0; i < n; i++) {
                                assertEquals(base + 0.5f * i, host.getArrayElement(i).asFloat(),
                                        "thread " + me + " round " + round + " element " + i);
                            }
                        }
                        allocated.await(30, TimeUnit.SECONDS);   // none frees while another may still try it
                        cu.getMember("cudaFree").execute(p);
                        return "ok";
                    }
                }));
            }
            for (Future<String> r : results) {
                assertEquals("ok", r.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void peerAccessSaysThereIsNoPeer() {
        assertEquals(0, call("cudaDeviceCanAccessPeer", 0, 0).asInt());
        assertTrue(error("cudaDeviceCanAccessPeer", 0, 1).contains("there is no device 1"));
        String enable = error("cudaDeviceEnablePeerAccess", 0, 0);
        assertTrue(enable.contains("a device is not its own peer; this context runs on 1 device, so there is no peer"
                + " access to enable"), enable);
        assertTrue(error("cudaDeviceEnablePeerAccess", 0, 1).contains("argument 2 (flags) must be 0"));
        assertTrue(error("cudaDeviceDisablePeerAccess", 0).contains("no peer access to disable"));
    }
}
