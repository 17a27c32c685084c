package dev.polygpu.runtime;

/** One array a computational element touches, and how. */
public record Access(TrackedArray array, AccessMode mode) {
    public Access {
        if (array == null || mode == null) {
            throw new IllegalArgumentException("an access needs an array and a mode");
        }
    }
}
