package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.GrCUDALanguage;
import dev.polygpu.grcuda.objects.GrList;
import dev.polygpu.grcuda.objects.ToStringMember;

/** The read-only interop array {@code getdevices()} returns. */
@ExportLibrary(InteropLibrary.class)
public final class GrDeviceList implements TruffleObject {
    private final GrDevice[] devices;

    public GrDeviceList(GrDevice[] devices) {
        this.devices = devices.clone();
    }

    @ExportMessage
    boolean hasArrayElements() {
        return true;
    }

    @ExportMessage
    long getArraySize() {
        return devices.length;
    }

    @ExportMessage
    boolean isArrayElementReadable(long index) {
        return index >= 0 && index < devices.length;
    }

    @ExportMessage
    Object readArrayElement(long index) throws InvalidArrayIndexException {
        if (!isArrayElementReadable(index)) {
            throw InvalidArrayIndexException.create(index);
        }
        return devices[(int) index];
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
        return "devices (" + devices.length + ")";
    }
}
