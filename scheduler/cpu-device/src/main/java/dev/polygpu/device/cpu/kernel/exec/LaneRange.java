package dev.polygpu.device.cpu.kernel.exec;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.LongAdder;

/**
 * The run-time half of running an element-wise kernel's threads as SIMD lanes (the code generator's
 * {@code LaneForm}): how many of a block's first threads may run that way. Lanes run statement by statement over
 * a group of threads where the scalar loop runs thread by thread, and they skip the per-access checks; both are
 * invisible only when no access of those threads could fault and no thread's store lands where another thread of
 * the block reads or writes through a different array. So every array's elements for those threads must lie inside
 * its segment, be aligned, and not be read-only where stored, and every two arrays of which one is stored must
 * either start at the same address (each thread then touches the same element through both) or not overlap.
 * Anything else answers 0, and the block's threads run in the scalar loop, which faults or orders as before.
 * The generated code chains the calls, each taking the count the one before answered; they allocate nothing,
 * because they run once per block.
 */
public final class LaneRange {
    /** Threads run as lanes in this JVM, for tests and benchmarks that must know the lanes ran. */
    private static final LongAdder RUN = new LongAdder();
    /** Blocks run in stretches of several ({@link GeneratedKernel#runBlocks}) in this JVM, likewise. */
    private static final LongAdder TOGETHER = new LongAdder();

    private LaneRange() {
    }

    /** How many threads have run as lanes in this JVM. */
    public static long threadsRun() {
        return RUN.sum();
    }

    /** How many blocks have run in stretches of several blocks in this JVM. */
    public static long blocksRunTogether() {
        return TOGETHER.sum();
    }

    /**
     * The number of the block's first threads, a multiple of {@code lanes}, that the guard lets through.
     *
     * @param first the index {@code i} of thread 0
     * @param bound the guard's {@code n} (threads with {@code i >= n} do nothing), or {@code Long.MAX_VALUE}
     * @param bdx   the block's threads in x; {@code bdy} and {@code bdz} must be 1
     */
    public static int threads(int first, long bound, int bdx, int bdy, int bdz, int lanes) {
        if (bdy != 1 || bdz != 1) {
            return 0;
        }
        long end = bound == Long.MAX_VALUE ? bdx : Math.max(0, Math.min(bdx, bound - first));
        long n = end - end % lanes;
        // Past Integer.MAX_VALUE the C index wraps where first + tx does not.
        return n == 0 || first + n - 1 > Integer.MAX_VALUE ? 0 : (int) n;
    }

    /**
     * The threads of {@code blocks} blocks of {@code bdx} threads, one row whose indices follow on across the blocks;
     * {@code Integer.MAX_VALUE} past it, which {@link #strided} refuses and of which {@link #threads} lets through
     * at most the first (a stretch then runs only the whole blocks among them).
     */
    public static int width(int bdx, int blocks) {
        return (int) Math.min(Integer.MAX_VALUE, (long) bdx * blocks);
    }

    /**
     * For {@code for (int i = first + threadIdx.x; i < bound; i += step)}: the number of elements from {@code first}
     * to {@code bound} if the block (or a stretch of blocks, {@code bdx} threads in all) may run the loop as lanes,
     * iteration by iteration; else 0. A step of at least the threads' number gives each thread's iterations elements
     * no other of them touches, so the order of iterations is invisible; below it (or past
     * {@code Integer.MAX_VALUE}, where C's index wraps) the threads run one by one.
     */
    public static int strided(int first, int bound, int step, int bdx) {
        if (first < 0 || first >= bound || step < bdx || (long) bound + step > Integer.MAX_VALUE) {
            return 0;
        }
        return bound - first;
    }

    /**
     * {@code n} if elements {@code first … first + n - 1} of the array at byte {@code off} of {@code s} lie inside
     * it, are aligned to {@code size} and, where {@code stored}, may be written; else 0. The indices must be
     * {@code int}s, as C computes {@code i + k}: past that range C's index wraps where the lanes' would not.
     */
    public static int inside(int n, MemorySegment s, long off, long first, int size, boolean stored) {
        if (n == 0 || s == null || !s.isNative() || stored && s.isReadOnly() || first < Integer.MIN_VALUE
                || first + n - 1 > Integer.MAX_VALUE) {
            return 0;
        }
        long lo = off + first * size;
        return lo >= 0 && lo <= s.byteSize() - (long) n * size && Mem.address(s, lo) % size == 0 ? n : 0;
    }

    /**
     * {@code n} if the elements {@code firstA … firstA + n - 1} and {@code firstB … firstB + n - 1} of two arrays,
     * one of them stored, start at the same address or do not overlap; else 0. Called after {@link #inside} passed
     * for both.
     */
    public static int apart(int n, MemorySegment a, long offA, MemorySegment b, long offB, long firstA, long firstB,
            int size) {
        if (n == 0) {
            return 0;
        }
        long x = Mem.address(a, offA + firstA * size);
        long y = Mem.address(b, offB + firstB * size);
        long bytes = (long) n * size;
        return x == y || disjoint(x, bytes, y, bytes) ? n : 0;
    }

    /**
     * {@code n} if element {@code index} of the array at byte {@code off} of {@code s}, which every lane reads, lies
     * inside it and is aligned; else 0 (its load then faults in the scalar loop, naming the thread).
     */
    public static int element(int n, MemorySegment s, long off, long index, int size) {
        return n != 0 && inside(1, s, off, index, size, false) != 0 ? n : 0;
    }

    /**
     * {@code n} if the element every lane reads ({@code index} of the array at {@code offE} of {@code e}) is none of
     * the elements {@code first … first + n - 1} of a stored array: otherwise a thread would read what an earlier
     * one stored, which lanes, reading it once for the group, would not see; else 0.
     */
    public static int outside(int n, MemorySegment s, long off, long first, MemorySegment e, long offE, long index,
            int size) {
        if (n == 0) {
            return 0;
        }
        long x = Mem.address(s, off + first * size);
        long y = Mem.address(e, offE + index * size);
        return disjoint(x, (long) n * size, y, size) ? n : 0;
    }

    /** True if the {@code xBytes} bytes at address {@code x} and the {@code yBytes} at {@code y} do not overlap. */
    private static boolean disjoint(long x, long xBytes, long y, long yBytes) {
        return x + xBytes <= y || y + yBytes <= x;
    }

    /**
     * Adds the {@code n} threads a worker's blocks ran as lanes ({@link BlockState#laneThreads}), and the
     * {@code blocks} of them that ran in stretches; called once per chunk of blocks, because a shared counter bumped
     * per group of lanes costs more than a short group's work.
     */
    static void ran(long n, long blocks) {
        if (n != 0) {
            RUN.add(n);
        }
        if (blocks != 0) {
            TOGETHER.add(blocks);
        }
    }
}
