package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import dev.polygpu.grcuda.GrError;
import java.util.regex.Pattern;

/**
 * Assignments to a device array's members. JavaScript turns an element index that is not an array index
 * ({@code a[-1] = 1}, {@code a[1.5] = 1}) into a member name and writes that member; without an answer here the
 * guest would read "Message not supported.", so a name that is a number is refused as the index it was meant to
 * be. Other members (the array's methods and properties) cannot be assigned.
 */
final class IndexMember {
    private IndexMember() {
    }

    /** How JavaScript writes a number as a member name: {@code -1}, {@code 1.5}, {@code 1e+21}, {@code NaN}. */
    private static final Pattern NUMBER = Pattern.compile("-?(\\d+(\\.\\d+)?(e[-+]\\d+)?|Infinity)|NaN");

    /**
     * Refuses the assignment of {@code member} on an array of {@code size} elements shown as {@code array}: a guest
     * error for an index or a member of the array's API, unsupported for any other name.
     */
    @TruffleBoundary
    static void refuse(String member, String array, long size) throws UnsupportedMessageException {
        if (NUMBER.matcher(member).matches()) {
            String valid = size == 0 ? "it has no elements" : "valid indices are 0 to " + (size - 1);
            throw GrError.of("index " + member + " is out of bounds for " + array + ": " + valid);
        }
        if (ArrayMethods.has(member)) {
            throw GrError.of("'" + member + "' of " + array + " cannot be assigned: it is part of the array's API");
        }
        throw UnsupportedMessageException.create();
    }
}
