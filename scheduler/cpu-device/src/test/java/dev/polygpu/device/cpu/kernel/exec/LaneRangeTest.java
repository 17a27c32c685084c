package dev.polygpu.device.cpu.kernel.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** When a block's threads may run as SIMD lanes: the guard, the arrays' bounds and their overlaps. */
class LaneRangeTest {
    @Test
    void theGuardLetsThroughWholeVectorsOfThreadsOnly() {
        assertEquals(256, LaneRange.threads(0, Long.MAX_VALUE, 256, 1, 1, 8));
        assertEquals(96, LaneRange.threads(0, Long.MAX_VALUE, 100, 1, 1, 8));
        assertEquals(0, LaneRange.threads(0, Long.MAX_VALUE, 7, 1, 1, 8));
        assertEquals(232, LaneRange.threads(768, 1000, 256, 1, 1, 8));
        assertEquals(0, LaneRange.threads(1024, 1000, 256, 1, 1, 8));
        assertEquals(0, LaneRange.threads(0, 1000, 256, 2, 1, 8));
        assertEquals(0, LaneRange.threads(0, 1000, 256, 1, 4, 8));
        // a negative first index (a C unsigned sum that wrapped) is left to the bounds check
        assertEquals(64, LaneRange.threads(-64, Long.MAX_VALUE, 64, 1, 1, 8));
        // indices past Integer.MAX_VALUE wrap in C: the threads after it run thread by thread
        assertEquals(0, LaneRange.threads(Integer.MAX_VALUE - 100, Long.MAX_VALUE, 256, 1, 1, 8));
        assertEquals(96, LaneRange.threads(Integer.MAX_VALUE - 95, Long.MAX_VALUE, 96, 1, 1, 8));
    }

    @Test
    void everyElementMustBeInsideAlignedAndWritable() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(4 * 100, 16);
            assertEquals(64, LaneRange.inside(64, s, 0, 36, 4, true));
            assertEquals(0, LaneRange.inside(64, s, 0, 37, 4, true));
            assertEquals(0, LaneRange.inside(64, s, 0, -1, 4, false));
            assertEquals(64, LaneRange.inside(64, s, 8, 34, 4, false));
            assertEquals(0, LaneRange.inside(64, s, 2, 0, 4, false));
            assertEquals(0, LaneRange.inside(64, s.asReadOnly(), 0, 0, 4, true));
            assertEquals(64, LaneRange.inside(64, s.asReadOnly(), 0, 0, 4, false));
            assertEquals(0, LaneRange.inside(64, null, 0, 0, 4, false));
            assertEquals(0, LaneRange.inside(8, MemorySegment.ofArray(new float[16]), 0, 0, 4, false));
            assertEquals(0, LaneRange.inside(0, s, 0, 0, 4, false));
        }
    }

    @Test
    void arraysMustStartTogetherOrNotOverlap() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(4 * 100, 16);
            MemorySegment t = arena.allocate(4 * 100, 16);
            assertEquals(32, LaneRange.apart(32, s, 0, s, 0, 10, 10, 4));
            assertEquals(32, LaneRange.apart(32, s, 0, t, 0, 10, 10, 4));
            assertEquals(32, LaneRange.apart(32, s, 0, s, 4 * 32, 0, 0, 4));
            assertEquals(0, LaneRange.apart(32, s, 0, s, 4 * 31, 0, 0, 4));
            assertEquals(0, LaneRange.apart(32, s, 4, s, 0, 0, 0, 4));
            assertEquals(32, LaneRange.apart(32, s.asSlice(8), 0, s, 8, 5, 5, 4));
            // z[i] and z[i + k]: apart from k = n on
            assertEquals(0, LaneRange.apart(32, s, 0, s, 0, 0, 31, 4));
            assertEquals(32, LaneRange.apart(32, s, 0, s, 0, 0, 32, 4));
            assertEquals(32, LaneRange.apart(32, s, 0, s, 4, 1, 0, 4));
        }
    }

    @Test
    void shiftedIndicesMustStayInsideAnInt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(4 * 100, 16);
            assertEquals(0, LaneRange.inside(8, s, 0, Integer.MAX_VALUE - 6L, 4, false));
            assertEquals(0, LaneRange.inside(8, s, 0, Integer.MIN_VALUE - 1L, 4, false));
        }
    }
}
