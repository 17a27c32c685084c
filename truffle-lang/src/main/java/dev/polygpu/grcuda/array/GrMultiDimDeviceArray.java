package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A multi-dimensional device array ({@code DeviceArray("float", 10, 20[, "C"|"F"])}, {@code float[10][20]}):
 * an interop array of {@link GrArrayView}s along its first dimension, so {@code m[i][j]} reads an element.
 * A kernel gets the whole flat buffer, laid out in C or F order; {@code copyFrom}/{@code copyTo} copy in that
 * memory order.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrMultiDimDeviceArray extends GrWholeArray {
    private final Shape shape;

    GrMultiDimDeviceArray(ArrayMemory memory, Shape shape) {
        super(memory);
        this.shape = shape;
    }

    /** The size of each dimension. */
    public long[] dimensions() {
        return shape.dims().clone();
    }

    /** True for column-major ("F") layout. */
    public boolean isColumnMajor() {
        return shape.columnMajor();
    }

    @ExportMessage
    boolean hasArrayElements() {
        return true;
    }

    @Override
    long elementsAtFirstLevel() {
        return shape.dims()[0];
    }

    @ExportMessage
    long getArraySize() {
        memory.requireNotFreed();
        return shape.dims()[0];
    }

    @ExportMessage
    boolean isArrayElementReadable(long index) {
        return index >= 0 && index < shape.dims()[0];
    }

    @ExportMessage
    Object readArrayElement(long index) throws InvalidArrayIndexException {
        if (!isArrayElementReadable(index)) {
            throw InvalidArrayIndexException.create(index);
        }
        memory.live();
        return new GrArrayView(memory, shape, 1, index * shape.strides()[0]);
    }

    @Override
    protected String displayString() {
        return ArrayDisplay.show(memory, memory.description, shape.dims(), shape.strides(), 0, 0);
    }
}
