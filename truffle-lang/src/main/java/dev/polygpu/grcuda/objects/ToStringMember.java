package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;

/**
 * The hidden member {@code toString} of grcuda's objects: invoked with no arguments, it returns the object's
 * display string ({@code kernel square(x: inout pointer float, n: sint32)}, {@code DeviceArray(float, 3)[0.0,
 * 1.0, 2.0]}, {@code stream 2}).
 *
 * <p>JavaScript turns a foreign object into a string ({@code String(k)}, {@code `${k}`}, {@code "" + k},
 * {@code console.log(k)}) by invoking its {@code toString} member when it has one; without it, GraalJS falls
 * back to the prototype it gives foreign objects, which prints {@code [object Object]} for most of ours,
 * {@code function () { [native code] }} for a kernel and the bare elements for an array. Java's
 * {@code Value.toString()} and Python's {@code str()} use the display string directly, so they do not need it.
 * The member is invocable but neither readable nor listed among the members, so that {@code dir(x)} and
 * {@code Object.keys(x)} show only the API.
 */
public final class ToStringMember {
    public static final String NAME = "toString";

    private ToStringMember() {
    }

    public static boolean is(String member) {
        return NAME.equals(member);
    }

    /** The display string of {@code receiver}; {@code toString} takes no arguments. */
    @TruffleBoundary
    public static Object invoke(Object receiver, Object[] arguments) throws ArityException {
        if (arguments.length != 0) {
            throw ArityException.create(0, 0, arguments.length);
        }
        return InteropLibrary.getUncached().toDisplayString(receiver);
    }
}
