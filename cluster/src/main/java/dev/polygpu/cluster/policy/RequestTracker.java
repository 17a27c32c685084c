package dev.polygpu.cluster.policy;

import java.util.Objects;

/**
 * The thief's one outstanding steal request: its id, the member it was sent to and when, so that replies can be
 * matched to it, stale or duplicate replies dropped and a request that was never answered given up.
 *
 * <p>Ids start at 1 and increase by one per request; 0 is never an id. A reply is matched by id alone, not by
 * sender, because a request may be forwarded and answered by another member than the one asked. Once a request
 * is accepted, expired or abandoned, a reply carrying its id is stale.
 *
 * <p>Time is passed in by the caller (a monotonic clock such as {@code System.nanoTime()}, or simulated time),
 * and durations are differences of such readings.
 *
 * <p>Thread-safe: every method holds the instance's lock, so replies may be matched on another thread than the
 * one sending requests. A sequence of calls (such as {@link #outstanding()} then {@link #victim()}) is not atomic.
 */
public final class RequestTracker {

    private long nextId = 1;
    private long currentId;
    private String victim;
    private long startNanos;
    private long lastLatencyNanos = -1;

    /** A tracker with nothing outstanding, whose first request gets id 1. */
    public RequestTracker() {
    }

    /**
     * Starts a request.
     *
     * @param victim the member the request is sent to; not null
     * @param nowNanos the current time
     * @return the request's id, to be carried by the request and its reply
     * @throws IllegalStateException if a request is still outstanding
     * @throws NullPointerException if {@code victim} is null
     */
    public synchronized long begin(String victim, long nowNanos) {
        Objects.requireNonNull(victim, "victim");
        if (currentId != 0) {
            throw new IllegalStateException("steal request " + currentId + " to " + this.victim
                    + " is still outstanding; accept, expire or abandon it before starting another");
        }
        currentId = nextId++;
        this.victim = victim;
        startNanos = nowNanos;
        return currentId;
    }

    /** {@return whether a request is outstanding} */
    public synchronized boolean outstanding() {
        return currentId != 0;
    }

    /** {@return the member the outstanding request was sent to, or null when none is outstanding} */
    public synchronized String victim() {
        return victim;
    }

    /** {@return the id of the outstanding request, or 0 when none is outstanding} */
    public synchronized long requestId() {
        return currentId;
    }

    /**
     * Matches a reply to the outstanding request.
     *
     * @param requestId the id the reply carries
     * @param nowNanos the current time
     * @return true if the reply answers the outstanding request, which is then cleared and its latency
     *     ({@code nowNanos - start}, at least 0) recorded in {@link #lastLatencyNanos()}; false for a stale or
     *     duplicate reply, which the caller drops
     */
    public synchronized boolean accept(long requestId, long nowNanos) {
        if (currentId == 0 || requestId != currentId) {
            return false;
        }
        lastLatencyNanos = Math.max(0, nowNanos - startNanos);
        clear();
        return true;
    }

    /**
     * Gives the outstanding request up if it has waited {@code timeoutNanos} or longer.
     *
     * @param nowNanos the current time
     * @param timeoutNanos how long a request may wait ({@link StealSettings#requestTimeoutNanos()}); above 0
     * @return true if a request timed out and was cleared; a later reply with its id is stale
     * @throws IllegalArgumentException if {@code timeoutNanos} is not positive
     */
    public synchronized boolean expire(long nowNanos, long timeoutNanos) {
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException("timeoutNanos must be > 0, was " + timeoutNanos);
        }
        // A difference, not a comparison of readings, so that a wrapping clock still works.
        if (currentId == 0 || nowNanos - startNanos < timeoutNanos) {
            return false;
        }
        clear();
        return true;
    }

    /**
     * Gives the outstanding request up if it was sent to {@code member} (call when a member leaves: it will never
     * answer). A reply forwarded through that member to another one is then stale too.
     *
     * @param member the member that left; null changes nothing
     * @return true if the outstanding request was sent to {@code member} and was cleared
     */
    public synchronized boolean abandon(String member) {
        if (currentId == 0 || member == null || !member.equals(victim)) {
            return false;
        }
        clear();
        return true;
    }

    /** {@return the latency of the last accepted reply in nanoseconds, or -1 if none was accepted yet} */
    public synchronized long lastLatencyNanos() {
        return lastLatencyNanos;
    }

    private void clear() {
        currentId = 0;
        victim = null;
        startNanos = 0;
    }

    @Override
    public synchronized String toString() {
        return currentId == 0 ? "RequestTracker[idle, next id " + nextId + "]"
                : "RequestTracker[request " + currentId + " to " + victim + " since " + startNanos + "]";
    }
}
