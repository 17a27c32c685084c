package dev.polygpu.cluster.wire;

import java.util.List;
import java.util.Objects;

/**
 * An owner's answer to a {@link StealRequest}: the elements it gives away, each with the inputs to run it.
 *
 * @param sender    who sent this frame (the owner of the items)
 * @param requestId the {@link StealRequest#requestId()} answered
 * @param items     the elements given; empty when the owner has nothing to give
 */
public record StealReply(String sender, long requestId, List<WorkItem> items) implements Message {
    public StealReply {
        Objects.requireNonNull(sender, "sender");
        items = List.copyOf(items);
    }
}
