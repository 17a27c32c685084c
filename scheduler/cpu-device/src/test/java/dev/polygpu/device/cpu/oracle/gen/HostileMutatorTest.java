package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The campaign of issue 31 in small: 200 generated kernels, each with one {@link HostileMutator} mutation (seed
 * fixed), compiled by the engine. Every answer is a module or a compile error with a line and column: no other
 * exception (an internal error), and none that takes longer than the bound given below (a hang).
 */
@Tag("slow")
class HostileMutatorTest {
    private static final long SEED = 31;
    private static final int PROGRAMS = 200;
    /** Far above the slowest answer: a runaway compile, not a slow one, is what this catches. */
    private static final int HANG_SECONDS = 120;

    @Test
    void everyHostileSourceIsCompiledOrRefusedWithAPosition() throws Exception {
        Map<String, Integer> kinds = new TreeMap<>();
        List<String> findings = new ArrayList<>();
        ExecutorService compiler = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hostile-compile");
            t.setDaemon(true);
            return t;
        });
        try (CpuDevice device = new CpuDevice(1)) {
            for (int i = 0; i < PROGRAMS; i++) {
                String valid = KernelGenerator.generate(SEED, i, Profile.parse("default,size=12")).toCase("k_").source();
                InvalidMutator.Mutation m = HostileMutator.mutate(valid, Rng.caseSeed(SEED, i));
                kinds.merge(m.kind().replaceAll("[0-9]+", "#").replaceAll(" \\(.*", ""), 1, Integer::sum);
                Future<Throwable> f = compiler.submit(() -> {
                    try {
                        device.compile(m.source(), "hostile.cu").close();
                        return null;
                    } catch (Throwable t) {
                        return t;
                    }
                });
                Throwable t;
                try {
                    t = f.get(HANG_SECONDS, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    f.cancel(true);
                    findings.add("index " + i + " (" + m.kind() + "): no answer within " + HANG_SECONDS + " s");
                    continue;
                }
                if (t instanceof CompileException ce) {
                    if (ce.diagnostics().stream().noneMatch(d -> d.line() > 0 && d.column() > 0)) {
                        findings.add("index " + i + " (" + m.kind() + "): no line:col in " + ce.getMessage());
                    }
                } else if (t != null) {
                    findings.add("index " + i + " (" + m.kind() + "): " + t);
                }
            }
        } finally {
            compiler.shutdownNow();
        }
        assertEquals(List.of(), findings, "seed " + SEED);
        assertTrue(kinds.size() >= 12, "kinds drawn: " + kinds);
    }

    @Test
    void mutationsAreDeterministic() {
        String valid = KernelGenerator.generate(SEED, 3, Profile.defaults()).toCase("k_").source();
        for (long s = 0; s < 20; s++) {
            assertEquals(HostileMutator.mutate(valid, s), HostileMutator.mutate(valid, s), "seed " + s);
        }
    }
}
