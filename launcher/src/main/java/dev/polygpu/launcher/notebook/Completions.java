package dev.polygpu.launcher.notebook;

import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import java.util.List;
import java.util.TreeSet;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/**
 * Tab completion of names: {@code cu.buil|} offers the members of {@code cu} (the {@code CU} namespace or any
 * other object) that start with {@code buil}, a bare {@code squ|} the globals of the cell's language. The chain
 * before the last dot is resolved by member lookups only, never by running the cell's code, so completing has
 * no side effects beyond what reading a member does. {@code CU} itself resolves to the grcuda namespace when
 * no global of that name exists. Names starting with {@code _} are offered only for a prefix that starts so.
 */
final class Completions {
    private Completions() {
    }

    static ReplacementOptions complete(Context context, String language, String code, int at) {
        int cursor = Math.max(0, Math.min(at, code.length()));
        int start = cursor;
        while (start > 0 && isNamePart(code.charAt(start - 1))) {
            start--;
        }
        String word = code.substring(start, cursor);
        int dot = word.lastIndexOf('.');
        String prefix = word.substring(dot + 1);
        int replaceFrom = cursor - prefix.length();
        TreeSet<String> names = new TreeSet<>();
        try {
            Value scope = dot < 0 ? context.getBindings(language) : resolve(context, language, word.substring(0, dot));
            if (scope != null && scope.hasMembers()) {
                for (String name : scope.getMemberKeys()) {
                    if (name.startsWith(prefix) && (prefix.startsWith("_") || !name.startsWith("_"))) {
                        names.add(name);
                    }
                }
            }
        } catch (PolyglotException | UnsupportedOperationException | IllegalStateException e) {
            // a member that fails to read completes to nothing, as an unknown name does
            return new ReplacementOptions(List.of(), replaceFrom, cursor);
        }
        return new ReplacementOptions(List.copyOf(names), replaceFrom, cursor);
    }

    private static boolean isNamePart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.';
    }

    /** The value {@code a.b.c} names, by member lookups from the language's globals; null if there is none. */
    private static Value resolve(Context context, String language, String chain) {
        String[] parts = chain.split("\\.", -1);
        Value globals = context.getBindings(language);
        Value v;
        if (globals.hasMember(parts[0])) {
            v = globals.getMember(parts[0]);
        } else if (parts[0].equals("CU")) {
            v = context.eval("grcuda", "CU");
        } else {
            return null;
        }
        for (int i = 1; i < parts.length && v != null; i++) {
            v = v.hasMember(parts[i]) ? v.getMember(parts[i]) : null;
        }
        return v;
    }
}
