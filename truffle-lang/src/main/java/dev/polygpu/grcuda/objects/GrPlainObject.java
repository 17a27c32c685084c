package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A grcuda object whose members are values to read, or none at all (a stream, an event, a kernel, a pointer):
 * its members are {@link #memberNames()}, read with {@link #readMemberValue}; the only one that can be invoked
 * is the hidden {@link ToStringMember toString}, which JavaScript calls to print it.
 *
 * <p>Subclasses inherit these exports with those of {@link GrObject}, and may export more messages (a
 * configured kernel is executable) with an {@code @ExportLibrary} of their own.
 */
@ExportLibrary(InteropLibrary.class)
public abstract class GrPlainObject extends GrObject {
    private static final String[] NONE = {};

    /** The names of the readable members, in the order {@code dir(x)} lists them; none by default. */
    protected String[] memberNames() {
        return NONE;
    }

    /**
     * The value of the member {@code name}, one of {@link #memberNames()}.
     *
     * @throws UnknownIdentifierException for any other name (the default, for an object without members)
     */
    protected Object readMemberValue(String name) throws UnknownIdentifierException {
        throw UnknownIdentifierException.create(name);
    }

    @ExportMessage
    public final boolean hasMembers() {
        return true;
    }

    @ExportMessage
    public final Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new GrList((Object[]) memberNames());
    }

    @ExportMessage
    @TruffleBoundary
    public final boolean isMemberReadable(String member) {
        for (String name : memberNames()) {
            if (name.equals(member)) {
                return true;
            }
        }
        return false;
    }

    @ExportMessage
    @TruffleBoundary
    public final Object readMember(String member) throws UnknownIdentifierException {
        if (!isMemberReadable(member)) {
            throw UnknownIdentifierException.create(member);
        }
        return readMemberValue(member);
    }

    @ExportMessage
    public final boolean isMemberInvocable(String member) {
        return ToStringMember.is(member);
    }

    @ExportMessage
    public final Object invokeMember(String member, Object[] arguments)
            throws UnknownIdentifierException, ArityException {
        if (!ToStringMember.is(member)) {
            throw UnknownIdentifierException.create(member);
        }
        return ToStringMember.invoke(this, arguments);
    }
}
