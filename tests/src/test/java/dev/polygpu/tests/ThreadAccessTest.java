package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * Threads and grcuda through the polyglot API (docs/scheduler.md#threads): GraalPy's threads use one context's
 * arrays and kernels at once; GraalJS keeps its own rule, one thread at a time in a context it is part of.
 */
class ThreadAccessTest {
    private static final String PYTHON = """
            import polyglot
            import threading

            cu = polyglot.eval(language="grcuda", string="CU")
            k = cu.buildkernel('''
            __global__ void twice(const float* x, float* y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = 2.0f * x[i] + 1.0f;
            }''', "twice", "const pointer, pointer, sint32")
            N = 256
            shared = cu.DeviceArray("int", N)
            for i in range(N):
                shared[i] = 3 * i
            problems = []
            checked = [0] * 4

            def work(t):
                try:
                    for it in range(10):
                        x = cu.DeviceArray("float", N)
                        y = cu.DeviceArray("float", N)
                        for i in range(N):
                            x[i] = t * 10000 + it * 100 + i
                        k(2, 128)(x, y, N)
                        for i in range(N):
                            if y[i] != 2 * (t * 10000 + it * 100 + i) + 1 or shared[i] != 3 * i:
                                problems.append((t, it, i, y[i], shared[i]))
                            checked[t] += 1
                except BaseException as e:
                    problems.append(repr(e))

            threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            (len(problems), sum(checked), str(problems[:3]))
            """;

    @Test
    void pythonThreadsLaunchKernelsAndReadArraysAtOnceWithRightResults() throws InterruptedException {
        try (Context c = Context.newBuilder("python", "grcuda").engine(Guests.engine()).allowAllAccess(true).build()) {
            Value r = c.eval("python", PYTHON);
            assertEquals(0, r.getArrayElement(0).asInt(), r.getArrayElement(2).asString());
            assertEquals(4 * 10 * 256, r.getArrayElement(1).asInt(), "every element of every round was checked");
            awaitPythonThreadsEnded();
        }
    }

    /**
     * Waits for the JVM threads behind the program's joined Python threads to end before the context closes:
     * GraalPy returns from {@code join()} while its thread is still leaving, and a close in that window fails with
     * "The language did not complete all polyglot threads" (oracle/graalpython#543), which is not what this
     * test is about.
     */
    private static void awaitPythonThreadsEnded() throws InterruptedException {
        for (int i = 0; i < 200 && Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().startsWith("Polyglot-python-") && t.isAlive()); i++) {
            Thread.sleep(50);
        }
    }

    @Test
    void aSecondThreadInABusyJavaScriptContextIsRejectedByGraalJsAndTheContextKeepsWorking() throws Exception {
        try (Context c = Context.newBuilder("js", "grcuda").engine(Guests.engine()).allowAllAccess(true).build()) {
            Value x = c.eval("js", "Polyglot.eval('grcuda', 'CU').DeviceArray('float', 10)");
            AtomicReference<Throwable> seen = new AtomicReference<>();
            c.enter();
            try {
                Thread t = Thread.ofPlatform().start(() -> {
                    try {
                        x.setArrayElement(0, 1.5f);
                    } catch (Throwable e) {
                        seen.set(e);
                    }
                });
                t.join();
            } finally {
                c.leave();
            }
            assertTrue(seen.get() instanceof IllegalStateException, String.valueOf(seen.get()));
            assertTrue(seen.get().getMessage().contains("js"), seen.get().getMessage());
            // One thread at a time is fine, whichever thread it is.
            Thread t = Thread.ofPlatform().start(() -> x.setArrayElement(1, 2.5f));
            t.join();
            assertEquals(2.5f, x.getArrayElement(1).asFloat());
        }
    }

    @Test
    void javaThreadsUseOneGrcudaContextsValuesAtOnce() throws Exception {
        try (Context c = Context.newBuilder("grcuda").engine(Guests.engine()).allowAllAccess(true).build()) {
            Value x = c.eval("grcuda", "CU").getMember("DeviceArray").execute("float", 10);
            AtomicReference<Throwable> seen = new AtomicReference<>();
            c.enter();
            try {
                Thread t = Thread.ofPlatform().start(() -> {
                    try {
                        x.setArrayElement(0, 1.5f);
                    } catch (Throwable e) {
                        seen.set(e);
                    }
                });
                t.join();
            } finally {
                c.leave();
            }
            assertEquals(null, seen.get(), "a second thread enters a busy grcuda context");
            assertEquals(1.5f, x.getArrayElement(0).asFloat());
        }
    }
}
