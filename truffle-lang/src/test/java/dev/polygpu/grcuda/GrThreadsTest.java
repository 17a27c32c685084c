package dev.polygpu.grcuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Java threads using one context's grcuda values at once, through the polyglot API. */
@Timeout(120)
class GrThreadsTest {
    private static final String TWICE = """
            __global__ void twice(const float* x, float* y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = 2.0f * x[i] + 1.0f;
            }
            """;
    private static final int N = 512;
    private static final int THREADS = 4;

    private static Context context() {
        return Context.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").allowAllAccess(true)
                .build();
    }

    /** Runs {@code body(t)} on {@link #THREADS} threads started together; the failures they met. */
    private static List<Throwable> onThreads(ThreadBody body) throws Exception {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    body.run(id);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread th : threads) {
            th.join();
        }
        return new ArrayList<>(failures);
    }

    private interface ThreadBody {
        void run(int thread) throws Exception;
    }

    @Test
    void threadsLaunchKernelsAndReadArraysAtOnceWithRightResults() throws Exception {
        try (Context c = context()) {
            Value cu = c.eval("grcuda", "CU");
            Value k = cu.getMember("buildkernel").execute(TWICE, "twice", "const pointer, pointer, sint32");
            // One array all threads read at once, written before they start.
            Value shared = cu.getMember("DeviceArray").execute("int", N);
            for (int i = 0; i < N; i++) {
                shared.setArrayElement(i, i * 7);
            }
            List<Throwable> failures = onThreads(t -> {
                for (int it = 0; it < 20; it++) {
                    Value x = cu.getMember("DeviceArray").execute("float", N);
                    Value y = cu.getMember("DeviceArray").execute("float", N);
                    for (int i = 0; i < N; i++) {
                        x.setArrayElement(i, (float) (t * 10_000 + it * 100 + i));
                    }
                    k.execute(N / 128, 128).execute(x, y, N);
                    for (int i = 0; i < N; i++) {
                        float expected = 2f * (t * 10_000 + it * 100 + i) + 1f;
                        assertEquals(expected, y.getArrayElement(i).asFloat(), "thread " + t + ", round " + it
                                + ", y[" + i + "]");
                        assertEquals(i * 7, shared.getArrayElement(i).asInt());
                    }
                    if (it % 2 == 0) {
                        x.invokeMember("free");
                    }
                }
            });
            assertEquals(List.of(), failures);
            assertEquals(THREADS * 20L, k.getMember("launchCount").asLong(), "every launch counted once");
        }
    }

    @Test
    void anArrayFreedWhileOtherThreadsReadItGivesValuesOrTheFreedErrorNeverACrash() throws Exception {
        try (Context c = context()) {
            Value cu = c.eval("grcuda", "CU");
            for (int round = 0; round < 20; round++) {
                Value a = cu.getMember("DeviceArray").execute("double", N);
                for (int i = 0; i < N; i++) {
                    a.setArrayElement(i, i + 0.25);
                }
                List<Throwable> failures = onThreads(t -> {
                    if (t == 0) {
                        a.invokeMember("free");
                        return;
                    }
                    try {
                        for (int rep = 0; rep < 50; rep++) {
                            for (int i = 0; i < N; i++) {
                                assertEquals(i + 0.25, a.getArrayElement(i).asDouble());
                            }
                        }
                    } catch (PolyglotException e) {
                        assertTrue(e.getMessage().contains("was freed"), e.getMessage());
                    }
                });
                assertEquals(List.of(), failures, "round " + round);
                assertTrue(a.getMember("isMemoryFreed").asBoolean());
            }
        }
    }
}
