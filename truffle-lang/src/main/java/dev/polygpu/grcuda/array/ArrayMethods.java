package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.ElementType;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.builtins.Args;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.grcuda.objects.GrList;

/**
 * The methods of a whole device array (1-D or multi-dimensional, in memory order): {@code copyFrom(src[, n])},
 * {@code copyTo(dst[, n])}, {@code free()}, its Java name {@code freeMemory()}, and the read-only property
 * {@code isMemoryFreed} (a boolean, as GrCUDA has it: {@code a.isMemoryFreed}, not a call).
 * A source or destination is another device array of the same element type (a device copy), raw memory
 * ({@code cudaMalloc}) or an address inside an allocation (a copy of the array's bytes), a host address outside
 * them whose bytes the process has mapped ({@link HostAddressCopy}), a Java primitive array (a bulk copy), or any
 * interop array (element by element, converted and range-checked).
 */
final class ArrayMethods {
    static final String[] NAMES = {"copyFrom", "copyTo", "free", "freeMemory", "isMemoryFreed"};
    /** The one member that is a property, not a method. */
    static final String IS_MEMORY_FREED = "isMemoryFreed";
    /**
     * A readable member not listed among the members (as in GrCUDA): the address of the first element, for
     * the functions that take addresses ({@code cudaMemcpy(dst.pointer + 8, src.pointer, 16)}).
     */
    static final String POINTER = "pointer";

    private ArrayMethods() {
    }

    static boolean has(String name) {
        return POINTER.equals(name) || listed(name);
    }

    private static boolean listed(String name) {
        for (String n : NAMES) {
            if (n.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** True for the members that can be invoked (all but the {@code isMemoryFreed} property). */
    static boolean invocable(String name) {
        return listed(name) && !IS_MEMORY_FREED.equals(name);
    }

    /** The value of a readable member: a property's value, or a bound method. */
    static Object read(ArrayMemory m, String name) throws UnknownIdentifierException {
        if (!has(name)) {
            throw UnknownIdentifierException.create(name);
        }
        if (POINTER.equals(name)) {
            return m.liveAddress();
        }
        return IS_MEMORY_FREED.equals(name) ? m.isFreed() : new GrArrayMethod(m, name);
    }

    static Object names() {
        return new GrList(NAMES.clone());
    }

    @TruffleBoundary
    static Object invoke(ArrayMemory m, String name, Object[] args)
            throws UnknownIdentifierException, ArityException, UnsupportedTypeException {
        switch (name) {
            case "copyFrom", "copyTo" -> {
                Args.arity(args, 1, 2);
                long n = args.length == 2 ? Args.integer(args, 1, name, "number of elements") : m.count;
                if (n < 0 || n > m.count) {
                    throw GrError.of(name + ": cannot copy " + n + " elements; " + m.description + " has " + m.count);
                }
                if (name.equals("copyFrom")) {
                    copyFrom(m, args[0], n);
                } else {
                    copyTo(m, args[0], n);
                }
                return args[0];
            }
            case "free", "freeMemory" -> {
                Args.arity(args, 0, 0);
                GrContext.get(null).pythonArrayDisplay().registerIfCalledFromPython();
                m.free();
                return dev.polygpu.grcuda.objects.GrNone.INSTANCE;
            }
            default -> throw UnknownIdentifierException.create(name);
        }
    }

    private static void copyFrom(ArrayMemory m, Object src, long n) throws UnsupportedTypeException {
        m.live();
        if (src instanceof ArrayHolder h) {
            ArrayMemory s = deviceOperand(m, h, n, "copyFrom", "source");
            ArrayAccess.copy("copyFrom", m, 0, s, h.firstElement(), n);
            return;
        }
        GrContext context = GrContext.get(null);
        GrDeviceMemory raw = Handles.memoryOrNull(context, src);
        Long address = raw == null ? Handles.address(src, "copyFrom: the source") : null;
        if (address != null) {
            raw = context.allocations().resolve(address);
            if (raw == null) {
                HostAddressCopy.from(context.allocations(), m, address, n);
                return;
            }
        }
        if (raw != null) {
            ByteCopy.submit(m.scheduler(), "copyFrom", Allocations.whole(m), raw, n * m.type.size, null);
            return;
        }
        Object host = javaArray(src);
        InteropLibrary interop = InteropLibrary.getUncached();
        if (host != null) {
            int length = java.lang.reflect.Array.getLength(host);
            if (length >= n && ArrayAccess.copyFromJavaArray(m, 0, host, (int) n)) {
                return;
            }
            if (!interop.hasArrayElements(src)) {
                throw javaArrayMismatch(m, host, length, n, "copyFrom", "source");
            }
        }
        long size = hostSize(src, n, "copyFrom", "source");
        try {
            for (long i = 0; i < n; i++) {
                ElementConversion.store(m, m.type, i, interop.readArrayElement(src, i), InteropLibrary.getUncached());
            }
        } catch (UnsupportedTypeException e) {
            throw e;
        } catch (InteropException e) {
            throw GrError.of("copyFrom: cannot read the source (" + size + " elements): " + e.getMessage());
        }
    }

    private static void copyTo(ArrayMemory m, Object dst, long n) throws UnsupportedTypeException {
        m.live();
        if (dst instanceof ArrayHolder h) {
            ArrayMemory d = deviceOperand(m, h, n, "copyTo", "destination");
            ArrayAccess.copy("copyTo", d, h.firstElement(), m, 0, n);
            return;
        }
        GrContext context = GrContext.get(null);
        GrDeviceMemory raw = Handles.memoryOrNull(context, dst);
        Long address = raw == null ? Handles.address(dst, "copyTo: the destination") : null;
        if (address != null) {
            raw = context.allocations().resolve(address);
            if (raw == null) {
                HostAddressCopy.to(context.allocations(), m, address, n);
                return;
            }
        }
        if (raw != null) {
            ByteCopy.submit(m.scheduler(), "copyTo", raw, Allocations.whole(m), n * m.type.size, null);
            return;
        }
        Object host = javaArray(dst);
        InteropLibrary interop = InteropLibrary.getUncached();
        if (host != null) {
            int length = java.lang.reflect.Array.getLength(host);
            if (length >= n && ArrayAccess.copyToJavaArray(m, 0, host, (int) n)) {
                return;
            }
            if (!interop.hasArrayElements(dst)) {
                throw javaArrayMismatch(m, host, length, n, "copyTo", "destination");
            }
        }
        hostSize(dst, n, "copyTo", "destination");
        for (long i = 0; i < n; i++) {
            try {
                interop.writeArrayElement(dst, i, ArrayAccess.read(m, i));
            } catch (UnsupportedMessageException e) {
                throw GrError.of("copyTo: the destination cannot be written: it is a"
                        + " read-only sequence (a Python tuple, a frozen JavaScript array, …); pass a list, a host"
                        + " array or a device array");
            } catch (InteropException e) {
                throw GrError.of("copyTo: cannot write element " + i + " of the destination: " + e.getMessage());
            }
        }
    }

    private static ArrayMemory deviceOperand(ArrayMemory m, ArrayHolder h, long n, String function, String role) {
        ArrayMemory other = h.memory();
        other.live();
        if (other.type != m.type) {
            throw GrError.of(function + ": the " + role + " " + other.description + " has element type "
                    + ElementTypes.shortName(other.type) + ", not " + ElementTypes.shortName(m.type));
        }
        if (!h.isContiguous()) {
            throw GrError.of(function + ": the " + role + " is a view that is not contiguous in memory");
        }
        if (h.elementCount() < n) {
            throw GrError.of(function + ": the " + role + " has " + h.elementCount() + " elements, fewer than the "
                    + n + " to copy");
        }
        return other;
    }

    private static long hostSize(Object o, long n, String function, String role) throws UnsupportedTypeException {
        InteropLibrary interop = InteropLibrary.getUncached();
        if (!interop.hasArrayElements(o)) {
            throw UnsupportedTypeException.create(new Object[]{o}, function + ": the " + role + " must be a device"
                    + " array, a GPUPointer, an address (inside either, or of mapped host memory), or a host array or"
                    + " list, got " + Args.display(o));
        }
        try {
            long size = interop.getArraySize(o);
            if (size < n) {
                throw GrError.of(function + ": the " + role + " has " + size + " elements, fewer than the " + n
                        + " to copy");
            }
            return size;
        } catch (UnsupportedMessageException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Why a Java primitive array that the context's host access does not show as an array (the default
     * {@code HostAccess} of an embedder's context) cannot be copied: too short, or of another element type than
     * the bulk copy takes. With array access, such an array is copied element by element instead.
     */
    private static GrError javaArrayMismatch(ArrayMemory m, Object host, int length, long n, String function,
            String role) {
        String javaType = host.getClass().getComponentType().getName() + "[]";
        if (length < n) {
            return GrError.of(function + ": the " + role + " " + javaType + " has " + length
                    + " elements, fewer than the " + n + " to copy");
        }
        String bulk = bulkJavaType(m.type);
        return GrError.of(function + ": the " + role + " is a " + javaType + ", but " + m.description + " holds "
                + ElementTypes.shortName(m.type) + " elements; "
                + (bulk == null ? "" : "pass " + (bulk.startsWith("i") ? "an " : "a ") + bulk + " (copied in bulk), or ")
                + "give the context host array access (allowHostAccess(HostAccess.ALL)) to have each element"
                + " converted");
    }

    /** The Java array type that the bulk copy takes for {@code type}, or null (bool arrays have none). */
    private static String bulkJavaType(ElementType type) {
        return switch (type) {
            case INT8, UINT8 -> "byte[]";
            case INT16, UINT16 -> "short[]";
            case INT32, UINT32 -> "int[]";
            case INT64, UINT64 -> "long[]";
            case FLOAT -> "float[]";
            case DOUBLE -> "double[]";
            case BOOL -> null;
        };
    }

    /** The Java primitive array behind a host object, or null. */
    private static Object javaArray(Object o) {
        TruffleLanguage.Env env = GrContext.get(null).env();
        if (env.isHostObject(o)) {
            Object h = env.asHostObject(o);
            if (h != null && h.getClass().isArray() && h.getClass().getComponentType().isPrimitive()) {
                return h;
            }
        }
        return null;
    }
}
