package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleFile;
import dev.polygpu.device.ElementType;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@code bind(library, signature)} does: loads a shared library (once per context and file), finds the
 * function — by its C name, or for a {@code cxx} signature by its C++ mangled name ({@link CxxSymbols}) — and
 * links a call of it with the C types the signature gives (Java's foreign function API, the platform's C calling
 * convention). The call itself is {@link GrHostFunction}'s.
 *
 * <p>A library named with a path, or found relative to the current working directory, is loaded from that
 * file; a bare name the working directory does not have ({@code libm.so.6}) is left to the dynamic linker's
 * search ({@code LD_LIBRARY_PATH}, the system's directories), as GrCUDA's {@code bind} did.
 *
 * <p>Implementation notes: libraries stay loaded while a function bound from them is reachable (an automatic
 * arena); the per-context map only saves loading one twice. Loading native code needs the context's native
 * access ({@code allowNativeAccess}).
 */
public final class HostFunctions {
    private static final Linker LINKER = Linker.nativeLinker();

    private final GrContext context;
    private final Map<String, SymbolLookup> libraries = new ConcurrentHashMap<>();

    public HostFunctions(GrContext context) {
        this.context = context;
    }

    /** {@code bind(library, nidlSignature)}. */
    @TruffleBoundary
    public GrHostFunction bind(String library, String signature) {
        return bind(library, NidlSignature.parseOrFail("bind: ", () -> NidlSignature.parse(signature)));
    }

    /** {@code bind(library, name, legacySignature)}, the signature as NFI wrote it: {@code "(pointer, sint32): sint32"}. */
    @TruffleBoundary
    public GrHostFunction bindLegacy(String library, String name, String signature) {
        return bind(library, NidlSignature.parseOrFail("bind: ",
                () -> NidlSignature.parseLegacyFunction(name, signature)));
    }

    /** Binds {@code signature}'s function of {@code library}. */
    @TruffleBoundary
    public GrHostFunction bind(String library, NidlSignature signature) {
        if (!context.env().isNativeAccessAllowed()) {
            throw GrError.of("bind loads native code from " + library + ", which this context may not do; build the"
                    + " context with allowNativeAccess(true) (or allowAllAccess(true))");
        }
        SymbolLookup lookup = load(library);
        String symbol = symbol(library, lookup, signature);
        MemorySegment address = lookup.find(symbol).orElseThrow();
        MethodHandle handle = LINKER.downcallHandle(address, descriptor(signature));
        return new GrHostFunction(context, signature, library, symbol, handle);
    }

    private SymbolLookup load(String library) {
        if (library == null || library.isBlank()) {
            throw GrError.of("bind needs the shared library's file name or path, got "
                    + (library == null ? "null" : "'" + library + "'"));
        }
        String path = resolve(library);
        return libraries.computeIfAbsent(path, p -> {
            try {
                return p.indexOf('/') >= 0 ? SymbolLookup.libraryLookup(java.nio.file.Path.of(p), Arena.ofAuto())
                        : SymbolLookup.libraryLookup(p, Arena.ofAuto());
            } catch (IllegalArgumentException e) {
                String where = p.indexOf('/') >= 0 ? "the file " + p + " exists but"
                        : "no file " + library + " in " + context.env().getCurrentWorkingDirectory() + ", and";
                throw GrError.of("bind cannot load the library '" + library + "': " + where + " the dynamic linker"
                        + " could not load it (" + e.getMessage() + "). Check the path, that it is a shared library"
                        + " for this machine (" + System.getProperty("os.arch") + "), and that the libraries it"
                        + " needs are on LD_LIBRARY_PATH");
            }
        });
    }

    /** An absolute path for a library the working directory (or the path) names, else the bare name. */
    private String resolve(String library) {
        TruffleFile file;
        try {
            file = context.env().getPublicTruffleFile(library);
        } catch (RuntimeException e) {
            throw GrError.of("bind: '" + library + "' is not a valid file name: " + e.getMessage());
        }
        boolean exists;
        try {
            exists = file.exists();
        } catch (SecurityException e) {
            throw GrError.of("bind cannot look for the library '" + library + "': this context may not read files"
                    + " (allowIO): " + e.getMessage());
        }
        if (exists) {
            return file.getAbsoluteFile().normalize().getPath();
        }
        if (library.indexOf('/') >= 0) {
            throw GrError.of("bind cannot load the library '" + library + "': there is no such file (looked at "
                    + file.getAbsoluteFile().normalize().getPath() + ")");
        }
        return library;
    }

    private static String symbol(String library, SymbolLookup lookup, NidlSignature signature) {
        if (!signature.cxx()) {
            if (signature.name().contains("::") || signature.name().indexOf('<') >= 0) {
                throw GrError.of("bind: '" + signature.name() + "' is a C++ name; write 'cxx " + signature.name()
                        + "(…)' to bind a C++ function, whose symbol is mangled");
            }
            if (lookup.find(signature.name()).isEmpty()) {
                throw GrError.of("bind: " + library + " has no function '" + signature.name() + "'. For a C++"
                        + " function (one not declared extern \"C\") write 'cxx " + signature.name() + "(…)'; `nm -D"
                        + " --defined-only " + library + "` lists what the library defines");
            }
            return signature.name();
        }
        String unsupported = CxxSymbols.unsupported(signature.name());
        if (unsupported != null) {
            throw GrError.of("bind: " + signature.name() + ": " + unsupported);
        }
        List<String> tried = CxxSymbols.candidates(signature);
        for (String name : tried) {
            Optional<MemorySegment> found = lookup.find(name);
            if (found.isPresent()) {
                return name;
            }
        }
        throw GrError.of("bind: " + library + " has no C++ function " + signature.name() + " with parameters of the"
                + " signature's types (looked for " + shown(tried) + "). Check the parameter types against the C++"
                + " declaration (sint32 is int, sint64 long, uint64 unsigned long, an 'in pointer' may be const),"
                + " or bind an extern \"C\" function without 'cxx'; `nm -D --defined-only " + library + "` lists the"
                + " library's symbols");
    }

    private static String shown(List<String> names) {
        return names.size() <= 4 ? String.join(", ", names)
                : String.join(", ", names.subList(0, 4)) + " and " + (names.size() - 4) + " more spellings";
    }

    private static FunctionDescriptor descriptor(NidlSignature signature) {
        List<MemoryLayout> args = new ArrayList<>();
        for (NidlSignature.Param p : signature.params()) {
            args.add(p.pointer() ? ValueLayout.ADDRESS : layout(p.type()));
        }
        MemoryLayout[] a = args.toArray(MemoryLayout[]::new);
        return signature.returns() == null ? FunctionDescriptor.ofVoid(a)
                : FunctionDescriptor.of(layout(signature.returns()), a);
    }

    /** The C type of a signature type as the foreign function API passes it. */
    static ValueLayout layout(ElementType t) {
        return switch (t) {
            case BOOL -> ValueLayout.JAVA_BOOLEAN;
            case INT8, UINT8 -> ValueLayout.JAVA_BYTE;
            case INT16, UINT16 -> ValueLayout.JAVA_SHORT;
            case INT32, UINT32 -> ValueLayout.JAVA_INT;
            case INT64, UINT64 -> ValueLayout.JAVA_LONG;
            case FLOAT -> ValueLayout.JAVA_FLOAT;
            case DOUBLE -> ValueLayout.JAVA_DOUBLE;
        };
    }
}
