package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.cluster.ClusterConfig.Role;
import dev.polygpu.cluster.policy.SpeedEstimate;
import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Members learning their speed ({@link SpeedEstimate}, {@code ClusterConfig.learnSpeeds}), message by message over
 * {@link ScriptedTransport}s: owners send the run time they expect with each element; a member that learns it is
 * slower than another keeps less for itself (threshold and window), one that is not keeps its limits.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SpeedLearningTest {

    /** Device time of each tile kernel here, in milliseconds. */
    private static final int MS = 12;
    /** The window every member here is configured with; a CPU device of 4 blocks has 4 slots. */
    private static final int WINDOW = 8;

    private static ClusterConfig config(String name) {
        return ClusterConfig.loopback().withName(name).withHoldInterval(Duration.ofMillis(100))
                .withPushContinuations(false);
    }

    private static Members.Member member(ClusterConfig c, ScriptedTransport t) {
        return new Members.Member(c, SchedulerConfig.DEFAULT.withInFlightWindow(WINDOW), t.factory());
    }

    /**
     * Fills the member's window with kernels that wait for {@code flag} (they have no source: never given), so
     * that the tiles submitted next stay ready here, for the thief, and the device runs none of them.
     */
    private static void fillWindow(Members.Member m, dev.polygpu.device.UnifiedBuffer flag) {
        for (int j = 0; j < WINDOW; j++) {
            m.hold(flag, m.ints("held" + j, 0));
        }
    }

    /**
     * Runs the tile kernel on the member's device directly (not through its scheduler, so no run time is
     * recorded), so that the first runs the member records are not slowed by a cold kernel: its own expected
     * time starts at its first recorded run, which would weigh in it long after.
     */
    private static void warmUp(Members.Member m) {
        dev.polygpu.device.UnifiedBuffer a = m.device.allocate(4L * Members.N);
        dev.polygpu.device.UnifiedBuffer out = m.device.allocate(4L * Members.N);
        try {
            for (int run = 0; run < 3; run++) {
                m.device.defaultStream().launch(m.module.function("tile"), LaunchConfig.of(2, Members.N / 2),
                        KernelArgs.builder().pointer(a).pointer(out).f32(2f).i32(MS).i32(Members.N).build());
                m.device.defaultStream().synchronize();
            }
        } finally {
            a.free();
            out.free();
        }
    }

    /**
     * Runs {@code n} tiles here, one at a time, so that the member knows its own time for their shape. One at a
     * time: a device time measured while other kernels share the device includes the wait for its workers, and
     * the thief in {@link #aThiefSlowerThanItsOwnerLearnsItAndTheOwnerKeepsItsLimits} runs the owner's tiles two
     * at a time.
     */
    private static void runOwnTiles(Members.Member m, int n) {
        for (int j = 0; j < n; j++) {
            m.tile(m.floats("warm-a" + j, 1, 2, 3), m.floats("warm-out" + j), 2f, MS);
            m.scheduler.synchronize();
        }
    }

    /** What a tile computes: out[i] = a[i] * k + i, from the item's input and its scalar k. */
    static byte[] tileOutput(WorkItem item) {
        ByteBuffer a = ByteBuffer.wrap(item.inputs().get(0).bytes()).order(ByteOrder.LITTLE_ENDIAN);
        float k = 0;
        for (ElementMessage.Arg arg : item.element().args()) {
            if (arg instanceof ElementMessage.ScalarArg s && s.type() == dev.polygpu.device.ElementType.FLOAT) {
                k = Float.intBitsToFloat((int) s.bits());
            }
        }
        ByteBuffer out = ByteBuffer.allocate(4 * Members.N).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < Members.N; i++) {
            out.putFloat(a.getFloat() * k + i);
        }
        return out.array();
    }

    /** The array a tile that {@code item} carries writes. */
    static long outputArray(WorkItem item) {
        for (ElementMessage.Arg arg : item.element().args()) {
            if (arg instanceof ElementMessage.ArrayArg a && a.mode().writes()) {
                return a.arrayId();
            }
        }
        throw new AssertionError("a tile writes an array");
    }

    @Test
    void anOwnerWhoseThiefRunsItsKernelsFourTimesFasterKeepsLessForItself() throws Exception {
        ClusterConfig c = config("learn-owner");
        ScriptedTransport t = new ScriptedTransport("p1", c);
        t.join("w", Role.WORKER);
        Members.Member m = member(c, t);
        dev.polygpu.device.UnifiedBuffer flag = m.device.allocate(4);
        flag.setInt(0, 0);
        try {
            int base = m.node.settings().threshold();
            assertEquals(WINDOW + 2, base, "the configured threshold: the window + 2");
            runOwnTiles(m, 6);
            fillWindow(m, flag);
            List<TrackedArray> outs = new ArrayList<>();
            for (int j = 0; j < 40; j++) {
                TrackedArray out = m.floats("out" + j);
                outs.add(out);
                m.tile(m.floats("a" + j, j, j + 1, j + 2), out, 3f, MS);
            }
            int results = 0;
            long request = 1;
            while (results < 2 * new SpeedEstimate().minSamples() && request < 40) {
                long id = request++;
                t.deliver(new StealRequest("w", id, "w", 0, 4, 0));
                StealReply reply = t.await("w", StealReply.class, r -> r.requestId() == id);
                for (WorkItem item : reply.items()) {
                    assertTrue(item.expectedNanos() > 1_000_000L, "the owner sends its own time for a tile (which "
                            + "sleeps " + MS + " ms): " + item.expectedNanos());
                    t.deliver(new WorkResult("w", item.stealId(), item.epoch(), true, null, 0,
                            item.expectedNanos() / 4, List.of(new ArrayData(outputArray(item), 0, tileOutput(item))),
                            0));
                    results++;
                }
            }
            int delivered = results;
            ScriptedTransport.until(() -> m.node.stats().completedRemote() == delivered, "every result accepted");
            ClusterStats s = m.node.stats();
            assertTrue(s.relativeSpeed() > 0.15 && s.relativeSpeed() < 0.4, "a thief four times faster: this "
                    + "member learns it runs at about a quarter of its speed, not " + s.relativeSpeed());
            assertEquals(SpeedEstimate.threshold(base, s.relativeSpeed()), s.threshold());
            assertTrue(s.threshold() <= base / 2, "threshold " + s.threshold() + " of " + base);
            int slots = m.device.properties().multiProcessorCount();
            assertEquals(Math.max(Math.min(slots, WINDOW), Math.round(WINDOW * s.relativeSpeed())), s.window());
            assertTrue(s.window() < WINDOW, "window " + s.window() + " of " + WINDOW);
            assertEquals(s.window(), m.scheduler.inFlightWindow());
            assertEquals(WINDOW, m.scheduler.configuredInFlightWindow());

            // Every tile is right, whether it ran here or its result came back.
            flag.setInt(0, 1);
            m.scheduler.synchronize();
            for (int j = 0; j < outs.size(); j++) {
                for (int i = 0; i < Members.N; i++) {
                    float a = i < 3 ? j + i : 0;
                    assertEquals(a * 3f + i, outs.get(j).buffer().getFloat(i), "out" + j + "[" + i + "]");
                }
            }
        } finally {
            flag.setInt(0, 1);
            m.close();
        }
    }

    @Test
    void aThiefSlowerThanItsOwnerLearnsItAndTheOwnerKeepsItsLimits() throws Exception {
        ClusterConfig c = config("learn-pair");
        ScriptedTransport ownerSide = new ScriptedTransport("p1", c);
        ownerSide.join("w1", Role.WORKER);
        ScriptedTransport thiefSide = new ScriptedTransport("w1", c.withRole(Role.WORKER));
        thiefSide.joinedBefore("p1", Role.PROGRAM);
        Members.Member owner = member(c, ownerSide);
        Members.Member thief = member(c.withRole(Role.WORKER), thiefSide);
        dev.polygpu.device.UnifiedBuffer flag = owner.device.allocate(4);
        flag.setInt(0, 0);
        try {
            warmUp(owner);
            warmUp(thief);
            runOwnTiles(owner, 6);
            fillWindow(owner, flag);
            for (int j = 0; j < 40; j++) {
                owner.tile(owner.floats("a" + j, j, j + 1, j + 2), owner.floats("out" + j), 3f, MS);
            }
            // The test carries messages between the two, telling one story of a thief four times slower than its
            // owner: to the thief, that the owner runs the tiles four times faster than it does; to the owner, that
            // the thief took four times as long as it did. (Passed on as they were, the thief's times against the
            // owner's own made the owner think itself slow whenever the machine's load had slowed its own runs.)
            // Each round relays the thief's newest request (it gives a request up after 200 ms, so older ones,
            // sent while the test set up or relayed, are stale) and, if the thief takes the reply, its results; a
            // reply that came too late is refused by the thief (rejected), and the next round tries again.
            int given = 0;
            for (int round = 0; given < 2 * new SpeedEstimate().minSamples() && round < 40; round++) {
                StealRequest asked = thiefSide.awaitLatest("p1", StealRequest.class);
                ownerSide.deliver(asked);
                StealReply reply = ownerSide.await("w1", StealReply.class,
                        r -> r.requestId() == asked.requestId());
                List<WorkItem> claimed = new ArrayList<>();
                for (WorkItem item : reply.items()) {
                    claimed.add(new WorkItem(item.stealId(), item.epoch(), item.element(), item.inputs(), item.rank(),
                            item.expectedNanos() / 4));
                }
                long refused = thief.node.stats().rejected();
                thiefSide.deliver(new StealReply(reply.sender(), reply.requestId(), claimed, reply.pushed()));
                int results = 0;
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (results < claimed.size() && thief.node.stats().rejected() == refused) {
                    assertTrue(System.nanoTime() < deadline, "the thief sent " + results + " of " + claimed.size()
                            + " results in 30 s: " + thief.node.stats());
                    WorkResult r = thiefSide.poll("p1", WorkResult.class, x -> true, Duration.ofMillis(50));
                    if (r != null) {
                        ownerSide.deliver(new WorkResult(r.sender(), r.stealId(), r.epoch(), r.ok(), r.error(),
                                r.queueNanos(), 4 * r.runNanos(), r.outputs(), r.thiefHolds()));
                        results++;
                    }
                }
                given += results;
            }
            // Told the owner is four times faster, the thief learns it is slower, though not exactly 4x: run times
            // on a CPU device include the wait for its workers, and the owner measured its own under another load.
            ScriptedTransport.until(() -> thief.node.stats().relativeSpeed() < 0.7, "the thief learns it is slow");
            ClusterStats ts = thief.node.stats();
            assertTrue(ts.relativeSpeed() > 0.1, "the thief's speed " + ts.relativeSpeed());
            assertEquals(SpeedEstimate.threshold(WINDOW + 2, ts.relativeSpeed()), ts.threshold());
            assertTrue(ts.threshold() < WINDOW + 2, "the thief's threshold " + ts.threshold());
            assertTrue(thief.scheduler.inFlightWindow() < WINDOW, "the thief's window "
                    + thief.scheduler.inFlightWindow());
            ClusterStats os = owner.node.stats();
            assertEquals(1.0, os.relativeSpeed(), "the thief's results come four times slower than the thief ran "
                    + "them: the owner is not the slow one");
            assertEquals(WINDOW + 2, os.threshold());
            assertEquals(WINDOW, owner.scheduler.inFlightWindow());
        } finally {
            flag.setInt(0, 1);
            thief.close();
            owner.close();
        }
    }

    @Test
    void withLearningOffTheLimitsStayAsConfigured() throws Exception {
        ClusterConfig c = config("learn-off").withLearnSpeeds(false);
        ScriptedTransport t = new ScriptedTransport("p1", c);
        t.join("w", Role.WORKER);
        Members.Member m = member(c, t);
        try {
            runOwnTiles(m, 4);
            for (int j = 0; j < 40; j++) {
                m.tile(m.floats("a" + j, j), m.floats("out" + j), 3f, MS);
            }
            int results = 0;
            for (long id = 1; id < 30 && results < 12; id++) {
                long request = id;
                t.deliver(new StealRequest("w", request, "w", 0, 4, 0));
                for (WorkItem item : t.await("w", StealReply.class, r -> r.requestId() == request).items()) {
                    assertEquals(0, item.expectedNanos(), "not learning: no expected time is sent");
                    t.deliver(new WorkResult("w", item.stealId(), item.epoch(), true, null, 0, 1_000,
                            List.of(new ArrayData(outputArray(item), 0, tileOutput(item))), 0));
                    results++;
                }
            }
            int delivered = results;
            ScriptedTransport.until(() -> m.node.stats().completedRemote() == delivered, "every result accepted");
            assertEquals(1.0, m.node.stats().relativeSpeed());
            assertEquals(WINDOW + 2, m.node.stats().threshold());
            assertEquals(WINDOW, m.scheduler.inFlightWindow());
        } finally {
            m.close();
        }
    }
}
