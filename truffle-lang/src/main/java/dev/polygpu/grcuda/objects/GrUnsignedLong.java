package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import java.math.BigInteger;

/**
 * An unsigned 64-bit integer of 2^63 or more (a {@code ulong} array element): an interop number beyond a
 * {@code long}, which guest languages see as an exact integer through {@code fitsInBigInteger}/{@code
 * asBigInteger} (a Python int, a JavaScript BigInt, a Java {@link BigInteger}). Smaller {@code ulong} values
 * are plain {@code long}s and never become one of these. It fits in a float or double only where that type
 * holds it exactly; immutable.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrUnsignedLong extends GrObject {
    /** Float and double keep this many significant bits; a 64-bit value fits when its lower bits are zero. */
    private static final int FLOAT_BITS = 24;
    private static final int DOUBLE_BITS = 53;
    private static final double TWO_TO_64 = 0x1p64;

    /** The value's 64 bits; negative as a signed long, since the value is 2^63 or more. */
    private final long bits;

    private GrUnsignedLong(long bits) {
        this.bits = bits;
    }

    /**
     * The interop value of the unsigned 64-bit integer whose bits are {@code bits}: a {@code Long} below
     * 2^63, else one of these.
     */
    public static Object of(long bits) {
        return bits >= 0 ? (Object) bits : new GrUnsignedLong(bits);
    }

    /** The value's 64 bits, as C stores it. */
    public long bits() {
        return bits;
    }

    @ExportMessage
    boolean isNumber() {
        return true;
    }

    @ExportMessage(name = "fitsInByte")
    @ExportMessage(name = "fitsInShort")
    @ExportMessage(name = "fitsInInt")
    @ExportMessage(name = "fitsInLong")
    boolean fitsInLong() {
        return false;
    }

    @ExportMessage
    boolean fitsInBigInteger() {
        return true;
    }

    @ExportMessage
    boolean fitsInFloat() {
        return Long.numberOfTrailingZeros(bits) >= Long.SIZE - FLOAT_BITS;
    }

    @ExportMessage
    boolean fitsInDouble() {
        return Long.numberOfTrailingZeros(bits) >= Long.SIZE - DOUBLE_BITS;
    }

    @ExportMessage
    byte asByte() throws UnsupportedMessageException {
        throw UnsupportedMessageException.create();
    }

    @ExportMessage
    short asShort() throws UnsupportedMessageException {
        throw UnsupportedMessageException.create();
    }

    @ExportMessage
    int asInt() throws UnsupportedMessageException {
        throw UnsupportedMessageException.create();
    }

    @ExportMessage
    long asLong() throws UnsupportedMessageException {
        throw UnsupportedMessageException.create();
    }

    @ExportMessage
    float asFloat() throws UnsupportedMessageException {
        if (!fitsInFloat()) {
            throw UnsupportedMessageException.create();
        }
        return (float) toDouble();
    }

    @ExportMessage
    double asDouble() throws UnsupportedMessageException {
        if (!fitsInDouble()) {
            throw UnsupportedMessageException.create();
        }
        return toDouble();
    }

    @ExportMessage
    @TruffleBoundary
    BigInteger asBigInteger() {
        return BigInteger.valueOf(bits).add(BigInteger.ONE.shiftLeft(Long.SIZE));
    }

    /** The nearest double; exact where {@link #fitsInDouble()}. */
    private double toDouble() {
        return bits + TWO_TO_64;
    }

    @Override
    @TruffleBoundary
    public String toString() {
        return Long.toUnsignedString(bits);
    }

    @Override
    protected String displayString() {
        return Long.toUnsignedString(bits);
    }
}
