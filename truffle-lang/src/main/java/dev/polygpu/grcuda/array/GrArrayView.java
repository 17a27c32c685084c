package dev.polygpu.grcuda.array;

import dev.polygpu.grcuda.objects.GrMetaObject;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.CachedLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrCUDALanguage;

/**
 * {@code m[i]} of a multi-dimensional array (or {@code m[i][j]} of a 3-D one …): the array with its first
 * {@code level} indices fixed. Its elements are views again, or at the last dimension the array's elements,
 * readable and writable. As {@link dev.polygpu.grcuda.objects.GrDeviceMemory} it starts at its first element;
 * only views of C-order arrays are contiguous ({@link #isContiguous()}).
 */
@ExportLibrary(InteropLibrary.class)
public final class GrArrayView implements TruffleObject, ArrayHolder {
    private final ArrayMemory memory;
    private final Shape shape;
    private final int level;
    private final long first;

    GrArrayView(ArrayMemory memory, Shape shape, int level, long first) {
        this.memory = memory;
        this.shape = shape;
        this.level = level;
        this.first = first;
    }

    @Override
    public ArrayMemory memory() {
        return memory;
    }

    @Override
    public long firstElement() {
        return first;
    }

    @Override
    public boolean isContiguous() {
        return !shape.columnMajor();
    }

    @Override
    public UnifiedBuffer buffer() {
        return memory.live();
    }

    @Override
    public dev.polygpu.runtime.TrackedArray tracked() {
        return memory.tracked;
    }

    @Override
    public long byteOffset() {
        return first * memory.type.size;
    }

    @Override
    public ElementType elementType() {
        return memory.type;
    }

    @Override
    public long elementCount() {
        return shape.count(level);
    }

    @Override
    public boolean isFreed() {
        return memory.isFreed();
    }

    private boolean isInnermost() {
        return level == shape.rank() - 1;
    }

    @ExportMessage
    boolean hasArrayElements() {
        return true;
    }

    @ExportMessage
    long getArraySize() {
        return shape.dims()[level];
    }

    @ExportMessage
    boolean isArrayElementReadable(long index) {
        return index >= 0 && index < shape.dims()[level];
    }

    @ExportMessage
    boolean isArrayElementModifiable(long index) {
        return isInnermost() && isArrayElementReadable(index);
    }

    @ExportMessage
    boolean isArrayElementInsertable(@SuppressWarnings("unused") long index) {
        return false;
    }

    @ExportMessage
    Object readArrayElement(long index) throws InvalidArrayIndexException {
        if (!isArrayElementReadable(index)) {
            throw InvalidArrayIndexException.create(index);
        }
        long at = first + index * shape.strides()[level];
        if (isInnermost()) {
            return ArrayAccess.read(memory, at);
        }
        memory.live();
        return new GrArrayView(memory, shape, level + 1, at);
    }

    @ExportMessage
    void writeArrayElement(long index, Object value, @CachedLibrary(limit = "3") InteropLibrary values)
            throws InvalidArrayIndexException, UnsupportedTypeException, UnsupportedMessageException {
        if (!isInnermost()) {
            throw UnsupportedMessageException.create();
        }
        if (!isArrayElementReadable(index)) {
            throw InvalidArrayIndexException.create(index);
        }
        ElementConversion.store(memory, first + index * shape.strides()[level], value, values);
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
    boolean hasMetaObject() {
        return true;
    }

    @ExportMessage
    Object getMetaObject() {
        return GrMetaObject.DEVICE_ARRAY;
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return ArrayDisplay.show(memory, "view of " + memory.description, shape.dims(), shape.strides(), level,
                first);
    }
}
