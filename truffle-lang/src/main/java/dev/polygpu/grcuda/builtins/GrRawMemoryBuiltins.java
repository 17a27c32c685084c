package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.array.Allocations;
import dev.polygpu.grcuda.array.GrArrayView;
import dev.polygpu.grcuda.array.GrPointer;
import dev.polygpu.grcuda.kernel.GrDevice;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.grcuda.objects.GrNone;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Work;

/**
 * The CUDA runtime's raw-memory functions: {@code cudaMalloc(bytes)} and {@code cudaMallocManaged(bytes[, flags])}
 * return a {@link GrPointer}; {@code cudaFree(ptr)} frees it (or a device array, or the memory that starts at an
 * address); {@code cudaMemPrefetchAsync(ptr, bytes, device[, stream])} is a prefetch element of the schedule;
 * {@code cudaMemAdvise(ptr, bytes, advice, device)} passes a hint to the device; and
 * {@code cudaStreamAttachMemAsync(...)} is checked and otherwise has nothing to do, because the scheduler already
 * keeps the host off memory that outstanding work uses (which is what attaching memory to a stream is for).
 * Each checks its arguments as the CUDA call would, with a message saying which was wrong.
 */
final class GrRawMemoryBuiltins extends GrDeviceBuiltin {
    /** cudaCpuDeviceId: "the host" where a device id is expected. */
    private static final long CPU_DEVICE_ID = -1;
    private static final int ATTACH_GLOBAL = 1;
    private static final int ATTACH_HOST = 2;
    private static final int ATTACH_SINGLE = 4;

    private enum Kind { MALLOC, MALLOC_MANAGED, FREE, PREFETCH, ADVISE, ATTACH }

    private final Kind kind;

    private GrRawMemoryBuiltins(String name, GrContext context, Kind kind) {
        super(name, context);
        this.kind = kind;
    }

    static GrRawMemoryBuiltins malloc(GrContext context) {
        return new GrRawMemoryBuiltins("cudaMalloc", context, Kind.MALLOC);
    }

    static GrRawMemoryBuiltins mallocManaged(GrContext context) {
        return new GrRawMemoryBuiltins("cudaMallocManaged", context, Kind.MALLOC_MANAGED);
    }

    static GrRawMemoryBuiltins free(GrContext context) {
        return new GrRawMemoryBuiltins("cudaFree", context, Kind.FREE);
    }

    static GrRawMemoryBuiltins prefetch(GrContext context) {
        return new GrRawMemoryBuiltins("cudaMemPrefetchAsync", context, Kind.PREFETCH);
    }

    static GrRawMemoryBuiltins advise(GrContext context) {
        return new GrRawMemoryBuiltins("cudaMemAdvise", context, Kind.ADVISE);
    }

    static GrRawMemoryBuiltins attach(GrContext context) {
        return new GrRawMemoryBuiltins("cudaStreamAttachMemAsync", context, Kind.ATTACH);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        return switch (kind) {
            case MALLOC -> {
                Args.arity(args, 1, 1);
                yield GrPointer.allocate(context, Args.integer(args, 0, name(), "byte count"), name());
            }
            case MALLOC_MANAGED -> {
                Args.arity(args, 1, 2);
                long bytes = Args.integer(args, 0, name(), "byte count");
                if (args.length == 2) {
                    flags(args, 1, ATTACH_GLOBAL, ATTACH_HOST);
                }
                yield GrPointer.allocate(context, bytes, name());
            }
            case FREE -> free(args);
            case PREFETCH -> prefetch(args);
            case ADVISE -> advise(args);
            case ATTACH -> attach(args);
        };
    }

    private Object free(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        context.pythonArrayDisplay().registerIfCalledFromPython();
        Object p = Handles.unwrap(context, args[0]);
        if (p instanceof GrPointer pointer) {
            pointer.free(name());
            return GrNone.INSTANCE;
        }
        InteropLibrary interop = InteropLibrary.getUncached();
        long address;
        try {
            if (interop.isNull(p) || interop.fitsInLong(p) && interop.asLong(p) == 0) {
                return GrNone.INSTANCE; // cudaFree(NULL) does nothing
            }
            if (p instanceof GrArrayView view) {
                throw GrError.of(name() + ": argument 1 is a " + view.describe() + " (m[i] of a multi-dimensional"
                        + " array), which is part of an allocation, not one; free the whole array (cudaFree(m) or"
                        + " m.free())");
            }
            if (p instanceof GrDeviceMemory m) {
                if (m.isFreed()) {
                    throw GrError.of(name() + ": " + m.describe() + " was already freed");
                }
                address = m.buffer().hostView().address() + m.byteOffset();
            } else if (interop.isNumber(p) && interop.fitsInLong(p)) {
                address = interop.asLong(p);
            } else if (interop.isPointer(p)) {
                address = interop.asPointer(p);
            } else {
                throw UnsupportedTypeException.create(args, name() + ": argument 1 must be a GPUPointer from"
                        + " cudaMalloc, a device array or an address, got " + Args.display(args[0]));
            }
        } catch (UnsupportedMessageException e) {
            throw new IllegalStateException(e);
        }
        if (!context.allocations().freeAt(address)) {
            throw GrError.of(name() + ": " + Args.display(args[0]) + " (" + Allocations.hex(address) + ") is not the"
                    + " start of a live allocation of this context; cudaFree takes what cudaMalloc returned, a"
                    + " device array, or the address where one starts");
        }
        return GrNone.INSTANCE;
    }

    private Object prefetch(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 3, 4);
        GrDeviceMemory m = Handles.memory(context, args, 0, name(), "memory");
        long bytes = bytes(args, 1, m);
        long device = deviceOrHost(args, 2);
        Stream stream = args.length > 3 ? Handles.streamOrDefault(context, args, 3, name()) : null;
        if (device != CPU_DEVICE_ID && bytes > 0) {
            // to the host there is nothing to move: host accesses already wait for the work on the memory
            Work.Prefetch work = new Work.Prefetch(m.buffer(), m.byteOffset(), bytes);
            scheduler().submit(ComputationalElement.prefetch(name(), m.tracked(), work, stream));
        }
        return GrNone.INSTANCE;
    }

    private Object advise(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 4, 4);
        GrDeviceMemory m = Handles.memory(context, args, 0, name(), "memory");
        long bytes = bytes(args, 1, m);
        long advice = Args.integer(args, 2, name(), "advice");
        if (advice < 1 || advice > 6) {
            throw GrError.of(name() + ": argument 3 (advice) must be a cudaMemoryAdvise from 1"
                    + " (cudaMemAdviseSetReadMostly) to 6 (cudaMemAdviseUnsetAccessedBy), got " + advice);
        }
        long device = deviceOrHost(args, 3);
        m.buffer().advise(m.byteOffset(), bytes, (int) advice, (int) device);
        return GrNone.INSTANCE;
    }

    /** GrCUDA's forms (memory), (stream, memory), (stream, memory, flags), and CUDA's (stream, memory, length, flags). */
    private Object attach(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 4);
        if (args.length == 1) {
            Handles.memory(context, args, 0, name(), "memory");
            return GrNone.INSTANCE;
        }
        Handles.streamOrDefault(context, args, 0, name());
        GrDeviceMemory m = Handles.memory(context, args, 1, name(), "memory");
        if (args.length == 4) {
            long length = Args.integer(args, 2, name(), "length");
            if (length != 0 && length != m.byteCount()) {
                throw GrError.of(name() + ": argument 3 (length) must be 0 or the whole " + m.byteCount()
                        + " bytes of " + m.describe() + ", got " + length);
            }
        }
        if (args.length >= 3) {
            flags(args, args.length - 1, ATTACH_GLOBAL, ATTACH_HOST, ATTACH_SINGLE);
        }
        return GrNone.INSTANCE;
    }

    private long bytes(Object[] args, int i, GrDeviceMemory m) throws UnsupportedTypeException {
        long bytes = Args.integer(args, i, name(), "byte count");
        if (bytes < 0 || bytes > m.byteCount()) {
            throw GrError.of(name() + ": argument " + (i + 1) + " (byte count) must be 0 to " + m.byteCount()
                    + ", the bytes of " + m.describe() + " from there on; got " + bytes);
        }
        return bytes;
    }

    /** A device id of the context, or -1 (cudaCpuDeviceId) for the host. */
    private long deviceOrHost(Object[] args, int i) throws UnsupportedTypeException {
        long id = Args.integer(args, i, name(), "device");
        return id == CPU_DEVICE_ID ? id : GrDevice.check(context, id, name());
    }

    private void flags(Object[] args, int i, int... valid) throws UnsupportedTypeException {
        long f = Args.integer(args, i, name(), "flags");
        for (int v : valid) {
            if (f == v) {
                return;
            }
        }
        StringBuilder names = new StringBuilder();
        for (int v : valid) {
            names.append(names.isEmpty() ? "" : ", ").append(v).append(" (").append(switch (v) {
                case ATTACH_GLOBAL -> "cudaMemAttachGlobal";
                case ATTACH_HOST -> "cudaMemAttachHost";
                default -> "cudaMemAttachSingle";
            }).append(')');
        }
        throw GrError.of(name() + ": argument " + (i + 1) + " (flags) must be one of " + names + ", got " + f);
    }
}
