package dev.polygpu.cluster.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * A range of one array's bytes travelling between members: the inputs of a {@link WorkItem} or the outputs of a
 * {@link WorkResult}. An input comes in one of three forms: the contents alone; the contents with their
 * {@link Digest} (the thief may keep them, and the owner may later send a reference instead); or a
 * {@linkplain #reference reference}: the digest alone, of contents the owner believes the thief keeps.
 *
 * <p>Ownership of {@code bytes} transfers: the constructor does not copy it (arrays may be many megabytes) and
 * {@link #bytes()} returns the same array, so neither side may change it after handing it over. Equality and
 * hash code compare the contents, unlike a plain record's.
 *
 * @param arrayId    the owner's id of the array
 * @param byteOffset where in the array the range starts; not negative
 * @param bytes      the contents of the range, or null in a reference
 * @param digest     the digest of the contents, or null; never null in a reference
 */
public record ArrayData(long arrayId, long byteOffset, byte[] bytes, Digest digest) {
    public ArrayData {
        if (bytes == null && digest == null) {
            throw new NullPointerException("an ArrayData needs its bytes, its digest (a reference) or both");
        }
        if (byteOffset < 0) {
            throw new IllegalArgumentException("byteOffset must not be negative: " + byteOffset);
        }
    }

    /**
     * Contents without a digest (outputs, or inputs the thief need not keep).
     *
     * @param arrayId the owner's id of the array
     * @param byteOffset where the range starts
     * @param bytes the contents; not null
     */
    public ArrayData(long arrayId, long byteOffset, byte[] bytes) {
        this(arrayId, byteOffset, Objects.requireNonNull(bytes, "bytes"), null);
    }

    /**
     * A reference: the thief already keeps these contents (by owner, array id and digest).
     *
     * @param arrayId the owner's id of the array
     * @param byteOffset where the range starts
     * @param digest the digest of the contents; not null
     * @return the reference
     */
    public static ArrayData reference(long arrayId, long byteOffset, Digest digest) {
        return new ArrayData(arrayId, byteOffset, null, Objects.requireNonNull(digest, "digest"));
    }

    /** {@return whether this is a reference (no bytes, a digest)} */
    public boolean isReference() {
        return bytes == null;
    }

    /** {@return the bytes this carries on the wire: 0 for a reference} */
    public int length() {
        return bytes == null ? 0 : bytes.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrayData d && arrayId == d.arrayId && byteOffset == d.byteOffset
                && Arrays.equals(bytes, d.bytes) && Objects.equals(digest, d.digest);
    }

    @Override
    public int hashCode() {
        return Objects.hash(arrayId, byteOffset, Arrays.hashCode(bytes), digest);
    }

    /** Shows the range, not the contents. */
    @Override
    public String toString() {
        return "ArrayData[arrayId=" + arrayId + ", byteOffset=" + byteOffset
                + (bytes == null ? ", reference" : ", length=" + bytes.length) + (digest == null ? "" : ", digest=" + digest)
                + "]";
    }
}
