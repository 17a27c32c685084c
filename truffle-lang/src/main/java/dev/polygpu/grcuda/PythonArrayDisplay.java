package dev.polygpu.grcuda;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.RootCallTarget;
import com.oracle.truffle.api.Truffle;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.exception.AbstractTruffleException;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.ExceptionType;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.nodes.LanguageInfo;
import com.oracle.truffle.api.source.Source;
import dev.polygpu.grcuda.objects.GrMetaObject;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Makes {@code str()}, {@code repr()} and {@code print()} of device arrays in GraalPy show the array's display
 * string ({@code DeviceArray(float, 1000)[0.0, 1.0, …]}, {@code DeviceArray(float, 1000)[freed]}), as
 * JavaScript and Java show it, instead of GraalPy's list display, which reads every element and so fails on a
 * freed array.
 *
 * <p>GraalPy gives every foreign object with array elements (device arrays, multi-dimensional ones and their
 * rows alike) the class {@code polyglot.ForeignList}, a {@code list}. This class replaces that class's
 * {@code __repr__}, once per context, in that context's Python, by one that shows a device array's display
 * string (a device array is an instance of {@link GrMetaObject#DEVICE_ARRAY}) and hands any other foreign list
 * to the {@code __repr__} it replaced. Everything else (length, indexing, iteration, passing the array to a
 * kernel) stays GraalPy's list behaviour, and on a freed array still raises the "was freed" error. GraalPy's
 * public way, {@code polyglot.register_interop_type}, would do the same for the device array meta object alone,
 * but once anything is registered GraalPy looks up the class of every foreign object through its registry,
 * which slows element access on other languages' arrays (docs/benchmarks.md); replacing one method of the
 * class leaves element access as it was.
 *
 * <p>It registers only when Python code is on the calling thread's stack, which is how it knows that the
 * context's Python is initialized without initializing it (Truffle has no query for that, and starting GraalPy
 * for a JavaScript program would cost seconds): {@link #registerIfCalledFromPython} is called where Python code
 * reaches grcuda first or where the display matters most, when grcuda source is evaluated and when an array is
 * freed. A Python context that never does either (it is handed arrays made and freed by Java or JavaScript)
 * keeps GraalPy's list display.
 *
 * <p>Thread-safety: the first caller that finds Python on its stack registers; others return at once.
 */
public final class PythonArrayDisplay {
    static final String PYTHON = "python";

    /**
     * Evaluates to a function that gives {@code polyglot.ForeignList} the display for the meta object it is
     * given: a {@code __repr__} ({@code str} falls back to it) that answers the array's hidden {@code toString}
     * member ({@code ToStringMember}), its display string, for a device array, and GraalPy's list display for
     * any other foreign list. One expression, because GraalPy runs the source in the program's {@code __main__},
     * where statements would leave names.
     */
    private static final String REGISTRATION = """
            (lambda polyglot: lambda device_array_type: setattr(polyglot.ForeignList, "__repr__",
                (lambda list_repr: lambda self:
                    self.toString() if isinstance(self, device_array_type) else list_repr(self)
                )(polyglot.ForeignList.__repr__)))(__import__("polyglot"))
            """;

    private final TruffleLanguage.Env env;
    private final AtomicBoolean registered = new AtomicBoolean();

    PythonArrayDisplay(TruffleLanguage.Env env) {
        this.env = env;
    }

    /**
     * Registers the display in this context's Python if that has not happened yet and Python code is on the
     * stack; does nothing in a context without Python or whose grcuda may not evaluate Python.
     */
    @TruffleBoundary
    public void registerIfCalledFromPython() {
        if (registered.get()) {
            return;
        }
        LanguageInfo python = env.getPublicLanguages().get(PYTHON);
        if (python == null || !env.isPolyglotEvalAllowed(python) || !calledFromPython()
                || !registered.compareAndSet(false, true)) {
            return;
        }
        Source source = Source.newBuilder(PYTHON, REGISTRATION, "<polygpu device array display>").build();
        try {
            Object register = env.parsePublic(source).call();
            InteropLibrary.getUncached().execute(register, GrMetaObject.DEVICE_ARRAY);
        } catch (UnsupportedMessageException | ArityException | UnsupportedTypeException | RuntimeException e) {
            if (stopsTheProgram(e)) {
                throw (RuntimeException) e;
            }
            // A GraalPy whose foreign lists no longer take a __repr__ must not stop the program that reached
            // grcuda: arrays then print as GraalPy's lists, as before, and the user is told once.
            PrintStream err = new PrintStream(env.err(), true, StandardCharsets.UTF_8);
            err.println("polygpu: warning: Python's display of device arrays could not be set up ("
                    + e.getMessage() + "); they print as Python lists, and a freed one cannot be printed");
            err.flush();
        }
    }

    /** True for an interrupt or an exit that arrived during the registration: it is the program's, not ours. */
    private static boolean stopsTheProgram(Exception e) {
        InteropLibrary interop = InteropLibrary.getUncached();
        if (!(e instanceof AbstractTruffleException) || !interop.isException(e)) {
            return false;
        }
        try {
            ExceptionType type = interop.getExceptionType(e);
            return type == ExceptionType.INTERRUPT || type == ExceptionType.EXIT;
        } catch (UnsupportedMessageException notAnException) {
            return false;
        }
    }

    /** Whether a Python frame is on the current thread's guest stack. */
    private static boolean calledFromPython() {
        Boolean found = Truffle.getRuntime().iterateFrames(frame -> {
            LanguageInfo language = frame.getCallTarget() instanceof RootCallTarget target
                    ? target.getRootNode().getLanguageInfo() : null;
            return language != null && language.getId().equals(PYTHON) ? Boolean.TRUE : null;
        });
        return found != null;
    }
}
