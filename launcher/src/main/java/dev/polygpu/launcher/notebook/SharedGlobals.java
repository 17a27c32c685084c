package dev.polygpu.launcher.notebook;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/**
 * One namespace of variables for the Python and JavaScript cells of a notebook: after a cell runs, each
 * top-level name it created or changed in its language's globals is set to the same value in the other
 * language's globals. The value is shared, not copied: a {@code DeviceArray} made by a Python cell is the very
 * same array in the next JavaScript cell. Left out: the names each language had before the first cell (its
 * built-ins), names starting with {@code _}, and Python modules.
 *
 * <p>Not thread-safe: the kernel calls it from the thread that runs cells, after each cell.
 */
final class SharedGlobals {
    static final List<String> LANGUAGES = List.of("python", "js");

    private final Context context;
    private final PrintStream err;
    private final Map<String, Set<String>> builtins = new HashMap<>();
    /** Per language, the value each shared name had after the last look. */
    private final Map<String, Map<String, Value>> seen = new HashMap<>();

    /** Takes note of the globals each language has now, which are never shared. */
    SharedGlobals(Context context, PrintStream err) {
        this.context = context;
        this.err = err;
        for (String language : LANGUAGES) {
            builtins.put(language, new HashSet<>(context.getBindings(language).getMemberKeys()));
            seen.put(language, new HashMap<>());
        }
    }

    /** Shares what the last cell, in {@code language}, created or changed with the other language. */
    void afterCell(String language) {
        String other = language.equals("python") ? "js" : "python";
        Value from = context.getBindings(language);
        Value to = context.getBindings(other);
        Map<String, Value> seenHere = seen.get(language);
        for (String name : from.getMemberKeys()) {
            if (name.startsWith("_") || builtins.get(language).contains(name)) {
                continue;
            }
            Value value = from.getMember(name);
            Value before = seenHere.get(name);
            if (value == null || (before != null && before.equals(value)) || isPythonModule(language, value)) {
                continue;
            }
            seenHere.put(name, value);
            try {
                to.putMember(name, value);
                seen.get(other).put(name, to.getMember(name));
            } catch (PolyglotException | UnsupportedOperationException | IllegalArgumentException e) {
                // e.g. a JavaScript const of that name: the other language keeps its own value
                err.println("polygpu: '" + name + "' is not shared with " + (other.equals("js") ? "JavaScript"
                        : "Python") + ": " + e.getMessage());
            }
        }
    }

    private static boolean isPythonModule(String language, Value value) {
        if (!language.equals("python")) {
            return false;
        }
        Value meta = value.getMetaObject();
        return meta != null && meta.getMetaSimpleName().equals("module");
    }
}
