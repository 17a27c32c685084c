package dev.polygpu.cluster.wire;

import dev.polygpu.runtime.ElementMessage;
import java.util.List;
import java.util.Objects;

/**
 * One stolen element inside a {@link StealReply}: what to run and the array contents it reads. The ids come
 * back in {@link WorkResult}, {@link Handback} and {@link Holding}.
 *
 * @param stealId the owner's id for this loan of the element
 * @param epoch   the owner's epoch when it lent the element; a result from an older epoch is stale
 * @param element what to run
 * @param inputs  the byte ranges of the arrays the element reads (may be empty, e.g. for write-only arrays)
 */
public record WorkItem(long stealId, long epoch, ElementMessage element, List<ArrayData> inputs) {
    public WorkItem {
        Objects.requireNonNull(element, "element");
        inputs = List.copyOf(inputs);
    }
}
