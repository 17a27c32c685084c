package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.KernelBuilder;

/** {@code buildkernel(source, nidlSignature)} or {@code buildkernel(source, name, legacySignature)}. */
final class GrBuildKernelBuiltin extends GrDeviceBuiltin {
    GrBuildKernelBuiltin(GrContext context) {
        super("buildkernel", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 3);
        String source = Args.string(args, 0, name(), "kernel source");
        KernelBuilder builder = new KernelBuilder(context);
        if (args.length == 2) {
            return builder.build(source, Args.string(args, 1, name(), "signature"));
        }
        return builder.buildLegacy(source, Args.string(args, 1, name(), "kernel name"),
                Args.string(args, 2, name(), "signature"));
    }
}
