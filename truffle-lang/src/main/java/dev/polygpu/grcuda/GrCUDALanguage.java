package dev.polygpu.grcuda;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.grcuda.parser.GrParser;
import dev.polygpu.grcuda.parser.GrRootNode;
import org.graalvm.options.OptionDescriptors;
import org.graalvm.options.OptionValues;

/**
 * The {@code grcuda} language: GrCUDA's API (the {@code CU} namespace, device arrays, kernels, devices and
 * options) for GraalPy, GraalJS and Java programs. A source is one expression of GrCUDA's small expression
 * language ({@code CU}, {@code DeviceArray}, {@code float[100]}, {@code DeviceArray("float", 10)},
 * {@code BLAS::cublasSaxpy}); evaluating it returns the object it names.
 */
@TruffleLanguage.Registration(id = GrCUDALanguage.ID, name = "grcuda", version = GrCUDALanguage.VERSION,
        defaultMimeType = GrCUDALanguage.MIME, characterMimeTypes = GrCUDALanguage.MIME,
        contextPolicy = TruffleLanguage.ContextPolicy.SHARED,
        website = "https://github.com/polygpu")
public final class GrCUDALanguage extends TruffleLanguage<GrContext> {
    public static final String ID = "grcuda";
    public static final String VERSION = "0.1.0";
    public static final String MIME = "application/x-grcuda";

    private static final LanguageReference<GrCUDALanguage> REFERENCE = LanguageReference.create(GrCUDALanguage.class);

    public static GrCUDALanguage get(Node node) {
        return REFERENCE.get(node);
    }

    @Override
    protected GrContext createContext(Env env) {
        return new GrContext(this, env);
    }

    @Override
    protected void disposeContext(GrContext context) {
        context.dispose();
    }

    /**
     * Any number of threads may use a context at once (GraalPy's threads, Java threads through the polyglot API):
     * the scheduler, the device and the context's tables are thread-safe, and arrays keep their memory while any
     * thread may still touch it ({@code ArrayMemory}). A host language may still refuse threads of its own
     * (GraalJS does).
     */
    @Override
    protected boolean isThreadAccessAllowed(Thread thread, boolean singleThreaded) {
        return true;
    }

    @Override
    protected void initializeThread(GrContext context, Thread thread) {
        context.allocations().threadEntered(thread);
    }

    @Override
    protected void disposeThread(GrContext context, Thread thread) {
        context.allocations().threadLeft(thread);
    }

    @Override
    protected CallTarget parse(ParsingRequest request) {
        return new GrRootNode(this, GrParser.parse(request.getSource())).getCallTarget();
    }

    @Override
    protected OptionDescriptors getOptionDescriptors() {
        return new GrOptionsOptionDescriptors();
    }

    @Override
    protected boolean areOptionsCompatible(OptionValues firstOptions, OptionValues newOptions) {
        return firstOptions.equals(newOptions);
    }

    @Override
    protected Object getScope(GrContext context) {
        return context.root();
    }
}
