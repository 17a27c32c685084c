package dev.polygpu.device.cpu.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.cpu.CpuDevice;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code bfind}, {@code shf}, {@code dp4a} and {@code dp2a}, which nvcc emits for {@code __ffs}/{@code __clz} of
 * some operands, funnel shifts and rotates, {@code __dp4a} and plain loops over bytes (the differential oracle's
 * corpus found them missing). One thread per input row: edge rows, then random ones from a fixed seed. Expected
 * values are computed here from the PTX ISA's definitions, bit by bit or with {@link BigInteger}.
 */
class PtxBitOpsTest {
    private static final long SEED = 0xB1F_D4AL;
    private static CpuDevice device;

    @BeforeAll
    static void open() {
        device = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        device.close();
    }

    private static void check(long expected, int got, String what, int[] row) {
        assertEquals(Long.toHexString(expected & 0xFFFF_FFFFL), Integer.toHexString(got), what + " for inputs "
                + Arrays.toString(row) + " (seed 0x" + Long.toHexString(SEED) + ")");
    }

    /** The highest bit of the {@code width}-bit {@code v} that is 1 (unsigned) or differs from the sign bit. */
    private static int highestNonSignBit(long v, int width, boolean signed) {
        int sign = (int) ((v >>> (width - 1)) & 1);
        for (int bit = width - 1; bit >= 0; bit--) {
            int b = (int) ((v >>> bit) & 1);
            if (signed ? b != sign : b == 1) {
                return bit;
            }
        }
        return -1;
    }

    private static long bfind(long v, int width, boolean signed, boolean shiftAmount) {
        int bit = highestNonSignBit(v, width, signed);
        return bit < 0 ? 0xFFFF_FFFFL : shiftAmount ? width - 1 - bit : bit;
    }

    @Test
    void bfindFindsTheMostSignificantNonSignBit() {
        String body = "\tbfind.u32 %d0, %a0;\n\tbfind.s32 %d1, %a0;\n\tbfind.shiftamt.u32 %d2, %a0;\n"
                + "\tbfind.shiftamt.s32 %d3, %a0;\n\tbfind.u64 %d4, %x1;\n\tbfind.s64 %d5, %x1;\n"
                + "\tbfind.shiftamt.s64 %d6, %x1;\n";
        List<int[]> rows = PtxRows.rows(SEED, 40,
                new int[] {0, 0, 0, 0}, new int[] {-1, 0, -1, -1}, new int[] {1, 0, 1, 0},
                new int[] {Integer.MIN_VALUE, 0, 0, Integer.MIN_VALUE}, new int[] {Integer.MAX_VALUE, 0, 0, 0x40},
                new int[] {-2, 0, 0, 0xFFFF_FFFE});
        int[] got = PtxRows.run(device, "bitops.ptx", body, rows);
        for (int i = 0; i < rows.size(); i++) {
            int[] r = rows.get(i);
            int[] g = Arrays.copyOfRange(got, 16 * i, 16 * i + 8);
            long a = r[0] & 0xFFFF_FFFFL;
            long x1 = (r[2] & 0xFFFF_FFFFL) | ((long) r[3] << 32);
            check(bfind(a, 32, false, false), g[0], "bfind.u32", r);
            check(bfind(a, 32, true, false), g[1], "bfind.s32", r);
            check(bfind(a, 32, false, true), g[2], "bfind.shiftamt.u32", r);
            check(bfind(a, 32, true, true), g[3], "bfind.shiftamt.s32", r);
            check(bfind(x1, 64, false, false), g[4], "bfind.u64", r);
            check(bfind(x1, 64, true, false), g[5], "bfind.s64", r);
            check(bfind(x1, 64, true, true), g[6], "bfind.shiftamt.s64", r);
        }
        assertEquals(-1, got[0]); // 0 has no set bit
        assertEquals(-1, got[16 + 1]); // -1 has no bit that differs from its sign
        assertEquals(30, got[16 * 3 + 1]); // INT_MIN: bit 30 is the highest 0
        assertEquals(31, got[16 * 5 + 3]); // -2 = 1...10: only bit 0 differs from the sign, 31 - 0
    }

    /** b:a shifted left (upper word) or right (lower word) by n, n taken modulo 32 or capped at 32. */
    private static long funnel(int a, int b, long n, boolean left, boolean wrap) {
        BigInteger pair = BigInteger.valueOf(Integer.toUnsignedLong(b)).shiftLeft(32)
                .or(BigInteger.valueOf(Integer.toUnsignedLong(a)));
        int amount = (int) (wrap ? n % 32 : Math.min(n, 32));
        BigInteger shifted = left ? pair.shiftLeft(amount).shiftRight(32) : pair.shiftRight(amount);
        return shifted.mod(BigInteger.ONE.shiftLeft(32)).longValue();
    }

    @Test
    void shfShiftsTheConcatenationOfTwoWords() {
        String body = "\tshf.l.wrap.b32 %d0, %a0, %a1, %a2;\n\tshf.l.clamp.b32 %d1, %a0, %a1, %a2;\n"
                + "\tshf.r.wrap.b32 %d2, %a0, %a1, %a2;\n\tshf.r.clamp.b32 %d3, %a0, %a1, %a2;\n"
                + "\tshf.l.wrap.b32 %d4, %a0, %a1, 5;\n\tshf.r.clamp.b32 %d5, %a0, %a1, 40;\n";
        List<int[]> rows = PtxRows.rows(SEED + 1, 40,
                new int[] {0x1234_5678, 0x9ABC_DEF0, 0}, new int[] {0x1234_5678, 0x9ABC_DEF0, 31},
                new int[] {0x1234_5678, 0x9ABC_DEF0, 32}, new int[] {0x1234_5678, 0x9ABC_DEF0, 33},
                new int[] {-1, 0, -1}, new int[] {1, Integer.MIN_VALUE, 1});
        int[] got = PtxRows.run(device, "bitops.ptx", body, rows);
        for (int i = 0; i < rows.size(); i++) {
            int[] r = rows.get(i);
            int[] g = Arrays.copyOfRange(got, 16 * i, 16 * i + 8);
            long n = Integer.toUnsignedLong(r[2]);
            check(funnel(r[0], r[1], n, true, true), g[0], "shf.l.wrap", r);
            check(funnel(r[0], r[1], n, true, false), g[1], "shf.l.clamp", r);
            check(funnel(r[0], r[1], n, false, true), g[2], "shf.r.wrap", r);
            check(funnel(r[0], r[1], n, false, false), g[3], "shf.r.clamp", r);
            check(funnel(r[0], r[1], 5, true, true), g[4], "shf.l.wrap by 5", r);
            check(funnel(r[0], r[1], 40, false, false), g[5], "shf.r.clamp by 40", r);
        }
        assertEquals(0x1234_5678, got[16 * 2 + 1]); // clamped at 32: the lower word moves up whole
        assertEquals(0x9ABC_DEF0, got[16 * 2 + 3]); // and right by 32 leaves the upper word
        assertEquals(0x9ABC_DEF0, got[16 * 2]); // wrap: 32 is a shift by 0, which leaves the upper word b
    }

    private static long part(int v, int width, int index, boolean signed) {
        long p = (Integer.toUnsignedLong(v) >>> (width * index)) & ((1L << width) - 1);
        return signed && p >= 1L << (width - 1) ? p - (1L << width) : p;
    }

    private static long dp4a(int a, int b, int c, boolean sa, boolean sb) {
        long sum = c;
        for (int i = 0; i < 4; i++) {
            sum += part(a, 8, i, sa) * part(b, 8, i, sb);
        }
        return sum;
    }

    private static long dp2a(int a, int b, int c, boolean hi, boolean sa, boolean sb) {
        int first = hi ? 2 : 0;
        return c + part(a, 16, 0, sa) * part(b, 8, first, sb) + part(a, 16, 1, sa) * part(b, 8, first + 1, sb);
    }

    @Test
    void dp4aAndDp2aSumTheProductsOfBytesAndHalfWords() {
        String body = "\tdp4a.s32.s32 %d0, %a0, %a1, %a2;\n\tdp4a.u32.u32 %d1, %a0, %a1, %a2;\n"
                + "\tdp4a.s32.u32 %d2, %a0, %a1, %a2;\n\tdp4a.u32.s32 %d3, %a0, %a1, %a2;\n"
                + "\tdp2a.lo.s32.s32 %d4, %a0, %a1, %a2;\n\tdp2a.hi.s32.s32 %d5, %a0, %a1, %a2;\n"
                + "\tdp2a.lo.u32.u32 %d6, %a0, %a1, %a2;\n\tdp2a.hi.u32.s32 %d7, %a0, %a1, %a2;\n";
        List<int[]> rows = PtxRows.rows(SEED + 2, 40,
                new int[] {0x8080_8080, 0x8080_8080, 0}, new int[] {-1, -1, 7}, new int[] {0x7F7F_7F7F, 0x8180_7F01, -1},
                new int[] {0xFFFF_8000, 0x0102_8081, Integer.MAX_VALUE});
        int[] got = PtxRows.run(device, "bitops.ptx", body, rows);
        for (int i = 0; i < rows.size(); i++) {
            int[] r = rows.get(i);
            int[] g = Arrays.copyOfRange(got, 16 * i, 16 * i + 8);
            check(dp4a(r[0], r[1], r[2], true, true), g[0], "dp4a.s32.s32", r);
            check(dp4a(r[0], r[1], r[2], false, false), g[1], "dp4a.u32.u32", r);
            check(dp4a(r[0], r[1], r[2], true, false), g[2], "dp4a.s32.u32", r);
            check(dp4a(r[0], r[1], r[2], false, true), g[3], "dp4a.u32.s32", r);
            check(dp2a(r[0], r[1], r[2], false, true, true), g[4], "dp2a.lo.s32.s32", r);
            check(dp2a(r[0], r[1], r[2], true, true, true), g[5], "dp2a.hi.s32.s32", r);
            check(dp2a(r[0], r[1], r[2], false, false, false), g[6], "dp2a.lo.u32.u32", r);
            check(dp2a(r[0], r[1], r[2], true, false, true), g[7], "dp2a.hi.u32.s32", r);
        }
        assertEquals(4 * 128 * 128, got[0]); // four (-128)^2
        assertEquals(4 * 128 * 128, got[1]); // and as unsigned bytes 128 * 128
        assertEquals(4 * 255 * 255 + 7, got[16 + 1]);
        assertEquals(4 + 7, got[16]); // signed: four (-1)^2
    }
}
