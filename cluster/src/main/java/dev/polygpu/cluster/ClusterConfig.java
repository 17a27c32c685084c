package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.wire.SharedSecret;
import dev.polygpu.cluster.policy.StealSettings;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * How a member joins the cluster and steals. Immutable; build with {@link #loopback()} or {@link #parse} and the
 * {@code with…} methods.
 *
 * @param clusterName   members with different names never see each other
 * @param members       the TCP addresses ({@code host:port}) to look for other members at, one by one
 * @param bindAddress   the interface this member listens on; loopback unless configured
 * @param port          the first port to try; the next free one up to {@code port + 99} is taken
 * @param secret        the shared secret every message proves (HMAC); required unless the bind is loopback
 * @param role          a program's member (may have work to give) or a worker (lives on stolen work)
 * @param heartbeat     how often members tell each other they are alive
 * @param failAfter     a member silent this long is declared dead and its stolen work re-run
 * @param stealing      false: join, but neither steal nor give (for "without stealing" baselines)
 * @param threshold     starvation threshold (ready + running below it: steal); 0 = the device's window + 2
 * @param chunk         most elements per steal reply; 0 = half the window
 * @param rankFactor    a member that is not starving asks for elements of a rank above this many times that of
 *                      the work it runs next ({@link StealSettings#rankFactor()}); 0 = never (only starving
 *                      members ask), else at least 1; {@link StealSettings#DEFAULT_RANK_FACTOR} by default
 * @param maxHops       how far a steal request is forwarded when its victim has nothing
 * @param holdInterval  how often a thief tells owners which of their elements it still holds
 * @param maxFrameBytes the largest message accepted
 * @param inputCacheBytes how many bytes of other members' input arrays a thief keeps, so that their owners can
 *                      send a reference instead of the same bytes again; 0 = keep none (and send every input)
 * @param faults        fault injection for tests ({@link FaultInjection#parse}), or null
 * @param stolenOverflow how many elements this member runs for others may go on its device's streams beyond a
 *                      full in-flight window when their stream priority level is above 0
 *                      ({@link dev.polygpu.runtime.SchedulerConfig#stolenOverflow()}); the node does not apply it
 *                      itself: whoever creates the member's scheduler does (the worker, the GrCUDA context).
 *                      0: off; {@link #DEFAULT_STOLEN_OVERFLOW} by default
 * @param randomEvery   the thief sends every this many steal requests to a member drawn at random, the member it
 *                      asks first staying remembered ({@link dev.polygpu.cluster.policy.Thief}); 0: never;
 *                      {@link #DEFAULT_RANDOM_EVERY} by default
 * @param rankChunk     the most elements a request by rank asks for ({@link StealSettings#rankChunk()}); 0: the
 *                      chunk; {@link #DEFAULT_RANK_CHUNK} by default
 * @param directories   how many members keep the load that the others report and send thieves to the members with
 *                      the most to give ({@link dev.polygpu.cluster.policy.LoadDirectory}): the first this many
 *                      programs of the cluster; 0: none; {@link #DEFAULT_DIRECTORIES} by default (every member must
 *                      use the same number)
 * @param pushContinuations whether an owner sends the element that a thief's result has just made ready (the
 *                      next link of a chain) straight to that thief when it holds no other stolen element
 *                      ({@link dev.polygpu.cluster.policy.Victim#pushContinuation}); on by default
 * @param wakeThieves   whether a program that sent starving thieves away with nothing sends them work when it has
 *                      some again (or, where its cost gate keeps it home, word of its surplus, so that they ask at
 *                      once instead of waiting out their back-off) ({@link dev.polygpu.cluster.policy.TurnedAway});
 *                      on by default
 * @param warmUp        before it asks for work, the member runs one stolen element's whole path on itself: a
 *                      test kernel with inputs, encoded and decoded as a steal reply with the cluster's key,
 *                      compiled and run on its device, its result encoded as a work result and checked against
 *                      the same computation in Java ({@link Warmup}). It runs while Hazelcast starts; a wrong
 *                      result or an error stops the member joining. Workers do it by default, programs not
 * @param learnSpeeds   whether the member learns how fast its device is against the other members' (from run times
 *                      of the work it shares with them: {@link dev.polygpu.cluster.policy.SpeedEstimate}) and, when
 *                      it is slower, keeps fewer elements for itself: its steal threshold and in-flight window
 *                      scaled by its relative speed, so that what a slow GPU holds does not become the run's tail;
 *                      on by default ({@link #DEFAULT_LEARN_SPEEDS})
 */
public record ClusterConfig(String clusterName, List<String> members, String bindAddress, int port, String secret,
        Role role, Duration heartbeat, Duration failAfter, boolean stealing, int threshold, int chunk,
        double rankFactor, int maxHops, Duration holdInterval, int maxFrameBytes, long inputCacheBytes,
        FaultInjection faults, int stolenOverflow, int randomEvery, int rankChunk, int directories,
        boolean pushContinuations, boolean wakeThieves, boolean warmUp, boolean learnSpeeds) {

    /*
     * The defaults of the stolen overflow, random requests, the rank chunk, directories and pushed continuations:
     * together they brought the simulator's imbalanced workload at 1,024 members within 2% of the lower bound, and
     * no workload measured loses (docs/benchmarks.md, "The five policies in the cluster node, and as the
     * defaults").
     */
    /** Stolen elements that may go beyond a full window: 1. */
    public static final int DEFAULT_STOLEN_OVERFLOW = 1;
    /** Every this many steal requests go to a member drawn at random: 8. */
    public static final int DEFAULT_RANDOM_EVERY = 8;
    /** The most elements a request by rank asks for: 1. */
    public static final int DEFAULT_RANK_CHUNK = 1;
    /** How many programs act as load directories: 16. */
    public static final int DEFAULT_DIRECTORIES = 16;
    /** Whether owners push the next link of a chain to the thief that ran the link before: yes. */
    public static final boolean DEFAULT_PUSH_CONTINUATIONS = true;
    /** Whether programs wake the starving thieves they sent away when they have work again: yes. */
    public static final boolean DEFAULT_WAKE_THIEVES = true;
    /** Whether members learn their speed and scale their threshold and window by it: yes. */
    public static final boolean DEFAULT_LEARN_SPEEDS = true;

    /** What a member is there for. */
    public enum Role {
        /** Runs a program: its scheduler has work others may steal, and it steals when starving. */
        PROGRAM,
        /** Runs no program: a device that lives on stolen work. */
        WORKER
    }

    public static final String DEFAULT_NAME = "polygpu";
    public static final int DEFAULT_PORT = 5701;
    /** How many ports from {@link #port} a member tries. */
    public static final int PORT_COUNT = 100;

    public ClusterConfig {
        require(clusterName != null && !clusterName.isBlank(), "the cluster name must not be empty");
        members = List.copyOf(members);
        for (String m : members) {
            parseAddress(m);
        }
        require(bindAddress != null && !bindAddress.isBlank(), "the bind address must not be empty");
        require(port > 0 && port + PORT_COUNT - 1 <= 65535, "the port must be in 1.." + (65536 - PORT_COUNT)
                + ", got " + port);
        require(role != null, "a member needs a role");
        // Hazelcast counts both in whole seconds.
        require(heartbeat != null && heartbeat.toMillis() >= 1000 && heartbeat.toMillis() % 1000 == 0,
                "the heartbeat interval must be a whole number of seconds, at least 1 s, got " + human(heartbeat));
        require(failAfter != null && failAfter.toMillis() % 1000 == 0
                && failAfter.compareTo(heartbeat.multipliedBy(2)) >= 0,
                "failAfter must be a whole number of seconds, at least two heartbeats ("
                + human(heartbeat.multipliedBy(2)) + "), got " + human(failAfter));
        require(threshold >= 0, "the steal threshold must be 0 (automatic) or positive, got " + threshold);
        require(chunk >= 0, "the steal chunk must be 0 (automatic) or positive, got " + chunk);
        require(StealSettings.validRankFactor(rankFactor),
                "the rank factor must be 0 (never ask by rank) or a number of at least 1, got " + rankFactor);
        require(maxHops >= 0 && maxHops <= 16, "maxHops must be in 0..16, got " + maxHops);
        require(holdInterval != null && holdInterval.toMillis() >= 10,
                "the hold interval must be at least 10 ms, got " + holdInterval);
        require(inputCacheBytes >= 0, "the input cache must be 0 (off) or a positive size, got " + inputCacheBytes);
        require(stolenOverflow >= 0, "the stolen overflow must be 0 (off) or positive, got " + stolenOverflow);
        require(randomEvery >= 0, "randomEvery must be 0 (off) or positive, got " + randomEvery);
        require(rankChunk >= 0, "rankChunk must be 0 (the chunk) or positive, got " + rankChunk);
        require(directories >= 0, "directories must be 0 (none) or positive, got " + directories);
        require(maxFrameBytes >= 1 << 16, "maxFrameBytes must be at least 64 KiB, got " + maxFrameBytes);
        if (secret != null && secret.isEmpty()) {
            secret = null;
        }
        if (secret == null && !isLoopback(bindAddress)) {
            throw new IllegalArgumentException("binding to " + bindAddress + " (not loopback) needs a cluster "
                    + "secret: set the POLYGPU_CLUSTER_SECRET environment variable (or a program's --cluster-secret "
                    + "/ grcuda.ClusterSecret, a worker's --secret) to the same value on every member");
        }
    }

    /** A loopback member of cluster {@code polygpu} on port 5701 that looks for members on 127.0.0.1:5701–5703. */
    public static ClusterConfig loopback() {
        return new ClusterConfig(DEFAULT_NAME, List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703"),
                "127.0.0.1", DEFAULT_PORT, null, Role.PROGRAM, Duration.ofSeconds(1), Duration.ofSeconds(5), true,
                0, 0, StealSettings.DEFAULT_RANK_FACTOR, 2, Duration.ofMillis(250), 512 << 20,
                InputCache.DEFAULT_CAPACITY_BYTES, null, DEFAULT_STOLEN_OVERFLOW, DEFAULT_RANDOM_EVERY,
                DEFAULT_RANK_CHUNK, DEFAULT_DIRECTORIES, DEFAULT_PUSH_CONTINUATIONS, DEFAULT_WAKE_THIEVES, false,
                DEFAULT_LEARN_SPEEDS);
    }

    /**
     * Parses a comma-separated member list ({@code host:port,host:port}; a missing port means 5701). An
     * empty string gives an empty list (a member that starts a cluster of its own).
     */
    public static List<String> parseMembers(String list) {
        List<String> out = new ArrayList<>();
        if (list == null || list.isBlank()) {
            return out;
        }
        for (String part : list.split(",")) {
            String m = part.strip();
            if (m.isEmpty()) {
                continue;
            }
            if (m.indexOf(':') < 0) {
                m = m + ":" + DEFAULT_PORT;
            }
            parseAddress(m);
            out.add(m);
        }
        return out;
    }

    /**
     * A configuration from option names and values as the launcher and the {@code grcuda.Cluster*} options
     * give them: {@code members}, {@code name}, {@code bind}, {@code port}, {@code secret}, {@code role}
     * ({@code program}/{@code worker}), {@code heartbeat} and {@code failAfter} (durations such as
     * {@code 500ms}, {@code 2s}), {@code stealing} ({@code true}/{@code false}), {@code threshold},
     * {@code chunk}, {@code rankFactor} (a number: {@code 0} off, else at least {@code 1}), {@code maxHops},
     * {@code inputCache} (a size: {@code 0}, {@code 512KB}, {@code 256MB}, {@code 1GB}),
     * {@code stolenOverflow} and {@code randomEvery} (integers, {@code 0} off), {@code rankChunk} (an integer,
     * {@code 0} for the chunk), {@code directories} (an integer, {@code 0} none), {@code pushContinuations},
     * {@code wakeThieves}, {@code warmUp}, {@code learnSpeeds}
     * ({@code true}/{@code false}), {@code faults}. Unknown names are an error. The order of the entries does
     * not matter for the secret: it is applied first, since a non-loopback {@code bind} is checked against it.
     */
    public static ClusterConfig parse(Map<String, String> options) {
        return parse(options, name -> "cluster option '" + name + "'");
    }

    /**
     * {@link #parse(Map)}, with the errors about a value naming the option as {@code label} gives it for an option
     * name: as the user wrote it ({@code --rank-factor} for a worker, {@code grcuda.ClusterInputCache} for a
     * program). Every value is checked here, with the range it must be in (and, for the failure timeout, which
     * of the two options to change), so the constructor's own checks, in field names, are never what a user sees.
     */
    public static ClusterConfig parse(Map<String, String> options, UnaryOperator<String> label) {
        ClusterConfig c = loopback();
        String secret = options.get("secret");
        if (secret != null) {
            c = c.withSecret(secret.strip());
        }
        for (Map.Entry<String, String> e : options.entrySet()) {
            String v = e.getValue() == null ? "" : e.getValue().strip();
            String key = e.getKey();
            // Every value is checked here, in the user's terms, before the constructor's own checks see it.
            c = switch (key) {
                case "members" -> c.withMembers(prefixed(label.apply(key), () -> parseMembers(v)));
                case "name" -> c.withName(notEmpty(label.apply(key), v, "the name every member of the cluster "
                        + "is started with"));
                case "bind" -> c.withBind(notEmpty(label.apply(key), v, "an address of this machine, such as "
                        + "127.0.0.1"));
                case "port" -> c.withPort(intIn(label.apply(key), v, 1, 65536 - PORT_COUNT, "a port number in 1.."
                        + (65536 - PORT_COUNT) + " (a member listens on the first free one of the " + PORT_COUNT
                        + " ports from there)"));
                case "secret" -> c.withSecret(v);
                case "role" -> c.withRole(role(v));
                // Both are applied together after the loop, whatever their order.
                case "heartbeat", "failAfter" -> c;
                case "stealing" -> c.withStealing(bool(label.apply(key), v));
                case "threshold" -> c.withThreshold(intIn(label.apply(key), v, 0, Integer.MAX_VALUE,
                        "0 (automatic: the device's window + 2) or a positive number of elements"));
                case "chunk" -> c.withChunk(intIn(label.apply(key), v, 0, Integer.MAX_VALUE,
                        "0 (automatic: half the window) or a positive number of elements"));
                case "rankFactor" -> c.withRankFactor(rankFactor(label.apply(key), v));
                case "maxHops" -> c.withMaxHops(intIn(label.apply(key), v, 0, 16, "a number of hops in 0..16"));
                case "inputCache" -> c.withInputCacheBytes(size(label.apply(key), v));
                case "stolenOverflow" -> c.withStolenOverflow(intIn(label.apply(key), v, 0, Integer.MAX_VALUE,
                        "0 (off) or a positive number of elements"));
                case "randomEvery" -> c.withRandomEvery(intIn(label.apply(key), v, 0, Integer.MAX_VALUE,
                        "0 (off) or a positive number N (every Nth steal request goes to a member drawn at random)"));
                case "rankChunk" -> c.withRankChunk(intIn(label.apply(key), v, 0, Integer.MAX_VALUE,
                        "0 (as many as " + label.apply("chunk") + ") or a positive number of elements"));
                case "directories" -> c.withDirectories(intIn(label.apply(key), v, 0, Integer.MAX_VALUE,
                        "0 (none) or a positive number of programs, the same on every member"));
                case "pushContinuations" -> c.withPushContinuations(bool(label.apply(key), v));
                case "wakeThieves" -> c.withWakeThieves(bool(label.apply(key), v));
                case "warmUp" -> c.withWarmUp(bool(label.apply(key), v));
                case "learnSpeeds" -> c.withLearnSpeeds(bool(label.apply(key), v));
                case "faults" -> c.withFaults(v.isEmpty() ? null
                        : prefixed(label.apply(key), () -> FaultInjection.parse(v)));
                default -> throw new IllegalArgumentException("unknown cluster option '" + key
                        + "'; known: members, name, bind, port, secret, role, heartbeat, failAfter, stealing, "
                        + "threshold, chunk, rankFactor, maxHops, inputCache, stolenOverflow, randomEvery, rankChunk, "
                        + "directories, pushContinuations, wakeThieves, warmUp, learnSpeeds, faults");
            };
        }
        String every = options.get("heartbeat");
        String dead = options.get("failAfter");
        if (every != null || dead != null) {
            String heartbeatName = label.apply("heartbeat");
            Duration hb = c.heartbeat;
            if (every != null) {
                hb = duration(heartbeatName, every.strip());
                // Hazelcast counts both in whole seconds.
                if (hb.toMillis() < 1000 || hb.toMillis() % 1000 != 0) {
                    throw new IllegalArgumentException(heartbeatName + " must be a whole number of seconds, at "
                            + "least 1s (such as 1s or 2s), got " + human(hb));
                }
            }
            Duration fa;
            if (dead != null) {
                String failAfterName = label.apply("failAfter");
                fa = duration(failAfterName, dead.strip());
                Duration least = hb.multipliedBy(2);
                if (fa.toMillis() % 1000 != 0 || fa.compareTo(least) < 0) {
                    throw new IllegalArgumentException(failAfterName + " must be a whole number of seconds, at least"
                            + " two heartbeats (" + human(least) + ", with " + heartbeatName + " at " + human(hb)
                            + "), got " + human(fa) + ": raise " + failAfterName + " or lower " + heartbeatName);
                }
            } else {
                // Without an explicit failAfter, the default stretches to two heartbeats.
                fa = c.failAfter.compareTo(hb.multipliedBy(2)) < 0 ? hb.multipliedBy(2) : c.failAfter;
            }
            c = c.withHeartbeat(hb, fa);
        }
        return c;
    }

    public ClusterConfig withInputCacheBytes(long bytes) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter, stealing,
                threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, bytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withName(String name) {
        return new ClusterConfig(name, members, bindAddress, port, secret, role, heartbeat, failAfter, stealing,
                threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withMembers(List<String> list) {
        return new ClusterConfig(clusterName, list, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withBind(String address) {
        return new ClusterConfig(clusterName, members, address, port, secret, role, heartbeat, failAfter, stealing,
                threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withPort(int p) {
        return new ClusterConfig(clusterName, members, bindAddress, p, secret, role, heartbeat, failAfter, stealing,
                threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withSecret(String s) {
        return new ClusterConfig(clusterName, members, bindAddress, port, s, role, heartbeat, failAfter, stealing,
                threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withRole(Role r) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, r, heartbeat, failAfter, stealing,
                threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withHeartbeat(Duration every, Duration deadAfter) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, every, deadAfter, stealing,
                threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withStealing(boolean on) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter, on,
                threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withThreshold(int t) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, t, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withChunk(int c) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, c, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withRankFactor(double f) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, f, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withMaxHops(int h) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, h, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withHoldInterval(Duration d) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, d, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withFaults(FaultInjection f) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, f,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withStolenOverflow(int n) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                n, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withRandomEvery(int n) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, n, rankChunk, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withRankChunk(int n) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, n, directories, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withWarmUp(boolean on) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, on, learnSpeeds);
    }

    public ClusterConfig withDirectories(int n) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, n, pushContinuations, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withPushContinuations(boolean on) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, on, wakeThieves, warmUp, learnSpeeds);
    }

    public ClusterConfig withLearnSpeeds(boolean on) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, wakeThieves, warmUp, on);
    }

    public ClusterConfig withWakeThieves(boolean on) {
        return new ClusterConfig(clusterName, members, bindAddress, port, secret, role, heartbeat, failAfter,
                stealing, threshold, chunk, rankFactor, maxHops, holdInterval, maxFrameBytes, inputCacheBytes, faults,
                stolenOverflow, randomEvery, rankChunk, directories, pushContinuations, on, warmUp, learnSpeeds);
    }

    /**
     * The key every message of this member proves: from the secret, or, without one (loopback only), the default
     * derived from the cluster name, which protects nothing.
     */
    SharedSecret key() {
        return secret != null ? SharedSecret.of(secret) : SharedSecret.loopbackDefault(clusterName);
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "ClusterConfig[name=" + clusterName + ", members=" + members + ", bind=" + bindAddress + ":" + port
                + ", secret=" + (secret == null ? "none (loopback)" : "****") + ", role="
                + role.name().toLowerCase(Locale.ROOT) + ", heartbeat=" + heartbeat + ", failAfter=" + failAfter
                + ", stealing=" + stealing + ", threshold=" + (threshold == 0 ? "auto" : threshold) + ", chunk="
                + (chunk == 0 ? "auto" : chunk) + ", rankFactor=" + (rankFactor == 0 ? "off" : rankFactor)
                + ", maxHops=" + maxHops + ", inputCache=" + inputCacheBytes
                + ", stolenOverflow=" + (stolenOverflow == 0 ? "off" : stolenOverflow)
                + ", randomEvery=" + (randomEvery == 0 ? "off" : randomEvery)
                + ", rankChunk=" + (rankChunk == 0 ? "the chunk" : rankChunk)
                + ", directories=" + (directories == 0 ? "none" : directories)
                + ", pushContinuations=" + pushContinuations + ", wakeThieves=" + wakeThieves + ", warmUp=" + warmUp
                + ", learnSpeeds=" + learnSpeeds
                + (faults == null ? "" : ", faults="
                + faults) + "]";
    }

    static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static void parseAddress(String m) {
        int colon = m.lastIndexOf(':');
        if (colon <= 0 || colon == m.length() - 1) {
            throw new IllegalArgumentException("member address '" + m + "' must be host:port, e.g. 127.0.0.1:5701");
        }
        String port = m.substring(colon + 1);
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("member address '" + m + "' has port '" + port
                    + "', which is not a number (port ranges are not accepted: list members one by one)");
        }
        if (p <= 0 || p > 65535) {
            throw new IllegalArgumentException("member address '" + m + "' has port " + p + ", outside 1..65535");
        }
    }

    private static Role role(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "program" -> Role.PROGRAM;
            case "worker" -> Role.WORKER;
            default -> throw new IllegalArgumentException("cluster role must be 'program' or 'worker', got '" + v
                    + "'");
        };
    }

    /**
     * Parses a size: a number of bytes, or a number (fractions allowed) ending in {@code B}, {@code KB},
     * {@code MB} or {@code GB} (powers of 1024), case-insensitive: {@code 0}, {@code 65536}, {@code 512KB},
     * {@code 1.5GB}.
     *
     * @param spec the text
     * @return the bytes, rounded to the nearest whole byte
     * @throws IllegalArgumentException if {@code spec} is empty, not a number, has an unknown unit, or is negative or
     *     2<sup>63</sup> bytes or more, saying which
     */
    public static long parseSize(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("a size is needed: bytes, or a number ending in B, KB, MB or GB");
        }
        String t = spec.strip();
        int end = t.length();
        while (end > 0 && Character.isLetter(t.charAt(end - 1))) {
            end--;
        }
        String unitText = t.substring(end);
        long unit = switch (unitText.toUpperCase(Locale.ROOT)) {
            case "", "B" -> 1;
            case "KB" -> 1L << 10;
            case "MB" -> 1L << 20;
            case "GB" -> 1L << 30;
            default -> throw badSize(spec, "unknown unit '" + unitText + "'");
        };
        double value;
        try {
            value = Double.parseDouble(t.substring(0, end));
        } catch (NumberFormatException e) {
            throw badSize(spec, "'" + t.substring(0, end) + "' is not a number");
        }
        double bytes = Math.rint(value * unit);
        if (!(bytes >= 0 && bytes < 0x1p63)) {
            throw badSize(spec, "the size must be >= 0 and below 2^63 bytes");
        }
        return (long) bytes;
    }

    private static IllegalArgumentException badSize(String spec, String what) {
        return new IllegalArgumentException("bad size '" + spec + "': " + what
                + "; accepted: a number of bytes, or a number ending in B, KB, MB or GB (powers of 1024)");
    }

    private static long size(String name, String v) {
        try {
            return parseSize(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    /** An integer in {@code min..max}; else an error naming {@code name} and saying what it must be. */
    private static int intIn(String name, String v, int min, int max, String what) {
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be " + what + ", got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(name + " must be " + what + ", got " + n);
        }
        return n;
    }

    private static double rankFactor(String name, String v) {
        double f = doubleValue(name, v);
        if (!StealSettings.validRankFactor(f)) {
            throw new IllegalArgumentException(name + " must be 0 (never ask by rank) or a number of at least 1, got "
                    + v);
        }
        return f;
    }

    private static String notEmpty(String name, String v, String what) {
        if (v.isEmpty()) {
            throw new IllegalArgumentException(name + " must not be empty: give " + what);
        }
        return v;
    }

    /** Runs {@code parse}, its error prefixed with {@code name} unless it names it already. */
    private static <T> T prefixed(String name, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(name)) {
                throw e;
            }
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    private static double doubleValue(String name, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + v + "'");
        }
    }

    private static boolean bool(String name, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "on", "yes" -> true;
            case "false", "off", "no" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, got '" + v + "'");
        };
    }

    /** A duration such as {@code 250ms}, {@code 2s} or {@code 1.5s}; a bare number is seconds. */
    static Duration duration(String name, String v) {
        String s = v.toLowerCase(Locale.ROOT).strip();
        try {
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2).strip()));
            }
            if (s.endsWith("s")) {
                s = s.substring(0, s.length() - 1).strip();
            }
            return Duration.ofNanos(Math.round(Double.parseDouble(s) * 1e9));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a duration such as 500ms or 2s, got '" + v + "'");
        }
    }

    /** A duration as people write it: {@code 500ms}, {@code 2s}, {@code 1.5s}. */
    static String human(Duration d) {
        if (d == null) {
            return "nothing";
        }
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms < 1000 ? ms + "ms" : ms / 1000.0 + "s";
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
