package dev.polygpu.bench;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The CPU device's PTX interpreter against its CUDA C engine on the same kernels: each kernel's source
 * ({@code ptx/*.cu}) is compiled by the engine and its PTX ({@code ptx/*.ptx}, from {@code nvcc -ptx
 * -arch=sm_75}) loaded, both run on the same buffers, and the median of the timed launches is printed as a
 * Markdown table. Arguments: {@code [n] [repetitions] [threads]} (defaults 1048576, 10, available processors).
 */
public final class PtxBench {
    private PtxBench() {
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line of {@code bench/ptx}: three numbers, each optional, in this order. */
    @CommandLine.Command(name = "bench/ptx", synopsisHeading = "Usage: ",
            customSynopsis = "bench/ptx [N [REPETITIONS [THREADS]]]",
            description = "The CPU device's PTX interpreter against its CUDA C engine on the same kernels (a "
                    + "Markdown table on stdout).", parameterListHeading = "%nArguments:%n",
            optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "elements (default 1048576)")
        private int n = 1 << 20;

        @Parameters(index = "1", arity = "0..1", paramLabel = "REPETITIONS", converter = BenchArgs.Positive.class,
                description = "timed launches per kernel and engine (default 10)")
        private int reps = 10;

        @Parameters(index = "2", arity = "0..1", paramLabel = "THREADS", converter = BenchArgs.Positive.class,
                description = "the CPU device's worker threads (default: one per processor)")
        private int threads = CpuDevice.defaultConcurrentBlocks();

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() {
            run(n, reps, threads);
            return 0;
        }
    }

    private static void run(int n, int reps, int threads) {
        try (CpuDevice device = new CpuDevice(threads)) {
            UnifiedBuffer x = device.allocate(4L * n);
            UnifiedBuffer y = device.allocate(4L * n);
            UnifiedBuffer partial = device.allocate(4L * n);
            MemorySegment xs = x.hostView();
            for (int i = 0; i < n; i++) {
                xs.setAtIndex(ValueLayout.JAVA_FLOAT, i, (i % 1000) * 0.001f);
            }
            System.out.printf(Locale.ROOT, "n = %d, %d timed launches after 3 warm-up ones, %d worker threads%n%n",
                    n, reps, threads);
            System.out.println("| kernel | CUDA C engine (ms) | PTX interpreter (ms) | PTX / engine |");
            System.out.println("|---|---:|---:|---:|");
            int block = 256;
            row(device, "saxpy", new LaunchConfig(Dim3.of((n + block - 1) / block), Dim3.of(block), 0),
                    KernelArgs.builder().pointer(y).pointer(x).f32(2f).i32(n).build(), reps);
            row(device, "reduce", new LaunchConfig(Dim3.of((n + 2 * block - 1) / (2 * block)), Dim3.of(block),
                    block * 4), KernelArgs.builder().pointer(x).pointer(partial).i32(n).build(), reps);
            row(device, "reduce_gs", new LaunchConfig(Dim3.of(Math.min(1024, (n + block - 1) / block)),
                    Dim3.of(block), block * 4), KernelArgs.builder().pointer(x).pointer(partial).i32(n).build(),
                    reps);
        }
    }

    private static void row(CpuDevice device, String kernel, LaunchConfig config, KernelArgs args, int reps) {
        Module engine = device.compile(Kernels.source(kernel + ".cu"), kernel + ".cu");
        Module ptx = device.load(Kernels.source(kernel + ".ptx").getBytes(StandardCharsets.UTF_8), kernel + ".ptx");
        double c = median(device, engine, kernel, config, args, reps);
        double p = median(device, ptx, kernel, config, args, reps);
        System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %.1fx |%n", kernel, c, p, p / c);
    }

    private static double median(CpuDevice device, Module m, String kernel, LaunchConfig config, KernelArgs args,
            int reps) {
        var f = m.function(kernel);
        double[] ms = new double[reps];
        for (int i = -3; i < reps; i++) {
            long t0 = System.nanoTime();
            device.defaultStream().launch(f, config, args);
            device.synchronize();
            if (i >= 0) {
                ms[i] = (System.nanoTime() - t0) / 1e6;
            }
        }
        Arrays.sort(ms);
        return ms[reps / 2];
    }
}
