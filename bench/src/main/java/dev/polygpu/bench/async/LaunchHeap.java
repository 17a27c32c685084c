package dev.polygpu.bench.async;

import dev.polygpu.cli.CommandLines;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.Callable;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Retained heap of a long-running program: an empty kernel launched {@code --launches} times (1,000,000 by
 * default) over three arrays, cycling {@code k(a, b)}, {@code k(b, c)}, {@code k(c, a)} with signature
 * {@code k(x: in pointer float, y: out pointer float, n: sint32)}, so every launch depends on the one before
 * it through one array and frees another from its readers. After {@code --warmup} launches (20,000, not
 * counted: they let the JIT and the runtime's caches settle), and at ¼, ½, ¾ and all of the launches, the program
 * calls {@code cudaDeviceSynchronize()}, runs {@code System.gc()} three times and prints the heap in use
 * ({@link MemoryMXBean}). A scheduler that keeps every finished element (as GrCUDA's does) grows linearly;
 * one that prunes them stays flat. Run with {@code bench/launch-heap} ({@code --help} lists the options).
 */
public final class LaunchHeap {
    private static final String SOURCE = "__global__ void k(const float *x, float *y, int n) { }";
    private static final String SIGNATURE = "k(x: in pointer float, y: out pointer float, n: sint32)";
    private static final int CHECKPOINTS = 4;
    private static final int N = 1024;

    private LaunchHeap() {
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line of {@code bench/launch-heap}. */
    @CommandLine.Command(name = "bench/launch-heap", sortOptions = false, synopsisHeading = "Usage: ",
            customSynopsis = "bench/launch-heap [--policy async|sync] [--launches N] [--warmup N]",
            description = "Retained heap while a program launches an empty kernel many times (a Markdown table on "
                    + "stdout). Options take their value as --name value or --name=value.",
            optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Option(names = "--policy", paramLabel = "async|sync", description = "grcuda.ExecutionPolicy (default "
                + "async)")
        private String policy = "async";

        @Option(names = "--launches", paramLabel = "N", description = "launches in all, a multiple of " + CHECKPOINTS
                + " (default 1000000)")
        private long launches = 1_000_000;

        @Option(names = "--warmup", paramLabel = "N", description = "launches before the first measurement, not "
                + "counted (default 20000)")
        private long warmup = 20_000;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() throws InterruptedException {
            if (launches < CHECKPOINTS || launches % CHECKPOINTS != 0) {
                throw new IllegalArgumentException("--launches must be a positive multiple of " + CHECKPOINTS
                        + ", got " + launches);
            }
            if (warmup < 1) {
                throw new IllegalArgumentException("--warmup must be positive, got " + warmup);
            }
            run(policy, launches, warmup, System.out);
            return 0;
        }
    }

    private static void run(String policy, long launches, long warmup, PrintStream out) throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        out.printf("grcuda.ExecutionPolicy=%s, %,d launches of an empty kernel on 1 block of 1 thread after %,d warm-up"
                + " launches, max heap %,d MB%n%n", policy, launches, warmup, Runtime.getRuntime().maxMemory() >> 20);
        out.println("| launches | used heap after GC MB | growth since 0 MB | bytes per launch since 0 | launches/s in"
                + " the last segment |");
        out.println("|---:|---:|---:|---:|---:|");
        long base;
        try (Context c = Context.newBuilder("grcuda").allowAllAccess(true)
                .option("grcuda.ExecutionPolicy", policy).build()) {
            Value cu = c.eval("grcuda", "CU");
            Value deviceArray = cu.getMember("DeviceArray");
            Value[] arrays = {deviceArray.execute("float", N), deviceArray.execute("float", N),
                    deviceArray.execute("float", N)};
            Value launch = cu.getMember("buildkernel").execute(SOURCE, SIGNATURE).execute(1, 1);
            Value synchronize = cu.getMember("cudaDeviceSynchronize");
            for (long i = 0; i < warmup; i++) {
                int k = (int) (i % 3);
                launch.execute(arrays[k], arrays[(k + 1) % 3], N);
            }
            synchronize.execute();
            base = usedAfterGc(memory);
            out.printf("| 0 | %.1f | 0.0 | | |%n", base / 1e6);
            long done = 0;
            for (int k = 1; k <= CHECKPOINTS; k++) {
                long until = launches / CHECKPOINTS * k;
                long t0 = System.nanoTime();
                for (; done < until; done++) {
                    int i = (int) (done % 3);
                    launch.execute(arrays[i], arrays[(i + 1) % 3], N);
                }
                synchronize.execute();
                double seconds = (System.nanoTime() - t0) / 1e9;
                long used = usedAfterGc(memory);
                out.printf("| %,d | %.1f | %.1f | %.1f | %,.0f |%n", done, used / 1e6, (used - base) / 1e6,
                        (double) (used - base) / done, launches / CHECKPOINTS / seconds);
            }
        }
        long closed = usedAfterGc(memory);
        out.printf("| context closed | %.1f | %.1f | | |%n", closed / 1e6, (closed - base) / 1e6);
    }

    private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
