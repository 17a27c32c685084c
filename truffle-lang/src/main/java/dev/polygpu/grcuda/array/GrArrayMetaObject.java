package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.GrCUDALanguage;

/** The meta object (type) of all device arrays and views, named {@code DeviceArray}. Stateless, so shared. */
@ExportLibrary(InteropLibrary.class)
final class GrArrayMetaObject implements TruffleObject {
    static final GrArrayMetaObject INSTANCE = new GrArrayMetaObject();

    private GrArrayMetaObject() {
    }

    @ExportMessage
    boolean isMetaObject() {
        return true;
    }

    @ExportMessage(name = "getMetaQualifiedName")
    @ExportMessage(name = "getMetaSimpleName")
    Object getMetaSimpleName() {
        return "DeviceArray";
    }

    @ExportMessage
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "DeviceArray";
    }

    @ExportMessage
    boolean isMetaInstance(Object instance) {
        return instance instanceof GrDeviceArray || instance instanceof GrMultiDimDeviceArray
                || instance instanceof GrArrayView;
    }

    @ExportMessage
    boolean hasLanguage() {
        return true;
    }

    @ExportMessage
    Class<GrCUDALanguage> getLanguage() {
        return GrCUDALanguage.class;
    }
}
