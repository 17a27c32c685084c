package dev.polygpu.runtime;

/**
 * One array argument of a computational element as observers see it: the array's id and display name (as
 * the language shows it, e.g. {@code DeviceArray(float, 1000)}), how the element uses it and the array's size.
 *
 * @param arrayId   the array's id, unique per scheduler
 * @param arrayName the array's display name
 * @param mode      how the element uses it
 * @param bytes     the whole array's size in bytes, or {@link #UNKNOWN_BYTES} (any negative value reads so)
 *                  where the observer was not told
 */
public record ArrayUse(long arrayId, String arrayName, AccessMode mode, long bytes) {
    /** The {@link #bytes()} of a use whose array's size is not known. */
    public static final long UNKNOWN_BYTES = -1;

    /** A use of an array whose size is not known ({@link #UNKNOWN_BYTES}). */
    public ArrayUse(long arrayId, String arrayName, AccessMode mode) {
        this(arrayId, arrayName, mode, UNKNOWN_BYTES);
    }

    /** True if {@link #bytes()} is the array's size. */
    public boolean bytesKnown() {
        return bytes >= 0;
    }
}
