package dev.polygpu.cluster.policy;

import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The victim's move when it has nothing to give: pass the thief's request on to another member, up to a hop
 * limit, or answer the thief with an empty reply.
 *
 * <p>A victim forwards first to the member that last gave <em>it</em> work (its own {@link VictimChooser}'s last
 * victim), which likely still has some, and otherwise to a random member. A request is never forwarded back to
 * the thief or to the forwarding member itself. The thief waits for one reply whoever sends it, so forwarding
 * keeps the protocol at one outstanding request per thief; the hop limit bounds how long that reply can take.
 *
 * <p>Only the thief and the current member are excluded: with {@code maxHops} of 2 or more a request may come back
 * to a member it already visited, which then replies empty or forwards again within the remaining hops.
 *
 * <p>Stateless and pure, given the {@link RandomGenerator} passed in.
 */
public final class Forwarding {

    private Forwarding() {
    }

    /**
     * Where to forward a request this member cannot serve.
     *
     * @param thief the member that asked for work; not null
     * @param self this member (the victim); not null
     * @param hops how many times the request has been forwarded already; at least 0
     * @param maxHops the most forwards allowed ({@link StealSettings#maxHops()}); at least 0
     * @param selfLastVictim the member that last gave work to this member, or null
     * @param candidates the members that may be forwarded to (normally every live member); no null elements
     * @param rnd where the random choice comes from; drawn from once, and only when the request is forwarded to a
     *     random member
     * @return the member to forward to (the request then carries {@code hops + 1}), or null: reply empty to the
     *     thief
     * @throws IllegalArgumentException if {@code hops} or {@code maxHops} is negative
     * @throws NullPointerException if {@code thief}, {@code self}, {@code candidates} or {@code rnd} is null, or a
     *     candidate is null
     */
    public static String next(String thief, String self, int hops, int maxHops, String selfLastVictim,
                              List<String> candidates, RandomGenerator rnd) {
        Objects.requireNonNull(thief, "thief");
        Objects.requireNonNull(self, "self");
        Objects.requireNonNull(candidates, "candidates");
        Objects.requireNonNull(rnd, "rnd");
        if (hops < 0) {
            throw new IllegalArgumentException("hops must be >= 0, was " + hops);
        }
        if (maxHops < 0) {
            throw new IllegalArgumentException("maxHops must be >= 0, was " + maxHops);
        }
        if (hops >= maxHops) {
            return null;
        }
        if (selfLastVictim != null && !selfLastVictim.equals(thief) && !selfLastVictim.equals(self)
                && Candidates.contains(candidates, selfLastVictim)) {
            return selfLastVictim;
        }
        return Candidates.uniform(candidates, thief, self, rnd);
    }

    /**
     * {@link #next(String, String, int, int, String, List, RandomGenerator)} with the hop limit of
     * {@code settings}.
     *
     * @param thief the member that asked for work; not null
     * @param self this member (the victim); not null
     * @param hops how many times the request has been forwarded already; at least 0
     * @param settings where the hop limit comes from
     * @param selfLastVictim the member that last gave work to this member, or null
     * @param candidates the members that may be forwarded to; no null elements
     * @param rnd where the random choice comes from
     * @return the member to forward to, or null: reply empty to the thief
     */
    public static String next(String thief, String self, int hops, StealSettings settings, String selfLastVictim,
                              List<String> candidates, RandomGenerator rnd) {
        return next(thief, self, hops, settings.maxHops(), selfLastVictim, candidates, rnd);
    }
}
