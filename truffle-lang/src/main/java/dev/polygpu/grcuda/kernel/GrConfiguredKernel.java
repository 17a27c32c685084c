package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.grcuda.GrCUDALanguage;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrList;
import dev.polygpu.grcuda.objects.ToStringMember;

/** A kernel with its launch configuration ({@code k(grid, block)}); executing it with arguments launches it. */
@ExportLibrary(InteropLibrary.class)
public final class GrConfiguredKernel implements TruffleObject {
    private final GrKernel kernel;
    private final LaunchSettings settings;

    GrConfiguredKernel(GrKernel kernel, LaunchSettings settings) {
        this.kernel = kernel;
        this.settings = settings;
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    Object execute(Object[] arguments, @Bind Node node) throws ArityException, UnsupportedTypeException {
        Node previous = GrError.enterCall(node);
        try {
            return kernel.launch(settings, arguments);
        } finally {
            GrError.leaveCall(previous);
        }
    }

    /** No members but the hidden {@link ToStringMember toString}, which JavaScript calls to print it. */
    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new GrList();
    }

    @ExportMessage
    boolean isMemberInvocable(String member) {
        return ToStringMember.is(member);
    }

    @ExportMessage
    Object invokeMember(String member, Object[] arguments) throws UnknownIdentifierException, ArityException {
        if (!ToStringMember.is(member)) {
            throw UnknownIdentifierException.create(member);
        }
        return ToStringMember.invoke(this, arguments);
    }

    @ExportMessage
    boolean hasLanguage() {
        return true;
    }

    @ExportMessage
    Class<GrCUDALanguage> getLanguage() {
        return GrCUDALanguage.class;
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        LaunchConfig c = settings.config();
        return "kernel " + kernel.signature() + " with grid " + c.grid() + ", block " + c.block()
                + (c.dynamicSharedBytes() == 0 ? "" : ", " + c.dynamicSharedBytes() + " bytes of shared memory")
                + (settings.stream() == null ? "" : " on stream " + settings.stream().id());
    }

    @ExportMessage
    boolean hasMetaObject() {
        return true;
    }

    @ExportMessage
    Object getMetaObject() {
        return dev.polygpu.grcuda.objects.GrMetaObject.CONFIGURED_KERNEL;
    }
}
