package dev.polygpu.cluster.policy;

import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The victim side of work stealing on one member: how many elements a request may get ({@link Surplus}, the
 * chunk and what the thief asked for), whether each one is worth moving ({@link CostGate}, aware of the
 * victim's queue), a probe that lets one element through after a long refusal, and where to forward a request
 * it cannot serve ({@link Forwarding}). The cluster node and the simulator both drive it.
 *
 * <p>The probe: a victim that has given nothing for {@link #PROBE_AFTER_NANOS} lets the first element of the
 * next request through whatever the gate says. The bandwidth the gate uses is learned from elements that
 * moved, so an estimate spoiled by a cold or busy moment would otherwise never be corrected.
 *
 * <p>Thread-safe as far as the gate is (it is); the time of the last gift is volatile.
 */
public final class Victim {

    /** A victim that refused everything this long lets one element through: 1 s. */
    public static final long PROBE_AFTER_NANOS = 1_000_000_000L;

    private final String self;
    private final StealSettings settings;
    private final CostGate gate;
    private volatile long lastGivenNanos;
    /** The threshold in force: the settings', or what {@link #setThreshold} made it (a member's learnt speed). */
    private volatile int threshold;

    /**
     * A victim that counts as having given at {@code nowNanos} (so the first probe comes a second later).
     *
     * @param self this member's id
     * @param gate the cost gate, whose settings are this victim's
     * @param nowNanos the current time
     * @throws NullPointerException if an argument is null
     */
    public Victim(String self, CostGate gate, long nowNanos) {
        this.self = Objects.requireNonNull(self, "self");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.settings = gate.settings();
        this.threshold = settings.threshold();
        this.lastGivenNanos = nowNanos;
    }

    /**
     * How many elements a request may get at most: {@code min(stealable, giveable)} where giveable keeps this
     * member at its threshold and gives at most {@code min(chunk, wanted)} ({@link Surplus}).
     *
     * @param ready ready elements here
     * @param stealable how many of them may move (kernels with source, not pinned)
     * @param running elements on streams
     * @param wanted how many the thief asked for (below 1 counts as 1)
     * @return from 0 to {@code min(chunk, stealable)}
     */
    public int offer(int ready, int stealable, int running, int wanted) {
        int chunk = Math.min(settings.chunk(), Math.max(1, wanted));
        return Math.min(Math.max(0, stealable), Surplus.giveable(ready, running, threshold, chunk));
    }

    /**
     * Changes the threshold this victim never gives below (a member that learnt it is slower than others keeps
     * less: {@link SpeedEstimate#threshold}).
     *
     * @param newThreshold at least 1
     * @throws IllegalArgumentException if {@code newThreshold} is below 1
     */
    public void setThreshold(int newThreshold) {
        if (newThreshold < 1) {
            throw new IllegalArgumentException("threshold must be >= 1, was " + newThreshold);
        }
        threshold = newThreshold;
    }

    /** {@return the threshold this victim keeps for itself} */
    public int threshold() {
        return threshold;
    }

    /**
     * {@link #offer(int, int, int, int)}, then capped by the settings' {@link ThiefCap} for this thief: with the
     * cap on, a thief gets at most its slots less what it holds of this member's elements already.
     *
     * @param ready ready elements here
     * @param stealable how many of them may move (kernels with source, not pinned)
     * @param running elements on streams
     * @param wanted how many the thief asked for (below 1 counts as 1)
     * @param thiefSlots how many elements the thief runs at once, as far as this member knows (below 1 counts
     *     as 1)
     * @param heldByThief elements this member gave that thief and has not got back (below 0 counts as 0)
     * @param byRank whether the request is by rank (the thief is not starving)
     * @return from 0 to what {@link #offer(int, int, int, int)} returns
     */
    public int offer(int ready, int stealable, int running, int wanted, int thiefSlots, int heldByThief,
                     boolean byRank) {
        int n = offer(ready, stealable, running, wanted);
        return settings.thiefCap().cap(n, Math.max(1, thiefSlots), Math.max(0, heldByThief), byRank);
    }

    /**
     * Whether the {@code given}-th element of a reply (0 for the first) may move: the probe lets the first one
     * through after a long refusal; otherwise the cost gate decides, with the element's wait here being that of
     * the elements ahead of it (the ready ones not given before it, and the running ones) on {@code slots}
     * concurrent blocks.
     *
     * @param given elements already put in this reply
     * @param kernelKey the element's kernel
     * @param bytes every byte that must travel for it (the arrays it reads)
     * @param ready ready elements here before this request took any
     * @param running elements on streams
     * @param slots how many elements the device runs at once (below 1 counts as 1)
     * @param nowNanos the current time
     * @return true to give it
     */
    public boolean mayMove(int given, String kernelKey, long bytes, int ready, int running, int slots,
                           long nowNanos) {
        if (given == 0 && nowNanos - lastGivenNanos > PROBE_AFTER_NANOS) {
            return true;
        }
        int ahead = Math.max(0, ready - 1 - given + running);
        return gate.worthMoving(kernelKey, bytes, gate.waitHereNanos(kernelKey, ahead, Math.max(1, slots)));
    }

    /**
     * Whether an owner sends the element that a thief's result has just made ready (the next link of a chain)
     * straight to that thief, with no request: when the settings push continuations, the thief held no other
     * stolen element when it sent the result (so the element waits there for nothing but a slot; a thief that
     * holds several chains runs each slower), and a request for one element would get it
     * ({@link #offer(int, int, int, int)}). The caller asks the gate ({@link #mayMove}) as for any element.
     *
     * <p>Why: a stolen chain link otherwise waits at its owner for the next request by rank that reaches it
     * (1.5–2 ms on average in the simulator's bspgemm at 1,024 members), and a chain of 200 links pays that 200
     * times; with continuations pushed only to thieves that hold nothing else stolen the mean efficiency over 8
     * seeds went from 96.9% to 98.0% (docs/benchmarks.md, issue #7, tenth session), and pushing to thieves that
     * held one more lost (92.6%): their chains queue behind each other.
     *
     * @param thiefHolds stolen elements (of any owner) the thief held when it sent the result, ready or on its
     *     streams
     * @param ready ready elements here, the continuation included
     * @param stealable how many of them may move, the continuation included
     * @param running elements on streams
     * @return true to push it
     */
    public boolean pushContinuation(int thiefHolds, int ready, int stealable, int running) {
        return settings.pushContinuations() && thiefHolds == 0 && offer(ready, stealable, running, 1) >= 1;
    }

    /** Records that an element was given at {@code nowNanos} (it resets the probe's clock). */
    public void gave(long nowNanos) {
        lastGivenNanos = nowNanos;
    }

    /**
     * Where to forward a request this member could not serve, or null to reply empty.
     *
     * @param thief the member that asked
     * @param hops how many times the request was forwarded already
     * @param selfLastVictim the member that last gave work to this member, or null
     * @param candidates the members it may go to
     * @param rnd where a random choice comes from
     * @return the member to forward to (with {@code hops + 1}), or null
     */
    public String forwardTo(String thief, int hops, String selfLastVictim, List<String> candidates,
                            RandomGenerator rnd) {
        return Forwarding.next(thief, self, hops, settings.maxHops(), selfLastVictim, candidates, rnd);
    }

    /** {@return the cost gate this victim asks} */
    public CostGate gate() {
        return gate;
    }
}
