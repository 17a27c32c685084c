package dev.polygpu.grcuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code polygpu_schedule(format)} and {@code polygpu_schedule_clear()} with {@code grcuda.RecordSchedule}. */
class GrScheduleBuiltinTest {
    private static final String SQUARE = """
            __global__ void square(const float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * x[i];
            }""";
    private static Engine engine;

    @BeforeAll
    static void start() {
        engine = Engine.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").build();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static Context context(boolean record) {
        return Context.newBuilder("grcuda").engine(engine).allowAllAccess(true)
                .option("grcuda.RecordSchedule", Boolean.toString(record)).build();
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
        try (Context c = context(true)) {
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
        try (Context c = context(false)) {
            Value schedule = c.eval("grcuda", "CU").getMember("polygpu_schedule");
            PolyglotException off = assertThrows(PolyglotException.class, () -> schedule.execute("summary"));
            assertTrue(off.isGuestException() && off.getMessage().contains("grcuda.RecordSchedule=true"),
                    off.getMessage());
        }
        try (Context c = context(true)) {
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
}
