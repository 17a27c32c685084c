package dev.polygpu.device.cpu.ptx;

import java.lang.foreign.MemorySegment;

/**
 * The device's global memory as a PTX kernel sees it: flat 64-bit addresses. The CPU device answers with the
 * live buffer that holds an address (its address index); PTX kernels resolve every global or generic access
 * outside shared and local memory through it.
 */
@FunctionalInterface
public interface GlobalMemory {

    /**
     * The live region with the greatest base at or below {@code address} (it holds the address unless the
     * address lies past its end), or null when there is none. Thread-safe.
     */
    Region regionAt(long address);

    /**
     * A block of global memory: its first address, its segment (whose accesses fail once it is freed) and a
     * name for fault messages ({@code buffer #3 (4096 bytes)}).
     */
    record Region(long base, MemorySegment segment, String name) {
        public long size() {
            return segment.byteSize();
        }
    }
}
