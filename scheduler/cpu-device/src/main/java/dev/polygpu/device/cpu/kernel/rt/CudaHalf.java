package dev.polygpu.device.cpu.kernel.rt;

/**
 * CUDA's {@code __half} (IEEE 754 binary16) for generated kernel code, which holds a half value in a JVM
 * {@code float} (every half is exactly a float) and rounds to half after each operation.
 *
 * <p>Implementation notes: each arithmetic operation on halves is computed in float or double and rounded once to
 * half, round-to-nearest-even, which gives the correctly rounded half result, as the GPU's {@code add.f16},
 * {@code sub.f16}, {@code mul.f16} and {@code fma.rn.f16} do:
 * <ul>
 *   <li>add, sub, mul, div in float, then to half: a float has 24 bits of significand, at least 2·11 + 2, so
 *   rounding first to float and then to half gives the same result as rounding the exact value to half once
 *   (Figueroa's double-rounding theorem for the four basic operations; a product of two halves is even exact in
 *   float, 22 bits). Half subnormals are far inside float's normal range, so nothing is lost there.</li>
 *   <li>fma ({@code a * b + c}) in double, then to half with {@link #round(double)}: the product is exact (22
 *   bits); the sum is rounded once to double. That second rounding could only change the half result if it moved
 *   the exact value onto a half midpoint (it is monotone, so it cannot cross one). The exact value and every half
 *   midpoint are multiples of 2^-48, and a nonzero distance between the exact value and a midpoint near 2^e is at
 *   least about 2^(e-34) (the terms have 11 or 22 significant bits), far more than half a double ulp, 2^(e-53).</li>
 *   <li>{@link #round(double)} rounds directly from double; going through float first would round twice, which is
 *   wrong for doubles with more than 24 significant bits.</li>
 * </ul>
 * NaN results are NaN (their bit pattern when stored may differ from a GPU's canonical NaN).
 */
public final class CudaHalf {
    private CudaHalf() {}

    /** The largest finite half, 65504. */
    public static final float MAX = 65504f;

    /** The half nearest to {@code f} (ties to even), as a float; values of magnitude 65520 or more become ±inf. */
    public static float round(float f) {
        return Float.float16ToFloat(Float.floatToFloat16(f));
    }

    /** The half nearest to {@code d} (ties to even), rounded once from the double, as a float. */
    public static float round(double d) {
        double a = Math.abs(d);
        if (!(a < 65520.0)) {
            return Double.isNaN(d) ? Float.NaN : d > 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
        }
        int e = Math.getExponent(a);
        // The spacing of halves at a: 2^-24 for the subnormals (below 2^-14), 2^(e-10) above. Dividing by a power
        // of two is exact here, and rint rounds to the nearest integer, ties to even.
        double quantum = e < -14 ? 0x1p-24 : Math.scalb(1.0, e - 10);
        return (float) (Math.rint(d / quantum) * quantum);
    }

    /** The binary16 encoding of a half held in a float. */
    public static short bits(float h) {
        return Float.floatToFloat16(h);
    }

    /** The half with binary16 encoding {@code bits}, as a float. */
    public static float fromBits(int bits) {
        return Float.float16ToFloat((short) bits);
    }
}
