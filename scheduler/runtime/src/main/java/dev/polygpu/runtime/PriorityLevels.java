package dev.polygpu.runtime;

/**
 * Which stream priority an element goes to: its rank (bottom level) mapped to one of the few priority levels a
 * device offers. A pure function, shared by the scheduler and the cluster simulator so that both place work
 * alike.
 *
 * <p>Level 0 is the least priority (CUDA's 0, that of plain streams); higher levels are higher priorities. An
 * element's level counts how many times its rank doubles the <em>lowest rank on the device's streams</em>
 * (the elements placed and not complete, itself included) beyond a factor of 2: level 0 up to twice that
 * rank, level 1 above twice, 2 above four times, and so on, up to the device's highest level. So the common
 * case — elements of similar ranks — stays at the least priority and runs in stream order as without
 * priorities, and an element that ranks far above what the device already holds (the head of a long chain,
 * a chain link stolen by rank from another member) goes on a higher-priority stream and starts before the
 * low-ranked work queued there. The factor of 2 is the cluster's rank factor: a member asks others for
 * elements ranked above twice its floor rank, and those land one level up.
 *
 * <p>Why relative, and to that reference: ranks are unbounded and levels few (6 on recent GPUs, 2 on older
 * ones), so a fixed scale saturates (with log₂ of the rank, 6 levels end at rank 32); and a level is fixed
 * when the element is queued, so the reference must be what it competes with on the device now, not a
 * maximum (every element placed while a low maximum held would stay at the top) nor the floor rank (which
 * moves with the element itself). Measured in the simulator (bspgemm, 1,024 members, seeds 1 and 2): levels
 * relative to the lowest rank on the streams gave 95.0%/94.6% of the lower bound with 6 levels and
 * 96.0%/95.1% with 2, against 95.4%/94.9% for ordering every queued kernel by its exact rank, 94.2%/94.3% for
 * log₂ of the rank, 96.0%/95.0% for log₄ of the rank with 6 levels but 87.9% with 2, and 85.5% relative to
 * the floor rank (docs/benchmarks.md).
 *
 * <p>Stateless and thread-safe.
 */
public final class PriorityLevels {

    /** The most levels used, whatever range a device reports: ranks 2^15 times the lowest are rare enough. */
    public static final int MAX_LEVELS = 16;

    private PriorityLevels() {
    }

    /**
     * The level of an element of rank {@code rank} placed on a device whose streams hold elements of lowest rank
     * {@code lowestOnStreams}.
     *
     * @param rank the element's rank (bottom level); below 1 (unknown) gives level 0
     * @param lowestOnStreams the lowest rank among the elements on the device's streams, not counting this one;
     *     below 1, or above {@code rank}, when there is none lower: the element is then its own reference
     * @param levels how many levels the device offers (at least 1); more than {@link #MAX_LEVELS} count as that
     * @return the largest {@code k < levels} such that {@code rank > reference * 2^k}, or 0 when there is none:
     *     0 for {@code rank <= 2 * reference}
     * @throws IllegalArgumentException if {@code levels} is below 1
     */
    public static int level(int rank, int lowestOnStreams, int levels) {
        if (levels < 1) {
            throw new IllegalArgumentException("a device offers at least 1 priority level, got " + levels);
        }
        if (rank < 1 || levels == 1) {
            return 0;
        }
        long reference = lowestOnStreams >= 1 && lowestOnStreams < rank ? lowestOnStreams : rank;
        int top = Math.min(levels, MAX_LEVELS) - 1;
        int k = 0;
        // reference <= 2^31 and k + 1 <= MAX_LEVELS - 1, so the shift stays within a long.
        while (k < top && rank > reference << (k + 1)) {
            k++;
        }
        return k;
    }

    /**
     * How many levels to use on a device that reports {@code priorities}: its own count, at most
     * {@link #MAX_LEVELS}.
     */
    public static int levelsOf(dev.polygpu.device.StreamPriorities priorities) {
        return Math.min(priorities.levels(), MAX_LEVELS);
    }
}
