package dev.polygpu.cluster.wire;

import java.util.Objects;

/**
 * A member asks for ready elements: a starving member for any ({@code minRank} 0), a busy member only for
 * elements of at least {@code minRank} (a request by rank: {@link dev.polygpu.cluster.policy.Priority}). A
 * member with nothing to give may forward the request to another member; then {@code sender} is the forwarder
 * and {@code thief} still names who asked, and the minimum rank stays.
 *
 * @param sender    who sent this frame
 * @param requestId the thief's id for this request; the reply carries it back
 * @param thief     the member that asked first, to whom elements should go
 * @param hops      how many times the request was forwarded (0 when the thief sent it); not negative
 * @param wanted    how many elements the thief would take; positive
 * @param minRank   0: any element; else the lowest rank an element given for this request may have; not
 *                  negative
 */
public record StealRequest(String sender, long requestId, String thief, int hops, int wanted, int minRank)
        implements Message {
    public StealRequest {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(thief, "thief");
        if (hops < 0) {
            throw new IllegalArgumentException("hops must not be negative: " + hops);
        }
        if (wanted <= 0) {
            throw new IllegalArgumentException("wanted must be positive: " + wanted);
        }
        if (minRank < 0) {
            throw new IllegalArgumentException("minRank must be 0 (any element) or positive: " + minRank);
        }
    }
}
