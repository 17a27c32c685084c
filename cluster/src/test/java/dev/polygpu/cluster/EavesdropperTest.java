package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.topic.ITopic;
import dev.polygpu.runtime.TrackedArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A plain Hazelcast member without the secret joins a cluster whose members share one, subscribes to every
 * member's inbox topic and keeps every frame it is sent: it must find no kernel source and no array byte in them,
 * while the members still compute right results and log it once as a member without the secret.
 */
@Tag("slow")
@Tag("cluster")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EavesdropperTest {

    /** The little-endian bytes of {@code values}, as the device holds floats. */
    private static byte[] floatBytes(float... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** A bare Hazelcast member of {@code config}'s cluster: what anyone who can reach the ports can start. */
    private static HazelcastInstance outsider(ClusterConfig config) {
        Config c = new Config();
        c.setClusterName(config.clusterName());
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.logging.type", "jdk");
        c.getNetworkConfig().setPort(config.port()).setPortAutoIncrement(true).setPortCount(8);
        c.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        c.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        c.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        c.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).setMembers(config.members());
        return Hazelcast.newHazelcastInstance(c);
    }

    @Test
    void anOutsiderWithoutTheSecretReadsNoSourceAndNoArrayByteAndTheResultsAreRight() throws Exception {
        List<String> refusals = Collections.synchronizedList(new ArrayList<>());
        Logger log = Logger.getLogger(ClusterNode.class.getName());
        Handler watch = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getMessage() != null && r.getMessage().startsWith("refus")) {
                    refusals.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(watch);
        HazelcastInstance outsider = null;
        try (Members c = new Members()) {
            Members.Member p = c.add(new Members.Member(c.config(ClusterConfig.Role.PROGRAM).withSecret("s3cret")));
            Members.Member w = c.add(new Members.Member(c.config(ClusterConfig.Role.WORKER).withSecret("s3cret")));
            c.awaitSize(2, List.of(p, w));
            outsider = outsider(c.config(ClusterConfig.Role.WORKER));
            List<byte[]> captured = Collections.synchronizedList(new ArrayList<>());
            AtomicLong bytes = new AtomicLong();
            for (com.hazelcast.cluster.Member m : outsider.getCluster().getMembers()) {
                if (!m.localMember()) {
                    ITopic<byte[]> inbox = outsider.getTopic("polygpu.inbox." + m.getUuid());
                    inbox.addMessageListener(msg -> {
                        captured.add(msg.getMessageObject());
                        bytes.addAndGet(msg.getMessageObject().length);
                    });
                }
            }
            c.awaitSize(3, List.of(p, w));

            Members.Tiles tiles = new Members.Tiles(p, 60, 2f, 20);
            p.scheduler.synchronize();
            tiles.check();
            assertTrue(w.node.stats().stolen() > 0, "the worker with the secret got work: " + w.node.stats());
            // The outsider then sends: garbage, and each frame it caught to the inbox it was not meant for and to
            // the one it was (in the name of its sender). All refused; each member logs it a few times at most.
            com.hazelcast.cluster.Address at = outsider.getCluster().getLocalMember().getAddress();
            String self = at.getHost() + ":" + at.getPort();
            List<String> inboxes = new ArrayList<>();
            for (com.hazelcast.cluster.Member m : outsider.getCluster().getMembers()) {
                if (!m.localMember()) {
                    inboxes.add("polygpu.inbox." + m.getUuid());
                }
            }
            List<byte[]> caught = new ArrayList<>(captured);
            long rejectedBefore = p.node.stats().rejected() + w.node.stats().rejected();
            for (int i = 0; i < 40; i++) {
                for (String inbox : inboxes) {
                    outsider.<byte[]>getTopic(inbox).publish(new byte[] {1, 2, 3, (byte) i});
                    outsider.<byte[]>getTopic(inbox).publish(caught.get(i % caught.size()));
                }
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (p.node.stats().rejected() + w.node.stats().rejected() < rejectedBefore + 4 * 40
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(rejectedBefore + 4 * 40, p.node.stats().rejected() + w.node.stats().rejected(),
                    "every frame the outsider sent was refused");
            long aboutOutsider = refusals.stream().filter(r -> r.contains(self)).count();
            assertTrue(aboutOutsider >= 2 && aboutOutsider <= 2 * 4, "each member logs the outsider once as a member "
                    + "without the secret and once per kind of frame refused, not per frame: " + refusals);
            Members.Tiles again = new Members.Tiles(p, 20, 3f, 5);
            p.scheduler.synchronize();
            again.check();

            assertFalse(captured.isEmpty(), "the outsider received frames (the test would prove nothing otherwise)");
            byte[] source = "__nanosleep".getBytes(StandardCharsets.UTF_8);
            byte[] kernelName = "tile(in a: float".getBytes(StandardCharsets.UTF_8);
            TrackedArray out7 = tiles.outs.get(7);
            float[] in = new float[8];
            float[] result = new float[8];
            for (int i = 0; i < 8; i++) {
                in[i] = 100 + i + 7;
                result[i] = out7.buffer().getFloat(100 + i);
            }
            for (byte[] frame : new ArrayList<>(captured)) {
                assertFalse(contains(frame, source), "kernel source in a captured frame");
                assertFalse(contains(frame, kernelName), "a kernel's name in a captured frame");
                assertFalse(contains(frame, floatBytes(in)), "input bytes of a7 in a captured frame");
                assertFalse(contains(frame, floatBytes(result)), "result bytes of out7 in a captured frame");
            }
            assertTrue(bytes.get() > 60L * 4 * Members.N, "the outsider saw the inputs go by, encrypted: "
                    + bytes.get() + " bytes in " + captured.size() + " frames");
        } finally {
            log.removeHandler(watch);
            if (outsider != null) {
                outsider.getLifecycleService().terminate();
            }
        }
    }
}
