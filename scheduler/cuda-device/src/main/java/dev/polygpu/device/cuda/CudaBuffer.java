package dev.polygpu.device.cuda;

import dev.polygpu.device.Checks;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUmemAttach_flags;
import jcuda.driver.JCudaDriver;

/**
 * Unified memory from {@code cuMemAllocManaged}: one address for host and device, so {@link #hostView()} is a
 * {@link MemorySegment} over the same bytes kernels use. Zero-filled when allocated, as the CPU device's are.
 * Freeing waits for the device's queued work first (a kernel may still use the memory), then
 * {@code cuMemFree}s it; a freed buffer says so when used.
 *
 * <p>An allocation larger than the GPU's free memory is refused (OUT_OF_MEMORY) before the driver is asked:
 * managed memory may oversubscribe a GPU, but asking for more than it has free can hang it.
 *
 * <p>On a device without concurrent managed access (before Pascal, or on Windows) the host may not touch
 * managed memory while any kernel runs, so {@link #hostView()} waits for the whole device there.
 */
final class CudaBuffer implements UnifiedBuffer {
    private final CudaDevice device;
    private final long id;
    private final long bytes;
    private final Address pointer;
    private final MemorySegment segment;
    private final AtomicBoolean freed = new AtomicBoolean();
    private volatile String freedBy = "free()";

    private CudaBuffer(CudaDevice device, long id, long bytes, Address pointer) {
        this.device = device;
        this.id = id;
        this.bytes = bytes;
        this.pointer = pointer;
        this.segment = MemorySegment.ofAddress(pointer.address()).reinterpret(bytes);
    }

    /** Allocates {@code bytes} zero-filled bytes of managed memory; INVALID_VALUE for a size that is not positive. */
    static CudaBuffer allocate(CudaDevice device, long id, long bytes) {
        if (bytes <= 0) {
            throw new DeviceException(CudaError.INVALID_VALUE,
                    "cannot allocate " + bytes + " bytes: a buffer needs a positive size");
        }
        long[] free = new long[1];
        long[] total = new long[1];
        Cuda.check(JCudaDriver.cuMemGetInfo(free, total), "cuMemGetInfo");
        if (bytes > free[0]) {
            // Managed memory could oversubscribe the GPU, but asking for more than it has free can hang it.
            throw new DeviceException(CudaError.OUT_OF_MEMORY, "cannot allocate " + bytes + " bytes ("
                    + (bytes >> 20) + " MiB) on " + device + ": it has " + (free[0] >> 20) + " MiB free of "
                    + (total[0] >> 20) + " MiB; free arrays that are no longer needed, or use smaller ones");
        }
        Address p = new Address();
        int status = JCudaDriver.cuMemAllocManaged(p, bytes, CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL);
        if (status != 0) {
            throw Cuda.error(status, "cuMemAllocManaged of " + bytes + " bytes (" + (bytes >> 20) + " MiB) on "
                    + device);
        }
        try {
            Cuda.check(JCudaDriver.cuMemsetD8(p, (byte) 0, bytes), "cuMemsetD8 (zero-filling a new buffer)");
        } catch (DeviceException e) {
            JCudaDriver.cuMemFree(p);
            throw e;
        }
        return new CudaBuffer(device, id, bytes, p);
    }

    @Override
    public long byteSize() {
        return bytes;
    }

    @Override
    public MemorySegment hostView() {
        ensureNotFreed();
        if (!device.concurrentManagedAccess()) {
            device.synchronizeContext("host access to buffer #" + id);
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

    /**
     * {@code cuMemAdvise} for this device. Hints about the host (-1), and hints on a device without concurrent
     * managed access (where the driver places pages at launch), are not passed on.
     */
    @Override
    public void advise(long offset, long bytes, int advice, int deviceOrdinal) {
        Checks.range(this, "advise", offset, bytes);
        if (bytes == 0 || deviceOrdinal < 0 || !device.concurrentManagedAccess()) {
            return;
        }
        device.bind();
        Cuda.check(JCudaDriver.cuMemAdvise(pointer(offset), bytes, advice, device.handle()),
                "cuMemAdvise(" + advice + ") of " + bytes + " bytes of buffer #" + id);
    }

    /** The device address of byte {@code offset}, for driver calls. */
    CUdeviceptr pointer(long offset) {
        return offset == 0 ? pointer : pointer.withByteOffset(offset);
    }

    /** The device address of the first byte, for kernel arguments. */
    long address() {
        return pointer.address();
    }

    /** Frees the memory once the device's queued work is done, saying in later messages what freed it. */
    void release(String reason) {
        if (!freed.compareAndSet(false, true)) {
            return;
        }
        freedBy = reason;
        try {
            device.synchronizeContext("freeing buffer #" + id);
        } finally {
            device.bind();
            int status = JCudaDriver.cuMemFree(pointer);
            device.forget(this);
            Cuda.check(status, "cuMemFree of buffer #" + id);
        }
    }

    /** Throws INVALID_VALUE unless the buffer is of {@code owner} and not freed; {@code role} names it in the message. */
    static CudaBuffer check(UnifiedBuffer buffer, CudaDevice owner, String role) {
        CudaBuffer b = Checks.ownBuffer(buffer, CudaBuffer.class, owner, role);
        b.ensureNotFreed();
        return b;
    }

    private void ensureNotFreed() {
        if (freed.get()) {
            throw new DeviceException(CudaError.INVALID_VALUE, "buffer #" + id + " (" + bytes
                    + " bytes) was freed by " + freedBy + "; it cannot be used any more");
        }
    }

    @Override
    public String toString() {
        return "cuda-buffer#" + id + "(" + bytes + " bytes" + (freed.get() ? ", freed" : "") + ")";
    }

    /** A device pointer that tells its numeric address (JCuda keeps it in a protected field). */
    static final class Address extends CUdeviceptr {
        long address() {
            return getNativePointer() + getByteOffset();
        }
    }
}
