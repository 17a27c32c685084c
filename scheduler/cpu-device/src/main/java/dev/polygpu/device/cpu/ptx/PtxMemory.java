package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The memory a block's threads address: global memory (device buffers and the module's {@code .global} and
 * {@code .const} variables, by 64-bit address), the block's shared memory and each thread's local memory, with
 * the generic address space that covers all three. Every access is checked: its address must be a multiple of
 * its size (else MISALIGNED_ADDRESS) and lie wholly inside one region (else ILLEGAL_ADDRESS).
 *
 * <p>Generic addresses: global addresses are the buffers' native addresses (below 2^56 on every 64-bit host);
 * shared-space address {@code a} is generic {@link #SHARED_WINDOW}{@code + a} and local-space {@code a} is
 * {@link #LOCAL_WINDOW}{@code + a}, as a GPU maps its shared and local windows into the generic space.
 *
 * <p>Implementation notes: one instance per {@link PtxBlockRunner}, so per worker thread; not thread-safe. A
 * lookup leaves the segment in {@link #seg} and returns the offset in it, to spare an allocation per access.
 * The last four global regions found are cached; a region freed since makes its segment's accesses throw
 * {@link IllegalStateException}, which the runner reports as an illegal address.
 *
 * <p>Read-only parameters: a buffer the launch passes read-only ({@link LaunchFrame}) is found first, as a
 * region over its read-only view, so every access to it during the launch sees that view, whichever address
 * arithmetic led there (a flat address does not say which parameter it came from, so a buffer that another
 * parameter passes writable stays writable through every address); stores and atomics go
 * through {@link #atWrite}, which refuses such a region with a fault naming the parameter. The cache is emptied
 * at each launch, so that it holds no writable region of a buffer that this launch passes read-only.
 */
final class PtxMemory {
    static final long SHARED_WINDOW = 1L << 60;
    static final long LOCAL_WINDOW = 2L << 60;
    static final long WINDOW_SIZE = 1L << 32;

    static final int GLOBAL = 0;
    static final int SHARED = 1;
    static final int LOCAL = 2;
    static final int GENERIC = 3;
    private static final GlobalMemory.Region[] NO_REGIONS = new GlobalMemory.Region[0];

    private final GlobalMemory global;
    private final GlobalMemory.Region[] moduleRegions;
    /** The last regions found, most recent first (a kernel usually walks a few buffers at once). */
    private final GlobalMemory.Region[] cache = new GlobalMemory.Region[4];
    /** The buffers the current launch passes read-only, over their read-only views. */
    private GlobalMemory.Region[] readOnly = NO_REGIONS;
    private LaunchFrame frame;

    MemorySegment shared;
    /** Shared memory: [0, staticEnd) static variables, [dynBase, dynEnd) the launch's dynamic shared memory. */
    long staticEnd;
    long dynBase;
    long dynEnd;
    MemorySegment local;
    long localPerThread;
    MemorySegment kernelParams;
    /** The block being run: %ctaid, %ntid, %nctaid. */
    int ctaX;
    int ctaY;
    int ctaZ;
    int ntX;
    int ntY;
    int ntZ;
    int nctaX;
    int nctaY;
    int nctaZ;
    /** The segment of the last lookup. */
    MemorySegment seg;

    PtxMemory(GlobalMemory global, GlobalMemory.Region[] moduleRegions) {
        this.global = global;
        this.moduleRegions = moduleRegions;
    }

    /** The stop request of the launch whose blocks run now. */
    dev.polygpu.device.cpu.kernel.LaunchCancellation cancellation() {
        return frame.cancellation();
    }

    /** Prepares for the blocks of {@code f}: its read-only buffers, an empty region cache. */
    void beginLaunch(LaunchFrame f) {
        frame = f;
        List<GlobalMemory.Region> found = new ArrayList<>();
        MemorySegment[] segments = f.segments();
        for (int i = 0; i < segments.length; i++) {
            MemorySegment s = segments[i];
            if (s != null && s.isReadOnly() && s.byteSize() > 0 && !passedWritable(segments, s)) {
                found.add(new GlobalMemory.Region(s.address(), s, "buffer #" + f.bufferIds()[i] + " ("
                        + s.byteSize() + " bytes, passed read-only as parameter '" + f.names()[i] + "')"));
            }
        }
        readOnly = found.isEmpty() ? NO_REGIONS : found.toArray(NO_REGIONS);
        Arrays.fill(cache, null);
    }

    /** True if some parameter is bound writable to the memory of {@code readOnly}, which it then may write. */
    private static boolean passedWritable(MemorySegment[] segments, MemorySegment readOnly) {
        for (MemorySegment s : segments) {
            if (s != null && !s.isReadOnly() && s.address() == readOnly.address()) {
                return true;
            }
        }
        return false;
    }

    /**
     * As {@link #at}, for an access that writes: NOT_PERMITTED if it lands in a buffer the launch passes
     * read-only.
     */
    long atWrite(int space, PtxThread t, long addr, int size) {
        long off = at(space, t, addr, size);
        if (seg.isReadOnly()) {
            throw new PtxTrap(CudaError.NOT_PERMITTED, KernelFault.readOnlyWrite(frame.readOnlyParameters(seg))
                    + " (a write of " + size + " bytes at byte " + off + " of the buffer)");
        }
        return off;
    }

    /** The offset of {@code [addr, addr + size)} in space {@code space}, its segment left in {@link #seg}. */
    long at(int space, PtxThread t, long addr, int size) {
        if ((addr & (size - 1)) != 0) {
            throw new PtxTrap(CudaError.MISALIGNED_ADDRESS, "misaligned access of " + size + " bytes at "
                    + spaceName(space) + " address 0x" + Long.toHexString(addr));
        }
        return switch (space) {
            case GLOBAL -> global(addr, size);
            case SHARED -> shared(addr, size);
            case LOCAL -> local(t, addr, size);
            default -> generic(t, addr, size);
        };
    }

    long generic(PtxThread t, long addr, int size) {
        if (addr - SHARED_WINDOW >= 0 && addr - SHARED_WINDOW < WINDOW_SIZE) {
            return shared(addr - SHARED_WINDOW, size);
        }
        if (addr - LOCAL_WINDOW >= 0 && addr - LOCAL_WINDOW < WINDOW_SIZE) {
            return local(t, addr - LOCAL_WINDOW, size);
        }
        return global(addr, size);
    }

    long global(long addr, int size) {
        GlobalMemory.Region[] cached = cache;
        for (int i = 0; i < cached.length; i++) {
            GlobalMemory.Region c = cached[i];
            if (c != null && addr - c.base() >= 0 && addr - c.base() <= c.size() - size) {
                if (i != 0) {
                    cached[i] = cached[0];
                    cached[0] = c;
                }
                seg = c.segment();
                return addr - c.base();
            }
        }
        GlobalMemory.Region c = find(addr);
        if (c == null || addr - c.base() < 0 || addr - c.base() > c.size() - size) {
            throw new PtxTrap(CudaError.ILLEGAL_ADDRESS, addr == 0 ? "null pointer dereference (" + size
                    + " bytes)" : "access of " + size + " bytes at global address 0x" + Long.toHexString(addr)
                    + (c == null ? ", which is in no buffer" : ", " + (addr - c.base()) + " bytes from the start of "
                    + c.name() + ", past its end"));
        }
        System.arraycopy(cached, 0, cached, 1, cached.length - 1);
        cached[0] = c;
        seg = c.segment();
        return addr - c.base();
    }

    private GlobalMemory.Region find(long addr) {
        for (GlobalMemory.Region r : readOnly) {
            if (addr - r.base() >= 0 && addr - r.base() < r.size()) {
                return r;
            }
        }
        for (GlobalMemory.Region r : moduleRegions) {
            if (addr - r.base() >= 0 && addr - r.base() < r.size()) {
                return r;
            }
        }
        GlobalMemory.Region r = global.regionAt(addr);
        for (GlobalMemory.Region m : moduleRegions) {
            if (addr - m.base() >= 0 && (r == null || m.base() > r.base())) {
                r = m; // the nearest region below, for the message
            }
        }
        return r;
    }

    long shared(long addr, int size) {
        boolean inStatic = addr >= 0 && addr + size <= staticEnd;
        boolean inDynamic = addr >= dynBase && addr + size <= dynEnd;
        if (!inStatic && !inDynamic) {
            throw new PtxTrap(CudaError.ILLEGAL_ADDRESS, "access of " + size + " bytes at shared address 0x"
                    + Long.toHexString(addr) + ", outside the block's shared memory (" + staticEnd
                    + " static bytes" + (dynEnd > dynBase ? ", " + (dynEnd - dynBase) + " dynamic bytes at 0x"
                    + Long.toHexString(dynBase) : "") + ")");
        }
        seg = shared;
        return addr;
    }

    long local(PtxThread t, long addr, int size) {
        if (addr < 0 || addr + size > localPerThread) {
            throw new PtxTrap(CudaError.ILLEGAL_ADDRESS, "access of " + size + " bytes at local address 0x"
                    + Long.toHexString(addr) + ", outside the thread's " + localPerThread + " bytes of local memory");
        }
        seg = local;
        return t.localStart + addr;
    }

    static String spaceName(int space) {
        return switch (space) {
            case GLOBAL -> "global";
            case SHARED -> "shared";
            case LOCAL -> "local";
            default -> "generic";
        };
    }
}
