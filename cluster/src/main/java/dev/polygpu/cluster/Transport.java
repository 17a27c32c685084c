package dev.polygpu.cluster;

import java.util.List;

/**
 * How members exchange messages: sealed frames ({@code byte[]}) to one member at a time, and the current
 * membership. Delivery is best effort (a frame to a member that left is lost); the steal protocol copes with
 * loss through timeouts, hold notices and fencing.
 */
interface Transport extends AutoCloseable {

    /** What a transport tells its node. Calls may come from several threads. */
    interface Listener {
        /** A frame arrived; {@code from} is the member the transport saw send it, or null if it left since. */
        void received(String from, byte[] frame);

        /** Members joined or left; {@link #peers()} has the new view. */
        void membersChanged(List<String> joined, List<String> left);

        /** This member is no longer in the cluster (shut down under the node, or split away). */
        void selfLeft(String why);
    }

    /** This member's id. */
    String self();

    /** The other members now. */
    List<Peer> peers();

    /**
     * Every member's id now, this one's included, in the order every member sees (the oldest first): where
     * members must agree on who plays a part (the load directories), they pick from this list.
     */
    List<String> members();

    /** Sends {@code frame} to {@code member}; false if it is not (or no longer) a member. */
    boolean send(String member, byte[] frame);

    /** Leaves the cluster. */
    @Override
    void close();
}
