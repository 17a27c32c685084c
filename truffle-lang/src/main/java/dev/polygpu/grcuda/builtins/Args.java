package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;

/** Argument checks of builtins, with messages that say which argument of which function was wrong. */
public final class Args {
    private static final InteropLibrary INTEROP = InteropLibrary.getUncached();

    private Args() {
    }

    public static void arity(Object[] args, int min, int max) throws ArityException {
        if (args.length < min || args.length > max) {
            throw ArityException.create(min, max, args.length);
        }
    }

    @TruffleBoundary
    public static String string(Object[] args, int i, String function, String what) throws UnsupportedTypeException {
        Object a = args[i];
        if (INTEROP.isString(a)) {
            try {
                return INTEROP.asString(a);
            } catch (UnsupportedMessageException e) {
                throw new IllegalStateException(e);
            }
        }
        throw UnsupportedTypeException.create(args, function + ": argument " + (i + 1) + " (" + what
                + ") must be a string, got " + display(a));
    }

    @TruffleBoundary
    public static long integer(Object[] args, int i, String function, String what) throws UnsupportedTypeException {
        Object a = args[i];
        if (INTEROP.fitsInLong(a)) {
            try {
                return INTEROP.asLong(a);
            } catch (UnsupportedMessageException e) {
                throw new IllegalStateException(e);
            }
        }
        throw UnsupportedTypeException.create(args, function + ": argument " + (i + 1) + " (" + what
                + ") must be an integer, got " + display(a));
    }

    /** How a message shows a value the user passed; strings are quoted, so that "100" is not taken for 100. */
    @TruffleBoundary
    public static String display(Object value) {
        try {
            if (INTEROP.isString(value)) {
                return '"' + INTEROP.asString(value) + '"';
            }
            if (value instanceof Double d && INTEROP.fitsInLong(value) && !INTEROP.fitsInInt(value)) {
                // A large whole double is most likely an address (JavaScript's numbers are doubles): shown whole
                // and in hex, not as 1.40131979369988E14.
                long v = d.longValue();
                return v + " (0x" + Long.toHexString(v) + ")";
            }
            return INTEROP.asString(INTEROP.toDisplayString(value));
        } catch (UnsupportedMessageException e) {
            return String.valueOf(value);
        }
    }
}
