package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.random.RandomGeneratorFactory;
import org.junit.jupiter.api.Test;

class VictimTest {
    private static final long MS = 1_000_000L;
    // window 4: threshold 6, chunk 2, max hops 2
    private static final StealSettings SETTINGS = StealSettings.defaults(4);

    /** A gate whose bandwidth is 1 byte per nanosecond with no latency: transfer ns = bytes. */
    private static Victim victim(KernelCostModel costs, long now) {
        BandwidthEstimator bw = new BandwidthEstimator(1e9, 0, 0.25);
        return new Victim("v", new CostGate(SETTINGS, costs, bw), now);
    }

    @Test
    void offerKeepsTheVictimAtItsThresholdAndWithinTheChunkAndTheAsk() {
        Victim v = victim(new KernelCostModel(), 0);
        assertEquals(2, v.offer(20, 20, 4, 5), "the chunk");
        assertEquals(1, v.offer(20, 20, 4, 1), "what was asked");
        assertEquals(1, v.offer(20, 20, 4, 0), "asking for 0 counts as 1");
        assertEquals(1, v.offer(3, 3, 4, 5), "3 + 4 - threshold 6");
        assertEquals(0, v.offer(2, 2, 4, 5), "at the threshold");
        assertEquals(1, v.offer(20, 1, 4, 5), "only what may move");
    }

    @Test
    void theThiefCapIsOffByDefaultAndCapsWhatOneThiefHoldsWhenOn() {
        Victim off = victim(new KernelCostModel(), 0);
        assertEquals(2, off.offer(20, 20, 4, 5, 2, 6, false), "off: the thief's holdings do not count");
        BandwidthEstimator bw = new BandwidthEstimator(1e9, 0, 0.25);
        Victim all = new Victim("v", new CostGate(SETTINGS.withThiefCap(ThiefCap.ALL), new KernelCostModel(), bw),
                0);
        assertEquals(2, all.offer(20, 20, 4, 5, 2, 0, false), "a first request: the chunk");
        assertEquals(1, all.offer(20, 20, 4, 5, 2, 1, false), "one held of 2 slots");
        assertEquals(0, all.offer(20, 20, 4, 5, 2, 2, true), "slots full, by rank too");
        assertEquals(1, all.offer(3, 3, 4, 5, 2, 0, false), "the threshold still limits first");
        assertEquals(1, all.offer(20, 20, 4, 5, 0, 0, false), "slots below 1 count as 1");
        assertEquals(2, all.offer(20, 20, 4, 5, 2, -3, false), "held below 0 counts as 0");
        Victim repeat = new Victim("v", new CostGate(SETTINGS.withThiefCap(ThiefCap.REPEAT), new KernelCostModel(),
                bw), 0);
        assertEquals(0, repeat.offer(20, 20, 4, 5, 2, 2, false), "a starving thief that holds 2");
        assertEquals(2, repeat.offer(20, 20, 4, 5, 2, 2, true), "by rank: not capped");
    }

    @Test
    void aContinuationIsPushedOnlyWhenOnToAThiefHoldingNoOtherStolenElementAndWithinTheThreshold() {
        Victim off = victim(new KernelCostModel(), 0);
        assertFalse(off.pushContinuation(0, 20, 20, 4), "off by default");
        BandwidthEstimator bw = new BandwidthEstimator(1e9, 0, 0.25);
        Victim on = new Victim("v", new CostGate(SETTINGS.withPushContinuations(true), new KernelCostModel(), bw),
                0);
        assertTrue(on.pushContinuation(0, 20, 20, 4));
        assertFalse(on.pushContinuation(1, 20, 20, 4), "the thief holds another stolen element");
        assertTrue(on.pushContinuation(0, 3, 3, 4), "3 + 4 is above the threshold 6");
        assertFalse(on.pushContinuation(0, 2, 2, 4), "the owner would drop below its threshold");
        assertFalse(on.pushContinuation(0, 20, 0, 4), "nothing that may move");
    }

    @Test
    void aKnownKernelMovesWhenItsRunOrItsWaitHerePaysForTheTransfer() {
        KernelCostModel costs = new KernelCostModel();
        costs.observe("k", 10 * MS);
        Victim v = victim(costs, 0);
        assertTrue(v.mayMove(0, "k", 5 * MS, 1, 0, 2, 0), "runs 10 ms, moves in 5 ms");
        assertFalse(v.mayMove(0, "k", 20 * MS, 1, 0, 2, 0), "moves in 20 ms, nothing ahead of it");
        // 9 ready, 0 given, 4 running: 12 ahead x 10 ms / 2 slots = 60 ms of waiting here.
        assertTrue(v.mayMove(0, "k", 20 * MS, 9, 4, 2, 0));
        assertFalse(v.mayMove(0, "k", 70 * MS, 9, 4, 2, 0));
    }

    @Test
    void anUnknownKernelMovesOnlyWithinTheBudgetUntilTheProbe() {
        Victim v = victim(new KernelCostModel(), 0);
        assertTrue(v.mayMove(0, "new", SETTINGS.unknownKernelBudgetNanos(), 100, 4, 2, 0));
        assertFalse(v.mayMove(0, "new", SETTINGS.unknownKernelBudgetNanos() + 1, 100, 4, 2, 0));
        long later = Victim.PROBE_AFTER_NANOS + 1;
        assertTrue(v.mayMove(0, "new", 1_000 * MS, 100, 4, 2, later), "a second without giving: a probe");
        assertFalse(v.mayMove(1, "new", 1_000 * MS, 100, 4, 2, later), "only the first element of a reply");
        v.gave(later);
        assertFalse(v.mayMove(0, "new", 1_000 * MS, 100, 4, 2, later + 1), "the probe's clock restarted");
    }

    @Test
    void forwardingGoesToTheLastGiverThenRandomlyUntilTheHopLimit() {
        Victim v = victim(new KernelCostModel(), 0);
        List<String> members = List.of("t", "v", "x", "y");
        var rnd = RandomGeneratorFactory.of("L64X128MixRandom").create(1);
        assertEquals("y", v.forwardTo("t", 0, "y", members, rnd));
        String random = v.forwardTo("t", 1, null, members, rnd);
        assertTrue(random.equals("x") || random.equals("y"), random);
        assertNull(v.forwardTo("t", SETTINGS.maxHops(), "y", members, rnd));
    }

    /** A program's victim (threshold 6, chunk 2, 2 hops) that wakes thieves; bandwidth 1 byte per ns. */
    private static Victim waking(ThiefCap cap, boolean program) {
        BandwidthEstimator bw = new BandwidthEstimator(1e9, 0, 0.25);
        return new Victim("v", new CostGate(SETTINGS.withWakeThieves(true).withThiefCap(cap), new KernelCostModel(),
                bw), 0, program);
    }

    private static Victim.Answer answer(Victim v, String thief, int minRank, Victim.Load load, boolean mayGive,
            int given) {
        return v.answer(new Victim.Ask(thief, 0, 2, minRank), load, mayGive, given, null, null,
                List.of("v", thief), RandomGeneratorFactory.of("L64X128MixRandom").create(1));
    }

    @Test
    void aStarvingThiefIsTurnedAwayOnlyWhenTheProgramHasNoSurplusAtAll() {
        // Threshold 6: surplus = min(stealable, ready + running - 6).
        Victim.Load none = new Victim.Load(2, 2, 4);
        Victim.Load one = new Victim.Load(3, 3, 4);
        Victim.Load pinned = new Victim.Load(20, 0, 4);
        Object[][] table = {
            {"no surplus: ready + running at the threshold", none, 0, true, true, true},
            {"nothing may move", pinned, 0, true, true, true},
            {"surplus 1 that the gate kept home", one, 0, true, true, false},
            {"asked by rank", none, 5, true, true, false},
            {"could not give at all (leaving, stealing off, thief not trusted)", none, 0, false, true, false},
            {"a worker", none, 0, true, false, false},
        };
        for (Object[] row : table) {
            Victim v = waking(ThiefCap.OFF, (Boolean) row[4]);
            Victim.Answer a = answer(v, "t", (Integer) row[2], (Victim.Load) row[1], (Boolean) row[3], 0);
            assertEquals(row[5], a.turnedAway(), (String) row[0]);
            assertEquals(row[5], v.anyTurnedAway(), (String) row[0]);
            assertEquals(Victim.Move.REPLY_EMPTY, a.move(), "nobody else to ask: " + row[0]);
        }
        BandwidthEstimator bw = new BandwidthEstimator(1e9, 0, 0.25);
        Victim off = new Victim("v", new CostGate(SETTINGS.withWakeThieves(false), new KernelCostModel(), bw), 0);
        assertFalse(answer(off, "t", 0, none, true, 0).turnedAway(), "wake-ups off");
    }

    @Test
    void aThiefTheThiefCapLeavesWithoutWorkIsNotTurnedAwayWhileThereIsSurplus() {
        Victim v = waking(ThiefCap.ALL, true);
        Victim.Load plenty = new Victim.Load(20, 20, 4);
        Victim.Ask ask = new Victim.Ask("t", 0, 2, 0);
        assertEquals(0, v.offer(ask, plenty, 2, 2), "the thief holds its 2 slots' worth already");
        assertFalse(v.answer(ask, plenty, true, 0, null, null, List.of("v", "t"),
                RandomGeneratorFactory.of("L64X128MixRandom").create(1)).turnedAway(),
                "surplus 18: waking it would wake it at once, to be capped again");
        assertEquals(2, v.offer(ask, plenty, 2, 0), "holding nothing: the chunk");
    }

    @Test
    void turnedAwayThievesAreWokenOldestFirstAtMostTheSurplusAndNotOnceServedOrGone() {
        Victim v = waking(ThiefCap.OFF, true);
        Victim.Load none = new Victim.Load(0, 0, 4);
        for (String t : List.of("t1", "t2", "t3", "t4", "t5")) {
            assertTrue(answer(v, t, 0, none, true, 0).turnedAway(), t);
        }
        assertEquals(Victim.Move.GIVE, answer(v, "t2", 0, new Victim.Load(8, 8, 4), true, 2).move());
        v.forget("t4");
        assertEquals(List.of(), v.toWake(new Victim.Load(2, 2, 4)), "surplus 0: nobody");
        assertEquals(List.of("t1", "t3"), v.toWake(new Victim.Load(4, 4, 4)), "surplus 2; t2 got work");
        assertEquals(List.of("t5"), v.toWake(new Victim.Load(9, 9, 4)), "t4 left");
        assertFalse(v.anyTurnedAway());
        Victim.Ask woken = v.wakeUpAsk("t1");
        assertEquals(new Victim.Ask("t1", 0, 6, 0), woken, "a starving thief's ask: the threshold, any rank");
        v.setThreshold(3);
        assertEquals(3, v.wakeUpAsk("t1").wanted());
        assertEquals(1, v.surplus(new Victim.Load(2, 2, 2)), "2 + 2 - 3 with the learnt threshold");
    }

    @Test
    void aRequestWithoutWorkGoesToADirectoryThenTheLastGiverUntilTheHopLimit() {
        Victim v = waking(ThiefCap.OFF, true);
        Victim.Load none = new Victim.Load(0, 0, 4);
        List<String> members = List.of("t", "v", "x", "y", "z");
        var rnd = RandomGeneratorFactory.of("L64X128MixRandom").create(1);
        LoadDirectory directory = new LoadDirectory();
        directory.report("z", 3, 10);
        Victim.Answer a = v.answer(new Victim.Ask("t", 0, 2, 0), none, true, 0, directory, "y", members, rnd);
        assertEquals(new Victim.Answer(Victim.Move.FORWARD, "z", true, true), a, "z reported surplus");
        Victim.Answer rank = v.answer(new Victim.Ask("t", 1, 2, 20), none, true, 0, directory, "y", members, rnd);
        assertEquals(new Victim.Answer(Victim.Move.FORWARD, "y", false, false), rank,
                "z's top rank 10 is below 20: to the last giver");
        Victim.Answer last = v.answer(new Victim.Ask("t", SETTINGS.maxHops(), 2, 0), none, true, 0, directory, "y",
                members, rnd);
        assertEquals(Victim.Move.REPLY_EMPTY, last.move(), "at the hop limit");
        assertNull(last.next());
        assertTrue(v.isSelf("v"));
        assertFalse(v.isSelf("t"));
    }
}
