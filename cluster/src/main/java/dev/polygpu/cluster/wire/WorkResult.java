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
 */
public record WorkResult(String sender, long stealId, long epoch, boolean ok, String error, long queueNanos,
        long runNanos, List<ArrayData> outputs) implements Message {
    public WorkResult {
        Objects.requireNonNull(sender, "sender");
        outputs = List.copyOf(outputs);
    }
}
