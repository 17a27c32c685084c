package dev.polygpu.device.cpu.kernel.rt;

import java.math.BigDecimal;

/**
 * The arithmetic intrinsics with a directed rounding mode ({@code __fadd_rz}, {@code __dmul_ru},
 * {@code __fmaf_rd}, {@code __fdiv_rz}, {@code __dsqrt_ru}, {@code __frcp_rd}, …): IEEE 754's operation, its
 * exact result rounded toward zero ({@link #RZ}), +infinity ({@link #RU}) or -infinity ({@link #RD}), without
 * flushing subnormals, as CUDA defines them.
 *
 * <p>How: sums, products and fused multiply-adds of finite operands are computed exactly as {@link BigDecimal}s
 * (every float and double is a finite decimal fraction), then rounded; a quotient or square root has no finite
 * exact form, so the correctly rounded (nearest) result the JVM gives is the starting point, and the sign of
 * its exact residual ({@code q·b - a}, {@code s² - a}) says on which side of the true value it lies. Rounding
 * picks the representable neighbour below or above in the mode's direction, so overflow gives the largest
 * finite value where the direction points toward zero, and infinity where it points away. Non-finite operands
 * and the cases whose result is exact anyway (a zero or infinite operand) take the JVM's own operation. This is
 * slow next to a hardware rounding mode (the JVM has none), which the rarity of these intrinsics allows; it is
 * written independently of the PTX interpreter's rounding, which the differential oracle compares it with.
 */
public final class DirectedRounding {
    /** Toward zero. */
    public static final int RZ = 0;
    /** Toward +infinity. */
    public static final int RU = 1;
    /** Toward -infinity. */
    public static final int RD = 2;

    private DirectedRounding() {
    }

    public static double add(double a, double b, int mode) {
        return add(a, b, mode, false);
    }

    public static float add(float a, float b, int mode) {
        return (float) add(a, b, mode, true);
    }

    public static double sub(double a, double b, int mode) {
        return add(a, -b, mode, false);
    }

    public static float sub(float a, float b, int mode) {
        return (float) add(a, -b, mode, true);
    }

    public static double mul(double a, double b, int mode) {
        return mul(a, b, mode, false);
    }

    public static float mul(float a, float b, int mode) {
        return (float) mul(a, b, mode, true);
    }

    public static double fma(double a, double b, double c, int mode) {
        return fma(a, b, c, mode, false);
    }

    public static float fma(float a, float b, float c, int mode) {
        return (float) fma(a, b, c, mode, true);
    }

    public static double div(double a, double b, int mode) {
        return div(a, b, mode, false);
    }

    public static float div(float a, float b, int mode) {
        return (float) div(a, b, mode, true);
    }

    public static double rcp(double a, int mode) {
        return div(1.0, a, mode, false);
    }

    public static float rcp(float a, int mode) {
        return (float) div(1.0, a, mode, true);
    }

    public static double sqrt(double a, int mode) {
        return sqrt(a, mode, false);
    }

    public static float sqrt(float a, int mode) {
        return (float) sqrt(a, mode, true);
    }

    // ---- the operations on doubles; with single, the operands are floats and the result is rounded to one ----

    private static double add(double a, double b, int mode, boolean single) {
        if (!Double.isFinite(a) || !Double.isFinite(b)) {
            return a + b;
        }
        BigDecimal exact = new BigDecimal(a).add(new BigDecimal(b));
        if (exact.signum() == 0) {
            return zeroSum(isNegative(a), isNegative(b), a == 0 && b == 0, mode);
        }
        return round(exact, mode, single);
    }

    private static double mul(double a, double b, int mode, boolean single) {
        if (!Double.isFinite(a) || !Double.isFinite(b) || a == 0 || b == 0) {
            return a * b;
        }
        return round(new BigDecimal(a).multiply(new BigDecimal(b)), mode, single);
    }

    private static double fma(double a, double b, double c, int mode, boolean single) {
        if (!Double.isFinite(a) || !Double.isFinite(b) || !Double.isFinite(c)) {
            return Math.fma(a, b, c);
        }
        BigDecimal product = new BigDecimal(a).multiply(new BigDecimal(b));
        BigDecimal exact = product.add(new BigDecimal(c));
        if (exact.signum() == 0) {
            return zeroSum(isNegative(a) != isNegative(b), isNegative(c), product.signum() == 0 && c == 0, mode);
        }
        return round(exact, mode, single);
    }

    private static double div(double a, double b, int mode, boolean single) {
        // for floats, the double quotient rounded to float is the correctly rounded float quotient (53 >= 2·24 + 2
        // bits), and so is the square root below
        double q = nearest(a / b, single);
        if (!Double.isFinite(a) || !Double.isFinite(b) || a == 0 || b == 0) {
            return q;
        }
        int exactSign = (a < 0) != (b < 0) ? -1 : 1;
        // q lies above the true quotient when q·b - a has b's sign
        int above = Double.isInfinite(q) ? (int) Math.signum(q) : q == 0 ? -exactSign
                : new BigDecimal(q).multiply(new BigDecimal(b)).subtract(new BigDecimal(a)).signum()
                        * (b < 0 ? -1 : 1);
        return pick(q, above, exactSign, mode, single);
    }

    private static double sqrt(double a, int mode, boolean single) {
        double s = nearest(Math.sqrt(a), single);
        if (!(a > 0) || Double.isInfinite(a)) {
            return s;
        }
        BigDecimal root = new BigDecimal(s);
        return pick(s, root.multiply(root).compareTo(new BigDecimal(a)), 1, mode, single);
    }

    // ---- rounding ----------------------------------------------------------------------------------------

    /**
     * An exact zero from adding two terms of the given signs: the common sign when both terms are zeros of one
     * sign, else +0, and -0 when rounding toward -infinity (IEEE 754, 6.3).
     */
    private static double zeroSum(boolean negA, boolean negB, boolean bothZero, int mode) {
        if (bothZero && negA == negB) {
            return negA ? -0.0 : 0.0;
        }
        return mode == RD ? -0.0 : 0.0;
    }

    private static boolean isNegative(double v) {
        return Double.doubleToRawLongBits(v) < 0;
    }

    private static double nearest(double v, boolean single) {
        return single ? (float) v : v;
    }

    /** The next representable value above ({@code up}) or below {@code r}, in the result's format. */
    private static double step(double r, boolean up, boolean single) {
        if (single) {
            return up ? Math.nextUp((float) r) : Math.nextDown((float) r);
        }
        return up ? Math.nextUp(r) : Math.nextDown(r);
    }

    /** The nonzero {@code exact} value rounded in {@code mode} to a double, or to a float if {@code single}. */
    private static double round(BigDecimal exact, int mode, boolean single) {
        double r = single ? exact.floatValue() : exact.doubleValue();
        if (r == 0) {
            r = exact.signum() < 0 ? -0.0 : 0.0;
        }
        int above = compare(r, exact);
        // step toward the exact value while r is more than one step away from it
        while (above != 0) {
            double next = step(r, above < 0, single);
            if (compare(next, exact) != above) {
                break;
            }
            r = next;
        }
        return pick(r, above, exact.signum(), mode, single);
    }

    /** The sign of {@code r - exact}, infinities included. */
    private static int compare(double r, BigDecimal exact) {
        return Double.isInfinite(r) ? (r > 0 ? 1 : -1) : new BigDecimal(r).compareTo(exact);
    }

    /**
     * The result for a value {@code r} that is the exact one ({@code above} 0) or one of its two neighbours
     * ({@code above} 1: r is the one above; -1: below), rounded in {@code mode}; {@code exactSign} is the sign
     * of the exact value. A step toward zero from the smallest subnormal gives the zero of the value's sign
     * ({@code Math.nextUp(-Double.MIN_VALUE)} is -0).
     */
    private static double pick(double r, int above, int exactSign, int mode, boolean single) {
        if (above == 0) {
            return r;
        }
        boolean up = mode == RU || mode == RZ && exactSign < 0;
        return up == (above > 0) ? r : step(r, above < 0, single);
    }
}
