package dev.polygpu.cluster.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SharedSecretTest {
    private static final long SEED = 0x5EC12E7L;

    @Test
    void toStringHidesTheSecret() {
        SharedSecret s = SharedSecret.of("hunter2-very-secret");
        assertEquals("SharedSecret[****]", s.toString());
        assertEquals("SharedSecret[****]", SharedSecret.loopbackDefault("dev").toString());
    }

    @Test
    void refusesAnEmptySecret() {
        assertThrows(IllegalArgumentException.class, () -> SharedSecret.of(""));
        assertThrows(NullPointerException.class, () -> SharedSecret.of(null));
        assertThrows(NullPointerException.class, () -> SharedSecret.loopbackDefault(null));
    }

    @Test
    void keyDerivationIsTheDocumentedOne() throws Exception {
        byte[] data = randomBytes(new Random(SEED), 1000);
        // HKDF by hand (RFC 5869): PRK = HMAC(salt, secret); one block of expand is HMAC(PRK, info | 0x01).
        byte[] prk = hmac("polygpu-cluster".getBytes(StandardCharsets.US_ASCII),
                "s3cret-Ω".getBytes(StandardCharsets.UTF_8));
        byte[] info = "polygpu-cluster-v6 hmac".getBytes(StandardCharsets.US_ASCII);
        byte[] block = Arrays.copyOf(info, info.length + 1);
        block[info.length] = 1;
        byte[] key = hmac(prk, block);
        assertArrayEquals(hmac(key, data), SharedSecret.of("s3cret-Ω").mac(data, 0, data.length));

        byte[] loopbackKey = hmac("polygpu-cluster-v1-loopback".getBytes(StandardCharsets.US_ASCII),
                "dev".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(hmac(loopbackKey, data), SharedSecret.loopbackDefault("dev").mac(data, 0, data.length));
    }

    @Test
    void sameSecretSameMacOtherSecretOtherMac() {
        byte[] data = randomBytes(new Random(SEED), 300);
        byte[] a = SharedSecret.of("alpha").mac(data, 10, 200);
        assertEquals(SharedSecret.MAC_BYTES, a.length);
        assertArrayEquals(a, SharedSecret.of("alpha").mac(data, 10, 200));
        assertFalse(Arrays.equals(a, SharedSecret.of("alphb").mac(data, 10, 200)));
        assertFalse(Arrays.equals(a, SharedSecret.of("alpha").mac(data, 10, 201)));
        assertFalse(Arrays.equals(SharedSecret.of("dev").mac(data, 0, 1),
                SharedSecret.loopbackDefault("dev").mac(data, 0, 1)), "a secret equal to the cluster name "
                + "must not give the loopback key");
        assertTrue(SharedSecret.loopbackDefault("dev").isLoopbackDefault());
        assertFalse(SharedSecret.of("dev").isLoopbackDefault());
    }

    @Test
    void verifyAcceptsOnlyTheRightMac() {
        SharedSecret s = SharedSecret.of("alpha");
        byte[] data = randomBytes(new Random(SEED), 100);
        byte[] mac = s.mac(data, 0, data.length);
        assertTrue(s.verify(data, 0, data.length, mac));
        for (int i = 0; i < mac.length; i++) {
            byte[] bad = mac.clone();
            bad[i] ^= 0x01;
            assertFalse(s.verify(data, 0, data.length, bad), "flipped MAC byte " + i);
        }
        assertFalse(s.verify(data, 0, data.length, Arrays.copyOf(mac, 31)));
        byte[] withMac = Arrays.copyOf(data, data.length + mac.length);
        System.arraycopy(mac, 0, withMac, data.length, mac.length);
        assertTrue(s.verify(withMac, 0, data.length, withMac, data.length));
        assertThrows(IndexOutOfBoundsException.class, () -> s.mac(data, 90, 20));
    }

    @Test
    void macsFromManyThreadsAgree() {
        SharedSecret s = SharedSecret.of("alpha");
        byte[] data = randomBytes(new Random(SEED), 4096);
        byte[] expected = s.mac(data, 0, data.length);
        List<byte[]> macs = IntStream.range(0, 2000).parallel().mapToObj(i -> s.mac(data, 0, data.length)).toList();
        for (byte[] m : macs) {
            assertArrayEquals(expected, m);
        }
    }

    private static byte[] hmac(byte[] key, byte[] data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data);
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
