package dev.polygpu.device.cuda;

import dev.polygpu.device.Checks;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Event;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.PendingFailures;
import dev.polygpu.device.PendingFailures.Failure;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import jcuda.Pointer;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.CUstreamCallback;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

/**
 * A non-blocking CUDA stream. Operations are checked here (closed stream, freed or foreign buffers, ranges,
 * arguments) so that a mistake is an exception at the call, never undefined behaviour in the driver; then they
 * are queued with the driver's asynchronous calls.
 *
 * <p>Completion callbacks: {@link #onComplete} and {@link #whenComplete} add a {@code cuStreamAddCallback}
 * whose CUDA-side half posts the callback to the device's completion thread. The stream counts callbacks
 * added ({@link #posted}) and run ({@link #ran}); {@link #synchronize()} waits for the driver, then for the
 * callbacks added before it to have run, so a callback's effects are visible after it as on the CPU device.
 * A CUDA error reported to a callback, a failing callback, or an error of a synchronizing call is kept as the
 * stream's failure and thrown once, by the next {@link #synchronize()} (or the device's).
 *
 * <p>Implementation notes: {@link #posted}, {@link #ran}, {@link #failure} and {@link #closed} are guarded by
 * {@code this}; driver calls are made without holding it, except {@code cuStreamAddCallback}, whose count must
 * match the order callbacks are added in.
 */
final class CudaStream implements Stream, PendingFailures.Source {
    /** The CUDA-side half of every callback: hand the work to the completion thread, call nothing in CUDA. */
    private static final CUstreamCallback RELAY = (stream, status, data) -> ((Pending) data).relay(status);

    private final CudaDevice device;
    private final int id;
    private final int priority;
    private final CUstream handle;
    private long posted;
    private long ran;
    private Failure failure;
    private boolean closed;

    private CudaStream(CudaDevice device, int id, int priority, CUstream handle) {
        this.device = device;
        this.id = id;
        this.priority = priority;
        this.handle = handle;
    }

    /** A new non-blocking stream of {@code device} with CUDA priority {@code priority}, already clamped into its range. */
    static CudaStream create(CudaDevice device, int id, int priority) {
        CUstream handle = new CUstream();
        Cuda.check(JCudaDriver.cuStreamCreateWithPriority(handle, CUstream_flags.CU_STREAM_NON_BLOCKING, priority),
                "cuStreamCreateWithPriority (stream " + id + ")");
        return new CudaStream(device, id, priority, handle);
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public int priority() {
        return priority;
    }

    /**
     * {@inheritDoc} The {@linkplain KernelArgs#isReadOnly read-only} marks are ignored: a GPU has no way to
     * refuse a store through one pointer of a buffer it may write through another, so a kernel that writes where
     * its signature says it only reads races there with the kernels scheduled beside it. The CPU device checks
     * the marks; run the program there to find such a kernel.
     */
    @Override
    public void launch(KernelFunction function, LaunchConfig config, KernelArgs args) {
        ensureOpen();
        CudaFunction f = Checks.kernelOf(function, CudaFunction.class, device);
        f.ensureUsable();
        Checks.launchConfig(f.name(), config);
        config.validate(device.properties(), f.staticSharedBytes());
        long threads = config.block().volume();
        if (threads > f.maxThreadsPerBlock()) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel '" + f.name() + "' can run at most "
                    + f.maxThreadsPerBlock() + " threads per block on " + device + " (its registers limit it), but"
                    + " block " + config.block() + " has " + threads + "; use smaller blocks");
        }
        byte[][] packed = ArgPacking.pack(f.name(), f.parameters(), f.declaredParameters(), args,
                (ptr, role) -> CudaBuffer.check(ptr.buffer(), device, role).address());
        Pointer[] each = new Pointer[packed.length];
        for (int i = 0; i < packed.length; i++) {
            each[i] = Pointer.to(packed[i]);
        }
        device.bind();
        var grid = config.grid();
        var block = config.block();
        Cuda.check(JCudaDriver.cuLaunchKernel(f.handle(), grid.x(), grid.y(), grid.z(), block.x(), block.y(),
                block.z(), config.dynamicSharedBytes(), handle, Pointer.to(each), null),
                "cuLaunchKernel of kernel '" + f.name() + "' on stream " + id);
    }

    @Override
    public void copy(UnifiedBuffer dst, long dstOffset, UnifiedBuffer src, long srcOffset, long bytes) {
        ensureOpen();
        CudaBuffer d = CudaBuffer.check(dst, device, "copy destination");
        CudaBuffer s = CudaBuffer.check(src, device, "copy source");
        Checks.range(d, "copy destination", dstOffset, bytes);
        Checks.range(s, "copy source", srcOffset, bytes);
        Checks.noOverlap(d, dstOffset, s, srcOffset, bytes);
        if (bytes == 0) {
            return;
        }
        device.bind();
        Cuda.check(JCudaDriver.cuMemcpyAsync(d.pointer(dstOffset), s.pointer(srcOffset), bytes, handle),
                "cuMemcpyAsync of " + bytes + " bytes from buffer #" + s.id() + " to buffer #" + d.id());
    }

    @Override
    public void fill(UnifiedBuffer dst, long offset, long bytes, byte value) {
        ensureOpen();
        CudaBuffer d = CudaBuffer.check(dst, device, "fill destination");
        Checks.range(d, "fill", offset, bytes);
        if (bytes == 0) {
            return;
        }
        device.bind();
        Cuda.check(JCudaDriver.cuMemsetD8Async(d.pointer(offset), value, bytes, handle),
                "cuMemsetD8Async of " + bytes + " bytes of buffer #" + d.id());
    }

    @Override
    public void prefetch(UnifiedBuffer buffer, long offset, long bytes) {
        ensureOpen();
        CudaBuffer b = CudaBuffer.check(buffer, device, "prefetch buffer");
        Checks.range(b, "prefetch", offset, bytes);
        if (bytes == 0 || !device.concurrentManagedAccess()) {
            // Without concurrent managed access the driver moves pages at launch; a prefetch would be refused.
            return;
        }
        device.bind();
        Cuda.check(JCudaDriver.cuMemPrefetchAsync(b.pointer(offset), bytes, device.handle(), handle),
                "cuMemPrefetchAsync of " + bytes + " bytes of buffer #" + b.id());
    }

    @Override
    public void record(Event event) {
        ensureOpen();
        CudaEvent e = device.checkEvent(event);
        device.bind();
        e.recordOn(handle, id);
    }

    @Override
    public void waitFor(Event event) {
        ensureOpen();
        CudaEvent e = device.checkEvent(event);
        if (!e.wasRecorded()) {
            return; // as in CUDA: waiting for an event never recorded waits for nothing
        }
        device.bind();
        Cuda.check(JCudaDriver.cuStreamWaitEvent(handle, e.handle(), 0), "cuStreamWaitEvent (stream " + id + ")");
    }

    @Override
    public void onComplete(Runnable callback) {
        if (callback == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "onComplete needs a callback, got null");
        }
        addCallback(status -> {
            if (status != CUresult.CUDA_SUCCESS) {
                fail(Cuda.error(status, "work queued on stream " + id));
            }
            runCallback(callback);
        });
    }

    @Override
    public void whenComplete(Consumer<DeviceException> callback) {
        if (callback == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "whenComplete needs a callback, got null");
        }
        addCallback(status -> {
            DeviceException error;
            synchronized (this) {
                error = failure == null ? null : failure.error();
                failure = null;
            }
            if (error == null && status != CUresult.CUDA_SUCCESS) {
                error = Cuda.error(status, "work queued on stream " + id);
            }
            DeviceException seen = error;
            runCallback(() -> callback.accept(seen));
        });
    }

    @Override
    public boolean isIdle() {
        long target;
        synchronized (this) {
            ensureOpenLocked();
            target = posted;
        }
        device.bind();
        int status = JCudaDriver.cuStreamQuery(handle);
        if (status == CUresult.CUDA_ERROR_NOT_READY) {
            return false;
        }
        if (status != CUresult.CUDA_SUCCESS) {
            fail(Cuda.error(status, "cuStreamQuery (stream " + id + ")"));
        }
        synchronized (this) {
            return ran >= target;
        }
    }

    @Override
    public void synchronize() {
        ensureOpen();
        device.ensureNotOnCompletionThread("Stream.synchronize");
        awaitIdle();
        Failure f;
        synchronized (this) {
            f = failure;
            failure = null;
        }
        if (f != null) {
            throw f.error();
        }
    }

    @Override
    public void close() {
        if (id == 0) {
            throw new DeviceException(CudaError.INVALID_VALUE,
                    "the default stream (stream 0) cannot be closed; it lives as long as its device");
        }
        device.ensureNotOnCompletionThread("Stream.close");
        shutdown();
    }

    /** Lets queued work finish, destroys the stream and hands an unreported failure to the device. Idempotent. */
    void shutdown() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        awaitIdle();
        Failure unreported;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            unreported = failure;
            failure = null;
        }
        device.bind();
        int status = JCudaDriver.cuStreamDestroy(handle);
        if (status != CUresult.CUDA_SUCCESS && unreported == null) {
            unreported = device.newFailure(id, Cuda.error(status, "cuStreamDestroy (stream " + id + ")"));
        }
        device.streamClosed(this, unreported);
    }

    /**
     * Waits for the driver to finish the stream's work, then for the callbacks added before this call to have
     * run. An error from the driver becomes the stream's failure; callbacks are not waited for then, as a
     * failed context may never call them.
     */
    void awaitIdle() {
        long target;
        synchronized (this) {
            if (closed) {
                return;
            }
            target = posted;
        }
        device.bind();
        int status = JCudaDriver.cuStreamSynchronize(handle);
        if (status != CUresult.CUDA_SUCCESS) {
            fail(Cuda.error(status, "cuStreamSynchronize (stream " + id + ")"));
            return;
        }
        boolean interrupted = false;
        synchronized (this) {
            while (ran < target) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized Failure peekFailure() {
        return failure;
    }

    /** Removes {@code f} if it still is this stream's failure; false when something reported it meanwhile. */
    @Override
    public synchronized boolean takeFailure(Failure f) {
        if (failure != f) {
            return false;
        }
        failure = null;
        return true;
    }

    @Override
    public String toString() {
        return "cuda-stream#" + id + (priority == 0 ? "" : "(priority " + priority + ")");
    }

    private void addCallback(IntConsumer onCompletionThread) {
        Pending pending = new Pending(onCompletionThread);
        synchronized (this) {
            ensureOpenLocked();
            device.bind();
            int status = JCudaDriver.cuStreamAddCallback(handle, RELAY, pending, 0);
            if (status != CUresult.CUDA_SUCCESS) {
                throw Cuda.error(status, "cuStreamAddCallback (stream " + id + ")");
            }
            posted++;
        }
    }

    private void runCallback(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException | Error e) {
            fail(new DeviceException(CudaError.UNKNOWN, "a completion callback on stream " + id + " failed: " + e, e));
        }
    }

    /** Keeps {@code e} as the stream's failure unless one is waiting to be reported already. */
    private void fail(DeviceException e) {
        synchronized (this) {
            if (failure == null) {
                failure = device.newFailure(id, e);
            }
        }
    }

    private void ensureOpen() {
        synchronized (this) {
            ensureOpenLocked();
        }
    }

    private void ensureOpenLocked() {
        device.ensureOpen();
        if (closed) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "stream " + id + " was closed");
        }
    }

    /** One callback in flight: relayed from CUDA's thread to the completion thread, then counted as run. */
    private final class Pending {
        private final IntConsumer action;

        Pending(IntConsumer action) {
            this.action = action;
        }

        void relay(int status) {
            device.postCompletion(() -> {
                try {
                    action.accept(status);
                } finally {
                    synchronized (CudaStream.this) {
                        ran++;
                        CudaStream.this.notifyAll();
                    }
                }
            });
        }
    }
}
