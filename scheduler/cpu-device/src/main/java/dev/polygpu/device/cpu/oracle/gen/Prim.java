package dev.polygpu.device.cpu.oracle.gen;

import java.util.List;

/**
 * The scalar C types of generated programs, with what C's conversion rules need: width, signedness and
 * integer conversion rank ({@code char} is signed, as nvcc has it on x86-64 Linux; {@code long} is 64 bits).
 */
public enum Prim implements Ty {
    BOOL("bool", 1, 8, false, 1),
    CHAR("char", 1, 8, true, 2),
    SCHAR("signed char", 1, 8, true, 2),
    UCHAR("unsigned char", 1, 8, false, 2),
    SHORT("short", 2, 16, true, 3),
    USHORT("unsigned short", 2, 16, false, 3),
    INT("int", 4, 32, true, 4),
    UINT("unsigned int", 4, 32, false, 4),
    LONG("long", 8, 64, true, 5),
    ULONG("unsigned long", 8, 64, false, 5),
    LLONG("long long", 8, 64, true, 6),
    ULLONG("unsigned long long", 8, 64, false, 6),
    HALF("__half", 2, 16, true, 0),
    FLOAT("float", 4, 32, true, 0),
    DOUBLE("double", 8, 64, true, 0);

    /** The integer types, narrowest first. */
    public static final List<Prim> INTEGERS = List.of(BOOL, CHAR, SCHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG,
            LLONG, ULLONG);

    private final String c;
    private final int size;
    /** Value bits: 1 for bool is kept at 8 so that masks stay simple; see {@link #valueBits()}. */
    private final int width;
    private final boolean signed;
    private final int rank;

    Prim(String c, int size, int width, boolean signed, int rank) {
        this.c = c;
        this.size = size;
        this.width = width;
        this.signed = signed;
        this.rank = rank;
    }

    @Override
    public String c() {
        return c;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int align() {
        return size;
    }

    public int width() {
        return width;
    }

    public boolean isSigned() {
        return signed;
    }

    public boolean isInteger() {
        return rank > 0;
    }

    public boolean isFloating() {
        return rank == 0;
    }

    /**
     * A bound on the magnitude of the type's values in bits: every value v has |v| < 2^valueBits() (bool: 1,
     * signed char: 8 since -128 is there, unsigned char: 8).
     */
    public int valueBits() {
        if (this == BOOL) {
            return 1;
        }
        return width;
    }

    /** The type after C's integer promotions (bool, char and short types become int). */
    public Prim promoted() {
        return isInteger() && rank < INT.rank ? INT : this;
    }

    /** The unsigned type of the same width (for signed integer types). */
    public Prim toUnsigned() {
        return switch (this) {
            case CHAR, SCHAR -> UCHAR;
            case SHORT -> USHORT;
            case INT -> UINT;
            case LONG -> ULONG;
            case LLONG -> ULLONG;
            default -> this;
        };
    }

    /** C's usual arithmetic conversions: the type a binary arithmetic operator computes in. */
    public static Prim common(Prim a, Prim b) {
        if (a == HALF || b == HALF) {
            if (a != b) {
                throw new IllegalArgumentException("__half mixed with " + (a == HALF ? b : a).c() + " is ambiguous");
            }
            return HALF;
        }
        if (a == DOUBLE || b == DOUBLE) {
            return DOUBLE;
        }
        if (a == FLOAT || b == FLOAT) {
            return FLOAT;
        }
        Prim x = a.promoted();
        Prim y = b.promoted();
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
        if (s.width > u.width) {
            return s;
        }
        return s.toUnsigned();
    }

    /** The smallest value of an integer type, as a long (its bits for unsigned 64-bit types). */
    public long min() {
        if (!signed || this == BOOL) {
            return 0;
        }
        return width == 64 ? Long.MIN_VALUE : -(1L << (width - 1));
    }

    /** The largest value of an integer type, as a long (-1 for the unsigned 64-bit types: all ones). */
    public long max() {
        if (this == BOOL) {
            return 1;
        }
        if (width == 64) {
            return signed ? Long.MAX_VALUE : -1L;
        }
        return signed ? (1L << (width - 1)) - 1 : (1L << width) - 1;
    }

    /** {@code v} converted to this integer type as C does (modulo 2^width, bool: nonzero is 1). */
    public long wrap(long v) {
        if (this == BOOL) {
            return v != 0 ? 1 : 0;
        }
        if (width == 64) {
            return v;
        }
        long m = v & ((1L << width) - 1);
        return signed && (m >>> (width - 1)) != 0 ? m - (1L << width) : m;
    }

    /** The oracle's element type for a buffer of this scalar type. */
    public dev.polygpu.device.cpu.oracle.OracleType oracleType() {
        return switch (this) {
            case BOOL, UCHAR -> dev.polygpu.device.cpu.oracle.OracleType.U8;
            case CHAR, SCHAR -> dev.polygpu.device.cpu.oracle.OracleType.I8;
            case SHORT -> dev.polygpu.device.cpu.oracle.OracleType.I16;
            case USHORT -> dev.polygpu.device.cpu.oracle.OracleType.U16;
            case INT -> dev.polygpu.device.cpu.oracle.OracleType.I32;
            case UINT -> dev.polygpu.device.cpu.oracle.OracleType.U32;
            case LONG, LLONG -> dev.polygpu.device.cpu.oracle.OracleType.I64;
            case ULONG, ULLONG -> dev.polygpu.device.cpu.oracle.OracleType.U64;
            case HALF -> dev.polygpu.device.cpu.oracle.OracleType.F16;
            case FLOAT -> dev.polygpu.device.cpu.oracle.OracleType.F32;
            case DOUBLE -> dev.polygpu.device.cpu.oracle.OracleType.F64;
        };
    }
}
