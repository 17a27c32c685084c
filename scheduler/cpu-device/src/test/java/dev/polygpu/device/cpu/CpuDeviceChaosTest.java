package dev.polygpu.device.cpu;

import static dev.polygpu.device.cpu.DeviceConformanceTest.expect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Event;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.kernel.KernelEngine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The CPU device in chaos mode, with kernels compiled by the kernel engine: a missing dependency between
 * streams gives wrong results, the same program with its event gives right ones every time, and stream order,
 * callbacks, synchronization and closing keep their meaning. Every message names the seed.
 */
@Timeout(60)
class CpuDeviceChaosTest {
    private static final long SEED = 0xC4A05L;
    private static final int WORKERS = 2;
    private static final int TRIALS = 20;
    /** Up to 2 ms before each stream operation: long enough to move streams against each other. */
    private static final Chaos CHAOS = new Chaos(SEED, 2_000);
    private static final int N = 8192;
    private static final int BLOCK = 128;
    /** LCG steps per element of {@code produce}: a few milliseconds per launch, to leave a wide race window. */
    private static final int ROUNDS = 3_000;

    private static final String SOURCE = """
            __global__ void produce(int* x, int n, int rounds, unsigned int salt)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    unsigned int h = (unsigned int) i ^ salt;
                    for (int r = 0; r < rounds; r++) {
                        h = h * 1664525u + 1013904223u;
                    }
                    x[i] = (int) (h & 0xffffu) + 1;
                }
            }

            __global__ void consume(const int* x, int* y, int n)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    y[i] = x[i] * 2 + 1;
                }
            }

            __global__ void sum(const int* a, const int* b, int* y, int n)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    y[i] = a[i] + b[i];
                }
            }

            __global__ void step(unsigned int* v, int n, unsigned int k)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    v[i] = v[i] * 3u + k;
                }
            }
            """;

    private final CpuDevice device = new CpuDevice(WORKERS, KernelEngine::compile, CHAOS);
    private final Module module = device.compile(SOURCE, "chaos.cu");
    private final KernelFunction produce = module.function("produce");
    private final KernelFunction consume = module.function("consume");
    private final KernelFunction sum = module.function("sum");
    private final KernelFunction step = module.function("step");

    @AfterEach
    void closeDevice() {
        device.close();
    }

    private static String ctx(String what) {
        return what + " [seed " + SEED + ", " + CHAOS + "]";
    }

    private static LaunchConfig grid() {
        return LaunchConfig.of((N + BLOCK - 1) / BLOCK, BLOCK);
    }

    /** What {@code produce} writes at {@code i}. */
    private static int produced(int i, int salt) {
        int h = i ^ salt;
        for (int r = 0; r < ROUNDS; r++) {
            h = h * 1664525 + 1013904223;
        }
        return (h & 0xffff) + 1;
    }

    private void produce(Stream s, UnifiedBuffer x, int salt) {
        s.launch(produce, grid(), KernelArgs.builder().pointer(x).i32(N).i32(ROUNDS).u32(salt).build());
    }

    private void consume(Stream s, UnifiedBuffer x, UnifiedBuffer y) {
        s.launch(consume, grid(), KernelArgs.builder().pointer(x).pointer(y).i32(N).build());
    }

    /** The first index where {@code y} is not {@code 2 * produce(i) + 1}, or -1. */
    private static int firstWrongConsumed(UnifiedBuffer y, int salt) {
        for (int i = 0; i < N; i++) {
            if (y.getInt(i) != produced(i, salt) * 2 + 1) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aMissingCrossStreamDependencyGivesAWrongResult() {
        Stream s1 = device.createStream();
        Stream s2 = device.createStream();
        UnifiedBuffer x = device.allocate(4L * N);
        UnifiedBuffer y = device.allocate(4L * N);
        int wrong = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            x.hostView().fill((byte) 0);
            // The bug under test: consume reads x on s2 with nothing ordering it after produce on s1.
            produce(s1, x, trial);
            consume(s2, x, y);
            s1.synchronize();
            s2.synchronize();
            if (firstWrongConsumed(y, trial) >= 0) {
                wrong++;
            }
        }
        assertTrue(wrong > 0, ctx("all " + TRIALS + " trials without the dependency gave the right result"));
    }

    @Test
    void theSameProgramWithItsEventIsRightEveryTime() {
        Stream s1 = device.createStream();
        Stream s2 = device.createStream();
        Event written = device.createEvent(false);
        UnifiedBuffer x = device.allocate(4L * N);
        UnifiedBuffer y = device.allocate(4L * N);
        for (int trial = 0; trial < TRIALS; trial++) {
            x.hostView().fill((byte) 0);
            produce(s1, x, trial);
            s1.record(written);
            s2.waitFor(written);
            consume(s2, x, y);
            // Only s2 is synchronized: it waited for s1's event, so produce has run too.
            s2.synchronize();
            assertTrue(written.isComplete(), ctx("event after s2 waited for it, trial " + trial));
            int i = firstWrongConsumed(y, trial);
            assertEquals(-1, i, ctx("trial " + trial + ": y[" + i + "] is wrong"));
        }
    }

    @Test
    void aJoinOfTwoStreamsIsRightEveryTime() {
        Stream s1 = device.createStream();
        Stream s2 = device.createStream();
        Stream s3 = device.createStream();
        Event e1 = device.createEvent(false);
        Event e2 = device.createEvent(false);
        UnifiedBuffer a = device.allocate(4L * N);
        UnifiedBuffer b = device.allocate(4L * N);
        UnifiedBuffer y = device.allocate(4L * N);
        for (int trial = 0; trial < TRIALS / 2; trial++) {
            a.hostView().fill((byte) 0);
            b.hostView().fill((byte) 0);
            produce(s1, a, trial);
            s1.record(e1);
            produce(s2, b, ~trial);
            s2.record(e2);
            s3.waitFor(e1);
            s3.waitFor(e2);
            s3.launch(sum, grid(), KernelArgs.builder().pointer(a).pointer(b).pointer(y).i32(N).build());
            s3.synchronize();
            for (int i = 0; i < N; i++) {
                int expected = produced(i, trial) + produced(i, ~trial);
                if (y.getInt(i) != expected) {
                    assertEquals(expected, y.getInt(i), ctx("trial " + trial + ", y[" + i + "]"));
                }
            }
        }
    }

    @Test
    void oneStreamRunsItsOperationsInOrder() {
        Random r = new Random(SEED);
        Stream s = device.createStream();
        UnifiedBuffer v = device.allocate(4L * N);
        UnifiedBuffer snapshot = device.allocate(4L * N);
        for (int trial = 0; trial < 5; trial++) {
            int[] expected = new int[N];
            for (int i = 0; i < N; i++) {
                expected[i] = r.nextInt();
                v.setInt(i, expected[i]);
            }
            int[] atSnapshot = null;
            for (int k = 1; k <= 12; k++) {
                s.launch(step, grid(), KernelArgs.builder().pointer(v).i32(N).u32(k).build());
                for (int i = 0; i < N; i++) {
                    expected[i] = expected[i] * 3 + k;
                }
                if (k == 6) {
                    s.copy(snapshot, 0, v, 0, 4L * N);
                    atSnapshot = expected.clone();
                }
            }
            s.fill(v, 0, 4, (byte) 0x7f);
            expected[0] = 0x7f7f7f7f;
            s.synchronize();
            assertTrue(s.isIdle(), ctx("stream after synchronize"));
            for (int i = 0; i < N; i++) {
                if (v.getInt(i) != expected[i] || snapshot.getInt(i) != atSnapshot[i]) {
                    assertEquals(expected[i], v.getInt(i), ctx("trial " + trial + ", v[" + i + "]"));
                    assertEquals(atSnapshot[i], snapshot.getInt(i), ctx("trial " + trial + ", snapshot[" + i + "]"));
                }
            }
        }
    }

    @Test
    void callbacksRunInStreamOrderAfterTheWorkBeforeThem() {
        Stream s1 = device.createStream();
        Stream s2 = device.createStream();
        UnifiedBuffer x = device.allocate(4L * N);
        UnifiedBuffer y = device.allocate(4L * N);
        x.hostView().fill((byte) 0);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        Event done = device.createEvent(false);
        produce(s1, x, 7);
        s1.onComplete(() -> seen.add("produced, x[N-1] right: " + (x.getInt(N - 1) == produced(N - 1, 7))));
        s1.record(done);
        s2.waitFor(done);
        consume(s2, x, y);
        s2.onComplete(() -> seen.add("consumed, y right: " + (firstWrongConsumed(y, 7) == -1)));
        s2.onComplete(() -> seen.add("last"));
        device.synchronize();
        assertEquals(List.of("produced, x[N-1] right: true", "consumed, y right: true", "last"), seen, ctx("callbacks"));
        assertTrue(s1.isIdle() && s2.isIdle(), ctx("streams after device synchronize"));
        assertTrue(done.isComplete(), ctx("event after device synchronize"));
        done.synchronize();
    }

    @Test
    void closingWaitsForQueuedWorkOnEveryStream() {
        CpuDevice other = new CpuDevice(WORKERS, KernelEngine::compile, new Chaos(SEED + 1, 500));
        KernelFunction k = other.compile(SOURCE, "chaos.cu").function("step");
        AtomicInteger callbacks = new AtomicInteger();
        List<UnifiedBuffer> buffers = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            Stream stream = other.createStream();
            UnifiedBuffer v = other.allocate(4L * N);
            buffers.add(v);
            for (int j = 0; j < 5; j++) {
                stream.launch(k, grid(), KernelArgs.builder().pointer(v).i32(N).u32(j).build());
                stream.onComplete(callbacks::incrementAndGet);
            }
        }
        other.close();
        other.close();
        assertEquals(20, callbacks.get(), ctx("callbacks run before close returned"));
        assertTrue(buffers.stream().allMatch(UnifiedBuffer::isFreed), ctx("buffers after close"));
        expect(CudaError.INVALID_CONTEXT, other::createStream);
    }

    @Test
    void thePoolRunsEveryTaskOnceInAShuffledOrder() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "chaos-test-worker-", CHAOS);
        try {
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch finished = new CountDownLatch(200);
            List<Integer> order = Collections.synchronizedList(new ArrayList<>());
            pool.execute(() -> awaitGate(gate));
            for (int i = 0; i < 200; i++) {
                int task = i;
                pool.execute(() -> {
                    order.add(task);
                    finished.countDown();
                });
            }
            gate.countDown();
            assertTrue(finished.await(30, TimeUnit.SECONDS), ctx("tasks finished"));
            List<Integer> fifo = IntStream.range(0, 200).boxed().toList();
            assertNotEquals(fifo, order, ctx("order of the queued tasks"));
            assertEquals(fifo, order.stream().sorted().toList(), ctx("every task exactly once"));
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aLaunchRunsEveryBlockOnceInAScrambledOrder() {
        List<Integer> blocks = Collections.synchronizedList(new ArrayList<>());
        var record = FakeKernels.FakeKernel.of("record", (f, bx, by, bz) -> blocks.add(bx));
        try (CpuDevice one = new CpuDevice(1, FakeKernels.compiler(record), CHAOS)) {
            KernelFunction k = one.compile("/* record */", "record.cu").function("record");
            Stream s = one.createStream();
            List<Integer> inOrder = IntStream.range(0, 64).boxed().toList();
            boolean scrambled = false;
            for (int launch = 0; launch < 5; launch++) {
                blocks.clear();
                s.launch(k, LaunchConfig.of(64, 1), KernelArgs.builder().build());
                s.synchronize();
                assertEquals(inOrder, blocks.stream().sorted().toList(), ctx("launch " + launch + ": blocks run"));
                scrambled |= !blocks.equals(inOrder);
            }
            assertTrue(scrambled, ctx("five launches ran their blocks in ascending order"));
        }
    }

    private static void awaitGate(CountDownLatch gate) {
        try {
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted at the gate", e);
        }
    }
}
