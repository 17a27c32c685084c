package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.builtins.Args;

/**
 * Checks the arguments of {@code DeviceArray} and its curried and {@code map} forms, and allocates arrays in
 * the context's device memory (zero-filled).
 */
final class ArrayFactory {
    private ArrayFactory() {
    }

    @TruffleBoundary
    static ElementType type(Object[] args, int i, String function) throws UnsupportedTypeException {
        String name = Args.string(args, i, function, "element type");
        ElementType type = ElementTypes.lookup(name);
        if (type == null) {
            throw GrError.of(function + ": '" + name + "' is not an element type;"
                    + " valid types are: " + ElementTypes.validNames());
        }
        return type;
    }

    /** {@code DeviceArray(type, d1, …, dk[, "C"|"F"])} with the type already read; sizes from {@code args[from]}. */
    @TruffleBoundary
    static Object create(GrContext context, ElementType type, Object[] args, int from)
            throws ArityException, UnsupportedTypeException {
        String function = "DeviceArray";
        int end = args.length;
        boolean columnMajor = false;
        if (end > from && InteropLibrary.getUncached().isString(args[end - 1])) {
            String order = Args.string(args, end - 1, function, "order");
            if (!order.equals("C") && !order.equals("F")) {
                if (end - 1 == from || order.strip().matches("[-+]?[0-9][0-9_]*")) {
                    // A size written as a string, not a misspelt order.
                    throw GrError.of(function + ": argument " + end + " (the size of dimension " + (end - from)
                            + ") must be an integer, got the string \"" + order + "\"; pass the number itself"
                            + " (a last argument that is a string is the order, \"C\" or \"F\")");
                }
                throw GrError.of(function + ": the order must be \"C\" (row-major) or"
                        + " \"F\" (column-major), got \"" + order + "\"");
            }
            columnMajor = order.equals("F");
            end--;
        }
        if (end == from) {
            throw ArityException.create(from + 1, -1, args.length);
        }
        long[] dims = new long[end - from];
        long count = 1;
        StringBuilder description = new StringBuilder("DeviceArray(").append(ElementTypes.shortName(type));
        for (int i = from; i < end; i++) {
            long d = Args.integer(args, i, function, "size of dimension " + (i - from + 1));
            if (d <= 0) {
                throw GrError.of(function + ": the size of dimension " + (i - from + 1) + " must be positive, got "
                        + d);
            }
            dims[i - from] = d;
            count = checkedSize(count, d, type, function);
            description.append(", ").append(d);
        }
        if (dims.length == 1) {
            return new GrDeviceArray(allocate(context, type, count, description.append(')').toString()));
        }
        if (columnMajor) {
            description.append(", \"F\"");
        }
        ArrayMemory memory = allocate(context, type, count, description.append(')').toString());
        return new GrMultiDimDeviceArray(memory, Shape.of(dims, columnMajor));
    }

    /** A new 1-D array holding the elements of an interop array. */
    @TruffleBoundary
    static GrDeviceArray map(GrContext context, ElementType type, Object sequence, String function)
            throws UnsupportedTypeException {
        InteropLibrary interop = InteropLibrary.getUncached();
        if (!interop.hasArrayElements(sequence)) {
            throw UnsupportedTypeException.create(new Object[]{sequence}, function + ": expected a host array or"
                    + " list to copy, got " + Args.display(sequence));
        }
        try {
            long n = interop.getArraySize(sequence);
            if (n <= 0) {
                throw GrError.of(function + ": the sequence is empty; device arrays have at least one element");
            }
            checkedSize(1, n, type, function);
            ArrayMemory m = allocate(context, type, n, "DeviceArray(" + ElementTypes.shortName(type) + ", " + n + ")");
            for (long i = 0; i < n; i++) {
                ElementConversion.store(m, m.type, i, interop.readArrayElement(sequence, i), interop);
            }
            return new GrDeviceArray(m);
        } catch (UnsupportedTypeException e) {
            throw e;
        } catch (InteropException e) {
            throw GrError.of(function + ": cannot read the sequence: " + e.getMessage());
        }
    }

    private static long checkedSize(long count, long d, ElementType type, String function) {
        try {
            long n = Math.multiplyExact(count, d);
            Math.multiplyExact(n, (long) type.size);
            return n;
        } catch (ArithmeticException e) {
            throw GrError.of(function + ": the array is too large (the byte size overflows a 64-bit integer)");
        }
    }

    private static ArrayMemory allocate(GrContext context, ElementType type, long count, String description) {
        try {
            UnifiedBuffer buffer = context.device().allocate(count * type.size);
            return new ArrayMemory(context.scheduler(), context.allocations(), buffer, type, count, description,
                    true);
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }
}
