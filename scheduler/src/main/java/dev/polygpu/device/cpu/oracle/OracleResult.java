package dev.polygpu.device.cpu.oracle;

/** What the differential oracle found for one {@link OracleCase}. */
public sealed interface OracleResult {
    /** The case's name. */
    String caseName();

    /** Which path of the oracle a result is about. */
    enum Side {
        /** nvcc to PTX, run on the CPU device's PTX interpreter. */
        PTX,
        /** The CPU device's CUDA C engine. */
        ENGINE
    }

    /** Every buffer equal (within its ulp bound). */
    record Equal(String caseName) implements OracleResult {
    }

    /**
     * The first element that differs: its buffer, index, and each side's value as text ({@code 3.0f
     * (0x40400000)}, {@code -7}).
     */
    record Differ(String caseName, String kernel, String buffer, long index, String ptxValue, String engineValue)
            implements OracleResult {
    }

    /**
     * A side refused the case or failed while running it in a way the CUDA model allows (a compile error, a
     * kernel fault); {@code message} is that side's error. Both sides may refuse the same case: then
     * {@code side} is {@link Side#PTX} and the message begins with {@link #BOTH_SIDES} and holds both errors
     * ({@link #bothSides()}); a case only one side refuses is a difference between them.
     */
    record Rejected(String caseName, Side side, String message) implements OracleResult {
        /** How the message of a case that both sides refused begins. */
        public static final String BOTH_SIDES = "both sides rejected the case: ";

        /** Whether both sides refused the case (they agree it is not a kernel they can run). */
        public boolean bothSides() {
            return message.startsWith(BOTH_SIDES);
        }
    }

    /** A side failed with an exception it should never throw (an internal error): a bug either way. */
    record Internal(String caseName, Side side, String exceptionText) implements OracleResult {
    }
}
