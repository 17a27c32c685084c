package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;

/** A kernel with its launch configuration ({@code k(grid, block)}); executing it with arguments launches it. */
@ExportLibrary(InteropLibrary.class)
public final class GrConfiguredKernel extends GrPlainObject {
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

    @Override
    protected String displayString() {
        LaunchConfig c = settings.config();
        return "kernel " + kernel.signature() + " with grid " + c.grid() + ", block " + c.block()
                + (c.dynamicSharedBytes() == 0 ? "" : ", " + c.dynamicSharedBytes() + " bytes of shared memory")
                + (settings.stream() == null ? "" : " on stream " + settings.stream().id());
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.CONFIGURED_KERNEL;
    }
}
