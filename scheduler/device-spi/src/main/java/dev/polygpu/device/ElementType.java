package dev.polygpu.device;

import java.lang.foreign.ValueLayout;

/**
 * The C types a kernel argument or array element may have, with their size and the NIDL / C names that
 * denote them. Unsigned types are stored in the signed Java type of the same width.
 */
public enum ElementType {
    BOOL(1, "bool", ValueLayout.JAVA_BYTE),
    INT8(1, "char", ValueLayout.JAVA_BYTE),
    UINT8(1, "unsigned char", ValueLayout.JAVA_BYTE),
    INT16(2, "short", ValueLayout.JAVA_SHORT_UNALIGNED),
    UINT16(2, "unsigned short", ValueLayout.JAVA_SHORT_UNALIGNED),
    INT32(4, "int", ValueLayout.JAVA_INT_UNALIGNED),
    UINT32(4, "unsigned int", ValueLayout.JAVA_INT_UNALIGNED),
    INT64(8, "long", ValueLayout.JAVA_LONG_UNALIGNED),
    UINT64(8, "unsigned long", ValueLayout.JAVA_LONG_UNALIGNED),
    FLOAT(4, "float", ValueLayout.JAVA_FLOAT_UNALIGNED),
    DOUBLE(8, "double", ValueLayout.JAVA_DOUBLE_UNALIGNED);

    public final int size;
    public final String cName;
    public final ValueLayout layout;

    ElementType(int size, String cName, ValueLayout layout) {
        this.size = size;
        this.cName = cName;
        this.layout = layout;
    }

    public boolean isFloating() {
        return this == FLOAT || this == DOUBLE;
    }

    /** The smallest value of an integer type (0 for bool and the unsigned types); floating types: none. */
    public long minValue() {
        return switch (this) {
            case INT8 -> Byte.MIN_VALUE;
            case INT16 -> Short.MIN_VALUE;
            case INT32 -> Integer.MIN_VALUE;
            case INT64, FLOAT, DOUBLE -> Long.MIN_VALUE;
            default -> 0;
        };
    }

    /**
     * The largest value of an integer type that a {@code long} holds ({@link #UINT64} goes beyond it, up to
     * 2^64 - 1, which callers handle as a {@code BigInteger}).
     */
    public long maxValue() {
        return switch (this) {
            case BOOL -> 1;
            case INT8 -> Byte.MAX_VALUE;
            case UINT8 -> 0xFF;
            case INT16 -> Short.MAX_VALUE;
            case UINT16 -> 0xFFFF;
            case INT32 -> Integer.MAX_VALUE;
            case UINT32 -> 0xFFFF_FFFFL;
            default -> Long.MAX_VALUE;
        };
    }

    public boolean isUnsigned() {
        return this == BOOL || this == UINT8 || this == UINT16 || this == UINT32 || this == UINT64;
    }
}
