package dev.polygpu.device.cpu.kernel.rt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CudaMathTest {
    private static final long SEED = 0x5eed_c0da_2024L;
    private static final double NAN = Double.NaN;
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final float FNAN = Float.NaN;
    private static final float FINF = Float.POSITIVE_INFINITY;

    // ---- special cases (C99 Annex F), compared bit for bit (-0.0 differs from +0.0, any NaN equals NaN) ----

    static Stream<Arguments> specialCases() {
        List<Arguments> c = new ArrayList<>();
        // round: halfway away from zero, floating result, sign of zero kept
        c.add(d("round(2.5)", CudaMath.round(2.5), 3.0));
        c.add(d("round(-2.5)", CudaMath.round(-2.5), -3.0));
        c.add(d("round(0.5)", CudaMath.round(0.5), 1.0));
        c.add(d("round(-0.5)", CudaMath.round(-0.5), -1.0));
        c.add(d("round(0.49999999999999994)", CudaMath.round(0.49999999999999994), 0.0));
        c.add(d("round(-0.3)", CudaMath.round(-0.3), -0.0));
        c.add(d("round(-0.0)", CudaMath.round(-0.0), -0.0));
        c.add(d("round(2^52+1)", CudaMath.round(0x1p52 + 1), 0x1p52 + 1));
        c.add(d("round(4503599627370495.5)", CudaMath.round(4503599627370495.5), 4503599627370496.0));
        c.add(d("round(1e300)", CudaMath.round(1e300), 1e300));
        c.add(d("round(-inf)", CudaMath.round(-INF), -INF));
        c.add(d("round(NaN)", CudaMath.round(NAN), NAN));
        c.add(f("roundf(-2.5f)", CudaMathFloat.round(-2.5f), -3f));
        c.add(f("roundf(0.49999997f)", CudaMathFloat.round(0.49999997f), 0f));
        c.add(f("roundf(8388609.0f)", CudaMathFloat.round(8388609.0f), 8388609.0f));
        c.add(f("roundf(-0.2f)", CudaMathFloat.round(-0.2f), -0f));
        // rint: halfway to even
        c.add(d("rint(2.5)", CudaMath.rint(2.5), 2.0));
        c.add(d("rint(3.5)", CudaMath.rint(3.5), 4.0));
        c.add(d("rint(-2.5)", CudaMath.rint(-2.5), -2.0));
        c.add(d("rint(-0.5)", CudaMath.rint(-0.5), -0.0));
        c.add(f("rintf(2.5f)", CudaMathFloat.rint(2.5f), 2f));
        // trunc, floor, ceil
        c.add(d("trunc(-0.5)", CudaMath.trunc(-0.5), -0.0));
        c.add(d("trunc(-1.7)", CudaMath.trunc(-1.7), -1.0));
        c.add(d("trunc(1.7)", CudaMath.trunc(1.7), 1.0));
        c.add(d("trunc(-inf)", CudaMath.trunc(-INF), -INF));
        c.add(d("trunc(NaN)", CudaMath.trunc(NAN), NAN));
        c.add(f("truncf(-0.5f)", CudaMathFloat.trunc(-0.5f), -0f));
        c.add(d("floor(-0.5)", CudaMath.floor(-0.5), -1.0));
        c.add(d("ceil(-0.5)", CudaMath.ceil(-0.5), -0.0));
        c.add(f("floorf(-0f)", CudaMathFloat.floor(-0f), -0f));
        // pow
        c.add(d("pow(NaN, 0)", CudaMath.pow(NAN, 0.0), 1.0));
        c.add(d("pow(NaN, -0)", CudaMath.pow(NAN, -0.0), 1.0));
        c.add(d("pow(1, NaN)", CudaMath.pow(1.0, NAN), 1.0));
        c.add(d("pow(1, inf)", CudaMath.pow(1.0, INF), 1.0));
        c.add(d("pow(-1, inf)", CudaMath.pow(-1.0, INF), 1.0));
        c.add(d("pow(-1, -inf)", CudaMath.pow(-1.0, -INF), 1.0));
        c.add(d("pow(-1, NaN)", CudaMath.pow(-1.0, NAN), NAN));
        c.add(d("pow(-0, -3)", CudaMath.pow(-0.0, -3.0), -INF));
        c.add(d("pow(-0, -2)", CudaMath.pow(-0.0, -2.0), INF));
        c.add(d("pow(-0, 3)", CudaMath.pow(-0.0, 3.0), -0.0));
        c.add(d("pow(-2, 0.5)", CudaMath.pow(-2.0, 0.5), NAN));
        c.add(d("pow(-2, 3)", CudaMath.pow(-2.0, 3.0), -8.0));
        c.add(d("pow(0.5, -inf)", CudaMath.pow(0.5, -INF), INF));
        c.add(d("pow(2, -inf)", CudaMath.pow(2.0, -INF), 0.0));
        c.add(d("pow(-inf, -3)", CudaMath.pow(-INF, -3.0), -0.0));
        c.add(d("pow(-inf, 3)", CudaMath.pow(-INF, 3.0), -INF));
        c.add(f("powf(1, NaN)", CudaMathFloat.pow(1f, FNAN), 1f));
        c.add(f("powf(-1, -inf)", CudaMathFloat.pow(-1f, -FINF), 1f));
        c.add(f("powf(NaN, -0)", CudaMathFloat.pow(FNAN, -0f), 1f));
        c.add(f("powf(10, 39) overflows", CudaMathFloat.pow(10f, 39f), FINF));
        // fmin / fmax ignore a single NaN
        c.add(d("fmin(NaN, 1)", CudaMath.fmin(NAN, 1.0), 1.0));
        c.add(d("fmin(1, NaN)", CudaMath.fmin(1.0, NAN), 1.0));
        c.add(d("fmin(NaN, NaN)", CudaMath.fmin(NAN, NAN), NAN));
        c.add(d("fmax(NaN, -inf)", CudaMath.fmax(NAN, -INF), -INF));
        c.add(d("fmax(-1, NaN)", CudaMath.fmax(-1.0, NAN), -1.0));
        c.add(d("fmin(-inf, 3)", CudaMath.fmin(-INF, 3.0), -INF));
        c.add(f("fminf(NaN, 2)", CudaMathFloat.fmin(FNAN, 2f), 2f));
        c.add(f("fmaxf(2, NaN)", CudaMathFloat.fmax(2f, FNAN), 2f));
        c.add(f("max(float)(NaN, 3)", CudaMathFloat.max(FNAN, 3f), 3f));
        c.add(d("min(double)(4, NaN)", CudaMath.min(4.0, NAN), 4.0));
        // fmod: sign of x, exact
        c.add(d("fmod(5.5, 2)", CudaMath.fmod(5.5, 2.0), 1.5));
        c.add(d("fmod(-5.5, 2)", CudaMath.fmod(-5.5, 2.0), -1.5));
        c.add(d("fmod(5.5, -2)", CudaMath.fmod(5.5, -2.0), 1.5));
        c.add(d("fmod(-4, 2)", CudaMath.fmod(-4.0, 2.0), -0.0));
        c.add(d("fmod(-0, 3)", CudaMath.fmod(-0.0, 3.0), -0.0));
        c.add(d("fmod(1, 0)", CudaMath.fmod(1.0, 0.0), NAN));
        c.add(d("fmod(inf, 2)", CudaMath.fmod(INF, 2.0), NAN));
        c.add(d("fmod(3, inf)", CudaMath.fmod(3.0, INF), 3.0));
        c.add(d("fmod(NaN, 2)", CudaMath.fmod(NAN, 2.0), NAN));
        c.add(d("fmod(2^100, 3)", CudaMath.fmod(0x1p100, 3.0), 1.0));
        c.add(f("fmodf(-7, 3)", CudaMathFloat.fmod(-7f, 3f), -1f));
        // copysign, hypot
        c.add(d("copysign(3, -0)", CudaMath.copysign(3.0, -0.0), -3.0));
        c.add(d("copysign(-3, 0)", CudaMath.copysign(-3.0, 0.0), 3.0));
        c.add(d("copysign(NaN, -1)", CudaMath.copysign(NAN, -1.0), NAN));
        c.add(f("copysignf(2, -inf)", CudaMathFloat.copysign(2f, -FINF), -2f));
        c.add(d("hypot(inf, NaN)", CudaMath.hypot(INF, NAN), INF));
        c.add(d("hypot(NaN, -inf)", CudaMath.hypot(NAN, -INF), INF));
        c.add(d("hypot(3*2^1000, 4*2^1000)", CudaMath.hypot(0x3p1000, 0x4p1000), 0x5p1000));
        c.add(d("hypot(3e-320, 4e-320)", CudaMath.hypot(3e-320, 4e-320), 5e-320));
        c.add(f("hypotf(3e38, 3e38)", CudaMathFloat.hypot(3e38f, 3e38f), FINF));
        c.add(f("hypotf(3e30, 4e30)", CudaMathFloat.hypot(3e30f, 4e30f), 5e30f));
        c.add(f("hypotf(NaN, -inf)", CudaMathFloat.hypot(FNAN, -FINF), FINF));
        c.add(f("hypotf(NaN, 1)", CudaMathFloat.hypot(FNAN, 1f), FNAN));
        c.add(f("hypotf(3e-45, 4e-45)", CudaMathFloat.hypot(3e-45f, 4e-45f), 5.6e-45f));
        // roots and reciprocal square root
        c.add(d("rsqrt(0)", CudaMath.rsqrt(0.0), INF));
        c.add(d("rsqrt(-0)", CudaMath.rsqrt(-0.0), -INF));
        c.add(d("rsqrt(inf)", CudaMath.rsqrt(INF), 0.0));
        c.add(d("rsqrt(-1)", CudaMath.rsqrt(-1.0), NAN));
        c.add(d("rsqrt(4)", CudaMath.rsqrt(4.0), 0.5));
        c.add(f("rsqrtf(0)", CudaMathFloat.rsqrt(0f), FINF));
        c.add(f("rsqrtf(-2)", CudaMathFloat.rsqrt(-2f), FNAN));
        c.add(f("rsqrtf(0.25f)", CudaMathFloat.rsqrt(0.25f), 2f));
        c.add(d("sqrt(-0)", CudaMath.sqrt(-0.0), -0.0));
        c.add(d("cbrt(-27)", CudaMath.cbrt(-27.0), -3.0));
        c.add(f("cbrtf(-8)", CudaMathFloat.cbrt(-8f), -2f));
        // exponentials and logarithms
        c.add(d("exp2(10)", CudaMath.exp2(10.0), 1024.0));
        c.add(d("exp2(-1074)", CudaMath.exp2(-1074.0), Double.MIN_VALUE));
        c.add(d("exp2(-inf)", CudaMath.exp2(-INF), 0.0));
        c.add(d("exp10(3)", CudaMath.exp10(3.0), 1000.0));
        c.add(d("exp10(-inf)", CudaMath.exp10(-INF), 0.0));
        c.add(d("exp10(NaN)", CudaMath.exp10(NAN), NAN));
        c.add(f("exp10f(2)", CudaMathFloat.exp10(2f), 100f));
        c.add(f("exp2f(-149)", CudaMathFloat.exp2(-149f), Float.MIN_VALUE));
        c.add(d("expm1(-0)", CudaMath.expm1(-0.0), -0.0));
        c.add(d("expm1(1e-300)", CudaMath.expm1(1e-300), 1e-300));
        c.add(d("expm1(-inf)", CudaMath.expm1(-INF), -1.0));
        c.add(d("log1p(-0)", CudaMath.log1p(-0.0), -0.0));
        c.add(d("log1p(-1)", CudaMath.log1p(-1.0), -INF));
        c.add(d("log1p(1e-300)", CudaMath.log1p(1e-300), 1e-300));
        c.add(f("log1pf(1e-30f)", CudaMathFloat.log1p(1e-30f), 1e-30f));
        c.add(d("log(0)", CudaMath.log(0.0), -INF));
        c.add(d("log(-0)", CudaMath.log(-0.0), -INF));
        c.add(d("log(-1)", CudaMath.log(-1.0), NAN));
        c.add(d("log2(0)", CudaMath.log2(0.0), -INF));
        c.add(d("log2(-0)", CudaMath.log2(-0.0), -INF));
        c.add(d("log2(-1)", CudaMath.log2(-1.0), NAN));
        c.add(d("log2(inf)", CudaMath.log2(INF), INF));
        c.add(d("log2(NaN)", CudaMath.log2(NAN), NAN));
        c.add(d("log2(1)", CudaMath.log2(1.0), 0.0));
        c.add(d("log2(1024)", CudaMath.log2(1024.0), 10.0));
        c.add(d("log2(2^-1074)", CudaMath.log2(Double.MIN_VALUE), -1074.0));
        c.add(d("log2(2^-1030)", CudaMath.log2(0x1p-1030), -1030.0));
        c.add(f("log2f(2^-149)", CudaMathFloat.log2(Float.MIN_VALUE), -149f));
        c.add(f("log2f(8)", CudaMathFloat.log2(8f), 3f));
        c.add(d("log10(1000)", CudaMath.log10(1000.0), 3.0));
        // trigonometric and hyperbolic
        c.add(d("sin(-0)", CudaMath.sin(-0.0), -0.0));
        c.add(d("sin(inf)", CudaMath.sin(INF), NAN));
        c.add(d("tan(-0)", CudaMath.tan(-0.0), -0.0));
        c.add(d("atan2(0, -0)", CudaMath.atan2(0.0, -0.0), Math.PI));
        c.add(d("atan2(-0, -0)", CudaMath.atan2(-0.0, -0.0), -Math.PI));
        c.add(d("atan2(-0, 1)", CudaMath.atan2(-0.0, 1.0), -0.0));
        c.add(d("atan2(inf, inf)", CudaMath.atan2(INF, INF), Math.PI / 4));
        c.add(f("atan2f(1, 0)", CudaMathFloat.atan2(1f, 0f), (float) (Math.PI / 2)));
        c.add(d("asin(2)", CudaMath.asin(2.0), NAN));
        c.add(d("acos(1)", CudaMath.acos(1.0), 0.0));
        c.add(d("tanh(inf)", CudaMath.tanh(INF), 1.0));
        c.add(d("tanh(-0)", CudaMath.tanh(-0.0), -0.0));
        c.add(d("cosh(-inf)", CudaMath.cosh(-INF), INF));
        c.add(d("sinh(-inf)", CudaMath.sinh(-INF), -INF));
        // error function specials
        c.add(d("erf(-0)", CudaMath.erf(-0.0), -0.0));
        c.add(d("erf(inf)", CudaMath.erf(INF), 1.0));
        c.add(d("erf(-inf)", CudaMath.erf(-INF), -1.0));
        c.add(d("erf(NaN)", CudaMath.erf(NAN), NAN));
        c.add(d("erf(1e-310)", CudaMath.erf(1e-310), 1e-310 * 1.1283791670955126));
        c.add(d("erfc(inf)", CudaMath.erfc(INF), 0.0));
        c.add(d("erfc(-inf)", CudaMath.erfc(-INF), 2.0));
        c.add(d("erfc(NaN)", CudaMath.erfc(NAN), NAN));
        c.add(d("erfc(0)", CudaMath.erfc(0.0), 1.0));
        c.add(d("erfc(28)", CudaMath.erfc(28.0), 0.0));
        c.add(d("erfc(-7)", CudaMath.erfc(-7.0), 2.0));
        c.add(f("erff(-0f)", CudaMathFloat.erf(-0f), -0f));
        c.add(f("erfcf(-inf)", CudaMathFloat.erfc(-FINF), 2f));
        c.add(f("erfcf(11)", CudaMathFloat.erfc(11f), 0f));
        // fma, saturate, fdivide, fabs
        c.add(d("fma(0.1, 10, -1)", CudaMath.fma(0.1, 10.0, -1.0), 5.551115123125783e-17));
        c.add(f("fmaf(inf, 0, 1)", CudaMathFloat.fma(FINF, 0f, 1f), FNAN));
        c.add(f("saturate(NaN)", CudaMathFloat.saturate(FNAN), 0f));
        c.add(f("saturate(-3)", CudaMathFloat.saturate(-3f), 0f));
        c.add(f("saturate(2)", CudaMathFloat.saturate(2f), 1f));
        c.add(f("saturate(inf)", CudaMathFloat.saturate(FINF), 1f));
        c.add(f("saturate(0.25)", CudaMathFloat.saturate(0.25f), 0.25f));
        c.add(f("fdivide(1, 3)", CudaMathFloat.fdivide(1f, 3f), 1f / 3f));
        c.add(f("fdivide(1, -0)", CudaMathFloat.fdivide(1f, -0f), -FINF));
        c.add(d("fabs(-0)", CudaMath.fabs(-0.0), 0.0));
        c.add(f("fabsf(-inf)", CudaMathFloat.fabs(-FINF), FINF));
        c.add(f("abs(float)(-0)", CudaMathFloat.abs(-0f), 0f));
        c.add(d("abs(double)(-2)", CudaMath.abs(-2.0), 2.0));
        return c.stream();
    }

    private static Arguments d(String name, double actual, double expected) {
        return Arguments.of(name, actual, expected);
    }

    private static Arguments f(String name, float actual, float expected) {
        return Arguments.of(name, (double) actual, (double) expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specialCases")
    void specialCase(String name, double actual, double expected) {
        assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(actual),
                () -> name + " = " + actual + ", expected " + expected);
    }

    @Test
    void classificationReturnsZeroOrOne() {
        assertEquals(1, CudaMathFloat.isnan(FNAN));
        assertEquals(0, CudaMathFloat.isnan(FINF));
        assertEquals(1, CudaMath.isnan(NAN));
        assertEquals(0, CudaMath.isnan(1.0));
        assertEquals(1, CudaMathFloat.isinf(-FINF));
        assertEquals(0, CudaMathFloat.isinf(FNAN));
        assertEquals(1, CudaMath.isinf(INF));
        assertEquals(0, CudaMath.isinf(Double.MAX_VALUE));
        assertEquals(1, CudaMathFloat.isfinite(Float.MAX_VALUE));
        assertEquals(0, CudaMathFloat.isfinite(FNAN));
        assertEquals(0, CudaMath.isfinite(-INF));
        assertEquals(1, CudaMath.isfinite(-Double.MIN_VALUE));
        assertEquals(1, CudaMathFloat.signbit(-0f));
        assertEquals(0, CudaMathFloat.signbit(0f));
        assertEquals(1, CudaMathFloat.signbit(-FINF));
        assertEquals(1, CudaMathFloat.signbit(Float.intBitsToFloat(0xffc00000)));
        assertEquals(1, CudaMath.signbit(-0.0));
        assertEquals(0, CudaMath.signbit(3.0));
        assertEquals(1, CudaMath.signbit(-Double.MIN_VALUE));
        assertEquals(1, CudaMath.signbit(Double.longBitsToDouble(0xfff8000000000000L)));
    }

    @Test
    void integerMinMaxAbs() {
        assertEquals(-5, IntegerIntrinsics.min(-5, 3));
        assertEquals(3, IntegerIntrinsics.max(-5, 3));
        assertEquals(3, IntegerIntrinsics.umin(-5, 3));
        assertEquals(-5, IntegerIntrinsics.umax(-5, 3));
        assertEquals(Integer.MAX_VALUE, IntegerIntrinsics.umin(Integer.MIN_VALUE, Integer.MAX_VALUE));
        assertEquals(-1, IntegerIntrinsics.umax(0, -1));
        assertEquals(Long.MIN_VALUE, IntegerIntrinsics.min(Long.MIN_VALUE, 0L));
        assertEquals(7L, IntegerIntrinsics.max(-7L, 7L));
        assertEquals(7L, IntegerIntrinsics.umin(-7L, 7L));
        assertEquals(-7L, IntegerIntrinsics.umax(-7L, 7L));
        assertEquals(Long.MAX_VALUE, IntegerIntrinsics.umin(Long.MIN_VALUE, Long.MAX_VALUE));
        assertEquals(Integer.MIN_VALUE, IntegerIntrinsics.abs(Integer.MIN_VALUE));
        assertEquals(9, IntegerIntrinsics.abs(-9));
        assertEquals(Long.MIN_VALUE, IntegerIntrinsics.abs(Long.MIN_VALUE));
        assertEquals(9L, IntegerIntrinsics.abs(-9L));
    }

    // ---- rounding functions against BigDecimal on random inputs ----

    @Test
    void roundingMatchesBigDecimal() {
        Random random = new Random(SEED);
        for (int i = 0; i < 20_000; i++) {
            double x = switch (i % 3) {
                case 0 -> (random.nextInt(2001) - 1000) / 2.0; // many exact halves
                case 1 -> (random.nextDouble() - 0.5) * Math.scalb(1.0, random.nextInt(60));
                default -> Math.nextAfter((random.nextInt(200) - 100) + 0.5, random.nextBoolean() ? 1e9 : -1e9);
            };
            String where = " at x=" + x + " (seed " + SEED + ")";
            assertEquals(rounded(x, RoundingMode.HALF_UP), CudaMath.round(x), "round" + where);
            assertEquals(rounded(x, RoundingMode.HALF_EVEN), CudaMath.rint(x), "rint" + where);
            assertEquals(rounded(x, RoundingMode.DOWN), CudaMath.trunc(x), "trunc" + where);
            float fx = (float) x;
            assertEquals((float) rounded(fx, RoundingMode.HALF_UP), CudaMathFloat.round(fx), "roundf" + where);
            assertEquals((float) rounded(fx, RoundingMode.DOWN), CudaMathFloat.trunc(fx), "truncf" + where);
        }
    }

    /** x rounded to an integer in the given mode, with the sign of x on a zero result. */
    private static double rounded(double x, RoundingMode mode) {
        double r = new BigDecimal(x).setScale(0, mode).doubleValue();
        return Math.copySign(r, x);
    }

    // ---- float overloads against the double computation rounded to float ----

    private interface FloatUnary {
        float apply(float x);
    }

    private interface FloatBinary {
        float apply(float x, float y);
    }

    private record Unary(String name, FloatUnary f, DoubleUnaryOperator d) {
    }

    private record Binary(String name, FloatBinary f, DoubleBinaryOperator d) {
    }

    private static final List<Unary> UNARY = List.of(
            new Unary("sqrt", CudaMathFloat::sqrt, Math::sqrt),
            new Unary("rsqrt", CudaMathFloat::rsqrt, x -> 1 / Math.sqrt(x)),
            new Unary("cbrt", CudaMathFloat::cbrt, Math::cbrt),
            new Unary("exp", CudaMathFloat::exp, Math::exp),
            new Unary("exp2", CudaMathFloat::exp2, x -> Math.pow(2, x)),
            new Unary("exp10", CudaMathFloat::exp10, x -> Math.pow(10, x)),
            new Unary("expm1", CudaMathFloat::expm1, Math::expm1),
            new Unary("log", CudaMathFloat::log, Math::log),
            new Unary("log2", CudaMathFloat::log2, x -> Math.log(x) / Math.log(2)),
            new Unary("log10", CudaMathFloat::log10, Math::log10),
            new Unary("log1p", CudaMathFloat::log1p, Math::log1p),
            new Unary("sin", CudaMathFloat::sin, Math::sin),
            new Unary("cos", CudaMathFloat::cos, Math::cos),
            new Unary("tan", CudaMathFloat::tan, Math::tan),
            new Unary("asin", CudaMathFloat::asin, Math::asin),
            new Unary("acos", CudaMathFloat::acos, Math::acos),
            new Unary("atan", CudaMathFloat::atan, Math::atan),
            new Unary("sinh", CudaMathFloat::sinh, Math::sinh),
            new Unary("cosh", CudaMathFloat::cosh, Math::cosh),
            new Unary("tanh", CudaMathFloat::tanh, Math::tanh),
            new Unary("erf", CudaMathFloat::erf, CudaMath::erf),
            new Unary("erfc", CudaMathFloat::erfc, CudaMath::erfc),
            new Unary("fabs", CudaMathFloat::fabs, Math::abs),
            new Unary("floor", CudaMathFloat::floor, Math::floor),
            new Unary("ceil", CudaMathFloat::ceil, Math::ceil),
            new Unary("round", CudaMathFloat::round, CudaMath::round),
            new Unary("trunc", CudaMathFloat::trunc, CudaMath::trunc),
            new Unary("rint", CudaMathFloat::rint, Math::rint));

    private static final List<Binary> BINARY = List.of(
            new Binary("pow", CudaMathFloat::pow, CudaMath::pow),
            new Binary("atan2", CudaMathFloat::atan2, Math::atan2),
            new Binary("fmod", CudaMathFloat::fmod, (x, y) -> x % y),
            new Binary("hypot", CudaMathFloat::hypot, Math::hypot),
            new Binary("copysign", CudaMathFloat::copysign, Math::copySign),
            new Binary("fmin", CudaMathFloat::fmin, CudaMath::fmin),
            new Binary("fmax", CudaMathFloat::fmax, CudaMath::fmax));

    /** Random floats of every magnitude and sign, with the specials mixed in; never all zeros. */
    private static float randomFloat(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> Float.intBitsToFloat(random.nextInt()); // any bit pattern: subnormals, NaNs, infinities
            case 1 -> (random.nextFloat() - 0.5f) * 4;
            case 2 -> (random.nextFloat() - 0.5f) * 200;
            case 3 -> random.nextFloat() * 1e-3f;
            case 4 -> new float[] {0f, -0f, 1f, -1f, 0.5f, FINF, -FINF, FNAN, Float.MIN_VALUE, Float.MAX_VALUE}[
                    random.nextInt(10)];
            default -> (float) ((random.nextDouble() - 0.5) * Math.scalb(1.0, random.nextInt(60) - 30));
        };
    }

    @Test
    void floatOverloadsWithinOneUlpOfDoubleRoundedToFloat() {
        Random random = new Random(SEED);
        for (int i = 0; i < 20_000; i++) {
            float x = randomFloat(random);
            float y = randomFloat(random);
            for (Unary u : UNARY) {
                float expected = (float) u.d().applyAsDouble(x);
                float actual = u.f().apply(x);
                if (Ulps.between(expected, actual) > 1) {
                    fail(u.name() + "f(" + x + ") = " + actual + ", expected " + expected + " (seed " + SEED + ")");
                }
            }
            for (Binary b : BINARY) {
                float expected = (float) b.d().applyAsDouble(x, y);
                float actual = b.f().apply(x, y);
                if (Ulps.between(expected, actual) > 1) {
                    fail(b.name() + "f(" + x + ", " + y + ") = " + actual + ", expected " + expected
                            + " (seed " + SEED + ")");
                }
            }
            float z = randomFloat(random);
            assertEquals(Math.fma(x, y, z), CudaMathFloat.fma(x, y, z), "fmaf (seed " + SEED + ")");
        }
    }

    @Test
    void log2IsExactOnPowersOfTwoAndCloseElsewhere() {
        for (int e = -1074; e <= 1023; e++) {
            assertEquals(e, CudaMath.log2(Math.scalb(1.0, e)), "log2(2^" + e + ")");
        }
        Random random = new Random(SEED);
        for (int i = 0; i < 20_000; i++) {
            double x = Math.scalb(1 + random.nextDouble(), random.nextInt(2000) - 1000);
            double expected = new BigDecimal(Math.log(x)).divide(new BigDecimal(Math.log(2.0)),
                    java.math.MathContext.DECIMAL128).doubleValue();
            long ulps = Ulps.between(expected, CudaMath.log2(x));
            // the reference itself carries log's error (1 ulp) and ln 2's rounding
            assertTrue(ulps <= 2, () -> "log2(" + x + ") off by " + ulps + " ulp (seed " + SEED + ")");
        }
    }
}
