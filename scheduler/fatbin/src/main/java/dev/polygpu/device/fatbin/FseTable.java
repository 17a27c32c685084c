package dev.polygpu.device.fatbin;

/**
 * A decoding table of zstd's finite state entropy (FSE) code: for each state, the symbol it stands for, and how
 * the next state is made (a base plus that many bits read from the stream).
 *
 * <p>A table comes from a distribution: each symbol's normalized count out of {@code 2^log}, or -1 for a
 * symbol less probable than that, which gets one state at the top of the table. The other symbols' states are
 * spread over the table by stepping {@code size/2 + size/8 + 3} positions at a time (skipping the top states),
 * symbol after symbol. The k-th state of a symbol with count c has "next" value {@code c + k}; it reads
 * {@code log - floor(log2(next))} bits, and its base is {@code (next << bits) - size}.
 */
final class FseTable {
    final int log;
    final int[] symbol;
    final int[] bits;
    final int[] base;

    private FseTable(int log) {
        this.log = log;
        int size = 1 << log;
        this.symbol = new int[size];
        this.bits = new int[size];
        this.base = new int[size];
    }

    /** A table of one state that always stands for {@code s} and reads no bits (zstd's RLE mode). */
    static FseTable single(int s) {
        FseTable t = new FseTable(0);
        t.symbol[0] = s;
        return t;
    }

    /**
     * The table of a distribution whose counts add up to {@code 2^log} (each -1 counting as 1), which the caller
     * has checked.
     */
    static FseTable of(int[] counts, int symbols, int log) throws CorruptPayload {
        FseTable t = new FseTable(log);
        int size = 1 << log;
        int high = size - 1;
        int[] next = new int[symbols];
        for (int s = 0; s < symbols; s++) {
            if (counts[s] == -1) {
                if (high < 0) {
                    throw new CorruptPayload("an FSE distribution has more symbols than its " + size + " states");
                }
                t.symbol[high--] = s;
                next[s] = 1;
            } else {
                next[s] = counts[s];
            }
        }
        int step = (size >>> 1) + (size >>> 3) + 3;
        int position = 0;
        for (int s = 0; s < symbols; s++) {
            for (int i = 0; i < counts[s]; i++) {
                t.symbol[position] = s;
                // The step is odd and the size a power of two, so this visits every state: it stops unless
                // high < 0, which the count check above excludes when any count is positive.
                do {
                    position = (position + step) & (size - 1);
                } while (position > high);
            }
        }
        if (position != 0) {
            throw new CorruptPayload("an FSE distribution does not fill its table of " + size + " states");
        }
        for (int state = 0; state < size; state++) {
            int n = next[t.symbol[state]]++;
            int b = log - (31 - Integer.numberOfLeadingZeros(n));
            t.bits[state] = b;
            t.base[state] = (n << b) - size;
        }
        return t;
    }

    /**
     * Reads a table description from {@code src} at {@code at} (bytes up to {@code end}): the accuracy log (low 4
     * bits, plus 5; at most {@code maxLog}), then the counts of symbols 0, 1, … as variable-width fields. Each
     * field codes count + 1 in as few bits as the probability still to hand out allows (values below a threshold
     * take one bit less); a count of 0 is followed by 2-bit repeat fields, each adding that many more zero
     * counts, continuing while one is 3. The description ends when the counts add up to {@code 2^log}, and takes
     * whole bytes.
     *
     * @param what the table's name for messages ({@code literal lengths})
     * @return the table, and in {@code used[0]} the bytes the description took
     */
    static FseTable read(byte[] src, int at, int end, int maxSymbol, int maxLog, String what, int[] used)
            throws CorruptPayload {
        ForwardBits in = new ForwardBits(src, at, end, "the " + what + " table description");
        int log = in.read(4) + 5;
        if (log > maxLog) {
            throw new CorruptPayload("the " + what + " table has accuracy log " + log + ", above the maximum "
                    + maxLog);
        }
        int[] counts = new int[maxSymbol + 1];
        int remaining = (1 << log) + 1;
        int threshold = 1 << log;
        int width = log + 1;
        int s = 0;
        boolean afterZero = false;
        while (remaining > 1) {
            if (afterZero) {
                int repeat;
                do {
                    repeat = in.read(2);
                    s += repeat;
                    if (s > maxSymbol) {
                        throw new CorruptPayload("the " + what + " table describes symbols beyond " + maxSymbol);
                    }
                } while (repeat == 3);
            }
            if (s > maxSymbol) {
                throw new CorruptPayload("the " + what + " table describes symbols beyond " + maxSymbol);
            }
            int max = 2 * threshold - 1 - remaining;
            int v = in.peek(width);
            int count;
            if ((v & (threshold - 1)) < max) {
                count = v & (threshold - 1);
                in.skip(width - 1);
            } else {
                count = v & (2 * threshold - 1);
                if (count >= threshold) {
                    count -= max;
                }
                in.skip(width);
            }
            count--;
            remaining -= Math.abs(count);
            if (remaining < 1) {
                throw new CorruptPayload("the " + what + " table's counts add up to more than " + (1 << log));
            }
            counts[s++] = count;
            afterZero = count == 0;
            while (remaining < threshold) {
                width--;
                threshold >>>= 1;
            }
        }
        in.checkWithin();
        used[0] = in.bytesUsed();
        return of(counts, s, log);
    }

    /** A distribution of zstd's predefined tables, as a table. */
    static FseTable predefined(int[] counts, int log) {
        try {
            return of(counts, counts.length, log);
        } catch (CorruptPayload e) {
            throw new IllegalStateException("a predefined zstd distribution does not fill its table", e);
        }
    }

    /** A bit stream read forwards, lowest bit first, as table descriptions are written. */
    private static final class ForwardBits {
        private final byte[] b;
        private final int start;
        private final int end;
        private final String what;
        private long at;

        ForwardBits(byte[] b, int start, int end, String what) {
            this.b = b;
            this.start = start;
            this.end = end;
            this.what = what;
        }

        int peek(int n) {
            int v = 0;
            for (int i = 0; i < n; i++) {
                long bit = at + i;
                long index = start + (bit >>> 3);
                if (index < end) {
                    v |= ((b[(int) index] >>> (bit & 7)) & 1) << i;
                }
            }
            return v;
        }

        int read(int n) throws CorruptPayload {
            int v = peek(n);
            skip(n);
            checkWithin();
            return v;
        }

        void skip(int n) {
            at += n;
        }

        void checkWithin() throws CorruptPayload {
            if (at > 8L * (end - start)) {
                throw new CorruptPayload(what + " runs past the end of its block");
            }
        }

        int bytesUsed() {
            return (int) ((at + 7) >>> 3);
        }
    }
}
