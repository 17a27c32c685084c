package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.objects.GrPlainObject;

/** The read-only interop array {@code getdevices()} returns. */
@ExportLibrary(InteropLibrary.class)
public final class GrDeviceList extends GrPlainObject {
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

    @Override
    protected String displayString() {
        return "devices (" + devices.length + ")";
    }
}
