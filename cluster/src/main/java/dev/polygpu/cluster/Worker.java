package dev.polygpu.cluster;

import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.CudaDevice;
import dev.polygpu.device.cuda.CudaProbe;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.SchedulerConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code polygpu worker}: a member with a device and no program, living on stolen work until it is stopped
 * (SIGINT/SIGTERM: a graceful leave, finishing what it holds) or, with {@code --for}, for a fixed time.
 */
public final class Worker {
    static final String USAGE = """
            usage: polygpu worker [options]
              --join=HOST:PORT,...   members to join (default 127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703)
              --device=auto|cpu|cuda the device this worker runs stolen kernels on (default auto: a GPU
                                     when one can be used, else the CPU device)
              --cpu-blocks=N         CPU device: blocks running at once (default: one per core)
              --cluster-name=NAME    join only members of this cluster (default polygpu)
              --bind=ADDRESS         interface to listen on (default 127.0.0.1; others need a secret)
              --port=N               first port to try (default 5701; the next free one is taken)
              --secret=S             shared secret (better: the POLYGPU_CLUSTER_SECRET environment variable)
              --heartbeat=1s --fail-after=5s   failure detection
              --stealing=false       join without stealing (a baseline: every member must say so)
              --window=N             kernels this worker keeps on its device's streams at once (default: twice
                                     the device's multiprocessors, at least 4; scaled down on its own on a
                                     device slower than the cluster's others, see --learn-speeds)
              --threshold=N --chunk=N          steal threshold and reply size (default: from the window)
              --rank-factor=F        while busy, ask for kernels ranked above F times those run next (default 2; 0: off)
              --stolen-overflow=N    run up to N stolen kernels of a higher stream priority beyond a full
                                     in-flight window (default 1; 0: off)
              --learn-speeds=false   keep --window and --threshold as given (default: a worker that learns its
                                     device is slower than the cluster's others scales both down by its speed)
              --random-every=N       send every N-th steal request to a member drawn at random (default 8; 0: off)
              --rank-chunk=N         ask for at most N kernels per request by rank (default 1; 0: the chunk)
              --directories=N        after an empty reply, ask one of the first N programs of the cluster, which
                                     know where the work is; give every member the same N (default 16; 0: none)
              --input-cache=SIZE     bytes of owners' input arrays kept to avoid resending them (default 256MB; 0: off)
              --warm-up=false        do not run and check a test kernel while joining (default true: the first
                                     stolen kernel then starts sooner, and a device that computes wrong results
                                     does not join)
              --check                only run and check the test kernel on the device, then exit (0: it computed
                                     the right result; 1: it did not, and why); joins nothing
              --stats-every=DURATION print the counters this often (default: only when leaving)
              --for=DURATION         leave after this long (default: run until stopped)
              --faults=drop=P,delay=MS,seed=N  lose and delay outgoing messages (testing)
            """;

    /** The worker's flags that are cluster options, and their names in {@link ClusterConfig#parse}. */
    private static final Map<String, String> CLUSTER_OPTIONS = Map.ofEntries(
            Map.entry("join", "members"), Map.entry("cluster-name", "name"), Map.entry("bind", "bind"),
            Map.entry("port", "port"), Map.entry("secret", "secret"), Map.entry("heartbeat", "heartbeat"),
            Map.entry("fail-after", "failAfter"), Map.entry("faults", "faults"), Map.entry("stealing", "stealing"),
            Map.entry("threshold", "threshold"), Map.entry("chunk", "chunk"), Map.entry("rank-factor", "rankFactor"),
            Map.entry("input-cache", "inputCache"), Map.entry("warm-up", "warmUp"),
            Map.entry("stolen-overflow", "stolenOverflow"), Map.entry("random-every", "randomEvery"),
            Map.entry("rank-chunk", "rankChunk"), Map.entry("directories", "directories"),
            Map.entry("learn-speeds", "learnSpeeds"));

    /** Every flag the worker takes (without {@code --}), in the order of {@link #USAGE}, which they are read from. */
    private static final List<String> FLAGS = flags();

    private Worker() {
    }

    private static List<String> flags() {
        Set<String> flags = new LinkedHashSet<>();
        Matcher m = Pattern.compile("--([a-z][a-z-]*)").matcher(USAGE);
        while (m.find()) {
            flags.add(m.group(1));
        }
        flags.add("help");
        return List.copyOf(flags);
    }

    /**
     * Runs a worker with launcher-style arguments; returns the process exit status. {@code closest} names the
     * flag among the given ones that a misspelled name was most likely meant to be, or null when none is close
     * (the launcher's, so that {@code polygpu} and {@code polygpu worker} suggest alike).
     */
    public static int run(String[] args, PrintStream out, PrintStream err,
            BiFunction<String, Collection<String>, String> closest) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("role", "worker");
        options.put("warmUp", "true");
        String device = "auto";
        int cpuBlocks = 0;
        int window = 0;
        Duration statsEvery = null;
        Duration runFor = null;
        boolean check = false;
        String envSecret = System.getenv("POLYGPU_CLUSTER_SECRET");
        if (envSecret != null && !envSecret.isEmpty()) {
            options.put("secret", envSecret);
        }
        try {
            for (String a : args) {
                if (a.equals("--help") || a.equals("-h")) {
                    out.print(USAGE);
                    return 0;
                }
                if (a.equals("--check")) {
                    check = true;
                    continue;
                }
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq < 0 && USAGE.contains(" " + a + "=")) {
                    throw new IllegalArgumentException(a + " needs a value: write " + a + "=…, as 'polygpu worker "
                            + "--help' shows");
                }
                if (a.startsWith("--") && a.length() > 2 && eq < 0) {
                    throw new IllegalArgumentException(unknownFlag(a.substring(2), closest));
                }
                if (!a.startsWith("--")) {
                    throw new IllegalArgumentException("unexpected argument '" + a + "' (options are --name=value)");
                }
                String name = a.substring(2, eq);
                String value = a.substring(eq + 1);
                switch (name) {
                    case "device" -> device = value.toLowerCase(Locale.ROOT);
                    case "cpu-blocks" -> cpuBlocks = positive(name, value);
                    case "window" -> window = positive(name, value);
                    case "stats-every" -> statsEvery = positiveDuration(name, value);
                    case "for" -> runFor = positiveDuration(name, value);
                    default -> {
                        String option = CLUSTER_OPTIONS.get(name);
                        if (option == null) {
                            throw new IllegalArgumentException(unknownFlag(name, closest));
                        }
                        options.put(option, value);
                    }
                }
            }
            // Errors about a value name the worker's flag, as the user wrote it.
            ClusterConfig config = ClusterConfig.parse(options, option -> CLUSTER_OPTIONS.entrySet().stream()
                    .filter(f -> f.getValue().equals(option)).map(f -> "--" + f.getKey()).findFirst()
                    .orElse("cluster option '" + option + "'"));
            Device d = switch (device) {
                case "cpu" -> newCpuDevice(cpuBlocks);
                case "cuda" -> openCuda();
                case "auto" -> autoDevice(cpuBlocks, err);
                default -> throw new IllegalArgumentException("--device must be auto, cpu or cuda, got '" + device
                        + "'");
            };
            return check ? check(config, d, out, err) : serve(config, d, window, statsEvery, runFor, out, err);
        } catch (IllegalArgumentException e) {
            err.println("polygpu worker: " + e.getMessage());
            err.println("run 'polygpu worker --help' for the options");
            return 2;
        }
    }

    /** What is wrong with {@code --name} (written with or without a value), which no worker option matched. */
    private static String unknownFlag(String name, BiFunction<String, Collection<String>, String> closest) {
        if (name.equals("help") || name.equals("check")) {
            return "--" + name + " takes no value";
        }
        String nearest = closest.apply(name, FLAGS);
        return "unknown worker option --" + name + (nearest != null ? " (did you mean --" + nearest + "?)" : "");
    }

    private static Device newCpuDevice(int cpuBlocks) {
        return cpuBlocks > 0 ? new CpuDevice(cpuBlocks) : new CpuDevice();
    }

    /** CUDA device 0 when one can be used and opens, else the CPU device, saying why on {@code err}. */
    private static Device autoDevice(int cpuBlocks, PrintStream err) {
        CudaProbe.Result probe = CudaProbe.result();
        String why = "no GPU (" + probe.reason() + ")";
        if (probe.usable()) {
            try {
                return CudaDevice.open(0);
            } catch (DeviceException e) {
                why = "CUDA device 0 could not be opened (" + e.getMessage() + ")";
            }
        }
        err.println("polygpu worker: running stolen kernels on the CPU device: " + why);
        return newCpuDevice(cpuBlocks);
    }

    /** CUDA device 0; IllegalArgumentException with the probe's reason when no GPU can be used. */
    private static Device openCuda() {
        try {
            return CudaDevice.open(0);
        } catch (DeviceException e) {
            throw new IllegalArgumentException("--device=cuda: " + e.getMessage() + "; use --device=cpu", e);
        }
    }

    /**
     * The members of the cluster a worker just joined, as its first line says them. A worker alone is the first
     * member of its cluster: expected where its own address is among those it was told to join (it is the one
     * the others will find), and otherwise most likely a mistake (a wrong port or host in {@code --join}, or the
     * member it should join not started yet), so the line says what happened and where others can find it.
     *
     * @param members  the cluster's members now, this one included
     * @param self     the address this worker listens on ({@code host:port}), or null if unknown
     * @param listed   the {@code --join} addresses
     */
    static String membersNow(int members, String self, List<String> listed) {
        if (members > 1) {
            return members + " members";
        }
        if (self == null || listed.isEmpty()) {
            return "1 member so far";
        }
        for (String m : listed) {
            String resolved;
            try {
                resolved = HazelcastTransport.resolvedMember(m);
            } catch (IllegalArgumentException e) {
                resolved = m;
            }
            if (resolved.equals(self)) {
                return "1 member so far";
            }
        }
        return "1 member so far: no member answered at " + String.join(",", listed) + ", so this worker started a "
                + "cluster of its own at " + self + "; members that list " + self + " join it";
    }

    /**
     * {@code --check}: the warm-up's test kernel on {@code device} ({@link Warmup}), without Hazelcast (the cluster
     * classes it needs do not touch it, so this runs where Hazelcast is not on the class path).
     */
    private static int check(ClusterConfig config, Device device, PrintStream out, PrintStream err) {
        Scheduler scheduler = new Scheduler(device, SchedulerConfig.DEFAULT);
        try {
            long nanos = Warmup.run(scheduler, source -> KernelCache.build(device, source), config.key(),
                    config.maxFrameBytes());
            out.printf(Locale.ROOT, "polygpu worker: %s device %d (%s) ran the test kernel correctly in %.0f ms "
                    + "(compiling included); --check joins nothing%n", device.backend(), device.ordinal(),
                    device.properties().name(), nanos / 1e6);
            return 0;
        } catch (Warmup.Failed e) {
            err.println("polygpu worker: the check failed: " + e.getMessage());
            return 1;
        } finally {
            scheduler.close();
            device.close();
        }
    }

    private static int serve(ClusterConfig config, Device device, int window, Duration statsEvery, Duration runFor,
            PrintStream out, PrintStream err) {
        Scheduler scheduler = new Scheduler(device,
                SchedulerConfig.DEFAULT.withStolenOverflow(config.stolenOverflow()).withInFlightWindow(window));
        ClusterNode node;
        try {
            node = ClusterNode.start(config, scheduler);
        } catch (Warmup.Failed e) {
            scheduler.close();
            device.close();
            err.println("polygpu worker: did not join: before joining, a worker runs a test kernel on its "
                    + device.backend() + " device, and " + e.getMessage() + " (--device=cpu runs stolen kernels "
                    + "on the CPU device instead)");
            return 1;
        } catch (RuntimeException e) {
            scheduler.close();
            device.close();
            err.println("polygpu worker: could not join the cluster: " + e.getMessage() + " (a worker listens on "
                    + "--bind, from --port up; the members it joins must share --cluster-name and the secret)");
            return 1;
        }
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch left = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                left.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "polygpu-worker-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("polygpu worker " + node.memberId() + " joined cluster '" + config.clusterName() + "' with "
                + device.backend() + " device " + device.ordinal() + " (" + membersNow(node.peers().size() + 1,
                node.address(), config.members()) + ")" + (node.warmUpNanos() < 0 ? ""
                : String.format(Locale.ROOT, "; its test kernel ran correctly in %.0f ms", node.warmUpNanos() / 1e6))
                + "; stop with Ctrl-C");
        out.flush();
        try {
            long end = runFor == null ? Long.MAX_VALUE : System.nanoTime() + runFor.toNanos();
            long every = statsEvery == null ? Long.MAX_VALUE : statsEvery.toNanos();
            long next = statsEvery == null ? Long.MAX_VALUE : System.nanoTime() + every;
            while (true) {
                long now = System.nanoTime();
                long wait = Math.min(end, next) - now;
                if (wait <= 0) {
                    if (now >= end) {
                        break;
                    }
                    out.print(node.stats().table());
                    out.flush();
                    next = now + every;
                    continue;
                }
                if (stop.await(Math.min(wait, 1_000_000_000L), java.util.concurrent.TimeUnit.NANOSECONDS)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                out.println("polygpu worker " + node.memberId() + " leaving: finishing the work it holds");
                node.close();
                out.print(node.stats().table());
                out.flush();
                scheduler.close();
                device.close();
            } finally {
                // Even when leaving failed: the shutdown hook waits for this, and the process must end.
                left.countDown();
                if (runFor != null) {
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    } catch (IllegalStateException e) {
                        // Already shutting down.
                    }
                }
            }
        }
        return 0;
    }

    private static int positive(String name, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException("--" + name + " must be a positive integer, got '" + value + "'");
    }

    /** A zero or negative period would print the counters in a busy loop, and a zero run time is no run. */
    private static Duration positiveDuration(String name, String value) {
        String problem = "--" + name + " must be a positive duration such as 500ms or 2s, got '" + value + "'";
        Duration d;
        try {
            d = ClusterConfig.duration(name, value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(problem, e);
        }
        if (!d.isPositive()) {
            throw new IllegalArgumentException(problem);
        }
        return d;
    }

    /**
     * Entry point for running a worker without the launcher (benchmarks start it so); a misspelled flag is then
     * refused without a suggestion, since the code that makes them is the launcher's.
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, (name, known) -> null));
    }
}
