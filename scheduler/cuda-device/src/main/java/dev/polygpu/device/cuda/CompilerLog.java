package dev.polygpu.device.cuda;

import dev.polygpu.device.CompileException.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error lines of a compiler's log as {@link Diagnostic}s against the user's source.
 *
 * <p>Understood: the CUDA front end's {@code file(line): error: message} (nvcc and NVRTC alike, also
 * {@code catastrophic error} and numbered errors {@code error #20:}), followed by the source line it echoes and a
 * caret line that gives the column; the host preprocessor's {@code file:line:col: error: message} (nvcc runs it
 * for {@code #include} and {@code #error}); and {@code nvcc fatal : message}. Warnings and remarks are not
 * errors and are dropped.
 *
 * <p>The compiled file may be the user's source with lines appended (the name expressions, for nvcc); an error
 * on an appended line is reported against that name expression, with line 0.
 */
final class CompilerLog {
    private static final Pattern FRONT_END = Pattern.compile(
            "^(.*?)\\((\\d+)\\): (catastrophic error|fatal error|error)(?: #[\\w-]+)?: (.*)$");
    private static final Pattern PREPROCESSOR = Pattern.compile("^(.*?):(\\d+):(\\d+): (fatal error|error): (.*)$");
    private static final Pattern NVCC_FATAL = Pattern.compile("^nvcc fatal\\s*: (.*)$");
    private static final Pattern CARET = Pattern.compile("^\\s*\\^\\s*$");

    private final String compiledName;
    private final String userFileName;
    private final String[] userLines;
    private final List<String> appended;

    /**
     * @param compiledName the name the compiler saw for the source file
     * @param userFileName the name to report instead
     * @param userSource the user's source; its lines are the first lines of the compiled file
     * @param appended the name expressions of the lines after the user's source, in order (one line each)
     */
    CompilerLog(String compiledName, String userFileName, String userSource, List<String> appended) {
        this.compiledName = compiledName;
        this.userFileName = userFileName;
        this.userLines = userSource.split("\r?\n", -1);
        this.appended = appended;
    }

    /** The number of lines of the user's source as the compiler counts them (a last line without newline too). */
    int userLineCount() {
        int n = userLines.length;
        return n > 0 && userLines[n - 1].isEmpty() ? n - 1 : n;
    }

    List<Diagnostic> errors(String log) {
        List<Diagnostic> out = new ArrayList<>();
        String[] lines = log.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            Matcher m = FRONT_END.matcher(l);
            if (m.matches()) {
                int column = 0;
                if (i + 2 < lines.length && CARET.matcher(lines[i + 2]).matches()) {
                    column = -1 - lines[i + 2].indexOf('^'); // resolved against the user's line below
                }
                out.add(diagnostic(m.group(1), Integer.parseInt(m.group(2)), column, lines, i, message(m.group(3),
                        m.group(4))));
                continue;
            }
            m = PREPROCESSOR.matcher(l);
            if (m.matches()) {
                out.add(diagnostic(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), lines, i,
                        message(m.group(4), m.group(5))));
                continue;
            }
            m = NVCC_FATAL.matcher(l);
            if (m.matches()) {
                out.add(new Diagnostic(userFileName, 0, 0, "nvcc: " + m.group(1).strip(), null));
            }
        }
        return out;
    }

    private static String message(String kind, String text) {
        return kind.equals("error") ? text.strip() : kind + ": " + text.strip();
    }

    /**
     * A diagnostic at {@code file:line}; a negative {@code column} is {@code -1 - caretIndex} of the front end's
     * caret line under its echo of the source line ({@code lines[at + 1]}).
     */
    private Diagnostic diagnostic(String file, int line, int column, String[] lines, int at, String message) {
        if (!isCompiledFile(file)) {
            int col = column < 0 ? 0 : column;
            return new Diagnostic(file, line, col, message, null);
        }
        int count = userLineCount();
        if (line > count) {
            int index = line - count - 1;
            String expr = index >= 0 && index < appended.size() ? appended.get(index) : null;
            String what = expr == null ? message : "in name expression '" + expr + "': " + message;
            return new Diagnostic(userFileName, 0, 0, what, null);
        }
        String source = line >= 1 ? userLines[line - 1] : null;
        if (column < 0) {
            column = source == null ? 0 : columnOf(lines[at + 1], -1 - column, source);
        }
        return new Diagnostic(userFileName, line, column, message, source);
    }

    private boolean isCompiledFile(String file) {
        String f = file.strip();
        return f.equals(compiledName) || f.endsWith("/" + compiledName) || f.endsWith("\\" + compiledName);
    }

    /**
     * The 1-based column in {@code source} of the character the caret points at in the front end's echo of that
     * line. The echo is indented and may have tabs and runs of blanks changed, so the two are walked side by
     * side with whitespace runs taken as equal; failing that, the text from the caret to the end of the line is
     * looked for at the end of the source line; 0 when neither agrees.
     */
    static int columnOf(String echo, int caret, String source) {
        if (caret >= echo.length()) {
            return 0;
        }
        int fromLeft = columnFromLeft(echo, caret, source);
        if (fromLeft > 0) {
            return fromLeft;
        }
        // The echo is the preprocessed line (__global__ shows as __attribute__((global)), macros expanded), so
        // what precedes the caret may differ; what follows it, to the end of the line, usually does not.
        String tail = echo.substring(caret).stripTrailing();
        String src = source.stripTrailing();
        if (!tail.isEmpty() && src.endsWith(tail)) {
            return src.length() - tail.length() + 1;
        }
        return 0;
    }

    private static int columnFromLeft(String echo, int caret, String source) {
        int e = 0;
        int s = 0;
        while (e < echo.length() && Character.isWhitespace(echo.charAt(e)) && e < caret) {
            e++; // the echo's indentation, and the source's leading blanks
        }
        while (s < source.length() && Character.isWhitespace(source.charAt(s))) {
            s++;
        }
        if (e == caret) {
            return s + 1;
        }
        while (e < caret) {
            char ec = echo.charAt(e);
            if (s >= source.length()) {
                return 0;
            }
            char sc = source.charAt(s);
            if (Character.isWhitespace(ec) && Character.isWhitespace(sc)) {
                while (e < caret && Character.isWhitespace(echo.charAt(e))) {
                    e++;
                }
                while (s < source.length() && Character.isWhitespace(source.charAt(s))) {
                    s++;
                }
            } else if (ec == sc) {
                e++;
                s++;
            } else {
                return 0;
            }
        }
        if (s >= source.length() || (echo.charAt(caret) != source.charAt(s)
                && !(Character.isWhitespace(echo.charAt(caret)) && Character.isWhitespace(source.charAt(s))))) {
            return 0;
        }
        return s + 1;
    }
}
