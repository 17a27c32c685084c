package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * An array's {@code copyFrom}/{@code copyTo} through a raw host address outside polygpu's own allocations
 * (GrCUDA programs pass numpy's {@code a.ctypes.data}). GrCUDA copies through any such address, trusting it; polygpu
 * copies only when every byte of the range is mapped by the process with the access the copy needs
 * ({@link HostMemoryMap}) and none lies in one of its own allocations (work on those is ordered by the scheduler,
 * which such a copy would bypass); anything else is a guest error naming the address, the range and what to pass
 * instead. The copy is synchronous, as the host list and array copies are: it waits for the device work on the
 * array first.
 */
final class HostAddressCopy {
    private HostAddressCopy() {
    }

    /** Copies {@code n} elements from the host memory at {@code address} into the array. */
    @TruffleBoundary
    static void from(Allocations allocations, ArrayMemory m, long address, long n) {
        long bytes = n * m.type.size;
        MemorySegment host = checked(allocations, m, address, bytes, n, false);
        if (host != null) {
            copy(host, m.writeSegment(), bytes, m, address, "copyFrom");
        }
    }

    /** Copies {@code n} elements of the array into the host memory at {@code address}. */
    @TruffleBoundary
    static void to(Allocations allocations, ArrayMemory m, long address, long n) {
        long bytes = n * m.type.size;
        MemorySegment host = checked(allocations, m, address, bytes, n, true);
        if (host != null) {
            copy(m.readSegment(), host, bytes, m, address, "copyTo");
        }
    }

    /** The host memory to copy through, null for a copy of no bytes, or a guest error saying why not. */
    private static MemorySegment checked(Allocations allocations, ArrayMemory m, long address, long bytes, long n,
            boolean write) {
        String function = write ? "copyTo" : "copyFrom";
        String role = function + ": the " + (write ? "destination" : "source") + " is the address "
                + Allocations.hex(address);
        if (bytes == 0) {
            return null;
        }
        String remedy = "; pass the host " + (write ? "list or array to fill" : "list or array itself")
                + ", a device array or GPUPointer, or the address of host memory that holds all " + n + " elements ("
                + bytes + " bytes)";
        if (!HostMemoryMap.available()) {
            throw GrError.of(role + ", which is not inside any live allocation of this context, and polygpu takes"
                    + " another host address only where it can check it against the process's memory map ("
                    + HostMemoryMap.MAPS + ", Linux), which cannot be read here" + remedy);
        }
        long end = address + bytes;
        String range = "the " + bytes + " bytes from " + Allocations.hex(address) + " to " + Allocations.hex(end);
        if (address <= 0 || end <= address) {
            throw GrError.of(role + ": " + range + " are not a range of host memory" + remedy);
        }
        GrDeviceMemory inside = allocations.firstIn(address, end);
        if (inside != null) {
            throw GrError.of(role + ", which is not inside any live allocation of this context, but " + range
                    + " reach into " + inside.describe() + "; copy to or from that allocation's own address, with a"
                    + " count within it, or pass the device array itself");
        }
        String why;
        try {
            why = HostMemoryMap.whyNot(address, bytes, write);
        } catch (IOException e) {
            throw GrError.of(role + ": cannot read the process's memory map (" + HostMemoryMap.MAPS + ") to check "
                    + range + ": " + e.getMessage() + remedy);
        }
        if (why != null) {
            throw GrError.of(role + ", which is not inside any live allocation of this context, and " + range
                    + " are not all in memory this process has mapped " + (write ? "writable" : "readable") + " ("
                    + why + ")" + remedy);
        }
        return MemorySegment.ofAddress(address).reinterpret(bytes);
    }

    /**
     * The copy itself. A mapping of a file past the file's end is listed in the map yet faults when touched;
     * the JVM reports that fault in a bulk copy as an {@link InternalError}, which becomes a guest error here.
     */
    private static void copy(MemorySegment src, MemorySegment dst, long bytes, ArrayMemory m, long address,
            String function) {
        try {
            MemorySegment.copy(src, 0, dst, 0, bytes);
        } catch (InternalError e) {
            throw GrError.of(function + ": the memory at " + Allocations.hex(address) + " is mapped but faulted when "
                    + (function.equals("copyTo") ? "written" : "read") + " (" + e.getMessage() + "; a mapped file"
                    + " shorter than its mapping?); " + m.description + " may be partly copied");
        }
    }
}
