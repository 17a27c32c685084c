package dev.polygpu.cluster.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.cluster.wire.WireException.Reason;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.KernelSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Frames under a configured secret: AES-256-GCM, bound to sender, recipient and type. */
class EncryptedFramesTest {
    private static final long SEED = 0xAE5C0DEL;
    private static final SharedSecret KEY = SharedSecret.of("the cluster secret");
    private static final String SOURCE = "__global__ void secretKernel(float* x) { x[0] = 42.0f; }";

    /** A reply that carries a kernel source and 4 KiB of array bytes, each byte its index mod 251. */
    private static StealReply replyWithSourceAndData(String sender) {
        byte[] data = new byte[4096];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 251);
        }
        ElementMessage kernel = new ElementMessage(5, ElementKind.KERNEL, "secretKernel",
                new KernelSource(SOURCE, "secretKernel", "secretKernel(inout x: float)"), new int[] {1, 1, 1},
                new int[] {32, 1, 1}, 0, 0, List.of());
        return new StealReply(sender, 9, List.of(new WorkItem(1, 1, kernel, List.of(new ArrayData(3, 0, data)), 1)));
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static Reason refusal(byte[] frame, SharedSecret key, String recipient) {
        WireException e = assertThrows(WireException.class,
                () -> WireCodec.decode(frame, key, WireCodec.DEFAULT_MAX_FRAME_BYTES, recipient));
        return e.reason();
    }

    @Test
    void randomMessagesOfEveryTypeSurviveTheTripAndNoTwoFramesShareANonce() throws WireException {
        RandomMessages random = new RandomMessages(SEED);
        Set<String> nonces = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            Message m = random.any();
            byte[] frame = WireCodec.encode(m, KEY, "member-b");
            assertEquals(WireCodec.ENCRYPTED, frame[6], "seed " + SEED + ", message " + i);
            assertEquals(m, WireCodec.decode(frame, KEY, frame.length, "member-b"), "seed " + SEED + ", message " + i);
            int senderBytes = frame[WireCodec.HEADER_BYTES] & 0xFF;
            int nonceAt = WireCodec.HEADER_BYTES + 1 + senderBytes;
            assertTrue(nonces.add(Arrays.toString(Arrays.copyOfRange(frame, nonceAt, nonceAt + 12))),
                    "nonce reused at message " + i);
        }
        Message same = new Leaving("a");
        assertFalse(Arrays.equals(WireCodec.encode(same, KEY, "b"), WireCodec.encode(same, KEY, "b")),
                "one message encrypted twice gives two frames");
    }

    @Test
    void noKernelSourceAndNoArrayBytesAppearInTheFrame() throws WireException {
        StealReply reply = replyWithSourceAndData("member-a");
        byte[] clear = WireCodec.encode(reply, SharedSecret.loopbackDefault("dev"), "member-b");
        byte[] source = "secretKernel".getBytes(StandardCharsets.UTF_8);
        byte[] run = Arrays.copyOfRange(((ArrayData) reply.items().get(0).inputs().get(0)).bytes(), 100, 116);
        assertTrue(contains(clear, source) && contains(clear, run), "the search finds them in a clear frame");
        byte[] sealed = WireCodec.encode(reply, KEY, "member-b");
        assertFalse(contains(sealed, source), "the kernel's name or source in an encrypted frame");
        assertFalse(contains(sealed, run), "array bytes in an encrypted frame");
        assertEquals(reply, WireCodec.decode(sealed, KEY, sealed.length, "member-b"));
    }

    @Test
    void layoutAndKeyAreTheDocumentedOnes() throws Exception {
        // Decrypted here with the JDK's cipher and the key derived as SharedSecret documents, not with the codec.
        byte[] frame = WireCodec.encode(new Leaving("member-a"), KEY, "member-b");
        ByteBuffer b = ByteBuffer.wrap(frame);
        assertEquals(WireCodec.MAGIC, b.getInt());
        assertEquals(6, b.get());
        assertEquals(WireCodec.TYPE_LEAVING, b.get());
        assertEquals(1, b.get(), "protection: AES-256-GCM");
        assertEquals(8, b.get(), "the sender's length");
        byte[] sender = new byte[8];
        b.get(sender);
        assertEquals("member-a", new String(sender, StandardCharsets.UTF_8));
        int nonceAt = b.position();
        byte[] prk = Hkdf.extract("polygpu-cluster".getBytes(StandardCharsets.US_ASCII),
                "the cluster secret".getBytes(StandardCharsets.UTF_8));
        byte[] aes = Hkdf.expand(prk, "polygpu-cluster-v6 frames from member-a".getBytes(StandardCharsets.UTF_8), 32);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(aes, "AES"), new GCMParameterSpec(128, frame, nonceAt, 12));
        c.updateAAD(frame, 0, nonceAt);
        c.updateAAD("member-b".getBytes(StandardCharsets.UTF_8));
        byte[] body = c.doFinal(frame, nonceAt + 12, frame.length - nonceAt - 12);
        // Leaving: str sender.
        assertArrayEquals(ByteBuffer.allocate(12).putInt(8).put(sender).array(), body);
    }

    @Test
    void aFrameForAnotherRecipientFromAnotherSenderOrUnderAnotherSecretIsRefused() {
        byte[] frame = WireCodec.encode(replyWithSourceAndData("member-a"), KEY, "member-b");
        assertEquals(Reason.BAD_MAC, refusal(frame, KEY, "member-c"), "moved to another member's inbox");
        assertEquals(Reason.BAD_MAC, refusal(frame, SharedSecret.of("another secret"), "member-b"));
        assertEquals(Reason.BAD_MAC, refusal(frame, SharedSecret.loopbackDefault("dev"), "member-b"),
                "a member without the secret cannot read it");
        byte[] clear = WireCodec.encode(new Leaving("member-a"), SharedSecret.loopbackDefault("dev"), "member-b");
        WireException e = assertThrows(WireException.class, () -> WireCodec.decode(clear, KEY, clear.length,
                "member-b"));
        assertEquals(Reason.BAD_MAC, e.reason());
        assertTrue(e.getMessage().contains("not encrypted"), e.getMessage());

        // The same sender id length, another sender: the key differs, so the tag does not check out.
        byte[] moved = frame.clone();
        moved[WireCodec.HEADER_BYTES + 1 + 7] = 'z';
        assertEquals(Reason.BAD_MAC, refusal(moved, KEY, "member-b"), "sender changed in the header");
        byte[] retyped = frame.clone();
        retyped[5] = WireCodec.TYPE_WORK_RESULT;
        assertEquals(Reason.BAD_MAC, refusal(retyped, KEY, "member-b"), "type changed");
    }

    @Test
    void aHeaderSenderOtherThanTheBodysIsRefusedEvenWithTheSecret() {
        // Only a holder of the secret can make this frame; it is still refused, so the header cannot lie.
        byte[] frame = WireCodec.encode(new Leaving("member-a"), KEY, "member-b");
        Message forged = new Leaving("member-x");
        byte[] other = WireCodec.encode(forged, KEY, "member-b");
        assertEquals(frame.length, other.length);
        assertEquals(Reason.BAD_MAC, refusal(spliced(frame, other), KEY, "member-b"));
    }

    private static byte[] spliced(byte[] headerFrom, byte[] rest) {
        byte[] out = rest.clone();
        System.arraycopy(headerFrom, 0, out, 0, WireCodec.HEADER_BYTES + 1 + 8);
        return out;
    }

    @Test
    void everySingleByteFlipAndEveryTruncationIsRefused() {
        Random r = new Random(SEED + 1);
        RandomMessages random = new RandomMessages(SEED + 2);
        for (int type = 1; type <= WireCodec.TYPE_LOAD_REPORT; type++) {
            byte[] frame = WireCodec.encode(random.of(type), KEY, "member-b");
            for (int at = 0; at < frame.length; at++) {
                byte[] bad = frame.clone();
                bad[at] ^= (byte) (1 << r.nextInt(8));
                refusal(bad, KEY, "member-b");
            }
            for (int n = 0; n < frame.length; n++) {
                refusal(Arrays.copyOf(frame, n), KEY, "member-b");
            }
        }
    }

    @Test
    void randomGarbageWithAnEncryptedHeaderIsRefusedWithAWireException() {
        Random r = new Random(SEED + 3);
        for (int i = 0; i < 5000; i++) {
            byte[] frame = new byte[WireCodec.MIN_FRAME_BYTES + r.nextInt(300)];
            r.nextBytes(frame);
            ByteBuffer.wrap(frame).putInt(WireCodec.MAGIC).put(WireCodec.VERSION).put((byte) 1)
                    .put(WireCodec.ENCRYPTED);
            refusal(frame, KEY, "member-b");
        }
    }
}
