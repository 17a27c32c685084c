package dev.polygpu.grcuda;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleSafepoint;
import com.oracle.truffle.api.nodes.EncapsulatingNodeReference;
import dev.polygpu.device.CompileInterruptedException;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.HostStep;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.TrackedArray;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where the language blocks its guest's thread on the scheduler (an element read waiting for a kernel,
 * {@code cudaDeviceSynchronize}), it blocks through Truffle's safepoints: {@code Context.interrupt} (a
 * notebook's stop button) and cancellation then end the wait with the guest's interrupt, instead of waiting for
 * the kernels to finish. On the CPU device, a wait so ended also stops every kernel launch queued or running on
 * the device at that moment (each fails with a fault that names it, reported by the next synchronization), so
 * that a kernel that never ends does not keep a worker busy; later launches run as usual. A GPU's kernels keep
 * running; a later access waits again.
 */
public final class InterruptibleWaits {
    private InterruptibleWaits() {
    }

    /**
     * The result of {@code compile} (a kernel compilation on the device), run so that the context's thread-local
     * actions ({@code Context.interrupt}, cancellation, Ctrl-C) interrupt it: the device stops the compile when
     * the calling thread is interrupted and reports it with a {@link CompileInterruptedException}, which becomes
     * the wait's {@code InterruptedException}; Truffle then runs the action (which ends the guest's call) or,
     * for an action that lets the guest go on, compiles again.
     */
    @TruffleBoundary
    public static <T> T compile(Supplier<T> compile) {
        List<T> result = new ArrayList<>(1);
        TruffleSafepoint.setBlockedThreadInterruptible(EncapsulatingNodeReference.getCurrent().get(), r -> {
            try {
                r.add(compile.get());
            } catch (CompileInterruptedException e) {
                Thread.interrupted();
                InterruptedException interrupted = new InterruptedException(e.detail());
                interrupted.initCause(e);
                throw interrupted;
            }
        }, result);
        return result.getFirst();
    }

    /**
     * The host's access to {@code array} as one element of the DAG: a thread-local action that lets the guest go
     * on (GraalPy handing its GIL to another Python thread) resumes the same access rather than beginning another.
     */
    @TruffleBoundary
    public static void awaitHost(Scheduler scheduler, TrackedArray array, AccessMode mode, String label) {
        HostStep access = scheduler.beginHostAccess(array, mode, label);
        try {
            await(s -> s.finishHostAccess(access, true), scheduler);
        } finally {
            scheduler.abandon(access);
        }
    }

    /** Runs the host call {@code call} as {@code action}, one element of the DAG as {@link #awaitHost} is. */
    @TruffleBoundary
    public static <T> T callOnHost(Scheduler scheduler, ComputationalElement call, Supplier<T> action) {
        HostStep step = scheduler.beginHostCall(call);
        List<T> result = new ArrayList<>(1);
        try {
            await(s -> result.add(s.runHostCall(step, action, true)), scheduler);
        } finally {
            scheduler.abandon(step);
        }
        return result.getFirst();
    }

    /** Runs {@code wait} on {@code scheduler}, letting the context's thread-local actions interrupt it. */
    @TruffleBoundary
    public static void await(TruffleSafepoint.Interruptible<Scheduler> wait, Scheduler scheduler) {
        boolean[] interrupted = new boolean[1];
        TruffleSafepoint.Interruptible<Scheduler> noting = s -> {
            try {
                wait.apply(s);
            } catch (InterruptedException e) {
                interrupted[0] = true;
                throw e;
            }
        };
        try {
            TruffleSafepoint.setBlockedThreadInterruptible(EncapsulatingNodeReference.getCurrent().get(), noting,
                    scheduler);
        } catch (RuntimeException | Error e) {
            // An interrupt that a thread-local action turned into an exception (interrupt, cancel) ends the wait.
            if (interrupted[0]) {
                for (dev.polygpu.device.Device d : scheduler.devices()) {
                    d.stopLaunches("the guest call waiting for it was interrupted");
                }
            }
            throw e;
        }
    }
}
