package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.LaunchCancellation;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What can stop the launches of one {@link CpuDevice} before they finish: a time limit on each launch, a request
 * to stop every launch queued or running now, and a terminal stop that also refuses every later launch (the
 * device is going away). Each launch's {@link LaunchCancellation} is registered here from when it is queued until
 * it has run.
 *
 * <p>Implementation notes: {@link #live} is a concurrent set; {@link #terminal} and {@link #timeoutNanos} are
 * volatile and written rarely. A launch registering while {@link #stopAll} runs either is seen by its loop or
 * registers after it; a launch registering after a terminal stop is stopped by {@link #register} itself, so none
 * escapes a terminal stop. One that registers after a non-terminal stop runs: it was not queued "now".
 */
final class LaunchStops {
    private final Set<LaunchCancellation> live = ConcurrentHashMap.newKeySet();
    /** Why every launch is refused from now on; null while launches may run. */
    private volatile String terminal;
    /** The time limit of one launch's run in nanoseconds; 0 for none. */
    private volatile long timeoutNanos;

    /** Tracks {@code c} while its launch is queued or running; stopped at once after a terminal stop. */
    void register(LaunchCancellation c) {
        live.add(c);
        String why = terminal;
        if (why != null) {
            c.cancel(CudaError.LAUNCH_FAILED, why);
        }
    }

    /** Ends tracking {@code c}: its launch has run (or was never queued). */
    void unregister(LaunchCancellation c) {
        live.remove(c);
    }

    /**
     * Stops every launch queued or running now with LAUNCH_FAILED and {@code reason}; with {@code terminal},
     * every later launch as well. Returns how many launches this call stopped.
     */
    int stopAll(String reason, boolean terminal) {
        if (terminal) {
            this.terminal = reason;
        }
        int n = 0;
        for (LaunchCancellation c : List.copyOf(live)) {
            n += c.cancel(CudaError.LAUNCH_FAILED, reason) ? 1 : 0;
        }
        return n;
    }

    /** Sets the limit on each launch's run, from when its first block may start; zero or null for none. */
    void setTimeout(Duration limit) {
        if (limit != null && limit.isNegative()) {
            throw new IllegalArgumentException("the kernel time limit must not be negative, got " + limit);
        }
        timeoutNanos = limit == null ? 0 : saturatedNanos(limit);
    }

    /** The limit on each launch's run in nanoseconds; 0 for none. */
    long timeoutNanos() {
        return timeoutNanos;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
