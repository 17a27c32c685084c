package dev.polygpu.cluster;

import dev.polygpu.cluster.wire.Message;
import dev.polygpu.cluster.wire.SharedSecret;
import dev.polygpu.cluster.wire.WireCodec;
import dev.polygpu.cluster.wire.WireException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whom a member trusts: a member proves it knows the cluster secret when it joins (an HMAC of a nonce it
 * announces, {@link #proof}), and every frame is authenticated (AES-GCM under a configured secret, an HMAC
 * without one) and, for encrypted frames, bound to its sender and to this member as recipient; {@link #decode}
 * checks it. A member that does not
 * prove the secret gets no work, and its messages are dropped and counted as rejected; each refusal is logged once
 * per member and kind, never per message. Thread-safe.
 */
final class Authentication {
    /** Where members get the secret from, for the warnings about a member without it. */
    static final String SECRET_SETTINGS = "secret (the POLYGPU_CLUSTER_SECRET environment variable, a program's "
            + "--cluster-secret, a worker's --secret)";

    private final NodeContext n;
    private final Set<String> refusedLogged = ConcurrentHashMap.newKeySet();
    /** Whether each member seen proved the secret when it joined (by member id; dropped when it leaves). */
    private final Map<String, Boolean> proven = new ConcurrentHashMap<>();

    Authentication(NodeContext n) {
        this.n = n;
    }

    /** A fresh nonce for this member to announce with its {@link #proof}. */
    static String newNonce() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** What this member announces with {@code nonce}. */
    String proof(String nonce) {
        return proof(n.key, n.config.clusterName(), nonce);
    }

    /** What a member that knows {@code key} announces, with its {@code nonce}, when it joins cluster {@code name}. */
    static String proof(SharedSecret key, String name, String nonce) {
        byte[] data = ("polygpu-member:" + name + ":" + nonce).getBytes(StandardCharsets.UTF_8);
        return HexFormat.of().formatHex(key.mac(data, 0, data.length));
    }

    /** Whether {@code member} is in the cluster now and proved the secret. */
    boolean isProven(String member) {
        for (Peer p : n.transport.peers()) {
            if (p.id().equals(member)) {
                return checkProof(p);
            }
        }
        return false;
    }

    /** True if the peer proved it knows the secret when it joined; logs a refusal once per member. */
    boolean checkProof(Peer p) {
        // A member's id and attributes are fixed for its life: the HMAC is computed once per member.
        boolean ok = proven.computeIfAbsent(p.id(), id -> {
            String nonce = p.attribute(HazelcastTransport.NONCE);
            return !nonce.isEmpty() && MessageDigest.isEqual(proof(nonce).getBytes(StandardCharsets.US_ASCII),
                    p.attribute(HazelcastTransport.PROOF).getBytes(StandardCharsets.US_ASCII));
        });
        if (!ok && refusedLogged.add("proof:" + p.id())) {
            n.counters.rejected.incrementAndGet();
            ClusterNode.LOG.log(System.Logger.Level.WARNING, "refusing cluster member " + p.address() + " ("
                    + p.id() + "): it does not prove the cluster secret. It gets no work and its messages are "
                    + "dropped; give every member the same " + SECRET_SETTINGS);
        }
        return ok;
    }

    /** Forgets a member that left. */
    void forget(String member) {
        proven.remove(member);
    }

    /** The message a frame holds, or null (counted and logged) if it is refused. */
    Message decode(String from, byte[] frame) {
        Message m;
        try {
            m = WireCodec.decode(frame, n.key, n.config.maxFrameBytes(), n.self());
        } catch (WireException e) {
            n.counters.rejected.incrementAndGet();
            String who = from == null ? "a member that left" : n.members.describe(from);
            if (refusedLogged.add("frame:" + from + ":" + e.reason())) {
                ClusterNode.LOG.log(System.Logger.Level.WARNING, "refused a message from " + who + ": "
                        + e.getMessage() + (e.reason() == WireException.Reason.BAD_MAC ? " (it does not prove the "
                        + "cluster secret; give every member the same " + SECRET_SETTINGS + ")" : ""));
            }
            return null;
        }
        if (from != null && !from.equals(m.sender())) {
            n.counters.rejected.incrementAndGet();
            if (refusedLogged.add("name:" + from)) {
                ClusterNode.LOG.log(System.Logger.Level.WARNING, "refused a message that " + n.members.describe(from)
                        + " sent in the name of " + m.sender() + " (further ones are dropped without a word)");
            }
            return null;
        }
        return m;
    }
}
