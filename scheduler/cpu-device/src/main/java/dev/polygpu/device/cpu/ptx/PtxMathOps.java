package dev.polygpu.device.cpu.ptx;

import java.util.ArrayList;
import java.util.List;

/**
 * The function and bit-field instructions of the PTX interpreter: the one-operand math functions ({@code sqrt},
 * {@code sin}, {@code ex2}, …), {@code copysign}, {@code testp}, {@code popc}/{@code clz}, {@code bfe},
 * {@code bfi} and {@code prmt}.
 */
abstract class PtxMathOps extends PtxArithmeticOps {
    PtxMathOps(PtxDecoder.FnDecoder fd) {
        super(fd);
    }
    // ---- math ----

    void unaryMath(String op) {
        allow("rn", "approx", "full", "ftz");
        String type = type();
        allowTypes(type, "f32", "f64");
        arity(2);
        boolean approx = has("approx");
        boolean single = type.equals("f32");
        switch (op) {
            case "rcp", "sqrt" -> {
                if (!approx && !has("rn")) {
                    throw unsupported(op + " without .rn or .approx (directed rounding)");
                }
            }
            case "rsqrt" -> {
                if (!approx) {
                    throw invalid("rsqrt needs .approx");
                }
            }
            default -> {
                if (!approx || !single) {
                    throw unsupported(op + "." + String.join(".", mods));
                }
            }
        }
        int d = dst(0);
        int a = src(1, type);
        java.util.function.DoubleUnaryOperator fn = switch (op) {
            case "rcp" -> x -> 1.0 / x;
            case "sqrt" -> Math::sqrt;
            case "rsqrt" -> x -> 1.0 / Math.sqrt(x);
            case "ex2" -> x -> Math.pow(2.0, x);
            case "lg2" -> x -> Math.log(x) / Math.log(2.0);
            case "sin" -> Math::sin;
            case "cos" -> Math::cos;
            default -> Math::tanh;
        };
        if (single) {
            if (op.equals("rcp")) {
                step((t, r) -> r[d] = fb(1.0f / f(r[a])));
            } else if (op.equals("sqrt")) {
                step((t, r) -> r[d] = fb((float) Math.sqrt(f(r[a]))));
            } else {
                step((t, r) -> r[d] = fb((float) fn.applyAsDouble(f(r[a]))));
            }
        } else {
            step((t, r) -> r[d] = gb(fn.applyAsDouble(g(r[a]))));
        }
    }

    void copysign() {
        allow();
        String type = type();
        allowTypes(type, "f32", "f64");
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        if (type.equals("f32")) {
            step((t, r) -> r[d] = ((int) r[a] & 0x8000_0000) | ((int) r[b] & 0x7FFF_FFFF));
        } else {
            step((t, r) -> r[d] = (r[a] & Long.MIN_VALUE) | (r[b] & Long.MAX_VALUE));
        }
    }

    void testp() {
        String type = type();
        allowTypes(type, "f32", "f64");
        List<String> rest = new ArrayList<>(mods);
        rest.remove(type);
        if (rest.size() != 1) {
            throw invalid("testp needs one test");
        }
        arity(2);
        int d = dst(0);
        int a = src(1, type);
        boolean s = type.equals("f32");
        java.util.function.DoublePredicate p = switch (rest.get(0)) {
            case "finite" -> Double::isFinite;
            case "infinite" -> Double::isInfinite;
            case "number" -> x -> !Double.isNaN(x);
            case "notanumber" -> Double::isNaN;
            case "normal" -> x -> x != 0 && Double.isFinite(x) && Math.abs(x) >= (s ? Float.MIN_NORMAL
                    : Double.MIN_NORMAL);
            case "subnormal" -> x -> x != 0 && Math.abs(x) < (s ? Float.MIN_NORMAL : Double.MIN_NORMAL);
            default -> throw unsupported("testp." + rest.get(0));
        };
        step((t, r) -> r[d] = p.test(fv(s, r[a])) ? 1 : 0);
    }

    void bitCount(String op) {
        allow();
        String type = type();
        allowTypes(type, "b32", "b64");
        arity(2);
        int d = dst(0);
        int a = src(1, type);
        boolean wide = type.equals("b64");
        switch (op) {
            case "popc" -> step(wide ? (t, r) -> r[d] = Long.bitCount(r[a])
                    : (t, r) -> r[d] = Integer.bitCount((int) r[a]));
            case "clz" -> step(wide ? (t, r) -> r[d] = Long.numberOfLeadingZeros(r[a])
                    : (t, r) -> r[d] = Integer.numberOfLeadingZeros((int) r[a]));
            default -> step(wide ? (t, r) -> r[d] = Long.reverse(r[a])
                    : (t, r) -> r[d] = Integer.reverse((int) r[a]));
        }
    }

    void bfe() {
        allow();
        String type = type();
        allowTypes(type, "u32", "s32", "u64", "s64");
        arity(4);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, "u32");
        int c = src(3, "u32");
        int bits = PtxTypes.bits(type);
        boolean signed = PtxTypes.isSigned(type);
        int msb = bits - 1;
        step((t, r) -> {
            int pos = (int) (r[b] & 0xFF);
            int len = (int) (r[c] & 0xFF);
            long x = bits == 32 ? r[a] & 0xFFFF_FFFFL : r[a];
            boolean sbit = signed && len != 0 && ((x >>> Math.min(pos + len - 1, msb)) & 1) != 0;
            int n = Math.max(0, Math.min(len, msb + 1 - pos));
            long res = n == 0 ? 0 : (x >>> pos) & (n == 64 ? -1L : (1L << n) - 1);
            if (sbit && n < 64) {
                res |= -1L << n;
            }
            r[d] = res;
        });
    }

    void bfi() {
        allow();
        String type = type();
        allowTypes(type, "b32", "b64");
        arity(5);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int c = src(3, "u32");
        int e = src(4, "u32");
        int bits = PtxTypes.bits(type);
        step((t, r) -> {
            int pos = (int) (r[c] & 0xFF);
            int len = (int) (r[e] & 0xFF);
            long base = r[b];
            if (len == 0 || pos >= bits) {
                r[d] = base;
                return;
            }
            int n = Math.min(len, bits - pos);
            long mask = (n == 64 ? -1L : (1L << n) - 1) << pos;
            r[d] = (base & ~mask) | ((r[a] << pos) & mask);
        });
    }

    void prmt() {
        allow();
        String type = type();
        allowTypes(type, "b32");
        arity(4);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int c = src(3, type);
        step((t, r) -> {
            long bytes = (r[a] & 0xFFFF_FFFFL) | ((r[b] & 0xFFFF_FFFFL) << 32);
            int sel = (int) r[c];
            int out = 0;
            for (int k = 0; k < 4; k++) {
                int s = (sel >>> (4 * k)) & 0xF;
                int v = (int) (bytes >>> ((s & 7) * 8)) & 0xFF;
                if ((s & 8) != 0) {
                    v = (v & 0x80) != 0 ? 0xFF : 0;
                }
                out |= v << (8 * k);
            }
            r[d] = out;
        });
    }
}
