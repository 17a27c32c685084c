package dev.polygpu.cluster.wire;

import dev.polygpu.runtime.ElementMessage;
import java.util.List;
import java.util.Objects;

/**
 * One stolen element inside a {@link StealReply}: what to run, the array contents it reads, and its rank. The
 * ids come back in {@link WorkResult}, {@link Handback} and {@link Holding}.
 *
 * @param stealId the owner's id for this loan of the element
 * @param epoch   the owner's epoch when it lent the element; a result from an older epoch is stale
 * @param element what to run
 * @param inputs  the byte ranges of the arrays the element reads (may be empty, e.g. for write-only arrays)
 * @param rank    the element's rank at its owner when it was given (its bottom level there), which the thief
 *                runs it with; 0 when unknown; not negative
 * @param expectedNanos how long the owner expects the element to run on its own device (its typical run time of
 *                elements of this shape), so that the thief learns how fast it is against the owner
 *                ({@link dev.polygpu.cluster.policy.SpeedEstimate}); 0 when unknown; not negative
 */
public record WorkItem(long stealId, long epoch, ElementMessage element, List<ArrayData> inputs, int rank,
        long expectedNanos) {
    public WorkItem {
        Objects.requireNonNull(element, "element");
        inputs = List.copyOf(inputs);
        if (rank < 0) {
            throw new IllegalArgumentException("rank must be 0 (unknown) or positive: " + rank);
        }
        if (expectedNanos < 0) {
            throw new IllegalArgumentException("expectedNanos must be 0 (unknown) or positive: " + expectedNanos);
        }
    }

    /** An item whose owner has no expected run time for it. */
    public WorkItem(long stealId, long epoch, ElementMessage element, List<ArrayData> inputs, int rank) {
        this(stealId, epoch, element, inputs, rank, 0);
    }
}
