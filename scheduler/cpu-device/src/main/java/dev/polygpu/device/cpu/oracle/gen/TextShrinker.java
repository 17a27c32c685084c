package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Delta debugging (ddmin) over the lines of a source, for programs that are not valid to begin with (the
 * invalid-program mode), where a tree-level shrinker has no tree to keep whole: removes chunks of lines while
 * {@code stillFails} holds.
 */
public final class TextShrinker {
    private TextShrinker() {
    }

    /** The smallest source found (1-minimal in lines unless {@code maxTests} ran out) that still fails. */
    public static String shrink(String source, Predicate<String> stillFails, int maxTests) {
        List<String> lines = new ArrayList<>(List.of(source.split("\n", -1)));
        int tests = 0;
        int n = 2;
        while (lines.size() >= 2 && tests < maxTests) {
            int chunk = (lines.size() + n - 1) / n;
            boolean reduced = false;
            for (int from = 0; from < lines.size() && tests < maxTests; from += chunk) {
                List<String> rest = new ArrayList<>(lines.subList(0, from));
                rest.addAll(lines.subList(Math.min(lines.size(), from + chunk), lines.size()));
                tests++;
                if (!rest.isEmpty() && stillFails.test(String.join("\n", rest))) {
                    lines = rest;
                    n = Math.max(n - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (chunk == 1) {
                    break;
                }
                n = Math.min(n * 2, lines.size());
            }
        }
        return String.join("\n", lines);
    }
}
