package dev.polygpu.device.cpu;

import dev.polygpu.device.Checks;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Event;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.PendingFailures;
import dev.polygpu.device.PendingFailures.Failure;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A stream of the CPU device: a FIFO of operations run one after another by the stream's own dispatcher
 * thread. Arguments are checked when an operation is queued (errors are thrown to the caller); failures while
 * it runs are kept and thrown by the next {@link #synchronize()} (or the device's).
 *
 * <p>A stream has a priority ({@link CpuDevice#createStream(int)}): its launches' blocks queue at the device's
 * worker pool with it, so the blocks of a higher-priority stream start before those of lower-priority streams
 * that are waiting for a worker ({@link WorkerPool}).
 *
 * <p>The dispatcher is a virtual thread: it spends its life waiting (for work, for a launch's blocks on the
 * worker pool, for another stream's event), which costs a virtual thread no platform thread, so a program
 * may hold hundreds of streams. Kernel blocks never run on it; callbacks do, and are expected to be short.
 *
 * <p>Implementation notes: {@link #lock} guards {@link #queue}, the counters, {@link #failure} and
 * {@link #closed}; {@link #changed} is signalled whenever one of them changes. {@code completed <= enqueued};
 * the stream is idle when they are equal. Only the dispatcher takes from the queue and runs operations,
 * outside the lock; enqueueing threads keep their own order because each appends under the lock. No other
 * lock is taken while {@link #lock} is held, so there is no lock order to keep. After {@link #closed} is set
 * nothing is queued; the dispatcher drains what is there and ends.
 *
 * <p>In chaos mode the dispatcher pauses for a random time before each operation and scrambles the block order
 * of its launches ({@link ChaosRandom}, which only the dispatcher uses). Operations still run one after another
 * in queue order and are counted complete only after they ran, so stream order, event waits, callbacks and
 * synchronization mean what they do without chaos; only the timing relative to other streams changes.
 */
final class CpuStream implements Stream, PendingFailures.Source {
    private static final System.Logger LOG = System.getLogger(CpuStream.class.getName());

    /** A queued operation; throws what it fails with. */
    @FunctionalInterface
    private interface Op {
        void run();
    }

    private final CpuDevice device;
    private final int id;
    /** Its priority, within the device's range: numerically lower is higher. */
    private final int priority;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Op> queue = new ArrayDeque<>();
    private final Thread dispatcher;
    /** Null unless the device is in chaos mode; used only by the dispatcher. */
    private final ChaosRandom chaos;
    private long enqueued;
    private long completed;
    private Failure failure;
    private boolean closed;

    /** A stream of {@code device} with {@code priority}, already within the device's range. */
    CpuStream(CpuDevice device, int id, int priority) {
        this.device = device;
        this.id = id;
        this.priority = priority;
        this.chaos = device.chaos().map(c -> ChaosRandom.forStream(c, id)).orElse(null);
        this.dispatcher = Thread.ofVirtual().name("polygpu-cpu-stream-" + id).start(this::dispatch);
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

    @Override
    public void launch(KernelFunction function, LaunchConfig config, KernelArgs args) {
        ensureOpen();
        CpuKernelFunction f = Checks.kernelOf(function, CpuKernelFunction.class, device);
        f.ensureUsable();
        Checks.launchConfig(f.name(), config);
        CompiledKernel kernel = f.compiled();
        config.validate(device.properties(), kernel.staticSharedBytes());
        LaunchFrame frame = LaunchFrames.build(device, kernel, config, args);
        LaunchStops stops = device.launchStops();
        List<CpuBuffer> pinned = new ArrayList<>();
        // The module's __device__/__constant__ variables, like the buffers, stay allocated until the launch has run.
        kernel.pinModuleMemory();
        try {
            for (KernelArg a : args.list()) {
                if (a instanceof KernelArg.Pointer p && p.buffer() != null) {
                    CpuBuffer b = (CpuBuffer) p.buffer();
                    b.pin();
                    pinned.add(b);
                }
            }
            stops.register(frame.cancellation());
            enqueue(() -> {
                try {
                    var fault = new GridLaunch(kernel, frame, device.pool(), priority, chaos)
                            .run(device::printfSink, stops.timeoutNanos());
                    if (fault != null) {
                        throw fault;
                    }
                } finally {
                    stops.unregister(frame.cancellation());
                    pinned.forEach(CpuBuffer::unpin);
                    kernel.unpinModuleMemory();
                }
            });
        } catch (RuntimeException e) {
            stops.unregister(frame.cancellation());
            pinned.forEach(CpuBuffer::unpin);
            kernel.unpinModuleMemory();
            throw e;
        }
    }

    @Override
    public void copy(UnifiedBuffer dst, long dstOffset, UnifiedBuffer src, long srcOffset, long bytes) {
        ensureOpen();
        CpuBuffer d = CpuBuffer.checkAnyDevice(dst, device, "copy destination");
        CpuBuffer s = CpuBuffer.checkAnyDevice(src, device, "copy source");
        d.checkRange("copy destination", dstOffset, bytes);
        s.checkRange("copy source", srcOffset, bytes);
        Checks.noOverlap(d, dstOffset, s, srcOffset, bytes);
        if (d.device() == device && s.device() == device) {
            enqueue(() -> MemorySegment.copy(s.hostView(), srcOffset, d.hostView(), dstOffset, bytes));
            return;
        }
        // A peer copy: it crosses the simulated link, which takes its time before the bytes arrive.
        // Both ends are pinned, so that freeing either (on its own device) waits for the copy, as for a launch.
        long delay = device.link().nanosFor(bytes);
        d.pin();
        try {
            s.pin();
        } catch (RuntimeException e) {
            d.unpin();
            throw e;
        }
        try {
            enqueue(() -> {
                try {
                    waitNanos(delay);
                    MemorySegment.copy(s.hostView(), srcOffset, d.hostView(), dstOffset, bytes);
                } finally {
                    s.unpin();
                    d.unpin();
                }
            });
        } catch (RuntimeException e) {
            s.unpin();
            d.unpin();
            throw e;
        }
    }

    /** Parks the dispatcher for {@code nanos} (a simulated transfer time); an interrupt does not cut it short. */
    private static void waitNanos(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    @Override
    public void fill(UnifiedBuffer dst, long offset, long bytes, byte value) {
        ensureOpen();
        CpuBuffer d = CpuBuffer.check(dst, device, "fill destination");
        d.checkRange("fill", offset, bytes);
        enqueue(() -> d.hostView().asSlice(offset, bytes).fill(value));
    }

    @Override
    public void prefetch(UnifiedBuffer buffer, long offset, long bytes) {
        ensureOpen();
        CpuBuffer b = CpuBuffer.check(buffer, device, "prefetch buffer");
        b.checkRange("prefetch", offset, bytes);
        // Host and device share the memory: there is nothing to move.
    }

    @Override
    public void record(Event event) {
        ensureOpen();
        CpuEvent e = device.checkEvent(event);
        EventMarker marker = new EventMarker();
        enqueue(marker::complete);
        e.recorded(marker);
    }

    @Override
    public void waitFor(Event event) {
        ensureOpen();
        CpuEvent e = CpuDevice.checkAnyEvent(event);
        // The recording to wait for is the latest one now, not whichever is latest when the dispatcher gets here.
        EventMarker marker = e.latest();
        if (marker != null) {
            enqueue(marker::await);
        }
    }

    @Override
    public void onComplete(Runnable callback) {
        ensureOpen();
        if (callback == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "onComplete needs a callback, got null");
        }
        enqueue(() -> runCallback(callback));
    }

    @Override
    public void whenComplete(Consumer<DeviceException> callback) {
        ensureOpen();
        if (callback == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "whenComplete needs a callback, got null");
        }
        enqueue(() -> {
            Failure f;
            lock.lock();
            try {
                f = failure;
                failure = null;
            } finally {
                lock.unlock();
            }
            DeviceException error = f == null ? null : f.error();
            runCallback(() -> callback.accept(error));
        });
    }

    private void runCallback(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "a completion callback on stream " + id + " failed", e);
            throw new DeviceException(CudaError.UNKNOWN, "a completion callback on stream " + id
                    + " failed: " + e, e);
        }
    }

    @Override
    public boolean isIdle() {
        lock.lock();
        try {
            ensureOpenLocked();
            return completed == enqueued;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void synchronize() {
        ensureOpen();
        device.ensureNotOnDispatcher("Stream.synchronize");
        Failure f;
        lock.lock();
        try {
            awaitLocked(enqueued);
            f = failure;
            failure = null;
        } finally {
            lock.unlock();
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
        shutdown();
    }

    /** Lets queued work finish, stops the dispatcher and hands an unreported failure to the device. Idempotent. */
    void shutdown() {
        device.ensureNotOnDispatcher("Stream.close");
        Failure left;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            changed.signalAll();
            awaitLocked(enqueued);
            left = failure;
            failure = null;
        } finally {
            lock.unlock();
        }
        joinDispatcher();
        device.streamClosed(this, left);
    }

    /** Blocks until the work queued before the call has completed, without taking its failure. */
    void awaitIdle() {
        lock.lock();
        try {
            awaitLocked(enqueued);
        } finally {
            lock.unlock();
        }
    }

    /** The unreported failure, or null. */
    @Override
    public Failure peekFailure() {
        lock.lock();
        try {
            return failure;
        } finally {
            lock.unlock();
        }
    }

    /** Clears {@code f} if it is still this stream's unreported failure; false if someone reported it first. */
    @Override
    public boolean takeFailure(Failure f) {
        lock.lock();
        try {
            if (failure != f) {
                return false;
            }
            failure = null;
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean isDispatcher(Thread t) {
        return t == dispatcher;
    }

    private void enqueue(Op op) {
        lock.lock();
        try {
            ensureOpenLocked();
            queue.addLast(op);
            enqueued++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        lock.lock();
        try {
            ensureOpenLocked();
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpenLocked() {
        if (closed) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "stream " + id + " was closed");
        }
    }

    private void awaitLocked(long target) {
        boolean interrupted = false;
        while (completed < target) {
            try {
                changed.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void dispatch() {
        while (true) {
            Op op;
            lock.lock();
            try {
                while (queue.isEmpty() && !closed) {
                    changed.awaitUninterruptibly();
                }
                op = queue.pollFirst();
                if (op == null) {
                    return;
                }
            } finally {
                lock.unlock();
            }
            if (chaos != null) {
                chaos.pause();
            }
            DeviceException error = runOp(op);
            lock.lock();
            try {
                if (error != null) {
                    if (failure == null) {
                        failure = device.newFailure(id, error);
                    } else {
                        // Only the first failure is reported, as CUDA reports one error; the others are logged.
                        LOG.log(System.Logger.Level.INFO, "stream " + id + ": a further failure while an earlier "
                                + "one is unreported: " + error.getMessage());
                    }
                }
                completed++;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private DeviceException runOp(Op op) {
        try {
            op.run();
            return null;
        } catch (DeviceException e) {
            return e;
        } catch (RuntimeException | Error e) {
            return new DeviceException(CudaError.UNKNOWN, "an operation on stream " + id + " failed: " + e, e);
        }
    }

    private void joinDispatcher() {
        boolean interrupted = false;
        while (true) {
            try {
                dispatcher.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return priority == 0 ? "cpu stream " + id : "cpu stream " + id + " (priority " + priority + ")";
    }
}
