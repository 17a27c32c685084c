package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;
import dev.polygpu.runtime.TrackedArray;

/**
 * Raw device memory, as {@code cudaMalloc(bytes)} and {@code cudaMallocManaged(bytes)} return it (GrCUDA's
 * {@code GPUPointer}): bytes without an element type, which kernels take for a pointer parameter of any type,
 * {@code cudaMemcpy} copies to and from, and {@code cudaFree} releases. To guest languages it is a pointer
 * ({@code isPointer}, {@code asPointer} gives its address) with one member, {@code pointer}, the same address as
 * an integer, as arrays have it: {@code p.pointer + 16} addresses its 17th byte.
 *
 * <p>Both functions return unified memory (the device SPI has no other kind), so the results of a program are
 * those CUDA gives; the scheduler tracks the memory like an array, so work on it is ordered by the same
 * dependency rules (GrCUDA's raw pointers bypassed its scheduler).
 */
@ExportLibrary(InteropLibrary.class)
public final class GrPointer extends GrPlainObject implements GrDeviceMemory {
    private static final String[] MEMBERS = {ArrayMethods.POINTER};
    private final ArrayMemory memory;

    private GrPointer(ArrayMemory memory) {
        this.memory = memory;
    }

    /** {@code bytes} of zero-filled raw memory; {@code function} names the allocation in messages and traces. */
    @TruffleBoundary
    public static GrPointer allocate(GrContext context, long bytes, String function) {
        if (bytes <= 0) {
            throw GrError.of(function + ": the size must be a positive number of bytes, got " + bytes);
        }
        try {
            UnifiedBuffer buffer = context.device().allocate(bytes);
            return new GrPointer(new ArrayMemory(context.scheduler(), context.allocations(), buffer,
                    ElementType.UINT8, bytes, function + "(" + bytes + ")", false));
        } catch (DeviceException e) {
            throw GrError.of(function + ": " + e.getMessage(), e);
        }
    }

    /** Waits for the work that uses the memory, then releases it; a second call is an error, as in CUDA. */
    @TruffleBoundary
    public void free(String function) {
        if (memory.isFreed()) {
            throw GrError.of(function + ": " + memory.description + " was already freed");
        }
        memory.free();
    }

    @Override
    public UnifiedBuffer buffer() {
        return memory.live();
    }

    @Override
    public long byteOffset() {
        return 0;
    }

    @Override
    public ElementType elementType() {
        return ElementType.UINT8;
    }

    @Override
    public long elementCount() {
        return memory.count;
    }

    @Override
    public boolean isFreed() {
        return memory.isFreed();
    }

    @Override
    public boolean isTyped() {
        return false;
    }

    @Override
    public TrackedArray tracked() {
        return memory.tracked;
    }

    @ExportMessage
    boolean isPointer() {
        return true;
    }

    @ExportMessage
    long asPointer() {
        return memory.address;
    }

    /** One member, {@code pointer}: the address as an integer, so guests can address inside the memory. */
    @Override
    protected String[] memberNames() {
        return MEMBERS;
    }

    @Override
    protected Object readMemberValue(String member) {
        return memory.address;
    }

    @Override
    protected String displayString() {
        return toString();
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.GPU_POINTER;
    }

    /** {@code GPUPointer(0x7f…, 4096 bytes, cudaMalloc)}; "freed" once freed. */
    @Override
    public String toString() {
        String function = memory.description.substring(0, memory.description.indexOf('('));
        return "GPUPointer(" + Allocations.hex(memory.address) + ", " + memory.count + " bytes, " + function
                + (memory.isFreed() ? ", freed)" : ")");
    }
}
