package dev.polygpu.device.cpu.oracle;

import java.util.Objects;

/** One kernel argument of an {@link OracleCase}, in parameter order. */
public sealed interface OracleArg {
    /**
     * A global-memory buffer passed as a pointer. Both sides start from a copy of {@code initial} (little-endian
     * elements of {@code type}); after the launch every element is compared. {@code maxUlp} 0 compares bits
     * (the operations CUDA defines exactly); a positive value accepts floating-point elements that differ by
     * at most that many units in the last place (math functions with a documented ulp bound).
     */
    record Buffer(String name, OracleType type, byte[] initial, int maxUlp) implements OracleArg {
        public Buffer {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(initial, "initial");
            if (initial.length % type.size != 0) {
                throw new IllegalArgumentException("buffer " + name + ": " + initial.length
                        + " bytes is not a whole number of " + type.cName + " elements");
            }
            if (maxUlp < 0) {
                throw new IllegalArgumentException("buffer " + name + ": maxUlp must be >= 0, got " + maxUlp);
            }
            if (maxUlp > 0 && !type.isFloating()) {
                throw new IllegalArgumentException("buffer " + name + ": an ulp bound needs a floating type, not "
                        + type.cName);
            }
        }

        /** How many elements the buffer holds. */
        public int length() {
            return initial.length / type.size;
        }
    }

    /**
     * A scalar passed by value: {@code bits} holds the value's bits in the low {@code type.size} bytes
     * ({@code Float.floatToRawIntBits} for a float, the two's complement for an integer).
     */
    record Scalar(OracleType type, long bits) implements OracleArg {
        public Scalar {
            Objects.requireNonNull(type, "type");
        }
    }
}
