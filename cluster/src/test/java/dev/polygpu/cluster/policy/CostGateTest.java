package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CostGateTest {

    /** A 10 GB/s link with 50 us per message: moving b bytes takes 50000 + b / 10 ns. */
    private static final double LINK_BYTES_PER_SECOND = 1e10;
    private static final long LINK_LATENCY_NANOS = 50_000;

    private static long linkNanos(long bytes) {
        return LINK_LATENCY_NANOS + (bytes + 9) / 10;
    }

    @ParameterizedTest(name = "{0}: kernel {1} ns, {2} bytes, factor {3} -> move {4}")
    @CsvSource({
            // case, observed run time (-1: never observed), bytes to move, cost factor, moves
            "tiny kernel with a big input stays home, 10000,    100000000, 1.0, false",
            "tiny kernel with no data stays home,     10000,    0,         1.0, false",  // latency alone: 50 us
            "big kernel with a small input moves,     50000000, 1000000,   1.0, true",
            "big kernel with a big input moves,       50000000, 100000000, 1.0, true",   // 50 ms vs 10.05 ms
            "run time equal to transfer moves,        10050000, 100000000, 1.0, true",
            "run time just below transfer stays,      10049999, 100000000, 1.0, false",
            "cautious factor keeps it home,           15000000, 100000000, 2.0, false",  // 15 < 2 x 10.05 ms
            "eager factor moves it,                   6000000,  100000000, 0.5, true",   // 6 >= 0.5 x 10.05 ms
            "unknown kernel with a small input moves, -1,       1024,      1.0, true",   // 50.1 us <= 1 ms
            "unknown kernel exactly at the budget,    -1,       9500000,   1.0, true",   // 50 us + 950 us = 1 ms
            "unknown kernel just over the budget,     -1,       9500010,   1.0, false",
            "unknown kernel with a big input stays,   -1,       100000000, 1.0, false",
    })
    void runTimeMustPayForTransfer(String name, long observedNanos, long bytes, double costFactor, boolean moves) {
        KernelCostModel kernels = new KernelCostModel();
        if (observedNanos >= 0) {
            kernels.observe("k", observedNanos);
        }
        BandwidthEstimator link = new BandwidthEstimator(LINK_BYTES_PER_SECOND, LINK_LATENCY_NANOS, 0.25);
        StealSettings settings = StealSettings.defaults(8).withCostFactor(costFactor);
        CostGate gate = new CostGate(settings, kernels, link);

        assertEquals(moves, gate.worthMoving("k", bytes), name);
        CostGate.Decision decision = gate.explain("k", bytes);
        assertEquals(moves, decision.worthMoving(), name);
        assertEquals(observedNanos, decision.expectedNanos());
        assertEquals(observedNanos >= 0, decision.known());
        assertEquals(linkNanos(bytes), decision.transferNanos());
        assertEquals(bytes, decision.bytesToMove());
        assertEquals(costFactor, decision.costFactor());
        assertEquals(1_000_000, decision.unknownKernelBudgetNanos());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // case, run time ns, bytes, elements ahead, slots, moves
            "fast enough on its own,                 20000000, 1000000,   0,  2, true",   // 20 ms >= 0.15 ms
            "too slow for its bytes and nothing waits, 1000000, 100000000, 0,  2, false", // 1 ms < 10.05 ms
            "too slow but the queue is long,          1000000, 100000000, 30, 2, true",   // waits 15 ms >= 10.05
            "too slow and the queue is short,         1000000, 100000000, 10, 2, false",  // waits 5 ms < 10.05
            "the same queue on more slots is shorter, 1000000, 100000000, 30, 8, false",  // waits 3.75 ms
            "an unknown kernel never counts the wait, -1,      100000000, 1000, 1, false",
    })
    void aKernelThatWouldWaitLongerAtHomeThanOnTheWireMoves(String name, long runNanos, long bytes, int ahead,
            int slots, boolean moves) {
        KernelCostModel kernels = new KernelCostModel();
        if (runNanos >= 0) {
            kernels.observe("k", runNanos);
        }
        CostGate gate = new CostGate(StealSettings.defaults(8), kernels,
                new BandwidthEstimator(LINK_BYTES_PER_SECOND, LINK_LATENCY_NANOS, 0.25));
        long wait = gate.waitHereNanos("k", ahead, slots);
        assertEquals(runNanos < 0 || ahead == 0 ? 0 : runNanos * ahead / slots, wait, name);
        assertEquals(moves, gate.worthMoving("k", bytes, wait), name);
        assertEquals(gate.worthMoving("k", bytes), gate.worthMoving("k", bytes, 0), "no wait: the plain gate");
    }

    @Test
    void unknownKernelBudgetComesFromTheSettings() {
        BandwidthEstimator link = new BandwidthEstimator(LINK_BYTES_PER_SECOND, LINK_LATENCY_NANOS, 0.25);
        StealSettings settings = StealSettings.defaults(8).withUnknownKernelBudgetNanos(20_000_000);
        CostGate gate = new CostGate(settings, new KernelCostModel(), link);
        assertTrue(gate.worthMoving("new", 100_000_000), "10.05 ms <= 20 ms");
        assertFalse(gate.worthMoving("new", 300_000_000), "30.05 ms > 20 ms");
    }

    @Test
    void learnsAsKernelsAreObserved() {
        KernelCostModel kernels = new KernelCostModel(0.5);
        BandwidthEstimator link = new BandwidthEstimator(LINK_BYTES_PER_SECOND, LINK_LATENCY_NANOS, 0.25);
        CostGate gate = new CostGate(StealSettings.defaults(8), kernels, link);
        long bytes = 20_000_000; // 2.05 ms on the link: over the unknown-kernel budget
        assertFalse(gate.worthMoving("stencil", bytes));
        kernels.observe("stencil", 3_000_000);
        assertTrue(gate.worthMoving("stencil", bytes), "3 ms >= 2.05 ms");
        kernels.observe("stencil", 1_000_000);
        assertFalse(gate.worthMoving("stencil", bytes), "average (3 + 1) / 2 = 2 ms < 2.05 ms");
    }

    @Test
    void decisionsReadWellInALog() {
        KernelCostModel kernels = new KernelCostModel();
        kernels.observe("gemm", 2_000_000);
        CostGate gate = new CostGate(StealSettings.defaults(8), kernels,
                new BandwidthEstimator(LINK_BYTES_PER_SECOND, LINK_LATENCY_NANOS, 0.25));
        assertEquals("move gemm: expected 2000000 ns >= 1.0 x transfer 150000 ns (1000000 bytes)",
                gate.explain("gemm", 1_000_000).toString());
        assertEquals("keep fft (unknown kernel): transfer 10050000 ns > budget 1000000 ns (100000000 bytes)",
                gate.explain("fft", 100_000_000).toString());
    }

    @Test
    void invalidArgumentsAreRejected() {
        KernelCostModel kernels = new KernelCostModel();
        BandwidthEstimator link = new BandwidthEstimator(1e9, 1, 0.25);
        StealSettings settings = StealSettings.defaults(8);
        assertThrows(NullPointerException.class, () -> new CostGate(null, kernels, link));
        assertThrows(NullPointerException.class, () -> new CostGate(settings, null, link));
        assertThrows(NullPointerException.class, () -> new CostGate(settings, kernels, null));
        CostGate gate = new CostGate(settings, kernels, link);
        assertThrows(NullPointerException.class, () -> gate.worthMoving(null, 1));
        assertEquals("bytes must be >= 0, was -1",
                assertThrows(IllegalArgumentException.class, () -> gate.worthMoving("k", -1)).getMessage());
    }
}
