package dev.polygpu.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.TopicConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.topic.ITopic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The transport over an embedded Hazelcast member: membership and failure detection are Hazelcast's; each
 * member listens on a topic of its own ({@code polygpu.inbox.<member id>}) whose messages are plain
 * {@code byte[]} frames, which Hazelcast sends straight to the one subscriber. No replicated structures, and
 * nothing is deserialized but byte arrays.
 */
final class HazelcastTransport implements Transport {
    /** Member attribute: {@code program} or {@code worker}. */
    static final String ROLE = "polygpu.role";
    /** Member attribute: a random nonce, and the HMAC of it that proves the member knows the secret. */
    static final String NONCE = "polygpu.nonce";
    static final String PROOF = "polygpu.proof";
    private static final String INBOX = "polygpu.inbox.";
    /** Hazelcast logs only SEVERE unless -Dpolygpu.cluster.log=WARNING, INFO (or another java.util.logging level). */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");

    private final HazelcastInstance hz;
    private final String self;
    private final Map<String, ITopic<byte[]>> topics = new ConcurrentHashMap<>();
    private volatile boolean closing;

    private HazelcastTransport(HazelcastInstance hz) {
        this.hz = hz;
        this.self = hz.getCluster().getLocalMember().getUuid().toString();
    }

    /** Starts a member with {@code config}, announcing {@code attributes}, and delivers to {@code listener}. */
    static HazelcastTransport start(ClusterConfig config, Map<String, String> attributes, Listener listener) {
        HAZELCAST_LOG.setLevel(Level.parse(System.getProperty("polygpu.cluster.log", "SEVERE")));
        Config c = new Config();
        c.setClusterName(config.clusterName());
        c.setInstanceName("polygpu-" + Long.toHexString(System.nanoTime()));
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.socket.bind.any", "false");
        c.setProperty("hazelcast.logging.type", "jdk");
        c.setProperty("hazelcast.shutdownhook.enabled", "false");
        c.setProperty("hazelcast.heartbeat.interval.seconds", Long.toString(config.heartbeat().toSeconds()));
        c.setProperty("hazelcast.max.no.heartbeat.seconds", Long.toString(config.failAfter().toSeconds()));
        c.setProperty("hazelcast.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.max.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.health.monitoring.level", "OFF");
        c.setProperty("hazelcast.graceful.shutdown.max.wait", "10");
        NetworkConfig net = c.getNetworkConfig();
        net.setPort(config.port()).setPortAutoIncrement(true).setPortCount(ClusterConfig.PORT_COUNT);
        net.getInterfaces().setEnabled(true).addInterface(config.bindAddress());
        net.setPublicAddress(null);
        JoinConfig join = net.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(new ArrayList<>(config.members()));
        c.getMemberAttributeConfig().setAttributes(attributes);
        c.addTopicConfig(new TopicConfig(INBOX + "*").setStatisticsEnabled(false));
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(c);
        try {
            HazelcastTransport t = new HazelcastTransport(hz);
            t.listen(listener);
            return t;
        } catch (RuntimeException | Error e) {
            // Its threads are not daemons: a member left running would keep the process alive.
            hz.getLifecycleService().terminate();
            throw e;
        }
    }

    private void listen(Listener listener) {
        ITopic<byte[]> inbox = hz.getTopic(INBOX + self);
        inbox.addMessageListener(m -> {
            Member from = m.getPublishingMember();
            listener.received(from == null ? null : from.getUuid().toString(), m.getMessageObject());
        });
        // Each member's inbox proxy made now, not on the first message to it (which then goes out sooner).
        for (Member m : hz.getCluster().getMembers()) {
            if (!m.localMember()) {
                inbox(m.getUuid().toString());
            }
        }
        hz.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent e) {
                inbox(e.getMember().getUuid().toString());
                listener.membersChanged(List.of(e.getMember().getUuid().toString()), List.of());
            }

            @Override
            public void memberRemoved(MembershipEvent e) {
                String id = e.getMember().getUuid().toString();
                topics.remove(id);
                listener.membersChanged(List.of(), List.of(id));
            }
        });
        hz.getLifecycleService().addLifecycleListener(e -> {
            LifecycleEvent.LifecycleState s = e.getState();
            if (!closing && (s == LifecycleEvent.LifecycleState.SHUTTING_DOWN
                    || s == LifecycleEvent.LifecycleState.MERGING)) {
                listener.selfLeft(s == LifecycleEvent.LifecycleState.MERGING
                        ? "it was split from the cluster and is rejoining (its stolen work elsewhere is lost)"
                        : "its Hazelcast member shut down");
            }
        });
    }

    @Override
    public String self() {
        return self;
    }

    @Override
    public List<Peer> peers() {
        Set<Member> members = membersNow();
        List<Peer> out = new ArrayList<>(members.size());
        for (Member m : members) {
            if (!m.localMember()) {
                out.add(new Peer(m.getUuid().toString(), m.getAddress().getHost() + ":" + m.getAddress().getPort(),
                        m.getAttributes()));
            }
        }
        return out;
    }

    /** Hazelcast's members now; none once this member is no longer one (shut down or terminated). */
    private Set<Member> membersNow() {
        try {
            return hz.getCluster().getMembers();
        } catch (RuntimeException e) {
            return Set.of();
        }
    }

    @Override
    public List<String> members() {
        // Hazelcast keeps its member list in join order, the same on every member.
        Set<Member> members = membersNow();
        List<String> out = new ArrayList<>(members.size());
        for (Member m : members) {
            out.add(m.getUuid().toString());
        }
        return out;
    }

    @Override
    public boolean send(String member, byte[] frame) {
        if (closing || !hz.getLifecycleService().isRunning()) {
            return false;
        }
        try {
            inbox(member).publish(frame);
            return true;
        } catch (RuntimeException e) {
            // The member left, or this one is shutting down: the protocol treats it as a lost message.
            return false;
        }
    }

    private ITopic<byte[]> inbox(String member) {
        return topics.computeIfAbsent(member, id -> hz.getTopic(INBOX + id));
    }

    /** The address this member listens on. */
    String address() {
        Member local = hz.getCluster().getLocalMember();
        return local.getAddress().getHost() + ":" + local.getAddress().getPort();
    }

    @Override
    public void close() {
        closing = true;
        if (hz.getLifecycleService().isRunning()) {
            hz.shutdown();
        }
    }

    /** Ends the Hazelcast member without this transport closing: the node sees itself leave (for tests). */
    void terminateUnderneath() {
        hz.getLifecycleService().terminate();
    }

    /** Ends the member at once, as a crash would (for tests). */
    void kill() {
        closing = true;
        hz.getLifecycleService().terminate();
    }
}
