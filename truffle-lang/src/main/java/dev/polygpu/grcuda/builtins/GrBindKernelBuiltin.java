package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.Module;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.kernel.ImageFiles;
import dev.polygpu.grcuda.kernel.KernelBuilder;
import dev.polygpu.grcuda.kernel.NidlFile;
import dev.polygpu.grcuda.objects.GrNamespace;
import java.nio.charset.StandardCharsets;

/**
 * The builtins that bind precompiled code: {@code bindkernel(file, signature)} (a kernel of a PTX file or a
 * cubin, on the devices that run it), {@code bind(library, signature)} (a function of a shared library, on every
 * device) — each also in GrCUDA's legacy three-argument form {@code (file, name, types)} — and {@code
 * bindall(namespace, file, nidlFile)}, which binds every function a NIDL file lists into {@code CU.namespace}.
 */
final class GrBindKernelBuiltin extends GrDeviceBuiltin {
    private enum Kind { KERNEL, HOST, ALL }

    private final Kind kind;

    private GrBindKernelBuiltin(String name, Kind kind, GrContext context) {
        super(name, context);
        this.kind = kind;
    }

    static GrBindKernelBuiltin bindkernel(GrContext context) {
        return new GrBindKernelBuiltin("bindkernel", Kind.KERNEL, context);
    }

    static GrBindKernelBuiltin bind(GrContext context) {
        return new GrBindKernelBuiltin("bind", Kind.HOST, context);
    }

    static GrBindKernelBuiltin bindall(GrContext context) {
        return new GrBindKernelBuiltin("bindall", Kind.ALL, context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        if (kind == Kind.ALL) {
            Args.arity(args, 3, 3);
            return bindAll(Args.string(args, 0, name(), "namespace"), Args.string(args, 1, name(), "file"),
                    Args.string(args, 2, name(), "NIDL file"));
        }
        Args.arity(args, 2, 3);
        String file = Args.string(args, 0, name(), kind == Kind.KERNEL ? "PTX or cubin file" : "shared library");
        if (args.length == 2) {
            String signature = Args.string(args, 1, name(), "signature");
            return kind == Kind.KERNEL ? new KernelBuilder(context).bind(file, signature)
                    : context.hostFunctions().bind(file, signature);
        }
        String function = Args.string(args, 1, name(), "function name");
        String types = Args.string(args, 2, name(), "signature");
        return kind == Kind.KERNEL ? new KernelBuilder(context).bindLegacy(file, function, types)
                : context.hostFunctions().bindLegacy(file, function, types);
    }

    private Object bindAll(String namespace, String file, String nidlFile) {
        if (!namespace.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw GrError.of("bindall: the namespace must be a name (letters, digits, '_'), got '" + namespace
                    + "'");
        }
        NidlFile nidl;
        try {
            nidl = NidlFile.parse(new String(ImageFiles.read(context, nidlFile, name()), StandardCharsets.UTF_8),
                    KernelBuilder.fileName(nidlFile));
        } catch (NidlFile.NidlException e) {
            throw GrError.of("bindall: " + e.getMessage());
        }
        if (nidl.entries().isEmpty()) {
            throw GrError.of("bindall: " + nidlFile + " lists no functions");
        }
        // Everything is bound before anything is registered: one bad entry leaves the namespace as it was.
        java.util.Map<String, Object> bound = new java.util.LinkedHashMap<>();
        KernelBuilder kernels = new KernelBuilder(context);
        Module module = null;
        for (NidlFile.Entry e : nidl.entries()) {
            String member = e.signature().simpleName();
            if (bound.containsKey(member)) {
                throw GrError.of("bindall: " + KernelBuilder.fileName(nidlFile) + ":" + e.line() + ": " + member + " is listed twice");
            }
            try {
                if (e.kernel()) {
                    if (module == null) {
                        module = kernels.load(file, name());
                    }
                    bound.put(member, kernels.bind(module, KernelBuilder.fileName(file), e.signature()));
                } else {
                    bound.put(member, context.hostFunctions().bind(file, e.signature()));
                }
            } catch (com.oracle.truffle.api.exception.AbstractTruffleException t) {
                throw GrError.of("bindall: " + KernelBuilder.fileName(nidlFile) + ":" + e.line() + ": "
                        + t.getMessage());
            }
        }
        GrNamespace target;
        try {
            target = context.root().subNamespace(namespace);
            bound.forEach(target::bind);
        } catch (IllegalArgumentException e) {
            throw GrError.of("bindall: " + e.getMessage());
        }
        return target;
    }
}
