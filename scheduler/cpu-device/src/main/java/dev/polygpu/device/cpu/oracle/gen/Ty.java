package dev.polygpu.device.cpu.oracle.gen;

import java.util.List;

/**
 * A C type of a generated program: a scalar ({@link Prim}), a CUDA vector type, a generated struct, a
 * fixed-size array or a pointer. {@link #c()} is the spelling, with the case prefix written {@code @}.
 */
public sealed interface Ty permits Prim, Ty.Vec, Ty.Struct, Ty.Array, Ty.Ptr {
    /** The C spelling ({@code @} stands for the case prefix of generated struct names). */
    String c();

    /** Bytes, as nvcc lays the type out. */
    int size();

    /** Alignment in bytes, as nvcc lays the type out. */
    int align();

    /** A CUDA vector type ({@code int2}, {@code float4}, …) of {@code n} components. */
    record Vec(Prim comp, int n) implements Ty {
        /** The component types CUDA has vector types of (without the 4-component 64-bit ones CUDA 13 deprecates). */
        static final List<Prim> COMPONENTS = List.of(Prim.SCHAR, Prim.UCHAR, Prim.SHORT, Prim.USHORT, Prim.INT,
                Prim.UINT, Prim.LLONG, Prim.ULLONG, Prim.FLOAT, Prim.DOUBLE);

        @Override
        public String c() {
            String base = switch (comp) {
                case SCHAR -> "char";
                case UCHAR -> "uchar";
                case SHORT -> "short";
                case USHORT -> "ushort";
                case INT -> "int";
                case UINT -> "uint";
                case LLONG -> "longlong";
                case ULLONG -> "ulonglong";
                case FLOAT -> "float";
                case DOUBLE -> "double";
                default -> throw new IllegalStateException("no vector type of " + comp.c());
            };
            return base + n;
        }

        @Override
        public int size() {
            return comp.size() * n;
        }

        @Override
        public int align() {
            return n == 2 || n == 4 ? Math.min(16, comp.size() * n) : comp.size();
        }

        /** The component names, in order. */
        static String component(int i) {
            return "xyzw".substring(i, i + 1);
        }
    }

    /** A struct generated for the case; its members in declaration order. */
    record Struct(String name, List<Member> members) implements Ty {
        @Override
        public String c() {
            return "@" + name;
        }

        @Override
        public int size() {
            int off = 0;
            for (Member m : members) {
                off = roundUp(off, m.type().align()) + m.type().size();
            }
            return roundUp(off, align());
        }

        @Override
        public int align() {
            int a = 1;
            for (Member m : members) {
                a = Math.max(a, m.type().align());
            }
            return a;
        }

        @Override
        public boolean equals(Object o) {
            return o == this;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /** One data member of a generated struct. */
    record Member(String name, Ty type) {
    }

    /** A fixed-size array. */
    record Array(Ty elem, int length) implements Ty {
        @Override
        public String c() {
            return elem.c() + "[" + length + "]";
        }

        @Override
        public int size() {
            return elem.size() * length;
        }

        @Override
        public int align() {
            return elem.align();
        }
    }

    /** A pointer; {@code constTarget} for a pointer to const. */
    record Ptr(Ty target, boolean constTarget) implements Ty {
        @Override
        public String c() {
            return (constTarget ? "const " : "") + target.c() + "*";
        }

        @Override
        public int size() {
            return 8;
        }

        @Override
        public int align() {
            return 8;
        }
    }

    static int roundUp(int n, int a) {
        return (n + a - 1) / a * a;
    }

    /** The declaration of a variable {@code name} of type {@code t} ({@code int a[4]}, {@code float* p}). */
    static String declare(Ty t, String name) {
        if (t instanceof Array a) {
            return declare(a.elem(), name + "[" + a.length() + "]");
        }
        return t.c() + " " + name;
    }
}
