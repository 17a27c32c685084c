package dev.polygpu.device.cpu.kernel.exec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The entry check of strided loops at the edges where the index's last step would just fit or just wrap: the
 * loop {@code for (…; i < b; i += s)} has its largest index at {@code b - 1}, so it ends by itself exactly when
 * {@code s > 0} and {@code b - 1 + s} is still in the type.
 */
class StridedLoopsTest {
    @Test
    void signedInt() {
        assertTrue(StridedLoops.ends(Integer.MAX_VALUE, 1));       // MAX - 1 + 1 = MAX
        assertFalse(StridedLoops.ends(Integer.MAX_VALUE, 2));      // MAX - 1 + 2 wraps
        assertTrue(StridedLoops.ends(Integer.MAX_VALUE - 9, 10));  // MAX - 10 + 10 = MAX
        assertFalse(StridedLoops.ends(Integer.MAX_VALUE - 9, 11));
        assertTrue(StridedLoops.ends(Integer.MIN_VALUE, Integer.MAX_VALUE)); // no index is below MIN: no iteration
        assertFalse(StridedLoops.ends(100, 0));                    // a zero step never ends
        assertFalse(StridedLoops.ends(100, -1));                   // nor does a negative one, towards MIN
    }

    @Test
    void unsignedInt() {
        assertTrue(StridedLoops.endsUnsigned(-1, 1));               // 2^32 - 2 + 1 = 2^32 - 1
        assertFalse(StridedLoops.endsUnsigned(-1, 2));
        assertTrue(StridedLoops.endsUnsigned(1, -1));               // only i = 0, and 0 + (2^32 - 1) fits
        assertFalse(StridedLoops.endsUnsigned(2, -1));              // i = 1: 1 + (2^32 - 1) wraps to 0
        assertTrue(StridedLoops.endsUnsigned(0x8000_0000, 0x8000_0000)); // 2^31 - 1 + 2^31 = 2^32 - 1
        assertFalse(StridedLoops.endsUnsigned(0x8000_0001, 0x8000_0000));
        assertFalse(StridedLoops.endsUnsigned(5, 0));
    }

    @Test
    void signedLong() {
        assertTrue(StridedLoops.ends(Long.MAX_VALUE, 1L));
        assertFalse(StridedLoops.ends(Long.MAX_VALUE, 2L));
        assertTrue(StridedLoops.ends(Long.MAX_VALUE - 99, 100L));
        assertFalse(StridedLoops.ends(Long.MAX_VALUE - 99, 101L));
        assertTrue(StridedLoops.ends(Long.MIN_VALUE, Long.MAX_VALUE));
        assertFalse(StridedLoops.ends(7L, 0L));
        assertFalse(StridedLoops.ends(7L, Long.MIN_VALUE));
    }

    @Test
    void unsignedLong() {
        assertTrue(StridedLoops.endsUnsigned(-1L, 1L));             // 2^64 - 2 + 1 = 2^64 - 1
        assertFalse(StridedLoops.endsUnsigned(-1L, 2L));
        assertTrue(StridedLoops.endsUnsigned(1L, -1L));
        assertFalse(StridedLoops.endsUnsigned(2L, -1L));
        assertTrue(StridedLoops.endsUnsigned(Long.MIN_VALUE, Long.MIN_VALUE)); // 2^63 - 1 + 2^63 = 2^64 - 1
        assertFalse(StridedLoops.endsUnsigned(Long.MIN_VALUE + 1, Long.MIN_VALUE));
        assertFalse(StridedLoops.endsUnsigned(3L, 0L));
    }
}
