package dev.polygpu.launcher;

import java.util.Collection;

/**
 * The flag a misspelled one was most likely meant to be, for "did you mean --join?" in the errors of the
 * {@code polygpu} command and of its {@code worker} subcommand (which gets it from {@link Main}), so both
 * suggest alike.
 */
final class ClosestFlag {
    /** The most single-character edits a suggestion may be from what was written: two ({@code --cluster-nam}). */
    private static final int MAX_EDITS = 2;

    private ClosestFlag() {
    }

    /**
     * Among {@code known} (names without the leading {@code --}), the one closest to {@code name}, at most
     * {@link #MAX_EDITS} edits away; the first of equally close ones; null when none is that close.
     */
    static String among(String name, Collection<String> known) {
        String closest = null;
        int best = MAX_EDITS + 1;
        for (String k : known) {
            int d = editDistance(name, k);
            if (d < best) {
                best = d;
                closest = k;
            }
        }
        return closest;
    }

    /** Levenshtein distance: the fewest single-character insertions, deletions and changes from a to b. */
    private static int editDistance(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int above = row[j];
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1),
                        diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                diagonal = above;
            }
        }
        return row[b.length()];
    }
}
