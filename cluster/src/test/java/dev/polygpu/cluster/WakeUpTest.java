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
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wake-ups, message by message ({@link dev.polygpu.cluster.policy.TurnedAway}): a program that sent starving
 * thieves away sends them work when it has some (a pushed reply), or tells them it has surplus when its gate keeps
 * the work home; a thief that is told asks again at once. The test plays the other members over a
 * {@link ScriptedTransport}, and runs the tiles it is sent in Java.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WakeUpTest {

    private static ClusterConfig config(String name) {
        return ClusterConfig.loopback().withName(name).withHoldInterval(Duration.ofMillis(100)).withDirectories(0)
                .withRandomEvery(0);
    }

    /**
     * Program p1 (the node: in-flight window 1, threshold 1) over a scripted transport, with the given workers
     * in the cluster before it starts.
     */
    private static final class Program implements AutoCloseable {
        final ScriptedTransport t;
        final Members.Member m;
        UnifiedBuffer flag;
        Members.Tiles tiles;

        Program(ClusterConfig c, String... workers) {
            t = new ScriptedTransport("p1", c);
            for (String w : workers) {
                t.join(w, Role.WORKER);
            }
            m = new Members.Member(c, SchedulerConfig.DEFAULT.withInFlightWindow(1), t.factory());
        }

        /** p1 has nothing to give: the request comes back empty to its thief. */
        void turnAway(String thief, long requestId, int minRank) throws InterruptedException {
            t.deliver(new StealRequest(thief, requestId, thief, 0, 2, minRank));
            StealReply empty = t.await(thief, StealReply.class, r -> r.requestId() == requestId);
            assertTrue(empty.items().isEmpty(), "nothing to give yet: " + empty);
        }

        /** A kernel that is never given (it waits for a flag) takes the one stream; {@code n} tiles wait behind. */
        void holdThenTiles(int n) {
            flag = m.device.allocate(4);
            flag.setInt(0, 0);
            m.hold(flag, m.ints("x", 0));
            tiles = new Members.Tiles(m, n, 2f, 0);
        }

        /** Lets the held kernel end and checks every tile against Java. */
        void releaseAndCheck() {
            flag.setInt(0, 1);
            m.scheduler.synchronize();
            tiles.check();
        }

        @Override
        public void close() {
            if (flag != null) {
                flag.setInt(0, 1);
            }
            m.close();
        }
    }

    @Test
    void aProgramWakesTheStarvingThievesItSentAwayOnceWithWorkWhenItHasSome() throws Exception {
        try (Program p = new Program(config("wake").withThreshold(1), "w1", "w2", "w3")) {
            p.turnAway("w1", 1, 0);
            p.turnAway("w2", 2, 5);
            p.turnAway("w3", 3, 0);
            p.holdThenTiles(4);
            // One running (never given), up to four ready as the tiles come: up to four above the threshold of 1.
            // Each starving thief it turned away gets work unasked, as the answer its request did not get.
            int given = 0;
            for (String thief : List.of("w1", "w3")) {
                StealReply work = p.t.await(thief, StealReply.class, r -> true);
                assertEquals("p1", work.sender());
                assertTrue(work.pushed(), "it answers no request: " + work);
                assertTrue(!work.items().isEmpty() && work.items().size() <= 4, "its work: " + work);
                runInJava(p.t, thief, work);
                given += work.items().size();
            }
            int delivered = given;
            ScriptedTransport.until(() -> p.m.node.stats().completedRemote() == delivered,
                    "the thieves' results accepted: " + p.m.node.stats());
            assertEquals(2, p.m.node.stats().wakeUps());
            assertNull(p.t.poll(null, LoadReport.class, r -> true, Duration.ofMillis(300)),
                    "woken with work, nobody needs a load report");
            assertNull(p.t.poll("w2", StealReply.class, r -> true, Duration.ofMillis(100)),
                    "w2 asked by rank (it was not starving): it is not woken");
            assertEquals(2, p.m.node.stats().wakeUps(), "w1 and w3 are woken once");
            assertTrue(p.m.node.stats().table().contains("thieves woken"), p.m.node.stats().table());
            p.releaseAndCheck();
        }
    }

    /** What a thief does with the tiles it is sent: runs them (in Java) and sends each result home. */
    private static void runInJava(ScriptedTransport t, String thief, StealReply reply) {
        for (dev.polygpu.cluster.wire.WorkItem item : reply.items()) {
            t.deliver(new dev.polygpu.cluster.wire.WorkResult(thief, item.stealId(), item.epoch(), true, null, 0,
                    1_000, List.of(new dev.polygpu.cluster.wire.ArrayData(SpeedLearningTest.outputArray(item), 0,
                    SpeedLearningTest.tileOutput(item))), 0));
        }
    }

    @Test
    void aThiefThatLeftIsNotWoken() throws Exception {
        try (Program p = new Program(config("wake-left").withThreshold(1), "w1", "w2")) {
            p.turnAway("w1", 1, 0);
            p.turnAway("w2", 2, 0);
            p.t.leave("w2");
            ScriptedTransport.until(() -> !p.m.node.peers().contains("w2"), "w2 gone");
            p.holdThenTiles(1);
            StealReply work = p.t.await("w1", StealReply.class, r -> true);
            assertTrue(work.pushed() && work.items().size() == 1, "the one tile it can give: " + work);
            runInJava(p.t, "w1", work);
            assertNull(p.t.poll("w2", StealReply.class, r -> true, Duration.ofMillis(200)), "w2 left");
            assertNull(p.t.poll("w2", LoadReport.class, r -> true, Duration.ofMillis(1)), "w2 left");
            assertEquals(1, p.m.node.stats().wakeUps());
            p.releaseAndCheck();
        }
    }

    @Test
    void turnedOffAProgramWakesNobody() throws Exception {
        try (Program p = new Program(config("no-wake").withThreshold(1).withWakeThieves(false), "w1", "w3")) {
            p.turnAway("w1", 1, 0);
            p.turnAway("w3", 3, 0);
            p.holdThenTiles(4);
            assertNull(p.t.poll(null, LoadReport.class, r -> true, Duration.ofMillis(400)));
            assertNull(p.t.poll(null, StealReply.class, r -> true, Duration.ofMillis(1)), "nor sends work unasked");
            assertEquals(0, p.m.node.stats().wakeUps());
            p.releaseAndCheck();
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
        ScriptedTransport.until(() -> m.node.stats().emptyReplies() == expected, "the empty reply handled");
    }
}
