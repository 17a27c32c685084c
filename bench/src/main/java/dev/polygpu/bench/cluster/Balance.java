package dev.polygpu.bench.cluster;

import java.util.PriorityQueue;

/**
 * What the best balance of a list of kernels on some slots would be, from their device times alone (no
 * latency, no transfer): the reference points of the cluster benchmark's makespans. A slot is one place a
 * kernel runs at a time (a member's concurrent blocks divided by the blocks of one kernel). Stateless.
 */
public final class Balance {
    private Balance() {
    }

    /** Perfect balance: the total device time spread evenly, {@code Σ times / slots}. */
    public static double perfect(double[] times, int slots) {
        checkSlots(slots);
        double total = 0;
        for (double t : times) {
            total += t;
        }
        return total / slots;
    }

    /**
     * A lower bound on any schedule's makespan: the larger of {@link #perfect} and the longest kernel (a
     * kernel runs on one slot from start to end).
     */
    public static double lowerBound(double[] times, int slots) {
        double longest = 0;
        for (double t : times) {
            longest = Math.max(longest, t);
        }
        return Math.max(perfect(times, slots), longest);
    }

    /**
     * The makespan of greedy list scheduling in the given order: each kernel starts on the slot that frees
     * first. What a scheduler with zero steal latency achieves when it takes kernels in submission order, as
     * the cluster does; it is at most {@code perfect + longest} (Graham's bound).
     */
    public static double listSchedule(double[] times, int slots) {
        checkSlots(slots);
        PriorityQueue<Double> free = new PriorityQueue<>();
        for (int s = 0; s < slots; s++) {
            free.add(0.0);
        }
        double end = 0;
        for (double t : times) {
            double start = free.poll();
            free.add(start + t);
            end = Math.max(end, start + t);
        }
        return end;
    }

    private static void checkSlots(int slots) {
        if (slots <= 0) {
            throw new IllegalArgumentException("the number of slots must be positive, got " + slots);
        }
    }
}
