package dev.polygpu.device.cpu.kernel.rt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The bit intrinsics against bit-by-bit reference loops, on edge cases and random inputs. */
class CudaMathBitsTest {
    private static final long SEED = 0xb175L;

    private static LongStream inputs() {
        Random random = new Random(SEED);
        LongStream edges = LongStream.of(0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE,
                Long.MAX_VALUE, 0x8000_0000L, 0x1_0000_0000L, 0xF0F0_0000_0000_0000L);
        LongStream sparse = LongStream.range(0, 64).map(i -> 1L << i);
        return LongStream.concat(LongStream.concat(edges, sparse),
                LongStream.generate(() -> random.nextLong() >>> random.nextInt(64)).limit(5000));
    }

    @Test
    void thirtyTwoBitIntrinsics() {
        inputs().forEach(v -> {
            int x = (int) v;
            int pop = 0;
            int lowest = 0;
            int leading = 32;
            int reversed = 0;
            for (int bit = 0; bit < 32; bit++) {
                if ((x >>> bit & 1) != 0) {
                    pop++;
                    lowest = lowest == 0 ? bit + 1 : lowest;
                    leading = 31 - bit;
                    reversed |= 1 << (31 - bit);
                }
            }
            String where = " of " + Integer.toHexString(x) + " (seed " + SEED + ")";
            assertEquals(pop, IntegerIntrinsics.popc(x), "popc" + where);
            assertEquals(lowest, IntegerIntrinsics.ffs(x), "ffs" + where);
            assertEquals(leading, IntegerIntrinsics.clz(x), "clz" + where);
            assertEquals(reversed, IntegerIntrinsics.brev(x), "brev" + where);
        });
    }

    @Test
    void sixtyFourBitIntrinsics() {
        inputs().forEach(x -> {
            int pop = 0;
            int lowest = 0;
            int leading = 64;
            long reversed = 0;
            for (int bit = 0; bit < 64; bit++) {
                if ((x >>> bit & 1) != 0) {
                    pop++;
                    lowest = lowest == 0 ? bit + 1 : lowest;
                    leading = 63 - bit;
                    reversed |= 1L << (63 - bit);
                }
            }
            String where = " of " + Long.toHexString(x) + " (seed " + SEED + ")";
            assertEquals(pop, IntegerIntrinsics.popcll(x), "popcll" + where);
            assertEquals(lowest, IntegerIntrinsics.ffsll(x), "ffsll" + where);
            assertEquals(leading, IntegerIntrinsics.clzll(x), "clzll" + where);
            assertEquals(reversed, IntegerIntrinsics.brevll(x), "brevll" + where);
        });
    }

    @Test
    void edgeValues() {
        assertEquals(0, IntegerIntrinsics.ffs(0));
        assertEquals(32, IntegerIntrinsics.clz(0));
        assertEquals(0, IntegerIntrinsics.clz(-1));
        assertEquals(32, IntegerIntrinsics.ffs(Integer.MIN_VALUE));
        assertEquals(1, IntegerIntrinsics.brev(Integer.MIN_VALUE));
        assertEquals(32, IntegerIntrinsics.popc(-1));
        assertEquals(64, IntegerIntrinsics.clzll(0));
        assertEquals(64, IntegerIntrinsics.ffsll(Long.MIN_VALUE));
        assertEquals(64, IntegerIntrinsics.popcll(-1L));
    }
}
