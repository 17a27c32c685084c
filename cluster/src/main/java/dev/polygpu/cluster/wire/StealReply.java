package dev.polygpu.cluster.wire;

import java.util.List;
import java.util.Objects;

/**
 * An owner's answer to a {@link StealRequest}: the elements it gives away, each with the inputs to run it. Or,
 * {@code pushed}, elements an owner sends a thief unasked: the next link of a chain whose previous link the
 * thief has just run ({@link dev.polygpu.cluster.policy.Victim#pushContinuation}); such a reply answers no
 * request and carries {@link #PUSHED} as its request id.
 *
 * @param sender    who sent this frame (the owner of the items)
 * @param requestId the {@link StealRequest#requestId()} answered; {@link #PUSHED} when {@code pushed}
 * @param items     the elements given; empty when the owner has nothing to give (never when {@code pushed})
 * @param pushed    whether the owner sent them unasked
 */
public record StealReply(String sender, long requestId, List<WorkItem> items, boolean pushed) implements Message {
    /** The request id of a pushed reply. */
    public static final long PUSHED = 0;

    public StealReply {
        Objects.requireNonNull(sender, "sender");
        items = List.copyOf(items);
        if (pushed && (requestId != PUSHED || items.isEmpty())) {
            throw new IllegalArgumentException("a pushed reply carries request id " + PUSHED
                    + " and at least one item, not request id " + requestId + " and " + items.size());
        }
    }

    /** A reply to request {@code requestId}. */
    public StealReply(String sender, long requestId, List<WorkItem> items) {
        this(sender, requestId, items, false);
    }

    /** Elements {@code sender} pushes to a thief unasked. */
    public static StealReply pushed(String sender, List<WorkItem> items) {
        return new StealReply(sender, PUSHED, items, true);
    }
}
