package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrError;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The one gate through which the host touches the memory of device arrays: element reads and writes, raw
 * buffer reads and writes (the interop buffer messages), and copies. Every access checks that the array was
 * not freed.
 *
 * <p>For the asynchronous scheduler: this is where a host access must first wait for the device work that
 * writes the array (and a host write for the work that reads it). Today the scheduler runs work synchronously,
 * so the accesses go straight to the unified buffer's host view.
 *
 * <p>Thread-safety: as the unified buffer's: concurrent accesses to distinct elements are safe.
 */
public final class ArrayAccess {
    private static final double TWO_TO_64 = 18446744073709551616.0;

    private ArrayAccess() {
    }

    /**
     * Reads element {@code index} as an interop value: Boolean, Byte, Short, Integer, Long, Float or Double.
     * Unsigned types read back non-negative in the next wider type; a {@code ulong} of 2^63 or more reads as
     * a double.
     */
    static Object read(ArrayMemory m, long index) {
        MemorySegment s = m.live().hostView();
        return switch (m.type) {
            case BOOL -> s.getAtIndex(ValueLayout.JAVA_BYTE, index) != 0;
            case INT8 -> s.getAtIndex(ValueLayout.JAVA_BYTE, index);
            case UINT8 -> (short) (s.getAtIndex(ValueLayout.JAVA_BYTE, index) & 0xff);
            case INT16 -> s.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, index);
            case UINT16 -> s.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, index) & 0xffff;
            case INT32 -> s.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, index);
            case UINT32 -> s.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, index) & 0xffffffffL;
            case INT64 -> s.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index);
            case UINT64 -> unsignedLong(s.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index));
            case FLOAT -> s.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, index);
            case DOUBLE -> s.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, index);
        };
    }

    private static Object unsignedLong(long bits) {
        return bits >= 0 ? (Object) bits : (Object) (bits + TWO_TO_64);
    }

    /** Writes an integer element (bool, signed or unsigned); {@code bits} was range-checked by the caller. */
    static void writeInteger(ArrayMemory m, long index, long bits) {
        MemorySegment s = m.live().hostView();
        switch (m.type) {
            case BOOL, INT8, UINT8 -> s.setAtIndex(ValueLayout.JAVA_BYTE, index, (byte) bits);
            case INT16, UINT16 -> s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, index, (short) bits);
            case INT32, UINT32 -> s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, index, (int) bits);
            case INT64, UINT64 -> s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index, bits);
            case FLOAT, DOUBLE -> throw new IllegalArgumentException("not an integer type: " + m.type);
        }
    }

    /** Writes a float or double element. */
    static void writeFloating(ArrayMemory m, long index, double value) {
        MemorySegment s = m.live().hostView();
        if (m.type == ElementType.FLOAT) {
            s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, index, (float) value);
        } else {
            s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, index, value);
        }
    }

    /** Reads one raw value of {@code layout} at a byte offset (interop buffer messages). */
    static byte readByte(ArrayMemory m, long byteOffset) {
        return m.live().hostView().get(ValueLayout.JAVA_BYTE, byteOffset);
    }

    static void writeByte(ArrayMemory m, long byteOffset, byte value) {
        m.live().hostView().set(ValueLayout.JAVA_BYTE, byteOffset, value);
    }

    static short readShort(ArrayMemory m, ByteOrder order, long byteOffset) {
        return m.live().hostView().get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order), byteOffset);
    }

    static void writeShort(ArrayMemory m, ByteOrder order, long byteOffset, short value) {
        m.live().hostView().set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order), byteOffset, value);
    }

    static int readInt(ArrayMemory m, ByteOrder order, long byteOffset) {
        return m.live().hostView().get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(order), byteOffset);
    }

    static void writeInt(ArrayMemory m, ByteOrder order, long byteOffset, int value) {
        m.live().hostView().set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(order), byteOffset, value);
    }

    static long readLong(ArrayMemory m, ByteOrder order, long byteOffset) {
        return m.live().hostView().get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order), byteOffset);
    }

    static void writeLong(ArrayMemory m, ByteOrder order, long byteOffset, long value) {
        m.live().hostView().set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order), byteOffset, value);
    }

    static float readFloat(ArrayMemory m, ByteOrder order, long byteOffset) {
        return m.live().hostView().get(ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(order), byteOffset);
    }

    static void writeFloat(ArrayMemory m, ByteOrder order, long byteOffset, float value) {
        m.live().hostView().set(ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(order), byteOffset, value);
    }

    static double readDouble(ArrayMemory m, ByteOrder order, long byteOffset) {
        return m.live().hostView().get(ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(order), byteOffset);
    }

    static void writeDouble(ArrayMemory m, ByteOrder order, long byteOffset, double value) {
        m.live().hostView().set(ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(order), byteOffset, value);
    }

    /** Bulk read of raw bytes (interop {@code readBuffer}). */
    @TruffleBoundary
    static void readBytes(ArrayMemory m, long byteOffset, byte[] destination, int destinationOffset, int length) {
        MemorySegment.copy(m.live().hostView(), ValueLayout.JAVA_BYTE, byteOffset, destination, destinationOffset,
                length);
    }

    /**
     * Copies {@code count} elements between device arrays of the same element type: a device memory copy on
     * the default stream, waited for (as {@code cudaMemcpy}); within one buffer, a host copy that allows overlap.
     */
    @TruffleBoundary
    static void copy(ArrayMemory dst, long dstIndex, ArrayMemory src, long srcIndex, long count) {
        UnifiedBuffer d = dst.live();
        UnifiedBuffer s = src.live();
        long size = dst.type.size;
        if (d == s) {
            MemorySegment.copy(s.hostView(), srcIndex * size, d.hostView(), dstIndex * size, count * size);
            return;
        }
        try {
            Stream stream = d.device().defaultStream();
            stream.copy(d, dstIndex * size, s, srcIndex * size, count * size);
            stream.synchronize();
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }

    /**
     * Copies {@code count} elements from a Java primitive array whose component type stores this element
     * type exactly (float[] into float, int[] into int or uint …); false, copying nothing, for any other array.
     */
    @TruffleBoundary
    static boolean copyFromJavaArray(ArrayMemory m, long index, Object array, int count) {
        ValueLayout layout = javaLayout(m.type, array);
        if (layout == null) {
            return false;
        }
        MemorySegment.copy(array, 0, m.live().hostView(), layout, index * m.type.size, count);
        return true;
    }

    /** The reverse of {@link #copyFromJavaArray}. */
    @TruffleBoundary
    static boolean copyToJavaArray(ArrayMemory m, long index, Object array, int count) {
        ValueLayout layout = javaLayout(m.type, array);
        if (layout == null) {
            return false;
        }
        MemorySegment.copy(m.live().hostView(), layout, index * m.type.size, array, 0, count);
        return true;
    }

    private static ValueLayout javaLayout(ElementType type, Object array) {
        return switch (type) {
            case INT8, UINT8 -> array instanceof byte[] ? ValueLayout.JAVA_BYTE : null;
            case INT16, UINT16 -> array instanceof short[] ? ValueLayout.JAVA_SHORT_UNALIGNED : null;
            case INT32, UINT32 -> array instanceof int[] ? ValueLayout.JAVA_INT_UNALIGNED : null;
            case INT64, UINT64 -> array instanceof long[] ? ValueLayout.JAVA_LONG_UNALIGNED : null;
            case FLOAT -> array instanceof float[] ? ValueLayout.JAVA_FLOAT_UNALIGNED : null;
            case DOUBLE -> array instanceof double[] ? ValueLayout.JAVA_DOUBLE_UNALIGNED : null;
            case BOOL -> null;
        };
    }
}
