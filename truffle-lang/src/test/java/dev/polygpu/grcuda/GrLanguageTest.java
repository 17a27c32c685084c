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

/** The language through the polyglot API from Java: evaluation, the namespace, options and their errors. */
class GrLanguageTest {
    private static Engine engine;

    @BeforeAll
    static void start() {
        engine = Engine.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").build();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static Context context(String... options) {
        Context.Builder b = Context.newBuilder("grcuda").engine(engine).allowAllAccess(true);
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
            assertTrue(cu.toString().startsWith("namespace CU"), cu.toString());
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
    void syntaxAndNameErrorsSayWhereAndWhat() {
        try (Context c = context()) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> c.eval("grcuda", "float[10"));
            assertTrue(e.getMessage().contains("grcuda syntax error at 1:9: expected ']'"), e.getMessage());
            e = assertThrows(PolyglotException.class, () -> c.eval("grcuda", "NoSuchThing"));
            assertTrue(e.getMessage().contains("grcuda has no name 'NoSuchThing'; CU has getoptions"), e.getMessage());
        }
    }
}
