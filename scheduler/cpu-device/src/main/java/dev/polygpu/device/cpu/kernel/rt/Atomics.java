package dev.polygpu.device.cpu.kernel.rt;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * CUDA's atomic functions ({@code atomicAdd}, {@code atomicCAS}, …) on memory segments, called by the JVM code
 * that the CPU kernel engine generates. Every method takes the segment and a byte offset and returns the value
 * that was in memory before the operation, as CUDA does.
 *
 * <p>Implementation notes. The caller has checked bounds and natural alignment. Segments are native (from a
 * shared arena) or heap segments over {@code long[]}, so 4- and 8-byte accesses at aligned offsets are
 * aligned in memory and the var handles' atomic access modes apply. Each operation is atomic with respect to
 * every other operation of this class on the same address from any thread (blocks run concurrently on
 * several cores); it has at least CUDA's relaxed ordering (the var handle modes used are volatile). Operations
 * with no hardware equivalent are compare-and-set loops; float and double loops compare raw bits, so NaN or
 * -0.0 in memory cannot make them spin. A min/max that would not change memory returns without writing, which
 * is linearizable at its read. {@link #casS} works on the aligned 32-bit word that contains the halfword.
 */
public final class Atomics {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private Atomics() {
    }

    // ---- 32-bit integers ----

    public static int addI(MemorySegment seg, long byteOffset, int value) {
        return (int) INT.getAndAdd(seg, byteOffset, value);
    }

    public static int subI(MemorySegment seg, long byteOffset, int value) {
        return (int) INT.getAndAdd(seg, byteOffset, -value);
    }

    public static int exchI(MemorySegment seg, long byteOffset, int value) {
        return (int) INT.getAndSet(seg, byteOffset, value);
    }

    /** Signed minimum. */
    public static int minI(MemorySegment seg, long byteOffset, int value) {
        while (true) {
            int old = (int) INT.getVolatile(seg, byteOffset);
            if (old <= value || INT.weakCompareAndSet(seg, byteOffset, old, value)) {
                return old;
            }
        }
    }

    /** Signed maximum. */
    public static int maxI(MemorySegment seg, long byteOffset, int value) {
        while (true) {
            int old = (int) INT.getVolatile(seg, byteOffset);
            if (old >= value || INT.weakCompareAndSet(seg, byteOffset, old, value)) {
                return old;
            }
        }
    }

    /** Unsigned minimum (atomicMin on unsigned int). */
    public static int minU(MemorySegment seg, long byteOffset, int value) {
        while (true) {
            int old = (int) INT.getVolatile(seg, byteOffset);
            if (Integer.compareUnsigned(old, value) <= 0 || INT.weakCompareAndSet(seg, byteOffset, old, value)) {
                return old;
            }
        }
    }

    /** Unsigned maximum (atomicMax on unsigned int). */
    public static int maxU(MemorySegment seg, long byteOffset, int value) {
        while (true) {
            int old = (int) INT.getVolatile(seg, byteOffset);
            if (Integer.compareUnsigned(old, value) >= 0 || INT.weakCompareAndSet(seg, byteOffset, old, value)) {
                return old;
            }
        }
    }

    public static int andI(MemorySegment seg, long byteOffset, int value) {
        return (int) INT.getAndBitwiseAnd(seg, byteOffset, value);
    }

    public static int orI(MemorySegment seg, long byteOffset, int value) {
        return (int) INT.getAndBitwiseOr(seg, byteOffset, value);
    }

    public static int xorI(MemorySegment seg, long byteOffset, int value) {
        return (int) INT.getAndBitwiseXor(seg, byteOffset, value);
    }

    /** atomicCAS: stores {@code value} if memory holds {@code compare}; returns what memory held. */
    public static int casI(MemorySegment seg, long byteOffset, int compare, int value) {
        return (int) INT.compareAndExchange(seg, byteOffset, compare, value);
    }

    /** atomicInc: stores {@code old >= limit ? 0 : old + 1}, comparing unsigned. */
    public static int incU(MemorySegment seg, long byteOffset, int limit) {
        while (true) {
            int old = (int) INT.getVolatile(seg, byteOffset);
            int next = Integer.compareUnsigned(old, limit) >= 0 ? 0 : old + 1;
            if (INT.weakCompareAndSet(seg, byteOffset, old, next)) {
                return old;
            }
        }
    }

    /** atomicDec: stores {@code (old == 0 || old > limit) ? limit : old - 1}, comparing unsigned. */
    public static int decU(MemorySegment seg, long byteOffset, int limit) {
        while (true) {
            int old = (int) INT.getVolatile(seg, byteOffset);
            int next = old == 0 || Integer.compareUnsigned(old, limit) > 0 ? limit : old - 1;
            if (INT.weakCompareAndSet(seg, byteOffset, old, next)) {
                return old;
            }
        }
    }

    // ---- 64-bit integers ----

    public static long addJ(MemorySegment seg, long byteOffset, long value) {
        return (long) LONG.getAndAdd(seg, byteOffset, value);
    }

    public static long exchJ(MemorySegment seg, long byteOffset, long value) {
        return (long) LONG.getAndSet(seg, byteOffset, value);
    }

    /** Signed minimum. */
    public static long minJ(MemorySegment seg, long byteOffset, long value) {
        while (true) {
            long old = (long) LONG.getVolatile(seg, byteOffset);
            if (old <= value || LONG.weakCompareAndSet(seg, byteOffset, old, value)) {
                return old;
            }
        }
    }

    /** Signed maximum. */
    public static long maxJ(MemorySegment seg, long byteOffset, long value) {
        while (true) {
            long old = (long) LONG.getVolatile(seg, byteOffset);
            if (old >= value || LONG.weakCompareAndSet(seg, byteOffset, old, value)) {
                return old;
            }
        }
    }

    /** Unsigned minimum (atomicMin on unsigned long long). */
    public static long minUJ(MemorySegment seg, long byteOffset, long value) {
        while (true) {
            long old = (long) LONG.getVolatile(seg, byteOffset);
            if (Long.compareUnsigned(old, value) <= 0 || LONG.weakCompareAndSet(seg, byteOffset, old, value)) {
                return old;
            }
        }
    }

    /** Unsigned maximum (atomicMax on unsigned long long). */
    public static long maxUJ(MemorySegment seg, long byteOffset, long value) {
        while (true) {
            long old = (long) LONG.getVolatile(seg, byteOffset);
            if (Long.compareUnsigned(old, value) >= 0 || LONG.weakCompareAndSet(seg, byteOffset, old, value)) {
                return old;
            }
        }
    }

    public static long andJ(MemorySegment seg, long byteOffset, long value) {
        return (long) LONG.getAndBitwiseAnd(seg, byteOffset, value);
    }

    public static long orJ(MemorySegment seg, long byteOffset, long value) {
        return (long) LONG.getAndBitwiseOr(seg, byteOffset, value);
    }

    public static long xorJ(MemorySegment seg, long byteOffset, long value) {
        return (long) LONG.getAndBitwiseXor(seg, byteOffset, value);
    }

    /** atomicCAS on 64 bits. */
    public static long casJ(MemorySegment seg, long byteOffset, long compare, long value) {
        return (long) LONG.compareAndExchange(seg, byteOffset, compare, value);
    }

    // ---- floating point ----

    public static float addF(MemorySegment seg, long byteOffset, float value) {
        while (true) {
            int old = (int) INT.getVolatile(seg, byteOffset);
            int sum = Float.floatToRawIntBits(Float.intBitsToFloat(old) + value);
            if (INT.weakCompareAndSet(seg, byteOffset, old, sum)) {
                return Float.intBitsToFloat(old);
            }
        }
    }

    public static float exchF(MemorySegment seg, long byteOffset, float value) {
        return Float.intBitsToFloat((int) INT.getAndSet(seg, byteOffset, Float.floatToRawIntBits(value)));
    }

    public static double addD(MemorySegment seg, long byteOffset, double value) {
        while (true) {
            long old = (long) LONG.getVolatile(seg, byteOffset);
            long sum = Double.doubleToRawLongBits(Double.longBitsToDouble(old) + value);
            if (LONG.weakCompareAndSet(seg, byteOffset, old, sum)) {
                return Double.longBitsToDouble(old);
            }
        }
    }

    // ---- 16-bit ----

    /**
     * atomicCAS on an unsigned short: a compare-and-set loop on the aligned 32-bit word containing the halfword,
     * so the other halfword may change concurrently without being lost. That word must lie inside the segment
     * (device buffers are allocated in multiples of 8 bytes).
     */
    public static short casS(MemorySegment seg, long byteOffset, short compare, short value) {
        long misalignment = (seg.address() + byteOffset) & 3;
        long wordOffset = byteOffset - misalignment;
        int shift = (int) (LITTLE_ENDIAN ? misalignment : 2 - misalignment) * 8;
        int mask = 0xFFFF << shift;
        int replacement = (value & 0xFFFF) << shift;
        while (true) {
            int word = (int) INT.getVolatile(seg, wordOffset);
            short old = (short) (word >>> shift);
            if (old != compare) {
                return old;
            }
            if (INT.weakCompareAndSet(seg, wordOffset, word, (word & ~mask) | replacement)) {
                return old;
            }
        }
    }
}
