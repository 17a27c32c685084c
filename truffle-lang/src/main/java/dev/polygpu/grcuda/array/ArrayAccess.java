package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.objects.GrUnsignedLong;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Work;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The one gate through which the host touches the memory of device arrays: element reads and writes, raw
 * buffer reads and writes (the interop buffer messages), and copies. Every access checks that the array was
 * not freed.
 *
 * <p>Every access first asks the scheduler whether outstanding device work touches the array
 * ({@link ArrayMemory#readAddress()}, {@link ArrayMemory#writeAddress()}): a read waits for the work that
 * writes it, a write for all work that touches it; copies between device arrays become computational
 * elements. Element access compiles to a few instructions inside guest loops, so that check is as cheap as the
 * "freed" check: one plain field, with the guest loops' slow path behind a branch profile
 * ({@link ArrayMemory#awaitRead}). Measured with a prototype flag that was always false
 * (bench/grcuda/host_cost.js): a plain field with the slow path out of compiled code cost nothing measurable;
 * a volatile flag made JavaScript writes 2.0 -> 3.2 ns and reads 1.5 -> 2.5 ns; a plain flag with a
 * {@code @TruffleBoundary} call that returns into the fast path, 2.0 -> 4.5 ns and 1.5 -> 4.3 ns or more (a
 * call in the loop body probably keeps the JIT from hoisting the other checks out of the loop).
 *
 * <p>Thread-safety: as the unified buffer's: concurrent accesses to distinct elements are safe.
 */
public final class ArrayAccess {
    private ArrayAccess() {
    }

    /**
     * The whole address space. Element and buffer accesses go through it at the absolute address, after this
     * class's callers checked the index against the array and {@link ArrayMemory#liveAddress()} checked that
     * the array was not freed: on a constant segment whose scope never closes, the JIT folds most of the FFM
     * bounds and liveness checks that a per-array segment repeats on every access (they are our checks again).
     * See {@link ArrayMemory} for why the memory is still there when the liveness check passed.
     */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    // Accesses go through static final VarHandles: MemorySegment.get/set(layout, …) build the layout's handle
    // lazily, which Truffle's partial evaluator cannot fold (it recursed until it bailed out, leaving guest
    // loops over device arrays interpreted); a constant VarHandle compiles to a plain load or store.
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final VarHandle SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT_UNALIGNED.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG_UNALIGNED.varHandle();
    private static final VarHandle FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.varHandle();
    private static final VarHandle DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.varHandle();
    private static final ByteOrder SWAPPED_ORDER = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
            ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    private static final VarHandle SHORT_SWAPPED = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(SWAPPED_ORDER).varHandle();
    private static final VarHandle INT_SWAPPED = ValueLayout.JAVA_INT_UNALIGNED.withOrder(SWAPPED_ORDER).varHandle();
    private static final VarHandle LONG_SWAPPED = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(SWAPPED_ORDER).varHandle();
    private static final VarHandle FLOAT_SWAPPED = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(SWAPPED_ORDER).varHandle();
    private static final VarHandle DOUBLE_SWAPPED = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(SWAPPED_ORDER).varHandle();

    private static VarHandle handle(VarHandle nativeOrder, VarHandle swapped, ByteOrder order) {
        return order == ByteOrder.nativeOrder() ? nativeOrder : swapped;
    }

    /**
     * Reads element {@code index} as an interop value: Boolean, Byte, Short, Integer, Long, Float or Double.
     * Unsigned types read back non-negative in the next wider type; a {@code ulong} of 2^63 or more reads as
     * a {@link GrUnsignedLong}, an exact interop integer beyond a long.
     */
    static Object read(ArrayMemory m, long index) {
        return read(m, m.type, index);
    }

    /**
     * As {@link #read(ArrayMemory, long)}, with the element type passed in: callers on the hot path pass a
     * cached constant ({@code type == m.type}), so the dispatch on it folds away in compiled code.
     */
    static Object read(ArrayMemory m, ElementType type, long index) {
        long a = m.readAddress() + index * type.size;
        return switch (type) {
            case BOOL -> ((byte) BYTE.get(ALL, a)) != 0;
            case INT8 -> ((byte) BYTE.get(ALL, a));
            case UINT8 -> (short) (((byte) BYTE.get(ALL, a)) & 0xff);
            case INT16 -> ((short) SHORT.get(ALL, a));
            case UINT16 -> ((short) SHORT.get(ALL, a)) & 0xffff;
            case INT32 -> ((int) INT.get(ALL, a));
            case UINT32 -> ((int) INT.get(ALL, a)) & 0xffffffffL;
            case INT64 -> ((long) LONG.get(ALL, a));
            case UINT64 -> GrUnsignedLong.of((long) LONG.get(ALL, a));
            case FLOAT -> ((float) FLOAT.get(ALL, a));
            case DOUBLE -> ((double) DOUBLE.get(ALL, a));
        };
    }

    /**
     * Writes an integer element (bool, signed or unsigned) of {@code type == m.type}; {@code bits} was
     * range-checked by the caller.
     */
    static void writeInteger(ArrayMemory m, ElementType type, long index, long bits) {
        long a = m.writeAddress() + index * type.size;
        switch (type) {
            case BOOL, INT8, UINT8 -> BYTE.set(ALL, a, (byte) bits);
            case INT16, UINT16 -> SHORT.set(ALL, a, (short) bits);
            case INT32, UINT32 -> INT.set(ALL, a, (int) bits);
            case INT64, UINT64 -> LONG.set(ALL, a, bits);
            case FLOAT, DOUBLE -> throw new IllegalArgumentException("not an integer type: " + type);
        }
    }

    /** Writes a float or double element of {@code type == m.type}. */
    static void writeFloating(ArrayMemory m, ElementType type, long index, double value) {
        long a = m.writeAddress() + index * type.size;
        if (type == ElementType.FLOAT) {
            FLOAT.set(ALL, a, (float) value);
        } else {
            DOUBLE.set(ALL, a, value);
        }
    }

    /** Reads one raw value of {@code layout} at a byte offset (interop buffer messages). */
    static byte readByte(ArrayMemory m, long byteOffset) {
        return ((byte) BYTE.get(ALL, m.readAddress() + byteOffset));
    }

    static void writeByte(ArrayMemory m, long byteOffset, byte value) {
        BYTE.set(ALL, m.writeAddress() + byteOffset, value);
    }

    static short readShort(ArrayMemory m, ByteOrder order, long byteOffset) {
        return ((short) handle(SHORT, SHORT_SWAPPED, order).get(ALL, m.readAddress() + byteOffset));
    }

    static void writeShort(ArrayMemory m, ByteOrder order, long byteOffset, short value) {
        handle(SHORT, SHORT_SWAPPED, order).set(ALL, m.writeAddress() + byteOffset, value);
    }

    static int readInt(ArrayMemory m, ByteOrder order, long byteOffset) {
        return ((int) handle(INT, INT_SWAPPED, order).get(ALL, m.readAddress() + byteOffset));
    }

    static void writeInt(ArrayMemory m, ByteOrder order, long byteOffset, int value) {
        handle(INT, INT_SWAPPED, order).set(ALL, m.writeAddress() + byteOffset, value);
    }

    static long readLong(ArrayMemory m, ByteOrder order, long byteOffset) {
        return ((long) handle(LONG, LONG_SWAPPED, order).get(ALL, m.readAddress() + byteOffset));
    }

    static void writeLong(ArrayMemory m, ByteOrder order, long byteOffset, long value) {
        handle(LONG, LONG_SWAPPED, order).set(ALL, m.writeAddress() + byteOffset, value);
    }

    static float readFloat(ArrayMemory m, ByteOrder order, long byteOffset) {
        return ((float) handle(FLOAT, FLOAT_SWAPPED, order).get(ALL, m.readAddress() + byteOffset));
    }

    static void writeFloat(ArrayMemory m, ByteOrder order, long byteOffset, float value) {
        handle(FLOAT, FLOAT_SWAPPED, order).set(ALL, m.writeAddress() + byteOffset, value);
    }

    static double readDouble(ArrayMemory m, ByteOrder order, long byteOffset) {
        return ((double) handle(DOUBLE, DOUBLE_SWAPPED, order).get(ALL, m.readAddress() + byteOffset));
    }

    static void writeDouble(ArrayMemory m, ByteOrder order, long byteOffset, double value) {
        handle(DOUBLE, DOUBLE_SWAPPED, order).set(ALL, m.writeAddress() + byteOffset, value);
    }

    /** Bulk read of raw bytes (interop {@code readBuffer}). */
    @TruffleBoundary
    static void readBytes(ArrayMemory m, long byteOffset, byte[] destination, int destinationOffset, int length) {
        MemorySegment.copy(m.readSegment(), ValueLayout.JAVA_BYTE, byteOffset, destination, destinationOffset,
                length);
    }

    /**
     * Copies {@code count} elements between device arrays of the same element type: a copy element of the
     * scheduler ({@code label} names it), which runs on the device after the work that writes the source and
     * touches the destination. Within one buffer (views of one array), a host copy that allows overlap, after
     * the device work on the array.
     */
    @TruffleBoundary
    static void copy(String label, ArrayMemory dst, long dstIndex, ArrayMemory src, long srcIndex, long count) {
        UnifiedBuffer d = dst.live();
        UnifiedBuffer s = src.live();
        long size = dst.type.size;
        if (d == s) {
            MemorySegment view = dst.writeSegment();
            MemorySegment.copy(view, srcIndex * size, view, dstIndex * size, count * size);
            return;
        }
        Work.Copy work = new Work.Copy(d, dstIndex * size, s, srcIndex * size, count * size);
        dst.submit(ComputationalElement.copy(label, dst.tracked, src.tracked, work, null));
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
        MemorySegment.copy(array, 0, m.writeSegment(), layout, index * m.type.size, count);
        return true;
    }

    /** The reverse of {@link #copyFromJavaArray}. */
    @TruffleBoundary
    static boolean copyToJavaArray(ArrayMemory m, long index, Object array, int count) {
        ValueLayout layout = javaLayout(m.type, array);
        if (layout == null) {
            return false;
        }
        MemorySegment.copy(m.readSegment(), layout, index * m.type.size, array, 0, count);
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
