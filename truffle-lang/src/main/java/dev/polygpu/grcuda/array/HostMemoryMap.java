package dev.polygpu.grcuda.array;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether a range of host addresses lies in memory this process has mapped with the access a copy needs, as the
 * kernel lists it in {@code /proc/self/maps} (Linux): the check that lets an array's {@code copyFrom}/{@code copyTo}
 * take a raw host address (numpy's {@code a.ctypes.data}) without risking a fault on an unmapped byte.
 *
 * <p>The map is read again for every check rather than cached: a cached view would still list memory that was
 * unmapped since (an arena closed, a buffer freed), and a copy through such an address would crash the process.
 * What the program unmaps while a copy runs is its own race, as in C.
 */
final class HostMemoryMap {
    /** Where Linux lists the process's mappings. */
    static final Path MAPS = Path.of("/proc/self/maps");

    private HostMemoryMap() {
    }

    /** True where the process's memory map can be read (Linux), so host addresses can be checked at all. */
    static boolean available() {
        return Files.isReadable(MAPS);
    }

    /**
     * Null if every byte of [{@code address}, {@code address + bytes}) is mapped readable (and writable if
     * {@code write}); otherwise why not, naming the first byte that is not ("0x… is not mapped", "0x… is in a
     * mapping without write access (r--p …)"). {@code bytes} is positive and the range does not wrap.
     */
    static String whyNot(long address, long bytes, boolean write) throws IOException {
        return whyNot(Files.readAllLines(MAPS), address, bytes, write);
    }

    /** As {@link #whyNot(long, long, boolean)}, against the lines of a memory map in ascending order. */
    static String whyNot(List<String> maps, long address, long bytes, boolean write) {
        long end = address + bytes;
        long at = address;
        for (String line : maps) {
            Region r = Region.parse(line);
            if (r == null || Long.compareUnsigned(r.end, at) <= 0) {
                continue;
            }
            if (Long.compareUnsigned(r.start, at) > 0) {
                break;
            }
            if (!r.allows(write)) {
                return Allocations.hex(at) + " is in a mapping without " + (write ? "write" : "read")
                        + " access (" + r.describe() + ")";
            }
            at = r.end;
            if (Long.compareUnsigned(at, end) >= 0) {
                return null;
            }
        }
        return Allocations.hex(at) + " is not mapped";
    }

    /** One line of the map: start and end (exclusive), permissions ({@code rw-p}) and what is mapped. */
    private record Region(long start, long end, String permissions, String name) {
        static Region parse(String line) {
            String[] f = line.trim().split("\\s+", 6);
            int dash = f[0].indexOf('-');
            if (f.length < 2 || dash < 0) {
                return null;
            }
            return new Region(Long.parseUnsignedLong(f[0], 0, dash, 16),
                    Long.parseUnsignedLong(f[0], dash + 1, f[0].length(), 16), f[1], f.length == 6 ? f[5] : "");
        }

        /**
         * The kernel's clock pages ({@code [vvar]}, {@code [vvar_vclock]}) are listed readable, yet some of
         * their pages fault when read, so they count as unreadable.
         */
        boolean allows(boolean write) {
            return permissions.charAt(0) == 'r' && (!write || permissions.charAt(1) == 'w')
                    && !name.startsWith("[vvar");
        }

        String describe() {
            return Allocations.hex(start) + "-" + Allocations.hex(end) + " " + permissions
                    + (name.isEmpty() ? "" : " " + name);
        }
    }
}
