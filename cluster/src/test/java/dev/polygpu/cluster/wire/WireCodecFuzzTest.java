package dev.polygpu.cluster.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random inputs never make {@link WireCodec#decode} throw anything but {@link WireException}. Pure garbage
 * rarely passes the magic, so the deeper rounds give random and mutated bodies a valid header and MAC, which is
 * what a member holding the secret (or a bug in one) could send.
 */
class WireCodecFuzzTest {
    private static final long SEED = 0xF022L;
    private static final SharedSecret KEY = SharedSecret.loopbackDefault("fuzz");
    private static final int ROUNDS = 10_000;

    @Test
    void randomGarbage() {
        Random r = new Random(SEED);
        for (int i = 0; i < ROUNDS; i++) {
            byte[] frame = new byte[r.nextInt(300)];
            r.nextBytes(frame);
            if (i % 2 == 0 && frame.length >= WireCodec.HEADER_BYTES) {
                // Half get a real header, so the MAC check runs on them.
                ByteBuffer.wrap(frame).putInt(WireCodec.MAGIC).put(WireCodec.VERSION);
            }
            decodeOrRefuse(frame, "garbage", i);
        }
    }

    @Test
    void authenticRandomBodies() {
        Random r = new Random(SEED + 1);
        for (int i = 0; i < ROUNDS; i++) {
            byte[] body = new byte[WireCodec.HEADER_BYTES + r.nextInt(200)];
            r.nextBytes(body);
            ByteBuffer.wrap(body).putInt(WireCodec.MAGIC).put(WireCodec.VERSION).put((byte) (1 + r.nextInt(WireCodec.TYPE_LOAD_REPORT))).put(WireCodec.CLEAR);
            decodeOrRefuse(HandFrame.withMac(body, KEY), "random body", i);
        }
    }

    @Test
    void authenticMutatedMessages() {
        RandomMessages random = new RandomMessages(SEED + 2);
        Random r = random.random();
        for (int i = 0; i < ROUNDS; i++) {
            byte[] frame = WireCodec.encode(random.any(), KEY);
            byte[] body = Arrays.copyOf(frame, frame.length - SharedSecret.MAC_BYTES);
            int edits = 1 + r.nextInt(4);
            for (int e = 0; e < edits; e++) {
                int at = WireCodec.HEADER_BYTES + r.nextInt(body.length - WireCodec.HEADER_BYTES);
                switch (r.nextInt(4)) {
                    case 0 -> body[at] = (byte) r.nextInt(256);
                    case 1 -> body[at] = (byte) (r.nextBoolean() ? 0x7F : 0xFF); // large or negative counts
                    case 2 -> body = Arrays.copyOf(body, at);                     // cut
                    default -> {                                                 // insert a byte
                        byte[] longer = new byte[body.length + 1];
                        System.arraycopy(body, 0, longer, 0, at);
                        longer[at] = (byte) r.nextInt(256);
                        System.arraycopy(body, at, longer, at + 1, body.length - at);
                        body = longer;
                    }
                }
                if (body.length <= WireCodec.HEADER_BYTES) {
                    break;
                }
            }
            decodeOrRefuse(HandFrame.withMac(body, KEY), "mutated message", i);
        }
    }

    /** Decodes; an accepted frame must be the canonical encoding of what it decoded to. */
    private static void decodeOrRefuse(byte[] frame, String what, int i) {
        Message m;
        try {
            m = WireCodec.decode(frame, KEY, WireCodec.DEFAULT_MAX_FRAME_BYTES);
        } catch (WireException e) {
            return;
        } catch (Throwable t) {
            fail("seed " + SEED + ", " + what + " " + i + ": threw " + t + " for " + Arrays.toString(frame), t);
            return;
        }
        assertArrayEquals(frame, WireCodec.encode(m, KEY), "seed " + SEED + ", " + what + " " + i);
    }
}
