package dev.polygpu.cluster.wire;

import java.util.List;
import java.util.Objects;

/**
 * A thief reports how a stolen element ran: on success with the contents of the arrays it wrote, on failure with
 * the error to raise at the owner.
 *
 * @param sender     who sent this frame (the thief)
 * @param stealId    the {@link WorkItem#stealId()} this is the result of
 * @param epoch      the {@link WorkItem#epoch()} of that item
 * @param ok         whether the element ran without error
 * @param error      what went wrong, or null; at most {@link WireCodec#MAX_STRING_BYTES} in UTF-8, so a sender
 *                   trims long error texts before encoding
 * @param queueNanos how long the element waited at the thief before it started
 * @param runNanos   how long it ran at the thief
 * @param outputs    the byte ranges of the arrays it wrote; empty on failure
 * @param thiefHolds how many other stolen elements (of any owner) the thief held when it sent this, received
 *                   or running: the owner pushes the next link of a chain only to a thief that holds none
 *                   ({@link dev.polygpu.cluster.policy.Victim#pushContinuation}); not negative
 */
public record WorkResult(String sender, long stealId, long epoch, boolean ok, String error, long queueNanos,
        long runNanos, List<ArrayData> outputs, int thiefHolds) implements Message {
    public WorkResult {
        Objects.requireNonNull(sender, "sender");
        outputs = List.copyOf(outputs);
        if (thiefHolds < 0) {
            throw new IllegalArgumentException("thiefHolds must not be negative: " + thiefHolds);
        }
    }

    /** A result from a thief that held nothing else. */
    public WorkResult(String sender, long stealId, long epoch, boolean ok, String error, long queueNanos,
            long runNanos, List<ArrayData> outputs) {
        this(sender, stealId, epoch, ok, error, queueNanos, runNanos, outputs, 0);
    }
}
