package dev.polygpu.cluster.wire;

/**
 * One frame's worth of the steal protocol between members, as {@link WireCodec} encodes and decodes it. The
 * records are immutable values with content equality; their lists are unmodifiable copies.
 *
 * <p>The conversation: a thief sends {@link StealRequest} (possibly forwarded by others); an owner answers with
 * {@link StealReply} holding {@link WorkItem}s with their inputs; the thief returns each item's
 * {@link WorkResult}, or a {@link Handback} when it will not run it, and while it runs them it tells the owner
 * it still {@link Holding holds} them. A member that leaves says so with {@link Leaving}. Members with work tell
 * their directory how much with {@link LoadReport}.
 */
public sealed interface Message permits StealRequest, StealReply, WorkResult, Handback, Holding, Leaving,
        LoadReport {
    /** The member id of who sent this frame (for a forwarded request, the forwarder). */
    String sender();
}
