package dev.polygpu.cluster;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.cli.YesNo;
import dev.polygpu.device.Device;
import dev.polygpu.runtime.DeviceSelectionPolicy;
import dev.polygpu.runtime.MultiDeviceConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of {@code polygpu worker}: its options as picocli reads them ({@code --join=…} or
 * {@code --join …}), turned into a {@link ClusterConfig} (through {@link ClusterConfig#parse}, whose errors name
 * the worker's flags as written), a device and how long to run, then handed to {@link Worker}. A worker given no
 * {@code --port} listens on the first free address of its {@code --join} list that is its own ({@link JoinPort}).
 */
@Command(name = "polygpu worker", sortOptions = false, synopsisHeading = "Usage: ",
        customSynopsis = "polygpu worker [options]",
        description = {"A cluster member with a device and no program: it runs kernels it steals from programs "
                + "started with --cluster, until it is stopped (Ctrl-C: it finishes what it holds) or for --for. "
                + "Options take their value as --name=value or --name value; docs/cluster.md says more."},
        optionListHeading = "%nOptions:%n")
final class WorkerCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--join", paramLabel = "HOST:PORT,...", description = "members to join (default "
            + "127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703)")
    private String join;

    @Option(names = "--device", paramLabel = "auto|cpu|cuda", description = "the device this worker runs stolen "
            + "kernels on (default auto: a GPU when one can be used, else the CPU device)")
    private String device = "auto";

    @Option(names = "--cpu-blocks", paramLabel = "N", description = "CPU device: blocks running at once (default: "
            + "one per core, shared out among --devices)")
    private String cpuBlocks;

    @Option(names = "--devices", paramLabel = "N", description = "CPU devices standing in for N GPUs, each with its "
            + "own memory, as grcuda.NumberOfGPUs (default 1; on a GPU a worker uses one so far)")
    private String devices;

    @Option(names = "--device-selection", paramLabel = "POLICY", description = "with several --devices, which one "
            + "runs each stolen kernel: round-robin (default), stream-aware, single-gpu, min-transfer-size, "
            + "minmin-transfer-time or minmax-transfer-time")
    private String deviceSelection;

    @Option(names = "--cluster-name", paramLabel = "NAME", description = "join only members of this cluster "
            + "(default polygpu)")
    private String clusterName;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "interface to listen on (default 127.0.0.1; "
            + "others need a secret)")
    private String bind;

    @Option(names = "--port", paramLabel = "N", description = "first port to try; the next free one is taken "
            + "(default: the first free address of --join on this machine, else 5701)")
    private String port;

    @Option(names = "--secret", paramLabel = "S", description = "shared secret (better: the POLYGPU_CLUSTER_SECRET "
            + "environment variable, which ps does not show)")
    private String secret;

    @Option(names = "--heartbeat", paramLabel = "DURATION", description = "failure detection: how often members "
            + "say they are alive (default 1s)")
    private String heartbeat;

    @Option(names = "--fail-after", paramLabel = "DURATION", description = "failure detection: a member silent this "
            + "long has failed (default 5s)")
    private String failAfter;

    @Option(names = "--stealing", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "--stealing=false joins without stealing (a baseline: every "
            + "member must say so)")
    private Boolean stealing;

    @Option(names = "--window", paramLabel = "N", description = "kernels this worker keeps on its device's streams "
            + "at once (default: twice the device's multiprocessors, at least 4; scaled down on its own on a device "
            + "slower than the cluster's others, see --learn-speeds)")
    private String window;

    @Option(names = "--threshold", paramLabel = "N", description = "steal threshold (default: from the window)")
    private String threshold;

    @Option(names = "--chunk", paramLabel = "N", description = "most kernels per steal reply (default: from the "
            + "window)")
    private String chunk;

    @Option(names = "--rank-factor", paramLabel = "F", description = "while busy, ask for kernels ranked above F "
            + "times those run next (default 2; 0: off)")
    private String rankFactor;

    @Option(names = "--stolen-overflow", paramLabel = "N", description = "run up to N stolen kernels of a higher "
            + "stream priority beyond a full in-flight window (default 1; 0: off)")
    private String stolenOverflow;

    @Option(names = "--learn-speeds", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "--learn-speeds=false keeps --window and --threshold as given "
            + "(default: a worker that learns its device is slower than the cluster's others scales both down by "
            + "its speed)")
    private Boolean learnSpeeds;

    @Option(names = "--random-every", paramLabel = "N", description = "send every N-th steal request to a member "
            + "drawn at random (default 8; 0: off)")
    private String randomEvery;

    @Option(names = "--rank-chunk", paramLabel = "N", description = "ask for at most N kernels per request by rank "
            + "(default 1; 0: the chunk)")
    private String rankChunk;

    @Option(names = "--directories", paramLabel = "N", description = "after an empty reply, ask one of the first N "
            + "programs of the cluster, which know where the work is; give every member the same N (default 16; "
            + "0: none)")
    private String directories;

    @Option(names = "--input-cache", paramLabel = "SIZE", description = "bytes of owners' input arrays kept to "
            + "avoid resending them (default 256MB; 0: off)")
    private String inputCache;

    @Option(names = "--warm-up", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "--warm-up=false does not run and check a test kernel while "
            + "joining (default true: the first stolen kernel then starts sooner, and a device that computes wrong "
            + "results does not join)")
    private Boolean warmUp;

    @Option(names = "--check", description = "only run and check the test kernel on the device, then exit (0: it "
            + "computed the right result; 1: it did not, and why); joins nothing")
    private boolean check;

    @Option(names = "--stats-every", paramLabel = "DURATION", description = "print the counters this often "
            + "(default: only when leaving)")
    private String statsEvery;

    @Option(names = "--for", paramLabel = "DURATION", description = "leave after this long (default: run until "
            + "stopped)")
    private String runFor;

    @Option(names = "--faults", paramLabel = "drop=P,delay=MS,seed=N", description = "lose and delay outgoing "
            + "messages (testing)")
    private String faults;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
    private boolean help;

    WorkerCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs {@code polygpu worker args…}; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return CommandLines.execute(new WorkerCommand(out, err), out, err, args);
    }

    @Override
    public Integer call() {
        Map<String, String> options = clusterOptions();
        // Errors about a value name the worker's flag, as the user wrote it.
        ClusterConfig config = ClusterConfig.parse(options, WorkerCommand::flag);
        int blocks = cpuBlocks == null ? 0 : positive("--cpu-blocks", cpuBlocks);
        int inFlight = window == null ? 0 : positive("--window", window);
        Duration every = statsEvery == null ? null : positiveDuration("--stats-every", statsEvery);
        Duration limit = runFor == null ? null : positiveDuration("--for", runFor);
        int count = devices == null ? 1 : positive("--devices", devices);
        if (count > Worker.MAX_DEVICES) {
            throw new IllegalArgumentException("--devices must be at most " + Worker.MAX_DEVICES + " (the most a "
                    + "scheduler runs on), got " + count);
        }
        MultiDeviceConfig placement = MultiDeviceConfig.DEFAULT;
        if (deviceSelection != null) {
            try {
                placement = placement.withPolicy(DeviceSelectionPolicy.parse(deviceSelection));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--device-selection: " + e.getMessage(), e);
            }
        }
        String kind = device.toLowerCase(Locale.ROOT);
        if (!List.of("auto", "cpu", "cuda").contains(kind)) {
            throw new IllegalArgumentException("--device must be auto, cpu or cuda, got '" + device + "'");
        }
        if (kind.equals("cuda") && count > 1) {
            throw new IllegalArgumentException("--devices=" + count + " with --device=cuda: a worker runs on one GPU "
                    + "so far; --device=cpu --devices=" + count + " runs " + count + " CPU devices");
        }
        List<Device> ds = switch (kind) {
            case "cpu" -> Worker.newCpuDevices(count, blocks);
            case "cuda" -> List.of(Worker.openCuda());
            default -> Worker.autoDevices(count, blocks, err);
        };
        if (check) {
            return Worker.check(config, ds, out, err);
        }
        boolean portFromJoin = false;
        if (port == null) {
            OptionalInt free = JoinPort.firstFree(config.members(), config.bindAddress());
            if (free.isPresent()) {
                config = config.withPort(free.getAsInt());
                portFromJoin = true;
            }
        }
        return Worker.serve(config, ds, placement, inFlight, every, limit, portFromJoin, out, err);
    }

    /** The options given that are cluster options, by their names in {@link ClusterConfig#parse}. */
    private Map<String, String> clusterOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("role", "worker");
        String envSecret = System.getenv("POLYGPU_CLUSTER_SECRET");
        put(o, "secret", secret != null ? secret : envSecret != null && !envSecret.isEmpty() ? envSecret : null);
        put(o, "members", join);
        put(o, "name", clusterName);
        put(o, "bind", bind);
        put(o, "port", port);
        put(o, "heartbeat", heartbeat);
        put(o, "failAfter", failAfter);
        put(o, "stealing", stealing);
        put(o, "threshold", threshold);
        put(o, "chunk", chunk);
        put(o, "rankFactor", rankFactor);
        put(o, "stolenOverflow", stolenOverflow);
        put(o, "learnSpeeds", learnSpeeds);
        put(o, "randomEvery", randomEvery);
        put(o, "rankChunk", rankChunk);
        put(o, "directories", directories);
        put(o, "inputCache", inputCache);
        put(o, "warmUp", warmUp == null ? Boolean.TRUE : warmUp);
        put(o, "faults", faults);
        return o;
    }

    private static void put(Map<String, String> options, String name, Object value) {
        if (value != null) {
            options.put(name, value.toString());
        }
    }

    /** The worker's flag for a cluster option ({@link ClusterConfig#parse}'s name). */
    private static String flag(String option) {
        return switch (option) {
            case "members" -> "--join";
            case "name" -> "--cluster-name";
            case "failAfter" -> "--fail-after";
            case "rankFactor" -> "--rank-factor";
            case "inputCache" -> "--input-cache";
            case "warmUp" -> "--warm-up";
            case "stolenOverflow" -> "--stolen-overflow";
            case "randomEvery" -> "--random-every";
            case "rankChunk" -> "--rank-chunk";
            case "learnSpeeds" -> "--learn-speeds";
            case "bind", "port", "secret", "heartbeat", "faults", "stealing", "threshold", "chunk", "directories" ->
                    "--" + option;
            default -> "cluster option '" + option + "'";
        };
    }

    private static int positive(String name, String value) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below, with the value as written.
        }
        throw new IllegalArgumentException(name + " must be a positive integer, got '" + value + "'");
    }

    /** A zero or negative period would print the counters in a busy loop, and a zero run time is no run. */
    private static Duration positiveDuration(String name, String value) {
        String problem = name + " must be a positive duration such as 500ms or 2s, got '" + value + "'";
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
}
