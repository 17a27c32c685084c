package dev.polygpu.device.cuda;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.NvccLocator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Turns CUDA C source into PTX for one compute capability, with an on-disk {@link PtxCache}.
 *
 * <p>{@link #find()} picks the compiler once per process: NVRTC through JCuda where {@code libnvrtc.so.12}
 * loads; else {@code nvcc} as {@link NvccLocator} finds it ({@code $POLYGPU_NVCC}, the {@code PATH},
 * {@code $CUDA_HOME/bin/nvcc}, {@code /usr/local/cuda/bin/nvcc}); else a compiler whose {@link #compile} throws NOT_SUPPORTED, saying what was
 * tried and what to install. A compile error is a {@link CompileException} with the compiler's error lines
 * against the user's file and lines.
 */
public final class PtxCompiler {
    /** The default limit on one nvcc run. */
    static final Duration NVCC_TIMEOUT = Duration.ofSeconds(120);

    /** Compiled PTX, its entries, the entry each name expression became, and whether it came from the cache. */
    public record Ptx(String text, List<PtxEntry> entries, Map<String, String> loweredNames, boolean fromCache) {
        public Ptx {
            entries = List.copyOf(entries);
            loweredNames = Map.copyOf(loweredNames);
        }
    }

    /** One way of compiling. */
    interface Backend {
        String describe();

        /** What identifies the compiler's output for the cache (name and full version). */
        String identity();

        /** The options that reach the compiler for {@code arch} (part of the cache key). */
        List<String> options(String arch);

        /** Throws NOT_SUPPORTED when the compiler is known not to target {@code arch}. */
        void checkArchitecture(String arch, int ccMajor, int ccMinor);

        /** The compute capabilities it targets as {@code 10 * major + minor}, ascending; empty if it cannot say. */
        List<Integer> capabilities();

        Result compile(String source, String fileName, String arch, int ccMajor, int ccMinor,
                List<String> nameExpressions);
    }

    /** What a backend produced. */
    record Result(String ptx, Map<String, String> loweredNames) {
    }

    private static final class Holder {
        static final PtxCompiler FOUND = find(System.getenv(), PtxCache.atDefaultLocation(), true,
                NvccLocator.DEFAULT_PLACES);
    }

    private final Backend backend;
    private final PtxCache cache;

    private PtxCompiler(Backend backend, PtxCache cache) {
        this.backend = backend;
        this.cache = cache;
    }

    /** The compiler of this process, found on the first call. */
    public static PtxCompiler find() {
        return Holder.FOUND;
    }

    /**
     * Looks for a compiler as {@link #find()} does, in {@code env} ({@code POLYGPU_NVCC}, {@code PATH},
     * {@code CUDA_HOME}) and then at {@code places}, trying NVRTC first when {@code tryNvrtc}. An nvcc candidate
     * counts when {@code nvcc --version} names its release.
     */
    static PtxCompiler find(Map<String, String> env, PtxCache cache, boolean tryNvrtc, List<Path> places) {
        List<String> tried = new ArrayList<>();
        if (tryNvrtc) {
            try {
                return new PtxCompiler(NvrtcBackend.probe(), cache);
            } catch (Throwable t) {
                tried.add("NVRTC (JCuda's JNvrtc): " + reason(t));
            }
        }
        AtomicReference<NvccBackend> nvcc = new AtomicReference<>();
        NvccLocator.Result found = NvccLocator.locate(env, places, c -> {
            try {
                nvcc.set(NvccBackend.at(c, NVCC_TIMEOUT));
                return null;
            } catch (RuntimeException e) {
                return e.getMessage();
            }
        });
        if (found.found()) {
            return new PtxCompiler(nvcc.get(), cache);
        }
        tried.addAll(found.tried());
        return new PtxCompiler(new NoCompiler(tried), cache);
    }

    /** nvcc at {@code nvcc} with a cache in {@code cacheDir} (null: none); throws if nvcc does not run. */
    static PtxCompiler nvcc(Path nvcc, Path cacheDir) {
        return nvcc(nvcc, new PtxCache(cacheDir), NVCC_TIMEOUT);
    }

    static PtxCompiler nvcc(Path nvcc, PtxCache cache, Duration timeout) {
        try {
            return new PtxCompiler(NvccBackend.at(nvcc, timeout), cache);
        } catch (IllegalStateException e) {
            throw new DeviceException(CudaError.NOT_SUPPORTED, e.getMessage());
        }
    }

    /** What compiles: {@code nvcc 13.0 (/usr/local/cuda/bin/nvcc)}, {@code NVRTC 12.6}, or why nothing does. */
    public String describe() {
        return backend.describe();
    }

    /** Whether a compiler was found. */
    public boolean available() {
        return !(backend instanceof NoCompiler);
    }

    PtxCache cache() {
        return cache;
    }

    /**
     * Compiles {@code source} for compute capability {@code ccMajor.ccMinor} ({@code compute_XY}), or takes the
     * PTX from the cache.
     *
     * @param fileName the name diagnostics give the source
     * @param nameExpressions kernel names to instantiate and look up ({@code k<float>}); may be empty
     * @throws CompileException when the source does not compile, with the compiler's errors against the source
     * @throws DeviceException NOT_SUPPORTED when there is no compiler or it does not target the architecture
     */
    public Ptx compile(String source, String fileName, int ccMajor, int ccMinor, List<String> nameExpressions) {
        if (source == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel source is null");
        }
        if (ccMajor <= 0 || ccMinor < 0 || ccMinor > 9) {
            throw new DeviceException(CudaError.INVALID_VALUE, "invalid compute capability " + ccMajor + "."
                    + ccMinor);
        }
        String file = fileName == null || fileName.isBlank() ? "kernel.cu" : fileName;
        List<String> names = nameExpressions == null ? List.of() : List.copyOf(nameExpressions);
        String arch = "compute_" + ccMajor + ccMinor;
        backend.checkArchitecture(arch, ccMajor, ccMinor);
        String key = PtxCache.key(source, names, backend.options(arch), arch, backend.identity());
        PtxCache.Entry hit = cache.get(key);
        if (hit != null) {
            try {
                return new Ptx(hit.ptx(), PtxEntries.parse(hit.ptx()), hit.loweredNames(), true);
            } catch (DeviceException damaged) {
                // not PTX this class can read: compile again and replace it
            }
        }
        Result r = backend.compile(source, file, arch, ccMajor, ccMinor, names);
        List<PtxEntry> entries = PtxEntries.parse(r.ptx());
        cache.put(key, new PtxCache.Entry(r.ptx(), r.loweredNames()));
        return new Ptx(r.ptx(), entries, r.loweredNames(), false);
    }

    /**
     * Compiles {@code source} for the lowest compute capability the compiler targets at or above
     * {@code ccMajor.ccMinor}, as {@link #compile} does: what a device without a GPU of its own shows as its
     * kernels' PTX (nvcc 13 no longer targets the CPU device's 7.0).
     */
    public Ptx compileForAtLeast(String source, String fileName, int ccMajor, int ccMinor,
            List<String> nameExpressions) {
        int wanted = ccMajor * 10 + ccMinor;
        for (int cc : backend.capabilities()) {
            if (cc >= wanted) {
                return compile(source, fileName, cc / 10, cc % 10, nameExpressions);
            }
        }
        return compile(source, fileName, ccMajor, ccMinor, nameExpressions);
    }

    /**
     * This compiler as a {@link dev.polygpu.device.PtxTranslator} through {@link #compileForAtLeast}; it gives
     * null when no compiler was found.
     */
    public dev.polygpu.device.PtxTranslator translator() {
        return (source, fileName, ccMajor, ccMinor, names) -> available()
                ? compileForAtLeast(source, fileName, ccMajor, ccMinor, names).text() : null;
    }

    @Override
    public String toString() {
        return "PtxCompiler[" + describe() + "]";
    }

    /** The short reason a library did not load: the line that names the missing library, else the first line. */
    static String reason(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = t.getMessage() == null ? root.toString() : t.getMessage();
        for (String line : msg.split("\\R")) {
            int at = line.indexOf("cannot open shared object file");
            if (at >= 0) {
                int start = line.lastIndexOf(": ", Math.max(0, at - 3));
                return (start >= 0 ? line.substring(start + 2) : line).strip();
            }
        }
        String first = msg.split("\\R", 2)[0].strip();
        return t.getClass().getSimpleName() + (first.isEmpty() ? "" : ": " + first);
    }

    /** No compiler: every compile says what was tried. */
    private record NoCompiler(List<String> tried) implements Backend {
        @Override
        public String describe() {
            return "no CUDA compiler (" + String.join("; ", tried) + ")";
        }

        @Override
        public String identity() {
            return "none";
        }

        @Override
        public List<String> options(String arch) {
            return List.of();
        }

        @Override
        public void checkArchitecture(String arch, int ccMajor, int ccMinor) {
            throw error();
        }

        @Override
        public List<Integer> capabilities() {
            return List.of();
        }

        @Override
        public Result compile(String source, String fileName, String arch, int ccMajor, int ccMinor,
                List<String> nameExpressions) {
            throw error();
        }

        private DeviceException error() {
            return new DeviceException(CudaError.NOT_SUPPORTED, "cannot compile CUDA C: no compiler found. Tried: "
                    + String.join("; ", tried) + ". Install the CUDA toolkit (it has nvcc and libnvrtc.so.12), or"
                    + " set POLYGPU_NVCC to the path of nvcc.");
        }
    }
}
