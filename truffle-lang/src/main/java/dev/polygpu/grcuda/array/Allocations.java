package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.runtime.TrackedArray;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live device memory of one context (device arrays and {@code cudaMalloc} memory) by start address, so that
 * a raw address (an integer from an array's {@code pointer}, or any interop pointer) is checked against what
 * the context allocated and resolved to the allocation it falls in: polygpu never touches memory through an
 * address it cannot place, and the scheduler orders work on it as on the array it belongs to.
 *
 * <p>Device arrays are held weakly: an array no guest can reach any more (a raw address is not a reference) is
 * released by the context's {@link #cleaner()} after the device work that uses it ({@link ArrayMemory}).
 * {@code cudaMalloc} memory is held strongly: a guest may keep only its address, as in CUDA, and it is freed by
 * {@code cudaFree} alone.
 *
 * <p>Thread-safety: concurrent collections; allocations are added when created and removed when freed.
 */
public final class Allocations {
    private final ConcurrentSkipListMap<Long, Slot> byAddress = new ConcurrentSkipListMap<>();
    private final Cleaner cleaner = Cleaner.create();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    /** One allocation: held strongly ({@code cudaMalloc} memory) or weakly (a device array). */
    static final class Slot {
        private final ArrayMemory strong;
        private final WeakReference<ArrayMemory> weak;

        Slot(ArrayMemory m) {
            this.strong = m.typed ? null : m;
            this.weak = m.typed ? new WeakReference<>(m) : null;
        }

        /** The memory, or null once a device array was dropped. */
        ArrayMemory get() {
            return strong != null ? strong : weak.get();
        }
    }

    /**
     * Allocated bytes after which a collection is hinted, at the least: the collector does not see device or
     * off-heap memory, so without hints dropped arrays would wait for a collection the heap alone prompts.
     */
    static final long MIN_HINT_BYTES = 64L << 20;
    /** Bytes allocated since the last hint. */
    private final AtomicLong sinceHint = new AtomicLong();
    /** The device's allocated bytes at the last hint (garbage not yet released included). */
    private volatile long liveAtHint;

    /**
     * Counts {@code bytes} just allocated on a device that now holds {@code allocatedNow}, and hints a collection
     * ({@link System#gc()}) once the bytes allocated since the last hint exceed both {@link #MIN_HINT_BYTES} and
     * what the device held at that hint: a loop that drops what it allocates then holds about
     * 2 × {@link #MIN_HINT_BYTES} at most, and a program whose arrays all stay live triggers one hint each time its
     * memory doubles.
     */
    void allocated(long bytes, long allocatedNow) {
        long since = sinceHint.addAndGet(bytes);
        if (since > Math.max(MIN_HINT_BYTES, liveAtHint) && sinceHint.compareAndSet(since, 0)) {
            liveAtHint = allocatedNow;
            System.gc();
        }
    }

    /**
     * How many threads use the context now ({@link #threadEntered}, {@link #threadLeft}): with more than one,
     * {@code free()} leaves the release to the Cleaner ({@link ArrayMemory#free()} says why).
     */
    int usedByThreads() {
        return threads.size();
    }

    /** A thread started to use the context (the language's {@code initializeThread}). */
    public void threadEntered(Thread t) {
        threads.add(t);
    }

    /** A thread is done with the context (the language's {@code disposeThread}). */
    public void threadLeft(Thread t) {
        threads.remove(t);
    }

    /** What releases the device arrays that no guest can reach. */
    Cleaner cleaner() {
        return cleaner;
    }

    Slot add(ArrayMemory m) {
        Slot slot = new Slot(m);
        byAddress.put(m.address, slot);
        return slot;
    }

    void remove(long address, Slot slot) {
        byAddress.remove(address, slot);
    }

    /**
     * The memory from {@code address} to the end of the live allocation that holds that byte, or null if no
     * live allocation of this context holds it.
     */
    @TruffleBoundary
    public GrDeviceMemory resolve(long address) {
        Map.Entry<Long, Slot> e = byAddress.floorEntry(address);
        ArrayMemory m = e == null ? null : e.getValue().get();
        if (m == null) {
            return null;
        }
        long offset = address - m.address;
        return offset < m.byteSize() && !m.isFreed() ? new Range(m, offset) : null;
    }

    /**
     * The first live allocation that starts in [{@code start}, {@code end}), from its first byte, or null if
     * none does (with {@link #resolve} of {@code start} null, no live allocation overlaps the range).
     */
    @TruffleBoundary
    GrDeviceMemory firstIn(long start, long end) {
        for (Map.Entry<Long, Slot> e : byAddress.subMap(start, true, end, false).entrySet()) {
            ArrayMemory m = e.getValue().get();
            if (m != null && !m.isFreed() && m.byteSize() > 0) {
                return new Range(m, 0);
            }
        }
        return null;
    }

    /**
     * Frees the live allocation that starts exactly at {@code address} (after the work that uses it, as
     * {@code cudaFree} does); false if none starts there.
     */
    @TruffleBoundary
    public boolean freeAt(long address) {
        Slot slot = byAddress.get(address);
        ArrayMemory m = slot == null ? null : slot.get();
        if (m == null || m.isFreed()) {
            return false;
        }
        m.free();
        return true;
    }

    /** The whole of an allocation as device memory. */
    static GrDeviceMemory whole(ArrayMemory m) {
        return new Range(m, 0);
    }

    /** How messages show an address. */
    public static String hex(long address) {
        return "0x" + Long.toHexString(address);
    }

    /**
     * The bytes from {@code offset} to the end of an allocation. Typed like the allocation (a kernel parameter
     * then checks the element type and the alignment); its element count is the whole elements left.
     */
    private record Range(ArrayMemory memory, long offset) implements GrDeviceMemory {
        @Override
        public UnifiedBuffer buffer() {
            return memory.live();
        }

        @Override
        public long byteOffset() {
            return offset;
        }

        @Override
        public ElementType elementType() {
            return memory.type;
        }

        @Override
        public long elementCount() {
            return byteCount() / memory.type.size;
        }

        @Override
        public long byteCount() {
            return memory.byteSize() - offset;
        }

        @Override
        public boolean isFreed() {
            return memory.isFreed();
        }

        @Override
        public boolean isTyped() {
            return memory.typed;
        }

        @Override
        public TrackedArray tracked() {
            return memory.tracked;
        }

        @Override
        public String describe() {
            return hex(memory.address + offset) + " (byte " + offset + " of " + memory.description + ")";
        }
    }
}
