package dev.polygpu.bench;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.CpuLink;
import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.DeviceSelectionPolicy;
import dev.polygpu.runtime.KernelSource;
import dev.polygpu.runtime.MultiDeviceConfig;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import dev.polygpu.runtime.Work;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The scheduler over 1, 2 and 4 CPU devices standing in for GPUs, under each device selection policy: makespan and
 * what the transfers between devices (and the host) came to. Each kernel gives itself a <em>device time</em> by
 * sleeping ({@code __nanosleep}, which holds its block's worker but no core), and each device runs one block at a
 * time, so devices add parallelism as GPUs would even on a machine of two cores; copies between devices wait on
 * the simulated link ({@link CpuLink}). Kernels compute only the first {@value #COMPUTED} elements of their chunk, so
 * that they take their device time rather than the shared cores; transfers move whole chunks. Two programs:
 * <ul>
 * <li>{@code bs}: data-parallel, as B&amp;S split in chunks: {@code chunks} independent kernels, each reading its
 * input chunk and writing its output chunk, then the host reads every output;</li>
 * <li>{@code chains}: {@code chunks} chains of {@code steps} kernels, each updating its chunk in place, then the
 * host reads every chunk: data stays where it is only if the policy keeps a chain on one device.</li>
 * </ul>
 * Every run's results are checked against the values computed in Java. Prints Markdown on stdout, progress on
 * stderr; {@code --help} lists the options.
 */
public final class MultiDeviceBench {
    private static final String SOURCE = """
            extern "C" __global__ void bs(float *out, const float *in, int ms, int n) {
                if (threadIdx.x == 0) { for (int k = 0; k < ms; k++) __nanosleep(1000000); }
                __syncthreads();
                for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = in[i] * 0.5f + 1.0f;
            }
            extern "C" __global__ void step(float *x, int ms, int n) {
                if (threadIdx.x == 0) { for (int k = 0; k < ms; k++) __nanosleep(1000000); }
                __syncthreads();
                for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = x[i] * 0.5f + 1.0f;
            }
            """;

    private MultiDeviceBench() {
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line of {@code bench/multidev}. */
    @CommandLine.Command(name = "bench/multidev", sortOptions = false, synopsisHeading = "Usage: ",
            customSynopsis = "bench/multidev [--quick] [--reps N] [--kernel-ms MS] [--mib MIB] [--link SPEC]",
            description = "The scheduler over 1, 2 and 4 CPU devices under each device selection policy: makespan "
                    + "and transfers (Markdown tables on stdout). Options take their value as --name value or "
                    + "--name=value.", optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Option(names = "--quick", description = "a smoke run: 1 measured run, shorter kernels")
        private boolean quick;

        @Option(names = "--reps", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "measured runs per configuration, after one warm-up (default 5)")
        private int reps = 5;

        @Option(names = "--kernel-ms", paramLabel = "MS", converter = BenchArgs.Positive.class,
                description = "device time of each kernel in ms (default 20)")
        private int kernelMs = 20;

        @Option(names = "--mib", paramLabel = "MIB", converter = BenchArgs.Positive.class,
                description = "MiB per chunk (default 4)")
        private int mib = 4;

        @Option(names = "--link", paramLabel = "SPEC", description = "the simulated link (default "
                + "bandwidth=4,latency=20: 4 GB/s, 20 µs)")
        private String link = "bandwidth=4,latency=20";

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() {
            Settings s = new Settings(quick ? 1 : reps, quick ? 5 : kernelMs, quick ? 1 : mib,
                    CpuLink.parse(link));
            return run(System.out, s);
        }
    }

    private record Settings(int reps, int kernelMs, int mib, CpuLink link) {
        int floats() {
            return mib * (1 << 20) / 4;
        }
    }

    private static final int CHUNKS = 8;
    /**
     * The elements each kernel computes, from the start of its chunk: few, so that kernels take their device time
     * (the sleep) rather than the cores, which the devices share; transfers still move whole chunks.
     */
    private static final int COMPUTED = 4096;
    private static final int STEPS = 4;

    private static int run(PrintStream out, Settings s) {
        System.err.printf("multidev: %d chunks of %d MiB, kernels of %d ms, link %s, %d measured runs%n", CHUNKS,
                s.mib, s.kernelMs, s.link, s.reps);
        out.printf("Kernels of %d ms device time, %d chunks of %d MiB, link %s; median of %d runs (after a warm-up)."
                + "%n%n", s.kernelMs, CHUNKS, s.mib, s.link, s.reps);
        out.println("| program | devices | policy | makespan ms median (min) | transfers | MiB moved |");
        out.println("|---|---:|---|---:|---:|---:|");
        for (String program : List.of("bs", "chains")) {
            for (int devices : new int[] {1, 2, 4}) {
                List<DeviceSelectionPolicy> policies = devices == 1 ? List.of(DeviceSelectionPolicy.SINGLE_GPU)
                        : Arrays.asList(DeviceSelectionPolicy.values());
                for (DeviceSelectionPolicy p : policies) {
                    measure(out, s, program, devices, p);
                }
            }
        }
        return 0;
    }

    private static void measure(PrintStream out, Settings s, String program, int count, DeviceSelectionPolicy p) {
        List<Device> devices = new ArrayList<>();
        for (int d = 0; d < count; d++) {
            CpuDevice device = new CpuDevice(count == 1 ? 0 : d, 1, null);
            device.setLink(s.link);
            devices.add(device);
        }
        try (Scheduler scheduler = new Scheduler(devices, SchedulerConfig.DEFAULT,
                MultiDeviceConfig.DEFAULT.withPolicy(p))) {
            KernelFunction bs = devices.get(0).compile(SOURCE, "multidev.cu").function("bs");
            KernelFunction step = devices.get(0).compile(SOURCE, "multidev.cu").function("step");
            double[] ms = new double[s.reps];
            Scheduler.Transfers before = null;
            for (int r = -1; r < s.reps; r++) {
                if (r == 0) {
                    before = scheduler.transfers();
                }
                // The arrays are made and filled on the host before the clock starts, and checked after it stops.
                TrackedArray[] arrays = program.equals("bs") ? bsArrays(scheduler, s) : chainArrays(scheduler, s);
                long t0 = System.nanoTime();
                if (program.equals("bs")) {
                    runBs(scheduler, bs, s, arrays);
                } else {
                    runChains(scheduler, step, s, arrays);
                }
                if (r >= 0) {
                    ms[r] = (System.nanoTime() - t0) / 1e6;
                }
                check(scheduler, program, s, arrays);
            }
            Scheduler.Transfers after = scheduler.transfers();
            long transfers = (after.count() - before.count()) / s.reps;
            double mib = (after.bytes() - before.bytes()) / (double) s.reps / (1 << 20);
            double[] sorted = ms.clone();
            Arrays.sort(sorted);
            out.printf("| %s | %d | %s | %.0f (%.0f) | %d | %.0f |%n", program, count, p.spelling(),
                    sorted[sorted.length / 2], sorted[0], transfers, mib);
            System.err.printf("multidev: %s on %d device(s), %s: %s ms%n", program, count, p.spelling(),
                    Arrays.toString(ms));
        } finally {
            devices.forEach(Device::close);
        }
    }

    /** For bs: chunk c's output at 2c, its input at 2c + 1. */
    private static TrackedArray[] bsArrays(Scheduler s, Settings settings) {
        TrackedArray[] arrays = new TrackedArray[2 * CHUNKS];
        for (int c = 0; c < CHUNKS; c++) {
            arrays[2 * c] = array(s, "out" + c, settings.floats(), -1);
            arrays[2 * c + 1] = array(s, "in" + c, settings.floats(), c);
        }
        return arrays;
    }

    /** For chains: chunk c at c. */
    private static TrackedArray[] chainArrays(Scheduler s, Settings settings) {
        TrackedArray[] arrays = new TrackedArray[CHUNKS];
        for (int c = 0; c < CHUNKS; c++) {
            arrays[c] = array(s, "x" + c, settings.floats(), c);
        }
        return arrays;
    }

    /** Chunks in, one kernel each, the results brought home (a host read of each). */
    private static void runBs(Scheduler s, KernelFunction bs, Settings settings, TrackedArray[] arrays) {
        for (int c = 0; c < CHUNKS; c++) {
            TrackedArray in = arrays[2 * c + 1];
            TrackedArray outArray = arrays[2 * c];
            KernelArgs args = KernelArgs.builder().pointer(outArray.buffer()).pointer(in.buffer())
                    .i32(settings.kernelMs).i32(COMPUTED).build();
            s.submit(ComputationalElement.kernel("bs", List.of(new Access(outArray, AccessMode.WRITE),
                    new Access(in, AccessMode.READ)), new Work.Kernel(bs, LaunchConfig.of(1, 256), args,
                    new KernelSource(SOURCE, "bs", "bs")), null));
        }
        for (int c = 0; c < CHUNKS; c++) {
            s.awaitHost(arrays[2 * c], AccessMode.READ, "read out" + c);
        }
    }

    /** Chains of in-place steps, one per chunk, submitted step by step across the chunks, then read home. */
    private static void runChains(Scheduler s, KernelFunction step, Settings settings, TrackedArray[] xs) {
        for (int k = 0; k < STEPS; k++) {
            for (int c = 0; c < CHUNKS; c++) {
                KernelArgs args = KernelArgs.builder().pointer(xs[c].buffer()).i32(settings.kernelMs).i32(COMPUTED)
                        .build();
                s.submit(ComputationalElement.kernel("step", List.of(new Access(xs[c], AccessMode.READ_WRITE)),
                        new Work.Kernel(step, LaunchConfig.of(1, 256), args, new KernelSource(SOURCE, "step",
                                "step")), null));
            }
        }
        for (int c = 0; c < CHUNKS; c++) {
            s.awaitHost(xs[c], AccessMode.READ, "read x" + c);
        }
    }

    /** Checks each result against the value computed in Java, then releases and frees the arrays. */
    private static void check(Scheduler s, String program, Settings settings, TrackedArray[] arrays) {
        int n = settings.floats();
        for (int c = 0; c < CHUNKS; c++) {
            float v = v0(c);
            for (int k = 0; k < (program.equals("bs") ? 1 : STEPS); k++) {
                v = v * 0.5f + 1.0f;
            }
            check(program.equals("bs") ? arrays[2 * c] : arrays[c], n, v, program.equals("bs") ? 0 : v0(c));
        }
        release(s, arrays);
    }

    private static float v0(int chunk) {
        return chunk + 3;
    }

    /** An array of {@code n} floats on the host, each {@code v0(chunk)}, or zeros for a chunk below 0. */
    private static TrackedArray array(Scheduler s, String name, int n, int chunk) {
        UnifiedBuffer b = s.device().allocate(4L * n);
        if (chunk >= 0) {
            java.lang.foreign.MemorySegment m = b.hostView();
            for (int i = 0; i < n; i++) {
                m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, v0(chunk));
            }
        }
        return s.track(name, b, 4L * n);
    }

    /** The computed elements hold {@code expected}, and the rest {@code untouched}. */
    private static void check(TrackedArray a, int n, float expected, float untouched) {
        for (int i = 0; i < n; i += i < COMPUTED ? 1 : 997) {
            float got = a.buffer().getFloat(i);
            float want = i < COMPUTED ? expected : untouched;
            if (got != want) {
                throw new AssertionError(a + "[" + i + "] is " + got + ", expected " + want);
            }
        }
    }

    private static void release(Scheduler s, TrackedArray[] arrays) {
        for (TrackedArray a : arrays) {
            s.release(a);
            a.buffer().free();
        }
    }
}
