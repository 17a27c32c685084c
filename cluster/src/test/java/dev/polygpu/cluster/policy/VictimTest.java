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
}
