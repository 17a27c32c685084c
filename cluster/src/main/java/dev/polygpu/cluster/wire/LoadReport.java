package dev.polygpu.cluster.wire;

import java.util.Objects;

/**
 * A member tells its directory ({@link dev.polygpu.cluster.policy.LoadDirectory}) how much it could give now
 * and the highest rank among what it could give, so that the directory can send thieves its way.
 *
 * @param sender  the member that reports
 * @param surplus how many ready elements it could give without dropping below its own threshold; 0: none (the
 *                directory forgets it)
 * @param topRank the highest rank among its stealable elements; 0 when it has none or ranks are unknown
 */
public record LoadReport(String sender, int surplus, int topRank) implements Message {
    public LoadReport {
        Objects.requireNonNull(sender, "sender");
        if (surplus < 0) {
            throw new IllegalArgumentException("surplus must not be negative: " + surplus);
        }
        if (topRank < 0) {
            throw new IllegalArgumentException("topRank must be 0 (none) or positive: " + topRank);
        }
    }
}
