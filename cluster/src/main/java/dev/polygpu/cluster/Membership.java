package dev.polygpu.cluster;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who is in the cluster, as one member sees it: the programs that may have work to give, the members that said
 * they are leaving, those that left (so their late results are recognised), and what a join or a departure
 * changes in every part of the node; also this member's own departure from the cluster under it. Thread-safe:
 * the dead members are guarded by the node's lock, the rest is concurrent.
 */
final class Membership {
    private final NodeContext n;
    private final Set<String> leavingPeers = ConcurrentHashMap.newKeySet();
    /** Members declared dead, so their late results are recognised (bounded). Guarded by the node's lock. */
    private final Map<String, Boolean> dead = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > 1024;
        }
    };

    Membership(NodeContext n) {
        this.n = n;
    }

    /** A member said it is leaving: it gets no work, and its reports no longer count. */
    void leaving(String member) {
        leavingPeers.add(member);
    }

    boolean isLeaving(String member) {
        return leavingPeers.contains(member);
    }

    /** Whether {@code member} left or was declared dead. The caller holds the node's lock. */
    boolean isDeadLocked(String member) {
        return dead.containsKey(member);
    }

    /** The ids of the other members now. */
    List<String> peerIds() {
        List<String> ids = new ArrayList<>();
        for (Peer p : n.transport.peers()) {
            ids.add(p.id());
        }
        return ids;
    }

    /**
     * Members that may have work to give, in the order every member sees ({@link Transport#members()}):
     * programs that prove the secret and are not leaving, this member included while it is a program that is
     * not leaving. The policy classes never pick this member from it; they pick directories by position in it.
     */
    List<String> programs() {
        Map<String, Peer> peers = new HashMap<>();
        for (Peer p : n.transport.peers()) {
            peers.put(p.id(), p);
        }
        String self = n.self();
        List<String> out = new ArrayList<>();
        for (String id : n.transport.members()) {
            Peer p = peers.get(id);
            if (id.equals(self) ? n.config.role() == ClusterConfig.Role.PROGRAM && !n.leaving
                    : p != null && p.attribute(HazelcastTransport.ROLE).equals("program") && n.auth.checkProof(p)
                    && !leavingPeers.contains(id)) {
                out.add(id);
            }
        }
        return out;
    }

    /**
     * Members joined or left: the thief asks again at once, the next surplus report goes at once, joined members'
     * proofs are checked, and each part forgets the members that left; this member's elements they held run here.
     */
    void onMembersChanged(List<String> joined, List<String> left) {
        n.thief.policy().resetBackOff();
        n.directory.reportAgain();
        for (String id : joined) {
            for (Peer p : n.transport.peers()) {
                if (p.id().equals(id)) {
                    n.auth.checkProof(p);
                }
            }
        }
        n.wakeLoop();
        if (left.isEmpty()) {
            return;
        }
        List<GivenElements.Given> orphans;
        synchronized (n.lock) {
            for (String id : left) {
                n.learning.forget(id);
                n.victim.forget(id);
                n.thief.forgetLocked(id);
                n.held.abandonLocked(id);
                n.directory.forget(id);
                n.auth.forget(id);
                dead.put(id, Boolean.TRUE);
                leavingPeers.remove(id);
            }
            orphans = n.given.removeThievesLocked(left);
            n.lock.notifyAll();
        }
        for (GivenElements.Given g : orphans) {
            ClusterNode.LOG.log(System.Logger.Level.INFO, describe(g.thief) + " left while running "
                    + g.element.element().label() + "; running it here from the inputs kept");
            n.counters.rerun.incrementAndGet();
            g.element.giveBack();
        }
    }

    /** This member is out of the cluster: what ran elsewhere cannot come back, so it fails with the reason. */
    void onSelfLeft(String why) {
        List<GivenElements.Given> away;
        synchronized (n.lock) {
            if (n.closed || n.lostReason != null) {
                return;
            }
            n.lostReason = why;
            away = n.given.takeAllLocked();
        }
        ClusterNode.LOG.log(System.Logger.Level.ERROR, "this member left the cluster: " + why);
        for (GivenElements.Given g : away) {
            g.element.fail(new DeviceException(CudaError.LAUNCH_FAILED, "it was running on cluster member "
                    + describe(g.thief) + " when this member left the cluster (" + why + "); its results cannot "
                    + "come back. Restart the program; check the network and --cluster-fail-after"));
        }
    }

    /** A member for messages; never throws (it is used on the way to settling elements). */
    String describe(String member) {
        if (member == null) {
            return "an unknown member";
        }
        List<Peer> peers;
        try {
            peers = n.transport.peers();
        } catch (RuntimeException e) {
            peers = List.of();
        }
        for (Peer p : peers) {
            if (p.id().equals(member)) {
                return "member " + p.address() + " (" + shortId(member) + ")";
            }
        }
        return "member " + shortId(member);
    }

    static String shortId(String id) {
        return id.length() > 8 ? id.substring(0, 8) : id;
    }
}
