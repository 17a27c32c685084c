package dev.polygpu.bench.async;

import org.graalvm.polyglot.Value;

/**
 * A grcuda {@code DeviceArray} as the benchmark programs use it: the guest value, a small id (its identity
 * in a {@link Trace}), a name for messages, and its element type ({@code float}, {@code double} or
 * {@code int}) and length.
 */
record DevArray(Value value, int id, String name, String type, int length) {
    /** A new Java array of this array's type and length: {@code float[]}, {@code double[]} or {@code int[]}. */
    Object newHostArray() {
        return switch (type) {
            case "float" -> new float[length];
            case "double" -> new double[length];
            case "int" -> new int[length];
            default -> throw new IllegalStateException("no host array type for " + type);
        };
    }

    /** The array's size in bytes. */
    long bytes() {
        return (long) length * (type.equals("double") ? 8 : 4);
    }
}
