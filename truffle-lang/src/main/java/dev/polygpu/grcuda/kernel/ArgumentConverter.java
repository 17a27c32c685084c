package dev.polygpu.grcuda.kernel;

import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.AccessMode;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.builtins.Args;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the guest's kernel arguments into device {@link KernelArgs} by the kernel's signature: device arrays,
 * raw memory ({@code cudaMalloc}) or addresses inside either for pointers, numbers checked against the range of the parameter's C type for scalars. Integer-valued
 * floating-point numbers are accepted for integer parameters (JavaScript has no other numbers); a fraction
 * is not.
 */
public final class ArgumentConverter {
    private static final InteropLibrary INTEROP = InteropLibrary.getUncached();

    /** The converted arguments, and the arrays among them with how the kernel uses each. */
    public record Converted(KernelArgs args, List<Access> accesses) {
    }

    /** Why {@code user} (a kernel, a byte copy) cannot take a view whose elements are strided. */
    public static String notContiguous(String user) {
        return "a row of a column-major (\"F\") array, whose elements are not next to each other in memory: "
                + user + " would see other elements. Pass the whole array, or make the array row-major (\"C\")";
    }

    private ArgumentConverter() {
    }

    @TruffleBoundary
    public static Converted convert(GrContext context, NidlSignature signature, Object[] args)
            throws ArityException, UnsupportedTypeException {
        return convert(context, signature, "kernel", args);
    }

    /**
     * Converts the arguments of a call of {@code signature}'s function, which messages call a {@code callee}
     * ({@code kernel}, {@code host function}); arrays become pointers, with how the signature says it uses them.
     */
    @TruffleBoundary
    public static Converted convert(GrContext context, NidlSignature signature, String callee, Object[] args)
            throws ArityException, UnsupportedTypeException {
        List<NidlSignature.Param> params = signature.params();
        Args.arity(args, params.size(), params.size());
        KernelArgs.Builder b = KernelArgs.builder();
        List<Access> accesses = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            NidlSignature.Param p = params.get(i);
            if (p.pointer()) {
                GrDeviceMemory m = Handles.memoryOrNull(context, args[i]);
                if (m == null) {
                    m = Handles.atAddress(context, args[i], role(signature, callee, i));
                    if (m == null) {
                        throw UnsupportedTypeException.create(args, role(signature, callee, i) + " must be a device array,"
                                + " a GPUPointer from cudaMalloc or an address inside one, got "
                                + Args.display(args[i]));
                    }
                }
                if (m.isFreed()) {
                    throw GrError.of(role(signature, callee, i) + " is " + m.describe() + ", which was freed");
                }
                if (!m.isContiguous()) {
                    throw GrError.of(role(signature, callee, i) + " is " + notContiguous("the " + callee));
                }
                if (p.type() != null) {
                    checkPointee(signature, callee, i, m, p.type());
                }
                b.pointer(m.buffer(), m.byteOffset());
                accesses.add(new Access(m.tracked(), access(m, p.access())));
            } else {
                b.add(new KernelArg.Scalar(p.type(), scalarBits(args, i, p.type(), signature, callee)));
            }
        }
        return new Converted(b.build(), accesses);
    }

    /**
     * Refuses memory the kernel would read as another type (a silently wrong result), and, for raw memory or
     * an address, a start that is not on a boundary of the parameter's type (CUDA faults on such an access).
     */
    private static void checkPointee(NidlSignature signature, String callee, int i, GrDeviceMemory m, ElementType type) {
        if (m.isTyped() && !NidlSignature.sameRepresentation(m.elementType(), type)) {
            throw GrError.of(role(signature, callee, i) + " is a pointer to " + NidlSignature.typeName(type)
                    + ", but the device array passed holds " + m.elementType().cName + "; pass an array of "
                    + NidlSignature.typeName(type) + " or change the " + callee + "'s signature");
        }
        if (m.byteOffset() % type.size != 0) {
            throw GrError.of(role(signature, callee, i) + " is a pointer to " + NidlSignature.typeName(type) + ", but "
                    + m.describe() + " is not a multiple of " + type.size + " bytes from the start of its"
                    + " allocation; CUDA faults on such a misaligned pointer");
        }
    }

    /**
     * How the kernel uses the array behind {@code m}. An {@code out} pointer to part of an array (an address inside
     * it, a row of a multi-dimensional one) leaves the rest as it was, so the array's bytes are an input too: the
     * dependencies are the same either way, but a cluster thief must get those bytes, or the whole array it
     * sends back would hold zeros outside the part the kernel wrote.
     */
    private static AccessMode access(GrDeviceMemory m, AccessMode declared) {
        if (declared == AccessMode.WRITE && (m.byteOffset() != 0 || m.byteCount() != m.tracked().bytes())) {
            return AccessMode.READ_WRITE;
        }
        return declared;
    }

    /** How messages name argument {@code i}; built only when there is something to say. */
    private static String role(NidlSignature signature, String callee, int i) {
        return "argument " + (i + 1) + " ('" + signature.params().get(i).name() + "') of " + callee + " '"
                + signature.name() + "'";
    }

    private static String typed(NidlSignature signature, String callee, int i, ElementType type) {
        return role(signature, callee, i) + " (" + NidlSignature.typeName(type) + ")";
    }

    private static long scalarBits(Object[] args, int i, ElementType type, NidlSignature signature,
            String callee)
            throws UnsupportedTypeException {
        Object a = args[i];
        try {
            switch (type) {
                case FLOAT, DOUBLE -> {
                    boolean single = type == ElementType.FLOAT;
                    if (INTEROP.fitsInDouble(a)) {
                        double d = INTEROP.asDouble(a);
                        if (single && Float.isInfinite((float) d) && !Double.isInfinite(d)) {
                            throw UnsupportedTypeException.create(args, typed(signature, callee, i, type)
                                    + " cannot hold " + Args.display(a) + ": it is beyond the type's range (finite"
                                    + " floats are at most " + Float.MAX_VALUE + " in magnitude; pass Infinity"
                                    + " itself if that is meant, or declare the parameter double)");
                        }
                        return single ? Float.floatToRawIntBits((float) d) : Double.doubleToRawLongBits(d);
                    }
                    // An integer a double cannot hold exactly (2^53 + 1, a Python 2**64 - 1): rounded once to
                    // the nearest value of the parameter's type, as C converts it.
                    if (INTEROP.fitsInLong(a)) {
                        long v = INTEROP.asLong(a);
                        return single ? Float.floatToRawIntBits((float) v) : Double.doubleToRawLongBits((double) v);
                    }
                    if (INTEROP.fitsInBigInteger(a)) {
                        BigInteger v = INTEROP.asBigInteger(a);
                        double d = single ? v.floatValue() : v.doubleValue();
                        if (Double.isInfinite(d)) {
                            throw UnsupportedTypeException.create(args, typed(signature, callee, i, type)
                                    + " cannot hold " + Args.display(a) + ": it is beyond the type's range");
                        }
                        return single ? Float.floatToRawIntBits((float) d) : Double.doubleToRawLongBits(d);
                    }
                    throw UnsupportedTypeException.create(args,
                            typed(signature, callee, i, type) + " must be a number, got " + Args.display(a));
                }
                case BOOL -> {
                    if (INTEROP.isBoolean(a)) {
                        return INTEROP.asBoolean(a) ? 1 : 0;
                    }
                    if (INTEROP.fitsInLong(a) && (INTEROP.asLong(a) == 0 || INTEROP.asLong(a) == 1)) {
                        return INTEROP.asLong(a);
                    }
                    throw UnsupportedTypeException.create(args,
                            typed(signature, callee, i, type) + " must be a boolean, got " + Args.display(a));
                }
                default -> {
                    if (INTEROP.fitsInLong(a)) {
                        long v = INTEROP.asLong(a);
                        if (v >= type.minValue() && v <= type.maxValue()) {
                            return v;
                        }
                    } else if (INTEROP.fitsInBigInteger(a)) {
                        // beyond a long: only uint64 reaches there (up to 2^64 - 1), passed as its 64 bits
                        BigInteger v = INTEROP.asBigInteger(a);
                        if (type == ElementType.UINT64 && v.signum() >= 0 && v.bitLength() <= 64) {
                            return v.longValue();
                        }
                    } else {
                        throw UnsupportedTypeException.create(args,
                                typed(signature, callee, i, type) + " must be an integer, got "
                                + Args.display(a));
                    }
                    String max = type == ElementType.UINT64 ? Long.toUnsignedString(-1L)
                            : Long.toString(type.maxValue());
                    throw UnsupportedTypeException.create(args, typed(signature, callee, i, type) + " must be between "
                            + type.minValue() + " and " + max + ", got " + Args.display(a));
                }
            }
        } catch (UnsupportedMessageException e) {
            throw UnsupportedTypeException.create(args,
                    typed(signature, callee, i, type) + " cannot be read: " + Args.display(a));
        }
    }
}
