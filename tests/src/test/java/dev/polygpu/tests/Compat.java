package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.Consumer;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/**
 * Helpers of the tests that run GrCUDA programs' idioms on polygpu: script prologues that bind {@code cu}, a
 * Java context on the shared engine with {@code CU} at hand, and the check that a script fails with a guest
 * error that says what it should.
 */
final class Compat {
    static final String PY = "import polyglot\ncu = polyglot.eval(language=\"grcuda\", string=\"CU\")\n";
    static final String JS = "const cu = Polyglot.eval(\"grcuda\", \"CU\");\n";

    private Compat() {
    }

    /** Runs {@code body} with {@code CU} of a fresh Java context on the shared engine, with grcuda options. */
    static void java(Map<String, String> options, Consumer<Value> body) {
        try (Context c = Context.newBuilder("grcuda").engine(Guests.engine()).allowAllAccess(true)
                .allowPolyglotAccess(PolyglotAccess.ALL).options(options).build()) {
            body.accept(c.eval("grcuda", "CU"));
        }
    }

    static void java(Consumer<Value> body) {
        java(Map.of(), body);
    }

    /** Asserts that {@code script} fails with a guest error whose message contains {@code fragment}. */
    static void fails(String language, String script, String fragment) {
        PolyglotException e = assertThrows(PolyglotException.class, () -> Guests.eval(language, script),
                () -> "script:\n" + script);
        assertGuestError(e, fragment);
    }

    static void assertGuestError(PolyglotException e, String fragment) {
        assertTrue(e.isGuestException() && !e.isInternalError(), () -> "not a guest error: " + e);
        assertTrue(String.valueOf(e.getMessage()).contains(fragment),
                () -> "expected '" + fragment + "' in: " + e.getMessage());
    }
}
