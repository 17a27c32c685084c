package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.runtime.PriorityLevels;
import java.util.List;
import java.util.Objects;

/**
 * One simulated run's cluster: how many members at the start, what each member's device runs at once, the
 * stealing settings, the network and the membership changes during the run.
 *
 * @param members members at the start; at least the workload's owners, at least 1
 * @param slots elements a member's device runs at once (CUDA streams busy at once, or the CPU device's
 *     concurrent blocks); at least 1
 * @param window elements a member's scheduler keeps on its streams at once (its in-flight window); at least
 *     {@code slots}
 * @param settings the stealing settings every member uses (normally {@link StealSettings#defaults(int)} of
 *     the window, as the real cluster node derives them)
 * @param stealing false: every member runs only its own tasks (the baseline)
 * @param network latency and bandwidth between members
 * @param failAfterNanos how long an owner takes to notice a crashed member (the cluster's heartbeat
 *     failure timeout); above 0
 * @param events membership changes, in any order
 * @param inputCacheBytes the capacity of each member's cache of input arrays received with stolen work
 *     ({@link InputCache}), and of what an owner remembers having sent each thief; 0: no cache, every reply
 *     carries the bytes of every array its tasks read
 * @param order in what order members run, give and ask for their tasks ({@link Order})
 * @param priorityLevels the stream priority levels of each member's device (with
 *     {@link Order#RANK_AND_PRIORITIES}; CUDA's range on recent GPUs and the CPU device's give 6, older GPUs
 *     2); 1 to {@link PriorityLevels#MAX_LEVELS}
 * @param seed the seed of every random choice; the same seed gives the same run
 * @param stolenOverflow the scheduler's stolen overflow (0 in {@link #of}; the cluster's default and
 *     {@code polygpu simulate}'s is {@link dev.polygpu.cluster.ClusterConfig#DEFAULT_STOLEN_OVERFLOW}): with
 *     {@link Order#RANK_AND_PRIORITIES}, a task stolen from another member goes on the streams even when the
 *     window is full, up to this many beyond it, when its priority level would be above 0 (it passes the tasks
 *     waiting there), so that it waits only for the next slot to free rather than for a place in the window
 *     first; at least 0
 * @param forgetAfterEmpty each member's {@link dev.polygpu.cluster.policy.Thief} forgets the member it asks first
 *     after this many empty replies in a row through it, forwarded ones included; 0 (the default, as the cluster
 *     node) only when that member itself replies empty; at least 0
 * @param randomEvery each member's {@link dev.polygpu.cluster.policy.Thief} sends every this many requests to a
 *     member drawn at random (the one it asks first stays remembered); 0 (in {@link #of}) never; the cluster
 *     node and {@code polygpu simulate} use {@link dev.polygpu.cluster.ClusterConfig#DEFAULT_RANDOM_EVERY}; at
 *     least 0
 * @param hostCpu the host CPU each member spends per message, taken from its kernels ({@link HostCpu}: members
 *     whose devices are CPU devices on the host's cores); {@link HostCpu#NONE} (the default) charges none
 * @param directories how many members act as directories ({@link dev.polygpu.cluster.policy.LoadDirectory}):
 *     the others report their surplus to them, and a thief asks one after an empty reply; 0 (in {@link #of})
 *     none; the cluster node and {@code polygpu simulate} use
 *     {@link dev.polygpu.cluster.ClusterConfig#DEFAULT_DIRECTORIES}; at least 0
 * @param speeds how fast each member's device runs against the workload's durations ({@link Speeds});
 *     {@link Speeds#UNIFORM} (every member 1) in every constructor but the canonical one
 */
public record SimConfig(int members, int slots, int window, StealSettings settings, boolean stealing,
                        Network network, long failAfterNanos, List<MembershipEvent> events, long inputCacheBytes,
                        Order order, int priorityLevels, long seed, int stolenOverflow, int forgetAfterEmpty,
                        int randomEvery, HostCpu hostCpu, int directories, Speeds speeds) {

    /** In what order a member runs, gives and asks for tasks. */
    public enum Order {
        /**
         * Oldest first, every task of rank 0, no requests by rank: the scheduler and simulator before ranks (gives
         * the earlier figures exactly).
         */
        SUBMISSION,
        /**
         * Ready tasks run and are given highest rank (bottom level) first, and members that are not starving ask
         * for tasks of higher rank than theirs ({@link dev.polygpu.cluster.policy.Priority}); the device starts
         * the tasks on its streams in the order they were put there (the scheduler and node before stream
         * priorities).
         */
        RANK,
        /**
         * {@link #RANK}, and the device starts the highest-ranked of the tasks on its streams first, as if it had
         * a stream priority per rank: a what-if (real devices have a few levels, see
         * {@link #RANK_AND_PRIORITIES}).
         */
        RANK_AND_STREAMS,
        /**
         * As the cluster node does: {@link #RANK}, and each task put on the streams gets the stream priority level
         * the scheduler gives it ({@link PriorityLevels#level}: its rank against the lowest rank on the member's
         * streams, over {@link SimConfig#priorityLevels()} levels); the device starts the tasks of the highest
         * level first, and within a level in the order they were put there.
         */
        RANK_AND_PRIORITIES
    }

    /** The priority levels of a device as the CPU device and recent GPUs offer them (CUDA: 0 to -5). */
    public static final int DEFAULT_PRIORITY_LEVELS = 6;

    /** The cluster's default failure timeout: 5 s. */
    public static final long DEFAULT_FAIL_AFTER_NANOS = 5_000_000_000L;

    /**
     * Validates every field.
     *
     * @throws IllegalArgumentException naming the first field out of range
     */
    public SimConfig {
        if (members < 1) {
            throw new IllegalArgumentException("members must be >= 1, was " + members);
        }
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be >= 1, was " + slots);
        }
        if (window < slots) {
            throw new IllegalArgumentException("the window (" + window + ") must be at least the slots (" + slots
                    + "): a device runs only what is on its streams");
        }
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(hostCpu, "hostCpu");
        Objects.requireNonNull(speeds, "speeds");
        if (failAfterNanos <= 0) {
            throw new IllegalArgumentException("failAfter must be > 0 ns, was " + failAfterNanos);
        }
        events = List.copyOf(events);
        if (inputCacheBytes < 0) {
            throw new IllegalArgumentException("inputCacheBytes must be >= 0, was " + inputCacheBytes);
        }
        if (priorityLevels < 1 || priorityLevels > PriorityLevels.MAX_LEVELS) {
            throw new IllegalArgumentException("priorityLevels must be 1 to " + PriorityLevels.MAX_LEVELS + ", was "
                    + priorityLevels);
        }
        if (stolenOverflow < 0) {
            throw new IllegalArgumentException("stolenOverflow must be >= 0, was " + stolenOverflow);
        }
        if (forgetAfterEmpty < 0) {
            throw new IllegalArgumentException("forgetAfterEmpty must be >= 0, was " + forgetAfterEmpty);
        }
        if (randomEvery < 0) {
            throw new IllegalArgumentException("randomEvery must be >= 0, was " + randomEvery);
        }
        if (directories < 0) {
            throw new IllegalArgumentException("directories must be >= 0, was " + directories);
        }
    }

    /**
     * A configuration without host CPU charged ({@link HostCpu#NONE}).
     *
     * @throws IllegalArgumentException as the canonical constructor
     */

    public SimConfig(int members, int slots, int window, StealSettings settings, boolean stealing, Network network,
                     long failAfterNanos, List<MembershipEvent> events, long inputCacheBytes, Order order,
                     int priorityLevels, long seed, int stolenOverflow, int forgetAfterEmpty, int randomEvery) {
        this(members, slots, window, settings, stealing, network, failAfterNanos, events, inputCacheBytes, order,
                priorityLevels, seed, stolenOverflow, forgetAfterEmpty, randomEvery, HostCpu.NONE, 0, Speeds.UNIFORM);
    }

    /**
     * A configuration without the what-ifs ({@code stolenOverflow}, {@code forgetAfterEmpty} and
     * {@code randomEvery} 0) and without host CPU charged.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public SimConfig(int members, int slots, int window, StealSettings settings, boolean stealing, Network network,
                     long failAfterNanos, List<MembershipEvent> events, long inputCacheBytes, Order order,
                     int priorityLevels, long seed) {
        this(members, slots, window, settings, stealing, network, failAfterNanos, events, inputCacheBytes, order,
                priorityLevels, seed, 0, 0, 0, HostCpu.NONE, 0, Speeds.UNIFORM);
    }

    /** {@return a copy with these what-ifs (see the record's parameters)} */
    public SimConfig withWhatIfs(int overflow, int forgetAfter, int random) {
        return new SimConfig(members, slots, window, settings, stealing, network, failAfterNanos, events,
                inputCacheBytes, order, priorityLevels, seed, overflow, forgetAfter, random, hostCpu, directories,
                speeds);
    }

    /** {@return a copy whose members spend {@code cpu} of host CPU per message, taken from their kernels} */
    public SimConfig withHostCpu(HostCpu cpu) {
        return new SimConfig(members, slots, window, settings, stealing, network, failAfterNanos, events,
                inputCacheBytes, order, priorityLevels, seed, stolenOverflow, forgetAfterEmpty, randomEvery, cpu,
                directories, speeds);
    }

    /**
     * With {@code n} directories ({@link dev.polygpu.cluster.policy.LoadDirectory}): members report their surplus
     * to them, and a thief asks one after an empty reply.
     *
     * @param n how many; 0: none
     * @return the new configuration
     */
    public SimConfig withDirectories(int n) {
        return new SimConfig(members, slots, window, settings, stealing, network, failAfterNanos, events,
                inputCacheBytes, order, priorityLevels, seed, stolenOverflow, forgetAfterEmpty, randomEvery, hostCpu,
                n, speeds);
    }

    /**
     * A cluster configured as the real cluster node does by default: settings derived from the window, stealing
     * on, 5 s failure timeout, no membership change, input caches of {@link InputCache#DEFAULT_CAPACITY_BYTES},
     * {@link Order#RANK_AND_PRIORITIES} with {@link #DEFAULT_PRIORITY_LEVELS} levels.
     *
     * @param members members at the start
     * @param slots elements a device runs at once
     * @param window the scheduler's in-flight window
     * @param network the network
     * @param seed the seed
     * @return the configuration
     */
    public static SimConfig of(int members, int slots, int window, Network network, long seed) {
        return new SimConfig(members, slots, window, StealSettings.defaults(window), true, network,
                DEFAULT_FAIL_AFTER_NANOS, List.of(), InputCache.DEFAULT_CAPACITY_BYTES, Order.RANK_AND_PRIORITIES,
                DEFAULT_PRIORITY_LEVELS, seed);
    }

    /** {@return a copy with {@code n} members at the start} */
    public SimConfig withMembers(int n) {
        return new SimConfig(n, slots, window, settings, stealing, network, failAfterNanos, events,
                inputCacheBytes, order, priorityLevels, seed, stolenOverflow,
                forgetAfterEmpty, randomEvery, hostCpu, directories, speeds);
    }

    /** {@return a copy with stealing on or off} */
    public SimConfig withStealing(boolean on) {
        return new SimConfig(members, slots, window, settings, on, network, failAfterNanos, events,
                inputCacheBytes, order, priorityLevels, seed, stolenOverflow,
                forgetAfterEmpty, randomEvery, hostCpu, directories, speeds);
    }

    /** {@return a copy with these settings} */
    public SimConfig withSettings(StealSettings s) {
        return new SimConfig(members, slots, window, s, stealing, network, failAfterNanos, events,
                inputCacheBytes, order, priorityLevels, seed, stolenOverflow,
                forgetAfterEmpty, randomEvery, hostCpu, directories, speeds);
    }

    /** {@return a copy with these membership events} */
    public SimConfig withEvents(List<MembershipEvent> e) {
        return new SimConfig(members, slots, window, settings, stealing, network, failAfterNanos, e, inputCacheBytes,
                order, priorityLevels, seed, stolenOverflow,
                forgetAfterEmpty, randomEvery, hostCpu, directories, speeds);
    }

    /** {@return a copy whose members' input caches hold {@code bytes}; 0 turns the cache off} */
    public SimConfig withInputCache(long bytes) {
        return new SimConfig(members, slots, window, settings, stealing, network, failAfterNanos, events, bytes,
                order, priorityLevels, seed, stolenOverflow,
                forgetAfterEmpty, randomEvery, hostCpu, directories, speeds);
    }

    /** {@return a copy whose members' devices have {@code levels} stream priority levels} */
    public SimConfig withPriorityLevels(int levels) {
        return new SimConfig(members, slots, window, settings, stealing, network, failAfterNanos, events,
                inputCacheBytes, order, levels, seed, stolenOverflow,
                forgetAfterEmpty, randomEvery, hostCpu, directories, speeds);
    }

    /** {@return a copy whose members order their tasks so} */
    public SimConfig withOrder(Order o) {
        return new SimConfig(members, slots, window, settings, stealing, network, failAfterNanos, events,
                inputCacheBytes, o, priorityLevels, seed, stolenOverflow,
                forgetAfterEmpty, randomEvery, hostCpu, directories, speeds);
    }

    /** {@return a copy whose members' devices run at these speeds} */
    public SimConfig withSpeeds(Speeds s) {
        return new SimConfig(members, slots, window, settings, stealing, network, failAfterNanos, events,
                inputCacheBytes, order, priorityLevels, seed, stolenOverflow, forgetAfterEmpty, randomEvery, hostCpu,
                directories, s);
    }
}
