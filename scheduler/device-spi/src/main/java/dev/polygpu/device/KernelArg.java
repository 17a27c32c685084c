package dev.polygpu.device;

/** One argument of a kernel launch: a pointer into a unified buffer, or a scalar of a C type. */
public sealed interface KernelArg {

    /**
     * A pointer to byte {@code offset} of {@code buffer}; {@code buffer == null} is the null pointer.
     */
    record Pointer(UnifiedBuffer buffer, long offset) implements KernelArg {
        @Override
        public String toString() {
            return buffer == null ? "NULL" : "buffer#" + buffer.id() + (offset == 0 ? "" : "+" + offset);
        }
    }

    /**
     * A scalar passed by value. {@code bits} holds the value as the kernel sees it: integers sign- or zero-
     * extended to 64 bits as their type requires, floats as {@link Float#floatToRawIntBits}, doubles as
     * {@link Double#doubleToRawLongBits}.
     */
    record Scalar(ElementType type, long bits) implements KernelArg {
        public static Scalar ofInt(int v) {
            return new Scalar(ElementType.INT32, v);
        }

        public static Scalar ofLong(long v) {
            return new Scalar(ElementType.INT64, v);
        }

        public static Scalar ofFloat(float v) {
            return new Scalar(ElementType.FLOAT, Float.floatToRawIntBits(v));
        }

        public static Scalar ofDouble(double v) {
            return new Scalar(ElementType.DOUBLE, Double.doubleToRawLongBits(v));
        }

        public double asDouble() {
            return switch (type) {
                case FLOAT -> Float.intBitsToFloat((int) bits);
                case DOUBLE -> Double.longBitsToDouble(bits);
                default -> bits;
            };
        }

        @Override
        public String toString() {
            return type.cName + " " + (type.isFloating() ? Double.toString(asDouble()) : Long.toString(bits));
        }
    }
}
