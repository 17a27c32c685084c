package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.ptx.Insn.Step;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The scalar half-precision ({@code .f16}) instructions that nvcc emits for {@code __half} code: {@code add},
 * {@code sub}, {@code mul}, {@code fma} (all {@code .rn}, the only rounding PTX gives them), {@code neg},
 * {@code abs}, {@code min}, {@code max}, and {@code cvt} to and from {@code .f16}; {@code setp} and {@code set}
 * compare halves through {@link PtxOps}. Decoded through the hooks of {@link PtxOps}, as {@link PtxIntegerOps} is.
 *
 * <p>Implementation notes. A half lives in the low 16 bits of its register, as a {@code .b16} does. Every half is
 * exact as a double, and so are the sum, difference and product of two (at most 22 significant bits over an
 * exponent range of 2^-48 to 2^32), so computing in double and rounding once to half ({@link #toHalf}) gives
 * the correctly rounded result. For {@code fma} the double result of {@link Math#fma} is rounded once more; a
 * product of 22 contiguous bits cannot put a bit at a half's rounding position and another 53 bits lower, so
 * the two roundings never disagree. A NaN result is the canonical NaN {@code 0x7fff}, as on the GPU.
 * {@code .ftz} flushes subnormal inputs and results to zero of the same sign, {@code .sat} clamps to [0, 1].
 */
final class PtxHalfOps {
    /** The canonical half NaN a GPU's half instructions give. */
    static final int NAN = 0x7FFF;
    private static final Set<String> ARITHMETIC = Set.of("add", "sub", "mul", "fma", "neg", "abs", "min", "max");

    private PtxHalfOps() {
    }

    /** Whether {@code base} with these modifiers is a half instruction decoded here. */
    static boolean handles(String base, List<String> mods) {
        return mods.contains("f16") && (ARITHMETIC.contains(base) || base.equals("cvt"));
    }

    static void decode(PtxOps ops, String base) {
        if (base.equals("cvt")) {
            cvt(ops);
        } else {
            arithmetic(ops, base);
        }
    }

    /** The value of the half in the low 16 bits of {@code bits}. */
    static double value(long bits) {
        return Float.float16ToFloat((short) bits);
    }

    /**
     * {@code v} rounded to half in {@code mode} ({@link PtxMath#RN} and the others), as bits: ties to even,
     * subnormals kept, overflow to infinity or to the largest finite half as the mode says.
     */
    static int toHalf(double v, int mode) {
        if (Double.isNaN(v)) {
            return NAN;
        }
        int sign = (Double.doubleToRawLongBits(v) < 0) ? 0x8000 : 0;
        double a = Math.abs(v);
        if (a == 0) {
            return sign;
        }
        if (Double.isInfinite(a)) {
            return sign | 0x7C00;
        }
        int ulpExp = Math.max(Math.getExponent(a), -14) - 10;
        double scaled = Math.scalb(a, -ulpExp);
        long m = (long) roundMagnitude(scaled, mode, sign != 0);
        if (ulpExp == -24) {
            return sign | (int) m; // subnormal, or 0x400 (the smallest normal) when rounded up to it
        }
        if (m == 2048) {
            m = 1024;
            ulpExp++;
        }
        int exp = ulpExp + 25;
        if (exp >= 31) {
            boolean toInfinity = mode == PtxMath.RN || mode == PtxMath.RP && sign == 0
                    || mode == PtxMath.RM && sign != 0;
            return sign | (toInfinity ? 0x7C00 : 0x7BFF);
        }
        return sign | exp << 10 | (int) (m - 1024);
    }

    private static double roundMagnitude(double x, int mode, boolean negative) {
        return switch (mode) {
            case PtxMath.RZ -> Math.floor(x);
            case PtxMath.RM -> negative ? Math.ceil(x) : Math.floor(x);
            case PtxMath.RP -> negative ? Math.floor(x) : Math.ceil(x);
            default -> Math.rint(x);
        };
    }

    private static double flushIn(boolean ftz, double v) {
        return ftz && v != 0 && Math.abs(v) < 0x1p-14 ? Math.copySign(0.0, v) : v;
    }

    /** An arithmetic result rounded to half as its instruction says: {@code .rn}, then .sat and .ftz. */
    private static int finish(boolean ftz, boolean sat, double exact) {
        return saturatedHalf(exact, PtxMath.RN, sat, ftz);
    }

    private static void arithmetic(PtxOps ops, String base) {
        List<String> rest = new ArrayList<>(ops.mods());
        rest.remove("f16");
        rest.remove("rn");
        boolean ftz = rest.remove("ftz");
        boolean sat = rest.remove("sat");
        if (!rest.isEmpty() || sat && !Set.of("add", "sub", "mul", "fma").contains(base)) {
            throw ops.unsupportedHere("modifier ." + (rest.isEmpty() ? "sat" : rest.getFirst()) + " of " + base
                    + ".f16");
        }
        int n = switch (base) {
            case "neg", "abs" -> 2;
            case "fma" -> 4;
            default -> 3;
        };
        List<Operand> o = ops.operands();
        if (o.size() != n) {
            throw ops.invalidHere(ops.instr().opcode() + " takes " + n + " operands, got " + o.size());
        }
        int d = ops.dst(0);
        int a = ops.src(1, "b16");
        int b = n > 2 ? ops.src(2, "b16") : -1;
        int c = n > 3 ? ops.src(3, "b16") : -1;
        step(ops, switch (base) {
            case "neg" -> (t, r) -> r[d] = (r[a] ^ 0x8000) & 0xFFFF;
            case "abs" -> (t, r) -> r[d] = r[a] & 0x7FFF;
            case "add" -> (t, r) -> r[d] = finish(ftz, sat, flushIn(ftz, value(r[a])) + flushIn(ftz, value(r[b])));
            case "sub" -> (t, r) -> r[d] = finish(ftz, sat, flushIn(ftz, value(r[a])) - flushIn(ftz, value(r[b])));
            case "mul" -> (t, r) -> r[d] = finish(ftz, sat, flushIn(ftz, value(r[a])) * flushIn(ftz, value(r[b])));
            case "fma" -> (t, r) -> r[d] = finish(ftz, sat, Math.fma(flushIn(ftz, value(r[a])),
                    flushIn(ftz, value(r[b])), flushIn(ftz, value(r[c]))));
            case "min" -> (t, r) -> r[d] = finish(ftz, false, PtxMath.min64(flushIn(ftz, value(r[a])),
                    flushIn(ftz, value(r[b]))));
            default -> (t, r) -> r[d] = finish(ftz, false, PtxMath.max64(flushIn(ftz, value(r[a])),
                    flushIn(ftz, value(r[b]))));
        });
    }

    /**
     * {@code cvt} with {@code .f16} on one side: from a half every value is exact in double, so it goes through
     * the float and integer paths as a double would; to a half it is rounded once, in the instruction's mode.
     */
    private static void cvt(PtxOps ops) {
        List<String> types = new ArrayList<>();
        List<String> modes = new ArrayList<>();
        boolean sat = false;
        boolean ftz = false;
        for (String m : ops.mods()) {
            if (m.equals("f16") || PtxTypes.isType(m)) {
                types.add(m);
            } else if (m.equals("sat")) {
                sat = true;
            } else if (m.equals("ftz")) {
                ftz = true;
            } else if (PtxOperands.ROUNDING.contains(m) || PtxOperands.INT_ROUNDING.contains(m)) {
                modes.add(m);
            } else {
                throw ops.unsupportedHere("modifier ." + m + " of cvt");
            }
        }
        if (types.size() != 2 || types.contains("pred")) {
            throw ops.invalidHere("cvt needs a destination and a source type");
        }
        List<Operand> o = ops.operands();
        if (o.size() != 2) {
            throw ops.invalidHere("cvt takes 2 operands, got " + o.size());
        }
        String dt = types.get(0);
        String st = types.get(1);
        int mode = modes.isEmpty() ? -1 : PtxMath.mode(modes.getFirst());
        boolean integral = !modes.isEmpty() && PtxOperands.INT_ROUNDING.contains(modes.getFirst());
        int d = ops.dst(0);
        int a = ops.src(1, st.equals("f16") ? "b16" : st);
        Step s = st.equals("f16") ? fromHalf(ops, dt, a, d, mode, integral, sat, ftz)
                : toHalfStep(ops, st, a, d, mode, integral, sat, ftz);
        step(ops, s);
    }

    private static Step fromHalf(PtxOps ops, String dt, int a, int d, int mode, boolean integral, boolean sat,
            boolean ftz) {
        switch (dt) {
            case "f16" -> {
                return (t, r) -> {
                    double v = flushIn(ftz, value(r[a]));
                    r[d] = finish(ftz, sat, integral ? PtxMath.roundIntegral(v, mode) : v);
                };
            }
            case "f32" -> {
                return (t, r) -> {
                    float f = (float) flushIn(ftz, value(r[a]));
                    r[d] = Float.floatToRawIntBits(sat ? PtxArithmeticOps.sat32(f) : f);
                };
            }
            case "f64" -> {
                return (t, r) -> {
                    double v = flushIn(ftz, value(r[a]));
                    r[d] = Double.doubleToRawLongBits(sat ? PtxArithmeticOps.sat64(v) : v);
                };
            }
            default -> {
                if (!integral) {
                    throw ops.invalidHere("cvt from a float to an integer needs .rni, .rzi, .rmi or .rpi");
                }
                int bits = PtxTypes.bits(dt);
                boolean signed = PtxTypes.isSigned(dt);
                int sh = 64 - bits;
                return (t, r) -> {
                    long x = PtxMath.toInteger(flushIn(ftz, value(r[a])), mode, bits, signed);
                    r[d] = signed ? (x << sh) >> sh : (x << sh) >>> sh;
                };
            }
        }
    }

    private static Step toHalfStep(PtxOps ops, String st, int a, int d, int mode, boolean integral, boolean sat,
            boolean ftz) {
        if (integral) {
            throw ops.invalidHere("cvt to .f16 takes .rn, .rz, .rm or .rp, not an integer rounding");
        }
        int m = mode < 0 ? PtxMath.RN : mode;
        if (PtxTypes.isFloat(st)) {
            if (mode < 0) {
                throw ops.invalidHere("cvt from ." + st + " to .f16 needs a rounding (.rn, .rz, .rm or .rp)");
            }
            boolean single = st.equals("f32");
            return (t, r) -> {
                double v = single ? Float.intBitsToFloat((int) r[a]) : Double.longBitsToDouble(r[a]);
                if (ftz && single && v != 0 && Math.abs(v) < 0x1p-126) {
                    v = Math.copySign(0.0, v);
                }
                r[d] = saturatedHalf(v, m, sat, ftz);
            };
        }
        int bits = PtxTypes.bits(st);
        boolean signed = PtxTypes.isSigned(st);
        int sh = 64 - bits;
        return (t, r) -> {
            long v = signed ? (r[a] << sh) >> sh : (r[a] << sh) >>> sh;
            // beyond 2^53 the double is already far above the largest half, so its own rounding cannot matter
            double x = !signed && bits == 64 && v < 0 ? 0x1p64 + (double) v : (double) v;
            r[d] = saturatedHalf(x, m, sat, ftz);
        };
    }

    /**
     * {@code v} clamped to [0, 1] (NaN to 0) if {@code sat}, rounded to half in {@code mode}, a subnormal result
     * flushed to zero if {@code ftz}.
     */
    private static int saturatedHalf(double v, int mode, boolean sat, boolean ftz) {
        double x = sat ? (Double.isNaN(v) ? 0.0 : Math.max(0.0, Math.min(1.0, v))) : v;
        int h = toHalf(x, mode);
        return ftz && (h & 0x7C00) == 0 && (h & 0x3FF) != 0 ? h & 0x8000 : h;
    }

    private static void step(PtxOps ops, Step s) {
        ops.fn().emit(ops.instr(), Insn.STEP, s);
    }
}
