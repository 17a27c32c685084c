package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/** The result of functions that return nothing (a launch, {@code cudaDeviceSynchronize()}): interop null. */
@ExportLibrary(InteropLibrary.class)
public final class GrNone extends GrObject {
    public static final GrNone INSTANCE = new GrNone();

    private GrNone() {
    }

    @ExportMessage
    boolean isNull() {
        return true;
    }

    @Override
    protected String displayString() {
        return "None";
    }
}
