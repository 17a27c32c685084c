import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/**
 * Host cost of grcuda operations from a Java program through the polyglot API: one DeviceArray element write
 * and read through {@link Value}, next to the same loop over a float[] and over a float[] wrapped in a
 * {@link Value} (what any array costs through the polyglot API), and one launch of an empty kernel with
 * grcuda.ExecutionPolicy=sync. Run with bench/grcuda/run-java (Truffle JIT on, as ./polygpu runs guests).
 */
public final class HostCost {
    private static final int N = 1_000_000;
    private static final int LAUNCHES = 20_000;

    public static void main(String[] args) {
        try (Context c = Context.newBuilder("grcuda").allowAllAccess(true)
                .option("grcuda.ExecutionPolicy", "sync").build()) {
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
            Value launch = cu.getMember("buildkernel").execute("__global__ void empty(int n) { }", "empty(n: sint32)")
                    .execute(1, 1);
            for (int i = 0; i < 2_000; i++) {
                launch.execute(0);
            }
            double launchUs = bestOf(() -> {
                for (int i = 0; i < LAUNCHES; i++) {
                    launch.execute(0);
                }
            }, 3) / LAUNCHES * 1e6;
            System.out.println("| language | operation | DeviceArray ns/op | float[] ns/op | float[] as a Value ns/op"
                    + " | ratio to float[] |");
            System.out.println("|---|---|---:|---:|---:|---:|");
            row("element write", bestOf(writeArr, 7), bestOf(writeHost, 7), bestOf(writeHostValue, 7));
            row("element read", bestOf(readArr, 7), bestOf(readHost, 7), bestOf(readHostValue, 7));
            System.out.printf("| Java | empty kernel launch (1 block, 1 thread) | %.1f us | | | |%n", launchUs);
            if (sink[0] == 0) {
                throw new AssertionError("nothing was read");
            }
        }
    }

    private static void row(String what, double dev, double host, double hostValue) {
        System.out.printf("| Java | %s | %.1f | %.1f | %.1f | %.2fx |%n", what, dev / N * 1e9, host / N * 1e9,
                hostValue / N * 1e9, dev / host);
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
