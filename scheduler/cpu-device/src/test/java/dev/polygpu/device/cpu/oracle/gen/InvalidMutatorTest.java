package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Invalid programs made by {@link InvalidMutator}: the engine answers each with a compile error that names a
 * line and column (or, for the mutations that leave a program valid, a module), never another exception; and
 * the mutator is deterministic and varied.
 */
@Timeout(180)
class InvalidMutatorTest {
    private static final long SEED = 99;

    @Test
    void theEngineAnswersMutatedKernelsWithPlacedCompileErrors() {
        Set<String> kinds = new HashSet<>();
        try (CpuDevice device = new CpuDevice(1)) {
            for (long i = 0; i < 60; i++) {
                String valid = KernelGenerator.generate(SEED, i, Profile.parse("default,size=12")).toCase("k_").source();
                InvalidMutator.Mutation m = InvalidMutator.mutate(valid, i);
                assertNotEquals(valid, m.source());
                kinds.add(m.kind().replaceAll(" \\(.*", ""));
                try {
                    device.compile(m.source(), "bad.cu").close();
                } catch (CompileException e) {
                    assertTrue(e.diagnostics().stream().anyMatch(d -> d.line() > 0 && d.column() > 0),
                            "seed " + SEED + " index " + i + " (" + m.kind() + "): no line:col in " + e.getMessage());
                } catch (RuntimeException | Error e) {
                    fail("seed " + SEED + " index " + i + " (" + m.kind() + "): the engine threw " + e, e);
                }
            }
        }
        assertTrue(kinds.size() >= 6, "only these kinds of mutations over 60 programs: " + kinds);
    }

    @Test
    void mutationsAreDeterministic() {
        String valid = KernelGenerator.generate(SEED, 3, Profile.defaults()).toCase("k_").source();
        for (long s = 0; s < 10; s++) {
            assertTrue(InvalidMutator.mutate(valid, s).equals(InvalidMutator.mutate(valid, s)), "seed " + s);
        }
    }
}
