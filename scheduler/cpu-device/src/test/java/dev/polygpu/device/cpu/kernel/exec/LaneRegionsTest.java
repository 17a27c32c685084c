package dev.polygpu.device.cpu.kernel.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The run-time checks of region lanes, on values worked out by hand. */
class LaneRegionsTest {
    private static final int LT = 0;
    private static final int GT = 2;
    private static final int GE = 3;

    @Test
    void aConditionHoldsForAGroupOrForNoneOfIt() {
        assertEquals(1, LaneRegions.decide(0, 1, 8, 0, 8, LT, false));      // 0 … 7 < 8
        assertEquals(-1, LaneRegions.decide(0, 1, 5, 0, 8, LT, false));     // 0 … 4 < 5, 5 … 7 not
        assertEquals(0, LaneRegions.decide(8, 1, 8, 0, 8, LT, false));      // 8 … 15 < 8: none
        assertEquals(1, LaneRegions.decide(3, 0, 0, 1, 4, GE, false));      // 3 >= 0 … 3
        assertEquals(-1, LaneRegions.decide(Integer.MAX_VALUE - 3, 1, 0, 0, 8, GT, false)); // would wrap
        assertEquals(1, LaneRegions.decide(-1, 0, 5, 0, 8, GT, true));      // 0xFFFFFFFF > 5 unsigned
        assertEquals(0, LaneRegions.decide(-1, 0, 5, 0, 8, GT, false));     // -1 > 5 signed: no
        assertEquals(-1, LaneRegions.decide(-4, 1, 0, 0, 8, GT, true));     // 0xFFFFFFFC + 7 wraps unsigned
    }

    @Test
    void indicesThatWrapWithinAGroupAreRefused() {
        assertTrue(LaneRegions.noWrap(Integer.MAX_VALUE - 7, 8, false));
        assertFalse(LaneRegions.noWrap(Integer.MAX_VALUE - 6, 8, false));
        assertTrue(LaneRegions.noWrap(-8, 8, true));                         // 0xFFFFFFF8 … 0xFFFFFFFF
        assertFalse(LaneRegions.noWrap(-7, 8, true));
    }

    @Test
    void elementsMustLieInsideTheirArrayAligned() {
        MemorySegment s = Arena.ofAuto().allocate(64, 16);
        assertTrue(LaneRegions.fits(s, 32, 32, 4));
        assertFalse(LaneRegions.fits(s, 36, 32, 4));                         // one element past the end
        assertFalse(LaneRegions.fits(s, -4, 8, 4));
        assertFalse(LaneRegions.fits(s, 2, 8, 4));                           // misaligned
        assertFalse(LaneRegions.fits(null, 0, 4, 4));
    }

    @Test
    void aStoreMayNotLandWhereALowerLaneReadItFirst() {
        MemorySegment s = Arena.ofAuto().allocate(128, 16);
        MemorySegment other = Arena.ofAuto().allocate(128, 16);
        // the group stores 32 bytes (8 floats) at 16
        assertTrue(LaneRegions.laterOrApart(s, 16, s, 16, 32));              // each lane its own element
        assertTrue(LaneRegions.laterOrApart(s, 16, s, 20, 32));              // s[t + 1]: a later lane's
        assertFalse(LaneRegions.laterOrApart(s, 16, s, 12, 32));             // s[t - 1]: a lower lane's
        assertTrue(LaneRegions.laterOrApart(s, 16, s, -16, 32));             // ends where the store starts
        assertTrue(LaneRegions.laterOrApart(s, 16, null, 0, 32));            // not loaded
        assertTrue(LaneRegions.laterOrApart(s, 16, other, 16, 32));          // other memory
        assertFalse(LaneRegions.apart(s, 16, s, 16, 32, 4));                 // every lane reads s[4], stored
        assertFalse(LaneRegions.apart(s, 16, s, 44, 32, 4));                 // the last lane's element
        assertTrue(LaneRegions.apart(s, 16, s, 48, 32, 4));
        assertTrue(LaneRegions.apart(s, 16, s, 12, 32, 4));
        assertTrue(LaneRegions.apart(s, 16, null, 0, 32, 4));
    }
}
