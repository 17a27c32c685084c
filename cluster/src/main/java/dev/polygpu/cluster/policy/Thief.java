package dev.polygpu.cluster.policy;

import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The thief side of work stealing on one member, as one state machine: when to ask ({@link Starvation} and a
 * back-off after empty replies), whom ({@link VictimChooser}), how many elements to ask for, and which reply
 * answers the one outstanding request ({@link RequestTracker}). The cluster node and the simulator both drive
 * it; neither decides anything of the thief's protocol by itself.
 *
 * <p>Back-off: after {@code k} empty replies (or timeouts) in a row the next request waits
 * {@code min(MAX_BACKOFF_NANOS, FIRST_BACKOFF_NANOS << (k - 1))}: 1, 2, 4 … ms up to 50 ms, so the idle thieves
 * of an idle cluster do not flood it. A reply with work, or {@link #resetBackOff}, ends it.
 *
 * <p>Time comes in as {@code long} nanoseconds of one monotonic clock (real or simulated), compared by
 * difference. Thread-safe: every method holds the instance's lock.
 */
public final class Thief {

    /** The wait after the first empty reply: 1 ms. */
    public static final long FIRST_BACKOFF_NANOS = 1_000_000L;
    /** The longest wait between requests after empty replies: 50 ms. */
    public static final long MAX_BACKOFF_NANOS = 50_000_000L;

    private final StealSettings settings;
    private final VictimChooser chooser;
    private final RequestTracker requests = new RequestTracker();
    private int emptyInARow;
    private boolean quiet;
    private long quietUntilNanos;

    /**
     * A thief with no request out and no back-off.
     *
     * @param self this member's id
     * @param settings the threshold, timeout and the rest
     * @throws NullPointerException if an argument is null
     */
    public Thief(String self, StealSettings settings) {
        this.chooser = new VictimChooser(self);
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * A steal request to send.
     *
     * @param victim the member to send it to
     * @param requestId the id its reply will carry
     * @param wanted how many elements the thief asks for: what it lacks to reach its threshold, at least 1
     */
    public record Request(String victim, long requestId, int wanted) {
    }

    /**
     * Gives the outstanding request up if it has waited the settings' timeout; that counts as an empty reply
     * from its victim (forgotten as last victim, back-off).
     *
     * @param nowNanos the current time
     * @return true if a request timed out now
     */
    public synchronized boolean expire(long nowNanos) {
        String victim = requests.victim();
        if (!requests.expire(nowNanos, settings.requestTimeoutNanos())) {
            return false;
        }
        chooser.onReply(victim, 0);
        backOff(nowNanos);
        return true;
    }

    /** {@return whether a request may go now: none is outstanding and the back-off is over} */
    public synchronized boolean idle(long nowNanos) {
        return !requests.outstanding() && !backingOff(nowNanos);
    }

    /**
     * Starts a request if this member is starving ({@code ready + running} below the threshold), none is
     * outstanding, the back-off is over and there is someone to ask.
     *
     * @param nowNanos the current time
     * @param ready ready elements here (parents done, not on a stream)
     * @param running elements on streams, plus stolen elements received and not yet queued
     * @param candidates the members that may be asked (the thief itself is never chosen)
     * @param rnd where a random victim comes from
     * @return the request to send, or null when no request goes now
     */
    public synchronized Request begin(long nowNanos, int ready, int running, List<String> candidates,
                                      RandomGenerator rnd) {
        if (requests.outstanding() || backingOff(nowNanos) || !Starvation.starving(ready, running, settings)) {
            return null;
        }
        String victim = chooser.choose(candidates, rnd);
        if (victim == null) {
            return null;
        }
        long id = requests.begin(victim, nowNanos);
        int wanted = (int) Math.max(1, settings.threshold() - (long) ready - running);
        return new Request(victim, id, wanted);
    }

    /**
     * Matches a reply to the outstanding request; an accepted reply with work ends the back-off and makes its
     * sender the first member asked next time, an empty one starts or lengthens the back-off.
     *
     * @param requestId the id the reply carries
     * @param sender the member that replied (after forwarding, the one that gave)
     * @param items how many elements it carries
     * @param nowNanos the current time
     * @return true if it answers the outstanding request; false for a stale or duplicate reply, whose work
     *     (if any) the caller hands back
     */
    public synchronized boolean accept(long requestId, String sender, int items, long nowNanos) {
        if (!requests.accept(requestId, nowNanos)) {
            return false;
        }
        chooser.onReply(sender, items);
        if (items == 0) {
            backOff(nowNanos);
        } else {
            emptyInARow = 0;
            quiet = false;
        }
        return true;
    }

    /** Ends the back-off now (a member joined or left: there may be work to find again). */
    public synchronized void resetBackOff() {
        emptyInARow = 0;
        quiet = false;
    }

    /**
     * A member left: it is no longer asked first, and a request out to it is given up (it will not answer).
     *
     * @param member the member that left
     * @return true if the outstanding request was to that member and was given up
     */
    public synchronized boolean forget(String member) {
        chooser.forget(member);
        return requests.abandon(member);
    }

    /** {@return the latency of the last accepted reply, or -1 if none was accepted} */
    public synchronized long lastLatencyNanos() {
        return requests.lastLatencyNanos();
    }

    /** {@return the member that last gave work and is asked first, or null} */
    public synchronized String lastVictim() {
        return chooser.lastVictim();
    }

    /** {@return whether a request is outstanding} */
    public synchronized boolean outstanding() {
        return requests.outstanding();
    }

    /** {@return when the back-off ends, or {@code nowNanos} if there is none} */
    public synchronized long quietUntil(long nowNanos) {
        return backingOff(nowNanos) ? quietUntilNanos : nowNanos;
    }

    /** {@return the settings this thief asks by} */
    public StealSettings settings() {
        return settings;
    }

    private boolean backingOff(long nowNanos) {
        return quiet && nowNanos - quietUntilNanos < 0;
    }

    private void backOff(long nowNanos) {
        emptyInARow = Math.min(emptyInARow + 1, 16);
        quiet = true;
        quietUntilNanos = nowNanos + Math.min(MAX_BACKOFF_NANOS, FIRST_BACKOFF_NANOS << Math.min(emptyInARow - 1, 10));
    }

    @Override
    public synchronized String toString() {
        return "Thief[" + chooser.self() + ", " + requests + ", empty in a row " + emptyInARow + "]";
    }
}
