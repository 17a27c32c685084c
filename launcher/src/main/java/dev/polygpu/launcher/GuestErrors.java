package dev.polygpu.launcher;

import java.util.ArrayList;
import java.util.List;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.SourceSection;
import org.graalvm.polyglot.Value;

/**
 * Guest errors as their language would report them: a Python exception with Python's own {@code traceback}
 * module, anything else as its message and the guest frames ({@code at name (file:line:column)}). Used by the
 * {@code polygpu} command for a failed program and by the notebook kernel for a failed cell.
 */
public final class GuestErrors {
    private GuestErrors() {
    }

    /**
     * The Python traceback of {@code e} as CPython prints it, or null when {@code e} is not a Python exception
     * (or formatting it fails). {@code context} must be open: the frames refer to it.
     */
    public static String pythonTraceback(Context context, PolyglotException e) {
        if (e.isExit() || !e.isGuestException()) {
            return null;
        }
        Value exc = e.getGuestObject();
        if (exc == null || exc.isNull()) {
            return null;
        }
        try {
            // the text, and whether the error was raised by another language (a grcuda error)
            Value format = context.eval("python", "import traceback, polyglot\n"
                    + "def __polygpu_format(e):\n"
                    + "    if not isinstance(e, BaseException): return None\n"
                    + "    return (''.join(traceback.format_exception(e)), isinstance(e, polyglot.ForeignException))\n"
                    + "__polygpu_format");
            Value result = format.execute(exc);
            if (result.isNull()) {
                return null;
            }
            String traceback = result.getArrayElement(0).asString();
            boolean foreign = result.getArrayElement(1).asBoolean();
            // A SyntaxError has no "Traceback" header either (it stops the program before it runs), but it is
            // Python's own and names its line: only another language's error needs the call chain.
            return traceback.startsWith(TRACEBACK) || !foreign ? traceback : callChain(e) + traceback;
        } catch (PolyglotException again) {
            return null;
        }
    }

    private static final String TRACEBACK = "Traceback (most recent call last):";

    /**
     * How CPython ends a program that {@code e}, a {@code SystemExit} (or an instance of a subclass), stopped: the
     * exit status, and the line it prints on stderr or null. A code that is None is status 0, an integer is the
     * status, anything else ({@code sys.exit("message")}) is printed with {@code str()} and is status 1.
     */
    public record PythonExit(int status, String message) {
    }

    /**
     * {@code e} as CPython would end the program when it is a Python {@code SystemExit}, or null when it is not
     * (or is one that GraalPy gave only as an exit status: see below). {@code context} must be open.
     *
     * <p>Implementation notes: GraalPy gives the embedder a {@code SystemExit} whose code is None or an integer
     * as a bare exit status (no guest object to read), one with any other code as an exit whose guest object
     * is the exception, and prints nothing for either; an instance of a subclass of {@code SystemExit} is not an
     * exit for GraalPy at all but an ordinary guest exception (CPython exits for it as for SystemExit). An
     * integer code outside Java's {@code int} is status -1, as GraalPy makes it. When {@code str(code)} fails,
     * GraalPy's own message ({@code SystemExit: …}) is the best left to print.
     */
    public static PythonExit pythonExit(Context context, PolyglotException e) {
        if (!e.isExit() && !e.isGuestException()) {
            return null;
        }
        Value exc = e.getGuestObject();
        if (exc == null || exc.isNull()) {
            return null;
        }
        Value exit;
        try {
            exit = context.eval("python", "def __polygpu_exit(e):\n"
                    + "    if not isinstance(e, SystemExit): return None\n"
                    + "    c = e.code\n"
                    + "    if c is None: return (0, None)\n"
                    + "    if isinstance(c, int): return (int(c) if -2**31 <= c < 2**31 else -1, None)\n"
                    + "    return (1, str(c))\n"
                    + "__polygpu_exit").execute(exc);
        } catch (PolyglotException again) {
            return e.isExit() && e.getMessage() != null ? new PythonExit(1, e.getMessage()) : null;
        }
        if (exit.isNull()) {
            return null;
        }
        Value message = exit.getArrayElement(1);
        return new PythonExit(exit.getArrayElement(0).asInt(), message.isNull() ? null : message.asString());
    }

    /**
     * For an error of another language (a grcuda error) that went through Python: GraalPy gives such an
     * exception no traceback, and its frames in the polyglot stack no line numbers, so this names the Python
     * functions it went through, outermost first, with their file where known.
     */
    private static String callChain(PolyglotException e) {
        StringBuilder b = new StringBuilder(TRACEBACK).append(" (GraalPy keeps no line numbers for errors"
                + " raised by other languages)\n");
        List<PolyglotException.StackFrame> python = new ArrayList<>();
        for (PolyglotException.StackFrame f : e.getPolyglotStackTrace()) {
            if (f.isGuestFrame() && f.getLanguage().getId().equals("python")) {
                python.add(f);
            }
        }
        for (int k = python.size() - 1; k >= 0; k--) {
            SourceSection s = python.get(k).getSourceLocation();
            b.append(s == null ? "  in " : "  File \"" + s.getSource().getName() + "\", in ")
                    .append(python.get(k).getRootName()).append('\n');
        }
        return b.toString();
    }

    /**
     * The lines that report a guest error {@code e} from its guest frames: a Python-style traceback when the
     * innermost guest frame is Python's, else the message followed by {@code at …} lines.
     */
    public static List<String> describe(PolyglotException e) {
        List<PolyglotException.StackFrame> frames = guestFrames(e);
        List<String> lines = new ArrayList<>();
        String lang = frames.isEmpty() ? null : frames.get(frames.size() - 1).getLanguage().getId();
        if ("python".equals(lang)) {
            lines.add("Traceback (most recent call last):");
            for (int k = frames.size() - 1; k >= 0; k--) {
                SourceSection s = frames.get(k).getSourceLocation();
                lines.add("  File \"" + s.getSource().getName() + "\", line " + s.getStartLine() + ", in "
                        + frames.get(k).getRootName());
            }
            lines.add(e.getMessage());
        } else {
            lines.add(e.getMessage());
            for (PolyglotException.StackFrame f : frames) {
                SourceSection s = f.getSourceLocation();
                String where = s.getSource().getName() + ":" + s.getStartLine() + ":" + s.getStartColumn();
                String name = f.getRootName();
                lines.add("    at " + (name == null || name.isEmpty() || name.equals(":program")
                        ? where : name + " (" + where + ")"));
            }
        }
        return lines;
    }

    /** Where the guest was when {@code e} stopped it, innermost first: {@code <cell 3>, line 2}. */
    public static List<String> locations(PolyglotException e) {
        List<String> lines = new ArrayList<>();
        for (PolyglotException.StackFrame f : guestFrames(e)) {
            SourceSection s = f.getSourceLocation();
            lines.add("  " + s.getSource().getName() + ", line " + s.getStartLine());
        }
        return lines;
    }

    private static List<PolyglotException.StackFrame> guestFrames(PolyglotException e) {
        List<PolyglotException.StackFrame> frames = new ArrayList<>();
        for (PolyglotException.StackFrame f : e.getPolyglotStackTrace()) {
            if (f.isGuestFrame() && f.getSourceLocation() != null) {
                frames.add(f);
            }
        }
        return frames;
    }
}
