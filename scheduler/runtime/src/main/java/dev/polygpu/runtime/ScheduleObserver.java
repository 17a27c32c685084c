package dev.polygpu.runtime;

/**
 * Watches a {@link Scheduler} from outside: DAG export, timelines and metrics plug in here, so the scheduler's
 * core knows nothing of them. Callbacks arrive in a consistent order per element ({@code submitted}, then
 * {@code launched} (not for host elements), then {@code completed}), from whichever thread caused the event
 * (a submitting host thread or a device completion thread), one at a time: the scheduler never calls an
 * observer concurrently with itself. Callbacks must be quick and must not call back into the scheduler.
 * Timestamps are {@link System#nanoTime()} values.
 */
public interface ScheduleObserver {

    /** {@code element} entered the DAG; {@code parents} are the ids of the elements it must follow. */
    default void submitted(ElementInfo element, long[] parents) {
    }

    /** {@code elementId} was placed on stream {@code streamId} of device {@code deviceName} at {@code nanos}. */
    default void launched(long elementId, String deviceName, int streamId, long nanos) {
    }

    /**
     * {@code elementId} finished. {@code startNanos} is when it could begin running (the later of its launch,
     * the end of the work before it on its stream and the end of its parents), {@code endNanos} when its
     * completion was observed. {@code failure} is the error message if it failed, else null.
     */
    default void completed(long elementId, long startNanos, long endNanos, String failure) {
    }

    /** The scheduler was closed: write out what was gathered. */
    default void closed() {
    }

    /**
     * An element ran on another cluster member: taken from this scheduler at {@code takenNanos}, run there from
     * {@code startNanos} to {@code endNanos} (in this process's {@link System#nanoTime()} base, as the cluster
     * layer estimated them) and reported back just before {@link #completed} is called for it.
     * {@code ownerDevice} names the device it was taken from, as {@link #launched} does.
     */
    default void ranRemotely(long elementId, String ownerDevice, String member, long takenNanos, long startNanos,
            long endNanos) {
    }
}
