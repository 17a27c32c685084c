package dev.polygpu.cluster.wire;

import java.util.List;
import java.util.Objects;

/**
 * An owner's answer to a {@link StealRequest}: the elements it gives away, each with the inputs to run it.
 *
 * @param sender    who sent this frame (the owner of the items)
 * @param requestId the {@link StealRequest#requestId()} answered
 * @param items     the elements given; empty when the owner has nothing to give
 * @param topRank   the highest rank among the elements the sender could still give after this reply (0: none),
 *                  so that thieves stop asking by rank where no higher-ranked work exists; at least 0
 */
public record StealReply(String sender, long requestId, List<WorkItem> items, int topRank) implements Message {
    public StealReply {
        Objects.requireNonNull(sender, "sender");
        items = List.copyOf(items);
        if (topRank < 0) {
            throw new IllegalArgumentException("a reply's top rank is 0 (nothing to give) or more, got " + topRank);
        }
    }
}
