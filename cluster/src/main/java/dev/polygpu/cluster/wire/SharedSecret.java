package dev.polygpu.cluster.wire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys members of one cluster share. With a configured secret ({@link #of(String)}) frames are encrypted and
 * authenticated with AES-256-GCM ({@link #encrypts()}), and members prove the secret with an HMAC-SHA256 when they
 * join; without one ({@link #loopbackDefault(String)}) frames travel in clear text with an HMAC-SHA256.
 *
 * <p>Key derivation, for {@link #of(String)}, with HKDF-SHA256 ({@link Hkdf}): {@code PRK = HKDF-Extract(salt =
 * ASCII "polygpu-cluster", IKM = UTF-8 bytes of the secret)}; the HMAC key is {@code HKDF-Expand(PRK, ASCII
 * "polygpu-cluster-v6 hmac", 32)}; the AES key of the frames a member sends is {@code HKDF-Expand(PRK, ASCII
 * "polygpu-cluster-v6 frames from " + UTF-8 bytes of its member id, 32)}, so each sender encrypts under a key of
 * its own and nonces need only be unique per sender. {@link #loopbackDefault(String)} uses {@code
 * HMAC-SHA256(key = ASCII "polygpu-cluster-v1-loopback", data = UTF-8 bytes of the cluster name)} as its HMAC key:
 * anyone who knows the cluster name can compute it.
 *
 * <p>Nonces ({@link #nextNonce}): 96 bits, a random 32-bit prefix drawn when the key is made, then a 64-bit
 * counter that starts at a random value and is incremented atomically for every frame: one instance never repeats
 * a nonce, and two instances (two members, or one member started twice with the same id) draw 96 random bits of
 * starting point.
 *
 * <p>Thread-safe: the keys are immutable, the nonce counter atomic, and every call makes its own {@link Mac}. The
 * secret never appears in {@link #toString()}, and the key bytes are not exposed.
 */
public final class SharedSecret {
    /** Bytes in a MAC (HMAC-SHA256). */
    public static final int MAC_BYTES = 32;
    /** Bytes in an AES-GCM nonce. */
    public static final int NONCE_BYTES = 12;

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] SALT = "polygpu-cluster".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HMAC_INFO = "polygpu-cluster-v6 hmac".getBytes(StandardCharsets.US_ASCII);
    private static final String FRAME_INFO = "polygpu-cluster-v6 frames from ";
    private static final byte[] LOOPBACK_LABEL = "polygpu-cluster-v1-loopback".getBytes(StandardCharsets.US_ASCII);
    /** Frame keys kept (one per sender); a forged sender id can only make the receiver derive one more. */
    private static final int MAX_CACHED_KEYS = 4096;

    private final SecretKeySpec key;
    private final boolean loopbackDefault;
    /** HKDF's PRK for the frame keys; null for the loopback default, which does not encrypt. */
    private final byte[] prk;
    private final Map<String, SecretKeySpec> frameKeys = new ConcurrentHashMap<>();
    private final int noncePrefix;
    private final AtomicLong nonceCounter;

    private SharedSecret(byte[] keyBytes, boolean loopbackDefault, byte[] prk) {
        this.key = new SecretKeySpec(keyBytes, ALGORITHM);
        this.loopbackDefault = loopbackDefault;
        this.prk = prk;
        SecureRandom random = new SecureRandom();
        this.noncePrefix = random.nextInt();
        this.nonceCounter = new AtomicLong(random.nextLong());
    }

    /**
     * The keys for a configured secret (see the class comment for how they are derived).
     *
     * @param secret the secret all members are configured with; not empty
     * @throws IllegalArgumentException if the secret is empty
     */
    public static SharedSecret of(String secret) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("the cluster secret must not be empty");
        }
        byte[] prk = Hkdf.extract(SALT, secret.getBytes(StandardCharsets.UTF_8));
        return new SharedSecret(Hkdf.expand(prk, HMAC_INFO, MAC_BYTES), false, prk);
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
        return new SharedSecret(hmac(LOOPBACK_LABEL, name, 0, name.length), true, null);
    }

    /** True when frames are encrypted (a configured secret); false for the loopback default (clear text). */
    public boolean encrypts() {
        return prk != null;
    }

    /** The AES-256 key of the frames {@code sender} sends; only when {@link #encrypts()}. */
    SecretKeySpec frameKey(String sender) {
        if (prk == null) {
            throw new IllegalStateException("the loopback default key does not encrypt");
        }
        SecretKeySpec k = frameKeys.get(sender);
        if (k == null) {
            byte[] info = (FRAME_INFO + sender).getBytes(StandardCharsets.UTF_8);
            k = new SecretKeySpec(Hkdf.expand(prk, info, 32), "AES");
            if (frameKeys.size() >= MAX_CACHED_KEYS) {
                frameKeys.clear();
            }
            frameKeys.put(sender, k);
        }
        return k;
    }

    /** Writes a nonce no other frame of this instance has into {@code dst[off, off + NONCE_BYTES)}. */
    void nextNonce(byte[] dst, int off) {
        long c = nonceCounter.getAndIncrement();
        for (int i = 0; i < 4; i++) {
            dst[off + i] = (byte) (noncePrefix >>> (24 - 8 * i));
        }
        for (int i = 0; i < 8; i++) {
            dst[off + 4 + i] = (byte) (c >>> (56 - 8 * i));
        }
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
