package dev.polygpu.grcuda.builtins;

import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;

/**
 * {@code bindkernel(file, signature)} and {@code bind(library, signature)}: bind precompiled code (PTX, cubin,
 * shared libraries), which only the CUDA device could load; polygpu does not load them yet, so they fail on every
 * device, saying what to use instead.
 */
final class GrBindKernelBuiltin extends GrDeviceBuiltin {
    private final String what;

    private GrBindKernelBuiltin(String name, String what, GrContext context) {
        super(name, context);
        this.what = what;
    }

    static GrBindKernelBuiltin bindkernel(GrContext context) {
        return new GrBindKernelBuiltin("bindkernel", "precompiled PTX or cubin files", context);
    }

    static GrBindKernelBuiltin bind(GrContext context) {
        return new GrBindKernelBuiltin("bind", "functions of shared libraries", context);
    }

    @Override
    protected Object run(Object[] args) {
        String backend = device().backend();
        if (backend.equals("cuda")) {
            throw GrError.of(name() + " binds " + what + ", which polygpu does not load yet, not even on the CUDA"
                    + " device. Use buildkernel(source, signature) with the kernel's CUDA C source instead");
        }
        throw GrError.of(name() + " binds " + what + ", which needs the CUDA device; this context runs kernels"
                + " on the " + backend + " device. Use buildkernel(source, signature) with the kernel's CUDA C"
                + " source instead");
    }
}
