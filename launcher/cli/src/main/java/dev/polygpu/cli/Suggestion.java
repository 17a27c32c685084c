package dev.polygpu.cli;

import java.util.Collection;

/**
 * The option a misspelt one was most likely meant to be, for the "did you mean --join?" of every polygpu command
 * line. Picocli's own suggestions list the options that share the first two letters ({@code --jion} gets none,
 * {@code --chek} both {@code --check} and {@code --chunk}); this takes the one fewest edits away.
 */
public final class Suggestion {
    /** The most single-character edits a suggestion may be from what was written: two ({@code --cluster-nam}). */
    private static final int MAX_EDITS = 2;

    private Suggestion() {
    }

    /**
     * Among {@code known}, the one closest to {@code name}, at most {@link #MAX_EDITS} edits away; the first of
     * equally close ones; null when none is that close.
     */
    public static String closest(String name, Collection<String> known) {
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
    static int editDistance(String a, String b) {
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
