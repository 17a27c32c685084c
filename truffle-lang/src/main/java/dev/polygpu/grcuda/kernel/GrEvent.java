package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.Event;
import dev.polygpu.grcuda.GrCUDALanguage;
import dev.polygpu.grcuda.objects.GrList;
import dev.polygpu.grcuda.objects.ToStringMember;

/** A CUDA event as guest code holds it: the result of {@code cudaEventCreate()}. */
@ExportLibrary(InteropLibrary.class)
public final class GrEvent implements TruffleObject {
    private final Event event;

    public GrEvent(Event event) {
        this.event = event;
    }

    public Event event() {
        return event;
    }

    /** No members but the hidden {@link ToStringMember toString}, which JavaScript calls to print it. */
    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new GrList();
    }

    @ExportMessage
    boolean isMemberInvocable(String member) {
        return ToStringMember.is(member);
    }

    @ExportMessage
    Object invokeMember(String member, Object[] arguments) throws UnknownIdentifierException, ArityException {
        if (!ToStringMember.is(member)) {
            throw UnknownIdentifierException.create(member);
        }
        return ToStringMember.invoke(this, arguments);
    }

    @ExportMessage
    boolean hasLanguage() {
        return true;
    }

    @ExportMessage
    Class<GrCUDALanguage> getLanguage() {
        return GrCUDALanguage.class;
    }

    @ExportMessage
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "event";
    }

    @ExportMessage
    boolean hasMetaObject() {
        return true;
    }

    @ExportMessage
    Object getMetaObject() {
        return dev.polygpu.grcuda.objects.GrMetaObject.EVENT;
    }
}
