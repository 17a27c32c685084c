package dev.polygpu.device.cpu.oracle;

/**
 * The C type of an oracle buffer's elements or of a scalar argument: what a value's bits mean when the two
 * sides are compared and when a difference is printed. Values are stored little-endian, as on a GPU.
 */
public enum OracleType {
    I8(1, "signed char"),
    U8(1, "unsigned char"),
    I16(2, "short"),
    U16(2, "unsigned short"),
    I32(4, "int"),
    U32(4, "unsigned int"),
    I64(8, "long long"),
    U64(8, "unsigned long long"),
    F16(2, "__half"),
    F32(4, "float"),
    F64(8, "double");

    /** Bytes per element. */
    public final int size;
    /** The CUDA C spelling. */
    public final String cName;

    OracleType(int size, String cName) {
        this.size = size;
        this.cName = cName;
    }

    public boolean isFloating() {
        return this == F16 || this == F32 || this == F64;
    }
}
