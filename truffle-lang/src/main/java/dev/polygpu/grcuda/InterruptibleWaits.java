package dev.polygpu.grcuda;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleSafepoint;
import com.oracle.truffle.api.nodes.EncapsulatingNodeReference;
import dev.polygpu.runtime.Scheduler;

/**
 * Where the language blocks its guest's thread on the scheduler (an element read waiting for a kernel,
 * {@code cudaDeviceSynchronize}), it blocks through Truffle's safepoints: {@code Context.interrupt} (a
 * notebook's stop button) and cancellation then end the wait with the guest's interrupt, instead of waiting for
 * the kernels to finish. The kernels keep running; a later access waits again.
 */
public final class InterruptibleWaits {
    private InterruptibleWaits() {
    }

    /** Runs {@code wait} on {@code scheduler}, letting the context's thread-local actions interrupt it. */
    @TruffleBoundary
    public static void await(TruffleSafepoint.Interruptible<Scheduler> wait, Scheduler scheduler) {
        TruffleSafepoint.setBlockedThreadInterruptible(EncapsulatingNodeReference.getCurrent().get(), wait,
                scheduler);
    }
}
