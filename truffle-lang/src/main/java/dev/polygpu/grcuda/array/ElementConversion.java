package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.ElementType;
import dev.polygpu.grcuda.builtins.Args;
import java.math.BigInteger;

/**
 * Converts an interop value into an element of a device array and stores it through {@link ArrayAccess}:
 * any interop number that the C type holds exactly (integers range-checked, a {@code ulong} up to 2^64 - 1
 * from any exact integer such as a Python int, a JavaScript BigInt or a Java BigInteger), any number for float
 * and double arrays (rounded to the nearest, as C converts; for float a finite value that would round to
 * infinity is refused as out of range), booleans for bool arrays. A value that does not
 * fit is an {@link UnsupportedTypeException} naming the value and the array's type.
 */
final class ElementConversion {
    private static final BigInteger ULONG_LIMIT = BigInteger.ONE.shiftLeft(64);

    private ElementConversion() {
    }

    /**
     * Stores {@code value} at {@code index} of {@code m}, whose element type is {@code type}: the caller passes
     * a cached constant there, so that compiled code keeps only the branch of that one type.
     */
    static void store(ArrayMemory m, ElementType type, long index, Object value, InteropLibrary values)
            throws UnsupportedTypeException {
        try {
            if (type == ElementType.BOOL) {
                if (!values.isBoolean(value)) {
                    throw unsupported(value, type, "expected a boolean");
                }
                ArrayAccess.writeInteger(m, type, index, values.asBoolean(value) ? 1 : 0);
            } else if (type.isFloating()) {
                double d;
                if (values.fitsInDouble(value)) {
                    d = values.asDouble(value);
                } else if (values.fitsInLong(value)) {
                    d = values.asLong(value);
                } else if (values.fitsInBigInteger(value)) {
                    // beyond a long and a double's exact range (a ulong past 2^63): rounded, as C converts
                    d = nearestDouble(values.asBigInteger(value));
                } else {
                    throw unsupported(value, type, "expected a number");
                }
                if (type == ElementType.FLOAT && overflowsFloat(d)) {
                    throw beyondFloat(value);
                }
                ArrayAccess.writeFloating(m, type, index, d);
            } else if (values.fitsInLong(value)) {
                long v = values.asLong(value);
                if (!fits(type, v)) {
                    throw outOfRange(value, type);
                }
                ArrayAccess.writeInteger(m, type, index, v);
            } else if (type == ElementType.UINT64 && values.fitsInBigInteger(value)) {
                ArrayAccess.writeInteger(m, type, index, unsignedLong(value, values.asBigInteger(value)));
            } else if (values.fitsInBigInteger(value)) {
                throw outOfRange(value, type);
            } else {
                throw unsupported(value, type, "expected an integer");
            }
        } catch (UnsupportedMessageException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long unsignedLong(Object value, BigInteger v) throws UnsupportedTypeException {
        if (v.signum() < 0 || v.compareTo(ULONG_LIMIT) >= 0) {
            throw outOfRange(value, ElementType.UINT64);
        }
        return v.longValue();
    }

    @TruffleBoundary
    private static double nearestDouble(BigInteger v) {
        return v.doubleValue();
    }

    /**
     * True for a finite value that rounds to infinity as a float (beyond float's range): refused, as the array's
     * other types refuse what they cannot hold. Infinities and NaN themselves are float values and stored.
     */
    static boolean overflowsFloat(double d) {
        return Float.isInfinite((float) d) && !Double.isInfinite(d);
    }

    @TruffleBoundary
    private static UnsupportedTypeException beyondFloat(Object value) {
        return UnsupportedTypeException.create(new Object[]{value}, "cannot store " + Args.display(value)
                + " in a DeviceArray of float: beyond float's range (finite floats are at most "
                + Float.MAX_VALUE + " in magnitude; store Infinity itself if that is meant, or use a double array)");
    }

    private static boolean fits(ElementType type, long v) {
        return v >= type.minValue() && v <= type.maxValue();
    }

    private static String range(ElementType type) {
        return type.minValue() + " to " + (type == ElementType.UINT64 ? Long.toUnsignedString(-1L) : type.maxValue());
    }

    @TruffleBoundary
    private static UnsupportedTypeException outOfRange(Object value, ElementType type) {
        return UnsupportedTypeException.create(new Object[]{value}, "cannot store " + Args.display(value)
                + " in a DeviceArray of " + ElementTypes.shortName(type) + ": out of range " + range(type));
    }

    @TruffleBoundary
    private static UnsupportedTypeException unsupported(Object value, ElementType type, String expected) {
        return UnsupportedTypeException.create(new Object[]{value}, "cannot store " + Args.display(value)
                + " in a DeviceArray of " + ElementTypes.shortName(type) + ": " + expected);
    }
}
