package dev.polygpu.grcuda.array;

import dev.polygpu.grcuda.SharedEngine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A double beyond float's range is refused where a float is stored (an element of a float array, a float kernel
 * argument), as every other element type refuses what it cannot hold; values within it are rounded to the nearest
 * float, as C converts them, and infinities and NaN are floats too.
 *
 * <p>The bounds are derived by hand: the largest float is {@code (2 - 2^-23) * 2^127}; its ulp is {@code 2^104},
 * so a double below {@code FLT_MAX + 2^103} rounds down to it, and {@code FLT_MAX + 2^103} itself is a tie that
 * rounds to the even neighbour, {@code 2^128}: infinity.
 */
class GrFloatRangeTest {
    private static final double FLT_MAX = Float.MAX_VALUE;
    private static final double ROUNDS_TO_MAX = FLT_MAX + Math.scalb(1.0, 102);
    private static final double ROUNDS_TO_INFINITY = FLT_MAX + Math.scalb(1.0, 103);

    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();
    private Context context;
    private Value cu;

    @BeforeEach
    void open() {
        context = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).build();
        cu = context.eval("grcuda", "CU");
    }

    @AfterEach
    void close() {
        context.close();
    }

    private Value floats(int n) {
        return cu.getMember("DeviceArray").execute("float", n);
    }

    @Test
    void elementsBeyondFloatsRangeAreRefused() {
        for (double v : new double[] {1e300, -1e300, ROUNDS_TO_INFINITY, -ROUNDS_TO_INFINITY}) {
            Value a = floats(1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> a.invokeMember("copyFrom", ProxyArray.fromArray(v)), Double.toString(v));
            assertTrue(e.getMessage().contains("in a DeviceArray of float: beyond float's range"), e.getMessage());
            assertThrows(ClassCastException.class, () -> a.setArrayElement(0, v));
            assertEquals(0.0f, a.getArrayElement(0).asFloat(), "nothing stored");
        }
    }

    @Test
    void elementsWithinItAreRoundedAndInfinitiesStored() {
        Value a = floats(6);
        double[] in = {ROUNDS_TO_MAX, -ROUNDS_TO_MAX, Double.POSITIVE_INFINITY, Double.NaN, 1e-50, 0.1};
        float[] expected = {Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NaN, 0.0f,
            0.100000001490116119384765625f};
        for (int i = 0; i < in.length; i++) {
            a.setArrayElement(i, in[i]);
        }
        for (int i = 0; i < in.length; i++) {
            assertEquals(Float.floatToIntBits(expected[i]), Float.floatToIntBits(a.getArrayElement(i).asFloat()),
                    "element " + i + " from " + in[i]);
        }
        Value d = cu.getMember("DeviceArray").execute("double", 1);
        d.setArrayElement(0, 1e300);
        assertEquals(1e300, d.getArrayElement(0).asDouble(), "a double array holds it");
    }

    @Test
    void floatKernelArgumentsBeyondItAreRefused() {
        Value k = cu.getMember("buildkernel").execute("__global__ void put(float* out, float v) { out[0] = v; }",
                "put(out: out pointer float, v: float)");
        Value out = floats(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> k.execute(1, 1).execute(out, 1e300));
        assertTrue(e.getMessage().contains("argument 2 ('v') of kernel 'put' (float) cannot hold")
                && e.getMessage().contains("beyond the type's range"), e.getMessage());
        k.execute(1, 1).execute(out, ROUNDS_TO_MAX);
        assertEquals(Float.MAX_VALUE, out.getArrayElement(0).asFloat());
        k.execute(1, 1).execute(out, Double.NEGATIVE_INFINITY);
        assertEquals(Float.NEGATIVE_INFINITY, out.getArrayElement(0).asFloat());
    }
}
