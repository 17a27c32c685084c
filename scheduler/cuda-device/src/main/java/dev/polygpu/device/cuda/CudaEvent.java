package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Event;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * A CUDA event. Timing is off unless asked for ({@code CU_EVENT_DISABLE_TIMING} makes recording cheaper). An
 * event never recorded is complete, as in CUDA. A closed event refuses every use with INVALID_HANDLE here,
 * before the driver sees a destroyed handle.
 */
final class CudaEvent implements Event {
    private final CudaDevice device;
    private final boolean timing;
    private final CUevent handle = new CUevent();
    private volatile boolean recorded;
    private volatile boolean closed;

    CudaEvent(CudaDevice device, boolean timing) {
        this.device = device;
        this.timing = timing;
        Cuda.check(JCudaDriver.cuEventCreate(handle, timing ? CUevent_flags.CU_EVENT_DEFAULT
                : CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    }

    CudaDevice device() {
        return device;
    }

    CUevent handle() {
        return handle;
    }

    boolean wasRecorded() {
        return recorded;
    }

    synchronized void recordOn(jcuda.driver.CUstream stream, int streamId) {
        ensureOpen();
        Cuda.check(JCudaDriver.cuEventRecord(handle, stream), "cuEventRecord on stream " + streamId);
        recorded = true;
    }

    @Override
    public boolean isComplete() {
        ensureOpen();
        if (!recorded) {
            return true;
        }
        device.bind();
        int status = JCudaDriver.cuEventQuery(handle);
        if (status == CUresult.CUDA_ERROR_NOT_READY) {
            return false;
        }
        Cuda.check(status, "cuEventQuery");
        return true;
    }

    @Override
    public void synchronize() {
        ensureOpen();
        if (!recorded) {
            return;
        }
        device.bind();
        Cuda.check(JCudaDriver.cuEventSynchronize(handle), "cuEventSynchronize");
    }

    @Override
    public float elapsedMillisSince(Event start) {
        ensureOpen();
        CudaEvent s = device.checkEvent(start);
        for (CudaEvent e : new CudaEvent[] {s, this}) {
            if (!e.timing) {
                throw new DeviceException(CudaError.INVALID_HANDLE, "elapsed time needs two events created with"
                        + " timing on; " + (e == this ? "this" : "the start") + " event has timing off");
            }
            if (!e.recorded) {
                throw new DeviceException(CudaError.INVALID_HANDLE, "elapsed time needs two recorded events; "
                        + (e == this ? "this" : "the start") + " event was never recorded");
            }
        }
        device.bind();
        float[] ms = new float[1];
        Cuda.check(JCudaDriver.cuEventElapsedTime(ms, s.handle, handle), "cuEventElapsedTime");
        return ms[0];
    }

    @Override
    public boolean hasTiming() {
        return timing;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        device.forget(this);
        device.bind();
        Cuda.check(JCudaDriver.cuEventDestroy(handle), "cuEventDestroy");
    }

    void ensureOpen() {
        if (closed) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "the event was closed");
        }
    }
}
