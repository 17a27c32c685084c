package dev.polygpu.cluster.policy;

import java.util.Objects;

/**
 * Whether a computational element (CE) is worth moving to another member: the time its kernel is expected to
 * run must pay for the time its data takes to travel.
 *
 * <ul>
 *   <li>Known kernel (observed by the {@link KernelCostModel}): moves when {@code expected >= costFactor *
 *       transfer}.
 *   <li>Unknown kernel: moves when {@code transfer <= unknownKernelBudgetNanos}, so a CE nobody has timed yet
 *       travels only when its data is cheap to send.
 * </ul>
 * {@code transfer} is {@link BandwidthEstimator#transferNanos(long)} of the bytes to move, which the caller counts
 * as everything that must travel for the CE: its input arrays out and its written arrays back.
 *
 * <p>Thread-safe as far as its model and estimator are (both are). O(1) per call.
 */
public final class CostGate {

    private final StealSettings settings;
    private final KernelCostModel kernels;
    private final BandwidthEstimator bandwidth;

    /**
     * A gate deciding by the given settings and estimates, which it reads at each decision (so it follows what
     * they learn).
     *
     * @param settings where the cost factor and the unknown-kernel budget come from
     * @param kernels the expected run times per kernel
     * @param bandwidth the transfer time estimate
     * @throws NullPointerException if an argument is null
     */
    public CostGate(StealSettings settings, KernelCostModel kernels, BandwidthEstimator bandwidth) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.kernels = Objects.requireNonNull(kernels, "kernels");
        this.bandwidth = Objects.requireNonNull(bandwidth, "bandwidth");
    }

    /**
     * Whether the CE should move, by the rule in the class comment.
     *
     * @param kernelKey the key of the CE's kernel, as given to {@link KernelCostModel#observe}; not null
     * @param bytesToMove every byte that must travel for the CE; at least 0
     * @return true when the CE should move
     * @throws IllegalArgumentException if {@code bytesToMove} is negative
     * @throws NullPointerException if {@code kernelKey} is null
     */
    public boolean worthMoving(String kernelKey, long bytesToMove) {
        long expected = kernels.expectedNanos(kernelKey);
        long transfer = bandwidth.transferNanos(bytesToMove);
        return verdict(expected, transfer);
    }

    /**
     * Whether to move a kernel that would otherwise wait {@code waitHereNanos} at home before it starts (its
     * place in the victim's ready queue: the expected run time of the elements ahead of it divided by the
     * blocks the device runs at once). It moves if its own run time pays for its transfer ({@link
     * #worthMoving(String, long)}), or if its transfer takes no longer than that wait: an element that would
     * wait at home longer than it takes to travel finishes sooner elsewhere, whatever its own run time. With
     * a wait of 0 this is {@link #worthMoving(String, long)}.
     */
    public boolean worthMoving(String kernelKey, long bytesToMove, long waitHereNanos) {
        long expected = kernels.expectedNanos(kernelKey);
        long transfer = bandwidth.transferNanos(bytesToMove);
        return verdict(expected, transfer) || (expected >= 0 && waitHereNanos > 0
                && settings.costFactor() * transfer <= waitHereNanos);
    }

    /**
     * How long an element of kernel {@code kernelKey} waits at home behind {@code queuedAhead} ready elements
     * of the same expected cost on a device running {@code slots} at once; 0 if the kernel is unknown.
     */
    public long waitHereNanos(String kernelKey, int queuedAhead, int slots) {
        long expected = kernels.expectedNanos(kernelKey);
        if (expected < 0 || queuedAhead <= 0) {
            return 0;
        }
        double wait = (double) expected * queuedAhead / Math.max(1, slots);
        return wait >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) wait;
    }

    /**
     * The same decision as {@link #worthMoving(String, long)}, with the numbers it was made from, for logging.
     *
     * @param kernelKey the key of the CE's kernel; not null
     * @param bytesToMove every byte that must travel for the CE; at least 0
     * @return the decision
     * @throws IllegalArgumentException if {@code bytesToMove} is negative
     * @throws NullPointerException if {@code kernelKey} is null
     */
    public Decision explain(String kernelKey, long bytesToMove) {
        long expected = kernels.expectedNanos(kernelKey);
        long transfer = bandwidth.transferNanos(bytesToMove);
        return new Decision(kernelKey, bytesToMove, expected, transfer, settings.costFactor(),
                settings.unknownKernelBudgetNanos(), verdict(expected, transfer));
    }

    /** {@return the settings this gate decides by} */
    public StealSettings settings() {
        return settings;
    }

    private boolean verdict(long expectedNanos, long transferNanos) {
        if (expectedNanos >= 0) {
            return expectedNanos >= settings.costFactor() * transferNanos;
        }
        return transferNanos <= settings.unknownKernelBudgetNanos();
    }

    /**
     * One cost-gate decision with the numbers behind it.
     *
     * @param kernelKey the kernel asked about
     * @param bytesToMove the bytes that would travel
     * @param expectedNanos the kernel's expected run time, or -1 when it is unknown
     * @param transferNanos the expected transfer time of {@code bytesToMove}
     * @param costFactor the factor a known kernel's run time is compared with
     * @param unknownKernelBudgetNanos the transfer budget of an unknown kernel
     * @param worthMoving the verdict
     */
    public record Decision(String kernelKey, long bytesToMove, long expectedNanos, long transferNanos,
                           double costFactor, long unknownKernelBudgetNanos, boolean worthMoving) {

        /** {@return whether the kernel had an expected run time} */
        public boolean known() {
            return expectedNanos >= 0;
        }

        /** {@return one line for a log: the verdict, the comparison made and its numbers} */
        @Override
        public String toString() {
            String verb = worthMoving ? "move" : "keep";
            if (known()) {
                return verb + " " + kernelKey + ": expected " + expectedNanos + " ns "
                        + (worthMoving ? ">=" : "<") + " " + costFactor + " x transfer " + transferNanos
                        + " ns (" + bytesToMove + " bytes)";
            }
            return verb + " " + kernelKey + " (unknown kernel): transfer " + transferNanos + " ns "
                    + (worthMoving ? "<=" : ">") + " budget " + unknownKernelBudgetNanos + " ns ("
                    + bytesToMove + " bytes)";
        }
    }
}
