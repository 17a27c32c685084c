package dev.polygpu.device.cpu;

import java.util.concurrent.CountDownLatch;

/**
 * One recording of an event: completes, with the time it did, when the stream it was recorded into reaches it.
 *
 * <p>Implementation notes: {@link #nanos} is written before {@link #reached} opens and read only after, so
 * the latch publishes it.
 */
final class EventMarker {
    private final CountDownLatch reached = new CountDownLatch(1);
    private long nanos;

    /** Called by the dispatcher of the stream the marker was recorded into. */
    void complete() {
        nanos = System.nanoTime();
        reached.countDown();
    }

    boolean isComplete() {
        return reached.getCount() == 0;
    }

    void await() {
        GridLaunch.awaitUninterruptibly(reached);
    }

    /** The {@link System#nanoTime()} at completion; only meaningful once complete. */
    long nanos() {
        return nanos;
    }
}
