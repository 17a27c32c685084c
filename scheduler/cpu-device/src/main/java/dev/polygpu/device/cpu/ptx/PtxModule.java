package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.CxxNames;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.CompiledModule;
import dev.polygpu.device.fatbin.FatbinEntry;
import dev.polygpu.device.fatbin.Fatbinary;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * A PTX module loaded by the CPU device: {@link #load} reads, checks and decodes the whole text at once, so
 * every instruction the interpreter does not support is refused here, never while a kernel runs. Kernels are
 * looked up by their entry name ({@code extern "C"} or mangled) or by their C++ name ({@code ns::k},
 * {@code k<float>}), matched by Itanium prefix ({@link CxxNames}).
 *
 * <p>Implementation notes: immutable after {@link #load}; the {@code .global}/{@code .const} variables live in
 * an automatic arena, so they stay valid while any kernel of the module (or a launch queued with one) can still
 * reach them, and are freed by the garbage collector after that.
 */
public final class PtxModule implements CompiledModule {
    /** Local memory per thread for a module whose functions recurse (CUDA's default stack is 1 KiB). */
    static final long RECURSIVE_STACK_BYTES = 16 * 1024;

    private final String fileName;
    private final String text;
    private final GlobalMemory global;
    private final PtxDecoder decoded;
    private final GlobalMemory.Region[] regions;

    private PtxModule(String fileName, String text, GlobalMemory global, PtxDecoder decoded) {
        this.fileName = fileName;
        this.text = text;
        this.global = global;
        this.decoded = decoded;
        this.regions = decoded.regions.toArray(GlobalMemory.Region[]::new);
    }

    /**
     * Loads an image given to {@code cuModuleLoadData}: PTX text is read and decoded; a fatbinary runs its PTX
     * entry ({@link #fatbinPtx}); a cubin, or a fatbinary without PTX, is NOT_SUPPORTED; CUDA C source
     * INVALID_IMAGE, anything else INVALID_IMAGE or INVALID_PTX, each naming {@code fileName} (and the line, for
     * PTX) and saying what to pass instead.
     */
    public static PtxModule load(byte[] image, String fileName, GlobalMemory global) {
        if (image == null || image.length == 0) {
            throw new DeviceException(CudaError.INVALID_IMAGE, fileName + " is empty: give bindkernel the PTX"
                    + " text of the kernels (nvcc -ptx file.cu)");
        }
        if (Fatbinary.isFatbin(image)) {
            FatbinEntry ptx = fatbinPtx(Fatbinary.read(image, fileName));
            return load(ptx.text(), fileName + "[" + ptx.describe().replace(" (", ", ").replace(")", "") + "]",
                    global);
        }
        if (isCubin(image)) {
            throw new DeviceException(CudaError.NOT_SUPPORTED, fileName + " is a cubin: machine code for one GPU"
                    + " architecture, which the CPU device cannot run; give bindkernel the PTX (nvcc -ptx file.cu)"
                    + " or buildkernel the CUDA C source");
        }
        String text = new String(image, StandardCharsets.UTF_8);
        if (!text.contains(".version") && looksLikeCudaC(text)) {
            throw new DeviceException(CudaError.INVALID_IMAGE, fileName + " is CUDA C source, not PTX: use"
                    + " buildkernel for source (or compile it to PTX first with nvcc -ptx)");
        }
        if (!text.contains(".version") || !text.contains(".target")) {
            throw new DeviceException(CudaError.INVALID_IMAGE, fileName + " is neither PTX text (it has no"
                    + " .version and .target directives) nor a cubin; give bindkernel the output of nvcc -ptx");
        }
        return load(text, fileName, global);
    }

    /**
     * The PTX entry of a fatbinary the CPU device runs: the one for the newest architecture
     * ({@link Fatbinary#newestPtx}). Every entry of one nvcc run holds the same kernels; the newest PTX is the
     * source compiled with its newest {@code __CUDA_ARCH__} branches, what a current GPU would run too.
     *
     * @throws DeviceException NOT_SUPPORTED when the fatbinary holds no readable PTX (only cubins: machine code
     *         for a GPU), saying how to build one with PTX
     */
    static FatbinEntry fatbinPtx(Fatbinary fat) {
        FatbinEntry ptx = fat.newestPtx();
        if (ptx != null) {
            return ptx;
        }
        int sm = 0;
        StringBuilder unreadable = new StringBuilder();
        for (FatbinEntry e : fat.entries()) {
            sm = Math.max(sm, e.sm());
            if (e.unreadable() != null) {
                unreadable.append("; ").append(e.unreadable());
            }
        }
        throw new DeviceException(CudaError.NOT_SUPPORTED, "fatbinary " + fat.fileName() + " holds "
                + fat.describe() + unreadable + ": the CPU device runs PTX, not the machine code of a cubin;"
                + " rebuild it with PTX (nvcc -fatbin -gencode arch=compute_" + sm + ",code=compute_" + sm
                + " … adds it) or give bindkernel the PTX (nvcc -ptx -arch=compute_" + sm + ")");
    }

    /** Parses and decodes PTX {@code text}, named {@code fileName} in messages. */
    private static PtxModule load(String text, String fileName, GlobalMemory global) {
        PtxSyntax.Module syntax = PtxParser.parse(text, fileName);
        PtxDecoder decoder = new PtxDecoder(syntax, Arena.ofAuto());
        decoder.decode();
        if (decoder.functions.values().stream().noneMatch(f -> f.entry)) {
            throw new DeviceException(CudaError.INVALID_PTX, fileName + " has no kernel (.entry)");
        }
        return new PtxModule(fileName, text, global, decoder);
    }

    /**
     * ELF (a cubin, {@code 0x7F 'E' 'L' 'F'}) or the wrapper nvcc puts around a fatbinary in a host object
     * ({@code 0x466243B1} little-endian), which points into host memory and is no image on its own.
     */
    static boolean isCubin(byte[] b) {
        if (b.length >= 4 && b[0] == 0x7F && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
            return true;
        }
        if (b.length >= 4) {
            int magic = (b[0] & 0xFF) | (b[1] & 0xFF) << 8 | (b[2] & 0xFF) << 16 | (b[3] & 0xFF) << 24;
            return magic == 0x466243B1;
        }
        return false;
    }

    private static boolean looksLikeCudaC(String text) {
        return text.contains("__global__") || text.contains("#include") || text.contains("__device__");
    }

    @Override
    public List<String> kernelNames() {
        List<String> names = new ArrayList<>();
        decoded.functions.values().stream().filter(f -> f.entry).forEach(f -> names.add(f.name));
        return names;
    }

    @Override
    public CompiledKernel kernel(String name) {
        String entryName = CxxNames.resolve(fileName, name, Map.of(), kernelNames());
        PtxFunction entry = decoded.functions.get(entryName);
        long need = decoded.stackNeed(entry, new HashSet<>());
        return new PtxKernel(name, this, entry, need < 0 ? RECURSIVE_STACK_BYTES : need);
    }

    /** The PTX text as loaded. */
    public String text() {
        return text;
    }

    String fileName() {
        return fileName;
    }

    GlobalMemory global() {
        return global;
    }

    GlobalMemory.Region[] regions() {
        return regions;
    }

    boolean prints() {
        return decoded.prints;
    }

    long moduleSharedBytes() {
        return decoded.moduleSharedBytes;
    }

    long dynamicSharedBase() {
        return decoded.dynamicSharedBase;
    }
}
