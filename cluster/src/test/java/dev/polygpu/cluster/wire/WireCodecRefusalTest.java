package dev.polygpu.cluster.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.cluster.wire.WireException.Reason;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WireCodecRefusalTest {
    private static final long SEED = 0xBADF00DL;
    private static final SharedSecret KEY = SharedSecret.loopbackDefault("the-right-one");
    private static final Set<Reason> TAMPERED = EnumSet.of(Reason.BAD_MAC, Reason.BAD_MAGIC, Reason.BAD_VERSION);

    @Test
    void flippingAnySingleByteIsRefused() {
        RandomMessages random = new RandomMessages(SEED);
        Random r = random.random();
        for (int type = 1; type <= WireCodec.TYPE_LOAD_REPORT; type++) {
            byte[] frame = WireCodec.encode(random.of(type), KEY);
            // Small frames: every position; larger ones: a sample, always with the header and the MAC.
            int[] positions = frame.length <= 400
                    ? rangeOf(frame.length)
                    : r.ints(300, 0, frame.length).toArray();
            for (int pos : positions) {
                for (int mask : new int[] {0x01, 0x80, 1 + r.nextInt(255)}) {
                    byte[] bad = frame.clone();
                    bad[pos] ^= (byte) mask;
                    Reason reason = refusal(bad, KEY, frame.length);
                    assertTrue(TAMPERED.contains(reason), "seed " + SEED + ", type " + type + ", byte " + pos
                            + " ^ " + mask + " gave " + reason);
                }
            }
        }
    }

    @Test
    void theHeaderIsCheckedBeforeTheMac() {
        byte[] frame = WireCodec.encode(new Leaving("m"), KEY);
        byte[] badMagic = frame.clone();
        badMagic[0] ^= 0x01;
        assertEquals(Reason.BAD_MAGIC, refusal(badMagic, KEY, frame.length));
        byte[] badVersion = frame.clone();
        badVersion[4] = WireCodec.VERSION + 1;
        assertEquals(Reason.BAD_VERSION, refusal(badVersion, KEY, frame.length));
        byte[] older = frame.clone();
        older[4] = 1;
        assertEquals(Reason.BAD_VERSION, refusal(older, KEY, frame.length), "version 1 had no references");
        byte[] unranked = frame.clone();
        unranked[4] = 2;
        assertEquals(Reason.BAD_VERSION, refusal(unranked, KEY, frame.length), "version 2 had no ranks");
        byte[] unreported = frame.clone();
        unreported[4] = 3;
        assertEquals(Reason.BAD_VERSION, refusal(unreported, KEY, frame.length), "version 3 had no load reports");
        byte[] unexpected = frame.clone();
        unexpected[4] = 4;
        assertEquals(Reason.BAD_VERSION, refusal(unexpected, KEY, frame.length),
                "version 4 had no expected run times");
        byte[] badType = frame.clone();
        badType[5] = WireCodec.TYPE_HOLDING;
        assertEquals(Reason.BAD_MAC, refusal(badType, KEY, frame.length), "the type byte is authenticated");
    }

    @Test
    void anotherKeyIsRefused() {
        RandomMessages random = new RandomMessages(SEED);
        for (int type = 1; type <= WireCodec.TYPE_LOAD_REPORT; type++) {
            byte[] frame = WireCodec.encode(random.of(type), KEY);
            assertEquals(Reason.BAD_MAC, refusal(frame, SharedSecret.of("the-wrong-one"), frame.length));
            assertEquals(Reason.BAD_MAC, refusal(frame, SharedSecret.loopbackDefault("dev"), frame.length));
        }
        byte[] loopback = WireCodec.encode(new Leaving("m"), SharedSecret.loopbackDefault("dev"));
        assertEquals(Reason.BAD_MAC, refusal(loopback, SharedSecret.loopbackDefault("prod"), loopback.length));
    }

    @Test
    void truncatedFramesAreRefused() {
        RandomMessages random = new RandomMessages(SEED);
        for (int type = 1; type <= WireCodec.TYPE_LOAD_REPORT; type++) {
            byte[] frame = WireCodec.encode(random.of(type), KEY);
            for (int n = 0; n < frame.length; n++) {
                Reason reason = refusal(Arrays.copyOf(frame, n), KEY, frame.length);
                Reason expected = n < WireCodec.MIN_FRAME_BYTES ? Reason.TRUNCATED : Reason.BAD_MAC;
                assertEquals(expected, reason, "type " + type + " cut to " + n + " of " + frame.length + " bytes");
            }
        }
    }

    @Test
    void authenticFramesWhoseBodyEndsEarlyAreTruncated() {
        byte[] full = HandFrame.ofType(WireCodec.TYPE_STEAL_REQUEST).str("a").i64(1).str("a").i32(0).i32(1).i32(3)
                .unsigned();
        for (int n = WireCodec.HEADER_BYTES; n < full.length; n++) {
            byte[] frame = HandFrame.withMac(Arrays.copyOf(full, n), KEY);
            assertEquals(Reason.TRUNCATED, refusal(frame, KEY, frame.length), "body cut to " + n + " bytes");
        }
    }

    @Test
    void aRequestLaidOutAsInVersion2LacksItsMinimumRank() {
        // The version byte says 3 (and the MAC is right), but the body ends where version 2's did.
        byte[] frame = HandFrame.ofType(WireCodec.TYPE_STEAL_REQUEST).str("m").i64(1).str("m").i32(0).i32(1)
                .sign(KEY);
        WireException e = assertThrows(WireException.class, () -> WireCodec.decode(frame, KEY, frame.length));
        assertEquals(Reason.TRUNCATED, e.reason());
        assertTrue(e.getMessage().contains("StealRequest.minRank"), e.getMessage());
    }

    @Test
    void oversizedFramesAreRefusedBeforeAnythingElse() throws WireException {
        byte[] frame = WireCodec.encode(new Holding("m", List.of(1L, 2L, 3L)), KEY);
        assertEquals(new Holding("m", List.of(1L, 2L, 3L)), WireCodec.decode(frame, KEY, frame.length));
        assertEquals(Reason.TOO_LARGE, refusal(frame, KEY, frame.length - 1));
        assertEquals(Reason.TOO_LARGE, refusal(new byte[1000], KEY, 999), "checked even before the magic");
        assertThrows(IllegalArgumentException.class, () -> WireCodec.decode(frame, KEY, 10));
    }

    @Test
    void forgedHugeCountsAreRefusedWithoutAllocating() {
        List<HandFrame> forged = List.of(
                HandFrame.ofType(WireCodec.TYPE_STEAL_REPLY).str("o").i64(1).i32(Integer.MAX_VALUE),
                HandFrame.ofType(WireCodec.TYPE_STEAL_REPLY).str("o").i64(1).i32(Integer.MIN_VALUE),
                HandFrame.ofType(WireCodec.TYPE_STEAL_REPLY).str("o").i64(1).i32(-1),
                HandFrame.ofType(WireCodec.TYPE_HOLDING).str("o").i32(Integer.MAX_VALUE).i64(1),
                HandFrame.ofType(WireCodec.TYPE_HOLDING).str("o").i32(2).i64(1).i32(0),
                HandFrame.ofType(WireCodec.TYPE_HANDBACK).str("o").i32(1 << 30),
                HandFrame.ofType(WireCodec.TYPE_WORK_RESULT).str("o").i64(1).i64(1).i8(1).i32(-1).i64(0).i64(0)
                        .i32(Integer.MAX_VALUE),
                HandFrame.ofType(WireCodec.TYPE_WORK_RESULT).str("o").i64(1).i64(1).i8(1).i32(-1).i64(0).i64(0)
                        .i32(1).i64(1).i64(0).i8(0).i32(Integer.MAX_VALUE).raw(new byte[64]),
                HandFrame.ofType(WireCodec.TYPE_WORK_RESULT).str("o").i64(1).i64(1).i8(1).i32(-1).i64(0).i64(0)
                        .i32(1).i64(1).i64(0).i8(0).i32(-5),
                HandFrame.ofType(WireCodec.TYPE_LEAVING).i32(Integer.MAX_VALUE).raw(new byte[16]),
                HandFrame.ofType(WireCodec.TYPE_LEAVING).i32(Integer.MIN_VALUE),
                HandFrame.ofType(WireCodec.TYPE_LEAVING).i32(WireCodec.MAX_STRING_BYTES + 1)
                        .raw(new byte[WireCodec.MAX_STRING_BYTES + 1]),
                elementPrefix().i32(Integer.MAX_VALUE));
        for (int i = 0; i < forged.size(); i++) {
            byte[] frame = forged.get(i).sign(KEY);
            Reason reason = refusal(frame, KEY, frame.length);
            assertTrue(reason == Reason.MALFORMED || reason == Reason.TRUNCATED, "forged frame " + i + ": " + reason);
        }
    }

    @Test
    void authenticButMalformedBodiesAreRefused() {
        record Case(String what, HandFrame frame, String inMessage) {
        }
        List<Case> cases = List.of(
                new Case("trailing byte", HandFrame.ofType(WireCodec.TYPE_LEAVING).str("m").i8(0), "trailing"),
                new Case("unknown type 0", HandFrame.ofType(0).str("m"), "type 0"),
                new Case("unknown type 8", HandFrame.ofType(8).str("m"), "type 8"),
                new Case("unknown type -1", HandFrame.ofType(-1).str("m"), "type -1"),
                new Case("null sender", HandFrame.ofType(WireCodec.TYPE_LEAVING).i32(-1), "sender"),
                new Case("unknown reason", HandFrame.ofType(WireCodec.TYPE_HANDBACK).str("m").i32(0).str("BORED"),
                        "Handback.reason"),
                new Case("reason by ordinal", HandFrame.ofType(WireCodec.TYPE_HANDBACK).str("m").i32(0).str("1"),
                        "Handback.reason"),
                new Case("lower-case reason", HandFrame.ofType(WireCodec.TYPE_HANDBACK).str("m").i32(0)
                        .str("leaving"), "Handback.reason"),
                new Case("bool 2", HandFrame.ofType(WireCodec.TYPE_WORK_RESULT).str("m").i64(1).i64(1).i8(2),
                        "WorkResult.ok"),
                new Case("negative hops", HandFrame.ofType(WireCodec.TYPE_STEAL_REQUEST).str("m").i64(1).str("m")
                        .i32(-1).i32(1).i32(0), "hops"),
                new Case("zero wanted", HandFrame.ofType(WireCodec.TYPE_STEAL_REQUEST).str("m").i64(1).str("m")
                        .i32(0).i32(0).i32(0), "wanted"),
                new Case("negative minRank", HandFrame.ofType(WireCodec.TYPE_STEAL_REQUEST).str("m").i64(1)
                        .str("m").i32(0).i32(1).i32(-1), "minRank must be 0 (any element) or positive: -1"),
                new Case("negative rank", elementPrefix().i32(0).i32(0).i32(-3).i64(0),
                        "rank must be 0 (unknown) or positive: -3"),
                new Case("negative expected time", elementPrefix().i32(0).i32(0).i32(1).i64(-5),
                        "expectedNanos must be 0 (unknown) or positive: -5"),
                new Case("overlong UTF-8", HandFrame.ofType(WireCodec.TYPE_LEAVING).i32(2)
                        .raw(new byte[] {(byte) 0xC0, (byte) 0x80}), "UTF-8"),
                new Case("UTF-8 surrogate", HandFrame.ofType(WireCodec.TYPE_LEAVING).i32(3)
                        .raw(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}), "UTF-8"),
                new Case("stray 0xFF", HandFrame.ofType(WireCodec.TYPE_LEAVING).i32(1).raw(new byte[] {-1}),
                        "UTF-8"),
                new Case("unknown element kind", elementPrefix("LAUNCH"), "ElementMessage.kind"),
                new Case("unknown argument tag", elementPrefix().i32(1).i8(3).raw(new byte[16]), "argument tag"),
                new Case("unknown access mode", elementPrefix().i32(1).i8(1).i64(1).i64(64).i64(0).str("READ_ONLY"),
                        "ArrayArg.mode"),
                new Case("unknown scalar type", elementPrefix().i32(1).i8(2).str("HALF").i64(0), "ScalarArg.type"),
                new Case("negative byte offset", HandFrame.ofType(WireCodec.TYPE_WORK_RESULT).str("m").i64(1).i64(1)
                        .i8(1).i32(-1).i64(0).i64(0).i32(1).i64(1).i64(-8).i8(0).i32(0), "byteOffset"),
                new Case("unknown ArrayData form", HandFrame.ofType(WireCodec.TYPE_WORK_RESULT).str("m").i64(1)
                        .i64(1).i8(1).i32(-1).i64(0).i64(0).i32(1).i64(1).i64(0).i8(3).i32(0), "ArrayData form"));
        for (Case c : cases) {
            byte[] frame = c.frame().sign(KEY);
            WireException e = assertThrows(WireException.class, () -> WireCodec.decode(frame, KEY, frame.length),
                    c.what());
            assertEquals(Reason.MALFORMED, e.reason(), c.what() + ": " + e.getMessage());
            assertTrue(e.getMessage().contains(c.inMessage()), c.what() + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("offset"), c.what() + ": " + e.getMessage());
        }
    }

    /** A StealReply with one kernel item, up to (not including) the argument count. */
    private static HandFrame elementPrefix() {
        return elementPrefix("KERNEL");
    }

    private static HandFrame elementPrefix(String kind) {
        return HandFrame.ofType(WireCodec.TYPE_STEAL_REPLY).str("o").i64(1).i32(1)
                .i64(10).i64(1)                          // WorkItem stealId, epoch
                .i64(99).str(kind).str("k").i8(1)        // elementId, kind, label, has source
                .str("__global__ void k() {}").str("k").str("k()")
                .i32(1).i32(1).i32(1).i32(32).i32(1).i32(1).i64(0).i64(0);
    }

    private static Reason refusal(byte[] frame, SharedSecret key, int max) {
        try {
            Message m = WireCodec.decode(frame, key, max);
            return fail("accepted " + m);
        } catch (WireException e) {
            return e.reason();
        }
    }

    private static int[] rangeOf(int n) {
        int[] a = new int[n];
        Arrays.setAll(a, i -> i);
        return a;
    }
}
