package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.Device;
import dev.polygpu.device.Module;
import dev.polygpu.device.cuda.NvccTool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a warp-synchronous kernel on the CUDA C engine many times and checks every launch against values computed
 * independently: nvcc's PTX of the same source ({@code nvcc -ptx -arch=sm_90 -fmad=false}, so that each float
 * operation is rounded as the engine rounds it) run on the PTX interpreter, and, where the test can compute the
 * result in plain Java, that too (which also checks the PTX oracle).
 */
final class WarpOracle {
    /** Launches of the CUDA C engine per kernel: the wrong values the scheduler gave varied from run to run. */
    static final int LAUNCHES = 50;
    /** Launches of the PTX oracle, which must agree with itself. */
    private static final int ORACLE_LAUNCHES = 3;

    private static final Map<String, byte[]> PTX = new ConcurrentHashMap<>();

    /** One launch of a kernel from module {@code m} on fresh buffers; returns its output (floats as raw bits). */
    @FunctionalInterface
    interface Launch {
        int[] run(Module m);
    }

    private WarpOracle() {
    }

    /**
     * Checks the CUDA C engine against {@code expected} (plain Java, or null when the test has no such model)
     * and against the PTX oracle; without nvcc only against {@code expected}, and a test without it is skipped.
     * {@code context} (the random seed, say) starts every failure message.
     */
    static void check(Device dev, String source, Launch launch, int[] expected, String context) {
        int[] reference = expected;
        if (NvccTool.installed() || expected == null) {
            Module ptx = dev.load(ptx(source), "warp.ptx");
            int[] oracle = launch.run(ptx);
            if (expected != null) {
                assertSame(expected, oracle, context + ": the PTX oracle (nvcc's code on the PTX interpreter) against Java");
            }
            for (int i = 1; i < ORACLE_LAUNCHES; i++) {
                assertSame(oracle, launch.run(ptx), context + ": PTX oracle launch " + i + " against its first");
            }
            reference = expected != null ? expected : oracle;
        }
        Module cuda = dev.compile(source, "warp.cu");
        for (int i = 0; i < LAUNCHES; i++) {
            assertSame(reference, launch.run(cuda), context + ": CUDA C engine, launch " + i + " of " + LAUNCHES
                    + (expected != null ? ", against Java" : ", against the PTX oracle"));
        }
    }

    /** Fails with how many elements differ and the first few of them. */
    static void assertSame(int[] expected, int[] actual, String what) {
        assertEquals(expected.length, actual.length, what + ": output length");
        int wrong = 0;
        StringBuilder first = new StringBuilder();
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                if (wrong < 5) {
                    first.append("\n  [").append(i).append("] expected ").append(expected[i]).append(" (float ")
                            .append(Float.intBitsToFloat(expected[i])).append(") but was ").append(actual[i])
                            .append(" (float ").append(Float.intBitsToFloat(actual[i])).append(')');
                }
                wrong++;
            }
        }
        if (wrong > 0) {
            fail(what + ": " + wrong + " of " + expected.length + " elements wrong" + first);
        }
    }

    /** nvcc's PTX for {@code source}; skips the test, saying why, where nvcc is not installed. */
    static byte[] ptx(String source) {
        Path nvcc = NvccTool.require();
        return PTX.computeIfAbsent(source, s -> compile(nvcc, s));
    }

    private static byte[] compile(Path nvcc, String source) {
        try {
            Path dir = Files.createTempDirectory("warp-oracle-");
            try {
                Files.writeString(dir.resolve("k.cu"), source);
                Process p = new ProcessBuilder(nvcc.toString(), "-ptx", "-arch=sm_90", "-fmad=false", "-o", "k.ptx",
                        "k.cu").directory(dir.toFile()).redirectErrorStream(true).start();
                String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                Assumptions.assumeTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish in 120 s");
                assertEquals(0, p.exitValue(), "nvcc failed on the test kernel:\n" + log);
                return Files.readAllBytes(dir.resolve("k.ptx"));
            } finally {
                try (var files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while nvcc ran", e);
        }
    }
}
