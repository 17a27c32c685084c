package dev.polygpu.cluster.policy;

import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The victim side of work stealing on one member: the one place where a victim decides what to do with a steal
 * request, which the cluster node and the simulator both call. A request is answered in two steps around the
 * taking of elements, which only the caller can do (it owns the queue):
 * <ol>
 *   <li>{@link #offer(Ask, Load, int, int)}: how many elements the request may get at most ({@link Surplus}, the
 *       chunk, what the thief asked for and the {@link ThiefCap}). The caller then takes up to that many,
 *       highest rank first and none below the rank asked for, each one {@link #mayMove} lets go ({@link CostGate},
 *       aware of the victim's queue, with a probe that lets one element through after a long refusal).
 *   <li>{@link #answer}: given how many it took, whether the reply carries them, or the request goes on to a
 *       member a directory knows has work ({@link LoadDirectory#take}) or to another member ({@link Forwarding}),
 *       or the thief gets an empty reply; and whether the thief counts as turned away.
 * </ol>
 *
 * <p><b>Turned away</b> ({@link TurnedAway}, with {@link StealSettings#wakeThieves()}): a program remembers a
 * thief it gave nothing when the thief was starving (it asked for any rank), the program could give and it had
 * <em>no surplus at all</em> ({@link #surplus}: no stealable element above its threshold). It wakes the thieves
 * it remembers when its surplus is above 0 again ({@link #toWake}). The rule is the exact complement of the
 * wake-up's, so that a thief is woken as soon as what kept it away is gone, and never while it still would be:
 * a thief that got nothing although the victim had surplus (its cost gate kept every element home, the thief cap
 * left it nothing, or none was of the rank it asked for) is not remembered, since waking it at once would get it
 * refused again.
 *
 * <p>The probe: a victim that has given nothing for {@link #PROBE_AFTER_NANOS} lets the first element of the
 * next request through whatever the gate says. The bandwidth the gate uses is learned from elements that
 * moved, so an estimate spoiled by a cold or busy moment would otherwise never be corrected.
 *
 * <p>Thread-safe as far as the gate, the turned-away list and the directory are (they are); the time of the last
 * gift and the threshold are volatile. {@link #answer} draws from the {@link RandomGenerator} it is given, which
 * the caller must not share with another thread meanwhile.
 */
public final class Victim {

    /** A victim that refused everything this long lets one element through: 1 s. */
    public static final long PROBE_AFTER_NANOS = 1_000_000_000L;

    private final String self;
    private final StealSettings settings;
    private final CostGate gate;
    /** Whether this member is a program (may have work of its own): only a program remembers whom it turned away. */
    private final boolean program;
    /** The starving thieves this victim sent away with nothing, to wake when it has surplus. */
    private final TurnedAway turnedAway = new TurnedAway(TurnedAway.DEFAULT_CAPACITY);
    private volatile long lastGivenNanos;
    /** The threshold in force: the settings', or what {@link #setThreshold} made it (a member's learnt speed). */
    private volatile int threshold;

    /**
     * A steal request as the victim sees it.
     *
     * @param thief the member that asked (the reply goes to it, wherever the request went first)
     * @param hops how many times the request was forwarded already; at least 0
     * @param wanted how many elements the thief asked for (below 1 counts as 1)
     * @param minRank 0: any element (the thief is starving); else only elements of at least this rank
     *     ({@link Priority})
     */
    public record Ask(String thief, int hops, int wanted, int minRank) {
        /** Checks the thief and the hops. */
        public Ask {
            Objects.requireNonNull(thief, "thief");
            if (hops < 0) {
                throw new IllegalArgumentException("hops must be >= 0, was " + hops);
            }
        }

        /** {@return whether the thief asks by rank (it is not starving)} */
        public boolean byRank() {
            return minRank > 0;
        }
    }

    /**
     * A victim's load when it answers: its scheduler's, or a simulated member's.
     *
     * @param ready ready elements (parents done, not on a stream)
     * @param stealable how many of them may move (kernels with source, its own, not pinned)
     * @param running elements on its streams
     */
    public record Load(int ready, int stealable, int running) {
    }

    /** What the victim does with a request, once it has taken what it gives. */
    public enum Move {
        /** The reply carries the elements taken. */
        GIVE,
        /** The request goes on to {@link Answer#next()}, with one hop more. */
        FORWARD,
        /** The thief gets a reply with nothing. */
        REPLY_EMPTY
    }

    /**
     * A victim's answer to one request.
     *
     * @param move what to do with it
     * @param next where it is forwarded ({@link Move#FORWARD}); else null
     * @param byDirectory whether a directory chose {@code next} from the surplus reported to it
     *     ({@link LoadDirectory#take}) rather than {@link Forwarding}
     * @param turnedAway whether the thief was added to the thieves to wake (see the class comment)
     */
    public record Answer(Move move, String next, boolean byDirectory, boolean turnedAway) {
    }

    /**
     * A program's victim that counts as having given at {@code nowNanos} (so the first probe comes a second
     * later).
     *
     * @param self this member's id
     * @param gate the cost gate, whose settings are this victim's
     * @param nowNanos the current time
     * @throws NullPointerException if an argument is null
     */
    public Victim(String self, CostGate gate, long nowNanos) {
        this(self, gate, nowNanos, true);
    }

    /**
     * A victim that counts as having given at {@code nowNanos} (so the first probe comes a second later).
     *
     * @param self this member's id
     * @param gate the cost gate, whose settings are this victim's
     * @param nowNanos the current time
     * @param program whether the member is a program (may have work of its own); a worker never has any, and
     *     does not remember the thieves it turns away
     * @throws NullPointerException if an argument is null
     */
    public Victim(String self, CostGate gate, long nowNanos, boolean program) {
        this.self = Objects.requireNonNull(self, "self");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.settings = gate.settings();
        this.threshold = settings.threshold();
        this.lastGivenNanos = nowNanos;
        this.program = program;
    }

    /** {@return whether {@code thief} is this member: a request of its own was forwarded back to it} */
    public boolean isSelf(String thief) {
        return self.equals(thief);
    }

    /**
     * The first step of answering: how many elements {@code ask} may get at most,
     * {@link #offer(int, int, int, int, int, int, boolean)} with the request's count and kind.
     *
     * @param ask the request
     * @param load this member's load
     * @param thiefSlots how many elements the thief runs at once, as far as this member knows (for the
     *     {@link ThiefCap}; below 1 counts as 1)
     * @param heldByThief elements this member gave that thief and has not got back (for the cap; below 0 counts
     *     as 0)
     * @return from 0 to {@code min(chunk, stealable)}
     */
    public int offer(Ask ask, Load load, int thiefSlots, int heldByThief) {
        return offer(load.ready(), load.stealable(), load.running(), ask.wanted(), thiefSlots, heldByThief,
                ask.byRank());
    }

    /**
     * The second step of answering: what to do with {@code ask} once {@code given} elements were taken for it
     * (see the class comment). With work, the thief no longer waits to be woken; without, it is remembered as
     * turned away if so, and the request goes to the member with the most surplus of the rank asked for that
     * {@code directory} knows, else where {@link #forwardTo} says, else back to the thief empty.
     *
     * @param ask the request
     * @param load this member's load when the elements were taken, before any was; may be null when
     *     {@code mayGive} is false (it is then not looked at)
     * @param mayGive whether this member could give at all: stealing is on, it is not leaving, it is in the
     *     cluster and the thief is a member it trusts
     * @param given how many elements were taken for the request
     * @param directory the surplus reported to this member as a directory, or null without directories
     * @param selfLastVictim the member that last gave work to this member, or null
     * @param candidates the members a request may go to (programs, in the order every member sees)
     * @param rnd where a random choice comes from
     * @return the answer
     */
    public Answer answer(Ask ask, Load load, boolean mayGive, int given, LoadDirectory directory,
                         String selfLastVictim, List<String> candidates, RandomGenerator rnd) {
        if (given > 0) {
            turnedAway.remove(ask.thief());
            return new Answer(Move.GIVE, null, false, false);
        }
        boolean away = mayGive && program && !ask.byRank() && settings.wakeThieves() && surplus(load) == 0;
        if (away) {
            turnedAway.add(ask.thief());
        }
        String next = null;
        if (directory != null && ask.hops() < settings.maxHops()) {
            next = directory.take(ask.thief(), self, ask.wanted(), ask.minRank(), candidates);
        }
        boolean byDirectory = next != null;
        if (next == null) {
            next = forwardTo(ask.thief(), ask.hops(), selfLastVictim, candidates, rnd);
        }
        return new Answer(next == null ? Move.REPLY_EMPTY : Move.FORWARD, next, byDirectory, away);
    }

    /**
     * What this member could give now: its stealable elements above its threshold ({@link LoadDirectory#surplus}
     * with the threshold in force).
     *
     * @param load this member's load
     * @return the surplus, at least 0
     */
    public int surplus(Load load) {
        return LoadDirectory.surplus(load.ready(), load.stealable(), load.running(), threshold);
    }

    /** {@return whether any thief waits to be woken} */
    public boolean anyTurnedAway() {
        return !turnedAway.isEmpty();
    }

    /**
     * The thieves to wake now: with a surplus above 0, the ones turned away longest ago, at most as many as the
     * surplus, taken off the list. The caller answers each as {@link #wakeUpAsk} asks (the work a reply would
     * have carried, pushed), or tells it of the surplus where nothing may move.
     *
     * @param load this member's load
     * @return the thieves, oldest first; empty without surplus or without thieves to wake
     */
    public List<String> toWake(Load load) {
        if (turnedAway.isEmpty()) {
            return List.of();
        }
        int surplus = surplus(load);
        return surplus == 0 ? List.of() : turnedAway.take(surplus);
    }

    /**
     * The request a woken thief is answered as: what a starving thief with nothing asks for, this member's
     * threshold of any rank.
     *
     * @param thief the thief
     * @return the request
     */
    public Ask wakeUpAsk(String thief) {
        return new Ask(thief, 0, threshold, 0);
    }

    /**
     * Forgets a member that left: it is not woken.
     *
     * @param member the member
     */
    public void forget(String member) {
        turnedAway.remove(member);
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
     * <p>Why: a stolen chain link otherwise waits at its owner for the next request by rank that reaches it, and a
     * long chain pays that wait once per link. Pushing only to thieves that hold nothing else stolen won in the
     * simulator; pushing to thieves that held one more lost, as their chains queue behind each other (the figures:
     * docs/benchmarks.md, "Figures behind the stealing policy").
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
