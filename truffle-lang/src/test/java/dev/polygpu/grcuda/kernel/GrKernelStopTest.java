package dev.polygpu.grcuda.kernel;

import dev.polygpu.grcuda.SharedEngine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.oracle.truffle.api.ThreadLocalAction;
import dev.polygpu.device.Device;
import dev.polygpu.grcuda.GrContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel that never ends does not hang the program: {@code grcuda.KernelTimeout} stops it with a fault that
 * names it and the limit, {@code Context.close(true)} returns, and interrupting the guest call that waits for it
 * stops it; the context's device then runs later kernels right. Every test runs under a preemptive time limit
 * far above what it needs, so a stop that does not work fails the test rather than hanging the suite.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GrKernelStopTest {
    private static final String SPIN = """
            __global__ void spin(int* flag) {
                flag[0] = 1;
                while (1) {
                }
            }
            """;
    private static final String TWICE = """
            __global__ void twice(const int* x, int* y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = 2 * x[i];
            }
            """;

    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();

    private static Context context(String kernelTimeout) {
        Context.Builder b = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true)
                .option("grcuda.Device", "cpu").option("grcuda.CpuBlocks", "1");
        if (kernelTimeout != null) {
            b.option("grcuda.KernelTimeout", kernelTimeout);
        }
        return b.build();
    }

    private static Value launchSpin(Context c) {
        Value cu = c.eval("grcuda", "CU");
        Value flag = cu.getMember("DeviceArray").execute("int", 1);
        cu.getMember("buildkernel").execute(SPIN, "spin(flag: inout pointer sint32)").execute(1, 1).execute(flag);
        return flag;
    }

    /**
     * The context still runs kernels, on its only worker: each element doubled, as computed here. Were the
     * stopped kernel still running, this would wait for ever (and the test's time limit would fail it).
     */
    private static void assertWorks(Context c) {
        Value cu = c.eval("grcuda", "CU");
        int n = 300;
        Value x = cu.getMember("DeviceArray").execute("int", n);
        Value y = cu.getMember("DeviceArray").execute("int", n);
        int[] expected = new int[n];
        for (int i = 0; i < n; i++) {
            x.setArrayElement(i, 5 * i - 700);
            expected[i] = 2 * (5 * i - 700);
        }
        cu.getMember("buildkernel").execute(TWICE, "twice(x: in pointer sint32, y: out pointer sint32, n: sint32)")
                .execute(3, 128).execute(x, y, n);
        int[] got = new int[n];
        for (int i = 0; i < n; i++) {
            got[i] = y.getArrayElement(i).asInt();
        }
        assertEquals(Arrays.toString(expected), Arrays.toString(got));
    }

    @Test
    void kernelTimeoutStopsAnEndlessKernelThenTheContextWorks() {
        try (Context c = context("300ms")) {
            Value flag = launchSpin(c);
            PolyglotException e = assertThrows(PolyglotException.class, () -> flag.getArrayElement(0));
            assertTrue(e.getMessage().contains("kernel 'spin'"), e.getMessage());
            assertTrue(e.getMessage().contains("ran longer than the kernel time limit of 300 ms"), e.getMessage());
            assertTrue(e.getMessage().contains("LAUNCH_TIMEOUT"), e.getMessage());
            assertWorks(c);
        }
    }

    @Test
    void kernelTimeoutSpellings() {
        for (String spelling : new String[] {"250", "250ms", "0.25s"}) {
            try (Context c = context(spelling)) {
                Value flag = launchSpin(c);
                PolyglotException e = assertThrows(PolyglotException.class, () -> flag.getArrayElement(0));
                assertTrue(e.getMessage().contains("time limit of 250 ms"), spelling + ": " + e.getMessage());
            }
        }
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> context("soon").close());
        assertTrue(bad.getMessage().contains("grcuda.KernelTimeout must be 0 (no limit), milliseconds such as 500"),
                bad.getMessage());
    }

    @Test
    void closeWithCancellationReturnsWhileAKernelSpins() {
        Context c = context(null);
        launchSpin(c);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> c.close(true));
    }

    @Test
    void interruptingTheWaitingCallStopsTheKernel() throws Exception {
        try (Context c = context(null)) {
            Value flag = launchSpin(c);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    flag.getArrayElement(0);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "waiter");
            waiter.start();
            // Interrupt only once the read blocks in the language's wait, not while it enters the context.
            awaitWaiting(waiter);
            c.interrupt(Duration.ofSeconds(60));
            waiter.join();
            assertNotNull(thrown.get(), "the read was not interrupted");
            assertTrue(thrown.get() instanceof PolyglotException p && p.isInterrupted(), thrown.get().toString());
            PolyglotException fault = assertThrows(PolyglotException.class, () -> flag.getArrayElement(0));
            assertTrue(fault.getMessage().contains("kernel 'spin'") && fault.getMessage().contains(
                    "stopped: the guest call waiting for it was interrupted"), fault.getMessage());
            assertWorks(c);
        }
    }

    /**
     * A thread-local action that lets the guest go on (GraalPy hands its GIL to another Python thread this way)
     * interrupts a waiting read and Truffle resumes the wait: the kernel goes on running, and the read stays one
     * element of the DAG — not one failed element per action, as an exported DAG once showed.
     */
    @Test
    void threadLocalActionsResumeTheSameWait(@TempDir Path dir) throws Exception {
        Path dot = dir.resolve("dag.dot");
        Context c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true)
                .option("grcuda.Device", "cpu").option("grcuda.CpuBlocks", "1")
                .option("grcuda.ExportDAG", dot.toString()).build();
        try (c) {
            Value flag = launchSpin(c);
            c.enter();
            GrContext context = GrContext.get(null);
            c.leave();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    flag.getArrayElement(0);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "waiter");
            waiter.start();
            AtomicInteger performed = new AtomicInteger();
            for (int i = 0; i < 3; i++) {
                awaitWaiting(waiter);
                context.env().submitThreadLocal(new Thread[] {waiter}, new ThreadLocalAction(false, false) {
                    @Override
                    protected void perform(Access access) {
                        performed.incrementAndGet();
                    }
                }).get(60, TimeUnit.SECONDS);
            }
            assertEquals(3, performed.get());
            awaitWaiting(waiter);
            assertTrue(waiter.isAlive(), "the read ended while the kernel spins: " + thrown.get());
            for (Device d : context.scheduler().devices()) {
                d.stopLaunches("the test ended it");
            }
            waiter.join();
            assertTrue(thrown.get() instanceof PolyglotException p && p.getMessage().contains("the test ended it"),
                    String.valueOf(thrown.get()));
        }
        String dag = Files.readString(dot);
        assertEquals(1, dag.split("host read", -1).length - 1, dag);
        assertFalse(dag.contains("interrupted"), dag);
    }

    /** Waits until {@code t} blocks in the language's wait (not while it enters the context). */
    private static void awaitWaiting(Thread t) throws InterruptedException {
        while (t.isAlive() && (t.getState() != Thread.State.WAITING || Arrays.stream(t.getStackTrace())
                .noneMatch(f -> f.getClassName().endsWith("InterruptibleWaits")))) {
            Thread.sleep(5);
        }
    }
}
