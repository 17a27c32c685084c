package dev.polygpu.cluster;

import dev.polygpu.cluster.wire.Message;
import dev.polygpu.cluster.wire.SharedSecret;
import dev.polygpu.cluster.wire.WireCodec;
import dev.polygpu.cluster.wire.WireException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A transport with no network under it, for protocol tests: the test plays every other member. It sees each
 * message the node sends ({@link #await}) and hands the node messages as if those members had sent them
 * ({@link #deliver}). Other members prove the cluster secret unless told otherwise.
 */
final class ScriptedTransport implements Transport {
    /**
     * How long the waits for the node wait: only a node that never acts runs into it, so it is far longer than a
     * loaded 2-core machine may hold the node's threads off.
     */
    static final Duration WAIT = Duration.ofSeconds(30);

    /** A message the node sent, and to whom. */
    record Sent(String to, Message message) {
    }

    private final String self;
    private final SharedSecret key;
    private final String clusterName;
    private final List<String> order = new CopyOnWriteArrayList<>();
    private final Map<String, Peer> peers = new ConcurrentHashMap<>();
    private final BlockingQueue<Sent> sent = new LinkedBlockingQueue<>();
    private volatile Listener listener;

    ScriptedTransport(String self, ClusterConfig config) {
        this.self = self;
        this.key = config.key();
        this.clusterName = config.clusterName();
        order.add(self);
    }

    /** What {@link ClusterNode#start(ClusterConfig, dev.polygpu.runtime.Scheduler, ClusterNode.TransportFactory)} takes. */
    ClusterNode.TransportFactory factory() {
        return (config, attributes, l) -> {
            listener = l;
            return this;
        };
    }

    /** Member {@code id} joins after the others (the node hears of it once it runs). */
    void join(String id, ClusterConfig.Role role) {
        add(order.size(), id, role, true);
    }

    /** Member {@code id} joins after the others without proving the cluster secret. */
    void joinWithoutProof(String id, ClusterConfig.Role role) {
        add(order.size(), id, role, false);
    }

    /** Member {@code id} had joined before this one: it comes first in the member list. */
    void joinedBefore(String id, ClusterConfig.Role role) {
        add(0, id, role, true);
    }

    private void add(int at, String id, ClusterConfig.Role role, boolean proves) {
        String nonce = "nonce-of-" + id;
        String proof = proves ? Authentication.proof(key, clusterName, nonce) : "00";
        peers.put(id, new Peer(id, "127.0.0.1:" + (7000 + order.size()), Map.of(HazelcastTransport.ROLE,
                role.name().toLowerCase(Locale.ROOT), HazelcastTransport.NONCE, nonce, HazelcastTransport.PROOF,
                proof)));
        order.add(at, id);
        Listener l = listener;
        if (l != null) {
            l.membersChanged(List.of(id), List.of());
        }
    }

    /** Member {@code id} leaves (the node hears of it as of a member Hazelcast saw go). */
    void leave(String id) {
        order.remove(id);
        peers.remove(id);
        Listener l = listener;
        if (l != null) {
            l.membersChanged(List.of(), List.of(id));
        }
    }

    /** Hands the node {@code m} as its sender would send it. Messages are handled concurrently, as over Hazelcast. */
    void deliver(Message m) {
        listener.received(m.sender(), WireCodec.encode(m, key));
    }

    /**
     * The next message of type {@code type} that the node sends to {@code to} (any member if null) that
     * {@code matching} accepts, waiting up to {@link #WAIT}; messages passed over on the way are dropped.
     */
    <T extends Message> T await(String to, Class<T> type, Predicate<T> matching) throws InterruptedException {
        T m = poll(to, type, matching, WAIT);
        if (m == null) {
            throw new AssertionError("the node sent no such " + type.getSimpleName() + (to == null ? "" : " to "
                    + to) + " in " + WAIT.toSeconds() + " s");
        }
        return m;
    }

    /**
     * The newest message of type {@code type} that the node has sent to {@code to} so far, or, if it sent none,
     * the next one (waiting up to {@link #WAIT}); every message queued before it is dropped. For steal requests: the
     * node gives a request up when no reply came in time, so only its newest may still be answered.
     */
    <T extends Message> T awaitLatest(String to, Class<T> type) throws InterruptedException {
        T latest = null;
        for (Sent s = sent.poll(); s != null; s = sent.poll()) {
            if (to.equals(s.to()) && type.isInstance(s.message())) {
                latest = type.cast(s.message());
            }
        }
        return latest != null ? latest : await(to, type, m -> true);
    }

    /**
     * As {@link #await} for any member, with the member it went to: the next message of type {@code type} the
     * node sends, waiting up to {@link #WAIT}.
     */
    Sent awaitSent(Class<? extends Message> type) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            Sent s = sent.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (s == null) {
                throw new AssertionError("the node sent no " + type.getSimpleName() + " in " + WAIT.toSeconds() + " s");
            }
            if (type.isInstance(s.message())) {
                return s;
            }
        }
    }

    /** Every message the node has sent and no wait took yet, in the order it sent them; none is waited for. */
    List<Sent> drain() {
        List<Sent> out = new ArrayList<>();
        sent.drainTo(out);
        return out;
    }

    /** Waits up to {@link #WAIT} until {@code condition} holds (the node's state as the test sees it). */
    static void until(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT.toSeconds() + " s: " + what);
            }
            Thread.sleep(1);
        }
    }

    /** As {@link #await}, waiting up to {@code wait}; null if none came. */
    <T extends Message> T poll(String to, Class<T> type, Predicate<T> matching, Duration wait)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Sent s = sent.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (s == null) {
                return null;
            }
            if ((to == null || to.equals(s.to())) && type.isInstance(s.message())
                    && matching.test(type.cast(s.message()))) {
                return type.cast(s.message());
            }
        }
    }

    @Override
    public String self() {
        return self;
    }

    @Override
    public List<Peer> peers() {
        List<Peer> out = new ArrayList<>();
        for (String id : order) {
            Peer p = peers.get(id);
            if (p != null) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public List<String> members() {
        return List.copyOf(order);
    }

    @Override
    public boolean send(String member, byte[] frame) {
        try {
            sent.add(new Sent(member, WireCodec.decode(frame, key, WireCodec.DEFAULT_MAX_FRAME_BYTES)));
        } catch (WireException e) {
            throw new AssertionError("the node sent a frame it cannot read back: " + e.getMessage(), e);
        }
        return peers.containsKey(member);
    }

    @Override
    public void close() {
        // Nothing under it.
    }
}
