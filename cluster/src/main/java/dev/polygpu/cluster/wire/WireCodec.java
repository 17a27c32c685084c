package dev.polygpu.cluster.wire;

import dev.polygpu.cluster.wire.WireException.Reason;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * Turns {@link Message}s into authenticated frames and back: encrypted with AES-256-GCM under a key from a
 * configured secret ({@link SharedSecret#encrypts()}), in clear text with an HMAC-SHA256 under the loopback
 * default. Stateless and thread-safe.
 *
 * <p>A frame, big-endian:
 * <pre>
 * i32 magic 0x50475055 ('PGPU') | i8 version 6 | i8 type | i8 protection | ...
 *   protection 0 (clear): body | 32-byte HMAC-SHA256 over all preceding bytes
 *   protection 1 (AES-256-GCM): i8 n | n bytes sender (UTF-8, the body's sender) | 12-byte nonce
 *                               | body, encrypted | 16-byte GCM tag
 * </pre>
 * An encrypted frame's key is its sender's ({@link SharedSecret}); its associated data is every byte before the
 * nonce (magic, version, type, protection, sender) followed by the UTF-8 bytes of the recipient's member id, so a
 * frame cannot be passed off as another type, as coming from another member, or as addressed to another member.
 * A member with a secret accepts encrypted frames only, a member without one clear ones only.
 *
 * Types: 1 {@link StealRequest}, 2 {@link StealReply}, 3 {@link WorkResult}, 4 {@link Handback},
 * 5 {@link Holding}, 6 {@link Leaving}, 7 {@link LoadReport}. In the bodies, {@code str} is an i32 UTF-8 byte length then the bytes
 * (standard UTF-8, not Java's modified form; {@code str?} uses length -1 for null); {@code name} is an enum
 * constant's name as a {@code str} (never its ordinal); {@code list<T>} is an i32 count then the elements;
 * {@code bytes} is an i32 length then the bytes; {@code bool} is one byte, 0 or 1.
 * <pre>
 * StealRequest  str sender, i64 requestId, str thief, i32 hops, i32 wanted, i32 minRank (0: any element)
 * StealReply    str sender, i64 requestId (0 when pushed), list&lt;WorkItem&gt; items, bool pushed
 * WorkResult    str sender, i64 stealId, i64 epoch, bool ok, str? error, i64 queueNanos, i64 runNanos,
 *               list&lt;ArrayData&gt; outputs, i32 thiefHolds
 * Handback      str sender, list&lt;i64&gt; stealIds, name reason
 * Holding       str sender, list&lt;i64&gt; stealIds
 * Leaving       str sender
 * LoadReport    str sender, i32 surplus, i32 topRank (0: none)
 *
 * WorkItem      i64 stealId, i64 epoch, Element element, list&lt;ArrayData&gt; inputs, i32 rank (0: unknown),
 *               i64 expectedNanos (0: unknown)
 * ArrayData     i64 arrayId, i64 byteOffset, i8 form (0 contents, 1 contents and digest, 2 reference),
 *               [form 1, 2: i64 digestHi, i64 digestLo ({@link Digest})], [form 0, 1: bytes contents]
 * Element       i64 elementId, name kind, str label, bool hasSource,
 *               [if hasSource: str source (up to 1 MiB), str name, str signature],
 *               i32[3] grid, i32[3] block, i64 sharedBytes, i64 rangeBytes, list&lt;Arg&gt; args
 * Arg           i8 tag: 1 = array  (i64 arrayId, i64 arrayBytes, i64 byteOffset, name mode)
 *                       2 = scalar (name type, i64 bits)
 * </pre>
 * Every encoding is canonical: a message has exactly one frame (per key), so decoding and encoding again gives
 * the same bytes.
 *
 * <p>{@link #decode} checks, in this order: the size limit, the minimum length, magic, version, then the MAC,
 * and only then reads the body, strictly: counts and lengths must fit in the bytes that remain (checked before
 * anything is allocated), strings must be valid UTF-8 within their limits, enum names must be known, and no
 * bytes may follow the body. Anything else is a {@link WireException}; decoding never throws anything else for
 * any input bytes.
 *
 * <p>{@link #encode} sizes the frame exactly first and writes into one array of that size, so array contents are
 * copied once.
 */
public final class WireCodec {
    /** The first four bytes of every frame: ASCII "PGPU". */
    public static final int MAGIC = 0x50475055;
    /**
     * The format version this codec writes and reads: 6 since frames are encrypted under a configured secret
     * (5: work items carry the run time their owner
     * expects; 4: members report their load to directories, owners push continuations and results say what else
     * their thief holds; 3: minimum ranks in steal requests and ranks in work items; 2: inputs as references to
     * what the thief keeps; 1: the first).
     */
    public static final byte VERSION = 6;
    /** Magic, version, type and protection. */
    public static final int HEADER_BYTES = 4 + 1 + 1 + 1;
    /** Protection byte of a clear frame (HMAC-SHA256). */
    public static final byte CLEAR = 0;
    /** Protection byte of an encrypted frame (AES-256-GCM). */
    public static final byte ENCRYPTED = 1;
    /** Bytes of a GCM tag. */
    public static final int TAG_BYTES = 16;
    /** Longest sender id in an encrypted frame's header, in UTF-8 bytes. */
    public static final int MAX_SENDER_BYTES = 255;
    /** The smallest possible frame: a header and a MAC around an empty body. */
    public static final int MIN_FRAME_BYTES = HEADER_BYTES + SharedSecret.MAC_BYTES;
    /** A frame-size limit for receivers that have no better figure: 256 MiB. The transport decides. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 256 << 20;
    /** Longest kernel source, in UTF-8 bytes: 1 MiB. */
    public static final int MAX_SOURCE_BYTES = 1 << 20;
    /** Longest other string (member ids, labels, kernel names, signatures, errors), in UTF-8 bytes: 64 KiB. */
    public static final int MAX_STRING_BYTES = 64 << 10;
    /** Longest enum constant name, in UTF-8 bytes. */
    public static final int MAX_NAME_BYTES = 256;

    /** Type byte of a {@link StealRequest}. */
    public static final byte TYPE_STEAL_REQUEST = 1;
    /** Type byte of a {@link StealReply}. */
    public static final byte TYPE_STEAL_REPLY = 2;
    /** Type byte of a {@link WorkResult}. */
    public static final byte TYPE_WORK_RESULT = 3;
    /** Type byte of a {@link Handback}. */
    public static final byte TYPE_HANDBACK = 4;
    /** Type byte of a {@link Holding}. */
    public static final byte TYPE_HOLDING = 5;
    /** Type byte of a {@link Leaving}. */
    public static final byte TYPE_LEAVING = 6;
    /** Type byte of a {@link LoadReport}. */
    public static final byte TYPE_LOAD_REPORT = 7;

    // The largest array the JVM reliably allocates.
    private static final long MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    private WireCodec() {
    }

    /**
     * The frame for {@code m}, not addressed to a particular member (a round trip within one member; tests).
     *
     * @see #encode(Message, SharedSecret, String)
     */
    public static byte[] encode(Message m, SharedSecret key) {
        return encode(m, key, "");
    }

    /**
     * The frame for {@code m} to {@code recipient}, encrypted if {@code key} {@link SharedSecret#encrypts()}, else
     * with an HMAC.
     *
     * @throws IllegalArgumentException if a string is over its limit ({@link #MAX_SOURCE_BYTES},
     *                                  {@link #MAX_STRING_BYTES}, {@link #MAX_SENDER_BYTES} for the sender of an
     *                                  encrypted frame) or holds an unpaired surrogate, or the frame would exceed
     *                                  what a Java array holds; the message names the field
     */
    public static byte[] encode(Message m, SharedSecret key, String recipient) {
        Objects.requireNonNull(m, "message");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(recipient, "recipient");
        BodyWriter.Sizer sizer = new BodyWriter.Sizer();
        MessageLayout.write(m, sizer);
        byte[] sender = key.encrypts() ? senderBytes(m.sender()) : null;
        long prefix = key.encrypts() ? HEADER_BYTES + 1 + sender.length + SharedSecret.NONCE_BYTES : HEADER_BYTES;
        long total = prefix + sizer.size() + (key.encrypts() ? TAG_BYTES : SharedSecret.MAC_BYTES);
        if (total > MAX_ARRAY_BYTES) {
            throw new IllegalArgumentException(m.getClass().getSimpleName() + " would need a frame of " + total
                    + " bytes; split its array data over several messages");
        }
        byte[] frame = new byte[(int) total];
        BodyWriter.Filler out = new BodyWriter.Filler(frame);
        out.i32(MAGIC);
        out.i8(VERSION);
        out.i8(MessageLayout.typeOf(m));
        out.i8(key.encrypts() ? ENCRYPTED : CLEAR);
        if (key.encrypts()) {
            out.i8(sender.length);
            out.raw(sender);
            byte[] nonce = new byte[SharedSecret.NONCE_BYTES];
            key.nextNonce(nonce, 0);
            out.raw(nonce);
        }
        MessageLayout.write(m, out);
        int tailAt = frame.length - (key.encrypts() ? TAG_BYTES : SharedSecret.MAC_BYTES);
        if (out.position() != tailAt) {
            throw new IllegalStateException("sized " + tailAt + " bytes before the tag but wrote " + out.position());
        }
        if (key.encrypts()) {
            FrameCipher.seal(frame, (int) prefix, tailAt, key.frameKey(m.sender()), recipient);
        } else {
            System.arraycopy(key.mac(frame, 0, tailAt), 0, frame, tailAt, SharedSecret.MAC_BYTES);
        }
        return frame;
    }

    /**
     * The message in {@code frame}, not addressed to a particular member.
     *
     * @see #decode(byte[], SharedSecret, int, String)
     */
    public static Message decode(byte[] frame, SharedSecret key, int maxFrameBytes) throws WireException {
        return decode(frame, key, maxFrameBytes, "");
    }

    /**
     * The message in {@code frame}, after checking that it was made with {@code key} and, if encrypted, for
     * {@code recipient}.
     *
     * @param maxFrameBytes the largest frame accepted; at least {@link #MIN_FRAME_BYTES}
     * @throws WireException if the frame is refused; its {@link WireException#reason()} says why
     */
    public static Message decode(byte[] frame, SharedSecret key, int maxFrameBytes, String recipient)
            throws WireException {
        Objects.requireNonNull(frame, "frame");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(recipient, "recipient");
        if (maxFrameBytes < MIN_FRAME_BYTES) {
            throw new IllegalArgumentException(
                    "maxFrameBytes must be at least " + MIN_FRAME_BYTES + ": " + maxFrameBytes);
        }
        if (frame.length > maxFrameBytes) {
            throw new WireException(Reason.TOO_LARGE,
                    "frame of " + frame.length + " bytes exceeds the limit of " + maxFrameBytes);
        }
        if (frame.length < MIN_FRAME_BYTES) {
            throw new WireException(Reason.TRUNCATED,
                    "frame of " + frame.length + " bytes is shorter than a header and MAC (" + MIN_FRAME_BYTES + ")");
        }
        int magic = readInt(frame, 0);
        if (magic != MAGIC) {
            throw new WireException(Reason.BAD_MAGIC,
                    String.format("magic at offset 0 is 0x%08X, not 0x%08X ('PGPU')", magic, MAGIC));
        }
        if (frame[4] != VERSION) {
            throw new WireException(Reason.BAD_VERSION,
                    "version at offset 4 is " + frame[4] + "; this member speaks version " + VERSION);
        }
        byte protection = frame[6];
        if (protection != (key.encrypts() ? ENCRYPTED : CLEAR)) {
            throw new WireException(Reason.BAD_MAC, key.encrypts()
                    ? "the frame is not encrypted (protection byte " + protection + " at offset 6): its sender has "
                    + "no cluster secret, and this member accepts only frames encrypted with one"
                    : "the frame is not in clear text (protection byte " + protection + " at offset 6): its sender "
                    + "has a cluster secret, and this member has none");
        }
        int type = frame[5];
        FrameReader body;
        String headerSender = null;
        if (key.encrypts()) {
            int senderBytes = frame[HEADER_BYTES] & 0xFF;
            int bodyAt = HEADER_BYTES + 1 + senderBytes + SharedSecret.NONCE_BYTES;
            int tagAt = frame.length - TAG_BYTES;
            if (bodyAt > tagAt) {
                throw new WireException(Reason.TRUNCATED, "the sender of " + senderBytes + " bytes at offset "
                        + HEADER_BYTES + " leaves no room for a nonce and a tag in a frame of " + frame.length);
            }
            headerSender = new FrameReader(frame, HEADER_BYTES + 1, HEADER_BYTES + 1 + senderBytes)
                    .utf8("the sender", senderBytes);
            byte[] plain = FrameCipher.open(frame, bodyAt, tagAt, key.frameKey(headerSender), recipient);
            body = new FrameReader(plain, bodyAt, tagAt);
        } else {
            int macAt = frame.length - SharedSecret.MAC_BYTES;
            if (!key.verify(frame, 0, macAt, frame, macAt)) {
                throw new WireException(Reason.BAD_MAC, "the HMAC at offset " + macAt
                        + " does not match: the frame was altered or made with another secret");
            }
            body = new FrameReader(frame, HEADER_BYTES, macAt);
        }
        Message m;
        try {
            m = MessageLayout.read(type, body);
        } catch (IllegalArgumentException e) {
            // The fields parsed but do not make a valid message (a record's constructor refused them).
            throw body.malformed("invalid message of type " + type + ": " + e.getMessage(), body.offset());
        }
        body.expectEnd(m.getClass().getSimpleName());
        if (headerSender != null && !headerSender.equals(m.sender())) {
            throw body.malformed("the body names sender " + m.sender() + " but the header " + headerSender,
                    HEADER_BYTES);
        }
        return m;
    }

    /**
     * The type byte of a frame that has a polygpu header, or -1 if it is too short or has a wrong magic or
     * version. The frame is <b>not</b> authenticated: use this only to route or count, never to trust.
     */
    public static int peekType(byte[] frame) {
        if (frame.length < MIN_FRAME_BYTES || readInt(frame, 0) != MAGIC || frame[4] != VERSION) {
            return -1;
        }
        return frame[5];
    }

    /** The array bytes a message carries (the sum of its {@link ArrayData} lengths), for "bytes moved" counters. */
    public static long payloadBytes(Message m) {
        return switch (m) {
            case StealReply r -> {
                long n = 0;
                for (WorkItem item : r.items()) {
                    n += dataBytes(item.inputs());
                }
                yield n;
            }
            case WorkResult r -> dataBytes(r.outputs());
            case StealRequest _, Handback _, Holding _, Leaving _, LoadReport _ -> 0;
        };
    }

    private static long dataBytes(List<ArrayData> data) {
        long n = 0;
        for (ArrayData d : data) {
            n += d.length();
        }
        return n;
    }

    /** The UTF-8 bytes of an encrypted frame's sender, at most {@link #MAX_SENDER_BYTES}. */
    private static byte[] senderBytes(String sender) {
        long n = Utf8.length(sender, "the sender");
        if (n > MAX_SENDER_BYTES) {
            throw new IllegalArgumentException("the sender id has " + n + " UTF-8 bytes; an encrypted frame holds at "
                    + "most " + MAX_SENDER_BYTES);
        }
        ByteBuffer b = ByteBuffer.allocate((int) n);
        Utf8.encode(sender, b);
        return b.array();
    }

    private static int readInt(byte[] b, int at) {
        return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }
}
