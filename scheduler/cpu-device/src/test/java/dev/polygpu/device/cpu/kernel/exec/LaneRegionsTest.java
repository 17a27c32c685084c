package dev.polygpu.device.cpu.kernel.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The run-time checks of region lanes, on values worked out by hand. */
class LaneRegionsTest {
    @Test
    void aConditionHoldsForAGroupOrForNoneOfIt() {
        // lanes 0 … 7 compare 0 + j with 8, with 5, and 8 + j with 8
        assertEquals(1, LaneRegions.less(0, 8, 7, 8));
        assertEquals(-1, LaneRegions.less(0, 5, 7, 5));
        assertEquals(0, LaneRegions.less(8, 8, 15, 8));
        // 3 >= 0 + j for j = 0 … 3 is 0 + j <= 3
        assertEquals(1, LaneRegions.lessOrEqual(0, 3, 3, 3));
        assertEquals(-1, LaneRegions.lessOrEqual(0, 2, 3, 2));
    }

    @Test
    void indicesThatWrapWithinAGroupAreRefused() {
        assertTrue(LaneRegions.noWrap(Integer.MAX_VALUE - 7, 8));
        assertFalse(LaneRegions.noWrap(Integer.MAX_VALUE - 6, 8));
        assertTrue(LaneRegions.noWrap(-5, 8));
        assertTrue(LaneRegions.noWrapUnsigned(-8, 8));                      // 0xFFFFFFF8 … 0xFFFFFFFF
        assertFalse(LaneRegions.noWrapUnsigned(-7, 8));
        assertTrue(LaneRegions.noWrapUnsigned(0, 8));
    }

    @Test
    void elementsMustLieInsideTheirArrayAligned() {
        MemorySegment s = Arena.ofAuto().allocate(64, 16);
        assertTrue(LaneRegions.inside(s, 32, 32));
        assertFalse(LaneRegions.inside(s, 36, 32));                          // one element past the end
        assertFalse(LaneRegions.inside(null, 0, 4));
        assertTrue(LaneRegions.aligned(s, 32, 4));
        assertFalse(LaneRegions.aligned(s, 2, 4));
        assertTrue(LaneRegions.aligned(s, 8, 8));
        assertFalse(LaneRegions.aligned(s, 4, 8));
        assertFalse(LaneRegions.writable(s.asReadOnly()));
        assertTrue(LaneRegions.writable(s));
    }

    @Test
    void aStoreMayNotLandWhereALowerLaneReadItFirst() {
        // the group stores 32 bytes (8 floats) at address 1016
        long w = 1016;
        assertTrue(LaneRegions.laterOrApart(1016, w, 32));                   // each lane its own element
        assertTrue(LaneRegions.laterOrApart(1020, w, 32));                   // s[t + 1]: a later lane's
        assertFalse(LaneRegions.laterOrApart(1012, w, 32));                  // s[t - 1]: a lower lane's
        assertTrue(LaneRegions.laterOrApart(984, w, 32));                    // ends where the store starts
        assertFalse(LaneRegions.apart(1016, w, 32, 4));                      // every lane reads s[4], stored
        assertFalse(LaneRegions.apart(1044, w, 32, 4));                      // the last lane's element
        assertTrue(LaneRegions.apart(1048, w, 32, 4));
        assertTrue(LaneRegions.apart(1012, w, 32, 4));
    }
}
