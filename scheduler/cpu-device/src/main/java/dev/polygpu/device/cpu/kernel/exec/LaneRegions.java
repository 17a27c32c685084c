package dev.polygpu.device.cpu.kernel.exec;

import java.lang.foreign.MemorySegment;

/**
 * The run-time checks of a barrier region run as SIMD lanes (the code generator's {@code RegionLanes}): a group of
 * threads loads an element only where none of its threads could fault on it; otherwise the group runs thread by
 * thread, which faults as before.
 */
public final class LaneRegions {
    private LaneRegions() {
    }

    /*
     * Each check is a few bytes of bytecode: the generated code calls them once per group of lanes, at call sites
     * the JIT does not count as hot, where it inlines only methods of up to 35 bytes (MaxInlineSize).
     */

    /** True if the {@code bytes} bytes at byte {@code off} (not negative) of {@code s} lie inside it. */
    public static boolean inside(MemorySegment s, long off, int bytes) {
        return s != null && off <= s.byteSize() - bytes;
    }

    /** True if byte {@code off} of {@code s} is aligned to {@code size}, a power of two. */
    public static boolean aligned(MemorySegment s, long off, int size) {
        return (s.address() + off & size - 1) == 0;
    }

    /** True if {@code index + 1}, …, {@code index + lanes - 1} do not pass {@code Integer.MAX_VALUE}. */
    public static boolean noWrap(int index, int lanes) {
        return index <= Integer.MAX_VALUE - (lanes - 1);
    }

    /** As {@link #noWrap}, for an {@code unsigned int} index: none passes {@code 0xFFFFFFFF}. */
    public static boolean noWrapUnsigned(int index, int lanes) {
        return Integer.compareUnsigned(index, -lanes) <= 0;
    }

    /**
     * Whether {@code a < b} holds in a group of lanes whose first lane compares {@code a} with {@code b} and whose
     * last lane {@code aLast} with {@code bLast}, each operand a line over the lanes (so the difference is
     * monotonic and the two ends decide): 1 if in every lane, 0 if in none, -1 if in some.
     */
    public static int less(long a, long b, long aLast, long bLast) {
        boolean first = a < b;
        return first == aLast < bLast ? (first ? 1 : 0) : -1;
    }

    /** As {@link #less}, for {@code a <= b}. */
    public static int lessOrEqual(long a, long b, long aLast, long bLast) {
        boolean first = a <= b;
        return first == aLast <= bLast ? (first ? 1 : 0) : -1;
    }

    /** True if the group may store into {@code s}: it is not a read-only view. */
    public static boolean writable(MemorySegment s) {
        return !s.isReadOnly();
    }

    /**
     * True if a vector the group loaded at address {@code r}, one element per lane, is as the scalar loop would have
     * read it despite the group's store of {@code bytes} bytes at address {@code w}: it starts at or after the store
     * (each lane reads only elements its own lane or a later one stores, and the scalar loop runs the later threads
     * after it) or ends before it.
     */
    public static boolean laterOrApart(long r, long w, int bytes) {
        long d = r - w;
        return d >= 0 || d <= -bytes;
    }

    /**
     * True if the element of {@code size} bytes at address {@code r} that every lane read is none of the
     * {@code bytes} the group stores at address {@code w}: the lanes after the one that stores it would have read the
     * new value.
     */
    public static boolean apart(long r, long w, int bytes, int size) {
        long d = r - w;
        return d >= bytes || d <= -size;
    }
}
