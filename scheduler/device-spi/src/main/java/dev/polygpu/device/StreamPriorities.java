package dev.polygpu.device;

/**
 * The stream priorities a device offers, with CUDA's convention (cuCtxGetStreamPriorityRange): a numerically
 * <em>lower</em> priority is a <em>higher</em> one. {@code least} is the lowest priority (CUDA reports 0, the
 * priority of streams created without one) and {@code greatest} the highest (e.g. -5 on recent GPUs); a
 * device without priorities reports (0, 0). When the device has blocks of several launches to start, it
 * starts those of higher-priority streams first; a running block is never preempted.
 *
 * @param least the lowest priority, numerically the largest
 * @param greatest the highest priority, numerically the smallest; at most {@code least}
 */
public record StreamPriorities(int least, int greatest) {

    /** The range of a device without stream priorities: every stream has priority 0. */
    public static final StreamPriorities NONE = new StreamPriorities(0, 0);

    /**
     * Validates the range.
     *
     * @throws IllegalArgumentException if {@code greatest > least} (CUDA's greatest priority is numerically
     *     the smaller)
     */
    public StreamPriorities {
        if (greatest > least) {
            throw new IllegalArgumentException("the greatest stream priority is numerically at most the least one "
                    + "(CUDA: least 0, greatest -5), got least " + least + ", greatest " + greatest);
        }
    }

    /** {@return how many distinct priorities there are: {@code least - greatest + 1}, 1 for none} */
    public int levels() {
        return (int) Math.min(Integer.MAX_VALUE, (long) least - greatest + 1);
    }

    /** {@return {@code priority} clamped into the range, as cuStreamCreateWithPriority clamps it} */
    public int clamp(int priority) {
        return Math.max(greatest, Math.min(least, priority));
    }

    /**
     * {@return the priority of level {@code level}, where level 0 is the least priority and level
     * {@code levels() - 1} the greatest; levels out of range are clamped}
     */
    public int priorityOfLevel(int level) {
        return clamp((int) Math.max(Integer.MIN_VALUE, (long) least - Math.max(0, level)));
    }
}
