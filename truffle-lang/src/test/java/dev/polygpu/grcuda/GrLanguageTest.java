package dev.polygpu.grcuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.polygpu.device.cuda.CudaProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.graalvm.options.OptionDescriptor;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The language through the polyglot API from Java: evaluation, the namespace, options and their errors, and the
 * recorded schedule ({@code polygpu_schedule}).
 */
class GrLanguageTest {
    private static final String SQUARE = """
            __global__ void square(const float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * x[i];
            }""";

    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();

    private static Context context(String... options) {
        Context.Builder b = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true);
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return b.build();
    }

    @Test
    void cuIsTheRootNamespace() {
        try (Context c = context()) {
            Value cu = c.eval("grcuda", "CU");
            assertTrue(cu.hasMember("getoptions"));
            // counted, not listed: GraalJS puts it in the message of every failed call through CU
            assertEquals("namespace CU (" + cu.getMemberKeys().size() + " names)", cu.toString());
            assertTrue(c.eval("grcuda", "getoptions").canExecute());
        }
    }

    @Test
    void getoptionsShowsTheValuesInGrCudaSpelling() {
        try (Context c = context("grcuda.ExecutionPolicy", "sync", "grcuda.RetrieveNewStreamPolicy", "fifo")) {
            Value opts = c.eval("grcuda", "getoptions()");
            assertEquals("sync", opts.getMember("grcuda.ExecutionPolicy").asString());
            assertEquals("reuse", opts.getMember("grcuda.RetrieveNewStreamPolicy").asString());
            assertEquals("auto", opts.getMember("grcuda.Device").asString());
        }
    }

    /**
     * {@code polygpu --help} prints each option as {@code --name=<usage syntax>}: an option without one showed
     * as {@code --grcuda.ScheduleReport=null}. A boolean's syntax names both values, its default first.
     */
    @Test
    void everyOptionSaysWhatValuesItTakes() {
        List<String> missing = new ArrayList<>();
        for (OptionDescriptor d : ENGINE.get().getLanguages().get("grcuda").getOptions()) {
            String syntax = d.getUsageSyntax();
            if (syntax == null || syntax.isBlank()) {
                missing.add(d.getName());
            } else if (d.getKey().getDefaultValue() instanceof Boolean b) {
                assertEquals(b + "|" + !b, syntax, d.getName());
            }
        }
        assertEquals(List.of(), missing, "options without a usage syntax");
    }

    @Test
    void anUnknownOptionValueListsTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> context("grcuda.ExecutionPolicy", "fast").close());
        assertTrue(e.getMessage().contains("'fast' is not a valid value for grcuda.ExecutionPolicy; valid values"
                + " are: async, sync"), e.getMessage());
    }

    @Test
    void cpuBlocksSetsHowManyBlocksTheCpuDeviceRunsAtOnce() {
        try (Context c = context("grcuda.CpuBlocks", "8", "grcuda.Device", "cpu")) {
            Value cu = c.eval("grcuda", "CU");
            assertEquals("8", c.eval("grcuda", "getoptions()").getMember("grcuda.CpuBlocks").asString());
            Value properties = cu.getMember("getdevice").execute(0).getMember("properties");
            assertEquals(8, properties.getMember("multiProcessorCount").asInt());
            Value x = cu.getMember("DeviceArray").execute("int", 64);
            Value nap = cu.getMember("buildkernel").execute("""
                    __global__ void nap(int *x, int n) {
                        __nanosleep(1000);
                        x[blockIdx.x * blockDim.x + threadIdx.x] = n + threadIdx.x;
                    }
                    """, "nap(x: out pointer sint32, n: sint32)");
            nap.execute(2, 32).execute(x, 5);
            assertEquals(5 + 31, x.getArrayElement(63).asInt());
        }
        try (Context c = context()) {
            assertEquals("0", c.eval("grcuda", "getoptions()").getMember("grcuda.CpuBlocks").asString());
        }
    }

    @Test
    void aCpuBlocksCountOutsideItsRangeNamesTheOptionAndTheRange() {
        for (String bad : new String[] {"-1", "4097", "many"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> context("grcuda.CpuBlocks", bad).close());
            String shown = bad.equals("many") ? "'many'" : bad;
            assertTrue(e.getMessage().contains("grcuda.CpuBlocks must be an integer from 0 (one block per processor)"
                    + " to 4096, got " + shown), e.getMessage());
        }
    }

    @Test
    void withoutAGpuDeviceCudaSaysWhyAndAutoRunsOnTheCpu() {
        CudaProbe.Result probe = CudaProbe.result();
        assumeFalse(probe.usable(), "this machine has a usable GPU: " + probe.reason());
        try (Context c = context("grcuda.Device", "cuda")) {
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> c.eval("grcuda", "CU").getMember("DeviceArray").execute("float", 4));
            assertTrue(e.getMessage().contains("grcuda.Device=cuda, but no GPU can be used: " + probe.reason()
                    + "; use grcuda.Device=cpu or auto"), e.getMessage());
            // The context keeps working: the error is the guest's to handle, not a broken context.
            assertEquals("cuda", c.eval("grcuda", "getoptions()").getMember("grcuda.Device").asString());
        }
        try (Context c = context("grcuda.Device", "cuda", "grcuda.DeviceChaos", "7")) {
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> c.eval("grcuda", "CU").getMember("DeviceArray").execute("float", 4));
            assertTrue(e.getMessage().contains("grcuda.DeviceChaos=7 is a mode of the CPU device"), e.getMessage());
        }
        try (Context c = context()) {
            Value cu = c.eval("grcuda", "CU");
            String name = cu.getMember("getdevice").execute(0).getMember("properties").getMember("deviceName")
                    .asString();
            assertTrue(name.startsWith("polygpu CPU device"), name);
        }
    }

    @Test
    void syntaxAndNameErrorsSayWhereAndWhat() {
        try (Context c = context()) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> c.eval("grcuda", "float[10"));
            assertTrue(e.getMessage().contains("grcuda syntax error at 1:9: expected ']'"), e.getMessage());
            e = assertThrows(PolyglotException.class, () -> c.eval("grcuda", "NoSuchThing"));
            assertTrue(e.getMessage().contains("grcuda has no name 'NoSuchThing'; CU has getoptions"), e.getMessage());
        }
    }

    /** Two independent squares of x: two kernels reading x, then a host read of each result. */
    private static void run(Value cu) {
        int n = 64;
        Value x = cu.getMember("DeviceArray").execute("float", n);
        Value y = cu.getMember("DeviceArray").execute("float", n);
        Value z = cu.getMember("DeviceArray").execute("float", n);
        for (int i = 0; i < n; i++) {
            x.setArrayElement(i, i + 0.5f);
        }
        Value k = cu.getMember("buildkernel").execute(SQUARE, "square(x: in pointer float, y: out pointer float, n: sint32)");
        k.execute(1, 64).execute(x, y, n);
        k.execute(1, 64).execute(x, z, n);
        assertEquals(6.25, y.getArrayElement(2).asDouble());
        assertEquals(6.25, z.getArrayElement(2).asDouble());
    }

    @Test
    void everyFormatDescribesWhatRanAndClearForgetsIt() {
        try (Context c = context("grcuda.RecordSchedule", "true")) {
            Value cu = c.eval("grcuda", "CU");
            run(cu);
            Value schedule = cu.getMember("polygpu_schedule");
            String summary = schedule.execute("summary").asString();
            assertTrue(summary.startsWith("DAG: 4 elements, 2 edges, width 2"), summary);
            String dag = schedule.execute("dag-svg").asString();
            assertTrue(dag.startsWith("<svg ") && dag.contains("4 computations, 2 dependencies")
                    && dag.contains(">square</text>"), dag);
            String timeline = schedule.execute("timeline-svg").asString();
            assertTrue(timeline.startsWith("<svg ") && timeline.contains("4 computations over "), timeline);
            assertTrue(schedule.execute("chrome-trace").asString().startsWith("{\"traceEvents\":["));
            assertTrue(schedule.execute("dot").asString().startsWith("digraph schedule {"));
            assertEquals("true", cu.getMember("getoptions").execute().getMember("grcuda.RecordSchedule").asString());

            cu.getMember("polygpu_schedule_clear").execute();
            assertTrue(schedule.execute("summary").asString().startsWith("DAG: 0 elements"));
        }
    }

    @Test
    void badUsesAreGuestErrorsThatSayWhatToDo() {
        try (Context c = context()) {
            Value schedule = c.eval("grcuda", "CU").getMember("polygpu_schedule");
            PolyglotException off = assertThrows(PolyglotException.class, () -> schedule.execute("summary"));
            assertTrue(off.isGuestException() && off.getMessage().contains("grcuda.RecordSchedule=true"),
                    off.getMessage());
        }
        try (Context c = context("grcuda.RecordSchedule", "true")) {
            Value schedule = c.eval("grcuda", "CU").getMember("polygpu_schedule");
            PolyglotException unknown = assertThrows(PolyglotException.class, () -> schedule.execute("png"));
            assertTrue(unknown.getMessage().contains("unknown format 'png'")
                    && unknown.getMessage().contains("dag-svg, timeline-svg, chrome-trace, dot, summary"),
                    unknown.getMessage());
            // from Java, interop's arity and type errors are IllegalArgumentExceptions; guests get their TypeError
            assertTrue(assertThrows(IllegalArgumentException.class, () -> schedule.execute()).getMessage()
                    .contains("Expected 1 argument(s) but got 0"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> schedule.execute(3)).getMessage()
                    .contains("argument 1 (format) must be a string"));
        }
    }

    /**
     * Runs {@code wait} (a host wait for a kernel that naps 3 s) on a thread of its own, interrupts the context
     * once that thread blocks, and returns what the wait threw. A wait the interrupt could not end would make
     * {@code interrupt} time out after 2 s, before the kernel ends.
     */
    private static PolyglotException interruptWhileWaiting(Context c, Runnable wait) throws Exception {
        CompletableFuture<PolyglotException> thrown = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                wait.run();
                thrown.complete(null);
            } catch (PolyglotException e) {
                thrown.complete(e);
            }
        }, "waiter");
        waiter.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (waiter.getState() != Thread.State.WAITING && !thrown.isDone()) {
            assertTrue(System.nanoTime() < deadline, "the waiter never blocked");
            Thread.onSpinWait();
        }
        c.interrupt(Duration.ofSeconds(2));
        waiter.join();
        return thrown.get();
    }

    @Test
    void anInterruptEndsAWaitStopsTheKernelsItWaitedForAndTheContextGoesOn() throws Exception {
        try (Context c = context()) {
            Value cu = c.eval("grcuda", "CU");
            // A while loop is polled for stop requests at its back-edge, so the nap ends only by being stopped.
            Value nap = cu.getMember("buildkernel").execute("""
                    __global__ void nap(float *y, int ms) {
                        int k = 0;
                        while (k < ms) { __nanosleep(1000000); k++; }
                        y[0] = ms;
                    }""", "nap(y: inout pointer float, ms: sint32)");
            List<String> kinds = List.of("read", "sync", "memcpy", "memset", "free", "cudaFree");
            for (String kind : kinds) {
                Value y = cu.getMember("DeviceArray").execute("float", 1);
                Value z = cu.getMember("DeviceArray").execute("float", 1);
                Value p = cu.getMember("cudaMalloc").execute(4);
                nap.execute(1, 1).execute(kind.equals("cudaFree") ? p : y, 60_000);
                Runnable wait = switch (kind) {
                    case "read" -> () -> y.getArrayElement(0);
                    case "sync" -> () -> cu.getMember("cudaDeviceSynchronize").execute();
                    case "memcpy" -> () -> cu.getMember("cudaMemcpy").execute(z, y, 4);
                    case "memset" -> () -> cu.getMember("cudaMemset").execute(y, 0, 4);
                    case "free" -> () -> y.invokeMember("free");
                    default -> () -> cu.getMember("cudaFree").execute(p);
                };
                PolyglotException interrupted = interruptWhileWaiting(c, wait);
                assertTrue(interrupted != null && interrupted.isInterrupted(), kind + ": " + interrupted);
                assertStoppedNapReported(cu, kind);
                if (kind.equals("free")) {
                    assertEquals(false, y.getMember("isMemoryFreed").asBoolean(), "an interrupted free frees nothing");
                }
                Value w = cu.getMember("DeviceArray").execute("float", 1);
                nap.execute(1, 1).execute(w, 3);
                assertEquals(3.0, w.getArrayElement(0).asDouble(), kind + ": later kernels run");
            }
        }
    }

    /**
     * The nap stopped by the interrupt is reported at the next synchronization, with what was queued behind it;
     * once each is reported, synchronization succeeds again.
     */
    private static void assertStoppedNapReported(Value cu, String kind) {
        PolyglotException first = assertThrows(PolyglotException.class,
                () -> cu.getMember("cudaDeviceSynchronize").execute(), kind);
        // "stopped: …" when the interrupt found the nap running, "stopped before it started: …" when the
        // worker had not reached it yet (a loaded machine)
        assertTrue(first.getMessage().contains("kernel 'nap'") && first.getMessage().contains("stopped")
                && first.getMessage().contains(": the guest call waiting for it was interrupted"),
                kind + ": " + first.getMessage());
        for (int i = 0; i < 4; i++) {
            try {
                cu.getMember("cudaDeviceSynchronize").execute();
                return;
            } catch (PolyglotException later) {
                assertTrue(later.getMessage().contains("kernel 'nap'"), kind + ": " + later.getMessage());
            }
        }
        fail(kind + ": synchronization kept failing after the stopped nap was reported");
    }
}
