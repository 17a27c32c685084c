package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.cluster.ClusterConfig.Role;
import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.LoadReport;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The load directories and pushed continuations of a cluster node, message by message: the test plays the other
 * members over a {@link ScriptedTransport}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DirectoriesAndPushTest {

    private static ClusterConfig config(String name) {
        return ClusterConfig.loopback().withName(name).withHoldInterval(Duration.ofMillis(100));
    }

    @Test
    void aDirectorySendsARequestItCannotServeToTheMemberThatReportedTheMostOfWhatItAsksFor() throws Exception {
        ClusterConfig c = config("directory").withDirectories(1);
        ScriptedTransport t = new ScriptedTransport("p1", c);
        t.join("p2", Role.PROGRAM);
        t.join("p3", Role.PROGRAM);
        t.join("w", Role.WORKER);
        t.joinWithoutProof("x", Role.PROGRAM);
        Members.Member m = new Members.Member(c, SchedulerConfig.DEFAULT, t.factory());
        try {
            t.deliver(new LoadReport("p3", 5, 4));
            t.deliver(new LoadReport("p2", 2, 9));
            t.deliver(new LoadReport("x", 50, 50));
            ScriptedTransport.until(() -> m.node.directoryEntries() == 2, "two reports kept, the unproven one refused");
            ScriptedTransport.until(() -> m.node.stats().rejected() >= 1, "the unproven report counted as rejected");

            // Any rank: the most surplus, p3; by rank 6: only p2's highest rank reaches it.
            t.deliver(new StealRequest("w", 7, "w", 0, 1, 0));
            StealRequest toP3 = t.await("p3", StealRequest.class, r -> r.requestId() == 7);
            assertEquals(new StealRequest("p1", 7, "w", 1, 1, 0), toP3);
            t.deliver(new StealRequest("w", 8, "w", 0, 1, 6));
            assertEquals(new StealRequest("p1", 8, "w", 1, 1, 6), t.await("p2", StealRequest.class,
                    r -> r.requestId() == 8));
            assertEquals(2, m.node.stats().directoryForwards());

            // p3 has none left; no member reported rank 10: forwarded as by any victim, not by the directory.
            t.deliver(new LoadReport("p3", 0, 0));
            ScriptedTransport.until(() -> m.node.directoryEntries() == 1, "a report of none forgets the member");
            t.deliver(new StealRequest("w", 9, "w", 0, 1, 10));
            StealRequest any = t.await(null, StealRequest.class, r -> r.requestId() == 9);
            assertEquals(1, any.hops());
            assertEquals(2, m.node.stats().directoryForwards());
            assertEquals(3, m.node.stats().forwarded(), "every request above was forwarded: " + m.node.stats());

            // At the hop limit a directory answers empty as any victim does.
            t.deliver(new StealRequest("p2", 10, "w", c.maxHops(), 1, 0));
            StealReply empty = t.await("w", StealReply.class, r -> r.requestId() == 10);
            assertTrue(empty.items().isEmpty());
        } finally {
            m.close();
        }
    }

    @Test
    void aProgramReportsItsSurplusToItsDirectoryAndAgainWhenMembersChange() throws Exception {
        ClusterConfig c = config("report").withDirectories(1).withThreshold(1);
        ScriptedTransport t = new ScriptedTransport("p1", c);
        t.joinedBefore("d", Role.PROGRAM);
        UnifiedBuffer[] flag = new UnifiedBuffer[1];
        Members.Tiles[] tiles = new Members.Tiles[1];
        // The work is there before the node starts, so that its first report says all of it.
        Members.Member m = new Members.Member(c, SchedulerConfig.DEFAULT.withInFlightWindow(1), t.factory(), p -> {
            flag[0] = p.device.allocate(4);
            flag[0].setInt(0, 0);
            p.hold(flag[0], p.ints("x", 0));
            tiles[0] = new Members.Tiles(p, 6, 2f, 0);
        });
        try {
            // One running (never stealable), six ready: six above the threshold of 1 could go.
            LoadReport first = t.await("d", LoadReport.class, r -> true);
            assertEquals(new LoadReport("p1", 6, 1), first, "independent tiles rank 1");
            t.join("q", Role.PROGRAM);
            assertEquals(new LoadReport("p1", 6, 1), t.await("d", LoadReport.class, r -> true),
                    "a member joined: the report goes again, to the same directory");
            flag[0].setInt(0, 1);
            m.scheduler.synchronize();
            tiles[0].check();
            // Halved as the tiles ran, then none left.
            assertEquals(new LoadReport("p1", 0, 0), t.await("d", LoadReport.class, r -> r.surplus() == 0));
            assertTrue(m.node.stats().loadReports() >= 3, m.node.stats().toString());
        } finally {
            flag[0].setInt(0, 1);
            m.close();
        }
    }

    private static int[] ints(byte[] bytes) {
        int[] out = new int[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).asIntBuffer().get(out);
        return out;
    }

    /** What a thief's run of bump gives: x = x * 3 + 1, as bytes of the array. */
    private static byte[] bumped(byte[] bytes) {
        int[] x = ints(bytes);
        ByteBuffer out = ByteBuffer.allocate(bytes.length).order(ByteOrder.nativeOrder());
        for (int v : x) {
            out.putInt(v * 3 + 1);
        }
        return out.array();
    }

    @Test
    void anOwnerPushesTheNextLinkOfAChainToAThiefThatHoldsNothingElse() throws Exception {
        ClusterConfig c = config("push").withPushContinuations(true).withThreshold(1);
        ScriptedTransport t = new ScriptedTransport("p1", c);
        t.join("w", Role.WORKER);
        Members.Member m = new Members.Member(c, SchedulerConfig.DEFAULT.withInFlightWindow(1), t.factory());
        UnifiedBuffer flag = m.device.allocate(4);
        flag.setInt(0, 0);
        try {
            assertTrue(m.node.settings().pushContinuations());
            m.hold(flag, m.ints("x", 0));
            TrackedArray y = m.ints("y", 5);
            for (int i = 0; i < 3; i++) {
                m.bump(y, 0);
            }
            t.deliver(new StealRequest("w", 1, "w", 0, 1, 0));
            StealReply reply = t.await("w", StealReply.class, r -> r.requestId() == 1);
            assertEquals(1, reply.items().size(), "the chain's first link");
            assertFalse(reply.pushed());
            WorkItem first = reply.items().get(0);
            byte[] afterFirst = bumped(first.inputs().get(0).bytes());

            // The thief held nothing else: the second link comes unasked, with the first one's result as input.
            t.deliver(new WorkResult("w", first.stealId(), first.epoch(), true, null, 0, 1000,
                    List.of(new ArrayData(first.inputs().get(0).arrayId(), 0, afterFirst)), 0));
            StealReply pushed = t.await("w", StealReply.class, StealReply::pushed);
            assertEquals(StealReply.PUSHED, pushed.requestId());
            assertEquals(1, pushed.items().size());
            WorkItem second = pushed.items().get(0);
            assertEquals(first.inputs().get(0).arrayId(), second.inputs().get(0).arrayId());
            assertEquals(java.util.Arrays.toString(ints(afterFirst)),
                    java.util.Arrays.toString(ints(second.inputs().get(0).bytes())), "the first link's result");
            // Counted once it was sent, so it may lag the message a moment.
            ScriptedTransport.until(() -> m.node.stats().pushed() == 1, "the push counted");

            // It held one more: the third link stays here.
            t.deliver(new WorkResult("w", second.stealId(), second.epoch(), true, null, 0, 1000,
                    List.of(new ArrayData(second.inputs().get(0).arrayId(), 0,
                            bumped(second.inputs().get(0).bytes()))), 1));
            ScriptedTransport.until(() -> m.node.stats().completedRemote() == 2, "both results accepted");
            assertNull(t.poll("w", StealReply.class, StealReply::pushed, Duration.ofMillis(200)));
            assertEquals(1, m.node.stats().pushed());
            assertEquals(0, m.node.away());

            flag.setInt(0, 1);
            m.scheduler.synchronize();
            for (int i = 0; i < Members.N; i++) {
                int expected = ((5 + i) * 3 + 1) * 3 + 1;
                assertEquals(expected * 3 + 1, y.buffer().getInt(i), "y[" + i + "]");
            }
            assertEquals(2, m.node.stats().given());
        } finally {
            flag.setInt(0, 1);
            m.close();
        }
    }
}
