package dev.polygpu.cluster.policy;

import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The thief's choice of whom to ask for work: the last member that gave it work, while that member is still a
 * candidate and keeps giving; otherwise a member drawn uniformly at random.
 *
 * <p>Asking the last giver first exploits locality of surplus (a member that had spare work a moment ago likely
 * still has some), while random choice otherwise spreads requests evenly, so that no member is swamped by
 * thieves. An empty reply from the remembered victim makes the thief forget it.
 *
 * <p>One instance per thief. Thread-safe: every method holds the instance's lock, so replies may be reported
 * from another thread than the one choosing. Deterministic given the {@link RandomGenerator} passed in.
 */
public final class VictimChooser {

    private final String self;
    private String lastVictim;

    /**
     * A chooser with no remembered victim.
     *
     * @param self the id of the thief that owns this chooser; it is never chosen, even when a caller lists it
     * @throws NullPointerException if {@code self} is null
     */
    public VictimChooser(String self) {
        this.self = Objects.requireNonNull(self, "self");
    }

    /**
     * The member to ask for work: the last victim that gave work if it is still among {@code candidates},
     * otherwise a uniformly random candidate other than this thief. Consumes one draw of {@code rnd} only in the
     * random case.
     *
     * @param candidates the members that may be asked (normally every other live member); not null, no null
     *     elements; walked at most three times, so O(members)
     * @param rnd where the random choice comes from
     * @return the member to ask, or null when there is no candidate other than this thief
     * @throws NullPointerException if {@code candidates} or {@code rnd} is null, or a candidate is null
     */
    public synchronized String choose(List<String> candidates, RandomGenerator rnd) {
        if (lastVictim != null && Candidates.contains(candidates, lastVictim)) {
            return lastVictim;
        }
        return Candidates.uniform(candidates, self, null, rnd);
    }

    /**
     * Records the reply to a request: a victim that gave work is remembered and asked first next time; the
     * remembered victim is forgotten when it replies empty. An empty reply from another member changes nothing.
     * A reply said to come from this thief itself is ignored.
     *
     * @param victim the member that replied (after forwarding, the member that actually gave); not null
     * @param received how many CEs the reply carried; at least 0
     * @throws IllegalArgumentException if {@code received} is negative
     * @throws NullPointerException if {@code victim} is null
     */
    public synchronized void onReply(String victim, int received) {
        Objects.requireNonNull(victim, "victim");
        if (received < 0) {
            throw new IllegalArgumentException("received must be >= 0, was " + received);
        }
        if (victim.equals(self)) {
            return;
        }
        if (received > 0) {
            lastVictim = victim;
        } else if (victim.equals(lastVictim)) {
            lastVictim = null;
        }
    }

    /**
     * Forgets {@code member} if it is the remembered victim (call when a member leaves the cluster).
     *
     * @param member the member that left; null changes nothing
     */
    public synchronized void forget(String member) {
        if (member != null && member.equals(lastVictim)) {
            lastVictim = null;
        }
    }

    /** {@return the remembered victim, or null when there is none} */
    public synchronized String lastVictim() {
        return lastVictim;
    }

    /** {@return the id of the thief that owns this chooser} */
    public String self() {
        return self;
    }

    @Override
    public synchronized String toString() {
        return "VictimChooser[self=" + self + ", lastVictim=" + lastVictim + "]";
    }
}
