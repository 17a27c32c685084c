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

    /**
     * True if the {@code bytes} bytes at byte {@code off} of {@code s} lie inside it and are aligned to {@code size}
     * (a power of two). Kept small enough for the JIT to inline at every call, as the checks of the next two are.
     */
    public static boolean fits(MemorySegment s, long off, int bytes, int size) {
        return s != null && off >= 0 && off <= s.byteSize() - bytes && (s.address() + off & size - 1) == 0;
    }

    /**
     * True if {@code index + 1}, …, {@code index + lanes - 1} do not wrap around as the C index type ({@code int},
     * or {@code unsigned int} where {@code unsigned}), so that lane j's element is lane 0's plus j.
     */
    public static boolean noWrap(int index, int lanes, boolean unsigned) {
        return unsigned ? Integer.toUnsignedLong(index) + lanes - 1 <= 0xFFFF_FFFFL
                : (long) index + lanes - 1 <= Integer.MAX_VALUE;
    }

    /**
     * Whether {@code a op b} holds in a group of {@code lanes} threads where lane j's operands are
     * {@code a0 + ka * j} and {@code b0 + kb * j} ({@code ka}, {@code kb} 0 or 1): 1 if in every lane, 0 if in none,
     * -1 if in some (or if an operand would wrap around within the group, where C's value is not that line). The
     * difference of the operands is monotonic in j, so the first and last lanes decide.
     *
     * @param op 0 {@code <}, 1 {@code <=}, 2 {@code >}, 3 {@code >=}
     */
    public static int decide(int a0, int ka, int b0, int kb, int lanes, int op, boolean unsigned) {
        long a = unsigned ? Integer.toUnsignedLong(a0) : a0;
        long b = unsigned ? Integer.toUnsignedLong(b0) : b0;
        long aLast = a + (long) ka * (lanes - 1);
        long bLast = b + (long) kb * (lanes - 1);
        long max = unsigned ? 0xFFFF_FFFFL : Integer.MAX_VALUE;
        if (aLast > max || bLast > max) {
            return -1;
        }
        boolean first = holds(a, b, op);
        return first == holds(aLast, bLast, op) ? (first ? 1 : 0) : -1;
    }

    private static boolean holds(long a, long b, int op) {
        return switch (op) {
            case 0 -> a < b;
            case 1 -> a <= b;
            case 2 -> a > b;
            default -> a >= b;
        };
    }

    /** True if the group may store into {@code s}: it is not a read-only view. */
    public static boolean writable(MemorySegment s) {
        return !s.isReadOnly();
    }

    /**
     * True if the group's store of {@code bytes} bytes at {@code storeOff} of {@code s} leaves the vector it loaded
     * at {@code loadOff} of {@code l}, one element per lane, as the scalar loop would have read it: no load (a null
     * segment), or one that starts at or after the store (each lane reads only elements its own lane or a later one
     * stores, and the scalar loop runs the later threads after it) or ends before it.
     */
    public static boolean laterOrApart(MemorySegment s, long storeOff, MemorySegment l, long loadOff, int bytes) {
        long d = l == null ? 0 : l.address() + loadOff - s.address() - storeOff;
        return d >= 0 || d <= -bytes;
    }

    /**
     * True if the element of {@code size} bytes at {@code loadOff} of {@code l} that every lane read (or none: a
     * null segment) is none of the {@code bytes} the group stores at {@code storeOff} of {@code s}: the lanes after
     * the one that stores it would have read the new value.
     */
    public static boolean apart(MemorySegment s, long storeOff, MemorySegment l, long loadOff, int bytes, int size) {
        long d = l == null ? bytes : l.address() + loadOff - s.address() - storeOff;
        return d >= bytes || d <= -size;
    }
}
