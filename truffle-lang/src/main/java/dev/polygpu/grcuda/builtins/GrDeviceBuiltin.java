package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.InterruptibleWaits;
import dev.polygpu.grcuda.objects.GrBuiltin;
import dev.polygpu.runtime.Scheduler;

/**
 * Base of the builtins that call the device: the one place where a {@link DeviceException} becomes a guest
 * {@link GrError}, so the builtins themselves hold no catch-and-rethrow.
 */
abstract class GrDeviceBuiltin extends GrBuiltin {
    protected final GrContext context;

    GrDeviceBuiltin(String name, GrContext context) {
        super(name);
        this.context = context;
    }

    protected final Device device() {
        return context.device();
    }

    protected final dev.polygpu.runtime.Scheduler scheduler() {
        return context.scheduler();
    }

    /**
     * Waits for every computation (a wait the context's interrupt can stop) and for the device; reports the
     * first failure not reported yet.
     */
    protected final void synchronizeAll() {
        InterruptibleWaits.await(Scheduler::synchronizeInterruptibly, context.scheduler());
        for (Device d : context.devices()) {
            d.synchronize();
        }
    }

    /** Waits for the computations on the user's {@code stream} and for the stream itself. */
    protected final void synchronize(dev.polygpu.device.Stream stream) {
        context.scheduler().synchronize(stream);
        stream.synchronize();
    }

    /**
     * Waits for the outstanding work that writes {@code array} (what a synchronous copy or fill just submitted,
     * and what it was ordered after); a wait the context's interrupt can stop, as every host wait.
     */
    protected final void awaitWriters(dev.polygpu.runtime.TrackedArray array) {
        InterruptibleWaits.awaitHost(context.scheduler(), array, dev.polygpu.runtime.AccessMode.READ, name());
    }

    /** The builtin's work; device failures may be thrown as they are. */
    protected abstract Object run(Object[] args) throws ArityException, UnsupportedTypeException;

    @Override
    protected final Object call(Object[] args) throws ArityException, UnsupportedTypeException {
        try {
            return run(args);
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }
}
