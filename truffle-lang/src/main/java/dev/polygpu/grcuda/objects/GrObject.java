package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.GrCUDALanguage;

/**
 * The base of grcuda's interop values: the messages every one of them answers the same way, so that each
 * exports only what it is (an array, a function, a number). They belong to the {@code grcuda} language, show
 * {@link #displayString()} wherever a host language prints them, and report {@link #metaObject()} as their type.
 *
 * <p>Subclasses add their own messages with an {@code @ExportLibrary(InteropLibrary.class)} of their own, which
 * inherits these exports. Objects with members extend {@link GrPlainObject}, or export their members themselves
 * and answer the hidden {@link ToStringMember toString} there.
 */
@ExportLibrary(InteropLibrary.class)
public abstract class GrObject implements TruffleObject {

    /** What {@code print}, {@code str()} and {@code Value.toString()} show; called behind a boundary. */
    protected abstract String displayString();

    /**
     * The object's type, as {@code type(x)} and {@code Value.getMetaObject()} report it; null (this default) for
     * a value that has none of its own (a method, a number, a meta object itself).
     */
    protected GrMetaObject metaObject() {
        return null;
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
        return metaObject() != null;
    }

    @ExportMessage
    public final Object getMetaObject() throws UnsupportedMessageException {
        GrMetaObject type = metaObject();
        if (type == null) {
            throw UnsupportedMessageException.create();
        }
        return type;
    }
}
