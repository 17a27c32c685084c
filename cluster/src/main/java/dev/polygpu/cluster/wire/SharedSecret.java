package dev.polygpu.cluster.wire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key members of one cluster share to prove that a frame comes from one of them: every frame carries an
 * HMAC-SHA256 made with it, and a frame whose HMAC does not check out is refused.
 *
 * <p>Key derivation: {@link #of(String)} uses {@code HMAC-SHA256(key = UTF-8 bytes of the secret, data = ASCII
 * "polygpu-cluster-v1")} as the 32-byte HMAC key, so the configured text never serves as the key itself and a
 * future format version can derive a different key from the same secret. {@link #loopbackDefault(String)} uses
 * {@code HMAC-SHA256(key = ASCII "polygpu-cluster-v1-loopback", data = UTF-8 bytes of the cluster name)}: anyone
 * who knows the cluster name can compute it.
 *
 * <p>Thread-safe: the key is immutable and every call makes its own {@link Mac}. The secret never appears in
 * {@link #toString()}, and the key bytes are not exposed.
 */
public final class SharedSecret {
    /** Bytes in a MAC (HMAC-SHA256). */
    public static final int MAC_BYTES = 32;

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] LABEL = "polygpu-cluster-v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LOOPBACK_LABEL = "polygpu-cluster-v1-loopback".getBytes(StandardCharsets.US_ASCII);

    private final SecretKeySpec key;
    private final boolean loopbackDefault;

    private SharedSecret(byte[] keyBytes, boolean loopbackDefault) {
        this.key = new SecretKeySpec(keyBytes, ALGORITHM);
        this.loopbackDefault = loopbackDefault;
    }

    /**
     * The key for a configured secret (see the class comment for how it is derived).
     *
     * @param secret the secret all members are configured with; not empty
     * @throws IllegalArgumentException if the secret is empty
     */
    public static SharedSecret of(String secret) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("the cluster secret must not be empty");
        }
        return new SharedSecret(hmac(secret.getBytes(StandardCharsets.UTF_8), LABEL, 0, LABEL.length), false);
    }

    /**
     * A well-known key derived from the cluster name alone, for clusters bound to the loopback interface where no
     * secret was configured. <b>It gives no protection</b>: anyone who knows or guesses the cluster name can make
     * frames the members accept. It only keeps frames of differently named clusters (and stray bytes) apart; use
     * {@link #of(String)} whenever a member listens on anything but loopback.
     *
     * @param clusterName the Hazelcast cluster name
     */
    public static SharedSecret loopbackDefault(String clusterName) {
        byte[] name = Objects.requireNonNull(clusterName, "clusterName").getBytes(StandardCharsets.UTF_8);
        return new SharedSecret(hmac(LOOPBACK_LABEL, name, 0, name.length), true);
    }

    /** True for a key made by {@link #loopbackDefault(String)}, which protects nothing. */
    public boolean isLoopbackDefault() {
        return loopbackDefault;
    }

    /**
     * The HMAC-SHA256 of {@code data[off, off + len)} under this key.
     *
     * @return a new array of {@link #MAC_BYTES} bytes
     */
    public byte[] mac(byte[] data, int off, int len) {
        Objects.checkFromIndexSize(off, len, data.length);
        Mac mac = newMac(key);
        mac.update(data, off, len);
        return mac.doFinal();
    }

    /**
     * Whether {@code expected[macOff, macOff + MAC_BYTES)} is the HMAC of {@code data[off, off + len)} under this
     * key. The comparison takes the same time wherever the first difference lies.
     */
    public boolean verify(byte[] data, int off, int len, byte[] expected, int macOff) {
        Objects.checkFromIndexSize(macOff, MAC_BYTES, expected.length);
        byte[] actual = mac(data, off, len);
        byte[] claimed = Arrays.copyOfRange(expected, macOff, macOff + MAC_BYTES);
        return MessageDigest.isEqual(actual, claimed);
    }

    /** Whether {@code expected} (exactly {@link #MAC_BYTES} bytes) is the HMAC of {@code data[off, off + len)}. */
    public boolean verify(byte[] data, int off, int len, byte[] expected) {
        return expected.length == MAC_BYTES && verify(data, off, len, expected, 0);
    }

    /** Never shows the secret or the key. */
    @Override
    public String toString() {
        return "SharedSecret[****]";
    }

    private static byte[] hmac(byte[] keyBytes, byte[] data, int off, int len) {
        Mac mac = newMac(new SecretKeySpec(keyBytes, ALGORITHM));
        mac.update(data, off, len);
        return mac.doFinal();
    }

    private static Mac newMac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            // Every Java SE platform must provide HmacSHA256, so this is a broken JDK, not bad input.
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }
}
