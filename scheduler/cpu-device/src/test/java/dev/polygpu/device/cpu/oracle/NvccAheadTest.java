package dev.polygpu.device.cpu.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * nvcc runs started ahead: a compile asked for after {@link NvccAhead#ahead} gets the run made in the background
 * (nvcc runs once, on the background thread), anything else runs on the caller's thread, and the runs ahead that
 * nobody asks for are dropped beyond {@link NvccAhead#MAX_AHEAD}. Also that {@link PtxBatches#firstRuns} names
 * exactly the runs a batch then asks for. A counting compiler stands in for nvcc.
 */
class NvccAheadTest {
    /** Records which source each run compiled and on which thread. */
    private static final class Counting implements PtxBatches.Compiler {
        final List<String> sources = new CopyOnWriteArrayList<>();
        final Map<String, String> threads = new ConcurrentHashMap<>();

        @Override
        public Nvcc.Output compile(String source, String fileName) {
            sources.add(source);
            threads.put(source, Thread.currentThread().getName());
            return new Nvcc.Output(true, "// ptx of " + fileName + ": " + source, "");
        }
    }

    @Test
    void aRunStartedAheadAnswersTheLaterCompileOnce() {
        Counting c = new Counting();
        try (NvccAhead ahead = new NvccAhead(c)) {
            ahead.ahead("a", "batch.cu");
            assertEquals("// ptx of batch.cu: a", ahead.compile("a", "batch.cu").ptx());
            assertEquals(List.of("a"), c.sources);
            assertEquals("polygpu-oracle-nvcc-ahead", c.threads.get("a"));
            ahead.compile("a", "batch.cu");
            assertEquals(List.of("a", "a"), c.sources, "a run ahead answers one compile only");
            ahead.compile("b", "other.cu");
            assertEquals(Thread.currentThread().getName(), c.threads.get("b"));
        }
    }

    @Test
    void runsNobodyAsksForAreDroppedBeyondTheLimit() {
        Counting c = new Counting();
        try (NvccAhead ahead = new NvccAhead(c)) {
            for (int i = 0; i <= NvccAhead.MAX_AHEAD; i++) {
                ahead.ahead("s" + i, "batch.cu");
            }
            ahead.compile("s" + NvccAhead.MAX_AHEAD, "batch.cu");
            ahead.compile("s0", "batch.cu");
            assertEquals(Thread.currentThread().getName(), c.threads.get("s0"), "the oldest run ahead was dropped");
        }
    }

    @Test
    void theFirstRunsAreThoseABatchAsksFor() {
        List<OracleCase> cases = List.of(
                new OracleCase("one", "__global__ void a() {}", "a", dev.polygpu.device.LaunchConfig.of(1, 32),
                        List.of()),
                new OracleCase("two", "__global__ void b() {}", "b", dev.polygpu.device.LaunchConfig.of(1, 32),
                        List.of()),
                new OracleCase("three", "__global__ void c() {}", "c", dev.polygpu.device.LaunchConfig.of(1, 32),
                        List.of()));
        List<Map.Entry<String, String>> runs = PtxBatches.firstRuns(cases, 2);
        Counting c = new Counting();
        new PtxBatches(c, unit -> null, 2).compile(cases);
        assertEquals(runs.stream().map(Map.Entry::getKey).toList(), c.sources);
        assertEquals("batch.cu", runs.get(0).getValue());
        assertTrue(runs.get(0).getKey().contains("#line 1 \"case1.cu\""), runs.get(0).getKey());
        assertEquals("three.cu", runs.get(1).getValue());
    }
}
