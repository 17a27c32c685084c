package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.wire.Message;
import dev.polygpu.cluster.wire.SharedSecret;
import dev.polygpu.cluster.wire.WireCodec;
import dev.polygpu.device.Device;
import dev.polygpu.runtime.Scheduler;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;

/**
 * What the parts of one {@link ClusterNode} share: its configuration and scheduler, the transport, the lock of
 * its tables, its state (leaving, closed, out of the cluster), its counters, and the parts themselves, through
 * which they reach each other.
 *
 * <p>Implementation notes. The parts and what each owns:
 * <ul>
 *   <li>{@link Authentication}: which members proved the cluster secret; refuses frames that do not.
 *   <li>{@link Membership}: who is in the cluster and who is leaving; what a join or a departure changes.
 *   <li>{@link VictimSide}: answering steal requests, waking thieves, pushing continuations (the outbox locks).
 *   <li>{@link GivenElements}: this member's elements away at thieves, until their results come back.
 *   <li>{@link ThiefSide}: asking for work and taking replies in; {@link HeldElements}: the elements of
 *       others running here, until their results go home.
 *   <li>{@link Learning}: kernel times, bandwidth and this member's relative speed; {@link Directory}: the
 *       surplus reports (as a directory, and of this member to its directory).
 * </ul>
 * {@link #lock} guards the given and held tables, the dead members, the steal ids, the thief's acceptance of
 * replies and {@link #random}; it is taken after an outbox lock ({@link VictimSide}) and never while a scheduler
 * call is made. The stealing loop runs on a virtual thread of its own ({@link #loop}); messages of the steal
 * round trip are handled on the transport's receiving thread, the others on {@link #handlers}.
 */
final class NodeContext {
    final ClusterConfig config;
    final Scheduler scheduler;
    final SharedSecret key;
    /**
     * How many elements the devices run at once (their multiprocessors summed, at least 1): for the cost gate and
     * the floor rank.
     */
    final int slots;
    /** Guards the tables of the parts (see the class comment). */
    final Object lock = new Object();
    /** Drawn from under {@link #lock} only. */
    final RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
    final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
    final NodeCounters counters = new NodeCounters();
    /** The stealing policy in force: its threshold follows the learnt speed ({@link Learning#followSpeed}). */
    volatile StealSettings settings;
    volatile Transport transport;
    volatile Thread loop;
    volatile boolean leaving;
    volatile boolean closed;
    /** Why this member is out of the cluster under the node, or null while it is in. */
    volatile String lostReason;
    /** When this member's Hazelcast member was up and listening (it counts the join to its first stolen kernel). */
    volatile long joinedNanos;

    Authentication auth;
    Membership members;
    Learning learning;
    Directory directory;
    VictimSide victim;
    GivenElements given;
    ThiefSide thief;
    HeldElements held;

    NodeContext(ClusterConfig config, Scheduler scheduler, StealSettings settings) {
        this.config = config;
        this.scheduler = scheduler;
        this.key = config.key();
        this.settings = settings;
        int processors = 0;
        for (Device d : scheduler.devices()) {
            processors += d.properties().multiProcessorCount();
        }
        this.slots = Math.max(1, processors);
    }

    /** {@return this member's id} */
    String self() {
        return transport.self();
    }

    /** {@return whether this member takes part in stealing now: not leaving, and still in the cluster} */
    boolean active() {
        return !leaving && lostReason == null;
    }

    /** Lets the stealing loop look again at once. */
    void wakeLoop() {
        LockSupport.unpark(loop);
    }

    boolean send(String member, Message m) {
        Transport t = transport;
        if (t == null) {
            return false;
        }
        return t.send(member, WireCodec.encode(m, key, member));
    }

    void broadcast(Message m) {
        // Each copy is made for its recipient: an encrypted frame is bound to the member it is addressed to.
        for (Peer p : transport.peers()) {
            transport.send(p.id(), WireCodec.encode(m, key, p.id()));
        }
    }
}
