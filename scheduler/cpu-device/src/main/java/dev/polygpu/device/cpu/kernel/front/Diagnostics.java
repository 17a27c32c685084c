package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Collects the problems found in one source, each with the text of its line for the caret display. */
final class Diagnostics {
    /** Thrown to abandon the current construct after its error has been recorded. */
    static final class Abort extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Abort() {
            super(null, null, false, false);
        }
    }

    final String file;
    private final String[] lines;
    private final Set<CompileException.Diagnostic> errors = new LinkedHashSet<>();

    Diagnostics(String file, String source) {
        this.file = file;
        this.lines = source.split("\n", -1);
    }

    /** A fresh collector for the same source (used per template instantiation). */
    Diagnostics fresh() {
        return new Diagnostics(file, lines);
    }

    private Diagnostics(String file, String[] lines) {
        this.file = file;
        this.lines = lines;
    }

    void error(Pos pos, String message) {
        String text = pos.line() >= 1 && pos.line() <= lines.length ? stripCr(lines[pos.line() - 1]) : null;
        errors.add(new CompileException.Diagnostic(file, pos.line(), pos.column(), message, text));
    }

    /** Records the error and abandons the construct being analyzed. */
    Abort fail(Pos pos, String message) {
        error(pos, message);
        return new Abort();
    }

    void addAll(List<CompileException.Diagnostic> ds) {
        errors.addAll(ds);
    }

    boolean hasErrors() {
        return !errors.isEmpty();
    }

    int count() {
        return errors.size();
    }

    List<CompileException.Diagnostic> list() {
        return new ArrayList<>(errors);
    }

    void throwIfAny() {
        if (!errors.isEmpty()) {
            throw new CompileException(list());
        }
    }

    private static String stripCr(String s) {
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }
}
