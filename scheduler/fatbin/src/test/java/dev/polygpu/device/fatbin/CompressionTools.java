package dev.polygpu.device.fatbin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** The {@code zstd} and {@code lz4} command-line tools, where installed, as independent encoders; and test inputs. */
final class CompressionTools {
    private CompressionTools() {
    }

    /**
     * The tool {@code name} on the PATH; skips the test, saying why, where it is not installed, unless {@code
     * POLYGPU_REQUIRE_COMPRESSION_TOOLS=1} (CI, which installs them), which makes a missing tool a failure.
     */
    static Path require(String name) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                Path p = Path.of(d.isEmpty() ? "." : d, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        String why = name + " is not on the PATH: this test compares the decoder with its encoder";
        if ("1".equals(System.getenv("POLYGPU_REQUIRE_COMPRESSION_TOOLS"))) {
            fail("POLYGPU_REQUIRE_COMPRESSION_TOOLS=1 but " + why + " (Debian: apt-get install zstd lz4)");
        }
        Assumptions.abort(why);
        return null;
    }

    /** Runs {@code command} in {@code dir}, which must succeed. */
    static void run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), command + " did not finish");
        assertEquals(0, p.exitValue(), command + ": " + out);
    }

    /**
     * Inputs that reach every kind of block and literal: PTX and a cubin, text of a small alphabet long enough
     * for several 128 KiB blocks, random bytes (stored raw), zeros (RLE), and a mix of them.
     */
    static List<byte[]> inputs(long seed) throws IOException {
        Random random = new Random(seed);
        List<byte[]> inputs = new ArrayList<>();
        inputs.add(FatbinFixtures.fixture("increment.ptx"));
        inputs.add(FatbinFixtures.fixture("increment.cubin"));
        String[] words = {"ld.global.f32", "%r", "add.s32", "mov.u32", "\n", "\t", ";", "[", "]", ", ", "%rd"};
        StringBuilder text = new StringBuilder();
        while (text.length() < 400_000) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(200));
        }
        inputs.add(text.toString().getBytes(StandardCharsets.US_ASCII));
        byte[] noise = new byte[150_000];
        random.nextBytes(noise);
        inputs.add(noise);
        inputs.add(new byte[600_000]);
        byte[] mix = new byte[300_000];
        for (int at = 0; at < mix.length; ) {
            int run = Math.min(mix.length - at, 1 + random.nextInt(5000));
            switch (random.nextInt(3)) {
                case 0 -> { } // a run of zeros
                case 1 -> {
                    byte[] r = new byte[run];
                    random.nextBytes(r);
                    System.arraycopy(r, 0, mix, at, run);
                }
                default -> System.arraycopy(inputs.get(2), random.nextInt(100_000), mix, at, run);
            }
            at += run;
        }
        inputs.add(mix);
        inputs.add(new byte[] {42});
        return inputs;
    }
}
