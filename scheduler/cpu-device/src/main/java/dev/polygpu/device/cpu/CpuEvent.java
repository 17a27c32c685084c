package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Event;

/**
 * An event of the CPU device. Each {@link dev.polygpu.device.Stream#record record} makes a new
 * {@link EventMarker} the event's latest; queries and waits concern the latest marker at the time they are
 * made, as in CUDA, and a never-recorded event is complete.
 *
 * <p>Implementation notes: {@link #latest} and {@link #closed} are volatile and written by the threads that
 * record and close; markers complete on stream dispatchers. Closing does not complete or cancel pending
 * markers: streams that captured one in {@code waitFor} still wait for it.
 */
final class CpuEvent implements Event {
    private final CpuDevice device;
    private final boolean timing;
    private volatile EventMarker latest;
    private volatile boolean closed;

    CpuEvent(CpuDevice device, boolean timing) {
        this.device = device;
        this.timing = timing;
    }

    CpuDevice device() {
        return device;
    }

    /** Makes {@code marker} the latest recording; called once its stream has queued it. */
    void recorded(EventMarker marker) {
        latest = marker;
    }

    /** The latest recording, or null if the event was never recorded. */
    EventMarker latest() {
        return latest;
    }

    void ensureOpen() {
        if (closed) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "the event was closed");
        }
    }

    @Override
    public boolean isComplete() {
        ensureOpen();
        EventMarker m = latest;
        return m == null || m.isComplete();
    }

    @Override
    public void synchronize() {
        ensureOpen();
        device.ensureNotOnDispatcher("Event.synchronize");
        EventMarker m = latest;
        if (m != null) {
            m.await();
        }
    }

    @Override
    public float elapsedMillisSince(Event start) {
        ensureOpen();
        if (!(start instanceof CpuEvent s) || s.device != device) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "the start event belongs to another device");
        }
        s.ensureOpen();
        if (!timing || !s.timing) {
            throw new DeviceException(CudaError.INVALID_HANDLE,
                    "elapsed time needs two events created with timing; "
                            + (timing ? "the start event" : "this event") + " has none");
        }
        EventMarker from = s.latest;
        EventMarker to = latest;
        if (from == null || to == null) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "elapsed time needs two recorded events; "
                    + (from == null ? "the start event" : "this event") + " was never recorded");
        }
        if (!from.isComplete() || !to.isComplete()) {
            throw new DeviceException(CudaError.NOT_READY, "elapsed time: "
                    + (from.isComplete() ? "this event" : "the start event") + " has not completed yet");
        }
        return (to.nanos() - from.nanos()) / 1e6f;
    }

    @Override
    public boolean hasTiming() {
        return timing;
    }

    @Override
    public void close() {
        closed = true;
    }
}
