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
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
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
    /**
     * How long a member tries to join the members it was given before it gives up and fails to start. Members
     * that are not there (connection refused) are given up at once and the member forms a cluster of its own;
     * this bounds the other case: something answers at a listed address but never lets the member in (a port
     * that is not a polygpu member's, a firewall that drops packets), where Hazelcast's default is 300 s.
     */
    static final int JOIN_SECONDS = 30;
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
        c.setProperty("hazelcast.max.join.seconds", Integer.toString(JOIN_SECONDS));
        // After its join, a member checks that it has a connection to every other member and, if one is not up
        // yet, sleeps a whole second before it looks again (Hazelcast's AbstractJoiner.ensureConnectionToAllMembers):
        // a worker joining beside others then started stealing a second late in about one join in eight here.
        // Connections are made on demand anyway (the first message to a member opens it); a joining member talks
        // to programs, and the master, a program, is connected by the join itself.
        c.setProperty("hazelcast.connect.all.wait.seconds", "0");
        c.setProperty("hazelcast.health.monitoring.level", "OFF");
        c.setProperty("hazelcast.graceful.shutdown.max.wait", "10");
        NetworkConfig net = c.getNetworkConfig();
        net.setPort(config.port()).setPortAutoIncrement(true).setPortCount(ClusterConfig.PORT_COUNT);
        // Hazelcast matches interfaces by IP address only (a host name matches none), and with interfaces on it
        // drops the members named by a host name that resolves outside them: both are given as IP addresses.
        net.getInterfaces().setEnabled(true).addInterface(bindableAddress(config.bindAddress()));
        net.setPublicAddress(null);
        JoinConfig join = net.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        List<String> members = new ArrayList<>();
        for (String m : config.members()) {
            members.add(resolvedMember(m));
        }
        join.getTcpIpConfig().setEnabled(true).setMembers(members);
        c.getMemberAttributeConfig().setAttributes(attributes);
        c.addTopicConfig(new TopicConfig(INBOX + "*").setStatisticsEnabled(false));
        // Hazelcast's own metrics (a few hundred probes collected every 5 s, for Management Center and JMX) are
        // read by nothing here: polygpu counts what it reports (ClusterStats). Off, they cost no CPU beside the
        // kernels and the steal round trips.
        c.getMetricsConfig().setEnabled(false);
        HazelcastInstance hz;
        try {
            hz = Hazelcast.newHazelcastInstance(c);
        } catch (IllegalStateException e) {
            // Hazelcast's "Node failed to start!": it did not get into the cluster within JOIN_SECONDS.
            throw new IllegalStateException("this member could not join the members at "
                    + String.join(",", config.members()) + " within " + JOIN_SECONDS + " s (Hazelcast: "
                    + e.getMessage() + "); most likely something answers there that is not a polygpu member of "
                    + "cluster '" + config.clusterName() + "' (check the ports), or a firewall drops the connections",
                    e);
        }
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

    /**
     * {@code address} as the IP address Hazelcast can match against this machine's interfaces; an
     * IllegalArgumentException that says what is wrong when it names no address of this machine (Hazelcast's own
     * error is a logged stack trace that does not name the address).
     */
    static String bindableAddress(String address) {
        InetAddress a;
        try {
            a = InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("the bind address '" + address + "' is not a known host name or IP "
                    + "address; bind to an address of this machine: " + localAddresses());
        }
        List<String> local = localAddresses();
        if (!local.contains(a.getHostAddress())) {
            throw new IllegalArgumentException("the bind address '" + address + "'"
                    + (address.equals(a.getHostAddress()) ? "" : " (" + a.getHostAddress() + ")")
                    + " is not an address of this machine; bind to one of: " + String.join(", ", local));
        }
        return a.getHostAddress();
    }

    /** A member address {@code host:port} with its host resolved to an IP address. */
    static String resolvedMember(String member) {
        int colon = member.lastIndexOf(':');
        String host = member.substring(0, colon);
        try {
            return InetAddress.getByName(host).getHostAddress() + member.substring(colon);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("member address '" + member + "': '" + host + "' is not a known host "
                    + "name; fix the name or give the member's IP address");
        }
    }

    /** The IP addresses of this machine's network interfaces that are up (what Hazelcast can bind to). */
    private static List<String> localAddresses() {
        List<String> out = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (ni.isUp()) {
                    for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                        out.add(a.getHostAddress());
                    }
                }
            }
        } catch (SocketException e) {
            // Listed as far as it went: the check then refuses more than it should, and says which it knows.
        }
        return out;
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
