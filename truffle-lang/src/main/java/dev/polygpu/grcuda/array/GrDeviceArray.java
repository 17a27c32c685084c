package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.dsl.Cached.Shared;
import com.oracle.truffle.api.dsl.Cached;
import com.oracle.truffle.api.dsl.Specialization;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.InvalidBufferOffsetException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.CachedLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import com.oracle.truffle.api.profiles.InlinedBranchProfile;
import dev.polygpu.device.ElementType;
import java.nio.ByteOrder;

/**
 * A 1-D device array ({@code DeviceArray("float", n)}, {@code float[n]}): an interop array of its elements,
 * an interop buffer of its bytes (so GraalPy and GraalJS can read it in bulk), and the members of
 * {@link ArrayMethods}. A kernel gets its whole buffer.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrDeviceArray extends GrWholeArray {
    private static final long[] UNIT_STRIDE = {1};

    GrDeviceArray(ArrayMemory memory) {
        super(memory);
    }

    @ExportMessage
    boolean hasArrayElements() {
        return true;
    }

    @Override
    long elementsAtFirstLevel() {
        return memory.count;
    }

    @ExportMessage
    long getArraySize() {
        memory.requireNotFreed();
        return memory.count;
    }

    @ExportMessage(name = "isArrayElementReadable")
    @ExportMessage(name = "isArrayElementModifiable")
    boolean isArrayElementReadable(long index) {
        return index >= 0 && index < memory.count;
    }

    // Element reads and writes cache the element type (an array's never changes): compiled code then keeps
    // only that type's load or store and conversion instead of a dispatch over all of them.
    @ExportMessage
    static final class ReadArrayElement {
        @Specialization(guards = "receiver.elementType() == type", limit = "3")
        static Object cached(GrDeviceArray receiver, long index,
                @Bind Node node,
                @Cached("receiver.elementType()") ElementType type,
                @Shared("badIndex") @Cached InlinedBranchProfile badIndex,
                @Shared("waited") @Cached InlinedBranchProfile waited) throws InvalidArrayIndexException {
            if (!receiver.isArrayElementReadable(index)) {
                badIndex.enter(node);
                throw InvalidArrayIndexException.create(index);
            }
            receiver.memory.awaitRead(node, waited);
            return ArrayAccess.read(receiver.memory, type, index);
        }

        @Specialization(replaces = "cached")
        static Object generic(GrDeviceArray receiver, long index,
                @Bind Node node,
                @Shared("badIndex") @Cached InlinedBranchProfile badIndex,
                @Shared("waited") @Cached InlinedBranchProfile waited) throws InvalidArrayIndexException {
            return cached(receiver, index, node, receiver.memory.type, badIndex, waited);
        }
    }

    @ExportMessage
    static final class WriteArrayElement {
        @Specialization(guards = "receiver.elementType() == type", limit = "3")
        static void cached(GrDeviceArray receiver, long index, Object value,
                @Bind Node node,
                @Cached("receiver.elementType()") ElementType type,
                @Shared("values") @CachedLibrary(limit = "3") InteropLibrary values,
                @Shared("badIndex") @Cached InlinedBranchProfile badIndex,
                @Shared("waited") @Cached InlinedBranchProfile waited)
                throws InvalidArrayIndexException, UnsupportedTypeException {
            if (!receiver.isArrayElementReadable(index)) {
                badIndex.enter(node);
                throw InvalidArrayIndexException.create(index);
            }
            receiver.memory.awaitWrite(node, waited);
            ElementConversion.store(receiver.memory, type, index, value, values);
        }

        @Specialization(replaces = "cached")
        static void generic(GrDeviceArray receiver, long index, Object value,
                @Bind Node node,
                @Shared("values") @CachedLibrary(limit = "3") InteropLibrary values,
                @Shared("badIndex") @Cached InlinedBranchProfile badIndex,
                @Shared("waited") @Cached InlinedBranchProfile waited)
                throws InvalidArrayIndexException, UnsupportedTypeException {
            cached(receiver, index, value, node, receiver.memory.type, values, badIndex, waited);
        }
    }

    @ExportMessage
    boolean isArrayElementInsertable(@SuppressWarnings("unused") long index) {
        return false;
    }

    @ExportMessage
    boolean hasBufferElements() {
        return true;
    }

    @ExportMessage
    boolean isBufferWritable() {
        return true;
    }

    @ExportMessage
    long getBufferSize() {
        return memory.count * memory.type.size;
    }

    private void checkOffset(long byteOffset, int length) throws InvalidBufferOffsetException {
        if (byteOffset < 0 || length < 0 || byteOffset > getBufferSize() - length) {
            throw InvalidBufferOffsetException.create(byteOffset, length);
        }
    }

    @ExportMessage
    byte readBufferByte(long byteOffset) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 1);
        return ArrayAccess.readByte(memory, byteOffset);
    }

    @ExportMessage
    void writeBufferByte(long byteOffset, byte value) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 1);
        ArrayAccess.writeByte(memory, byteOffset, value);
    }

    @ExportMessage
    void readBuffer(long byteOffset, byte[] destination, int destinationOffset, int length)
            throws InvalidBufferOffsetException {
        checkOffset(byteOffset, length);
        ArrayAccess.readBytes(memory, byteOffset, destination, destinationOffset, length);
    }

    @ExportMessage
    short readBufferShort(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 2);
        return ArrayAccess.readShort(memory, order, byteOffset);
    }

    @ExportMessage
    void writeBufferShort(ByteOrder order, long byteOffset, short value) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 2);
        ArrayAccess.writeShort(memory, order, byteOffset, value);
    }

    @ExportMessage
    int readBufferInt(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 4);
        return ArrayAccess.readInt(memory, order, byteOffset);
    }

    @ExportMessage
    void writeBufferInt(ByteOrder order, long byteOffset, int value) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 4);
        ArrayAccess.writeInt(memory, order, byteOffset, value);
    }

    @ExportMessage
    long readBufferLong(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 8);
        return ArrayAccess.readLong(memory, order, byteOffset);
    }

    @ExportMessage
    void writeBufferLong(ByteOrder order, long byteOffset, long value) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 8);
        ArrayAccess.writeLong(memory, order, byteOffset, value);
    }

    @ExportMessage
    float readBufferFloat(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 4);
        return ArrayAccess.readFloat(memory, order, byteOffset);
    }

    @ExportMessage
    void writeBufferFloat(ByteOrder order, long byteOffset, float value) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 4);
        ArrayAccess.writeFloat(memory, order, byteOffset, value);
    }

    @ExportMessage
    double readBufferDouble(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 8);
        return ArrayAccess.readDouble(memory, order, byteOffset);
    }

    @ExportMessage
    void writeBufferDouble(ByteOrder order, long byteOffset, double value) throws InvalidBufferOffsetException {
        checkOffset(byteOffset, 8);
        ArrayAccess.writeDouble(memory, order, byteOffset, value);
    }

    @Override
    protected String displayString() {
        return ArrayDisplay.show(memory, memory.description, new long[]{memory.count}, UNIT_STRIDE, 0, 0);
    }
}
