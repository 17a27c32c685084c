package dev.polygpu.cluster.policy;

import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Picking among candidate member ids without allocating: two passes over the list, one to count the eligible
 * members and one to find the chosen one. Internal to the policy package.
 */
final class Candidates {

    private Candidates() {
    }

    /**
     * A uniformly random member of {@code candidates} that equals neither {@code excluded} nor {@code alsoExcluded}
     * (either may be null, excluding nothing). Draws exactly one {@code nextInt} from {@code rnd} when some member
     * is eligible, and nothing otherwise.
     *
     * @return the member, or null when none is eligible
     * @throws NullPointerException if {@code candidates} or {@code rnd} is null or a candidate is null
     */
    static String uniform(List<String> candidates, String excluded, String alsoExcluded, RandomGenerator rnd) {
        Objects.requireNonNull(candidates, "candidates");
        Objects.requireNonNull(rnd, "rnd");
        int eligible = 0;
        for (String member : candidates) {
            if (eligible(member, excluded, alsoExcluded)) {
                eligible++;
            }
        }
        if (eligible == 0) {
            return null;
        }
        int pick = rnd.nextInt(eligible);
        for (String member : candidates) {
            if (eligible(member, excluded, alsoExcluded) && pick-- == 0) {
                return member;
            }
        }
        throw new IllegalStateException("candidates changed while a member was being picked: " + candidates);
    }

    /**
     * Whether {@code member} is among {@code candidates}.
     *
     * @throws NullPointerException if {@code candidates} is null
     */
    static boolean contains(List<String> candidates, String member) {
        Objects.requireNonNull(candidates, "candidates");
        for (String candidate : candidates) {
            if (candidate != null && candidate.equals(member)) {
                return true;
            }
        }
        return false;
    }

    private static boolean eligible(String member, String excluded, String alsoExcluded) {
        if (member == null) {
            throw new NullPointerException("candidates must not contain null");
        }
        return !member.equals(excluded) && !member.equals(alsoExcluded);
    }
}
