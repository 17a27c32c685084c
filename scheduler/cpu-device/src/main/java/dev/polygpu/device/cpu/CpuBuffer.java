package dev.polygpu.device.cpu;

import dev.polygpu.device.Checks;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Unified memory of the CPU device: off-heap memory from the C library ({@link NativeMemory}), zero-filled and
 * aligned to 256 bytes as {@code cudaMalloc} memory is.
 *
 * <p>Implementation notes: the segment is immutable; {@link #freed} flips once, and the thread that flips it
 * frees the memory, so a double free never frees it twice. The segment has the global scope (a shared arena per
 * buffer made every release stop all threads; {@link NativeMemory} says why that mattered), so as on a GPU
 * nothing but the rules below keeps the memory from being used after a free: {@link #hostView()} refuses once
 * freed; every launch that uses the buffer {@linkplain #pin() pins} it from the moment it is queued until it has
 * run, and {@link #free()} waits for the pins to go, as {@code cudaFree} waits for the device; and the device
 * forgets the buffer's address before the memory goes back, so a new buffer at the same address is never
 * forgotten in its place. {@link #pins} is guarded by {@code this}; a stream callback that would have to wait gets
 * NOT_PERMITTED instead of a deadlock. Host code that keeps a view must not use it past a free it may race with
 * (the grcuda language checks its own freed flag and frees a dropped array only once no guest can reach it).
 */
final class CpuBuffer implements UnifiedBuffer {
    /** The alignment of {@code cudaMalloc}, which kernels written for a GPU may rely on. */
    static final long ALIGNMENT = 256;

    private final CpuDevice device;
    private final long id;
    private final long bytes;
    private final NativeMemory.Block memory;
    private final MemorySegment segment;
    /** {@link #segment} as a read-only view: what a launch that passes the buffer read-only binds. */
    private final MemorySegment readOnlySegment;
    private final AtomicBoolean freed = new AtomicBoolean();
    private volatile String freedBy = "free()";
    private int pins;

    private CpuBuffer(CpuDevice device, long id, long bytes, NativeMemory.Block memory) {
        this.device = device;
        this.id = id;
        this.bytes = bytes;
        this.memory = memory;
        this.segment = memory.segment();
        this.readOnlySegment = segment.asReadOnly();
    }

    /** Allocates {@code bytes} zero-filled bytes; INVALID_VALUE for a size that is not positive. */
    static CpuBuffer allocate(CpuDevice device, long id, long bytes) {
        if (bytes <= 0) {
            throw new DeviceException(CudaError.INVALID_VALUE,
                    "cannot allocate " + bytes + " bytes: a buffer needs a positive size");
        }
        NativeMemory.Block memory = bytes > Long.MAX_VALUE - ALIGNMENT ? null
                : NativeMemory.allocate(bytes, ALIGNMENT);
        if (memory == null) {
            throw new DeviceException(CudaError.OUT_OF_MEMORY, "cannot allocate " + bytes + " bytes ("
                    + (bytes >> 20) + " MiB) of off-heap memory for the CPU device: the C library has no memory"
                    + " to give");
        }
        return new CpuBuffer(device, id, bytes, memory);
    }

    @Override
    public long byteSize() {
        return bytes;
    }

    @Override
    public MemorySegment hostView() {
        if (freed.get()) {
            throw new DeviceException(CudaError.INVALID_VALUE, "buffer #" + id + " (" + bytes
                    + " bytes) was freed by " + freedBy + "; it cannot be used any more");
        }
        return segment;
    }

    /**
     * The buffer's memory as a read-only segment, the same for every call: kernel code checks stores against it
     * ({@code isReadOnly}) and so fails one through a pointer the launch passed read-only. INVALID_VALUE once
     * freed, as {@link #hostView()}.
     */
    MemorySegment readOnlyView() {
        hostView();
        return readOnlySegment;
    }

    /** The native address of the first byte (also once freed: it keys the device's address index). */
    long address() {
        return segment.address();
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public boolean isFreed() {
        return freed.get();
    }

    @Override
    public void free() {
        release("free()");
    }

    /** Frees the buffer once no queued or running launch uses it, saying in later messages what freed it. */
    void release(String reason) {
        synchronized (this) {
            if (freed.get()) {
                return;
            }
            while (pins > 0) {
                device.ensureNotOnDispatcher("freeing buffer #" + id + " while a queued kernel uses it");
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new DeviceException(CudaError.NOT_PERMITTED, "interrupted while freeing buffer #" + id
                            + ", which a queued kernel still uses; the buffer was not freed", e);
                }
            }
            if (!freed.compareAndSet(false, true)) {
                return;
            }
            freedBy = reason;
        }
        device.forget(this);
        NativeMemory.free(memory);
    }

    /** Keeps the buffer from being freed until {@link #unpin()}; INVALID_VALUE if it already was. */
    synchronized void pin() {
        hostView();
        pins++;
    }

    synchronized void unpin() {
        if (--pins == 0) {
            notifyAll();
        }
    }

    /** Throws INVALID_VALUE unless the buffer is of {@code owner} and not freed; {@code role} names it in the message. */
    static CpuBuffer check(UnifiedBuffer buffer, CpuDevice owner, String role) {
        CpuBuffer b = Checks.ownBuffer(buffer, CpuBuffer.class, owner, role);
        b.hostView();
        return b;
    }

    /**
     * Throws INVALID_VALUE unless the buffer is a CPU device's, {@code stream}'s own or another (a peer copy's
     * other end), and not freed; {@code role} names it in the message.
     */
    static CpuBuffer checkAnyDevice(UnifiedBuffer buffer, CpuDevice stream, String role) {
        if (buffer instanceof CpuBuffer b && b.device() != stream) {
            b.hostView();
            return b;
        }
        return check(buffer, stream, role);
    }

    /** Throws INVALID_VALUE unless {@code [offset, offset + count)} lies in the buffer. */
    void checkRange(String what, long offset, long count) {
        Checks.range(this, what, offset, count);
    }

    @Override
    public String toString() {
        return "buffer#" + id + "(" + bytes + " bytes" + (freed.get() ? ", freed" : "") + ")";
    }
}
