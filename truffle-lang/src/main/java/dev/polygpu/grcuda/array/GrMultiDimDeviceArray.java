package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrCUDALanguage;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.ToStringMember;

/**
 * A multi-dimensional device array ({@code DeviceArray("float", 10, 20[, "C"|"F"])}, {@code float[10][20]}):
 * an interop array of {@link GrArrayView}s along its first dimension, so {@code m[i][j]} reads an element.
 * A kernel gets the whole flat buffer, laid out in C or F order; {@code copyFrom}/{@code copyTo} copy in that
 * memory order.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrMultiDimDeviceArray implements TruffleObject, ArrayHolder {
    private final ArrayMemory memory;
    private final Shape shape;

    GrMultiDimDeviceArray(ArrayMemory memory, Shape shape) {
        this.memory = memory;
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

    @Override
    public ArrayMemory memory() {
        return memory;
    }

    @Override
    public long firstElement() {
        return 0;
    }

    @Override
    public boolean isContiguous() {
        return true;
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
        return 0;
    }

    @Override
    public ElementType elementType() {
        return memory.type;
    }

    @Override
    public long elementCount() {
        return memory.count;
    }

    @Override
    public boolean isFreed() {
        return memory.isFreed();
    }

    @ExportMessage
    boolean hasArrayElements() {
        return true;
    }

    @ExportMessage
    long getArraySize() {
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

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return ArrayMethods.names();
    }

    @ExportMessage
    boolean isMemberReadable(String member) {
        return ArrayMethods.has(member);
    }

    @ExportMessage
    boolean isMemberInvocable(String member) {
        return ArrayMethods.invocable(member) || ToStringMember.is(member);
    }

    @ExportMessage
    Object readMember(String member) throws UnknownIdentifierException {
        return ArrayMethods.read(memory, member);
    }

    @ExportMessage
    Object invokeMember(String member, Object[] arguments, @Bind Node node)
            throws UnknownIdentifierException, ArityException, UnsupportedTypeException {
        if (ToStringMember.is(member)) {
            return ToStringMember.invoke(this, arguments);
        }
        Node previous = GrError.enterCall(node);
        try {
            return ArrayMethods.invoke(memory, member, arguments);
        } finally {
            GrError.leaveCall(previous);
        }
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
        return ArrayDisplay.show(memory, memory.description, shape.dims(), shape.strides(), 0, 0);
    }

    /** What host-side messages (GraalPy's, for one) show for the array: its description, without contents. */
    @Override
    public String toString() {
        return memory.description;
    }
}
