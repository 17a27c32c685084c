package dev.polygpu.grcuda.array;

import dev.polygpu.grcuda.SharedEngine;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Device arrays through the polyglot API: creation, elements of every type, copies, free, views, display. */
class GrDeviceArrayTest {
    private static final long SEED = 20240611L;
    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();
    private Context context;

    @BeforeEach
    void open() {
        context = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).build();
    }

    @AfterEach
    void close() {
        context.close();
    }

    private Value eval(String source) {
        return context.eval("grcuda", source);
    }

    private Value deviceArray() {
        return eval("DeviceArray");
    }

    @Test
    void everyFormCreatesAnArrayOfTheRightSize() {
        assertEquals(100, eval("DeviceArray(\"float\", 100)").getArraySize());
        assertEquals(7, eval("float[7]").getArraySize());
        assertEquals(12, deviceArray().execute("double").execute(12).getArraySize());
        assertEquals(5, deviceArray().execute("int", 5).getArraySize());
        Value m = eval("float[10][20]");
        assertEquals(10, m.getArraySize());
        assertEquals(20, m.getArrayElement(3).getArraySize());
        Value f = deviceArray().execute("int", 2, 3, 4, "F");
        assertEquals(2, f.getArraySize());
        assertEquals(3, f.getArrayElement(1).getArraySize());
        assertEquals(4, f.getArrayElement(1).getArrayElement(2).getArraySize());
        assertEquals("function DeviceArray(double)", deviceArray().execute("double").toString());
    }

    @Test
    void badTypesAndSizesAreGuestErrors() {
        PolyglotException e = assertThrows(PolyglotException.class, () -> eval("DeviceArray(\"complex\", 3)"));
        assertTrue(e.getMessage().contains("DeviceArray: 'complex' is not an element type; valid types are: bool,"
                + " boolean, char, short, int, long, float, double, uchar"), e.getMessage());
        assertFalse(e.isHostException());
        e = assertThrows(PolyglotException.class, () -> eval("DeviceArray(\"float\", 0)"));
        assertTrue(e.getMessage().contains("DeviceArray: the size of dimension 1 must be positive, got 0"),
                e.getMessage());
        e = assertThrows(PolyglotException.class, () -> deviceArray().execute("float", 4, -2));
        assertTrue(e.getMessage().contains("the size of dimension 2 must be positive, got -2"), e.getMessage());
        e = assertThrows(PolyglotException.class, () -> deviceArray().execute("long", 1L << 40, 1L << 30));
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
        PolyglotException order = assertThrows(PolyglotException.class,
                () -> deviceArray().execute("float", 2, 2, "X"));
        assertTrue(order.getMessage().contains("the order must be \"C\" (row-major) or \"F\" (column-major), got \"X\""),
                order.getMessage());
    }

    @Test
    void everyElementTypeReadsBackWhatWasWritten() {
        Random r = new Random(SEED);
        Object[][] cases = {
            {"char", (byte) -7, (byte) -7}, {"sint8", (byte) 100, (byte) 100},
            {"uchar", 200, (short) 200}, {"uint8", 255, (short) 255},
            {"short", -30000, (short) -30000}, {"ushort", 65535, 65535},
            {"int", -2000000000, -2000000000}, {"uint", 4000000000L, 4000000000L},
            {"long", Long.MIN_VALUE, Long.MIN_VALUE}, {"ulong", Long.MAX_VALUE, Long.MAX_VALUE},
            {"float", 1.5f, 1.5f}, {"double", 0.1, 0.1}, {"bool", true, true}, {"boolean", false, false},
        };
        for (Object[] c : cases) {
            Value a = deviceArray().execute(c[0], 3);
            int i = r.nextInt(3);
            a.setArrayElement(i, c[1]);
            Value v = a.getArrayElement(i);
            assertEquals(c[2], v.as(Object.class).getClass() == c[2].getClass() ? v.as(Object.class) : null,
                    c[0] + " seed " + SEED);
        }
        Value d = deviceArray().execute("double", 4);
        d.setArrayElement(0, 3);
        assertEquals(3.0, d.getArrayElement(0).asDouble());
        Value f = deviceArray().execute("float", 4);
        f.setArrayElement(1, 0.1);
        assertEquals(0.1f, f.getArrayElement(1).asFloat());
    }

    @Test
    void unsignedValuesReadBackNonNegative() {
        Value u = deviceArray().execute("uint", 2);
        u.setArrayElement(0, 4294967295L);
        assertEquals(4294967295L, u.getArrayElement(0).asLong());
        Value uc = deviceArray().execute("uchar", 2);
        uc.invokeMember("copyFrom", (Object) new byte[]{-1, 1});
        assertEquals(255, uc.getArrayElement(0).asInt());
    }

    @Test
    void ulongElementsBeyondALongReadBackAsExactIntegers() {
        BigInteger twoTo63 = BigInteger.ONE.shiftLeft(63);
        BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
        Random r = new Random(SEED);
        List<BigInteger> values = new ArrayList<>(List.of(twoTo63, twoTo63.add(BigInteger.ONE),
                twoTo64.subtract(BigInteger.ONE), twoTo64.subtract(BigInteger.valueOf(2048))));
        for (int i = 0; i < 8; i++) {
            values.add(new BigInteger(63, r).add(twoTo63));
        }
        Value a = deviceArray().execute("uint64", values.size() + 1);
        for (int i = 0; i < values.size(); i++) {
            a.setArrayElement(i, values.get(i));
        }
        a.setArrayElement(values.size(), Long.MAX_VALUE);
        for (int i = 0; i < values.size(); i++) {
            Value v = a.getArrayElement(i);
            String what = values.get(i) + " seed " + SEED;
            assertTrue(v.isNumber() && v.fitsInBigInteger() && !v.fitsInLong(), what);
            assertEquals(values.get(i), v.asBigInteger(), what);
            // a double holds the value exactly only where its 11 lowest bits are zero
            boolean exactInDouble = values.get(i).getLowestSetBit() >= 11;
            assertEquals(exactInDouble, v.fitsInDouble(), what);
            if (exactInDouble) {
                assertEquals(values.get(i).doubleValue(), v.asDouble(), what);
            }
        }
        // below 2^63 a ulong stays a plain long
        Value max = a.getArrayElement(values.size());
        assertTrue(max.fitsInLong(), max.toString());
        assertEquals(Long.MAX_VALUE, max.as(Object.class));
        assertEquals("18446744073709551615", a.getArrayElement(2).toString());
        assertTrue(a.toString().contains("9223372036854775808, 9223372036854775809, 18446744073709551615"),
                a.toString());

        // a value read back is written back unchanged, into a ulong array; rounded into a double array
        Value b = deviceArray().execute("ulong", 1);
        b.setArrayElement(0, a.getArrayElement(2));
        assertEquals(twoTo64.subtract(BigInteger.ONE), b.getArrayElement(0).asBigInteger());
        Value d = deviceArray().execute("double", 1);
        d.setArrayElement(0, a.getArrayElement(1));
        assertEquals(0x1p63, d.getArrayElement(0).asDouble());
    }

    @Test
    void ulongElementsWrittenByAKernelReadBackExactly() {
        Value k = eval("buildkernel").execute("""
                __global__ void down(unsigned long long *a, unsigned long long top, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) a[i] = top - (unsigned long long) i * 3;
                }""", "down(a: out pointer uint64, top: uint64, n: sint32)");
        int n = 100;
        BigInteger top = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.valueOf(7));
        Value a = deviceArray().execute("ulong", n);
        k.execute(2, 64).execute(a, top, n);
        for (int i = 0; i < n; i++) {
            assertEquals(top.subtract(BigInteger.valueOf(3L * i)), a.getArrayElement(i).asBigInteger(), "a[" + i + "]");
        }
    }

    @Test
    void outOfRangeAndWrongTypedValuesAreRejectedWithTheType() {
        Value uc = deviceArray().execute("uchar", 2);
        // From Java, interop type errors are ClassCastExceptions; guest languages see TypeError with our message.
        ClassCastException cce = assertThrows(ClassCastException.class, () -> uc.setArrayElement(0, 300));
        assertTrue(cce.getMessage().contains("Invalid array value '300'") && cce.getMessage().contains("uchar"),
                cce.getMessage());
        assertThrows(ClassCastException.class, () -> uc.setArrayElement(1, -1));
        assertEquals(0, uc.getArrayElement(0).asInt());
        String[][] cases = {
            {"uchar", "300", "cannot store 300 in a DeviceArray of uchar: out of range 0 to 255"},
            {"uchar", "-1", "cannot store -1 in a DeviceArray of uchar: out of range 0 to 255"},
            {"char", "128", "cannot store 128 in a DeviceArray of char: out of range -128 to 127"},
            {"ushort", "65536", "cannot store 65536 in a DeviceArray of ushort: out of range 0 to 65535"},
            {"short", "-32769", "cannot store -32769 in a DeviceArray of short: out of range -32768 to 32767"},
            {"int", "1099511627776", "cannot store 1099511627776 in a DeviceArray of int: out of range"
                    + " -2147483648 to 2147483647"},
            {"uint", "-5", "cannot store -5 in a DeviceArray of uint: out of range 0 to 4294967295"},
            {"ulong", "-1", "cannot store -1 in a DeviceArray of ulong: out of range 0 to 18446744073709551615"},
            {"ulong", "18446744073709551616", "cannot store 18446744073709551616 in a DeviceArray of ulong: out"
                    + " of range 0 to 18446744073709551615"},
            {"long", "9223372036854775808", "cannot store 9223372036854775808 in a DeviceArray of long: out of"
                    + " range -9223372036854775808 to 9223372036854775807"},
            {"int", "2.5", "cannot store 2.5 in a DeviceArray of int: expected an integer"},
            {"bool", "1", "cannot store 1 in a DeviceArray of bool: expected a boolean"},
            {"float", "x", "cannot store \"x\" in a DeviceArray of float: expected a number"},
        };
        for (String[] c : cases) {
            Object v = c[1].equals("x") ? "x" : c[1].contains(".") ? (Object) Double.parseDouble(c[1])
                    : new BigInteger(c[1]).bitLength() < 64 ? (Object) Long.parseLong(c[1]) : new BigInteger(c[1]);
            Value a = deviceArray().execute(c[0], 1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> a.invokeMember("copyFrom", ProxyArray.fromArray(v)), c[0] + " " + c[1]);
            assertTrue(e.getMessage().contains(c[2]), e.getMessage());
        }
    }

    @Test
    void indexOutOfRangeIsAnIndexErrorNamingTheIndex() {
        Value a = deviceArray().execute("float", 5);
        RuntimeException e = assertThrows(RuntimeException.class, () -> a.getArrayElement(5));
        assertIndexError(e, "5");
        e = assertThrows(RuntimeException.class, () -> a.setArrayElement(-1, 1.0));
        assertIndexError(e, "-1");
        Value m = deviceArray().execute("int", 2, 3);
        e = assertThrows(RuntimeException.class, () -> m.getArrayElement(1).getArrayElement(3));
        assertIndexError(e, "3");
    }

    private static void assertIndexError(RuntimeException e, String index) {
        assertTrue(e instanceof ArrayIndexOutOfBoundsException
                || e instanceof PolyglotException p && !p.isHostException(), e.toString());
        assertTrue(e.getMessage().contains(index), e.getMessage());
    }

    @Test
    void iterationAndBufferAccessSeeTheElements() {
        Value a = deviceArray().execute("float", 6);
        for (int i = 0; i < 6; i++) {
            a.setArrayElement(i, i * 1.5);
        }
        assertTrue(a.hasArrayElements() && a.hasIterator());
        List<Float> seen = new ArrayList<>();
        Value it = a.getIterator();
        while (it.hasIteratorNextElement()) {
            seen.add(it.getIteratorNextElement().asFloat());
        }
        assertEquals(List.of(0f, 1.5f, 3f, 4.5f, 6f, 7.5f), seen);
        assertTrue(a.hasBufferElements() && a.isBufferWritable());
        assertEquals(24, a.getBufferSize());
        assertEquals(4.5f, a.readBufferFloat(ByteOrder.nativeOrder(), 12));
        a.writeBufferFloat(ByteOrder.LITTLE_ENDIAN, 20, 9.25f);
        assertEquals(9.25f, a.getArrayElement(5).asFloat());
        byte[] bytes = new byte[8];
        a.readBuffer(4, bytes, 0, 8);
        assertEquals(1.5f, java.nio.ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).getFloat(0));
        assertThrows(IndexOutOfBoundsException.class, () -> a.readBufferFloat(ByteOrder.nativeOrder(), 21));
    }

    /**
     * An embedder's context with the default host access does not show Java arrays as arrays: the bulk copy
     * still takes one of the array's element type, and any other says what to pass instead of calling a
     * {@code float[]} "not a host array".
     */
    @Test
    void javaArraysWithoutHostArrayAccessCopyInBulkOrSayWhatToPass() {
        // its own engine: contexts of one engine share their host access
        try (Context plain = Context.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").build()) {
            Value ints = plain.eval("grcuda", "DeviceArray").execute("int", 3);
            ints.invokeMember("copyFrom", (Object) new int[]{4, -5, 6});
            int[] back = new int[3];
            ints.invokeMember("copyTo", (Object) back);
            assertArrayEquals(new int[]{4, -5, 6}, back);
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> ints.invokeMember("copyTo", (Object) new float[3]));
            assertTrue(e.getMessage().startsWith("copyTo: the destination is a float[], but DeviceArray(int, 3) holds"
                    + " int elements; pass an int[] (copied in bulk), or give the context host array access"), e.getMessage());
            e = assertThrows(PolyglotException.class, () -> ints.invokeMember("copyFrom", (Object) new int[2]));
            assertEquals("copyFrom: the source int[] has 2 elements, fewer than the 3 to copy", e.getMessage());
            Value flags = plain.eval("grcuda", "DeviceArray").execute("bool", 2);
            e = assertThrows(PolyglotException.class, () -> flags.invokeMember("copyFrom", (Object) new boolean[2]));
            assertTrue(e.getMessage().startsWith("copyFrom: the source is a boolean[], but DeviceArray(bool, 2) holds"
                    + " bool elements; give the context host array access"), e.getMessage());
            assertEquals(4, ints.getArrayElement(0).asInt());
        }
    }

    @Test
    void copyFromAndCopyToJavaArraysListsAndDeviceArrays() {
        Random r = new Random(SEED);
        float[] src = new float[50];
        for (int i = 0; i < src.length; i++) {
            src[i] = r.nextFloat() * 100 - 50;
        }
        Value a = deviceArray().execute("float", 50);
        a.invokeMember("copyFrom", (Object) src);
        float[] back = new float[50];
        a.invokeMember("copyTo", (Object) back);
        assertArrayEquals(src, back, "seed " + SEED);

        Value b = deviceArray().execute("float", 50);
        b.invokeMember("copyFrom", a);
        assertEquals(src[17], b.getArrayElement(17).asFloat());
        Value c = deviceArray().execute("float", 10);
        a.invokeMember("copyTo", c, 10);
        assertEquals(src[9], c.getArrayElement(9).asFloat());

        Value ints = deviceArray().execute("int", 4);
        ints.invokeMember("copyFrom", Value.asValue(List.of(4, 3, 2, 1)));
        assertEquals(2, ints.getArrayElement(2).asInt());
        ints.getMember("copyFrom").execute(ProxyArray.fromArray(9, 8, 7, 6), 2);
        assertEquals(8, ints.getArrayElement(1).asInt());
        assertEquals(2, ints.getArrayElement(2).asInt());
        Object[] out = new Object[4];
        ints.invokeMember("copyTo", ProxyArray.fromArray(out));
        assertEquals(1, ((Value) out[3]).asInt());
        double[] widened = new double[4];
        ints.invokeMember("copyTo", (Object) widened);
        assertArrayEquals(new double[]{9, 8, 2, 1}, widened);

        PolyglotException e = assertThrows(PolyglotException.class,
                () -> ints.invokeMember("copyFrom", deviceArray().execute("float", 4)));
        assertTrue(e.getMessage().contains("copyFrom: the source DeviceArray(float, 4) has element type float, not int"),
                e.getMessage());
        e = assertThrows(PolyglotException.class, () -> ints.invokeMember("copyFrom", (Object) new int[2]));
        assertTrue(e.getMessage().contains("copyFrom: the source has 2 elements, fewer than the 4 to copy"),
                e.getMessage());
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
                () -> ints.invokeMember("copyFrom", ProxyArray.fromArray(1, 300L << 30, 1, 1)));
        assertTrue(big.getMessage().contains("cannot store 322122547200 in a DeviceArray of int: out of range"),
                big.getMessage());
    }

    @Test
    void freeThenUseIsAnErrorSayingTheArrayWasFreed() {
        Value a = deviceArray().execute("double", 3);
        assertFalse(a.getMember("isMemoryFreed").asBoolean());
        assertTrue(a.invokeMember("free").isNull());
        assertTrue(a.getMember("isMemoryFreed").asBoolean());
        PolyglotException e = assertThrows(PolyglotException.class, () -> a.invokeMember("freeMemory"));
        assertTrue(e.getMessage().contains("already freed"), e.getMessage());
        e = assertThrows(PolyglotException.class, () -> a.getArrayElement(0));
        assertTrue(e.getMessage().matches("DeviceArray\\(double, 3\\) \\(buffer \\d+\\) was freed; it can no longer"
                + " be read, written or copied"), e.getMessage());
        assertFalse(e.isHostException());
        assertThrows(PolyglotException.class, () -> a.setArrayElement(0, 1.0));
        assertThrows(PolyglotException.class, () -> a.invokeMember("copyTo", (Object) new double[3]));
        Value b = deviceArray().execute("double", 3);
        e = assertThrows(PolyglotException.class, () -> b.invokeMember("copyFrom", a));
        assertTrue(e.getMessage().contains("was freed"), e.getMessage());
        assertEquals("DeviceArray(double, 3)[freed]", a.toString());
        Value m = deviceArray().execute("int", 2, 2);
        m.invokeMember("free");
        assertThrows(PolyglotException.class, () -> m.getArrayElement(0));
    }

    @Test
    void rowMajorAndColumnMajorLayouts() {
        for (String order : new String[]{"C", "F"}) {
            Value m = deviceArray().execute("int", 3, 4, order);
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 4; j++) {
                    m.getArrayElement(i).setArrayElement(j, 10 * i + j);
                }
            }
            int[] flat = new int[12];
            m.invokeMember("copyTo", (Object) flat);
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 4; j++) {
                    int at = order.equals("C") ? i * 4 + j : i + j * 3;
                    assertEquals(10 * i + j, flat[at], order + " [" + i + "][" + j + "]");
                    assertEquals(10 * i + j, m.getArrayElement(i).getArrayElement(j).asInt());
                }
            }
        }
        Value m3 = eval("float[2][3][4]");
        float[] flat = new float[24];
        for (int k = 0; k < 24; k++) {
            flat[k] = k + 0.5f;
        }
        m3.invokeMember("copyFrom", (Object) flat);
        assertEquals(1 * 12 + 2 * 4 + 3 + 0.5f, m3.getArrayElement(1).getArrayElement(2).getArrayElement(3).asFloat());
        assertThrows(UnsupportedOperationException.class, () -> m3.getArrayElement(0).setArrayElement(0, 1));
    }

    @Test
    void mapFillsFromAnySequence() {
        Value a = deviceArray().invokeMember("map", "double", Value.asValue(new double[]{1.5, 2.5, 3.5}));
        assertEquals(3, a.getArraySize());
        assertEquals(2.5, a.getArrayElement(1).asDouble());
        Value b = deviceArray().getMember("map").execute(ProxyArray.fromList(new ArrayList<>(List.of(1, 2))), "uchar");
        assertEquals("DeviceArray(uchar, 2)[1, 2]", b.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> deviceArray().invokeMember("map", "uchar", ProxyArray.fromArray(1, 256)));
        assertTrue(e.getMessage().contains("cannot store 256 in a DeviceArray of uchar"), e.getMessage());
    }

    @Test
    void displayStringsAndMetaObject() {
        Value a = deviceArray().invokeMember("map", "float", ProxyArray.fromArray(1, 2, 3, 4, 5));
        assertEquals("DeviceArray(float, 5)[1.0, 2.0, 3.0, 4.0, 5.0]", a.toString());
        String longOne = eval("int[100]").toString();
        assertTrue(longOne.startsWith("DeviceArray(int, 100)[0, 0, "), longOne);
        assertTrue(longOne.endsWith(", 0, …]"), longOne);
        assertEquals("DeviceArray(bool, 2, 2, \"F\")[[false, false], [false, false]]",
                deviceArray().execute("bool", 2, 2, "F").toString());
        assertEquals("DeviceArray", a.getMetaObject().getMetaSimpleName());
        assertEquals("DeviceArray", eval("float[2][2]").getArrayElement(0).getMetaObject().getMetaQualifiedName());
        assertTrue(a.getMetaObject().isMetaInstance(eval("float[3][3]")));
        assertTrue(a.getMemberKeys().containsAll(List.of("copyFrom", "copyTo", "free", "freeMemory", "isMemoryFreed")));
    }
}
