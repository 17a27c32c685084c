package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code polygpu worker}'s options that are refused or shown before it joins anything. */
class WorkerOptionsTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Worker.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theHelpListsTheRankFactor() {
        Run r = run("--help");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("--rank-factor=F"), r.out());
        assertTrue(r.out().contains("--stolen-overflow=N"), r.out());
        assertTrue(r.out().contains("--random-every=N"), r.out());
    }

    @Test
    void aNegativeStolenOverflowOrRandomEveryIsRefusedBeforeJoining() {
        Run r = run("--stolen-overflow=-1", "--join=127.0.0.1:1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("polygpu worker: the stolen overflow must be 0 (off) or positive, got -1\n"),
                r.err());
        Run every = run("--random-every=-8", "--join=127.0.0.1:1");
        assertEquals(2, every.status(), every.err());
        assertTrue(every.err().startsWith("polygpu worker: randomEvery must be 0 (off) or positive, got -8\n"),
                every.err());
    }

    @Test
    void aBadRankFactorIsRefusedBeforeJoining() {
        Run r = run("--rank-factor=0.5", "--join=127.0.0.1:1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("polygpu worker: the rank factor must be 0 (never ask by rank) or a number of"
                + " at least 1, got 0.5\n"), r.err());
        Run words = run("--rank-factor=high");
        assertEquals(2, words.status(), words.err());
        assertTrue(words.err().contains("cluster option 'rankFactor' must be a number, got 'high'"), words.err());
    }
}
