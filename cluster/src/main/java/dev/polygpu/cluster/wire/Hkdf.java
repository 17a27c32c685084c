package dev.polygpu.cluster.wire;

import java.security.GeneralSecurityException;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF with HMAC-SHA256 (RFC 5869): turns the configured cluster secret into the independent keys the wire
 * format uses (the HMAC key of the member proofs, one AES-256-GCM key per sending member). Stateless.
 */
public final class Hkdf {
    /** Bytes of an HMAC-SHA256 output, and of a pseudorandom key (PRK). */
    public static final int HASH_BYTES = 32;
    private static final String HMAC = "HmacSHA256";

    private Hkdf() {
    }

    /**
     * HKDF-Extract (RFC 5869 section 2.2): {@code HMAC-SHA256(salt, ikm)}; an empty salt stands for
     * {@link #HASH_BYTES} zero bytes.
     *
     * @return the pseudorandom key, {@link #HASH_BYTES} bytes
     */
    public static byte[] extract(byte[] salt, byte[] ikm) {
        Objects.requireNonNull(ikm, "ikm");
        byte[] s = salt == null || salt.length == 0 ? new byte[HASH_BYTES] : salt;
        Mac mac = hmac(s);
        return mac.doFinal(ikm);
    }

    /**
     * HKDF-Expand (RFC 5869 section 2.3): {@code T(1) | T(2) | …} cut to {@code length} bytes, where
     * {@code T(i) = HMAC-SHA256(prk, T(i-1) | info | i)} and {@code T(0)} is empty.
     *
     * @param prk    a pseudorandom key of at least {@link #HASH_BYTES} bytes (from {@link #extract})
     * @param length 1 to 255 × {@link #HASH_BYTES}
     */
    public static byte[] expand(byte[] prk, byte[] info, int length) {
        Objects.requireNonNull(prk, "prk");
        if (prk.length < HASH_BYTES) {
            throw new IllegalArgumentException("the PRK must have at least " + HASH_BYTES + " bytes: " + prk.length);
        }
        if (length < 1 || length > 255 * HASH_BYTES) {
            throw new IllegalArgumentException("HKDF-SHA256 gives 1 to " + 255 * HASH_BYTES + " bytes, not " + length);
        }
        byte[] in = info == null ? new byte[0] : info;
        Mac mac = hmac(prk);
        byte[] out = new byte[length];
        byte[] t = new byte[0];
        int done = 0;
        for (int i = 1; done < length; i++) {
            mac.update(t);
            mac.update(in);
            mac.update((byte) i);
            t = mac.doFinal();
            int n = Math.min(t.length, length - done);
            System.arraycopy(t, 0, out, done, n);
            done += n;
        }
        return out;
    }

    private static Mac hmac(byte[] key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac;
        } catch (GeneralSecurityException e) {
            // Every Java SE platform must provide HmacSHA256, so this is a broken JDK, not bad input.
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }
}
