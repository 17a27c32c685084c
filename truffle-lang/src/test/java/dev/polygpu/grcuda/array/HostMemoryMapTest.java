package dev.polygpu.grcuda.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The range check against a memory map, on a map written by hand in the kernel's {@code /proc/self/maps}
 * format: adjacent mappings chain, a gap or a missing permission stops the range at its first byte.
 */
class HostMemoryMapTest {
    private static final List<String> MAPS = List.of(
            "00400000-00401000 r-xp 00000000 08:01 1234                       /usr/bin/prog",
            "10000000-10002000 rw-p 00000000 00:00 0",
            "10002000-10003000 r--p 00000000 00:00 0",
            "10003000-10004000 rw-p 00000000 00:00 0",
            "10005000-10006000 rw-p 00000000 00:00 0",
            "7ffd0000-7ffd1000 r--p 00000000 00:00 0                          [vvar]",
            "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0          [vsyscall]");

    @Test
    void aRangeAcrossAdjacentMappingsIsReadable() {
        assertNull(HostMemoryMap.whyNot(MAPS, 0x10001ff0L, 0x2010L, false));   // 0x10001ff0 to 0x10004000
        assertNull(HostMemoryMap.whyNot(MAPS, 0x10000000L, 0x2000L, true));
        assertNull(HostMemoryMap.whyNot(MAPS, 0x400010L, 16, false));
    }

    @Test
    void theFirstByteOutsideIsNamed() {
        assertEquals("0x10004000 is not mapped", HostMemoryMap.whyNot(MAPS, 0x10003ff0L, 0x20L, false));
        assertEquals("0x8 is not mapped", HostMemoryMap.whyNot(MAPS, 8, 4, false));
        assertEquals("0xfffffffff000 is not mapped", HostMemoryMap.whyNot(MAPS, 0xfffffffff000L, 4, false));
    }

    @Test
    void writesNeedWriteAccess() {
        assertEquals("0x10002000 is in a mapping without write access (0x10002000-0x10003000 r--p)",
                HostMemoryMap.whyNot(MAPS, 0x10001ffcL, 8, true));
        assertEquals("0x400000 is in a mapping without write access (0x400000-0x401000 r-xp /usr/bin/prog)",
                HostMemoryMap.whyNot(MAPS, 0x400000L, 4, true));
    }

    @Test
    void kernelPagesAreRefused() {
        assertEquals("0x7ffd0000 is in a mapping without read access (0x7ffd0000-0x7ffd1000 r--p [vvar])",
                HostMemoryMap.whyNot(MAPS, 0x7ffd0000L, 8, false));
    }
}
