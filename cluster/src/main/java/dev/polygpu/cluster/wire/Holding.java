package dev.polygpu.cluster.wire;

import java.util.List;
import java.util.Objects;

/**
 * A thief's periodic notice to an owner that it still holds these elements and is working on them, so the
 * owner does not take them back as lost.
 *
 * @param sender   who sent this frame (the thief)
 * @param stealIds the {@link WorkItem#stealId()}s still held; may be empty
 */
public record Holding(String sender, List<Long> stealIds) implements Message {
    public Holding {
        Objects.requireNonNull(sender, "sender");
        stealIds = List.copyOf(stealIds);
    }
}
