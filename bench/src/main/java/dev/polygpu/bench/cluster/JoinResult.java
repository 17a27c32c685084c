package dev.polygpu.bench.cluster;

/**
 * One join-to-work measurement of {@code bench/cluster}, in ms; NaN where it did not happen (the late worker got
 * no kernel in time, or the program never saw it).
 *
 * @param spawnToSeenMs        worker process started → the program sees the new member
 * @param seenToFirstStartMs   the program sees it → its first kernel starts (program's clock)
 * @param workerFirstStolenMs  the worker's own {@code firstStolenNanos}: its Hazelcast member up → first stolen
 *                             kernel submitted
 * @param spawnToFirstStartMs  worker process started → its first kernel starts
 * @param lateKernels          kernels the late worker ran
 * @param rounds               rounds of the product the program submitted meanwhile
 */
record JoinResult(double spawnToSeenMs, double seenToFirstStartMs, double workerFirstStolenMs,
        double spawnToFirstStartMs, int lateKernels, int rounds) {

    boolean gotWork() {
        return lateKernels > 0;
    }
}
