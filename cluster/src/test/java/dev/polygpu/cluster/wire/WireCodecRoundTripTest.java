package dev.polygpu.cluster.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.ElementType;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.KernelSource;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class WireCodecRoundTripTest {
    private static final long SEED = 0xC0DEC0DEL;
    private static final SharedSecret KEY = SharedSecret.loopbackDefault("round-trip");

    @ParameterizedTest(name = "type {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void randomMessagesOfEveryTypeSurviveTheTrip(int type) throws WireException {
        long seed = SEED + type;
        RandomMessages random = new RandomMessages(seed);
        for (int i = 0; i < 300; i++) {
            Message m = random.of(type);
            byte[] frame = WireCodec.encode(m, KEY);
            String where = "seed " + seed + ", message " + i + ": " + m;
            assertEquals(type, WireCodec.peekType(frame), where);
            Message back = WireCodec.decode(frame, KEY, frame.length);
            assertEquals(m, back, where);
            assertEquals(m.hashCode(), back.hashCode(), where);
            assertArrayEquals(frame, WireCodec.encode(back, KEY), "the encoding is canonical; " + where);
            assertEquals(WireCodec.payloadBytes(m), WireCodec.payloadBytes(back), where);
        }
    }

    @Test
    void emptyListsNullsAndEmptyStrings() throws WireException {
        ElementMessage copy = new ElementMessage(7, ElementKind.COPY, "", null, new int[] {1, 1, 1},
                new int[] {1, 1, 1}, 0, 4096, List.of());
        List<Message> messages = List.of(
                new StealRequest("", 0, "", 0, 1, 0),
                new StealRequest("", 0, "", 0, 1, Integer.MAX_VALUE),
                new StealReply("m1", 1, List.of()),
                new StealReply("m1", 1, List.of(new WorkItem(1, 2, copy, List.of(), 0))),
                new WorkResult("m2", 3, 4, true, null, 0, 0, List.of()),
                new WorkResult("m2", 3, 4, false, "", 0, 0, List.of()),
                new WorkResult("m2", 3, 4, true, null, 0, 0, List.of(new ArrayData(5, 0, new byte[0]))),
                new Handback("m3", List.of(), HandbackReason.LEAVING),
                new Holding("m3", List.of()),
                new Leaving(""),
                new LoadReport("", 0, 0));
        for (Message m : messages) {
            assertEquals(m, roundTrip(m));
        }
        WorkResult r = (WorkResult) roundTrip(new WorkResult("m2", 3, 4, true, null, 0, 0, List.of()));
        assertNull(r.error());
        StealReply reply = (StealReply) roundTrip(messages.get(3));
        assertNull(reply.items().getFirst().element().source());
    }

    @Test
    void unicodeLabelsAndSources() throws WireException {
        String label = "ядро_中文_😀_𝛼β_é";
        ElementMessage kernel = new ElementMessage(42, ElementKind.KERNEL, label,
                new KernelSource("__global__ void k(float* y) { /* größe: 😀 */ }", "k<float>",
                        "k(y: inout pointer float)"),
                new int[] {64, 2, 1}, new int[] {256, 1, 1}, 1024, 0,
                List.of(new ElementMessage.ArrayArg(9, 4096, 128, AccessMode.READ_WRITE),
                        new ElementMessage.ScalarArg(ElementType.FLOAT, Float.floatToRawIntBits(2.5f))));
        StealReply m = new StealReply("mémbre-1", 77, List.of(new WorkItem(5, 6, kernel, List.of(), 12)));
        StealReply back = (StealReply) roundTrip(m);
        assertEquals(m, back);
        assertEquals(label, back.items().getFirst().element().label());
        assertArrayEquals(new int[] {64, 2, 1}, back.items().getFirst().element().grid());
    }

    @Test
    void largeArraysSurviveAndAreCountedAsPayload() throws WireException {
        RandomMessages random = new RandomMessages(SEED);
        ArrayData big = random.arrayData(8 << 20);
        ArrayData small = random.arrayData(1000);
        StealReply m = new StealReply("owner", 1,
                List.of(new WorkItem(1, 1, random.element(), List.of(big, small), 3)));
        byte[] frame = WireCodec.encode(m, KEY);
        assertTrue(frame.length > (8 << 20) + 1000 && frame.length < (8 << 20) + 1000 + 4096,
                "frame of " + frame.length + " bytes");
        StealReply back = (StealReply) WireCodec.decode(frame, KEY, WireCodec.DEFAULT_MAX_FRAME_BYTES);
        assertEquals(m, back);
        assertEquals((8L << 20) + 1000, WireCodec.payloadBytes(back));

        WorkResult result = new WorkResult("thief", 1, 1, true, null, 10, 20, List.of(big));
        assertEquals(result, roundTrip(result));
        assertEquals(8L << 20, WireCodec.payloadBytes(result));
    }

    @Test
    void payloadBytesIsZeroForControlMessages() {
        assertEquals(0, WireCodec.payloadBytes(new StealRequest("a", 1, "a", 0, 3, 5)));
        assertEquals(0, WireCodec.payloadBytes(new Holding("a", List.of(1L, 2L))));
        assertEquals(0, WireCodec.payloadBytes(new Handback("a", List.of(1L), HandbackReason.CANNOT_RUN)));
        assertEquals(0, WireCodec.payloadBytes(new Leaving("a")));
        assertEquals(0, WireCodec.payloadBytes(new StealReply("a", 1, List.of())));
    }

    @Test
    void stringsAtTheirLimitPassAndBeyondAreRefusedWhenEncoding() throws WireException {
        String source = "x".repeat(WireCodec.MAX_SOURCE_BYTES);
        ElementMessage kernel = new ElementMessage(1, ElementKind.KERNEL, "k", new KernelSource(source, "k", "k()"),
                new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 0, List.of());
        StealReply atLimit = new StealReply("o", 1, List.of(new WorkItem(1, 1, kernel, List.of(), 1)));
        // assertTrue, not assertEquals: a failure must not print a megabyte of source.
        assertTrue(atLimit.equals(roundTrip(atLimit)), "a source of exactly MAX_SOURCE_BYTES survives");

        ElementMessage tooLong = new ElementMessage(1, ElementKind.KERNEL, "k",
                new KernelSource(source + "x", "k", "k()"), new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 0,
                List.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WireCodec.encode(
                new StealReply("o", 1, List.of(new WorkItem(1, 1, tooLong, List.of(), 1))), KEY));
        assertTrue(e.getMessage().contains("KernelSource.source"), e.getMessage());

        // 'é' is two bytes in UTF-8: the limit counts bytes, not characters.
        String sender = "é".repeat(WireCodec.MAX_STRING_BYTES / 2);
        assertTrue(new Leaving(sender).equals(roundTrip(new Leaving(sender))), "a sender of exactly the limit");
        assertThrows(IllegalArgumentException.class, () -> WireCodec.encode(new Leaving(sender + "a"), KEY));
    }

    @Test
    void unpairedSurrogatesAreRefusedNotReplaced() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WireCodec.encode(new StealRequest("a", 1, "thief\uD800", 0, 1, 0), KEY));
        assertTrue(e.getMessage().contains("StealRequest.thief"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WireCodec.encode(new Leaving("\uDC00x"), KEY));
    }

    @Test
    void layoutMatchesTheDocumentation() throws WireException {
        // Built by hand from the documented layout, so a change of the format shows up here.
        byte[] frame = HandFrame.ofType(WireCodec.TYPE_STEAL_REQUEST)
                .str("member-b").i64(0x0102030405060708L).str("member-a").i32(2).i32(5).i32(7)
                .sign(KEY);
        StealRequest request = new StealRequest("member-b", 0x0102030405060708L, "member-a", 2, 5, 7);
        assertEquals(request, WireCodec.decode(frame, KEY, frame.length));
        byte[] encoded = WireCodec.encode(request, KEY);
        assertArrayEquals(frame, encoded);
        assertEquals(6, encoded[4], "the format version");
        assertEquals(WireCodec.CLEAR, encoded[6], "a clear frame");
        // magic, version, type, protection; sender; requestId; thief; hops, wanted, minRank; MAC.
        assertEquals(7 + (4 + 8) + 8 + (4 + 8) + 3 * 4 + 32, encoded.length);

        // A reply with one element of rank 9 that carries no inputs: the rank comes after the inputs, then the
        // run time the owner expects.
        ElementMessage copy = new ElementMessage(99, ElementKind.COPY, "c", null, new int[] {1, 2, 3},
                new int[] {4, 5, 6}, 16, 4096, List.of());
        byte[] reply = HandFrame.ofType(WireCodec.TYPE_STEAL_REPLY)
                .str("o").i64(41).i32(1)
                .i64(10).i64(11)                                         // stealId, epoch
                .i64(99).str("COPY").str("c").i8(0)                      // elementId, kind, label, no source
                .i32(1).i32(2).i32(3).i32(4).i32(5).i32(6).i64(16).i64(4096).i32(0)
                .i32(0)                                                  // inputs
                .i32(9)                                                  // rank
                .i64(12_345_678)                                         // expected nanoseconds
                .i8(0)                                                   // not pushed
                .sign(KEY);
        StealReply withRank = new StealReply("o", 41, List.of(new WorkItem(10, 11, copy, List.of(), 9,
                12_345_678)));
        assertEquals(withRank, WireCodec.decode(reply, KEY, reply.length));
        assertArrayEquals(reply, WireCodec.encode(withRank, KEY));

        byte[] handback = HandFrame.ofType(WireCodec.TYPE_HANDBACK)
                .str("t").i32(2).i64(-1).i64(7).str("STALE_REPLY").sign(KEY);
        assertEquals(new Handback("t", List.of(-1L, 7L), HandbackReason.STALE_REPLY),
                WireCodec.decode(handback, KEY, handback.length));

        byte[] result = HandFrame.ofType(WireCodec.TYPE_WORK_RESULT)
                .str("t").i64(3).i64(4).i8(0).i32(-1).i64(10).i64(20)
                .i32(1).i64(9).i64(16).i8(0).i32(3).raw(new byte[] {1, 2, 3})
                .i32(2)                                                  // the thief holds 2 more
                .sign(KEY);
        assertEquals(new WorkResult("t", 3, 4, false, null, 10, 20, List.of(new ArrayData(9, 16, new byte[] {1, 2, 3})),
                2), WireCodec.decode(result, KEY, result.length));

        byte[] report = HandFrame.ofType(WireCodec.TYPE_LOAD_REPORT).str("v").i32(12).i32(40).sign(KEY);
        assertEquals(new LoadReport("v", 12, 40), WireCodec.decode(report, KEY, report.length));
        assertArrayEquals(report, WireCodec.encode(new LoadReport("v", 12, 40), KEY));
    }

    @Test
    void aPushedReplyAnswersNoRequestAndCarriesWork() throws WireException {
        ElementMessage copy = new ElementMessage(99, ElementKind.COPY, "c", null, new int[] {1, 2, 3},
                new int[] {4, 5, 6}, 16, 4096, List.of());
        StealReply pushed = StealReply.pushed("o", List.of(new WorkItem(10, 11, copy, List.of(), 9)));
        assertTrue(pushed.pushed());
        assertEquals(StealReply.PUSHED, pushed.requestId());
        assertEquals(pushed, roundTrip(pushed));
        assertFalse(new StealReply("o", 5, List.of()).pushed(), "a reply to a request is not pushed");
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> StealReply.pushed("o", List.of()));
        assertTrue(empty.getMessage().contains("at least one item"), empty.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new StealReply("o", 3, List.of(
                new WorkItem(10, 11, copy, List.of(), 9)), true), "a pushed reply answers no request");
        assertThrows(IllegalArgumentException.class, () -> new LoadReport("v", -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new LoadReport("v", 1, -1));
        assertThrows(IllegalArgumentException.class, () -> new WorkResult("t", 1, 1, true, null, 0, 0, List.of(), -1));
    }

    @Test
    void inputsGoAsContentsWithTheirDigestOrAsAReference() throws WireException {
        Digest d = new Digest(0x1112131415161718L, -2);
        byte[] withDigest = HandFrame.ofType(WireCodec.TYPE_WORK_RESULT)
                .str("t").i64(3).i64(4).i8(1).i32(-1).i64(0).i64(0)
                .i32(2).i64(9).i64(0).i8(1).i64(0x1112131415161718L).i64(-2).i32(2).raw(new byte[] {5, 6})
                .i64(10).i64(8).i8(2).i64(0x1112131415161718L).i64(-2)
                .i32(0)                                                  // the thief holds nothing else
                .sign(KEY);
        WorkResult expected = new WorkResult("t", 3, 4, true, null, 0, 0, List.of(
                new ArrayData(9, 0, new byte[] {5, 6}, d), ArrayData.reference(10, 8, d)));
        assertEquals(expected, WireCodec.decode(withDigest, KEY, withDigest.length));
        assertArrayEquals(withDigest, WireCodec.encode(expected, KEY));
        assertEquals(2, WireCodec.payloadBytes(expected), "a reference carries no bytes");
        assertTrue(expected.outputs().get(1).isReference());
        assertEquals(0, expected.outputs().get(1).length());
        assertThrows(NullPointerException.class, () -> new ArrayData(1, 0, null, null));
    }

    private static Message roundTrip(Message m) throws WireException {
        byte[] frame = WireCodec.encode(m, KEY);
        return WireCodec.decode(frame, KEY, WireCodec.DEFAULT_MAX_FRAME_BYTES);
    }
}
