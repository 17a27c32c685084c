package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.CudaError;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Bounds-checked loads and stores that generated kernel code calls for every memory access (global, shared
 * and local). The JIT inlines them; the check is the one compute-sanitizer's memcheck would do, and a failed
 * one raises a fault naming the buffer and index. {@code pos} is the access's source position
 * ({@code line << 16 | column}). Sub-int loads return the raw sign-extended value; the generated code
 * narrows to the C type (e.g. masks an unsigned char).
 *
 * <p>Scalar loads and stores go through the segment itself ({@link MemorySegment#get(ValueLayout.OfFloat, long)}
 * and its siblings), whose bounds check C2 treats as a range check that it can hoist out of loops whose index is
 * linear in the loop variable; its {@link IndexOutOfBoundsException} is caught right here and turned into the
 * fault, so the message stays precise. This measured faster than checking with
 * {@link Objects#checkIndex(long, long)} and then accessing {@link #ALL} at the absolute address, which repeats
 * the check on a second segment (docs/benchmarks.md, issue #32).
 *
 * <p>Whole vectors and structs are checked once ({@link #vectorRead}, {@link #structRead}) and their components
 * then read through {@link #ALL}, one segment spanning the address space whose scope never closes, at the
 * absolute address. This is safe because every segment a kernel sees is native and stays
 * alive while the kernel runs: device buffers are pinned by each launch that uses them (a free waits for
 * it), and so is the module's {@link ModuleMemory} (closing the module frees it after them), shared and local
 * memory belong to the runner's {@code BlockState}, which the running thread holds.
 *
 * <p>Each store first asks the segment whether it is
 * {@linkplain MemorySegment#isReadOnly() read-only}: a kernel parameter the launch passed read-only is bound as
 * a read-only view of its buffer (pointer arithmetic keeps the segment), and a store through it faults naming
 * the parameter. The test reads one more field of the segment whose size the bounds check reads anyway; it
 * measured within noise on the CPU device benchmarks (docs/benchmarks.md). Atomics are checked in
 * {@link #checkAtomic}.
 */
public final class Mem {
    /** The whole address space; addresses are checked before use. */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private Mem() {
    }

    /**
     * The absolute address of byte {@code off} of {@code s}, as a GPU's pointer holds it (a pointer variable never
     * assigned has no segment yet: address 0 plus the offset).
     */
    public static long address(MemorySegment s, long off) {
        return (s == null ? 0 : s.address()) + off;
    }

    /**
     * Checks that byte {@code off} of {@code s} is a multiple of {@code size} (a scalar access's natural alignment,
     * which a GPU requires) and returns {@code off}; the code generator calls it only where the pointer's provenance
     * does not prove the alignment.
     */
    public static long aligned(MemorySegment s, long off, int size, BlockState st, int pos) {
        if (s != null && ((s.address() + off) & (size - 1)) != 0) {
            throw st.misalignedScalar(s, off, size, pos);
        }
        return off;
    }

    public static int ldB(MemorySegment s, long off, BlockState st, int pos) {
        try {
            return s.get(ValueLayout.JAVA_BYTE, off);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 1, false, pos);
        }
    }

    /** Faults a store or atomic through {@code s} if the launch passed its memory read-only. */
    private static void writable(MemorySegment s, BlockState st, int pos) {
        if (s.isReadOnly()) {
            throw st.readOnlyWrite(s, pos);
        }
    }

    public static void stB(MemorySegment s, long off, int v, BlockState st, int pos) {
        writable(s, st, pos);
        try {
            s.set(ValueLayout.JAVA_BYTE, off, (byte) v);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 1, true, pos);
        }
    }

    public static int ldS(MemorySegment s, long off, BlockState st, int pos) {
        try {
            return s.get(ValueLayout.JAVA_SHORT_UNALIGNED, off);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 2, false, pos);
        }
    }

    public static void stS(MemorySegment s, long off, int v, BlockState st, int pos) {
        writable(s, st, pos);
        try {
            s.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, (short) v);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 2, true, pos);
        }
    }

    public static int ldI(MemorySegment s, long off, BlockState st, int pos) {
        try {
            return s.get(ValueLayout.JAVA_INT_UNALIGNED, off);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 4, false, pos);
        }
    }

    public static void stI(MemorySegment s, long off, int v, BlockState st, int pos) {
        writable(s, st, pos);
        try {
            s.set(ValueLayout.JAVA_INT_UNALIGNED, off, v);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 4, true, pos);
        }
    }

    public static long ldJ(MemorySegment s, long off, BlockState st, int pos) {
        try {
            return s.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 8, false, pos);
        }
    }

    public static void stJ(MemorySegment s, long off, long v, BlockState st, int pos) {
        writable(s, st, pos);
        try {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, off, v);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 8, true, pos);
        }
    }

    public static float ldF(MemorySegment s, long off, BlockState st, int pos) {
        try {
            return s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 4, false, pos);
        }
    }

    public static void stF(MemorySegment s, long off, float v, BlockState st, int pos) {
        writable(s, st, pos);
        try {
            s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, off, v);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 4, true, pos);
        }
    }

    /** Loads a {@code __half}: the binary16 value at {@code off}, widened exactly to float. */
    public static float ldH(MemorySegment s, long off, BlockState st, int pos) {
        try {
            return Float.float16ToFloat(s.get(ValueLayout.JAVA_SHORT_UNALIGNED, off));
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 2, false, pos);
        }
    }

    /** Stores a {@code __half} held in a float (already a half value, so the narrowing is exact). */
    public static void stH(MemorySegment s, long off, float v, BlockState st, int pos) {
        writable(s, st, pos);
        try {
            s.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, Float.floatToFloat16(v));
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 2, true, pos);
        }
    }

    public static double ldD(MemorySegment s, long off, BlockState st, int pos) {
        try {
            return s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, off);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 8, false, pos);
        }
    }

    public static void stD(MemorySegment s, long off, double v, BlockState st, int pos) {
        writable(s, st, pos);
        try {
            s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, off, v);
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, 8, true, pos);
        }
    }

    /**
     * Checks that the {@code count} elements of {@code size} bytes from {@code off} lie within the segment, for a
     * built-in that reads an array through a pointer ({@code norm(dim, p)}); {@code fn} names it in the fault.
     * A negative count is a fault of its own.
     */
    public static void checkRead(MemorySegment s, long off, int count, int size, String fn, BlockState st, int pos) {
        if (count < 0) {
            throw st.fault(CudaError.INVALID_VALUE, fn + " was called with dim = " + count
                    + "; dim is the number of elements to read and must not be negative", pos);
        }
        if (count == 0) {
            return;
        }
        long n = s.byteSize();
        if (off < 0 || off > n - size) {
            throw st.outOfBounds(s, off, size, false, pos);
        }
        long last = off + (long) (count - 1) * size;
        if (last > n - size) {
            long first = off + (n - off) / size * size; // the first element that does not fit
            throw st.outOfBounds(s, first, size, false, pos);
        }
    }

    /**
     * Checks an atomic access (every one writes): to memory the launch did not pass read-only, in bounds and
     * naturally aligned (the address, not just the offset).
     */
    public static void checkAtomic(MemorySegment s, long off, int size, BlockState st, int pos) {
        writable(s, st, pos);
        if (off < 0 || off > s.byteSize() - size) {
            throw st.outOfBounds(s, off, size, true, pos);
        }
        if (((s.address() + off) & (size - 1)) != 0) {
            throw st.misaligned(s, off, size, pos);
        }
    }

    // ---- whole vectors (float4, uchar4, double2, …) ---------------------------------------------------------

    /**
     * Checks a load of a whole vector of {@code size} bytes at {@code off} (in bounds, and the address a multiple
     * of {@code align}, as a GPU's vector load requires) and returns its absolute address, from which the
     * generated code reads the components with {@link #atB} … {@link #atD}. {@code type} names the vector type
     * in the fault.
     */
    public static long vectorRead(MemorySegment s, long off, int size, int align, String type, BlockState st,
            int pos) {
        return vectorAddress(s, off, size, align, type, false, st, pos);
    }

    /** As {@link #vectorRead} for a store, which also faults on memory the launch passed read-only. */
    public static long vectorWrite(MemorySegment s, long off, int size, int align, String type, BlockState st,
            int pos) {
        writable(s, st, pos);
        return vectorAddress(s, off, size, align, type, true, st, pos);
    }

    /**
     * As {@link #vectorRead} for a whole struct ({@code p[i]} of a {@code Particle*}): the whole struct must lie in
     * the buffer, at a multiple of the struct's alignment; the generated code then reads its scalars.
     */
    public static long structRead(MemorySegment s, long off, int size, int align, String type, BlockState st,
            int pos) {
        return aggregateAddress(s, off, size, align, type, false, true, st, pos);
    }

    /** As {@link #structRead} for a store, which also faults on memory the launch passed read-only. */
    public static long structWrite(MemorySegment s, long off, int size, int align, String type, BlockState st,
            int pos) {
        writable(s, st, pos);
        return aggregateAddress(s, off, size, align, type, true, true, st, pos);
    }

    private static long vectorAddress(MemorySegment s, long off, int size, int align, String type, boolean write,
            BlockState st, int pos) {
        return aggregateAddress(s, off, size, align, type, write, false, st, pos);
    }

    private static long aggregateAddress(MemorySegment s, long off, int size, int align, String type,
            boolean write, boolean struct, BlockState st, int pos) {
        try {
            Objects.checkIndex(off, s.byteSize() - (size - 1));
        } catch (IndexOutOfBoundsException e) {
            throw st.outOfBounds(s, off, size, write, pos);
        }
        long address = s.address() + off;
        if ((address & (align - 1)) != 0) {
            throw struct ? st.misalignedStruct(s, off, size, align, type, write, pos)
                    : st.misalignedVector(s, off, size, align, type, write, pos);
        }
        return address;
    }

    // The components of a vector at an address that vectorRead or vectorWrite has checked.

    public static int atB(long address) {
        return ALL.get(ValueLayout.JAVA_BYTE, address);
    }

    public static int atS(long address) {
        return ALL.get(ValueLayout.JAVA_SHORT_UNALIGNED, address);
    }

    public static int atI(long address) {
        return ALL.get(ValueLayout.JAVA_INT_UNALIGNED, address);
    }

    public static long atJ(long address) {
        return ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, address);
    }

    public static float atF(long address) {
        return ALL.get(ValueLayout.JAVA_FLOAT_UNALIGNED, address);
    }

    public static double atD(long address) {
        return ALL.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, address);
    }

    public static void atB(long address, int v) {
        ALL.set(ValueLayout.JAVA_BYTE, address, (byte) v);
    }

    public static void atS(long address, int v) {
        ALL.set(ValueLayout.JAVA_SHORT_UNALIGNED, address, (short) v);
    }

    public static void atI(long address, int v) {
        ALL.set(ValueLayout.JAVA_INT_UNALIGNED, address, v);
    }

    public static void atJ(long address, long v) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, address, v);
    }

    public static void atF(long address, float v) {
        ALL.set(ValueLayout.JAVA_FLOAT_UNALIGNED, address, v);
    }

    public static void atD(long address, double v) {
        ALL.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, address, v);
    }
}
