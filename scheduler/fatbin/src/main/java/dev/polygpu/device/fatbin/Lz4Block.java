package dev.polygpu.device.fatbin;

/**
 * A decoder of one LZ4 block (the LZ4 block format, without the frame around it), which is what nvcc writes for
 * {@code -compress-mode=speed} (entry flag {@code 0x2000}).
 *
 * <p>A block is a series of sequences. Each starts with a token byte: its high 4 bits are the number of literal
 * bytes, its low 4 bits the match length minus 4; a field of 15 continues in the following bytes, each added,
 * until one below 255. The literals follow, then (except in the last sequence, which is literals only) a 16-bit
 * little-endian offset (1 to 65535: how far back the match starts; it may overlap the bytes it writes) and the
 * match length's continuation bytes.
 */
final class Lz4Block {
    private Lz4Block() {
    }

    /**
     * Decodes the {@code length} bytes of {@code src} from {@code from} into exactly {@code size} bytes.
     *
     * @throws CorruptPayload for a truncated block, an offset before the start, or output of another size
     */
    static byte[] decode(byte[] src, int from, int length, int size) throws CorruptPayload {
        Output out = new Output(size, 4L * length);
        int at = from;
        int end = from + length;
        if (length == 0) {
            throw new CorruptPayload("is empty; an LZ4 block has at least a token byte");
        }
        while (true) {
            if (at >= end) {
                throw new CorruptPayload("ends where a token was expected, at byte " + (at - from));
            }
            int token = src[at++] & 0xff;
            long literals = token >>> 4;
            if (literals == 15) {
                int b;
                do {
                    if (at >= end) {
                        throw new CorruptPayload("ends inside a literal length, at byte " + (at - from));
                    }
                    b = src[at++] & 0xff;
                    literals += b;
                } while (b == 255 && literals <= size);
            }
            if (literals > end - at) {
                throw new CorruptPayload("has " + literals + " literal bytes at byte " + (at - from) + ", past its"
                        + " end (" + length + " bytes)");
            }
            out.put(src, at, (int) literals);
            at += (int) literals;
            if (at == end) {
                return out.finish(); // the last sequence has no match
            }
            if (end - at < 2) {
                throw new CorruptPayload("ends inside a match offset, at byte " + (at - from));
            }
            int distance = (src[at] & 0xff) | (src[at + 1] & 0xff) << 8;
            at += 2;
            long match = (token & 15) + 4L;
            if ((token & 15) == 15) {
                int b;
                do {
                    if (at >= end) {
                        throw new CorruptPayload("ends inside a match length, at byte " + (at - from));
                    }
                    b = src[at++] & 0xff;
                    match += b;
                } while (b == 255 && match <= size);
            }
            if (match > size) {
                throw new CorruptPayload("has a match of " + match + " bytes at byte " + (at - from)
                        + ", more than the " + size + " bytes the entry header declares");
            }
            out.copyBack(distance, (int) match, 0, "a match at byte " + (at - from));
        }
    }
}
