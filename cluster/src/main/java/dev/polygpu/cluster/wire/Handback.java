package dev.polygpu.cluster.wire;

import java.util.List;
import java.util.Objects;

/**
 * A thief returns stolen elements it will not run; the owner runs them itself (or lends them again).
 *
 * @param sender   who sent this frame (the thief)
 * @param stealIds the {@link WorkItem#stealId()}s returned
 * @param reason   why they are returned
 */
public record Handback(String sender, List<Long> stealIds, HandbackReason reason) implements Message {
    public Handback {
        Objects.requireNonNull(sender, "sender");
        stealIds = List.copyOf(stealIds);
        Objects.requireNonNull(reason, "reason");
    }
}
