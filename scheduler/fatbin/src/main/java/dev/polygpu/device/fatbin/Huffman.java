package dev.polygpu.device.fatbin;

/**
 * A zstd Huffman table for literals, read from its description, and the decoding of streams with it.
 *
 * <p>The description gives each symbol a weight (0: absent; else its code is {@code maxBits + 1 - weight} bits
 * long), for all symbols but the last, whose weight is what makes the sum of {@code 2^(weight-1)} a power of
 * two, {@code 2^maxBits}. The weights come either as 4-bit numbers (header byte 128 + count - 1) or compressed
 * with FSE (header byte below 128: the compressed size), decoded by two interleaved states. Codes are assigned
 * in order of weight, lowest first, and within a weight in order of symbol, so a lookup table indexed by the
 * next {@code maxBits} bits gives each symbol {@code 2^(weight-1)} consecutive entries.
 */
final class Huffman {
    private static final int MAX_BITS = 12;
    private static final int MAX_FSE_LOG = 6;

    private final int maxBits;
    private final byte[] symbols;
    private final byte[] lengths;

    private Huffman(int maxBits, byte[] symbols, byte[] lengths) {
        this.maxBits = maxBits;
        this.symbols = symbols;
        this.lengths = lengths;
    }

    /**
     * Reads a table description at {@code at} (bytes up to {@code end}).
     *
     * @return the table, and in {@code used[0]} the bytes the description took
     */
    static Huffman read(byte[] src, int at, int end, int[] used) throws CorruptPayload {
        if (at >= end) {
            throw new CorruptPayload("the Huffman table description is missing");
        }
        int header = src[at] & 0xff;
        int[] weights = new int[256];
        int n;
        if (header >= 128) {
            n = header - 127;
            int bytes = (n + 1) / 2;
            if (bytes > end - at - 1) {
                throw new CorruptPayload("the Huffman table's " + n + " weights run past the end of the literals");
            }
            for (int i = 0; i < n; i++) {
                int b = src[at + 1 + i / 2] & 0xff;
                weights[i] = i % 2 == 0 ? b >>> 4 : b & 15;
            }
            used[0] = 1 + bytes;
        } else {
            if (header == 0 || header > end - at - 1) {
                throw new CorruptPayload("the Huffman table's compressed weights (" + header + " bytes) are empty"
                        + " or run past the end of the literals");
            }
            n = fseWeights(src, at + 1, at + 1 + header, weights);
            used[0] = 1 + header;
        }
        return build(weights, n);
    }

    /** Decodes FSE-compressed weights from {@code [from, end)} into {@code weights}; returns how many. */
    private static int fseWeights(byte[] src, int from, int end, int[] weights) throws CorruptPayload {
        int[] used = new int[1];
        FseTable t = FseTable.read(src, from, end, 15, MAX_FSE_LOG, "Huffman weights", used);
        BackwardBits bits = new BackwardBits(src, from + used[0], end - from - used[0], "the Huffman weights");
        int s1 = bits.read(t.log);
        int s2 = bits.read(t.log);
        int n = 0;
        // Each symbol is followed by its state's update; the stream ends when an update reads past its start,
        // and then the other state's symbol is the last one.
        while (true) {
            if (n > 253) {
                throw new CorruptPayload("the Huffman table has more than 255 weights");
            }
            weights[n++] = t.symbol[s1];
            s1 = t.base[s1] + bits.read(t.bits[s1]);
            if (bits.overflowed()) {
                weights[n++] = t.symbol[s2];
                return n;
            }
            weights[n++] = t.symbol[s2];
            s2 = t.base[s2] + bits.read(t.bits[s2]);
            if (bits.overflowed()) {
                weights[n++] = t.symbol[s1];
                return n;
            }
        }
    }

    /** The table for the first {@code n} weights, completed by the last symbol's implied weight. */
    private static Huffman build(int[] weights, int n) throws CorruptPayload {
        if (n > 255) {
            throw new CorruptPayload("the Huffman table has more than 255 weights");
        }
        long sum = 0;
        for (int i = 0; i < n; i++) {
            if (weights[i] > MAX_BITS) {
                throw new CorruptPayload("the Huffman table gives symbol " + i + " weight " + weights[i]
                        + ", above " + MAX_BITS);
            }
            sum += weights[i] == 0 ? 0 : 1L << (weights[i] - 1);
        }
        if (sum == 0) {
            throw new CorruptPayload("the Huffman table gives every symbol weight 0");
        }
        int maxBits = 64 - Long.numberOfLeadingZeros(sum); // the power of two above sum
        if (maxBits > MAX_BITS) {
            throw new CorruptPayload("the Huffman table's codes are longer than " + MAX_BITS + " bits");
        }
        long rest = (1L << maxBits) - sum;
        if (Long.bitCount(rest) != 1) {
            throw new CorruptPayload("the Huffman table's weights leave " + rest + " code space for the last"
                    + " symbol, not a power of two");
        }
        weights[n] = Long.numberOfTrailingZeros(rest) + 1;
        int symbolsCount = n + 1;
        int size = 1 << maxBits;
        byte[] symbols = new byte[size];
        byte[] lengths = new byte[size];
        int index = 0;
        for (int w = 1; w <= maxBits; w++) {
            for (int s = 0; s < symbolsCount; s++) {
                if (weights[s] == w) {
                    int span = 1 << (w - 1);
                    for (int k = 0; k < span; k++) {
                        symbols[index + k] = (byte) s;
                        lengths[index + k] = (byte) (maxBits + 1 - w);
                    }
                    index += span;
                }
            }
        }
        if (index != size) {
            throw new CorruptPayload("the Huffman table's codes do not fill its " + size + " entries");
        }
        return new Huffman(maxBits, symbols, lengths);
    }

    /**
     * Decodes {@code count} literals from the stream of {@code length} bytes at {@code from} into {@code out} at
     * {@code outAt}; the stream must end exactly after the last one.
     */
    void decode(byte[] src, int from, int length, byte[] out, int outAt, int count, String what)
            throws CorruptPayload {
        BackwardBits bits = new BackwardBits(src, from, length, what);
        for (int i = 0; i < count; i++) {
            int v = bits.peek(maxBits);
            out[outAt + i] = symbols[v];
            bits.skip(lengths[v]);
        }
        if (!bits.exhausted()) {
            throw new CorruptPayload(what + " does not end after its " + count + " literals");
        }
    }
}
