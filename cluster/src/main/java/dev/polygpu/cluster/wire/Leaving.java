package dev.polygpu.cluster.wire;

import java.util.Objects;

/**
 * A member announces that it leaves the cluster gracefully: others stop sending it requests and work.
 *
 * @param sender the member that leaves
 */
public record Leaving(String sender) implements Message {
    public Leaving {
        Objects.requireNonNull(sender, "sender");
    }
}
