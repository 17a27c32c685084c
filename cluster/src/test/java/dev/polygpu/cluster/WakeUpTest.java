package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.cluster.ClusterConfig.Role;
import dev.polygpu.cluster.wire.LoadReport;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wake-ups, message by message ({@link dev.polygpu.cluster.policy.TurnedAway}): a program that sent starving
 * thieves away tells them when it has work; a thief that is told asks again at once. The test plays the other
 * members over a {@link ScriptedTransport}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WakeUpTest {

    private static ClusterConfig config(String name) {
        return ClusterConfig.loopback().withName(name).withHoldInterval(Duration.ofMillis(100)).withDirectories(0)
                .withRandomEvery(0);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(1);
        }
    }

    /** A program with nothing to give: the request comes back empty to its thief. */
    private static void turnAway(ScriptedTransport t, String thief, long requestId, int minRank)
            throws InterruptedException {
        t.deliver(new StealRequest(thief, requestId, thief, 0, 2, minRank));
        StealReply empty = t.await(thief, StealReply.class, r -> r.requestId() == requestId);
        assertTrue(empty.items().isEmpty(), "nothing to give yet: " + empty);
    }

    /**
     * Program p1 (the node: in-flight window 1, threshold 1) sends w1, w2 (asking by rank) and w3 away with
     * nothing; then a kernel that is never given (it waits for a flag) takes its one stream and four tiles wait
     * behind it.
     */
    private static void turnAwayThenGetWork(ClusterConfig c, ScriptedTransport t, UnifiedBuffer[] flag,
            List<TrackedArray> outs, Members.Member[] member) throws InterruptedException {
        t.join("w1", Role.WORKER);
        t.join("w2", Role.WORKER);
        t.join("w3", Role.WORKER);
        member[0] = new Members.Member(c, SchedulerConfig.DEFAULT.withInFlightWindow(1), t.factory());
        Members.Member m = member[0];
        turnAway(t, "w1", 1, 0);
        turnAway(t, "w2", 2, 5);
        turnAway(t, "w3", 3, 0);
        flag[0] = m.device.allocate(4);
        flag[0].setInt(0, 0);
        m.hold(flag[0], m.ints("x", 0));
        for (int j = 0; j < 4; j++) {
            float[] a = new float[Members.N];
            for (int i = 0; i < a.length; i++) {
                a[i] = i + j;
            }
            TrackedArray out = m.floats("out" + j);
            m.tile(m.floats("a" + j, a), out, 2f, 0);
            outs.add(out);
        }
    }

    private static void checkTiles(Members.Member m, List<TrackedArray> outs) {
        m.scheduler.synchronize();
        for (int j = 0; j < outs.size(); j++) {
            for (int i = 0; i < Members.N; i++) {
                assertEquals((i + j) * 2f + i, outs.get(j).buffer().getFloat(i), "out" + j + "[" + i + "]");
            }
        }
    }

    @Test
    void aProgramWakesTheStarvingThievesItSentAwayOnceWhenItHasWork() throws Exception {
        ClusterConfig c = config("wake").withThreshold(1);
        ScriptedTransport t = new ScriptedTransport("p1", c);
        UnifiedBuffer[] flag = new UnifiedBuffer[1];
        List<TrackedArray> outs = new ArrayList<>();
        Members.Member[] m = new Members.Member[1];
        try {
            turnAwayThenGetWork(c, t, flag, outs, m);
            // One running (never given), up to four ready as the tiles come: up to four above the threshold of 1.
            for (String thief : List.of("w1", "w3")) {
                LoadReport wake = t.await(thief, LoadReport.class, r -> true);
                assertEquals("p1", wake.sender());
                assertTrue(wake.surplus() >= 1 && wake.surplus() <= 4, "its surplus: " + wake);
                assertEquals(1, wake.topRank(), "independent tiles rank 1");
            }
            await(() -> m[0].node.stats().wakeUps() == 2, "two thieves woken: " + m[0].node.stats());
            assertNull(t.poll(null, LoadReport.class, r -> true, Duration.ofMillis(300)),
                    "w2 asked by rank (it was not starving), and w1 and w3 are woken once");
            assertEquals(2, m[0].node.stats().wakeUps());
            assertTrue(m[0].node.stats().table().contains("thieves woken"), m[0].node.stats().table());
            flag[0].setInt(0, 1);
            checkTiles(m[0], outs);
        } finally {
            if (flag[0] != null) {
                flag[0].setInt(0, 1);
            }
            if (m[0] != null) {
                m[0].close();
            }
        }
    }

    @Test
    void aThiefThatGotWorkOrLeftIsNotWoken() throws Exception {
        ClusterConfig c = config("wake-left").withThreshold(1);
        ScriptedTransport t = new ScriptedTransport("p1", c);
        UnifiedBuffer[] flag = new UnifiedBuffer[1];
        List<TrackedArray> outs = new ArrayList<>();
        Members.Member[] m = new Members.Member[1];
        try {
            t.join("w1", Role.WORKER);
            t.join("w2", Role.WORKER);
            m[0] = new Members.Member(c, SchedulerConfig.DEFAULT.withInFlightWindow(1), t.factory());
            turnAway(t, "w1", 1, 0);
            turnAway(t, "w2", 2, 0);
            t.leave("w2");
            await(() -> !m[0].node.peers().contains("w2"), "w2 gone");
            flag[0] = m[0].device.allocate(4);
            flag[0].setInt(0, 0);
            m[0].hold(flag[0], m[0].ints("x", 0));
            TrackedArray out = m[0].floats("out0");
            m[0].tile(m[0].floats("a0", new float[] {1, 2, 3}), out, 2f, 0);
            outs.add(out);
            assertEquals(new LoadReport("p1", 1, 1), t.await("w1", LoadReport.class, r -> true));
            assertNull(t.poll("w2", LoadReport.class, r -> true, Duration.ofMillis(200)), "w2 left");
            assertEquals(1, m[0].node.stats().wakeUps());
            flag[0].setInt(0, 1);
            m[0].scheduler.synchronize();
            for (int i = 0; i < Members.N; i++) {
                float a = i < 3 ? i + 1 : 0;
                assertEquals(a * 2f + i, out.buffer().getFloat(i), "out0[" + i + "]");
            }
        } finally {
            if (flag[0] != null) {
                flag[0].setInt(0, 1);
            }
            if (m[0] != null) {
                m[0].close();
            }
        }
    }

    @Test
    void turnedOffAProgramWakesNobody() throws Exception {
        ClusterConfig c = config("no-wake").withThreshold(1).withWakeThieves(false);
        ScriptedTransport t = new ScriptedTransport("p1", c);
        UnifiedBuffer[] flag = new UnifiedBuffer[1];
        List<TrackedArray> outs = new ArrayList<>();
        Members.Member[] m = new Members.Member[1];
        try {
            turnAwayThenGetWork(c, t, flag, outs, m);
            assertNull(t.poll(null, LoadReport.class, r -> true, Duration.ofMillis(400)));
            assertEquals(0, m[0].node.stats().wakeUps());
            flag[0].setInt(0, 1);
            checkTiles(m[0], outs);
        } finally {
            if (flag[0] != null) {
                flag[0].setInt(0, 1);
            }
            if (m[0] != null) {
                m[0].close();
            }
        }
    }

    @Test
    void aWokenThiefAsksAgainAtOnce() throws Exception {
        ClusterConfig c = config("woken").withRole(Role.WORKER);
        ScriptedTransport t = new ScriptedTransport("w", c);
        t.join("p", Role.PROGRAM);
        t.join("q", Role.PROGRAM);
        Members.Member m = new Members.Member(c, SchedulerConfig.DEFAULT, t.factory());
        try {
            // Each try: empty replies until the worker backs off for the longest (50 ms), then q wakes it. Its
            // next request must come at once rather than when the back-off ends. A try in which the machine
            // stalled this test or the node for long is tried again.
            long[] empties = {0};
            for (int attempt = 0; ; attempt++) {
                for (int i = 0; i < 8; i++) {
                    replyEmpty(t, m, t.awaitSent(StealRequest.class), empties);
                }
                long woken = System.nanoTime();
                t.deliver(new LoadReport("q", 3, 1));
                ScriptedTransport.Sent next = t.awaitSent(StealRequest.class);
                long afterMs = (System.nanoTime() - woken) / 1_000_000;
                if (afterMs < 30) {
                    assertEquals(0, ((StealRequest) next.message()).minRank());
                    break;
                }
                assertTrue(attempt < 9, "woken by q, the worker asked again " + afterMs + " ms later, in ten tries "
                        + "out of ten");
                replyEmpty(t, m, next, empties);
            }
        } finally {
            m.close();
        }
    }

    /** Answers {@code request} with nothing from the member it went to, and waits until the node has handled it. */
    private static void replyEmpty(ScriptedTransport t, Members.Member m, ScriptedTransport.Sent request,
            long[] empties) throws InterruptedException {
        StealRequest r = (StealRequest) request.message();
        assertEquals(0, r.minRank(), "a starving worker asks for any work");
        t.deliver(new StealReply(request.to(), r.requestId(), List.of()));
        long expected = ++empties[0];
        await(() -> m.node.stats().emptyReplies() == expected, "the empty reply handled");
    }
}
