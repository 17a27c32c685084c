package dev.polygpu.device.cpu.kernel.rt;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Euclidean norms and their reciprocals for {@link CudaMath}: {@code rhypot}, {@code norm3d}, {@code rnorm3d},
 * {@code norm4d}, {@code rnorm4d} and the array forms {@code norm(dim, p)} / {@code rnorm(dim, p)}.
 *
 * <p>Method: the components are scaled by the power of two that brings the largest to [1, 2) (exact), so the
 * squares can neither overflow nor underflow harmfully; the squares are summed exactly enough in
 * {@link DoubleDouble}; the square root (or its reciprocal) of the sum is taken in double and corrected by one
 * Newton step against the double-double sum, then scaled back. The result is the correctly rounded value or
 * its neighbour (within about 0.5 ulp plus 2^-100 relative), except where it is subnormal and the scaling back
 * rounds a second time. Any infinite component gives +inf (reciprocal +0) even next to a NaN, as CUDA's
 * functions do; otherwise a NaN gives NaN; all zeros give +0 (reciprocal +inf).
 *
 * <p>Stateless and thread-safe.
 */
final class Norms {
    private Norms() {
    }

    /** The norm of (a, b, c, d), or its reciprocal; pass 0 for unused components. */
    static double norm(double a, double b, double c, double d, boolean reciprocal) {
        if (Double.isInfinite(a) || Double.isInfinite(b) || Double.isInfinite(c) || Double.isInfinite(d)) {
            return reciprocal ? 0.0 : Double.POSITIVE_INFINITY;
        }
        double m = Math.max(Math.max(Math.abs(a), Math.abs(b)), Math.max(Math.abs(c), Math.abs(d)));
        if (Double.isNaN(a + b + c + d)) {
            return Double.NaN;
        }
        if (m == 0) {
            return reciprocal ? Double.POSITIVE_INFINITY : 0.0;
        }
        int e = Math.getExponent(m);
        if (e < Double.MIN_EXPONENT) {
            e = Math.getExponent(m * 0x1p64) - 64; // subnormal
        }
        DoubleDouble s = DoubleDouble.square(Math.scalb(a, -e))
                .add(DoubleDouble.square(Math.scalb(b, -e)))
                .add(DoubleDouble.square(Math.scalb(c, -e)))
                .add(DoubleDouble.square(Math.scalb(d, -e)));
        return finish(s, e, reciprocal);
    }

    /**
     * The norm of the {@code dim} doubles (or floats) at byte offset {@code off} of {@code seg}, or its
     * reciprocal; the caller has checked that they lie within the segment. {@code dim} &le; 0 is an empty
     * vector (norm +0, reciprocal +inf).
     */
    static double norm(MemorySegment seg, long off, int dim, boolean floats, boolean reciprocal) {
        double m = 0;
        boolean nan = false;
        for (int i = 0; i < dim; i++) {
            double v = Math.abs(element(seg, off, i, floats));
            if (v == Double.POSITIVE_INFINITY) {
                return reciprocal ? 0.0 : Double.POSITIVE_INFINITY;
            }
            nan |= v != v;
            m = Math.max(m, v);
        }
        if (nan) {
            return Double.NaN;
        }
        if (m == 0) {
            return reciprocal ? Double.POSITIVE_INFINITY : 0.0;
        }
        int e = Math.getExponent(m);
        if (e < Double.MIN_EXPONENT) {
            e = Math.getExponent(m * 0x1p64) - 64;
        }
        DoubleDouble s = DoubleDouble.ZERO;
        for (int i = 0; i < dim; i++) {
            s = s.add(DoubleDouble.square(Math.scalb(element(seg, off, i, floats), -e)));
        }
        return finish(s, e, reciprocal);
    }

    private static double element(MemorySegment seg, long off, int i, boolean floats) {
        return floats ? seg.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off + 4L * i)
                : seg.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, off + 8L * i);
    }

    /** √s 2^e or 2^-e / √s, for a double-double s in [1, n·4). */
    private static double finish(DoubleDouble s, int e, boolean reciprocal) {
        double r = Math.sqrt(s.hi());
        // √(hi + lo) = r + c with c ≈ (hi + lo - r²) / (2r); the residual is exact by FMA.
        double c = (Math.fma(-r, r, s.hi()) + s.lo()) / (2 * r);
        if (!reciprocal) {
            return Math.scalb(r + c, e);
        }
        // 1/(r + c) ≈ y (1 + f) (1 - c/r) with y = 1/r rounded and f = 1 - y r exactly.
        double y = 1 / r;
        double f = Math.fma(-y, r, 1);
        return Math.scalb(y + y * (f - c * y), -e);
    }
}
