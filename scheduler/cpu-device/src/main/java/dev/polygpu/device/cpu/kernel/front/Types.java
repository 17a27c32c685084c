package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;

/** The C conversion rules (C11 6.3) for the LP64 primitive types. */
final class Types {
    private Types() {}

    /** Integer promotion: types ranked below int become int; everything else is unchanged. */
    static CType promote(CType t) {
        if (t instanceof Prim p && p.integer && p.rank < Prim.INT.rank) {
            return Prim.INT;
        }
        return t;
    }

    /** The usual arithmetic conversions of two arithmetic types. */
    static Prim usual(CType a, CType b) {
        Prim x = (Prim) promote(a);
        Prim y = (Prim) promote(b);
        if (x == Prim.DOUBLE || y == Prim.DOUBLE) {
            return Prim.DOUBLE;
        }
        if (x == Prim.FLOAT || y == Prim.FLOAT) {
            return Prim.FLOAT;
        }
        if (x == y) {
            return x;
        }
        if (x.signed == y.signed) {
            return x.rank >= y.rank ? x : y;
        }
        Prim u = x.signed ? y : x;
        Prim s = x.signed ? x : y;
        if (u.rank >= s.rank) {
            return u;
        }
        if (s.size() > u.size()) {
            return s;
        }
        return unsignedOf(s);
    }

    static Prim unsignedOf(Prim s) {
        return switch (s) {
            case CHAR, SCHAR -> Prim.UCHAR;
            case SHORT -> Prim.USHORT;
            case INT -> Prim.UINT;
            case LONG -> Prim.ULONG;
            case LONGLONG -> Prim.ULONGLONG;
            default -> s;
        };
    }

    /** The spelling used in diagnostics and instantiation names ({@code float*}, {@code unsigned int}). */
    static String name(CType t) {
        return t.toString();
    }
}
