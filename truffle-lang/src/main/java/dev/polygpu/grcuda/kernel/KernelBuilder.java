package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.exception.AbstractTruffleException;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.Module;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.InterruptibleWaits;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code buildkernel} does: parses the signature, compiles the source on the context's device, looks the
 * kernel up by the signature's name and checks the signature against the parameters the device sees, so that
 * a wrong signature fails here, naming the parameter, rather than as garbage at launch.
 */
public final class KernelBuilder {
    private final GrContext context;

    public KernelBuilder(GrContext context) {
        this.context = context;
    }

    /** {@code buildkernel(source, nidlSignature)}. */
    @TruffleBoundary
    public GrKernel build(String source, String signature) {
        return build(source, parse(() -> NidlSignature.parse(signature)));
    }

    /** {@code buildkernel(source, name, legacySignature)}. */
    @TruffleBoundary
    public GrKernel buildLegacy(String source, String name, String signature) {
        return build(source, parse(() -> NidlSignature.parseLegacy(name, signature)));
    }

    /** {@code bindkernel(file, nidlSignature)}: a kernel of precompiled PTX or a cubin. */
    @TruffleBoundary
    public GrKernel bind(String file, String signature) {
        return bind(file, parse(() -> NidlSignature.parse(signature)));
    }

    /** {@code bindkernel(file, name, legacySignature)}. */
    @TruffleBoundary
    public GrKernel bindLegacy(String file, String name, String signature) {
        return bind(file, parse(() -> NidlSignature.parseLegacy(name, signature)));
    }

    private static NidlSignature parse(java.util.function.Supplier<NidlSignature> parser) {
        NidlSignature s = NidlSignature.parseOrFail("", parser);
        if (s.returns() != null) {
            throw GrError.of("kernel '" + s.name() + "' returns " + NidlSignature.typeName(s.returns())
                    + " in its signature, but kernels return nothing: drop ': " + NidlSignature.typeName(s.returns())
                    + "' (a function of a shared library that returns a value is bound with bind)");
        }
        return s;
    }

    /**
     * Loads {@code file} (PTX text or a cubin) on the context's device and looks the kernel up, checking the
     * signature's parameters against the sizes the image declares. Bound kernels run only here: a cluster layer
     * cannot build them elsewhere (it gets no source).
     */
    @TruffleBoundary
    public GrKernel bind(String file, NidlSignature signature) {
        return bind(load(file, "bindkernel"), fileName(file), signature);
    }

    /** Loads {@code file} (PTX text or a cubin) on the context's device; {@code who} names the caller in errors. */
    @TruffleBoundary
    public Module load(String file, String who) {
        byte[] image = ImageFiles.read(context, file, who);
        try {
            return context.device().load(image, fileName(file));
        } catch (DeviceException e) {
            throw GrError.of(e);
        } catch (AbstractTruffleException e) {
            throw e;
        } catch (RuntimeException e) {
            throw bug(who, "loading " + fileName(file), e);
        }
    }

    /**
     * The last-resort net: an exception the device did not mean to throw while compiling or loading {@code what}
     * becomes a guest error that says it is a bug, so a guest's try/catch sees it and the script goes on.
     */
    private static GrError bug(String who, String what, RuntimeException e) {
        return GrError.of(who + ": " + what + " failed inside polygpu (" + e.getClass().getName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "). This is a bug in polygpu: please"
                + " report it with the kernel source", e);
    }

    /** How messages name the image {@code file}: its file name. */
    public static String fileName(String file) {
        int slash = file.lastIndexOf('/');
        return slash < 0 ? file : file.substring(slash + 1);
    }

    /**
     * The kernel {@code signature} names in {@code module} (an image {@link #load}ed from {@code fileName}), its
     * signature checked.
     */
    @TruffleBoundary
    public GrKernel bind(Module module, String fileName, NidlSignature signature) {
        KernelFunction function;
        try {
            function = module.function(signature.name());
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
        List<ImageParam> declared = function.imageParameters();
        List<NidlSignature.Param> params = signature.params();
        String kernel = "kernel '" + signature.name() + "' of " + fileName;
        if (!declared.isEmpty() || !params.isEmpty()) {
            if (params.size() != declared.size()) {
                throw GrError.of("bindkernel: the signature of " + kernel + " has " + params.size() + " parameter"
                        + (params.size() == 1 ? "" : "s") + ", but the image declares " + declared.size() + ": "
                        + shown(declared));
            }
            for (int i = 0; i < params.size(); i++) {
                NidlSignature.Param p = params.get(i);
                int bytes = p.pointer() ? 8 : p.type().size;
                ImageParam d = declared.get(i);
                if (bytes != d.bytes()) {
                    throw GrError.of("bindkernel: parameter " + (i + 1) + " ('" + p.name() + "') of " + kernel
                            + " is " + (p.pointer() ? "a pointer" : NidlSignature.typeName(p.type())) + " (" + bytes
                            + " bytes) in the signature, but the image declares "
                            + (d.name() == null ? "" : d.name() + " as ") + d.declaredAs() + " (" + d.bytes()
                            + " bytes)");
                }
            }
        }
        return new GrKernel(context, signature, module, function, null);
    }

    private static String shown(List<ImageParam> declared) {
        StringBuilder sb = new StringBuilder("(");
        for (ImageParam d : declared) {
            sb.append(sb.length() == 1 ? "" : ", ").append(d.declaredAs());
        }
        return sb.append(')').toString();
    }

    private GrKernel build(String source, NidlSignature signature) {
        String name = signature.name();
        int template = name.indexOf('<');
        String fileName = (template < 0 ? name : name.substring(0, template).strip()) + ".cu";
        Module module;
        KernelFunction function;
        try {
            module = InterruptibleWaits.compile(() -> context.device().compile(source, fileName));
            function = InterruptibleWaits.compile(() -> module.function(name));
        } catch (DeviceException e) {
            throw GrError.of(e);
        } catch (AbstractTruffleException e) {
            throw e;
        } catch (RuntimeException e) {
            throw bug("buildkernel", "compiling kernel '" + name + "'", e);
        }
        List<KernelParam> declared = function.parameters();
        if (declared.isEmpty() && signature.params().isEmpty()) {
            return new GrKernel(context, signature, module, function, source);
        }
        if (!declared.isEmpty()) {
            check(signature, declared);
            if (signature.legacy()) {
                List<String> names = new ArrayList<>();
                for (KernelParam p : declared) {
                    names.add(p.name());
                }
                signature = signature.withNames(names);
            }
        }
        signature = ReadOnlyWrites.widen(context, source, fileName, signature);
        return new GrKernel(context, signature, module, function, source);
    }

    private static void check(NidlSignature signature, List<KernelParam> declared) {
        List<NidlSignature.Param> params = signature.params();
        String kernel = "kernel '" + signature.name() + "'";
        if (params.size() != declared.size()) {
            throw GrError.of("buildkernel: the signature of " + kernel + " has " + params.size() + " parameter"
                    + (params.size() == 1 ? "" : "s") + ", but the kernel declares " + declared.size() + ": "
                    + declared);
        }
        for (int i = 0; i < params.size(); i++) {
            NidlSignature.Param p = params.get(i);
            KernelParam d = declared.get(i);
            String which = "buildkernel: parameter " + (i + 1) + " ('" + p.name() + "') of " + kernel + " is ";
            if (p.pointer() != d.pointer()) {
                throw GrError.of(which + (p.pointer() ? "a pointer" : "a scalar " + NidlSignature.typeName(p.type()))
                        + " in the signature, but the kernel declares '" + d + "'");
            }
            if (!p.pointer() && !NidlSignature.sameRepresentation(p.type(), d.type())) {
                throw GrError.of(which + NidlSignature.typeName(p.type()) + " in the signature, but the kernel"
                        + " declares '" + d + "'");
            }
            // an untyped side (a legacy 'pointer', a void* or template parameter) says nothing to check against
            if (p.pointer() && p.type() != null && d.type() != null
                    && !NidlSignature.sameRepresentation(p.type(), d.type())) {
                throw GrError.of(which + "a pointer to " + NidlSignature.typeName(p.type()) + " in the signature,"
                        + " but the kernel declares '" + d + "'");
            }
        }
    }
}
