package dev.polygpu.bench.cluster;

import dev.polygpu.runtime.TrackedArray;

/**
 * One kernel of a run, C tile (i, j) of one round, and where and when it ran as the program's scheduler saw it.
 * The placement fields are written by the scheduler's observer (one callback at a time, under the scheduler's
 * lock) and read by the benchmark thread after {@code synchronize()}, which orders them: hence volatile, and
 * never written by two threads.
 */
final class Launch {
    final int i;
    final int j;
    /** The device time the kernel sleeps, per block: products of its row × ms per product. */
    final double nominalMs;
    final TrackedArray c;
    volatile long elementId = -1;
    /** The member (short id) it ran on, or null if it ran on the program's own device. */
    volatile String member;
    /** On the program's clock: when a thief took it (remote only), started, and ended. */
    volatile long takenNanos;
    volatile long startNanos;
    volatile long endNanos;
    volatile String failure;

    Launch(int i, int j, double nominalMs, TrackedArray c) {
        this.i = i;
        this.j = j;
        this.nominalMs = nominalMs;
        this.c = c;
    }

    /** Clears the placement before the kernel is submitted again. */
    void reset() {
        elementId = -1;
        member = null;
        takenNanos = 0;
        startNanos = 0;
        endNanos = 0;
        failure = null;
    }
}
