package dev.polygpu.cluster.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * A range of one array's bytes travelling between members: the inputs of a {@link WorkItem} or the outputs of a
 * {@link WorkResult}.
 *
 * <p>Ownership of {@code bytes} transfers: the constructor does not copy it (arrays may be many megabytes) and
 * {@link #bytes()} returns the same array, so neither side may change it after handing it over. Equality and
 * hash code compare the contents, unlike a plain record's.
 *
 * @param arrayId    the owner's id of the array
 * @param byteOffset where in the array the range starts; not negative
 * @param bytes      the contents of the range
 */
public record ArrayData(long arrayId, long byteOffset, byte[] bytes) {
    public ArrayData {
        Objects.requireNonNull(bytes, "bytes");
        if (byteOffset < 0) {
            throw new IllegalArgumentException("byteOffset must not be negative: " + byteOffset);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrayData d && arrayId == d.arrayId && byteOffset == d.byteOffset
                && Arrays.equals(bytes, d.bytes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(arrayId, byteOffset, Arrays.hashCode(bytes));
    }

    /** Shows the range, not the contents. */
    @Override
    public String toString() {
        return "ArrayData[arrayId=" + arrayId + ", byteOffset=" + byteOffset + ", length=" + bytes.length + "]";
    }
}
