package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelArg;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.InterruptibleWaits;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrNone;
import dev.polygpu.grcuda.objects.GrPlainObject;
import dev.polygpu.grcuda.objects.GrUnsignedLong;
import dev.polygpu.runtime.ComputationalElement;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A function of a shared library bound with {@code bind}: executing it calls the function on the calling thread
 * and returns what it returns (its signature's return type; nothing for {@code void}). Device arrays are passed
 * as pointers to their memory (unified memory: the same address on the host and the device).
 *
 * <p>The call is an element of the context's DAG ({@link dev.polygpu.runtime.Scheduler#callOnHost}): it waits for
 * the kernels and copies its arrays depend on (by the signature's {@code in}/{@code out}/{@code inout}), and work
 * queued later on those arrays, by any thread, waits for it to return; an array cannot be freed during the
 * call. The function must be done with the memory when it returns: a function that launches kernels of its own
 * must synchronize before returning, as GrCUDA required. A crash inside the native function ends the process,
 * as it would in C; nothing here can catch it.
 *
 * <p>Members {@code name}, {@code symbol}, {@code library} and {@code callCount}. Thread-safety: immutable apart
 * from the call counter.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrHostFunction extends GrPlainObject {
    private static final String[] MEMBERS = {"name", "symbol", "library", "callCount"};

    private final GrContext context;
    private final NidlSignature signature;
    private final String library;
    private final String symbol;
    private final MethodHandle handle;
    private final AtomicLong calls = new AtomicLong();

    GrHostFunction(GrContext context, NidlSignature signature, String library, String symbol, MethodHandle handle) {
        this.context = context;
        this.signature = signature;
        this.library = library;
        this.symbol = symbol;
        this.handle = handle;
    }

    public NidlSignature signature() {
        return signature;
    }

    /** The symbol the function was found by (its mangled name for a {@code cxx} signature). */
    public String symbol() {
        return symbol;
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    Object execute(Object[] arguments, @Bind Node node) throws ArityException, UnsupportedTypeException {
        Node previous = GrError.enterCall(node);
        try {
            return call(arguments);
        } finally {
            GrError.leaveCall(previous);
        }
    }

    private Object call(Object[] arguments) throws ArityException, UnsupportedTypeException {
        ArgumentConverter.Converted c = ArgumentConverter.convert(context, signature, "host function", arguments);
        Object[] values = new Object[c.args().size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (c.args().get(i)) {
                case KernelArg.Pointer p -> p.buffer() == null ? MemorySegment.NULL
                        : p.buffer().hostView().asSlice(p.offset());
                case KernelArg.Scalar s -> scalar(s);
            };
        }
        ComputationalElement call = ComputationalElement.hostCall(signature.name(), c.accesses());
        Object result;
        try {
            result = InterruptibleWaits.callOnHost(context.scheduler(), call, () -> invoke(values));
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
        calls.incrementAndGet();
        return result;
    }

    private Object invoke(Object[] values) {
        Object r;
        try {
            r = handle.invokeWithArguments(values);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("calling " + symbol + " failed: " + t, t);
        }
        return returned(r);
    }

    private static Object scalar(KernelArg.Scalar s) {
        long b = s.bits();
        return switch (s.type()) {
            case BOOL -> b != 0;
            case INT8, UINT8 -> (byte) b;
            case INT16, UINT16 -> (short) b;
            case INT32, UINT32 -> (int) b;
            case INT64, UINT64 -> b;
            case FLOAT -> Float.intBitsToFloat((int) b);
            case DOUBLE -> Double.longBitsToDouble(b);
        };
    }

    /** The guest value of what the function returned, read as its signature's return type says. */
    private Object returned(Object r) {
        if (signature.returns() == null) {
            return GrNone.INSTANCE;
        }
        return switch (signature.returns()) {
            case BOOL -> (Boolean) r;
            case INT8 -> (int) (Byte) r;
            case UINT8 -> Byte.toUnsignedInt((Byte) r);
            case INT16 -> (int) (Short) r;
            case UINT16 -> Short.toUnsignedInt((Short) r);
            case INT32 -> (Integer) r;
            case UINT32 -> Integer.toUnsignedLong((Integer) r);
            case INT64 -> (Long) r;
            case UINT64 -> GrUnsignedLong.of((Long) r);
            case FLOAT -> (double) (Float) r;
            case DOUBLE -> (Double) r;
        };
    }

    @Override
    protected String[] memberNames() {
        return MEMBERS;
    }

    @Override
    protected Object readMemberValue(String member) throws UnknownIdentifierException {
        return switch (member) {
            case "name" -> signature.name();
            case "symbol" -> symbol;
            case "library" -> library;
            case "callCount" -> calls.get();
            default -> throw UnknownIdentifierException.create(member);
        };
    }

    @Override
    protected String displayString() {
        return "host function " + signature + " in " + library;
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.FUNCTION;
    }
}
