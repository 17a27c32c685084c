package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.dsl.Cached.Shared;
import com.oracle.truffle.api.dsl.Cached;
import com.oracle.truffle.api.dsl.Specialization;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.CachedLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import com.oracle.truffle.api.profiles.InlinedBranchProfile;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;

/**
 * {@code m[i]} of a multi-dimensional array (or {@code m[i][j]} of a 3-D one …): the array with its first
 * {@code level} indices fixed. Its elements are views again, or at the last dimension the array's elements,
 * readable and writable. As {@link dev.polygpu.grcuda.objects.GrDeviceMemory} it starts at its first element;
 * only views of C-order arrays are contiguous ({@link #isContiguous()}).
 */
@ExportLibrary(InteropLibrary.class)
public final class GrArrayView extends GrPlainObject implements ArrayHolder {
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
        memory.requireNotFreed();
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

    // As in GrDeviceArray, element reads and writes cache the element type.
    @ExportMessage
    static final class ReadArrayElement {
        @Specialization(guards = "receiver.elementType() == type", limit = "3")
        static Object cached(GrArrayView receiver, long index,
                @Bind Node node,
                @Cached("receiver.elementType()") ElementType type,
                @Shared("badIndex") @Cached InlinedBranchProfile badIndex,
                @Shared("waited") @Cached InlinedBranchProfile waited) throws InvalidArrayIndexException {
            if (!receiver.isArrayElementReadable(index)) {
                badIndex.enter(node);
                throw InvalidArrayIndexException.create(index);
            }
            long at = receiver.first + index * receiver.shape.strides()[receiver.level];
            if (receiver.isInnermost()) {
                // Waits here (not in the read), so that a failed kernel's error names the guest's access.
                receiver.memory.awaitRead(node, waited);
                return ArrayAccess.read(receiver.memory, type, at);
            }
            receiver.memory.live();
            return new GrArrayView(receiver.memory, receiver.shape, receiver.level + 1, at);
        }

        @Specialization(replaces = "cached")
        static Object generic(GrArrayView receiver, long index,
                @Bind Node node,
                @Shared("badIndex") @Cached InlinedBranchProfile badIndex,
                @Shared("waited") @Cached InlinedBranchProfile waited) throws InvalidArrayIndexException {
            return cached(receiver, index, node, receiver.memory.type, badIndex, waited);
        }
    }

    @ExportMessage
    static final class WriteArrayElement {
        @Specialization(guards = "receiver.elementType() == type", limit = "3")
        static void cached(GrArrayView receiver, long index, Object value,
                @Bind Node node,
                @Cached("receiver.elementType()") ElementType type,
                @Shared("values") @CachedLibrary(limit = "3") InteropLibrary values,
                @Shared("badIndex") @Cached InlinedBranchProfile badIndex,
                @Shared("waited") @Cached InlinedBranchProfile waited)
                throws InvalidArrayIndexException, UnsupportedTypeException, UnsupportedMessageException {
            if (!receiver.isInnermost()) {
                throw UnsupportedMessageException.create();
            }
            if (!receiver.isArrayElementReadable(index)) {
                badIndex.enter(node);
                throw InvalidArrayIndexException.create(index);
            }
            receiver.memory.awaitWrite(node, waited);
            ElementConversion.store(receiver.memory, type,
                    receiver.first + index * receiver.shape.strides()[receiver.level], value, values);
        }

        @Specialization(replaces = "cached")
        static void generic(GrArrayView receiver, long index, Object value,
                @Bind Node node,
                @Shared("values") @CachedLibrary(limit = "3") InteropLibrary values,
                @Shared("badIndex") @Cached InlinedBranchProfile badIndex,
                @Shared("waited") @Cached InlinedBranchProfile waited)
                throws InvalidArrayIndexException, UnsupportedTypeException, UnsupportedMessageException {
            cached(receiver, index, value, node, receiver.memory.type, values, badIndex, waited);
        }
    }

    /** The fixed indices, {@code [1]} for {@code m[1]}: each is a digit of {@code first} in the strides' radix. */
    private String indices() {
        StringBuilder b = new StringBuilder();
        for (int l = 0; l < level; l++) {
            b.append('[').append(first / shape.strides()[l] % shape.dims()[l]).append(']');
        }
        return b.toString();
    }

    @Override
    protected String displayString() {
        return ArrayDisplay.show(memory, "view " + indices() + " of " + memory.description, shape.dims(),
                shape.strides(), level, first);
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.DEVICE_ARRAY;
    }

    /** What host-side messages (GraalPy's, for one) show for the array: its description, without contents. */
    @Override
    public String toString() {
        return "view of " + memory.description;
    }
}
