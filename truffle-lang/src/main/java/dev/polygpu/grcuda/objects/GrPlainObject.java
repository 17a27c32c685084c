package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.GrCUDALanguage;

/**
 * A grcuda object with no members of its own (a stream, an event, a configured kernel): what every host language
 * needs to print it and to ask what it is.
 *
 * <p>It has no members but the hidden {@link ToStringMember toString}, which JavaScript calls to print it; its
 * display string and meta-object come from the subclass. Subclasses inherit these exports and may export more
 * messages (a configured kernel is executable) with an {@code @ExportLibrary} of their own.
 */
@ExportLibrary(InteropLibrary.class)
public abstract class GrOpaqueObject implements TruffleObject {

    /** What {@code print}, {@code str()} and {@code Value.toString()} show. */
    protected abstract String displayString();

    /** The object's type, as {@code type(x)} and {@code Value.getMetaObject()} report it. */
    protected abstract GrMetaObject metaObject();

    @ExportMessage
    public final boolean hasMembers() {
        return true;
    }

    @ExportMessage
    public final Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new GrList();
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

    @ExportMessage
    public final boolean hasLanguage() {
        return true;
    }

    @ExportMessage
    public final Class<GrCUDALanguage> getLanguage() {
        return GrCUDALanguage.class;
    }

    @ExportMessage
    @TruffleBoundary
    public final Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return displayString();
    }

    @ExportMessage
    public final boolean hasMetaObject() {
        return true;
    }

    @ExportMessage
    public final Object getMetaObject() {
        return metaObject();
    }
}
