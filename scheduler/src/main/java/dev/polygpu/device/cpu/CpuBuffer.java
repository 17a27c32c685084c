package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Unified memory of the CPU device: an off-heap segment in its own shared arena, zero-filled and aligned to
 * 256 bytes as {@code cudaMalloc} memory is.
 *
 * <p>Implementation notes: the segment is immutable; {@link #freed} flips once, and the thread that flips it
 * closes the arena, so a double free never closes it twice. As the SPI says, freeing must not race with use:
 * a kernel still reading a freed segment gets the arena's {@link IllegalStateException}, which the launch
 * reports as a failed launch.
 */
final class CpuBuffer implements UnifiedBuffer {
    /** The alignment of {@code cudaMalloc}, which kernels written for a GPU may rely on. */
    static final long ALIGNMENT = 256;

    private final CpuDevice device;
    private final long id;
    private final long bytes;
    private final Arena arena;
    private final MemorySegment segment;
    private final AtomicBoolean freed = new AtomicBoolean();
    private volatile String freedBy = "free()";

    private CpuBuffer(CpuDevice device, long id, long bytes, Arena arena, MemorySegment segment) {
        this.device = device;
        this.id = id;
        this.bytes = bytes;
        this.arena = arena;
        this.segment = segment;
    }

    /** Allocates {@code bytes} zero-filled bytes; INVALID_VALUE for a size that is not positive. */
    static CpuBuffer allocate(CpuDevice device, long id, long bytes) {
        if (bytes <= 0) {
            throw new DeviceException(CudaError.INVALID_VALUE,
                    "cannot allocate " + bytes + " bytes: a buffer needs a positive size");
        }
        Arena arena = Arena.ofShared();
        try {
            // Arena.allocate zero-fills the memory it returns.
            return new CpuBuffer(device, id, bytes, arena, arena.allocate(bytes, ALIGNMENT));
        } catch (OutOfMemoryError | IllegalArgumentException e) {
            arena.close();
            throw new DeviceException(CudaError.OUT_OF_MEMORY, "cannot allocate " + bytes + " bytes ("
                    + (bytes >> 20) + " MiB) of off-heap memory for the CPU device: " + e.getMessage(), e);
        }
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

    /** Frees the buffer, saying in later error messages what freed it. */
    void release(String reason) {
        if (freed.compareAndSet(false, true)) {
            freedBy = reason;
            arena.close();
            device.forget(this);
        }
    }

    /** Throws INVALID_VALUE unless the buffer is of {@code owner} and not freed; {@code role} names it in the message. */
    static CpuBuffer check(UnifiedBuffer buffer, CpuDevice owner, String role) {
        if (buffer == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, role + " is null");
        }
        if (!(buffer instanceof CpuBuffer b) || b.device != owner) {
            throw new DeviceException(CudaError.INVALID_VALUE, role + " (buffer #" + buffer.id()
                    + ") belongs to another device (" + buffer.device().backend() + " device "
                    + buffer.device().ordinal() + ")");
        }
        b.hostView();
        return b;
    }

    /** Throws INVALID_VALUE unless {@code [offset, offset + count)} lies in the buffer. */
    void checkRange(String what, long offset, long count) {
        if (offset < 0 || count < 0 || offset > bytes || count > bytes - offset) {
            throw new DeviceException(CudaError.INVALID_VALUE, what + " of " + count + " bytes at offset "
                    + offset + " of buffer #" + id + " (" + bytes + " bytes) is out of range");
        }
    }

    @Override
    public String toString() {
        return "buffer#" + id + "(" + bytes + " bytes" + (freed.get() ? ", freed" : "") + ")";
    }
}
