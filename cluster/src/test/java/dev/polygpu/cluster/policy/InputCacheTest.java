package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InputCacheTest {

    @Test
    void aKeptArrayIsFoundOnlyWithTheSameOwnerIdAndFingerprint() {
        InputCache<String, String> c = new InputCache<>(100);
        assertTrue(c.put("m1", 7, "v1", "bytes of 7", 10));
        assertEquals("bytes of 7", c.get("m1", 7, "v1"));
        assertNull(c.get("m2", 7, "v1"), "another owner's array 7 is another array");
        assertNull(c.get("m1", 8, "v1"));
        assertEquals(1, c.hits());
        assertEquals(2, c.misses());
    }

    @Test
    void changedContentsMissAndDropTheOldEntry() {
        InputCache<String, String> c = new InputCache<>(100);
        c.put("m1", 7, "v1", "old", 10);
        assertNull(c.get("m1", 7, "v2"), "the owner changed the array since");
        assertEquals(0, c.size());
        assertEquals(0, c.usedBytes());
        assertNull(c.get("m1", 7, "v1"), "dropped, not kept beside the new contents");
    }

    @Test
    void theLeastRecentlyUsedGoFirstWhenFull() {
        InputCache<String, Integer> c = new InputCache<>(30);
        c.put("m", 1, "f", 1, 10);
        c.put("m", 2, "f", 2, 10);
        c.put("m", 3, "f", 3, 10);
        assertEquals(1, c.get("m", 1, "f"), "touch 1: now 2 is the least recently used");
        c.put("m", 4, "f", 4, 15);
        assertNull(c.get("m", 2, "f"));
        assertNull(c.get("m", 3, "f"), "15 more bytes needed two evictions");
        assertEquals(1, c.get("m", 1, "f"));
        assertEquals(4, c.get("m", 4, "f"));
        assertEquals(25, c.usedBytes());
        assertEquals(2, c.evictions());
    }

    @Test
    void replacingAnArrayFreesItsOldBytes() {
        InputCache<String, Integer> c = new InputCache<>(30);
        c.put("m", 1, "a", 1, 20);
        c.put("m", 1, "b", 2, 25);
        assertEquals(25, c.usedBytes());
        assertEquals(1, c.size());
        assertEquals(0, c.evictions());
    }

    @Test
    void anArrayLargerThanTheCacheIsNotKeptAndCapacityZeroKeepsNothing() {
        InputCache<String, Integer> c = new InputCache<>(30);
        c.put("m", 1, "a", 1, 10);
        assertFalse(c.put("m", 2, "a", 2, 31));
        assertEquals(1, c.get("m", 1, "a"), "what was kept stays");
        InputCache<String, Integer> off = new InputCache<>(0);
        assertFalse(off.put("m", 1, "a", 1, 1));
        assertTrue(off.put("m", 2, "a", 2, 0), "an empty array fits anywhere");
        assertNull(off.get("m", 1, "a"));
    }

    @Test
    void forgettingAnOwnerDropsOnlyItsArrays() {
        InputCache<String, Integer> c = new InputCache<>(100);
        c.put("m1", 1, "a", 1, 10);
        c.put("m2", 1, "a", 2, 10);
        c.put("m1", 2, "a", 3, 10);
        c.forgetOwner("m1");
        assertEquals(1, c.size());
        assertEquals(10, c.usedBytes());
        assertEquals(2, c.get("m2", 1, "a"));
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new InputCache<String, String>(-1));
        InputCache<String, String> c = new InputCache<>(10);
        assertThrows(IllegalArgumentException.class, () -> c.put("m", 1, "a", "x", -1));
        assertThrows(NullPointerException.class, () -> c.put(null, 1, "a", "x", 1));
        assertThrows(NullPointerException.class, () -> c.get("m", 1, null));
    }
}
