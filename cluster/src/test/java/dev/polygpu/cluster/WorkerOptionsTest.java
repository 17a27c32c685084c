package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.cuda.CudaProbe;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code polygpu worker}'s options that are refused or shown before it joins anything. */
class WorkerOptionsTest {

    /** What a worker command printed and returned. */
    record Run(int status, String out, String err) {
    }

    /** Runs {@code polygpu worker} with {@code args} in this JVM. */
    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Worker.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theJoinedLineSaysWhenAWorkerIsAloneWhereItWasToldToJoinOthers() {
        String[][] cases = {
            // members now, this worker's address, --join list, whether its port came from --join, what the line says
            {"3", "127.0.0.1:5702", "127.0.0.1:5701", "", "3 members"},
            {"2", "127.0.0.1:5701", "", "", "2 members"},
            {"1", "127.0.0.1:5701", "127.0.0.1:5701,127.0.0.1:5702", "", "1 member so far"},
            {"1", "127.0.0.1:5701", "localhost:5701", "", "1 member so far"},
            {"1", null, "127.0.0.1:5701", "", "1 member so far"},
            {"1", "127.0.0.1:5702", "", "", "1 member so far"},
            {"1", "127.0.0.1:5702", "127.0.0.1:5701", "", "1 member so far: no member answered at 127.0.0.1:5701, so "
                    + "this worker started a cluster of its own at 127.0.0.1:5702; members that list 127.0.0.1:5702 "
                    + "join it"},
            {"1", "127.0.0.1:5703", "127.0.0.1:5701,127.0.0.1:5702", "", "1 member so far: no member answered at "
                    + "127.0.0.1:5701,127.0.0.1:5702, so this worker started a cluster of its own at 127.0.0.1:5703; "
                    + "members that list 127.0.0.1:5703 join it"},
            // A worker given no --port listens at the first free address of --join, and says so.
            {"1", "127.0.0.1:5801", "127.0.0.1:5801,127.0.0.1:5802", "port", "1 member so far: no member answered at "
                    + "127.0.0.1:5802, so this worker started a cluster of its own at 127.0.0.1:5801, the first free "
                    + "address of --join; members that list 127.0.0.1:5801 join it"},
            {"1", "127.0.0.1:5801", "localhost:5801", "port", "1 member so far: this worker started a cluster of its "
                    + "own at 127.0.0.1:5801, the first free address of --join; members that list 127.0.0.1:5801 join "
                    + "it"},
            {"2", "127.0.0.1:5802", "127.0.0.1:5801,127.0.0.1:5802", "port", "2 members; it listens at "
                    + "127.0.0.1:5802, the first free address of --join"},
            // The port it checked was taken before the member listened: it says where it is.
            {"1", "127.0.0.1:5803", "127.0.0.1:5801,127.0.0.1:5802", "port", "1 member so far: no member answered at "
                    + "127.0.0.1:5801,127.0.0.1:5802, so this worker started a cluster of its own at 127.0.0.1:5803; "
                    + "members that list 127.0.0.1:5803 join it"},
        };
        for (String[] c : cases) {
            List<String> listed = c[2].isEmpty() ? List.of() : List.of(c[2].split(","));
            assertEquals(c[4], Worker.membersNow(Integer.parseInt(c[0]), c[1], listed, !c[3].isEmpty()),
                    String.join(" | ", c[0], String.valueOf(c[1]), c[2], c[3]));
        }
    }

    /** Every option takes its value as {@code --name=value} or {@code --name value}, with the same result. */
    @Test
    void bothSpellingsOfAValueAreTheSame() {
        String[][] pairs = {
            {"--rank-factor=0.5", "--rank-factor", "0.5"},
            {"--port=65500", "--port", "65500"},
            {"--window=0", "--window", "0"},
            {"--stats-every=0s", "--stats-every", "0s"},
            {"--faults=drop=2", "--faults", "drop=2"},
        };
        for (String[] p : pairs) {
            Run attached = run(p[0], "--join=127.0.0.1:1", "--device=none");
            List<String> args = new java.util.ArrayList<>(List.of(p).subList(1, p.length));
            args.addAll(List.of("--join", "127.0.0.1:1", "--device", "none"));
            Run spaced = run(args.toArray(String[]::new));
            assertEquals(2, attached.status(), attached.err());
            assertEquals(attached.err(), spaced.err(), String.join(" ", args));
        }
        Run bareSwitch = run("--warm-up", "--stealing", "--learn-speeds", "--join", "127.0.0.1:1", "--device",
                "none");
        assertTrue(bareSwitch.err().startsWith("polygpu worker: --device must be auto, cpu or cuda, got 'none'"),
                "a switch alone is on and takes nothing after it: " + bareSwitch.err());
    }

    @Test
    void theHelpListsTheRankFactor() {
        Run r = run("--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: polygpu worker [options]\n"), r.out());
        assertTrue(r.out().contains("--join=HOST:PORT,..."), r.out());
        assertTrue(r.out().contains("--rank-factor=F"), r.out());
        assertTrue(r.out().contains("--stolen-overflow=N"), r.out());
        assertTrue(r.out().contains("--random-every=N"), r.out());
        assertTrue(r.out().contains("--warm-up=false"), r.out());
    }

    @Test
    void checkRunsTheTestKernelOnTheDeviceAndJoinsNothing() {
        Run r = run("--check", "--device=cpu", "--cpu-blocks=2");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("polygpu worker: cpu device 0 (polygpu CPU device (2 threads)) ran the test "
                + "kernel correctly in "), r.out());
        assertTrue(r.out().contains("--check joins nothing"), r.out());
        assertTrue(r.err().isEmpty(), r.err());
    }

    @Test
    void checkRunsTheTestKernelOnEachOfSeveralCpuDevices() {
        Run r = run("--check", "--device=cpu", "--devices=2", "--cpu-blocks=1");
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals(2, lines.length, r.out());
        assertTrue(lines[0].startsWith("polygpu worker: cpu device 0 (polygpu CPU device (1 thread"), r.out());
        assertTrue(lines[1].startsWith("polygpu worker: cpu device 1 (polygpu CPU device (1 thread"), r.out());
        assertTrue(r.err().isEmpty(), r.err());
    }

    @Test
    void aBadDeviceCountOrDeviceSelectionIsRefusedBeforeJoining() {
        String[][] cases = {
            {"--devices=0", "--devices must be a positive integer, got '0'"},
            {"--devices=64", "--devices must be at most 63 (the most a scheduler runs on), got 64"},
            {"--device-selection=fastest", "--device-selection: unknown device selection policy \"fastest\"; valid: "
                    + "single-gpu, round-robin, stream-aware, min-transfer-size, minmin-transfer-time, "
                    + "minmax-transfer-time"},
        };
        for (String[] c : cases) {
            Run r = run(c[0], "--device=cpu", "--join=127.0.0.1:1");
            assertEquals(2, r.status(), r.err());
            assertTrue(r.err().startsWith("polygpu worker: " + c[1] + "\n"), r.err());
        }
        Run cuda = run("--device=cuda", "--devices=2", "--join=127.0.0.1:1");
        assertEquals(2, cuda.status(), cuda.err());
        assertTrue(cuda.err().startsWith("polygpu worker: --devices=2 with --device=cuda: a worker runs on one GPU so "
                + "far; --device=cpu --devices=2 runs 2 CPU devices\n"), cuda.err());
    }

    @Test
    void aWarmUpThatIsNeitherTrueNorFalseIsRefusedBeforeJoining() {
        Run r = run("--warm-up=later", "--join=127.0.0.1:1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("polygpu worker: --warm-up must be true or false, got 'later'\n"), r.err());
    }

    @Test
    void aNegativeStolenOverflowOrRandomEveryIsRefusedBeforeJoining() {
        Run r = run("--stolen-overflow=-1", "--join=127.0.0.1:1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("polygpu worker: --stolen-overflow must be 0 (off) or a positive number of"
                + " elements, got -1\n"), r.err());
        Run every = run("--random-every=-8", "--join=127.0.0.1:1");
        assertEquals(2, every.status(), every.err());
        assertTrue(every.err().startsWith("polygpu worker: --random-every must be 0 (off) or a positive number N"
                + " (every Nth steal request goes to a member drawn at random), got -8\n"), every.err());
        Run chunk = run("--rank-chunk=-1", "--join=127.0.0.1:1");
        assertEquals(2, chunk.status(), chunk.err());
        assertTrue(chunk.err().startsWith("polygpu worker: --rank-chunk must be 0 (as many as --chunk) or a positive"
                + " number of elements, got -1\n"), chunk.err());
        Run directories = run("--directories=-2", "--join=127.0.0.1:1");
        assertEquals(2, directories.status(), directories.err());
        assertTrue(directories.err().startsWith("polygpu worker: --directories must be 0 (none) or a positive number of"
                + " programs, the same on every member, got -2\n"), directories.err());
    }

    @Test
    void aBadRankFactorIsRefusedBeforeJoining() {
        Run r = run("--rank-factor=0.5", "--join=127.0.0.1:1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("polygpu worker: --rank-factor must be 0 (never ask by rank) or a number of"
                + " at least 1, got 0.5\n"), r.err());
        Run words = run("--rank-factor=high");
        assertEquals(2, words.status(), words.err());
        assertTrue(words.err().startsWith("polygpu worker: --rank-factor must be a number, got 'high'\n"), words.err());
        Run cache = run("--input-cache=lots");
        assertEquals(2, cache.status(), cache.err());
        assertTrue(cache.err().startsWith("polygpu worker: --input-cache: bad size 'lots'"), cache.err());
        Run heartbeat = run("--heartbeat=often");
        assertEquals(2, heartbeat.status(), heartbeat.err());
        assertTrue(heartbeat.err().startsWith("polygpu worker: --heartbeat must be a duration such as 500ms or 2s, got "
                + "'often'\n"), heartbeat.err());
    }

    /**
     * Every range or format that the cluster checks is refused before joining, naming the worker's flag as
     * written, the values it takes and what to change; no internal field name reaches the user.
     */
    @Test
    void everyRangeErrorNamesTheFlagAsWritten() {
        String[][] cases = {
            {"--port=65500", "--port must be a port number in 1..65436 (a member listens on the first free one of the"
                    + " 100 ports from there), got 65500"},
            {"--port=0", "--port must be a port number in 1..65436"},
            {"--heartbeat=1500ms", "--heartbeat must be a whole number of seconds, at least 1s (such as 1s or 2s), got"
                    + " 1.5s"},
            {"--fail-after=1s", "--fail-after must be a whole number of seconds, at least two heartbeats (2s, with"
                    + " --heartbeat at 1s), got 1s: raise --fail-after or lower --heartbeat"},
            {"--threshold=-1", "--threshold must be 0 (automatic: the device's window + 2) or a positive number of"
                    + " elements, got -1"},
            {"--chunk=-3", "--chunk must be 0 (automatic: half the window) or a positive number of elements, got -3"},
            {"--window=0", "--window must be a positive integer, got '0'"},
            {"--cluster-name= ", "--cluster-name must not be empty: give the name every member of the cluster is"
                    + " started with"},
            {"--bind=", "--bind must not be empty: give an address of this machine, such as 127.0.0.1"},
            {"--join=127.0.0.1:http", "--join: member address '127.0.0.1:http' has port 'http', which is not a"
                    + " number"},
            {"--faults=drop=2", "--faults: drop (a probability) must be in [0, 1), got 2.0"},
        };
        for (String[] c : cases) {
            // An unknown device is refused after the cluster options: a value that passed would show here.
            Run r = c[0].startsWith("--join") ? run(c[0], "--device=none")
                    : run(c[0], "--join=127.0.0.1:1", "--device=none");
            assertEquals(2, r.status(), c[0] + ": " + r.err());
            assertTrue(r.err().startsWith("polygpu worker: " + c[1]), c[0] + ": " + r.err());
            assertTrue(r.err().contains("run 'polygpu worker --help' for the options"), r.err());
        }
        Run both = run("--heartbeat=3s", "--fail-after=4s", "--join=127.0.0.1:1", "--device=none");
        assertTrue(both.err().startsWith("polygpu worker: --fail-after must be a whole number of seconds, at least two"
                + " heartbeats (6s, with --heartbeat at 3s), got 4s"), both.err());
    }

    @Test
    void anOptionWithoutItsValueSaysSoAndAMisspelledOneIsUnknown() {
        Run join = run("--join");
        assertEquals(2, join.status(), join.err());
        assertEquals("polygpu worker: --join needs a value: write --join=HOST:PORT,... or --join HOST:PORT,...\n"
                + "run 'polygpu worker --help' for the options\n", join.err());
        Run typo = run("--jion=127.0.0.1:1");
        assertEquals(2, typo.status(), typo.err());
        assertTrue(typo.err().startsWith("polygpu worker: unknown option --jion (did you mean --join?)\n"), typo.err());
        Run spaced = run("--jion", "127.0.0.1:1");
        assertTrue(spaced.err().startsWith("polygpu worker: unknown option --jion (did you mean --join?)\n"),
                spaced.err());
        Run far = run("--verbose");
        assertTrue(far.err().startsWith("polygpu worker: unknown option --verbose\n"), far.err());
        Run check = run("--check=yes");
        assertTrue(check.err().startsWith("polygpu worker: --check takes no value\n"), check.err());
        Run stray = run("127.0.0.1:5701");
        assertTrue(stray.err().startsWith("polygpu worker: unexpected argument '127.0.0.1:5701'\n"), stray.err());
    }

    @Test
    void aNonLoopbackBindWithoutASecretNamesTheWorkersFlag() {
        assumeTrue(System.getenv("POLYGPU_CLUSTER_SECRET") == null, "POLYGPU_CLUSTER_SECRET is set here");
        Run r = run("--bind=10.1.2.3", "--join=127.0.0.1:1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("polygpu worker: binding to 10.1.2.3 (not loopback) needs a cluster secret"),
                r.err());
        assertTrue(r.err().contains("a worker's --secret"), r.err());
    }

    @Test
    void anUnknownDeviceIsRefusedAndCudaWithoutAGpuSaysWhy() {
        Run bad = run("--device=gpu", "--join=127.0.0.1:1");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().startsWith("polygpu worker: --device must be auto, cpu or cuda, got 'gpu'\n"), bad.err());
        CudaProbe.Result probe = CudaProbe.result();
        assumeFalse(probe.usable(), "this machine has a usable GPU: " + probe.reason());
        Run cuda = run("--device=cuda", "--join=127.0.0.1:1");
        assertEquals(2, cuda.status(), cuda.err());
        assertTrue(cuda.err().startsWith("polygpu worker: --device=cuda: no usable CUDA device: " + probe.reason()),
                cuda.err());
        assertTrue(cuda.err().contains("; use --device=cpu"), cuda.err());
    }
}
