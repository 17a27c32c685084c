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

    /** True if the {@code bytes} bytes at byte {@code off} of {@code s} lie inside it and are aligned to {@code size}. */
    public static boolean fits(MemorySegment s, long off, int bytes, int size) {
        return s != null && s.isNative() && off >= 0 && off <= s.byteSize() - bytes
                && Mem.address(s, off) % size == 0;
    }

    /**
     * True if {@code index + 1}, …, {@code index + lanes - 1} do not wrap around as the C index type ({@code int},
     * or {@code unsigned int} where {@code unsigned}), so that lane j's element is lane 0's plus j.
     */
    public static boolean noWrap(int index, int lanes, boolean unsigned) {
        return unsigned ? Integer.toUnsignedLong(index) + lanes - 1 <= 0xFFFF_FFFFL
                : (long) index + lanes - 1 <= Integer.MAX_VALUE;
    }
}
