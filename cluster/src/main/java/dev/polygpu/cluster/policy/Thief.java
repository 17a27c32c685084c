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
 * <p>Two kinds of request: a starving member asks for any work ({@link Starvation}); a member that is busy
 * with low-ranked work asks for elements of higher rank only ({@link Priority}), when it gives
 * {@link #begin(long, int, int, int, List, RandomGenerator)} its floor rank.
 *
 * <p>Back-off: after {@code k} empty replies (or timeouts) in a row the next request waits
 * {@code min(MAX_BACKOFF_NANOS, FIRST_BACKOFF_NANOS << (k - 1))}: 1, 2, 4 … ms up to 50 ms, so the idle thieves
 * of an idle cluster do not flood it. A reply with work, or {@link #resetBackOff}, ends it; so does a wake-up
 * from a member that turned this thief away and has work now ({@link #wake}, {@link TurnedAway}). The next
 * request then goes where it would have gone: sending it to the member that woke the thief instead lost in the
 * simulator, since a directory knows better where the most surplus is (the figures behind this and the choices
 * below: docs/benchmarks.md, "Figures behind the stealing policy"). Requests by rank
 * back off on their own count, up to {@link #MAX_RANK_BACKOFF_NANOS}, so that a busy member that finds no
 * urgent work still asks at once when it starves; only work received by rank (or a reset) ends that back-off.
 *
 * <p>Victim choice after forwarded empty replies: the member that last gave work is asked first, and is
 * forgotten when it replies empty itself ({@link VictimChooser}). A request it forwards comes back empty from
 * another member, which changes nothing there, so a thief keeps asking along the same path of last givers. That
 * path leads to members that give, which helps: in the simulator, forgetting it after every forwarded empty
 * reply, or after 8 in a row, lost heavily on every large workload tried. But it can also keep every thief of the
 * cluster away from a loaded member that no path leads to. With {@code forgetAfterForwardedEmpty} {@code n} above
 * 0, {@code n} empty replies in a row to requests sent to the remembered victim (forwarded or not) make the thief
 * forget it, so the next request goes to a random member. 0 (the default, what {@code ClusterNode} uses) keeps
 * the path as long as the remembered victim forwards. With {@code randomEvery} {@code n} above 0, every
 * {@code n}-th request (counting all) goes to a member drawn at random (possibly the remembered victim, which
 * stays remembered): the path is kept, and a member no path leads to is still asked now and then. 0 never does;
 * the cluster node takes {@code n} from its configuration ({@code ClusterConfig.DEFAULT_RANDOM_EVERY} by
 * default).
 *
 * <p>Time comes in as {@code long} nanoseconds of one monotonic clock (real or simulated), compared by
 * difference. Thread-safe: every method holds the instance's lock.
 */
public final class Thief {

    /** The wait after the first empty reply: 1 ms. */
    public static final long FIRST_BACKOFF_NANOS = 1_000_000L;
    /** The longest wait between requests after empty replies: 50 ms. */
    public static final long MAX_BACKOFF_NANOS = 50_000_000L;
    /**
     * The longest wait between requests by rank after empty replies: 1 s. Such requests are a busy member's
     * bet that urgent work exists; where every element ranks alike (independent kernels) none ever does.
     */
    public static final long MAX_RANK_BACKOFF_NANOS = 1_000_000_000L;

    private final StealSettings settings;
    /** The threshold in force: the settings', or what {@link #setThreshold} made it (a member's learnt speed). */
    private int threshold;
    private final VictimChooser chooser;
    private final RequestTracker requests = new RequestTracker();
    private final BackOff starving = new BackOff(MAX_BACKOFF_NANOS);
    private final BackOff byRank = new BackOff(MAX_RANK_BACKOFF_NANOS);
    /** Whether the outstanding request asks by rank. */
    private boolean outstandingByRank;
    /** Forget the remembered victim after this many empty replies in a row through it; 0: never for forwarded. */
    private final int forgetAfterForwardedEmpty;
    /** Empty replies in a row to requests sent to the remembered victim that came from another member. */
    private int forwardedEmptyInARow;
    /** Every this many requests, one goes to a random member; 0: never. */
    private final int randomEvery;
    /** How many directories ({@link LoadDirectory}); 0: none. */
    private final int directories;
    /** Whether the last starving request came back empty: the next one goes to a directory. */
    private boolean askDirectory;
    /** Whether the last request by rank came back empty: the next one goes to a directory. */
    private boolean askDirectoryByRank;
    /** Requests begun so far. */
    private long begun;

    /**
     * A thief with no request out and no back-off.
     *
     * @param self this member's id
     * @param settings the threshold, timeout and the rest
     * @throws NullPointerException if an argument is null
     */
    public Thief(String self, StealSettings settings) {
        this(self, settings, 0);
    }

    /**
     * A thief with no request out and no back-off that forgets its remembered victim after
     * {@code forgetAfterForwardedEmpty} empty replies in a row through it (see the class comment).
     *
     * @param self this member's id
     * @param settings the threshold, timeout and the rest
     * @param forgetAfterForwardedEmpty at least 0; 0 never forgets it for replies from another member
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code forgetAfterForwardedEmpty} is negative
     */
    public Thief(String self, StealSettings settings, int forgetAfterForwardedEmpty) {
        this(self, settings, forgetAfterForwardedEmpty, 0);
    }

    /**
     * A thief with no request out and no back-off that forgets its remembered victim after
     * {@code forgetAfterForwardedEmpty} empty replies in a row through it, and sends every {@code randomEvery}-th
     * request to a random member (see the class comment).
     *
     * @param self this member's id
     * @param settings the threshold, timeout and the rest
     * @param forgetAfterForwardedEmpty at least 0; 0 never forgets it for replies from another member
     * @param randomEvery at least 0; 0 always asks the remembered victim first
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if a count is negative
     */
    public Thief(String self, StealSettings settings, int forgetAfterForwardedEmpty, int randomEvery) {
        this(self, settings, forgetAfterForwardedEmpty, randomEvery, 0);
    }

    /**
     * A thief as {@link #Thief(String, StealSettings, int, int)} that, with {@code directories} above 0, sends
     * a request after an empty reply to a request of the same kind (starving, or by rank) to one of the first
     * {@code directories} candidates, drawn at random, until a request of that kind brings work
     * ({@link LoadDirectory}).
     *
     * @param self this member's id
     * @param settings the threshold, timeout and the rest
     * @param forgetAfterForwardedEmpty at least 0; 0 never forgets it for replies from another member
     * @param randomEvery at least 0; 0 always asks the remembered victim first
     * @param directories at least 0; 0: no directories
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if a count is negative
     */
    public Thief(String self, StealSettings settings, int forgetAfterForwardedEmpty, int randomEvery,
                 int directories) {
        if (directories < 0) {
            throw new IllegalArgumentException("directories must be >= 0, was " + directories);
        }
        this.directories = directories;
        if (randomEvery < 0) {
            throw new IllegalArgumentException("randomEvery must be >= 0, was " + randomEvery);
        }
        this.randomEvery = randomEvery;
        if (forgetAfterForwardedEmpty < 0) {
            throw new IllegalArgumentException("forgetAfterForwardedEmpty must be >= 0, was "
                    + forgetAfterForwardedEmpty);
        }
        this.chooser = new VictimChooser(self);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.threshold = settings.threshold();
        this.forgetAfterForwardedEmpty = forgetAfterForwardedEmpty;
    }

    /**
     * A steal request to send.
     *
     * @param victim the member to send it to
     * @param requestId the id its reply will carry
     * @param wanted how many elements the thief asks for: what it lacks to reach its threshold, at least 1
     * @param minRank 0: any element; else only elements of at least this rank ({@link Priority})
     */
    public record Request(String victim, long requestId, int wanted, int minRank) {
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
        current().backOff(nowNanos);
        return true;
    }

    /** {@return whether a request may go now: none is outstanding and the back-off is over} */
    public synchronized boolean idle(long nowNanos) {
        return !requests.outstanding() && !starving.active(nowNanos);
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
    public Request begin(long nowNanos, int ready, int running, List<String> candidates, RandomGenerator rnd) {
        return begin(nowNanos, ready, running, 0, candidates, rnd);
    }

    /**
     * Starts a request if none is outstanding and there is someone to ask: for any work if this member is
     * starving and its back-off is over; else, if its floor rank is at least 1 and asking by rank is on and not
     * backing off, for up to {@link StealSettings#rankChunk()} elements of rank at least
     * {@link Priority#minRankToAsk}.
     *
     * @param nowNanos the current time
     * @param ready ready elements here (parents done, not on a stream)
     * @param running elements on streams, plus stolen elements received and not yet queued
     * @param floorRank the lowest rank among the {@code slots} highest-ranked elements this member holds
     *     ({@link Priority#floorRank}); 0 when unknown, which never asks by rank
     * @param candidates the members that may be asked (the thief itself is never chosen)
     * @param rnd where a random victim comes from
     * @return the request to send, or null when no request goes now
     */
    public synchronized Request begin(long nowNanos, int ready, int running, int floorRank,
                                      List<String> candidates, RandomGenerator rnd) {
        if (requests.outstanding()) {
            return null;
        }
        int minRank;
        int wanted;
        if (Starvation.starving(ready, running, threshold)) {
            if (starving.active(nowNanos)) {
                return null;
            }
            minRank = 0;
            wanted = (int) Math.max(1, threshold - (long) ready - running);
        } else {
            minRank = Priority.minRankToAsk(floorRank, settings);
            if (minRank == 0 || byRank.active(nowNanos)) {
                return null;
            }
            wanted = settings.rankChunk();
        }
        String victim = randomEvery > 0 && ++begun % randomEvery == 0
                ? Candidates.uniform(candidates, chooser.self(), null, rnd)
                : (minRank == 0 ? askDirectory : askDirectoryByRank)
                ? Candidates.uniform(LoadDirectory.directories(candidates, directories), chooser.self(), null, rnd)
                : chooser.choose(candidates, rnd);
        if (victim == null) {
            victim = chooser.choose(candidates, rnd);
        }
        if (victim == null) {
            return null;
        }
        long id = requests.begin(victim, nowNanos);
        outstandingByRank = minRank > 0;
        return new Request(victim, id, wanted, minRank);
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
        String asked = requests.victim();
        if (!requests.accept(requestId, nowNanos)) {
            return false;
        }
        chooser.onReply(sender, items);
        if (items > 0 || asked == null || !asked.equals(chooser.lastVictim())) {
            forwardedEmptyInARow = 0;
        } else if (forgetAfterForwardedEmpty > 0 && ++forwardedEmptyInARow >= forgetAfterForwardedEmpty) {
            // The path through the remembered victim found nothing n times in a row: ask at random next time.
            chooser.forget(asked);
            forwardedEmptyInARow = 0;
        }
        if (outstandingByRank) {
            askDirectoryByRank = directories > 0 && items == 0;
        } else {
            askDirectory = directories > 0 && items == 0;
        }
        if (items == 0) {
            current().backOff(nowNanos);
        } else if (outstandingByRank) {
            // Urgent work exists: any kind of request may find more.
            starving.reset();
            byRank.reset();
        } else {
            // Work of any rank says nothing of urgent work: requests by rank keep backing off.
            starving.reset();
        }
        return true;
    }

    /** What a reply meant to the thief ({@link #onReply}). */
    public enum Reply {
        /**
         * It answers no request outstanding now (late or duplicate): its work, if any, goes back to its sender
         * unstarted.
         */
        STALE,
        /** It answers the outstanding request with nothing. */
        EMPTY,
        /** It carries work to run (as the answer to the outstanding request, or pushed unasked). */
        WORK
    }

    /**
     * What the thief does with a reply: the decision the cluster node and the simulator both take. A pushed
     * reply (a continuation, or the work of a member that turned this thief away) answers no request, so the
     * request state is left alone, and with {@link StealSettings#wakeThieves()} its work ends a back-off
     * ({@link #wake}); any other is matched to the outstanding request ({@link #accept}).
     *
     * @param requestId the id the reply carries
     * @param sender the member that replied
     * @param items how many elements it carries
     * @param pushed whether it was pushed, answering no request
     * @param nowNanos the current time
     * @return what it means; for {@link Reply#WORK} not pushed, {@link #lastLatencyNanos()} is its latency
     */
    public synchronized Reply onReply(long requestId, String sender, int items, boolean pushed, long nowNanos) {
        if (!pushed && !accept(requestId, sender, items, nowNanos)) {
            return Reply.STALE;
        }
        if (items == 0) {
            return Reply.EMPTY;
        }
        if (pushed && settings.wakeThieves()) {
            // Work from a member that has more: a back-off from empty replies ends.
            wake(sender, nowNanos);
        }
        return Reply.WORK;
    }

    /**
     * A program reports its surplus to this member (as a wake-up, or to this member as a directory): with
     * {@link StealSettings#wakeThieves()} and a surplus above 0, a thief that may ask stops backing off
     * ({@link #wake}).
     *
     * @param sender the program
     * @param surplus the surplus it reports
     * @param mayAsk whether this member steals at all now (stealing on, not leaving)
     * @param nowNanos the current time
     * @return whether the back-off ended, so that the thief should look at once
     */
    public synchronized boolean onLoadReport(String sender, int surplus, boolean mayAsk, long nowNanos) {
        return surplus > 0 && mayAsk && settings.wakeThieves() && wake(sender, nowNanos);
    }

    /**
     * A member says it has work to give now: if this thief is backing off as a starving member (its last
     * requests came back empty), the back-off ends, so that it asks again at once (whom, it chooses as always).
     * A thief that is not backing off is not changed: it is busy, or already asking.
     *
     * @param member the member that has work; not null; this thief itself changes nothing
     * @param nowNanos the current time
     * @return whether the back-off ended
     * @throws NullPointerException if {@code member} is null
     */
    public synchronized boolean wake(String member, long nowNanos) {
        Objects.requireNonNull(member, "member");
        if (member.equals(chooser.self()) || !starving.active(nowNanos)) {
            return false;
        }
        starving.reset();
        return true;
    }

    /**
     * Changes the starvation threshold this thief asks by (a member that learnt it is slower than others keeps
     * less: {@link SpeedEstimate#threshold}); the settings' other numbers stay.
     *
     * @param newThreshold at least 1
     * @throws IllegalArgumentException if {@code newThreshold} is below 1
     */
    public synchronized void setThreshold(int newThreshold) {
        if (newThreshold < 1) {
            throw new IllegalArgumentException("threshold must be >= 1, was " + newThreshold);
        }
        threshold = newThreshold;
    }

    /** {@return the starvation threshold in force} */
    public synchronized int threshold() {
        return threshold;
    }

    /** Ends the back-off now (a member joined or left: there may be work to find again). */
    public synchronized void resetBackOff() {
        starving.reset();
        byRank.reset();
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

    /** {@return when the back-off of a starving member's requests ends, or {@code nowNanos} if there is none} */
    public synchronized long quietUntil(long nowNanos) {
        return starving.active(nowNanos) ? starving.untilNanos : nowNanos;
    }

    /**
     * {@return when the back-offs in force end: the earlier of the two (the one of requests by rank only while
     * asking by rank is on), or {@code nowNanos} if neither is in force}
     */
    public synchronized long nextRequestAt(long nowNanos) {
        boolean starvingWaits = starving.active(nowNanos);
        boolean rankWaits = settings.rankFactor() > 0 && byRank.active(nowNanos);
        if (!starvingWaits && !rankWaits) {
            return nowNanos;
        }
        if (!rankWaits) {
            return starving.untilNanos;
        }
        if (!starvingWaits) {
            return byRank.untilNanos;
        }
        return starving.untilNanos - byRank.untilNanos < 0 ? starving.untilNanos : byRank.untilNanos;
    }

    private BackOff current() {
        return outstandingByRank ? byRank : starving;
    }

    /** Waits after empty replies in a row: 1, 2, 4 … ms up to {@link #MAX_BACKOFF_NANOS}. */
    private static final class BackOff {
        private final long maxNanos;
        private int emptyInARow;
        private boolean quiet;
        private long untilNanos;

        BackOff(long maxNanos) {
            this.maxNanos = maxNanos;
        }

        boolean active(long nowNanos) {
            return quiet && nowNanos - untilNanos < 0;
        }

        void backOff(long nowNanos) {
            emptyInARow = Math.min(emptyInARow + 1, 16);
            quiet = true;
            untilNanos = nowNanos + Math.min(maxNanos, FIRST_BACKOFF_NANOS << Math.min(emptyInARow - 1, 20));
        }

        void reset() {
            emptyInARow = 0;
            quiet = false;
        }
    }

    @Override
    public synchronized String toString() {
        return "Thief[" + chooser.self() + ", " + requests + ", empty in a row " + starving.emptyInARow + ", by rank "
                + byRank.emptyInARow + "]";
    }
}
