package dev.polygpu.device.cpu.kernel.ast;

/**
 * A C type of the kernel language after typedefs and templates are resolved. Qualifiers ({@code const},
 * {@code volatile}, {@code __restrict__}) do not change code generation and are not part of the type.
 */
public sealed interface CType permits CType.Prim, CType.Pointer, CType.Array, CType.Vector {

    /** Size in bytes (arrays: element size times length; void: 1, as GCC does for pointer arithmetic). */
    int size();

    default boolean isArithmetic() {
        return this instanceof Prim p && p != Prim.VOID;
    }

    default boolean isInteger() {
        return this instanceof Prim p && p.integer;
    }

    default boolean isFloating() {
        return this == Prim.FLOAT || this == Prim.DOUBLE;
    }

    default boolean isPointer() {
        return this instanceof Pointer;
    }

    /** Scalar: arithmetic or pointer (what a condition or {@code !} accepts). */
    default boolean isScalar() {
        return isArithmetic() || isPointer();
    }

    /**
     * The primitive types. {@code long} and {@code long long} are both 64 bits (LP64, as nvcc on Linux);
     * plain {@code char} is signed (as on x86-64 hosts). {@code size_t} is {@link #ULONG}.
     */
    enum Prim implements CType {
        VOID("void", 1, false, false, 0),
        BOOL("bool", 1, true, false, 1),
        CHAR("char", 1, true, true, 2),
        UCHAR("unsigned char", 1, true, false, 2),
        SHORT("short", 2, true, true, 3),
        USHORT("unsigned short", 2, true, false, 3),
        INT("int", 4, true, true, 4),
        UINT("unsigned int", 4, true, false, 4),
        LONG("long", 8, true, true, 5),
        ULONG("unsigned long", 8, true, false, 5),
        LONGLONG("long long", 8, true, true, 6),
        ULONGLONG("unsigned long long", 8, true, false, 6),
        /**
         * CUDA's {@code __half} (IEEE binary16, 2 bytes aligned 2), a class in cuda_fp16.hpp that the engine treats as
         * an arithmetic type whose operators take only halves: see {@code front.HalfSema}. Held as a float.
         */
        HALF("__half", 2, false, true, 7),
        FLOAT("float", 4, false, true, 7),
        DOUBLE("double", 8, false, true, 8);

        private final String cName;
        private final int size;
        /** Integer type (bool and char included). */
        public final boolean integer;
        /** Signed integer or floating type. */
        public final boolean signed;
        /** Integer conversion rank (C11 6.3.1.1); floating types above all integers. */
        public final int rank;

        Prim(String cName, int size, boolean integer, boolean signed, int rank) {
            this.cName = cName;
            this.size = size;
            this.integer = integer;
            this.signed = signed;
            this.rank = rank;
        }

        @Override
        public int size() {
            return size;
        }

        /** True for {@link #HALF}. */
        public boolean isHalf() {
            return this == HALF;
        }

        /** True for the 64-bit integer types (long, long long and their unsigned forms). */
        public boolean is64() {
            return integer && size == 8;
        }

        @Override
        public String toString() {
            return cName;
        }
    }

    /** A pointer; where it points (global, shared or local memory) is a property of the value, not the type. */
    record Pointer(CType pointee) implements CType {
        @Override
        public int size() {
            return 8;
        }

        @Override
        public String toString() {
            return pointee + "*";
        }
    }

    /** A fixed-size array; {@code length == -1} for {@code extern __shared__ T s[]} (sized by the launch). */
    record Array(CType element, int length) implements CType {
        @Override
        public int size() {
            return length < 0 ? 0 : element.size() * length;
        }

        @Override
        public String toString() {
            return element + "[" + (length < 0 ? "" : Integer.toString(length)) + "]";
        }
    }

    /**
     * A CUDA built-in vector type ({@code float4}, {@code uchar4}, {@code double2}, …): {@code length} (1 to 4)
     * components {@code .x .y .z .w} of a primitive type, laid out one after another without padding. Its size and
     * alignment are those of CUDA's {@code vector_types.h} (checked with nvcc 13.0 on x86-64): a 2-vector is
     * aligned to its size, a 4-vector to its size up to 16 ({@code long4}, {@code double4}: 32 bytes aligned 16),
     * a 1- or 3-vector to its component ({@code float3}: 12 bytes aligned 4). No operators apply to a vector as a
     * whole: it is copied, passed, returned, loaded and stored, and its components are scalars.
     */
    record Vector(Prim component, int length) implements CType {
        public Vector {
            if (length < 1 || length > 4 || !component.isArithmetic() || component == Prim.BOOL) {
                throw new IllegalArgumentException("no vector type of " + length + " " + component);
            }
        }

        @Override
        public int size() {
            return component.size() * length;
        }

        /** The alignment in bytes that CUDA gives the type. */
        public int align() {
            return switch (length) {
                case 2 -> size();
                case 4 -> Math.min(size(), 16);
                default -> component.size();
            };
        }

        /** The CUDA name of the components' type as used in vector type names ({@code uchar}, {@code longlong}). */
        public String baseName() {
            return switch (component) {
                case UCHAR -> "uchar";
                case USHORT -> "ushort";
                case UINT -> "uint";
                case ULONG -> "ulong";
                case LONGLONG -> "longlong";
                case ULONGLONG -> "ulonglong";
                default -> component.toString();
            };
        }

        @Override
        public String toString() {
            return baseName() + length;
        }
    }
}
