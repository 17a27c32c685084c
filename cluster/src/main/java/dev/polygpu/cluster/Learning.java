package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.BandwidthEstimator;
import dev.polygpu.cluster.policy.KernelCostModel;
import dev.polygpu.cluster.policy.SpeedEstimate;
import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ScheduleObserver;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a member learns from run times: each kernel's time (the cost gate's {@link KernelCostModel}), the
 * network's bandwidth ({@link BandwidthEstimator}) from the round trips of elements it gave, and, with
 * {@link ClusterConfig#learnSpeeds()}, its own speed against the others' ({@link SpeedEstimate}), which its
 * threshold and in-flight window then follow ({@link #followSpeed}). Thread-safe: the cost model and the
 * bandwidth are guarded by the cost model's monitor, the speed estimate is its own.
 */
final class Learning {
    private final NodeContext n;
    /** Guarded by itself; so is {@link #bandwidth}. */
    final KernelCostModel costs = new KernelCostModel(KernelCostModel.DEFAULT_ALPHA);
    final BandwidthEstimator bandwidth = new BandwidthEstimator(BandwidthEstimator.DEFAULT_BYTES_PER_SECOND,
            BandwidthEstimator.DEFAULT_LATENCY_NANOS, BandwidthEstimator.DEFAULT_ALPHA);
    /** This member's speed against the others', learnt from run times. */
    private final SpeedEstimate speeds = new SpeedEstimate();
    /** The threshold of a member of the fastest kind: what the configuration gives. */
    private final int baseThreshold;
    /** Held while the limits follow a new speed ({@link #followSpeed}), so that changes apply in order. */
    private final Object followLock = new Object();
    /** The relative speed the threshold and window follow now. */
    private volatile double relativeSpeed = 1;
    /** Kernel names and shapes of this device's launched elements, for their run times (cost model, speed). */
    private final Map<Long, Launched> launchedKernels = new ConcurrentHashMap<>();
    /**
     * Elements of this member given to a thief (by the scheduler's id): when one completes, its time is the
     * thief's, which this member's own times by shape ({@link SpeedEstimate#recordOwn}) must not take in.
     */
    private final Set<Long> givenAway = ConcurrentHashMap.newKeySet();

    /**
     * A kernel launched on this device: its name (the cost model's key) and the bytes of its arrays (its
     * {@link #shape}, made only when a run time is recorded: the observer sees every launch).
     */
    private record Launched(String label, long arrayBytes) {
    }

    Learning(NodeContext n) {
        this.n = n;
        this.baseThreshold = n.settings.threshold();
    }

    /** The observer of the scheduler that records this device's kernel times. */
    ScheduleObserver observer() {
        return new ScheduleObserver() {
            @Override
            public void submitted(ElementInfo element, long[] parents) {
                if (element.kind() == ElementKind.KERNEL && !Warmup.KERNEL.equals(element.label())) {
                    long bytes = 0;
                    for (ArrayUse use : element.arrays()) {
                        bytes += Math.max(0, use.bytes());
                    }
                    launchedKernels.put(element.id(), new Launched(element.label(), bytes));
                }
            }

            @Override
            public void completed(long elementId, long startNanos, long endNanos, String failure) {
                Launched kernel = launchedKernels.remove(elementId);
                boolean ranElsewhere = givenAway.remove(elementId);
                if (kernel != null && failure == null && endNanos > startNanos) {
                    synchronized (costs) {
                        costs.observe(kernel.label(), endNanos - startNanos);
                    }
                    if (n.config.learnSpeeds() && !ranElsewhere) {
                        speeds.recordOwn(shape(kernel.label(), kernel.arrayBytes()), endNanos - startNanos);
                    }
                }
                n.wakeLoop();
            }
        };
    }

    /** Element {@code elementId} of this device was given to a thief: its completion is not this device's time. */
    void givenAway(long elementId) {
        givenAway.add(elementId);
    }

    /**
     * An element's shape for learning speeds: its kernel and the bytes of the arrays it uses. Run times of one
     * kernel differ with its arrays' sizes; members compare times of elements of one shape. Computed alike by
     * the owner (from the element) and by a thief (from the copy it runs, whose arrays have the owner's sizes).
     */
    static String shape(String kernel, long arrayBytes) {
        return kernel + '/' + arrayBytes;
    }

    /** How long this member expects an element of {@code shape} to run here (0 when not learning). */
    long expectedOwn(String shape) {
        return n.config.learnSpeeds() ? Math.max(0, speeds.expectedOwn(shape)) : 0;
    }

    /**
     * A result came home: the kernel ran {@code runNanos} at {@code thief}, and its {@code bytes} took
     * {@code transferNanos} there and back.
     */
    void observeResult(String thief, String kernel, String shape, long runNanos, long bytes, long transferNanos) {
        synchronized (costs) {
            costs.observe(kernel, runNanos);
            if (transferNanos > 0) {
                bandwidth.observe(bytes, transferNanos);
            }
        }
        if (n.config.learnSpeeds() && speeds.observeShape(thief, shape, runNanos)) {
            followSpeed();
        }
    }

    /** A stolen element of {@code owner} ran {@code runNanos} here, where the owner expected {@code expected}. */
    void observeStolen(String owner, long runNanos, long expected) {
        if (n.config.learnSpeeds() && speeds.observe(owner, runNanos, expected)) {
            followSpeed();
        }
    }

    /** {@return the relative speed the limits follow now} */
    double relativeSpeed() {
        return relativeSpeed;
    }

    /** Forgets a member that left. */
    void forget(String member) {
        speeds.forget(member);
    }

    /**
     * After a sample of this member's speed: with {@link ClusterConfig#learnSpeeds()}, its steal threshold (thief,
     * victim, the surplus it reports) and the scheduler's in-flight window follow the relative speed it has learnt
     * ({@link SpeedEstimate#threshold}, {@link SpeedEstimate#window}): a member four times slower than the others
     * keeps about a quarter of what they keep, so that what it holds does not become the run's tail.
     */
    private void followSpeed() {
        // Not under the estimate's own lock: the scheduler's observer records run times into it while it holds
        // the scheduler's lock, which setInFlightWindow takes.
        synchronized (followLock) {
            double relative = speeds.relative();
            if (relative == relativeSpeed) {
                return;
            }
            relativeSpeed = relative;
            int threshold = SpeedEstimate.threshold(baseThreshold, relative);
            int window = SpeedEstimate.window(n.scheduler.configuredInFlightWindow(), n.slots, relative);
            if (threshold != n.settings.threshold()) {
                n.settings = n.settings.withThreshold(threshold);
                n.thief.policy().setThreshold(threshold);
                n.victim.policy().setThreshold(threshold);
            }
            if (window != n.scheduler.inFlightWindow()) {
                n.scheduler.setInFlightWindow(window);
            }
            ClusterNode.LOG.log(System.Logger.Level.DEBUG, () -> String.format(Locale.ROOT, "%s: speed %.2f of the "
                    + "fastest member's; threshold %d, window %d", Membership.shortId(n.self()), relative, threshold,
                    window));
        }
    }
}
