package dev.polygpu.bench;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.Device;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.CudaDevice;
import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import dev.polygpu.runtime.Work;
import dev.polygpu.cli.CommandLines;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The scheduler measured on its own (Java, no guest language), on the CPU device:
 * <ol>
 * <li>host cost per computational element: submit-only and total time per launch of an empty kernel, async
 * and sync, against the device's own launch cost without a scheduler;</li>
 * <li>the in-flight window: for windows 1…64, the makespan of many independent one-block kernels (does a
 * small window leave the device idle?) and how many ready elements wait on average while the device is busy
 * (does a large window leave a thief nothing to take?).</li>
 * </ol>
 * Prints Markdown tables on stdout, progress on stderr. {@code --quick} for a smoke run; {@code --device cuda} to
 * measure on CUDA device 0 instead of the CPU device ({@code --help} lists the options).
 */
public final class SchedulerBench {
    private static final String SOURCE = """
            extern "C" __global__ void empty(int* x, int n) { }
            extern "C" __global__ void work(float* x, int iters, int n) {
                for (int i = threadIdx.x; i < n; i += blockDim.x) {
                    float v = x[i];
                    for (int k = 0; k < iters; k++) v = v * 0.9999f + 0.5f;
                    x[i] = v;
                }
            }
            """;

    private SchedulerBench() {
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line of {@code bench/scheduler}. */
    @CommandLine.Command(name = "bench/scheduler", sortOptions = false, synopsisHeading = "Usage: ",
            customSynopsis = "bench/scheduler [--quick] [--host-cost] [--device cpu|cuda]",
            description = "The scheduler's host cost per launch and the in-flight window's effect (Markdown tables "
                    + "on stdout). Options take their value as --name value or --name=value.",
            optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Option(names = "--quick", description = "a smoke run")
        private boolean quick;

        @Option(names = "--host-cost", description = "only the host-cost table of docs/scheduler.md (three shapes, "
                + "batches of 1000/4000)")
        private boolean hostCostOnly;

        @Option(names = "--device", paramLabel = "cpu|cuda", description = "the CPU device (default) or CUDA "
                + "device 0")
        private String device = "cpu";

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() {
            if (!device.equals("cpu") && !device.equals("cuda")) {
                throw new IllegalArgumentException("--device must be cpu or cuda, got '" + device + "'");
            }
            PrintStream out = System.out;
            try (Device d = device.equals("cuda") ? CudaDevice.open(0) : new CpuDevice()) {
                System.err.println("scheduler bench on " + d);
                dev.polygpu.device.Module module = d.compile(SOURCE, "scheduler-bench.cu");
                if (hostCostOnly) {
                    hostCostByShape(out, d, module.function("empty"));
                    return 0;
                }
                hostCost(out, d, module.function("empty"), quick ? 50_000 : 300_000);
                window(out, d, module.function("work"), quick);
            }
            return 0;
        }
    }

    private static final int BATCH = 1000;

    private static void hostCost(PrintStream out, Device device, KernelFunction empty, int n) {
        UnifiedBuffer buffer = device.allocate(64);
        KernelArgs args = KernelArgs.builder().pointer(buffer).i32(1).build();
        LaunchConfig config = LaunchConfig.of(1, 1);
        out.println("| empty kernel | host µs per launch (batches of " + BATCH + ", then synchronize) | sustained µs"
                + " per launch (" + n + " launches to synchronize) |");
        out.println("|---|---|---|");
        var stream = device.createStream();
        out.printf("| device stream, no scheduler | %.2f | %.2f |%n", batches(n, () -> {
            for (int i = 0; i < BATCH; i++) {
                stream.launch(empty, config, args);
            }
        }, stream::synchronize), sustained(n, () -> stream.launch(empty, config, args), stream::synchronize));
        stream.close();
        for (SchedulerConfig.ExecutionPolicy policy : SchedulerConfig.ExecutionPolicy.values()) {
            try (Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT.withExecution(policy))) {
                TrackedArray x = s.track("x", buffer, 64);
                for (AccessMode mode : new AccessMode[] {AccessMode.READ, AccessMode.READ_WRITE}) {
                    ComputationalElement e = ComputationalElement.kernel("empty", List.of(new Access(x, mode)),
                            new Work.Kernel(empty, config, args, null), null);
                    out.printf("| scheduler, %s, %s | %.2f | %.2f |%n", policy.name().toLowerCase(),
                            mode == AccessMode.READ ? "array read (independent launches)"
                                    : "array read-write (a chain)",
                            batches(n, () -> {
                                for (int i = 0; i < BATCH; i++) {
                                    s.submit(e);
                                }
                            }, s::synchronize), sustained(n, () -> s.submit(e), s::synchronize));
                }
            }
        }
        buffer.free();
        out.println();
    }

    /**
     * The host-cost table of docs/scheduler.md: async submit time per launch of an empty kernel, median over 40
     * batches of 1000 and of 4000 (each synchronized untimed), for three shapes of program, twice each.
     */
    private static void hostCostByShape(PrintStream out, Device device, KernelFunction empty) {
        UnifiedBuffer buffer = device.allocate(64);
        KernelArgs args = KernelArgs.builder().pointer(buffer).i32(1).build();
        LaunchConfig config = LaunchConfig.of(1, 1);
        out.println("| launches (async, empty kernel) | µs per launch, batches of 1000 (two runs) | batches of 4000 |");
        out.println("|---|---|---|");
        String[] shapes = {"independent (array read)", "a chain (array read-write)",
            "a chain each of whose elements another reads"};
        for (int shape = 0; shape < shapes.length; shape++) {
            StringBuilder row = new StringBuilder("| " + shapes[shape]);
            for (int batch : new int[] {1000, 4000}) {
                row.append(" |");
                for (int run = 0; run < 2; run++) {
                    try (Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT)) {
                        TrackedArray x = s.track("x", buffer, 64);
                        ComputationalElement read = ComputationalElement.kernel("empty",
                                List.of(new Access(x, AccessMode.READ)), new Work.Kernel(empty, config, args, null),
                                null);
                        ComputationalElement write = ComputationalElement.kernel("empty",
                                List.of(new Access(x, AccessMode.READ_WRITE)),
                                new Work.Kernel(empty, config, args, null), null);
                        int kind = shape;
                        Runnable body = () -> {
                            for (int i = 0; i < batch; i++) {
                                s.submit(kind == 0 || (kind == 2 && i % 2 == 1) ? read : write);
                            }
                        };
                        row.append(String.format(java.util.Locale.ROOT, "%s %.2f", run == 0 ? "" : ",",
                                batchesOf(batch, 40, body, s::synchronize)));
                    }
                }
            }
            out.println(row.append(" |"));
        }
        buffer.free();
        out.println();
    }

    /** Median over rounds of the time per launch of a batch, synchronizing (untimed) after each batch. */
    private static double batches(int n, Runnable batch, Runnable sync) {
        return batchesOf(BATCH, Math.max(5, n / BATCH), batch, sync);
    }

    /** Median over {@code rounds} batches of {@code size} launches (after 5 untimed), per launch in µs. */
    private static double batchesOf(int size, int rounds, Runnable batch, Runnable sync) {
        long[] t = new long[rounds];
        for (int r = 0; r < rounds + 5; r++) {
            long t0 = System.nanoTime();
            batch.run();
            long dt = System.nanoTime() - t0;
            sync.run();
            if (r >= 5) {
                t[r - 5] = dt;
            }
        }
        java.util.Arrays.sort(t);
        return t[rounds / 2] / 1e3 / size;
    }

    /** Time per launch of {@code n} launches and one synchronize (after a warm-up run). */
    private static double sustained(int n, Runnable launch, Runnable sync) {
        double best = Double.MAX_VALUE;
        for (int r = 0; r < 3; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                launch.run();
            }
            sync.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e3 / n);
        }
        return best;
    }

    private static void window(PrintStream out, Device device, KernelFunction work, boolean quick) {
        int kernels = quick ? 64 : 256;
        int arrays = 16;
        int n = 256;
        int iters = quick ? 2_000 : 8_000;
        List<UnifiedBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < arrays; i++) {
            buffers.add(device.allocate(4L * n));
        }
        out.println("| window | makespan ms | mean ready (waiting for a stream) while busy | mean in flight | device idle while"
                + " work waited |");
        out.println("|---|---|---|---|---|");
        for (int window : new int[] {1, 2, 4, 8, 16, 32, 64}) {
            System.err.println("window " + window + "…");
            try (Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT.withInFlightWindow(window))) {
                List<TrackedArray> tracked = new ArrayList<>();
                for (int i = 0; i < arrays; i++) {
                    tracked.add(s.track("a" + i, buffers.get(i), 4L * n));
                }
                // Warm-up: compile and JIT the kernel's runner.
                submitAll(s, work, tracked, arrays, iters, n);
                s.synchronize();
                AtomicBoolean done = new AtomicBoolean();
                long[] sums = new long[4];
                Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                    while (!done.get()) {
                        Scheduler.Stats st = s.stats();
                        if (st.outstanding() > 0) {
                            sums[0]++;
                            sums[1] += st.ready();
                            sums[2] += st.inFlight();
                            if (st.inFlight() == 0) {
                                sums[3]++;
                            }
                        }
                        java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                    }
                });
                long t0 = System.nanoTime();
                submitAll(s, work, tracked, kernels, iters, n);
                s.synchronize();
                long t = System.nanoTime() - t0;
                done.set(true);
                try {
                    sampler.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                double samples = Math.max(1, sums[0]);
                out.printf("| %d | %.1f | %.1f | %.1f | %.1f %% |%n", window, t / 1e6, sums[1] / samples,
                        sums[2] / samples, 100.0 * sums[3] / samples);
            }
        }
        out.println();
        out.printf("(%d one-block kernels of 256 threads over %d arrays, each array's kernels a chain: %d independent"
                + " chains; %d worker threads)%n", kernels, arrays, arrays, Runtime.getRuntime().availableProcessors());
        for (UnifiedBuffer b : buffers) {
            b.free();
        }
    }

    private static void submitAll(Scheduler s, KernelFunction work, List<TrackedArray> arrays, int kernels,
            int iters, int n) {
        for (int i = 0; i < kernels; i++) {
            TrackedArray a = arrays.get(i % arrays.size());
            s.submit(ComputationalElement.kernel("work", List.of(new Access(a, AccessMode.READ_WRITE)),
                    new Work.Kernel(work, LaunchConfig.of(1, 256),
                            KernelArgs.builder().pointer(a.buffer()).i32(iters).i32(n).build(), null), null));
        }
    }
}
