package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.longs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code mul24}/{@code mad24}, {@code sad} and the carry chains ({@code add.cc}, {@code addc}, {@code sub.cc},
 * {@code subc}, {@code mad.cc}, {@code madc}). Each test runs a body on one thread per input row: edge rows
 * written out (24-bit truncation, signs, carries through every limb) then random ones from a fixed seed. The
 * expected values are computed here with {@link BigInteger} from the PTX ISA's definitions.
 */
class PtxIntegerOpsTest {
    private static final long SEED = 0x5EED_24CCL;
    private static final int RANDOM_ROWS = 60;
    private static final BigInteger TWO_32 = BigInteger.ONE.shiftLeft(32);
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
    private static CpuDevice device;

    @BeforeAll
    static void open() {
        device = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        device.close();
    }

    private static int[] run(String body, List<int[]> rows) {
        return PtxRows.run(device, "intops.ptx", body, rows);
    }

    private static List<int[]> rows(int[]... edges) {
        return PtxRows.rows(SEED, RANDOM_ROWS, edges);
    }

    private static BigInteger unsigned(int v) {
        return BigInteger.valueOf(Integer.toUnsignedLong(v));
    }

    /** The unsigned number whose 32-bit limbs, least significant first, are {@code limbs}. */
    private static BigInteger limbs(int... limbs) {
        BigInteger v = BigInteger.ZERO;
        for (int i = limbs.length - 1; i >= 0; i--) {
            v = v.shiftLeft(32).or(unsigned(limbs[i]));
        }
        return v;
    }

    /** Bits {@code from} up of {@code v} (two's complement), as an unsigned 32-bit value. */
    private static long bits32(BigInteger v, int from) {
        return v.shiftRight(from).mod(TWO_32).longValue();
    }

    /** The low 24 bits of {@code v} as a signed (two's complement) or unsigned number. */
    private static BigInteger low24(int v, boolean signed) {
        int low = v & 0xFF_FFFF;
        return BigInteger.valueOf(signed && low >= 0x80_0000 ? low - 0x100_0000 : low);
    }

    private static void check(long expected, int got, String what, int[] row) {
        assertEquals(Long.toHexString(expected & 0xFFFF_FFFFL), Integer.toHexString(got), what + " for inputs "
                + hex(row) + " (seed 0x" + Long.toHexString(SEED) + ")");
    }

    private static String hex(int[] row) {
        StringBuilder s = new StringBuilder("[");
        for (int v : row) {
            s.append(s.length() > 1 ? " " : "").append(Integer.toHexString(v));
        }
        return s.append(']').toString();
    }

    @Test
    void mul24AndMad24UseTheLow24BitsAndHiIsBits47To16() {
        String body = "\tmul24.lo.s32 %d0, %a0, %a1;\n\tmul24.hi.s32 %d1, %a0, %a1;\n"
                + "\tmul24.lo.u32 %d2, %a0, %a1;\n\tmul24.hi.u32 %d3, %a0, %a1;\n"
                + "\tmad24.lo.s32 %d4, %a0, %a1, %a2;\n\tmad24.hi.s32 %d5, %a0, %a1, %a2;\n"
                + "\tmad24.hi.sat.s32 %d6, %a0, %a1, %a2;\n\tmad24.hi.u32 %d7, %a0, %a1, %a2;\n";
        List<int[]> rows = rows(
                new int[] {0x0080_0000, 0x0080_0000, 0x7FFF_FFFF}, // (-2^23)^2 = 2^46: .hi 2^30, sat clamps
                new int[] {0xFF80_0000, 0x1280_0000, 0x8000_0000}, // high bytes ignored
                new int[] {0x00FF_FFFF, 0x0000_0003, 0x8000_0000}, // -1 * 3 signed; 2^24-1 * 3 unsigned
                new int[] {0x007F_FFFF, 0x0080_0000, 0x8000_0000}, // most negative product; sat at INT_MIN
                new int[] {0x00FF_FFFF, 0x00FF_FFFF, 5},
                new int[] {0x1234_5678, 0x9ABC_DEF0, 0x0F0F_0F0F});
        int[] got = run(body, rows);
        for (int i = 0; i < rows.size(); i++) {
            int[] r = rows.get(i);
            int[] g = java.util.Arrays.copyOfRange(got, 16 * i, 16 * i + 8);
            BigInteger ps = low24(r[0], true).multiply(low24(r[1], true));
            BigInteger pu = low24(r[0], false).multiply(low24(r[1], false));
            check(bits32(ps, 0), g[0], "mul24.lo.s32", r);
            check(bits32(ps, 16), g[1], "mul24.hi.s32", r);
            check(bits32(pu, 0), g[2], "mul24.lo.u32", r);
            check(bits32(pu, 16), g[3], "mul24.hi.u32", r);
            check(bits32(ps, 0) + r[2], g[4], "mad24.lo.s32", r);
            check(bits32(ps, 16) + r[2], g[5], "mad24.hi.s32", r);
            long sum = (long) (int) bits32(ps, 16) + r[2];
            check(Math.clamp(sum, Integer.MIN_VALUE, Integer.MAX_VALUE), g[6], "mad24.hi.sat.s32", r);
            check(bits32(pu, 16) + r[2], g[7], "mad24.hi.u32", r);
        }
        // the edge rows do what they are there for
        assertEquals(1 << 30, got[1]);
        assertEquals(Integer.MAX_VALUE, got[6]);
        assertEquals(Integer.MIN_VALUE, got[16 * 3 + 6]);
    }

    @Test
    void sadAddsTheAbsoluteDifferenceInEveryWidth() {
        String body = "\tsad.s32 %d0, %a0, %a1, %a2;\n\tsad.u32 %d1, %a0, %a1, %a2;\n"
                + "\tmov.b32 {%h0, %h1}, %a0;\n\tmov.b32 {%h2, %h3}, %a1;\n"
                + "\tsad.u16 %h3, %h0, %h1, %h3;\n\tsad.s16 %h2, %h0, %h1, %h2;\n\tmov.b32 %d2, {%h2, %h3};\n"
                + "\tsad.s64 %y0, %x0, %x1, %x2;\n\tsad.u64 %y1, %x0, %x1, %x2;\n";
        List<int[]> rows = rows(
                new int[] {-5, 7, 100, 0, 0, 0}, // signed |-5 - 7| = 12; unsigned |0xFFFFFFFB - 7|
                new int[] {7, -5, 1, 0, 0, 0},
                new int[] {0x7FFF_8000, 3, 0, 0, 1, 0}, // 16-bit halves 0x8000 and 0x7FFF
                new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, 0, 0x8000_0000, 0x7FFF_FFFF});
        int[] got = run(body, rows);
        for (int i = 0; i < rows.size(); i++) {
            int[] r = rows.get(i);
            int[] g = java.util.Arrays.copyOfRange(got, 16 * i, 16 * i + 16);
            BigInteger c = unsigned(r[2]);
            check(bits32(BigInteger.valueOf(r[0]).subtract(BigInteger.valueOf(r[1])).abs().add(c), 0), g[0],
                    "sad.s32", r);
            check(bits32(unsigned(r[0]).subtract(unsigned(r[1])).abs().add(c), 0), g[1], "sad.u32", r);
            int lo = r[0] & 0xFFFF;
            int hi = r[0] >>> 16;
            long s16 = ((r[1] & 0xFFFF) + Math.abs((int) (short) lo - (int) (short) hi)) & 0xFFFF;
            long u16 = ((r[1] >>> 16) + Math.abs(lo - hi)) & 0xFFFF;
            check(s16 | u16 << 16, g[2], "sad.s16 and sad.u16", r);
            BigInteger x0 = limbs(r[0], r[1]);
            BigInteger x1 = limbs(r[2], r[3]);
            BigInteger x2 = limbs(r[4], r[5]);
            BigInteger sx0 = x0.testBit(63) ? x0.subtract(TWO_64) : x0;
            BigInteger sx1 = x1.testBit(63) ? x1.subtract(TWO_64) : x1;
            BigInteger s64 = sx0.subtract(sx1).abs().add(x2).mod(TWO_64);
            BigInteger u64 = x0.subtract(x1).abs().add(x2).mod(TWO_64);
            check(bits32(s64, 0), g[8], "sad.s64 (low)", r);
            check(bits32(s64, 32), g[9], "sad.s64 (high)", r);
            check(bits32(u64, 0), g[10], "sad.u64 (low)", r);
            check(bits32(u64, 32), g[11], "sad.u64 (high)", r);
        }
    }

    @Test
    void addAndSubChainsOf32BitLimbsCarryAcross128And96Bits() {
        String body = "\tadd.cc.u32 %d0, %a0, %a4;\n\taddc.cc.u32 %d1, %a1, %a5;\n\taddc.cc.s32 %d2, %a2, %a6;\n"
                + "\taddc.cc.u32 %d3, %a3, %a7;\n\taddc.u32 %d4, 0, 0;\n"
                + "\tsub.cc.s32 %d5, %a0, %a4;\n\tsubc.cc.u32 %d6, %a1, %a5;\n\tsubc.u32 %d7, %a2, %a6;\n";
        List<int[]> rows = rows(
                new int[] {-1, -1, -1, -1, 1, 0, 0, 0}, // carry through every limb: 2^128 - 1 + 1
                new int[] {0, 0, 5, 0, 1, 0, 5, 0}, // borrow through limbs equal to the subtrahend's
                new int[] {0, 0, 0, 0, 0, 0, 1, 0}, // negative 96-bit difference wraps
                new int[] {-1, 0, -1, 0, 1, -1, 1, 0}); // carry in with sum limb 0xFFFFFFFF
        int[] got = run(body, rows);
        BigInteger two96 = BigInteger.ONE.shiftLeft(96);
        for (int i = 0; i < rows.size(); i++) {
            int[] r = rows.get(i);
            int[] g = java.util.Arrays.copyOfRange(got, 16 * i, 16 * i + 8);
            BigInteger sum = limbs(r[0], r[1], r[2], r[3]).add(limbs(r[4], r[5], r[6], r[7]));
            for (int l = 0; l < 5; l++) {
                check(bits32(sum, 32 * l), g[l], "128-bit sum limb " + l, r);
            }
            BigInteger diff = limbs(r[0], r[1], r[2]).subtract(limbs(r[4], r[5], r[6])).mod(two96);
            for (int l = 0; l < 3; l++) {
                check(bits32(diff, 32 * l), g[5 + l], "96-bit difference limb " + l, r);
            }
        }
        assertEquals(List.of(0, 0, 0, 0, 1), java.util.Arrays.stream(got, 0, 5).boxed().toList());
        assertEquals(List.of(-1, -1, -1), java.util.Arrays.stream(got, 16 + 5, 16 + 8).boxed().toList());
    }

    @Test
    void addAndSubChainsOf64BitLimbsGiveTheCarryAndBorrowOut() {
        String add = "\tadd.cc.u64 %y0, %x0, %x2;\n\taddc.cc.s64 %y1, %x1, %x3;\n\taddc.u64 %y2, 0, 0;\n";
        String sub = "\tsub.cc.u64 %y0, %x0, %x2;\n\tsubc.cc.s64 %y1, %x1, %x3;\n\tsubc.u64 %y2, 0, 0;\n";
        List<int[]> rows = rows(
                new int[] {-1, -1, -1, -1, 1, 0, 0, 0},
                new int[] {0, 0, 1, 0, 1, 0, 1, 0}, // 2^64 - (2^64 + 1): borrow with equal high limbs
                new int[] {-1, -1, 0, 0, -1, -1, 0, 0}, // equal low limbs, no borrow in
                new int[] {0, 0, 7, 0, 0, 0, 7, 0});
        int[] sums = run(add, rows);
        int[] diffs = run(sub, rows);
        BigInteger two128 = BigInteger.ONE.shiftLeft(128);
        for (int i = 0; i < rows.size(); i++) {
            int[] r = rows.get(i);
            BigInteger a = limbs(r[0], r[1], r[2], r[3]);
            BigInteger b = limbs(r[4], r[5], r[6], r[7]);
            BigInteger sum = a.add(b);
            BigInteger diff = a.subtract(b).mod(two128).add(a.compareTo(b) < 0
                    ? TWO_64.subtract(BigInteger.ONE).shiftLeft(128) : BigInteger.ZERO);
            for (int l = 0; l < 6; l++) {
                check(bits32(sum, 32 * l), sums[16 * i + 8 + l], "128-bit sum limb " + l, r);
                check(bits32(diff, 32 * l), diffs[16 * i + 8 + l], "128-bit difference limb " + l
                        + " (limbs 4 and 5: all ones after a borrow out)", r);
            }
        }
        assertEquals(1, sums[8 + 4]);
        assertEquals(-1, diffs[16 + 8 + 4]);
    }

    @Test
    void madCarryChainsMultiplyMultiWordNumbers() {
        // [d3,d2,d1,d0] = [a1,a0] * [a3,a2] in 32-bit limbs (the PTX ISA's madc example)
        String body = "\tmul.lo.u32 %d0, %a0, %a2;\n\tmul.hi.u32 %d1, %a0, %a2;\n"
                + "\tmad.lo.cc.u32 %d1, %a1, %a2, %d1;\n\tmadc.hi.u32 %d2, %a1, %a2, 0;\n"
                + "\tmad.lo.cc.u32 %d1, %a0, %a3, %d1;\n\tmadc.hi.cc.u32 %d2, %a0, %a3, %d2;\n"
                + "\taddc.u32 %d3, 0, 0;\n\tmad.lo.cc.u32 %d2, %a1, %a3, %d2;\n\tmadc.hi.u32 %d3, %a1, %a3, %d3;\n"
                // a signed high half with a carry out: d4 = hi(a4 * a5) + a6, d5 = its carry
                + "\tmad.hi.cc.s32 %d4, %a4, %a5, %a6;\n\taddc.u32 %d5, 0, 0;\n"
                // [y2,y1,y0] = [x1,x0] * x2 in 64-bit limbs
                + "\tmul.lo.u64 %y0, %x0, %x2;\n\tmul.hi.u64 %y1, %x0, %x2;\n"
                + "\tmad.lo.cc.u64 %y1, %x1, %x2, %y1;\n\tmadc.hi.u64 %y2, %x1, %x2, 0;\n"
                // y3 = hi(x3 * x3, signed) + x0 + 1: the borrow of 0 - 1 is the carry in
                + "\tsub.cc.u32 %d6, 0, 1;\n\tmadc.hi.s64 %y3, %x3, %x3, %x0;\n";
        List<int[]> rows = rows(
                new int[] {-1, -1, -1, -1, -1, -1, 1, 0},
                new int[] {-1, -1, -1, -1, 0x4000_0000, 4, -1, -1},
                new int[] {0, 1, 0, 1, -2, 3, 0, 0x8000_0000});
        int[] got = run(body, rows);
        for (int i = 0; i < rows.size(); i++) {
            int[] r = rows.get(i);
            int[] g = java.util.Arrays.copyOfRange(got, 16 * i, 16 * i + 16);
            BigInteger p = limbs(r[0], r[1]).multiply(limbs(r[2], r[3]));
            for (int l = 0; l < 4; l++) {
                check(bits32(p, 32 * l), g[l], "64x64-bit product limb " + l, r);
            }
            BigInteger hiPlus = BigInteger.valueOf((long) r[4] * r[5]).shiftRight(32).mod(TWO_32).add(unsigned(r[6]));
            check(bits32(hiPlus, 0), g[4], "mad.hi.cc.s32", r);
            check(bits32(hiPlus, 32), g[5], "carry out of mad.hi.cc.s32", r);
            BigInteger q = limbs(r[0], r[1], r[2], r[3]).multiply(limbs(r[4], r[5]));
            for (int l = 0; l < 6; l++) {
                check(bits32(q, 32 * l), g[8 + l], "128x64-bit product limb " + l, r);
            }
            BigInteger x3 = limbs(r[6], r[7]);
            BigInteger sx3 = x3.testBit(63) ? x3.subtract(TWO_64) : x3;
            BigInteger y3 = sx3.multiply(sx3).shiftRight(64).add(limbs(r[0], r[1])).add(BigInteger.ONE).mod(TWO_64);
            check(bits32(y3, 0), g[14], "madc.hi.s64 (low)", r);
            check(bits32(y3, 32), g[15], "madc.hi.s64 (high)", r);
        }
        assertEquals(1, got[16 + 5]); // 0x10000000 + 0xFFFFFFFF carries
    }

    @Test
    void carryFlagStartsClearedInEveryThread() {
        int[] got = run("\taddc.u32 %d0, %a0, %a1;\n\tsubc.u32 %d1, %a0, %a1;\n",
                List.of(new int[] {5, 3, 0, 0, 0, 0, 0, 0}, new int[] {-1, -1, 0, 0, 0, 0, 0, 0}));
        assertEquals(List.of(8, 2), List.of(got[0], got[1]));
        assertEquals(List.of(-2, 0), List.of(got[16], got[17]));
    }

    @Test
    void malformedOrUnsupportedFormsAreRefusedAtLoad() {
        String[][] cases = {
            {"mad24.lo.sat.s32 %d0, %a0, %a1, %a2", "INVALID_PTX", ".sat"},
            {"mul24.s32 %d0, %a0, %a1", "INVALID_PTX", ".lo and .hi"},
            {"mul24.lo.u16 %h0, %h1, %h2", "NOT_SUPPORTED", "type .u16 for mul24"},
            {"sad.f32 %d0, %a0, %a1, %a2", "NOT_SUPPORTED", "type .f32 for sad"},
            {"addc.cc.b32 %d0, %a0, %a1", "NOT_SUPPORTED", "type .b32 for addc"},
            {"add.cc.f32 %d0, %a0, %a1", "NOT_SUPPORTED", "type .f32 for add"},
            {"mad.wide.cc.u32 %y0, %a0, %a1, %y1", "NOT_SUPPORTED", "modifier .wide"},
            {"subc.cc.u32 %d0, %a0", "INVALID_PTX", "takes 3 operands"},
        };
        for (String[] c : cases) {
            DeviceException e = assertThrows(DeviceException.class, () -> run("\t" + c[0] + ";\n", rows()),
                    c[0]);
            assertEquals(CudaError.valueOf(c[1]), e.error(), e.getMessage());
            assertTrue(e.getMessage().startsWith("intops.ptx:") && e.getMessage().contains(c[2])
                    && e.getMessage().contains(c[0]), e.getMessage());
        }
    }

    /** nvcc's PTX for __sad, __usad and 128-bit integer addition and subtraction ({@code ptx/intops.cu}). */
    @Test
    void nvccKernelsWithSadAndCarryChains() {
        Module m = device.load(PtxTestSupport.resource("intops_sm75.ptx"), "intops_sm75.ptx");
        Random rnd = new Random(SEED);
        int n = 100;
        int[] a = new int[n];
        int[] b = new int[n];
        int[] c = new int[n];
        long[] wa = new long[2 * n];
        long[] wb = new long[2 * n];
        for (int i = 0; i < n; i++) {
            a[i] = i < 2 ? (i == 0 ? Integer.MIN_VALUE : -1) : rnd.nextInt();
            b[i] = i < 2 ? Integer.MAX_VALUE : rnd.nextInt();
            c[i] = rnd.nextInt(1 << 20);
            wa[2 * i] = i == 0 ? -1L : rnd.nextLong();
            wa[2 * i + 1] = i == 0 ? 0 : rnd.nextLong();
            wb[2 * i] = i == 0 ? 1 : rnd.nextLong();
            wb[2 * i + 1] = i == 0 ? 1 : rnd.nextLong();
        }
        UnifiedBuffer sads = device.allocate(8L * n);
        launch(m, "sads", 2, 64, KernelArgs.builder().pointer(sads).pointer(ints(device, a)).pointer(ints(device, b))
                .pointer(ints(device, c)).i32(n).build());
        UnifiedBuffer sums = device.allocate(32L * n);
        launch(m, "add_sub_128", 4, 32, KernelArgs.builder().pointer(sums).pointer(longs(device, wa))
                .pointer(longs(device, wb)).i32(n).build());
        int[] gs = readInts(sads, 2 * n);
        long[] gw = readLongs(sums, 4 * n);
        BigInteger two128 = BigInteger.ONE.shiftLeft(128);
        for (int i = 0; i < n; i++) {
            int[] row = {a[i], b[i], c[i]};
            long s = Math.abs((long) a[i] - b[i]) + c[i];
            check(s, gs[2 * i], "__sad", row);
            check(Math.abs(Integer.toUnsignedLong(a[i]) - Integer.toUnsignedLong(b[i])) + c[i], gs[2 * i + 1],
                    "__usad", row);
            BigInteger x = new BigInteger(Long.toUnsignedString(wa[2 * i + 1])).shiftLeft(64)
                    .add(new BigInteger(Long.toUnsignedString(wa[2 * i])));
            BigInteger y = new BigInteger(Long.toUnsignedString(wb[2 * i + 1])).shiftLeft(64)
                    .add(new BigInteger(Long.toUnsignedString(wb[2 * i])));
            BigInteger sum = x.add(y).mod(two128);
            BigInteger diff = x.subtract(y).mod(two128);
            assertEquals(List.of(sum.longValue(), sum.shiftRight(64).longValue(), diff.longValue(),
                    diff.shiftRight(64).longValue()), List.of(gw[4 * i], gw[4 * i + 1], gw[4 * i + 2], gw[4 * i + 3]),
                    "128-bit sum and difference of row " + i + " (seed 0x" + Long.toHexString(SEED) + ")");
        }
        sads.free();
        sums.free();
    }
}
