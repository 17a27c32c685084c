package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.GrCUDALanguage;

/** The result of functions that return nothing (a launch, {@code cudaDeviceSynchronize()}): interop null. */
@ExportLibrary(InteropLibrary.class)
public final class GrNone implements TruffleObject {
    public static final GrNone INSTANCE = new GrNone();

    private GrNone() {
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
