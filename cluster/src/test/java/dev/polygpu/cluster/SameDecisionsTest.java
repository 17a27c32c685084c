package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.cluster.ClusterConfig.Role;
import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.sim.Network;
import dev.polygpu.cluster.sim.ScriptedSimulation;
import dev.polygpu.cluster.sim.SimConfig;
import dev.polygpu.cluster.sim.Workload;
import dev.polygpu.cluster.sim.Workloads;
import dev.polygpu.cluster.wire.Handback;
import dev.polygpu.cluster.wire.HandbackReason;
import dev.polygpu.cluster.wire.LoadReport;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.runtime.SchedulerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cluster node and the simulator make the same victim decisions: one script of steal requests and of work
 * becoming ready is played to a {@link ClusterNode} (over a {@link ScriptedTransport}, its device busy with a
 * kernel that waits for the test) and to a simulated member in the same state ({@link ScriptedSimulation}), and
 * what each victim sends in answer, request by request, must be the same: how many elements a reply carries,
 * where a request is forwarded, which thieves it turned away are woken with work. The expected answers are also
 * derived by hand from the rules in docs/cluster.md, so that the two cannot agree on something wrong.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SameDecisionsTest {
    private static final List<String> THIEVES = List.of("w1", "w2", "w3", "w4");

    /** One step of the script: a steal request that reaches the victim, or tiles that become ready there. */
    private record Step(String thief, int wanted, int minRank, int hops, int tiles) {
        static Step ask(String thief, int wanted, int minRank, int hops) {
            return new Step(thief, wanted, minRank, hops, 0);
        }

        static Step tiles(int n) {
            return new Step(null, 0, 0, 0, n);
        }
    }

    /**
     * The victim (threshold 1, chunk 1, two hops, one kernel running that is never given, no tile yet), another
     * program {@code x} and four starving workers. Every tile ranks 1.
     */
    private static final List<Step> SCRIPT = List.of(
            Step.ask("w1", 1, 0, 0),
            Step.ask("w2", 1, 5, 0),
            Step.ask("w3", 1, 0, 2),
            Step.tiles(4),
            Step.ask("w2", 1, 0, 0),
            Step.ask("w2", 1, 5, 0),
            Step.ask("w4", 2, 0, 0),
            Step.ask("w4", 1, 0, 1),
            Step.tiles(2));

    /** What the victim said: a reply (pushed or not) with its element count, a forwarded request, a load report. */
    private record Said(String kind, String to, String thief, long requestId, int items, int hops) {
        static Said reply(String to, long requestId, int items) {
            return new Said("reply", to, to, requestId, items, 0);
        }

        static Said pushed(String to, int items) {
            return new Said("pushed", to, to, 0, items, 0);
        }

        static Said forward(String to, String thief, long requestId, int hops) {
            return new Said("forward", to, thief, requestId, 0, hops);
        }
    }

    /**
     * Derived from the rules: a victim gives min(chunk, what was asked, ready + running - threshold, stealable),
     * forwards a request it cannot serve to a program other than the thief and itself while the hops allow, else
     * replies empty; it remembers a starving thief it sent away while it had no surplus, and once it has surplus
     * wakes those thieves, oldest first, with what a request for its threshold would get.
     */
    private static final List<List<Said>> EXPECTED = List.of(
            List.of(Said.forward("x", "w1", 1, 1)),
            List.of(Said.forward("x", "w2", 2, 1)),
            List.of(Said.reply("w3", 3, 0)),
            List.of(Said.pushed("w1", 1), Said.pushed("w3", 1)),
            List.of(Said.reply("w2", 5, 1)),
            List.of(Said.forward("x", "w2", 6, 1)),
            List.of(Said.reply("w4", 7, 1)),
            List.of(Said.forward("x", "w4", 8, 2)),
            List.of(Said.pushed("w4", 1)));

    @Test
    void theNodeAndTheSimulatorAnswerOneScriptAlike() throws Exception {
        NodeRun node = runOnNode();
        assertEquals(List.of(1, 1, 2), List.of(node.settings.threshold(), node.settings.chunk(),
                node.settings.maxHops()), "the script is written for threshold 1, chunk 1 and two hops");
        List<List<Said>> simulated = runOnSimulator(node.settings);
        assertEquals(EXPECTED, node.said, "the node");
        assertEquals(node.said, simulated, "the simulator against the node");
    }

    /** What the node said per step, and the stealing settings it ran with. */
    private record NodeRun(List<List<Said>> said, StealSettings settings) {
    }

    private static NodeRun runOnNode() throws Exception {
        ClusterConfig c = ClusterConfig.loopback().withName("same-decisions").withHoldInterval(Duration.ofSeconds(1))
                .withDirectories(0).withRandomEvery(0).withThreshold(1).withChunk(1).withRankFactor(0)
                .withLearnSpeeds(false).withWakeThieves(true).withPushContinuations(false);
        ScriptedTransport t = new ScriptedTransport("p1", c);
        t.join("x", Role.PROGRAM);
        for (String w : THIEVES) {
            t.join(w, Role.WORKER);
        }
        Members.Member m = new Members.Member(c, SchedulerConfig.DEFAULT.withInFlightWindow(1), t.factory());
        UnifiedBuffer flag = m.device.allocate(4);
        flag.setInt(0, 0);
        List<List<Said>> said = new ArrayList<>();
        List<Members.Tiles> tiles = new ArrayList<>();
        List<ScriptedTransport.Sent> gifts = new ArrayList<>();
        try {
            m.hold(flag, m.ints("held", 0));
            ScriptedTransport.until(() -> m.scheduler.load().running() == 1, "the held kernel on the stream");
            said(t.drain(), gifts);
            long requestId = 0;
            for (Step s : SCRIPT) {
                if (s.thief() != null) {
                    String sender = s.hops() == 0 ? s.thief() : "x";
                    t.deliver(new StealRequest(sender, ++requestId, s.thief(), s.hops(), s.wanted(), s.minRank()));
                } else {
                    requestId++;
                    tiles.add(new Members.Tiles(m, s.tiles(), 2f, 0));
                    // The stealing loop wakes the thieves; once none waits, one more full turn has sent it all.
                    ScriptedTransport.until(() -> !m.node.wakeUpsPending(), "the turned-away thieves woken");
                    long turn = m.node.loopTurns();
                    ScriptedTransport.until(() -> m.node.loopTurns() >= turn + 2, "a turn of the loop after");
                }
                said.add(said(t.drain(), gifts));
            }
            // The thieves cannot run what they got: it comes back and runs here, and every tile is checked.
            for (ScriptedTransport.Sent gift : gifts) {
                List<Long> ids = new ArrayList<>();
                for (WorkItem item : ((StealReply) gift.message()).items()) {
                    ids.add(item.stealId());
                }
                t.deliver(new Handback(gift.to(), ids, HandbackReason.CANNOT_RUN));
            }
            ScriptedTransport.until(() -> m.node.away() == 0, "every tile back");
            flag.setInt(0, 1);
            m.scheduler.synchronize();
            for (Members.Tiles tile : tiles) {
                tile.check();
            }
            return new NodeRun(said, m.node.settings());
        } finally {
            flag.setInt(0, 1);
            m.close();
        }
    }

    /** The victim's answers among the messages the node sent; its own steal requests are left out. */
    private static List<Said> said(List<ScriptedTransport.Sent> sent, List<ScriptedTransport.Sent> gifts) {
        List<Said> out = new ArrayList<>();
        for (ScriptedTransport.Sent s : sent) {
            switch (s.message()) {
                case StealReply r -> {
                    out.add(r.pushed() ? Said.pushed(s.to(), r.items().size())
                            : Said.reply(s.to(), r.requestId(), r.items().size()));
                    if (!r.items().isEmpty()) {
                        gifts.add(s);
                    }
                }
                case StealRequest r when !r.thief().equals("p1") ->
                        out.add(Said.forward(s.to(), r.thief(), r.requestId(), r.hops()));
                case LoadReport l -> out.add(new Said("load", s.to(), s.to(), 0, 0, 0));
                default -> { }
            }
        }
        return out;
    }

    /**
     * The same script on a simulated cluster in the same state: member 0 the victim (its one slot and window taken
     * by a task that never ends), member 1 program {@code x}, members 2–5 the workers; the tiles wait for a task
     * of {@code x} that never ends, and the script makes them ready.
     */
    private static List<List<Said>> runOnSimulator(StealSettings settings) {
        Workload.Builder b = Workload.builder("same-decisions");
        int kernel = b.kernel("tile");
        int hold = b.kernel("hold");
        b.task(0, hold, Workloads.MAX_TASK_NANOS, 0, new int[] {b.array(4L * Members.N)});
        int parent = b.task(1, hold, Workloads.MAX_TASK_NANOS, 0, new int[] {b.array(4L * Members.N)});
        List<Integer> tiles = new ArrayList<>();
        for (Step s : SCRIPT) {
            for (int i = 0; i < s.tiles(); i++) {
                tiles.add(b.task(0, kernel, 1_000_000, 4L * Members.N, new int[] {b.array(4L * Members.N)}, parent));
            }
        }
        SimConfig config = new SimConfig(2 + THIEVES.size(), 1, 1, settings, true,
                Network.flat(20_000, 12.5e9, 0), SimConfig.DEFAULT_FAIL_AFTER_NANOS, List.of(),
                InputCache.DEFAULT_CAPACITY_BYTES, SimConfig.Order.RANK_AND_PRIORITIES,
                SimConfig.DEFAULT_PRIORITY_LEVELS, 1);
        ScriptedSimulation sim = new ScriptedSimulation(b.build(), config);
        sim.drain();
        List<List<Said>> said = new ArrayList<>();
        long requestId = 0;
        int nextTile = 0;
        for (Step s : SCRIPT) {
            if (s.thief() != null) {
                sim.request(index(s.thief()), 0, ++requestId, s.wanted(), s.minRank(), s.hops());
            } else {
                requestId++;
                for (int i = 0; i < s.tiles(); i++) {
                    sim.release(tiles.get(nextTile++));
                }
            }
            List<Said> out = new ArrayList<>();
            for (ScriptedSimulation.Sent e : sim.drain()) {
                if (e.from() != 0) {
                    continue;
                }
                switch (e.kind()) {
                    case "reply" -> out.add(e.pushed() ? Said.pushed(name(e.to()), e.items())
                            : Said.reply(name(e.to()), e.requestId(), e.items()));
                    case "request" -> out.add(Said.forward(name(e.to()), name(e.thief()), e.requestId(), e.hops()));
                    case "load" -> out.add(new Said("load", name(e.to()), name(e.to()), 0, 0, 0));
                    default -> { }
                }
            }
            said.add(out);
        }
        return said;
    }

    /** The simulated member that plays {@code name}. */
    private static int index(String name) {
        return switch (name) {
            case "p1" -> 0;
            case "x" -> 1;
            default -> 2 + THIEVES.indexOf(name);
        };
    }

    private static String name(int index) {
        return index == 0 ? "p1" : index == 1 ? "x" : THIEVES.get(index - 2);
    }
}
