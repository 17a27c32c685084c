package dev.polygpu.device.cpu.kernel.ast;

import java.util.ArrayList;
import java.util.List;

/**
 * A C type of the kernel language after typedefs and templates are resolved. Qualifiers ({@code const},
 * {@code volatile}, {@code __restrict__}) do not change code generation and are not part of the type.
 */
public sealed interface CType permits CType.Prim, CType.Pointer, CType.Array, CType.Vector, CType.Struct {

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
     * plain {@code char} is signed (as on x86-64 hosts) and a type apart from {@code signed char}, as in C++.
     * {@code size_t} is {@link #ULONG}.
     */
    enum Prim implements CType {
        VOID("void", 1, false, false, 0),
        BOOL("bool", 1, true, false, 1),
        CHAR("char", 1, true, true, 2),
        /**
         * {@code signed char}: the same values as plain {@code char} (signed here), but another type in C++, so
         * that {@code c ? (signed char)x : 'a'} is an int and a template deduced from both conflicts.
         */
        SCHAR("signed char", 1, true, true, 2),
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
                case SCHAR -> "char";
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

    /** A scalar inside an object: its primitive type and its byte offset from the object's start. */
    record Leaf(Prim type, int offset) {}

    /**
     * The scalars an object of type {@code t} consists of, in memory order: one for a primitive, one per component
     * of a vector, the elements' leaves one after another for an array, the members' leaves for a struct. A
     * vector or struct value is one JVM value per leaf in generated code.
     */
    static List<Leaf> leaves(CType t) {
        return switch (t) {
            case Prim p -> List.of(new Leaf(p, 0));
            case Vector v -> {
                List<Leaf> out = new ArrayList<>(v.length());
                for (int i = 0; i < v.length(); i++) {
                    out.add(new Leaf(v.component(), i * v.component().size()));
                }
                yield out;
            }
            case Array a -> {
                List<Leaf> inner = leaves(a.element());
                List<Leaf> out = new ArrayList<>(inner.size() * Math.max(a.length(), 0));
                for (int i = 0; i < a.length(); i++) {
                    for (Leaf l : inner) {
                        out.add(new Leaf(l.type(), i * a.element().size() + l.offset()));
                    }
                }
                yield out;
            }
            case Struct s -> s.leaves();
            case Pointer p -> throw new IllegalArgumentException("a pointer has no scalar leaves of its own: " + p);
        };
    }

    /** The alignment in bytes of an object of type {@code t} (C's and CUDA's, as nvcc lays them out). */
    static int alignOf(CType t) {
        return switch (t) {
            case Vector v -> v.align();
            case Struct s -> s.align();
            case Array a -> alignOf(a.element());
            default -> t.size();
        };
    }

    /**
     * A plain C struct ({@code struct Particle { float3 pos; float mass; };}): data members of arithmetic, vector,
     * fixed-size array and other struct types, laid out as C does (each member at the next multiple of its
     * alignment, the size padded to the struct's alignment, which is its largest member's). The type is created
     * when the parser meets its name and laid out by {@link #define} once the sizes of its array members are
     * known; until then it is incomplete. Two structs are the same type only if they are the same object.
     */
    final class Struct implements CType {
        /** A data member and its byte offset. */
        public record Member(String name, CType type, int offset) {}

        private final String name;
        private List<Member> members;
        private List<Leaf> leaves;
        private int size;
        private int align;

        public Struct(String name) {
            this.name = name;
        }

        /** Lays the struct out with its members in declaration order. */
        public void define(List<String> names, List<CType> types) {
            List<Member> ms = new ArrayList<>(names.size());
            int off = 0;
            int al = 1;
            for (int i = 0; i < names.size(); i++) {
                CType t = types.get(i);
                int a = alignOf(t);
                off = (off + a - 1) / a * a;
                ms.add(new Member(names.get(i), t, off));
                off += t.size();
                al = Math.max(al, a);
            }
            this.size = Math.max(1, (off + al - 1) / al * al);
            this.align = al;
            this.members = List.copyOf(ms);
            List<Leaf> ls = new ArrayList<>();
            for (Member m : ms) {
                for (Leaf l : CType.leaves(m.type())) {
                    ls.add(new Leaf(l.type(), m.offset() + l.offset()));
                }
            }
            this.leaves = List.copyOf(ls);
        }

        public boolean complete() {
            return members != null;
        }

        public String name() {
            return name;
        }

        public List<Member> members() {
            return members;
        }

        /** The member called {@code n}, or null. */
        public Member member(String n) {
            for (Member m : members) {
                if (m.name().equals(n)) {
                    return m;
                }
            }
            return null;
        }

        /** The index of {@code m}'s first leaf among the struct's leaves. */
        public int firstLeaf(Member m) {
            int i = 0;
            for (Member o : members) {
                if (o == m) {
                    return i;
                }
                i += CType.leaves(o.type()).size();
            }
            throw new IllegalArgumentException(m + " is not a member of " + name);
        }

        public List<Leaf> leaves() {
            return leaves;
        }

        @Override
        public int size() {
            return size;
        }

        public int align() {
            return align;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
