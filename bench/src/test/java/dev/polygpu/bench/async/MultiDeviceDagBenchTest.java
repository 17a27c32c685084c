package dev.polygpu.bench.async;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** How {@link MultiDeviceDagBench} reads transfers from the schedule summary line (the format of DagMetrics). */
class MultiDeviceDagBenchTest {
    @Test
    void readsTransfersAndBytesFromTheSummary() {
        assertArrayEquals(new long[] {6, 2400}, MultiDeviceDagBench.transfers("DAG: 42 elements, 57 edges, width 4"
                + " (degree of asynchronicity 3), critical path 12.3 ms over 9 elements (square → reduce), makespan"
                + " 20.1 ms, 6 transfers of 2400 bytes taking 0.310 ms"));
        assertArrayEquals(new long[] {1, 8}, MultiDeviceDagBench.transfers("DAG: 2 elements, 1 edge, width 1"
                + " (degree of asynchronicity 0), critical path 1.0 ms over 2 elements (a → b), makespan 1.0 ms,"
                + " 1 transfer of 8 bytes taking 0.020 ms"));
    }

    @Test
    void aSummaryWithoutTransfersCountsNone() {
        assertArrayEquals(new long[] {0, 0}, MultiDeviceDagBench.transfers("DAG: 2 elements, 1 edge, width 1"
                + " (degree of asynchronicity 0), critical path 1.0 ms over 2 elements (a → b), makespan 1.0 ms"));
    }
}
