package dev.polygpu.device.cpu.ptx;

import java.util.List;

/**
 * The arithmetic instructions of the PTX interpreter: {@code cvt}, {@code add}, {@code sub}, {@code mul},
 * {@code mad}, {@code fma}, {@code div}, {@code rem}, {@code abs}, {@code neg}, {@code min}, {@code max}, the
 * logic operations, {@code not}/{@code cnot} and the shifts.
 */
abstract class PtxArithmeticOps extends PtxMemoryOps {
    PtxArithmeticOps(PtxDecoder.FnDecoder fd) {
        super(fd);
    }
    void cvt() {
        allow("rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "sat", "ftz");
        List<String> ts = types();
        if (ts.size() != 2) {
            throw invalid("cvt needs a destination and a source type");
        }
        String dt = ts.get(0);
        String st = ts.get(1);
        arity(2);
        int d = dst(0);
        int a = src(1, st);
        boolean sat = has("sat");
        int sBits = PtxTypes.bits(st);
        int dBits = PtxTypes.bits(dt);
        boolean sSigned = PtxTypes.isSigned(st);
        boolean dSigned = PtxTypes.isSigned(dt);
        int sShift = 64 - sBits;
        int dShift = 64 - dBits;
        if (dt.equals("pred") || st.equals("pred")) {
            throw unsupported("cvt with a predicate");
        }
        boolean sf = PtxTypes.isFloat(st);
        boolean df = PtxTypes.isFloat(dt);
        if (!sf && !df) {
            long min = dSigned ? (dBits == 64 ? Long.MIN_VALUE : -(1L << (dBits - 1))) : 0;
            long max = dSigned ? (dBits == 64 ? Long.MAX_VALUE : (1L << (dBits - 1)) - 1)
                    : (dBits == 64 ? -1L : (1L << dBits) - 1);
            step((t, r) -> {
                long v = sSigned ? (r[a] << sShift) >> sShift : (r[a] << sShift) >>> sShift;
                if (sat) {
                    v = saturate(v, sSigned, min, max, dSigned, dBits);
                }
                r[d] = dSigned ? (v << dShift) >> dShift : (v << dShift) >>> dShift;
            });
            return;
        }
        if (!sf) {
            int mode = rounding(ROUNDING, PtxMath.RN);
            boolean unsignedSrc = !sSigned;
            if (dt.equals("f32")) {
                step((t, r) -> {
                    long v = unsignedSrc ? (r[a] << sShift) >>> sShift : (r[a] << sShift) >> sShift;
                    float f = PtxMath.intToFloat(v, unsignedSrc && sBits == 64, mode);
                    r[d] = Float.floatToRawIntBits(sat ? sat32(f) : f);
                });
            } else {
                step((t, r) -> {
                    long v = unsignedSrc ? (r[a] << sShift) >>> sShift : (r[a] << sShift) >> sShift;
                    double f = PtxMath.intToDouble(v, unsignedSrc && sBits == 64, mode);
                    r[d] = Double.doubleToRawLongBits(sat ? sat64(f) : f);
                });
            }
            return;
        }
        boolean s32 = st.equals("f32");
        if (!df) {
            int mode = rounding(INT_ROUNDING, -1);
            if (mode < 0) {
                throw invalid("cvt from a float to an integer needs .rni, .rzi, .rmi or .rpi");
            }
            step((t, r) -> {
                double v = s32 ? Float.intBitsToFloat((int) r[a]) : Double.longBitsToDouble(r[a]);
                long x = PtxMath.toInteger(v, mode, dBits, dSigned);
                r[d] = dSigned ? (x << dShift) >> dShift : (x << dShift) >>> dShift;
            });
            return;
        }
        boolean d32 = dt.equals("f32");
        int intMode = rounding(INT_ROUNDING, -1);
        int mode = rounding(ROUNDING, PtxMath.RN);
        step((t, r) -> {
            double v = s32 ? Float.intBitsToFloat((int) r[a]) : Double.longBitsToDouble(r[a]);
            if (intMode >= 0) {
                v = PtxMath.roundIntegral(v, intMode);
            }
            if (d32) {
                float f = s32 ? (float) v : PtxMath.doubleToFloat(v, mode);
                r[d] = Float.floatToRawIntBits(sat ? sat32(f) : f);
            } else {
                r[d] = Double.doubleToRawLongBits(sat ? sat64(v) : v);
            }
        });
    }

    private static long saturate(long v, boolean srcSigned, long min, long max, boolean dSigned, int dBits) {
        if (!srcSigned && v < 0) {
            return max; // an unsigned 64-bit value above 2^63
        }
        if (!dSigned && dBits == 64) {
            return v < 0 ? 0 : v;
        }
        return v < min ? min : v > max ? max : v;
    }

    static float sat32(float f) {
        return Float.isNaN(f) ? 0f : Math.max(0f, Math.min(1f, f));
    }

    static double sat64(double f) {
        return Double.isNaN(f) ? 0.0 : Math.max(0.0, Math.min(1.0, f));
    }

    void addSub(boolean sub) {
        allow("rn", "rz", "rm", "rp", "ftz", "sat");
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int mode = rounding(ROUNDING, PtxMath.RN);
        switch (type) {
            case "f32" -> {
                boolean sat = has("sat");
                if (mode == PtxMath.RN && !sat) {
                    step(sub ? (t, r) -> r[d] = fb(f(r[a]) - f(r[b])) : (t, r) -> r[d] = fb(f(r[a]) + f(r[b])));
                } else {
                    step((t, r) -> {
                        float v = PtxMath.add32(f(r[a]), sub ? -f(r[b]) : f(r[b]), mode);
                        r[d] = fb(sat ? sat32(v) : v);
                    });
                }
            }
            case "f64" -> step((t, r) -> r[d] = gb(PtxMath.add64(g(r[a]), sub ? -g(r[b]) : g(r[b]), mode)));
            case "s32" -> {
                if (has("sat")) {
                    step((t, r) -> {
                        long v = sub ? (long) (int) r[a] - (int) r[b] : (long) (int) r[a] + (int) r[b];
                        r[d] = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
                    });
                } else {
                    step(sub ? (t, r) -> r[d] = (int) r[a] - (int) r[b] : (t, r) -> r[d] = (int) r[a] + (int) r[b]);
                }
            }
            case "pred" -> throw invalid("arithmetic on predicates");
            default -> {
                if (has("sat")) {
                    throw unsupported(".sat on ." + type);
                }
                step(sub ? (t, r) -> r[d] = r[a] - r[b] : (t, r) -> r[d] = r[a] + r[b]);
            }
        }
    }

    void mul() {
        allow("lo", "hi", "wide", "rn", "rz", "rm", "rp", "ftz", "sat");
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int mode = rounding(ROUNDING, PtxMath.RN);
        if (type.equals("f32")) {
            boolean sat = has("sat");
            if (mode == PtxMath.RN && !sat) {
                step((t, r) -> r[d] = fb(f(r[a]) * f(r[b])));
            } else {
                step((t, r) -> {
                    float v = PtxMath.mul32(f(r[a]), f(r[b]), mode);
                    r[d] = fb(sat ? sat32(v) : v);
                });
            }
            return;
        }
        if (type.equals("f64")) {
            step((t, r) -> r[d] = gb(PtxMath.mul64(g(r[a]), g(r[b]), mode)));
            return;
        }
        intMul(type, d, a, b, -1);
    }

    /** mul/mad on integers: {@code .lo}, {@code .hi}, {@code .wide}; {@code c} the addend or -1. */
    private void intMul(String type, int d, int a, int b, int c) {
        int bits = PtxTypes.bits(type);
        boolean signed = PtxTypes.isSigned(type);
        int sh = 64 - bits;
        if (has("wide")) {
            if (bits == 64) {
                throw invalid(".wide on a 64-bit type");
            }
            step((t, r) -> {
                long x = signed ? (r[a] << sh) >> sh : (r[a] << sh) >>> sh;
                long y = signed ? (r[b] << sh) >> sh : (r[b] << sh) >>> sh;
                r[d] = x * y + (c < 0 ? 0 : r[c]);
            });
        } else if (has("hi")) {
            if (bits == 64) {
                step(signed ? (t, r) -> r[d] = Math.multiplyHigh(r[a], r[b]) + (c < 0 ? 0 : r[c])
                        : (t, r) -> r[d] = Math.unsignedMultiplyHigh(r[a], r[b]) + (c < 0 ? 0 : r[c]));
            } else {
                step((t, r) -> {
                    long x = signed ? (r[a] << sh) >> sh : (r[a] << sh) >>> sh;
                    long y = signed ? (r[b] << sh) >> sh : (r[b] << sh) >>> sh;
                    r[d] = ((x * y) >> bits) + (c < 0 ? 0 : r[c]);
                });
            }
        } else {
            if (!has("lo") && !type.startsWith("b")) {
                throw invalid("integer " + in.opcode().split("\\.")[0] + " needs .lo, .hi or .wide");
            }
            if (c < 0) {
                step((t, r) -> r[d] = r[a] * r[b]);
            } else {
                step((t, r) -> r[d] = r[a] * r[b] + r[c]);
            }
        }
    }

    void mad() {
        allow("lo", "hi", "wide", "rn", "rz", "rm", "rp", "ftz", "sat");
        String type = type();
        arity(4);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int c = src(3, has("wide") ? widen(type) : type);
        if (PtxTypes.isFloat(type)) {
            fmaStep(type, d, a, b, c);
            return;
        }
        if (has("sat")) {
            throw unsupported("mad.sat");
        }
        intMul(type, d, a, b, c);
    }

    private static String widen(String type) {
        return type.charAt(0) + String.valueOf(PtxTypes.bits(type) * 2);
    }

    void fma() {
        allow("rn", "rz", "rm", "rp", "ftz", "sat");
        String type = type();
        allowTypes(type, "f32", "f64");
        arity(4);
        fmaStep(type, dst(0), src(1, type), src(2, type), src(3, type));
    }

    private void fmaStep(String type, int d, int a, int b, int c) {
        int mode = rounding(ROUNDING, PtxMath.RN);
        boolean sat = has("sat");
        if (type.equals("f32")) {
            if (mode == PtxMath.RN && !sat) {
                step((t, r) -> r[d] = fb(Math.fma(f(r[a]), f(r[b]), f(r[c]))));
            } else {
                step((t, r) -> {
                    float v = PtxMath.fma32(f(r[a]), f(r[b]), f(r[c]), mode);
                    r[d] = fb(sat ? sat32(v) : v);
                });
            }
        } else {
            if (mode != PtxMath.RN) {
                throw unsupported("fma.f64 with a directed rounding mode");
            }
            step((t, r) -> r[d] = gb(Math.fma(g(r[a]), g(r[b]), g(r[c]))));
        }
    }

    void divRem(boolean rem) {
        allow("rn", "rz", "rm", "rp", "approx", "full", "ftz");
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        if (PtxTypes.isFloat(type)) {
            if (rem) {
                throw invalid("rem on a float type");
            }
            int mode = rounding(ROUNDING, PtxMath.RN);
            if (mode != PtxMath.RN) {
                throw unsupported("div with a directed rounding mode");
            }
            if (type.equals("f32")) {
                step((t, r) -> r[d] = fb(f(r[a]) / f(r[b])));
            } else {
                step((t, r) -> r[d] = gb(g(r[a]) / g(r[b])));
            }
            return;
        }
        int sh = 64 - PtxTypes.bits(type);
        boolean signed = PtxTypes.isSigned(type);
        if (signed) {
            step(rem ? (t, r) -> r[d] = PtxMath.remSigned((r[a] << sh) >> sh, (r[b] << sh) >> sh)
                    : (t, r) -> r[d] = PtxMath.divSigned((r[a] << sh) >> sh, (r[b] << sh) >> sh));
        } else {
            step(rem ? (t, r) -> r[d] = PtxMath.remUnsigned((r[a] << sh) >>> sh, (r[b] << sh) >>> sh)
                    : (t, r) -> r[d] = PtxMath.divUnsigned((r[a] << sh) >>> sh, (r[b] << sh) >>> sh));
        }
    }

    void absNeg(boolean neg) {
        allow("ftz");
        String type = type();
        arity(2);
        int d = dst(0);
        int a = src(1, type);
        switch (type) {
            case "f32" -> step(neg ? (t, r) -> r[d] = (int) r[a] ^ 0x8000_0000 : (t, r) -> r[d] = (int) r[a] & 0x7FFF_FFFF);
            case "f64" -> step(neg ? (t, r) -> r[d] = r[a] ^ Long.MIN_VALUE : (t, r) -> r[d] = r[a] & Long.MAX_VALUE);
            default -> {
                int sh = 64 - PtxTypes.bits(type);
                step(neg ? (t, r) -> r[d] = -r[a] : (t, r) -> {
                    long x = (r[a] << sh) >> sh;
                    r[d] = x < 0 ? -x : x;
                });
            }
        }
    }

    void minMax(boolean max) {
        allow("ftz");
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        switch (type) {
            case "f32" -> step(max ? (t, r) -> r[d] = fb(PtxMath.max32(f(r[a]), f(r[b])))
                    : (t, r) -> r[d] = fb(PtxMath.min32(f(r[a]), f(r[b]))));
            case "f64" -> step(max ? (t, r) -> r[d] = gb(PtxMath.max64(g(r[a]), g(r[b])))
                    : (t, r) -> r[d] = gb(PtxMath.min64(g(r[a]), g(r[b]))));
            default -> {
                int sh = 64 - PtxTypes.bits(type);
                if (PtxTypes.isSigned(type)) {
                    step((t, r) -> {
                        long x = (r[a] << sh) >> sh;
                        long y = (r[b] << sh) >> sh;
                        r[d] = max ? Math.max(x, y) : Math.min(x, y);
                    });
                } else {
                    step((t, r) -> {
                        long x = (r[a] << sh) >>> sh;
                        long y = (r[b] << sh) >>> sh;
                        r[d] = (Long.compareUnsigned(x, y) > 0) == max ? x : y;
                    });
                }
            }
        }
    }

    void logic(String op) {
        allow();
        String type = type();
        allowTypes(type, "pred", "b16", "b32", "b64");
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        if (type.equals("pred")) {
            // A predicate is 0 or 1, but an immediate operand may be any truth value (nvcc writes -1 for true:
            // xor.pred %p, %q, -1 is a not); the bitwise forms on -1 would give -2, still true, for not-true.
            switch (op) {
                case "and" -> step((t, r) -> r[d] = r[a] != 0 && r[b] != 0 ? 1 : 0);
                case "or" -> step((t, r) -> r[d] = r[a] != 0 || r[b] != 0 ? 1 : 0);
                default -> step((t, r) -> r[d] = (r[a] != 0) != (r[b] != 0) ? 1 : 0);
            }
            return;
        }
        switch (op) {
            case "and" -> step((t, r) -> r[d] = r[a] & r[b]);
            case "or" -> step((t, r) -> r[d] = r[a] | r[b]);
            default -> step((t, r) -> r[d] = r[a] ^ r[b]);
        }
    }

    void not(boolean cnot) {
        allow();
        String type = type();
        allowTypes(type, "pred", "b16", "b32", "b64");
        arity(2);
        int d = dst(0);
        int a = src(1, type);
        int sh = 64 - PtxTypes.bits(type);
        if (cnot) {
            step((t, r) -> r[d] = ((r[a] << sh) == 0) ? 1 : 0);
        } else if (type.equals("pred")) {
            step((t, r) -> r[d] = r[a] == 0 ? 1 : 0);
        } else {
            step((t, r) -> r[d] = ~r[a]);
        }
    }

    void shift(boolean right) {
        allow();
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, "u32");
        int bits = PtxTypes.bits(type);
        int sh = 64 - bits;
        if (!right) {
            step((t, r) -> {
                long n = r[b] & 0xFFFF_FFFFL;
                r[d] = n >= bits ? 0 : r[a] << n;
            });
        } else if (PtxTypes.isSigned(type)) {
            step((t, r) -> r[d] = ((r[a] << sh) >> sh) >> Math.min(r[b] & 0xFFFF_FFFFL, 63));
        } else {
            step((t, r) -> {
                long n = r[b] & 0xFFFF_FFFFL;
                r[d] = n >= bits ? 0 : ((r[a] << sh) >>> sh) >>> n;
            });
        }
    }
}
