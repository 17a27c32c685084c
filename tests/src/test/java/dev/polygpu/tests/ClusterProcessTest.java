package dev.polygpu.tests;

import static dev.polygpu.tests.PolygpuProcess.counter;
import static dev.polygpu.tests.PolygpuProcess.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster end to end with real processes on loopback: {@code polygpu worker} processes and a JavaScript
 * program run with {@code --cluster}, as a user starts them. Work spreads to the workers; a worker killed with
 * SIGKILL, stopped with SIGTERM or joining mid-run leaves every result correct; a worker with the wrong secret
 * gets nothing. Each test has a cluster name of its own and a port range of its own (the first free one from
 * its preferred base), so tests and concurrent runs never join each other's members.
 *
 * <p>Waits poll the processes' output ("assert eventually"); the timeouts only stop a hang, no test asserts
 * a wall-clock time. Every member runs the CPU device with 2 concurrent blocks, so a run is bound by the
 * kernels' {@code __nanosleep}s, not by the test machine's cores.
 */
@Tag("slow")
@Tag("cluster")
class ClusterProcessTest {
    /**
     * Launches {@code kernels} independent kernels, each on arrays of its own, that sleep {@code sleepMs} and
     * then write {@code y = 3x + salt}; checks every element against the host and prints the sum of all
     * {@code y}. Inputs are integers from 1 to 1000 (exact in float) from a seeded generator that {@link
     * #expectedChecksum} repeats. With a fourth argument, a file name, it launches the second half of the kernels
     * only once that file exists.
     */
    private static final String PROGRAM = """
            const [kernels, sleepMs, seed] = arguments.map(Number);
            const cu = Polyglot.eval("grcuda", "CU");
            const N = 256;
            const work = cu.buildkernel(`
            __global__ void work(float *y, const float *x, int n, int salt, int sleeps) {
                for (int s = 0; s < sleeps; s++) __nanosleep(1000000);
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
                    y[i] = 3.0f * x[i] + salt;
            }`, "work(y: out pointer float, x: in pointer float, n: sint32, salt: sint32, sleeps: sint32)");
            let state = seed >>> 0;
            function next() { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return 1 + state % 1000; }
            const xs = [], ys = [], want = [];
            for (let k = 0; k < kernels; k++) {
                const x = cu.DeviceArray("float", N), y = cu.DeviceArray("float", N), w = [];
                for (let i = 0; i < N; i++) { const v = next(); x[i] = v; y[i] = -1; w.push(3 * v + 7 * k + 1); }
                xs.push(x); ys.push(y); want.push(w);
            }
            const gate = arguments.length > 3 ? arguments[3] : null;
            const firstHalf = gate === null ? kernels : Math.floor(kernels / 2);
            for (let k = 0; k < firstHalf; k++) work(1, 64)(ys[k], xs[k], N, 7 * k + 1, sleepMs);
            if (gate !== null) {
                const File = Java.type("java.io.File"), Thread = Java.type("java.lang.Thread");
                while (!new File(gate).exists()) Thread.sleep(20);
                for (let k = firstHalf; k < kernels; k++) work(1, 64)(ys[k], xs[k], N, 7 * k + 1, sleepMs);
            }
            let wrong = 0, first = "", sum = 0;
            for (let k = 0; k < kernels; k++) {
                for (let i = 0; i < N; i++) {
                    const got = ys[k][i];
                    sum += got;
                    if (got !== want[k][i] && wrong++ === 0) {
                        first = ` (first: kernel ${k}, y[${i}] = ${got}, expected ${want[k][i]})`;
                    }
                }
            }
            console.log(wrong === 0 ? `ok: ${kernels} kernels, checksum ${sum}` : `WRONG: ${wrong} elements${first}`);
            """;
    private static final int ARRAY_LENGTH = 256;
    private static final long SEED = 20260801L;
    /** Ports a test lists for its members; each member takes the first free one from the base. */
    private static final int PORTS = 4;
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);
    private static final String STOLEN = "stolen (ran here for others)";
    private static final String GIVEN = "given (taken by others)";
    private static final String ACCEPTED = "results accepted";
    private static final String RERUN = "re-run here";
    /** A worker's first line, with the members of the cluster it joined. */
    private static final Pattern JOINED = Pattern.compile("joined cluster '[^']*' with .* \\((\\d+) member");

    @TempDir
    Path dir;

    private final List<PolygpuProcess> processes = new ArrayList<>();
    private String clusterName;
    private int basePort;
    private String members;
    private Path program;

    @BeforeEach
    void cluster(TestInfo test) throws IOException {
        clusterName = "e2e-" + test.getTestMethod().orElseThrow().getName() + "-" + ProcessHandle.current().pid();
        program = Files.writeString(dir.resolve("kernels.js"), PROGRAM);
    }

    @AfterEach
    void stopAll() {
        for (PolygpuProcess p : processes) {
            p.close();
        }
    }

    @Test
    void workSpreadsToTwoWorkers() {
        usePorts(18400);
        PolygpuProcess w1 = startWorker("worker-1");
        PolygpuProcess w2 = startWorker("worker-2");
        PolygpuProcess p = startProgram(Map.of(), List.of(), 40, 200);
        assertProgramCorrect(p, 40, 200);
        String err = p.err();
        assertTrue(counter(err, GIVEN) > 0, () -> "no kernel moved to a worker\n" + report(processes));
        assertTrue(err.contains("(3 members)"), () -> "the program did not see both workers\n" + report(processes));
        assertEveryGivenKernelSettledOnce(p);
        assertTrue(w1.isAlive() && w2.isAlive(), () -> report(processes));
    }

    @Test
    void aKilledWorkersKernelsRunAgainAtHome() {
        usePorts(18410);
        PolygpuProcess victim = startWorker("worker-to-kill", "--stats-every=200ms");
        // The second worker starts beside the program and joins the first; nothing asserted needs it early.
        startWorkerNoWait("worker-2", Map.of(), List.of());
        PolygpuProcess p = startProgram(Map.of(), List.of(), 40, 300);
        victim.await("a stolen kernel", w -> counter(w.out(), STOLEN) > 0, RUN_TIMEOUT, processes);
        victim.kill();
        assertEquals(137, victim.awaitExit(JOIN_TIMEOUT, processes), () -> report(processes));
        assertProgramCorrect(p, 40, 300);
        assertTrue(counter(p.err(), RERUN) > 0,
                () -> "the killed worker's kernels did not run again at home\n" + report(processes));
        assertEveryGivenKernelSettledOnce(p);
    }

    @Test
    void aWorkerStoppedWithSigtermFinishesWhatItHolds() {
        usePorts(18420);
        // One worker: every result the program accepts is that worker's.
        PolygpuProcess w = startWorker("worker", "--stats-every=200ms");
        PolygpuProcess p = startProgram(Map.of(), List.of(), 40, 300);
        w.await("a stolen kernel", x -> counter(x.out(), STOLEN) > 0, RUN_TIMEOUT, processes);
        long holding = counter(w.out(), STOLEN);
        w.terminate();
        // SIGTERM ends a JVM with 143 once its shutdown hooks are done; the worker's hook waits for the leave.
        assertEquals(143, w.awaitExit(JOIN_TIMEOUT, processes), () -> report(processes));
        String out = w.out();
        assertTrue(out.contains("leaving: finishing the work it holds"), () -> report(processes));
        int leaving = out.lastIndexOf("leaving: finishing the work it holds");
        assertTrue(counter(out.substring(leaving), STOLEN) >= holding, () -> "no final counters\n" + report(processes));
        assertProgramCorrect(p, 40, 300);
        // What it held when stopped ran there and came back; only what reached it later may have run at home.
        assertTrue(counter(p.err(), ACCEPTED) >= holding,
                () -> "the leaving worker's kernels did not come back from it\n" + report(processes));
        assertEveryGivenKernelSettledOnce(p);
    }

    /**
     * The program launches half of its kernels, and the other half once the late worker has joined (the test
     * makes the program's gate file then): started freely, a worker that a loaded machine took longer to start
     * than the program's 8 s of kernels found nothing left.
     */
    @Test
    void aWorkerThatJoinsMidRunGetsWork() throws IOException {
        usePorts(18430);
        Path gate = dir.resolve("late-worker-joined");
        PolygpuProcess p = startProgram(Map.of(), List.of(), 40, 400, gate);
        p.await("the program's member", x -> x.err().contains("of the cluster at"), JOIN_TIMEOUT, processes);
        PolygpuProcess w = startWorker("late-worker");
        Files.createFile(gate);
        assertProgramCorrect(p, 40, 400);
        assertTrue(counter(p.err(), GIVEN) > 0, () -> "the late worker got no work\n" + report(processes));
        assertEveryGivenKernelSettledOnce(p);
        w.terminate();
        assertEquals(143, w.awaitExit(JOIN_TIMEOUT, processes), () -> report(processes));
        assertTrue(counter(w.out(), STOLEN) > 0, () -> "the late worker stole nothing\n" + report(processes));
    }

    @Test
    void aWorkerWithTheWrongSecretGetsNoWork() {
        usePorts(18440);
        PolygpuProcess wrong = startWorker("wrong-secret-worker", Map.of("POLYGPU_CLUSTER_SECRET", "wrong"),
                List.of());
        PolygpuProcess p = startProgram(Map.of(), List.of("--cluster-secret=right"), 8, 200);
        assertProgramCorrect(p, 8, 200);
        String err = p.err();
        assertTrue(err.contains("does not prove the cluster secret"), () -> report(processes));
        assertTrue(err.contains("(2 members)"), () -> "the worker was not in the cluster\n" + report(processes));
        assertEquals(0, counter(err, GIVEN), () -> report(processes));
        wrong.terminate();
        assertEquals(143, wrong.awaitExit(JOIN_TIMEOUT, processes), () -> report(processes));
        assertEquals(0, counter(wrong.out(), STOLEN), () -> report(processes));
    }

    @Test
    void theWorkerCommandLineInAProcessOfItsOwn() {
        // Side by side: none of them joins a cluster.
        PolygpuProcess help = track(() -> PolygpuProcess.start("help", Map.of(), List.of("worker", "--help")));
        PolygpuProcess unknown = track(() -> PolygpuProcess.start("unknown-flag", Map.of(),
                List.of("worker", "--no-such-flag=1")));
        PolygpuProcess zero = track(() -> PolygpuProcess.start("zero-period", Map.of(),
                List.of("worker", "--stats-every=0s")));
        assertEquals(0, help.awaitExit(JOIN_TIMEOUT, processes), () -> report(processes));
        assertTrue(help.out().startsWith("Usage: polygpu worker [options]\n"), () -> report(processes));
        assertTrue(help.out().contains("--stats-every=DURATION"), () -> report(processes));
        assertEquals(2, unknown.awaitExit(JOIN_TIMEOUT, processes), () -> report(processes));
        assertEquals("polygpu worker: unknown option --no-such-flag\n"
                + "run 'polygpu worker --help' for the options\n", unknown.err(), () -> report(processes));
        assertEquals(2, zero.awaitExit(JOIN_TIMEOUT, processes), () -> report(processes));
        assertTrue(zero.err().startsWith("polygpu worker: --stats-every must be a positive duration such as 500ms or "
                + "2s, got '0s'\n"), () -> report(processes));
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    /** The first base from {@code preferred} (then 100 up, …) whose {@link #PORTS} ports are all free. */
    private void usePorts(int preferred) {
        for (int base = preferred; base < preferred + 2000; base += 100) {
            if (free(base)) {
                basePort = base;
                members = IntStream.range(base, base + PORTS).mapToObj(q -> "127.0.0.1:" + q)
                        .collect(Collectors.joining(","));
                return;
            }
        }
        throw new IllegalStateException("no " + PORTS + " free ports in a row from " + preferred);
    }

    private static boolean free(int base) {
        for (int q = base; q < base + PORTS; q++) {
            try (ServerSocket s = new ServerSocket(q, 1, InetAddress.getLoopbackAddress())) {
                s.getLocalPort();
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    private PolygpuProcess startWorker(String name, String... flags) {
        return startWorker(name, Map.of(), List.of(flags));
    }

    /** Starts a worker and waits until it has joined the cluster, with every member started before it. */
    private PolygpuProcess startWorker(String name, Map<String, String> env, List<String> flags) {
        int expected = 1 + (int) processes.stream().filter(PolygpuProcess::isAlive).count();
        PolygpuProcess w = startWorkerNoWait(name, env, flags);
        w.await("joining", x -> JOINED.matcher(x.out()).find(), JOIN_TIMEOUT, processes);
        Matcher m = JOINED.matcher(w.out());
        assertTrue(m.find() && Integer.parseInt(m.group(1)) == expected, () -> name + " joined a cluster other than "
                + "the one of the " + (expected - 1) + " members started before it\n" + report(processes));
        return w;
    }

    /**
     * Starts a worker without waiting for it to join: only after another member is up, so that it joins that
     * member's cluster rather than forming one of its own beside it.
     */
    private PolygpuProcess startWorkerNoWait(String name, Map<String, String> env, List<String> flags) {
        List<String> args = new ArrayList<>(List.of("worker", "--join=" + members, "--port=" + basePort,
                "--cluster-name=" + clusterName, "--cpu-blocks=2", "--heartbeat=1s", "--fail-after=3s"));
        args.addAll(flags);
        return track(() -> PolygpuProcess.start(name, env, args));
    }

    /** Starts the program: {@code kernels} kernels of {@code sleepMs} each, on the CPU device with 2 blocks. */
    private PolygpuProcess startProgram(Map<String, String> env, List<String> flags, int kernels, int sleepMs) {
        return startProgram(env, flags, kernels, sleepMs, null);
    }

    /** As above; if {@code gate} is not null, the second half of the kernels waits until that file exists. */
    private PolygpuProcess startProgram(Map<String, String> env, List<String> flags, int kernels, int sleepMs,
            Path gate) {
        List<String> args = new ArrayList<>(List.of("--cluster=" + members, "--cluster-port=" + basePort,
                "--cluster-name=" + clusterName, "--cluster-stats", "--grcuda.CpuBlocks=2",
                "--grcuda.ClusterHeartbeat=1s", "--grcuda.ClusterFailAfter=3s"));
        args.addAll(flags);
        args.addAll(List.of(program.toString(), Integer.toString(kernels), Integer.toString(sleepMs),
                Long.toString(SEED)));
        if (gate != null) {
            args.add(gate.toString());
        }
        return track(() -> PolygpuProcess.start("program", env, args));
    }

    private PolygpuProcess track(Supplier<PolygpuProcess> start) {
        PolygpuProcess p = start.get();
        processes.add(p);
        return p;
    }

    /** The program ends by itself with status 0, having checked every element, and the sum agrees. */
    private void assertProgramCorrect(PolygpuProcess p, int kernels, int sleepMs) {
        int status = p.awaitExit(RUN_TIMEOUT, processes);
        assertEquals(0, status, () -> "seed " + SEED + "\n" + report(processes));
        assertEquals("ok: " + kernels + " kernels, checksum " + expectedChecksum(kernels) + "\n", p.out(),
                () -> "seed " + SEED + ", " + sleepMs + " ms per kernel\n" + report(processes));
    }

    /** Every kernel given away came back exactly once: its result accepted, or run again at home. */
    private void assertEveryGivenKernelSettledOnce(PolygpuProcess p) {
        String err = p.err();
        assertEquals(counter(err, GIVEN), counter(err, ACCEPTED) + counter(err, RERUN), () -> report(processes));
    }

    /** The sum of all {@code y} the program computes, from the same generator. */
    private static long expectedChecksum(int kernels) {
        long state = SEED & 0xffffffffL;
        long sum = 0;
        for (int k = 0; k < kernels; k++) {
            for (int i = 0; i < ARRAY_LENGTH; i++) {
                state = (state * 1664525L + 1013904223L) & 0xffffffffL;
                sum += 3 * (1 + state % 1000) + 7L * k + 1;
            }
        }
        return sum;
    }
}
