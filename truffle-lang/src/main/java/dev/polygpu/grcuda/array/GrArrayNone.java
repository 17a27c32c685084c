package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.GrCUDALanguage;

/** What {@code free()} returns: the interop null (Python None, JavaScript null). Stateless, so shared. */
@ExportLibrary(InteropLibrary.class)
final class GrArrayNone implements TruffleObject {
    static final GrArrayNone INSTANCE = new GrArrayNone();

    private GrArrayNone() {
    }

    @ExportMessage
    boolean isNull() {
        return true;
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
        return "None";
    }
}
