package dev.polygpu.device.fatbin;

/**
 * A decoder of zstd frames (RFC 8878), which is what nvcc writes for its default, {@code size} and
 * {@code balance} compression modes (entry flag {@code 0x8000}). Everything the format allows without a
 * dictionary is decoded: raw, RLE and compressed blocks; raw, RLE, Huffman-coded and treeless literals in one or
 * four streams; sequences with predefined, RLE, FSE-coded and repeated tables; repeated offsets; the content
 * checksum (checked); several frames in a row and skippable frames. Decoding goes into a buffer of the size the
 * fatbinary declares ({@link Output}), so no frame can make more; every read of the input is bounds-checked and
 * every defect is a {@link CorruptPayload}.
 *
 * <p>Implementation notes: one instance decodes one payload; the tables and offsets a block may repeat from the
 * previous one are its fields, reset at each frame.
 */
final class ZstdFrame {
    static final int MAGIC = 0xFD2FB528;
    private static final int SKIPPABLE = 0x184D2A50;
    private static final int MAX_BLOCK = 128 * 1024;

    private static final int[] LL_BASE = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22,
        24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
    private static final int[] LL_BITS = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3,
        4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    private static final int[] ML_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
        23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515,
        1027, 2051, 4099, 8195, 16387, 32771, 65539};
    private static final int[] ML_BITS = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    private static final int MAX_LL = 35;
    private static final int MAX_ML = 52;
    private static final int MAX_OF = 31;
    private static final FseTable LL_DEFAULT = FseTable.predefined(new int[] {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1}, 6);
    private static final FseTable ML_DEFAULT = FseTable.predefined(new int[] {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1,
        -1, -1, -1, -1, -1}, 6);
    private static final FseTable OF_DEFAULT = FseTable.predefined(new int[] {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}, 5);

    private final byte[] src;
    private final int origin;
    private final Output out;
    private final byte[] literals = new byte[MAX_BLOCK];
    private int frameStart;
    private Huffman huffman;
    private FseTable llTable;
    private FseTable ofTable;
    private FseTable mlTable;
    private final int[] repeat = new int[3];

    private ZstdFrame(byte[] src, int origin, Output out) {
        this.src = src;
        this.origin = origin;
        this.out = out;
    }

    /**
     * Decodes the {@code length} bytes of {@code src} from {@code from} (one or more frames) into exactly
     * {@code size} bytes.
     *
     * @throws CorruptPayload for anything that is not a well-formed frame decoding to {@code size} bytes
     */
    static byte[] decode(byte[] src, int from, int length, int size) throws CorruptPayload {
        ZstdFrame d = new ZstdFrame(src, from, new Output(size, 8L * length));
        int at = from;
        int end = from + length;
        boolean frames = false;
        while (at < end) {
            if (end - at < 4) {
                throw new CorruptPayload("has " + (end - at) + " stray bytes at byte " + (at - from)
                        + ", too few for a frame");
            }
            int magic = le(src, at, 4);
            if ((magic & 0xFFFFFFF0) == SKIPPABLE) {
                long skip = end - at < 8 ? -1 : le(src, at + 4, 4) & 0xffffffffL;
                if (skip < 0 || skip > end - at - 8) {
                    throw new CorruptPayload("has a skippable frame at byte " + (at - from) + " that runs past its"
                            + " end");
                }
                at += 8 + (int) skip;
            } else if (magic != MAGIC) {
                throw new CorruptPayload("has no zstd frame at byte " + (at - from) + " (it starts with "
                        + String.format("%08x", magic) + ", not the magic number fd2fb528)");
            } else {
                at = d.frame(at + 4, end);
                frames = true;
            }
        }
        if (!frames) {
            throw new CorruptPayload("holds no zstd frame");
        }
        return d.out.finish();
    }

    /** Decodes the frame whose header starts at {@code at}; returns where it ends. */
    private int frame(int at, int end) throws CorruptPayload {
        need(at, 1, end, "the frame header");
        int descriptor = src[at] & 0xff;
        int fcsFlag = descriptor >>> 6;
        boolean singleSegment = (descriptor & 0x20) != 0;
        boolean checksum = (descriptor & 0x04) != 0;
        int dictFlag = descriptor & 3;
        if ((descriptor & 0x08) != 0) {
            throw new CorruptPayload("sets the reserved bit of its frame header, at byte " + (at - origin));
        }
        int dictBytes = dictFlag == 3 ? 4 : dictFlag;
        int fcsBytes = fcsFlag == 0 ? (singleSegment ? 1 : 0) : 1 << fcsFlag;
        int header = 1 + (singleSegment ? 0 : 1) + dictBytes + fcsBytes;
        need(at, header, end, "the frame header");
        int p = at + 1 + (singleSegment ? 0 : 1);
        long dictionary = dictBytes == 0 ? 0 : le(src, p, dictBytes) & 0xffffffffL;
        if (dictionary != 0) {
            throw new CorruptPayload("needs zstd dictionary " + dictionary + ", which a fatbinary does not carry");
        }
        p += dictBytes;
        long contentSize = -1;
        if (fcsBytes == 8) {
            contentSize = le(src, p, 4) & 0xffffffffL | (le(src, p + 4, 4) & 0xffffffffL) << 32;
        } else if (fcsBytes > 0) {
            contentSize = (le(src, p, fcsBytes) & 0xffffffffL) + (fcsBytes == 2 ? 256 : 0);
        }
        at += header;
        frameStart = out.position();
        huffman = null;
        llTable = null;
        ofTable = null;
        mlTable = null;
        repeat[0] = 1;
        repeat[1] = 4;
        repeat[2] = 8;
        boolean last;
        do {
            need(at, 3, end, "a block header");
            int blockHeader = le(src, at, 3);
            last = (blockHeader & 1) != 0;
            int type = blockHeader >>> 1 & 3;
            int size = blockHeader >>> 3;
            at += 3;
            switch (type) {
                case 0 -> {
                    need(at, size, end, "a raw block of " + size + " bytes");
                    out.put(src, at, size);
                    at += size;
                }
                case 1 -> {
                    need(at, 1, end, "an RLE block");
                    if (size > MAX_BLOCK) {
                        throw new CorruptPayload("has an RLE block of " + size + " bytes at byte " + (at - origin)
                                + ", more than the " + MAX_BLOCK + " a block may hold");
                    }
                    out.fill(src[at], size);
                    at += 1;
                }
                case 2 -> {
                    if (size > MAX_BLOCK) {
                        throw new CorruptPayload("has a compressed block of " + size + " bytes at byte "
                                + (at - origin) + ", more than the " + MAX_BLOCK + " a block may hold");
                    }
                    need(at, size, end, "a compressed block of " + size + " bytes");
                    block(at, at + size);
                    at += size;
                }
                default -> throw new CorruptPayload("has a block of the reserved type 3 at byte " + (at - 3 - origin));
            }
        } while (!last);
        int produced = out.position() - frameStart;
        if (contentSize >= 0 && contentSize != produced) {
            throw new CorruptPayload("has a frame that declares " + Long.toUnsignedString(contentSize) + " bytes but"
                    + " decodes to " + produced);
        }
        if (checksum) {
            need(at, 4, end, "the frame checksum");
            int expected = le(src, at, 4);
            int actual = (int) out.hash(frameStart);
            if (expected != actual) {
                throw new CorruptPayload("fails its checksum (the frame says " + String.format("%08x", expected)
                        + ", its content hashes to " + String.format("%08x", actual) + ")");
            }
            at += 4;
        }
        return at;
    }

    /** Decodes the compressed block in {@code [at, end)}: its literals, then its sequences. */
    private void block(int at, int end) throws CorruptPayload {
        int[] literalCount = new int[1];
        at = literals(at, end, literalCount);
        sequences(at, end, literalCount[0]);
    }

    /** Reads the literals section at {@code at} into {@link #literals}; returns where it ends. */
    private int literals(int at, int end, int[] count) throws CorruptPayload {
        need(at, 1, end, "the literals section header");
        int b0 = src[at] & 0xff;
        int type = b0 & 3;
        int format = b0 >>> 2 & 3;
        if (type <= 1) { // raw or RLE
            int headerBytes = (format & 1) == 0 ? 1 : format == 1 ? 2 : 3;
            need(at, headerBytes, end, "the literals section header");
            int size = switch (headerBytes) {
                case 1 -> b0 >>> 3;
                case 2 -> b0 >>> 4 | (src[at + 1] & 0xff) << 4;
                default -> b0 >>> 4 | (src[at + 1] & 0xff) << 4 | (src[at + 2] & 0xff) << 12;
            };
            checkLiteralCount(size, at);
            at += headerBytes;
            if (type == 0) {
                need(at, size, end, size + " raw literals");
                System.arraycopy(src, at, literals, 0, size);
                at += size;
            } else {
                need(at, 1, end, "the RLE literal");
                java.util.Arrays.fill(literals, 0, size, src[at]);
                at += 1;
            }
            count[0] = size;
            return at;
        }
        int headerBytes = format <= 1 ? 3 : format == 2 ? 4 : 5;
        need(at, headerBytes, end, "the literals section header");
        long h = 0;
        for (int i = 0; i < headerBytes; i++) {
            h |= (src[at + i] & 0xffL) << (8 * i);
        }
        int sizeBits = format <= 1 ? 10 : format == 2 ? 14 : 18;
        int size = (int) (h >>> 4 & ((1 << sizeBits) - 1));
        int compressed = (int) (h >>> (4 + sizeBits) & ((1 << sizeBits) - 1));
        boolean fourStreams = format != 0;
        checkLiteralCount(size, at);
        at += headerBytes;
        need(at, compressed, end, "compressed literals of " + compressed + " bytes");
        int streamsEnd = at + compressed;
        if (type == 2) {
            int[] used = new int[1];
            huffman = Huffman.read(src, at, streamsEnd, used);
            at += used[0];
        } else if (huffman == null) {
            throw new CorruptPayload("has treeless literals at byte " + (at - origin) + " without an earlier"
                    + " Huffman table in the frame");
        }
        if (!fourStreams) {
            huffman.decode(src, at, streamsEnd - at, literals, 0, size, "the literal stream at byte "
                    + (at - origin));
        } else {
            if (streamsEnd - at < 6) {
                throw new CorruptPayload("lacks the jump table of its four literal streams, at byte " + (at - origin));
            }
            int s1 = le(src, at, 2);
            int s2 = le(src, at + 2, 2);
            int s3 = le(src, at + 4, 2);
            int s4 = streamsEnd - at - 6 - s1 - s2 - s3;
            int segment = (size + 3) / 4;
            int lastSegment = size - 3 * segment;
            if (s4 < 0 || lastSegment < 0) {
                throw new CorruptPayload("has four literal streams at byte " + (at - origin) + " whose sizes ("
                        + s1 + ", " + s2 + ", " + s3 + ") or literal count (" + size + ") do not fit");
            }
            int p = at + 6;
            int[] lengths = {s1, s2, s3, s4};
            for (int i = 0; i < 4; i++) {
                huffman.decode(src, p, lengths[i], literals, i * segment, i < 3 ? segment : lastSegment,
                        "literal stream " + (i + 1) + " at byte " + (p - origin));
                p += lengths[i];
            }
        }
        count[0] = size;
        return streamsEnd;
    }

    private static void checkLiteralCount(int size, int at) throws CorruptPayload {
        if (size > MAX_BLOCK) {
            throw new CorruptPayload("declares " + size + " literals at byte " + at + ", more than a block holds");
        }
    }

    /** Reads the sequences section in {@code [at, end)} and executes it with the block's literals. */
    private void sequences(int at, int end, int literalCount) throws CorruptPayload {
        need(at, 1, end, "the number of sequences");
        int b0 = src[at] & 0xff;
        int count;
        if (b0 < 128) {
            count = b0;
            at += 1;
        } else if (b0 < 255) {
            need(at, 2, end, "the number of sequences");
            count = (b0 - 128 << 8) + (src[at + 1] & 0xff);
            at += 2;
        } else {
            need(at, 3, end, "the number of sequences");
            count = (src[at + 1] & 0xff) + ((src[at + 2] & 0xff) << 8) + 0x7F00;
            at += 3;
        }
        if (count == 0) {
            if (at != end) {
                throw new CorruptPayload("has " + (end - at) + " bytes after a block without sequences, at byte "
                        + (at - origin));
            }
            out.put(literals, 0, literalCount);
            return;
        }
        need(at, 1, end, "the sequence table modes");
        int modes = src[at++] & 0xff;
        if ((modes & 3) != 0) {
            throw new CorruptPayload("sets the reserved bits of its sequence table modes, at byte " + (at - 1 - origin));
        }
        int[] used = new int[1];
        llTable = table(modes >>> 6, llTable, LL_DEFAULT, MAX_LL, 9, "literal lengths", at, end, used);
        at += used[0];
        ofTable = table(modes >>> 4 & 3, ofTable, OF_DEFAULT, MAX_OF, 8, "offsets", at, end, used);
        at += used[0];
        mlTable = table(modes >>> 2 & 3, mlTable, ML_DEFAULT, MAX_ML, 9, "match lengths", at, end, used);
        at += used[0];
        BackwardBits bits = new BackwardBits(src, at, end - at, "the sequence stream at byte " + (at - origin));
        int ll = bits.read(llTable.log);
        int of = bits.read(ofTable.log);
        int ml = bits.read(mlTable.log);
        int literalAt = 0;
        for (int i = 0; i < count; i++) {
            int ofCode = ofTable.symbol[of];
            int mlCode = mlTable.symbol[ml];
            int llCode = llTable.symbol[ll];
            long offsetValue = (1L << ofCode) + readLong(bits, ofCode);
            int matchLength = ML_BASE[mlCode] + bits.read(ML_BITS[mlCode]);
            int literalLength = LL_BASE[llCode] + bits.read(LL_BITS[llCode]);
            if (bits.overflowed()) {
                throw new CorruptPayload("ends its sequence stream before sequence " + i + " of " + count);
            }
            long offset = offset(offsetValue, literalLength);
            if (literalLength > literalCount - literalAt) {
                throw new CorruptPayload("has sequence " + i + " take " + literalLength + " literals, but only "
                        + (literalCount - literalAt) + " are left");
            }
            out.put(literals, literalAt, literalLength);
            literalAt += literalLength;
            if (offset > out.position() - frameStart) {
                throw new CorruptPayload("has sequence " + i + " copy from " + offset + " bytes back, but only "
                        + (out.position() - frameStart) + " have been decoded in the frame");
            }
            out.copyBack((int) offset, matchLength, frameStart, "sequence " + i);
            if (i + 1 < count) {
                ll = llTable.base[ll] + bits.read(llTable.bits[ll]);
                ml = mlTable.base[ml] + bits.read(mlTable.bits[ml]);
                of = ofTable.base[of] + bits.read(ofTable.bits[of]);
            }
        }
        if (!bits.exhausted()) {
            throw new CorruptPayload("has a sequence stream that does not end after its " + count + " sequences");
        }
        out.put(literals, literalAt, literalCount - literalAt);
    }

    /** Reads an offset's extra bits, which may be more than {@link BackwardBits#read} takes at once. */
    private static long readLong(BackwardBits bits, int n) {
        if (n <= 24) {
            return bits.read(n);
        }
        long high = bits.read(n - 24);
        return high << 24 | bits.read(24);
    }

    /** The match offset of a sequence, from its offset value and the repeated offsets, which it updates. */
    private long offset(long value, int literalLength) throws CorruptPayload {
        if (value > 3) {
            long offset = value - 3;
            if (offset > Integer.MAX_VALUE) {
                throw new CorruptPayload("has a match offset of " + offset + " bytes");
            }
            push((int) offset);
            return offset;
        }
        int index = (int) value - (literalLength == 0 ? 0 : 1); // 0..3; with no literals, 1 means the second
        if (index == 0) {
            return repeat[0];
        }
        if (index == 1) {
            int r = repeat[1];
            repeat[1] = repeat[0];
            repeat[0] = r;
            return r;
        }
        int offset = index == 2 ? repeat[2] : repeat[0] - 1;
        if (offset <= 0) {
            throw new CorruptPayload("has a repeated match offset of 0");
        }
        push(offset);
        return offset;
    }

    private void push(int offset) {
        repeat[2] = repeat[1];
        repeat[1] = repeat[0];
        repeat[0] = offset;
    }

    /** The table a sequence mode selects: predefined (0), one symbol (1), described (2) or the previous one (3). */
    private FseTable table(int mode, FseTable previous, FseTable predefined, int maxSymbol, int maxLog, String what,
            int at, int end, int[] used) throws CorruptPayload {
        used[0] = 0;
        return switch (mode) {
            case 0 -> predefined;
            case 1 -> {
                need(at, 1, end, "the " + what + " symbol");
                int s = src[at] & 0xff;
                if (s > maxSymbol) {
                    throw new CorruptPayload("has " + what + " code " + s + ", above " + maxSymbol);
                }
                used[0] = 1;
                yield FseTable.single(s);
            }
            case 2 -> FseTable.read(src, at, end, maxSymbol, maxLog, what, used);
            default -> {
                if (previous == null) {
                    throw new CorruptPayload("repeats the " + what + " table at byte " + (at - origin)
                            + " without an earlier one in the frame");
                }
                yield previous;
            }
        };
    }

    private void need(int at, int bytes, int end, String what) throws CorruptPayload {
        if (bytes < 0 || bytes > end - at) {
            throw new CorruptPayload("ends in " + what + ", at byte " + (at - origin));
        }
    }

    private static int le(byte[] b, int at, int bytes) {
        int v = 0;
        for (int i = 0; i < bytes; i++) {
            v |= (b[at + i] & 0xff) << (8 * i);
        }
        return v;
    }
}
