import dev.polygpu.cli.CommandLines;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Host cost of grcuda operations from a Java program through the polyglot API, per execution policy: one
 * DeviceArray element write and read through {@link Value}, next to the same loop over a float[] and over a
 * float[] wrapped in a {@link Value} (what any array costs through the polyglot API), and the
 * host overhead of one computational element: {@code k(1, 1)(arr, n)} of an empty kernel in a loop that
 * only submits, then one {@code cudaDeviceSynchronize()}. Each policy runs in a fresh context. Run with
 * bench/grcuda/run-java (Truffle JIT on, as ./polygpu runs guests):
 *
 * <pre>
 * bench/grcuda/run-java [sync] [async]      # default: both, in that order
 * </pre>
 */
public final class HostCost {
    private static final int N = 1_000_000;
    private static final int LAUNCHES = 20_000;
    private static final int LAUNCH_WARMUP_ROUNDS = 5;
    private static final int LAUNCH_ROUNDS = 5;

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line: the policies to measure, in order. */
    @CommandLine.Command(name = "bench/grcuda/run-java", synopsisHeading = "Usage: ",
            customSynopsis = "bench/grcuda/run-java [sync|async]...",
            description = "Host cost per launch and per element access from Java, under each policy given (default: "
                    + "sync, then async).", parameterListHeading = "%nArguments:%n", optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Parameters(paramLabel = "sync|async", arity = "0..*", description = "grcuda.ExecutionPolicy of a run")
        private List<String> policies = new ArrayList<>();

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() {
            for (String p : policies) {
                if (!p.equals("sync") && !p.equals("async")) {
                    throw new IllegalArgumentException("a policy is sync or async, got '" + p + "'");
                }
            }
            run(policies.isEmpty() ? List.of("sync", "async") : policies);
            return 0;
        }
    }

    private static void run(List<String> policies) {
        StringBuilder access = new StringBuilder();
        StringBuilder launches = new StringBuilder();
        for (String policy : policies) {
            measure(policy, access, launches);
        }
        System.out.println("| language | policy | operation | DeviceArray ns/op | float[] ns/op"
                + " | float[] as a Value ns/op | ratio |");
        System.out.println("|---|---|---|---:|---:|---:|---:|");
        System.out.print(access);
        System.out.println();
        System.out.println("| language | policy | empty kernel `k(1,1)(arr, n)` | submit µs/launch"
                + " | total µs/launch | launches/s |");
        System.out.println("|---|---|---|---:|---:|---:|");
        System.out.print(launches);
    }

    private static void measure(String policy, StringBuilder access, StringBuilder launches) {
        try (Context c = Context.newBuilder("grcuda").allowAllAccess(true)
                .option("grcuda.ExecutionPolicy", policy).build()) {
            Value cu = c.eval("grcuda", "CU");
            Value arr = cu.getMember("DeviceArray").execute("float", N);
            float[] host = new float[N];
            Value hostValue = c.asValue(new float[N]);
            double[] sink = new double[1];
            Runnable writeArr = () -> {
                for (int i = 0; i < N; i++) {
                    arr.setArrayElement(i, i * 0.5f);
                }
            };
            Runnable readArr = () -> {
                double s = 0;
                for (int i = 0; i < N; i++) {
                    s += arr.getArrayElement(i).asFloat();
                }
                sink[0] += s;
            };
            Runnable writeHostValue = () -> {
                for (int i = 0; i < N; i++) {
                    hostValue.setArrayElement(i, i * 0.5f);
                }
            };
            Runnable readHostValue = () -> {
                double s = 0;
                for (int i = 0; i < N; i++) {
                    s += hostValue.getArrayElement(i).asFloat();
                }
                sink[0] += s;
            };
            Runnable writeHost = () -> {
                for (int i = 0; i < N; i++) {
                    host[i] = i * 0.5f;
                }
            };
            Runnable readHost = () -> {
                double s = 0;
                for (int i = 0; i < N; i++) {
                    s += host[i];
                }
                sink[0] += s;
            };
            for (int w = 0; w < 15; w++) {
                writeArr.run();
                readArr.run();
                writeHost.run();
                readHost.run();
                writeHostValue.run();
                readHostValue.run();
            }
            accessRow(access, policy, "element write", bestOf(writeArr, 7), bestOf(writeHost, 7),
                    bestOf(writeHostValue, 7));
            accessRow(access, policy, "element read", bestOf(readArr, 7), bestOf(readHost, 7),
                    bestOf(readHostValue, 7));
            if (sink[0] == 0) {
                throw new AssertionError("nothing was read");
            }

            Value small = cu.getMember("DeviceArray").execute("float", 1024);
            Value launch = cu.getMember("buildkernel")
                    .execute("__global__ void empty(float *a, int n) { }", "empty(a: inout pointer float, n: sint32)")
                    .execute(1, 1);
            Value sync = cu.getMember("cudaDeviceSynchronize");
            for (int r = 0; r < LAUNCH_WARMUP_ROUNDS; r++) {
                launchRound(launch, small, sync);
            }
            double submit = Double.MAX_VALUE;
            double total = Double.MAX_VALUE;
            for (int r = 0; r < LAUNCH_ROUNDS; r++) {
                double[] t = launchRound(launch, small, sync);
                submit = Math.min(submit, t[0]);
                total = Math.min(total, t[1]);
            }
            launches.append(String.format("| Java | %s | %,d launches in batches of 1,000, best of %d | %.2f | %.2f | %,.0f |%n", policy,
                    LAUNCHES, LAUNCH_ROUNDS, submit / LAUNCHES * 1e6, total / LAUNCHES * 1e6, LAUNCHES / total));
        }
    }

    private static final int BATCH = 1000;

    /**
     * Submits {@link #LAUNCHES} launches in batches of {@link #BATCH}, synchronizing after each batch (so the
     * runtime's queue bound never throttles the submitting loop); returns {seconds in the launch loops, total}.
     */
    private static double[] launchRound(Value launch, Value arr, Value sync) {
        long t0 = System.nanoTime();
        long submit = 0;
        for (int b = 0; b < LAUNCHES / BATCH; b++) {
            long s0 = System.nanoTime();
            for (int i = 0; i < BATCH; i++) {
                launch.execute(arr, 1024);
            }
            submit += System.nanoTime() - s0;
            sync.execute();
        }
        return new double[] {submit / 1e9, (System.nanoTime() - t0) / 1e9};
    }

    private static void accessRow(StringBuilder out, String policy, String what, double dev, double host,
            double hostValue) {
        out.append(String.format("| Java | %s | %s | %.1f | %.1f | %.1f | %.2fx |%n", policy, what, dev / N * 1e9,
                host / N * 1e9, hostValue / N * 1e9, dev / host));
    }

    private static double bestOf(Runnable r, int reps) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            r.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        return best;
    }
}
