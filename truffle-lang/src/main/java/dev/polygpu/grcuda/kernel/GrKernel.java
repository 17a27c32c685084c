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
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Module;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrNone;
import dev.polygpu.grcuda.objects.GrPlainObject;
import dev.polygpu.runtime.KernelSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A kernel built by {@code buildkernel}: executed with a launch configuration ({@code k(grid, block[, shared[,
 * stream]])}) it returns a {@link GrConfiguredKernel}, which is executed with the kernel's arguments. Members
 * {@code name}, {@code launchCount} and {@code ptx} (the device's intermediate code: on the CPU device the PTX
 * a CUDA compiler makes of the source, compiled when first read; null where there is no compiler).
 *
 * <p>Thread-safety: immutable apart from the launch counter, which is atomic.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrKernel extends GrPlainObject {
    private static final String[] MEMBERS = {"name", "launchCount", "ptx"};

    private final GrContext context;
    private final NidlSignature signature;
    private final Module module;
    private final KernelFunction function;
    private final KernelSource kernelSource;
    private final AtomicLong launchCount = new AtomicLong();

    GrKernel(GrContext context, NidlSignature signature, Module module, KernelFunction function, String source) {
        this.context = context;
        this.signature = signature;
        this.module = module;
        this.function = function;
        this.kernelSource = source == null ? null : new KernelSource(source, signature.name(), signature.toString());
    }

    /**
     * The kernel's CUDA C source, name and signature: what a cluster layer needs to build it elsewhere; null for a
     * kernel of precompiled code ({@code bindkernel}), which runs only where it was bound.
     */
    public KernelSource kernelSource() {
        return kernelSource;
    }

    public NidlSignature signature() {
        return signature;
    }

    public KernelFunction function() {
        return function;
    }

    public long launchCount() {
        return launchCount.get();
    }

    /** Converts the arguments and launches through the {@link KernelLauncher}; counts the launch. */
    @TruffleBoundary
    Object launch(LaunchSettings settings, Object[] args) throws ArityException, UnsupportedTypeException {
        ArgumentConverter.Converted c = ArgumentConverter.convert(context, signature, args);
        launchCount.incrementAndGet();
        KernelLauncher.launch(context, this, settings, c);
        return GrNone.INSTANCE;
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
            return new GrConfiguredKernel(this, LaunchSettings.of(context, signature.name(), arguments));
        } finally {
            GrError.leaveCall(previous);
        }
    }

    @Override
    protected String[] memberNames() {
        return MEMBERS;
    }

    @Override
    protected Object readMemberValue(String member) throws UnknownIdentifierException {
        return switch (member) {
            case "name" -> signature.name();
            case "launchCount" -> launchCount.get();
            case "ptx" -> {
                String code;
                try {
                    code = module.intermediateCode();
                } catch (DeviceException e) {
                    throw GrError.of("kernel '" + signature.name() + "': its PTX could not be made: "
                            + e.getMessage(), e);
                }
                yield code == null ? GrNone.INSTANCE : code;
            }
            default -> throw UnknownIdentifierException.create(member);
        };
    }

    @Override
    protected String displayString() {
        return "kernel " + signature;
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.KERNEL;
    }
}
