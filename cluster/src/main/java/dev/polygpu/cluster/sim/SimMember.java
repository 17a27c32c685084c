package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.BandwidthEstimator;
import dev.polygpu.cluster.policy.CostGate;
import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.KernelCostModel;
import dev.polygpu.cluster.policy.LoadDirectory;
import dev.polygpu.cluster.policy.SentInputs;
import dev.polygpu.cluster.policy.SpeedEstimate;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.Thief;
import dev.polygpu.cluster.policy.Victim;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One simulated member: its device (ready queue, in-flight window, slots), its policy objects ({@link Thief},
 * {@link Victim}, cost model, bandwidth, input cache, directory table) as the real node holds them, and its
 * counters. Plain state; {@link Simulator} and its parts change it.
 */
final class SimMember {
    final int index;
    final String id;
    final boolean program;
    /** How fast this member's device runs ({@link SimConfig#speeds()}): a task takes its duration / speed. */
    final double speed;
    final Thief thief;
    final Victim victim;
    final KernelCostModel costs = new KernelCostModel(KernelCostModel.DEFAULT_ALPHA);
    final BandwidthEstimator bandwidth = new BandwidthEstimator(BandwidthEstimator.DEFAULT_BYTES_PER_SECOND,
            BandwidthEstimator.DEFAULT_LATENCY_NANOS, BandwidthEstimator.DEFAULT_ALPHA);
    final RandomGenerator rnd;
    /** The arrays received as a thief, and what this member sent each thief as an owner. */
    final InputCache<Boolean, Boolean> inputs;
    final SentInputs<Boolean> sentInputs;
    /** As a directory: the surplus others reported (empty unless this member is one). */
    final LoadDirectory directory = new LoadDirectory();
    /** The surplus this member last reported to its directory (0: none), and its highest stealable rank. */
    int reported;
    int reportedTop;
    /** Tasks of other owners this member holds, ready or on its streams. */
    int foreignHeld;
    /**
     * As an owner: per thief (its index), how many of this member's tasks it holds (given, not back); kept only
     * with a thief cap, the one thing that reads it.
     */
    final Map<Integer, Integer> heldBy = new HashMap<>();
    final RankQueue pending;
    /** The tasks on the streams that wait for a slot, in the order the device starts them. */
    final RankQueue device;
    final long joinedAt;
    long leftAt = -1;
    int notStealable;
    final int[] window;
    int windowCount;
    int inFlight;
    /** The tasks the device runs now: the first {@code busy} entries. */
    final int[] running;
    int busy;
    boolean alive = true;
    boolean leaving;
    /** In a scripted run: this member's thief never asks on its own (the script asks for it). */
    boolean silenced;
    long linkFreeAt;
    long checkAt = -1;
    /**
     * The stealing settings and in-flight window of this member (scaled by its speed if so configured; the
     * threshold and window follow the learnt speed with learned limits).
     */
    StealSettings settings;
    int windowLimit;
    /** With learned limits: this member's speed as it learns it (and its own run times by task shape). */
    final SpeedEstimate learning;
    // counters
    long busyNanos;
    long tasksRun;
    /** When this member's last task ended, and how many of the tasks it ran were other members'. */
    long lastEndAt;
    long foreignRun;
    long stolen;
    long given;
    long requests;
    long emptyReplies;
    long forwards;
    long messagesSent;
    long messagesReceived;
    long bytesSent;
    long bytesReceived;
    /** Host CPU spent on messages; and that of the messages sent while handling the current event. */
    long hostCpuNanos;
    long sendCpuPending;

    /**
     * A member that joins at {@code now}.
     *
     * @param index its place in the member list
     * @param program whether it owns tasks
     * @param now the simulated time
     * @param config the run's configuration
     * @param ranks each task's rank, or null without ranks
     * @param levels each task's stream priority level (with stream priorities), or null
     */
    SimMember(int index, boolean program, long now, SimConfig config, int[] ranks, int[] levels) {
        this.index = index;
        this.id = "m" + index;
        this.program = program;
        this.speed = config.speeds().speed(index);
        StealSettings s = config.settings();
        Speeds speeds = config.speeds();
        if (speeds.scaledLimits()) {
            s = s.withThreshold(speeds.threshold(index, s.threshold()));
        }
        this.settings = s;
        this.windowLimit = speeds.window(index, config.window(), config.slots());
        this.learning = speeds.learnedLimits() ? new SpeedEstimate() : null;
        this.thief = new Thief(id, s, config.forgetAfterEmpty(), config.randomEvery(), config.directories());
        this.victim = new Victim(id, new CostGate(s, costs, bandwidth), now, program);
        this.rnd = Simulator.seeded(config.seed() * 1_000_003L + index);
        this.joinedAt = now;
        this.inputs = new InputCache<>(config.inputCacheBytes());
        this.sentInputs = new SentInputs<>(config.inputCacheBytes());
        this.pending = new RankQueue(ranks);
        this.device = new RankQueue(switch (config.order()) {
            case RANK_AND_STREAMS -> ranks;
            case RANK_AND_PRIORITIES -> levels;
            default -> null;
        });
        this.window = new int[config.window() + config.stolenOverflow()];
        this.running = new int[config.slots()];
    }

    int ready() {
        return pending.size();
    }

    int stealable() {
        return pending.size() - notStealable;
    }

    /** {@return this member's load as its victim counts it} */
    Victim.Load load() {
        return new Victim.Load(ready(), stealable(), inFlight);
    }
}
