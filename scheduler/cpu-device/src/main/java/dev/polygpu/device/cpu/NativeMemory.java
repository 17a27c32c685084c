package dev.polygpu.device.cpu;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Zero-filled off-heap memory from the C library's {@code calloc}, released by {@code free}: what the CPU
 * device's buffers are made of.
 *
 * <p>Why not a shared {@link java.lang.foreign.Arena} per buffer: closing one makes the JVM stop every thread
 * in a handshake to check that none is accessing the arena's memory at that moment. That costs from about a
 * hundred microseconds to several milliseconds (with more threads and a busy machine), so a program that drops
 * many small arrays allocated them faster than they could be released, and its memory grew without bound.
 * {@code free} costs microseconds. The price is that a segment of this memory has the global scope: nothing stops
 * an access after {@link #free}; the buffer that owns the memory refuses its views once freed, and frees only
 * when no launch uses it (see {@link CpuBuffer}).
 *
 * <p>Thread-safety: stateless; {@code calloc} and {@code free} are thread-safe.
 */
final class NativeMemory {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle CALLOC = LINKER.downcallHandle(
            LINKER.defaultLookup().find("calloc").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle FREE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("free").orElseThrow(), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));

    /** A block from {@code calloc}: {@link #base} is what {@link #free} gives back, {@link #segment} the aligned part. */
    record Block(MemorySegment base, MemorySegment segment) {
    }

    private NativeMemory() {
    }

    /**
     * {@code bytes} zero-filled bytes whose first byte is aligned to {@code alignment} (a power of two), or null
     * when the C library has no memory to give.
     */
    static Block allocate(long bytes, long alignment) {
        long padded = Math.addExact(bytes, alignment - 1);
        MemorySegment base;
        try {
            // calloc rather than malloc and a fill: large blocks come as fresh zero pages the kernel maps lazily.
            base = (MemorySegment) CALLOC.invokeExact(1L, padded);
        } catch (Throwable t) {
            throw new IllegalStateException("calling the C library's calloc failed", t);
        }
        if (base.address() == 0) {
            return null;
        }
        long aligned = (base.address() + alignment - 1) & -alignment;
        return new Block(base, MemorySegment.ofAddress(aligned).reinterpret(bytes));
    }

    /** Gives a block back to the C library; the block's memory must not be used afterwards. */
    static void free(Block block) {
        try {
            FREE.invokeExact(block.base());
        } catch (Throwable t) {
            throw new IllegalStateException("calling the C library's free failed", t);
        }
    }
}
