package dev.polygpu.bench.cluster;

import java.util.List;

/**
 * One configuration of {@code bench/cluster}: how many untimed runs came first, its measured runs, its workers'
 * final counters, and the machine's load average when it started and ended.
 */
record Measured(String label, int members, int warmups, List<RunResult> runs, List<WorkerTable> workers,
        double loadBefore, double loadAfter) {

    double[] makespansMs() {
        double[] ms = new double[runs.size()];
        for (int r = 0; r < ms.length; r++) {
            ms[r] = runs.get(r).makespanNanos() / 1e6;
        }
        return ms;
    }
}
