package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.CxxNames;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.fatbin.FatbinEntry;
import dev.polygpu.device.fatbin.Fatbinary;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Precompiled device code as {@code Device.load} receives it, read before the driver sees it: which kind it is
 * (PTX text, a cubin, a fatbinary), the architecture it was built for, and its kernels with their parameters.
 * Reads bytes only, so everything here works without a GPU; what the driver would refuse with a bare error code
 * is refused here with a message that names the file, what it is, and what to do.
 *
 * <p>Kinds: PTX is text whose first directive (after comments) is {@code .version}; a cubin starts with the ELF
 * magic ({@link CubinImage}); a fatbinary with {@code 0xBA55ED50} ({@link Fatbinary}, which decompresses the
 * entries nvcc compresses). The kernels of a fatbinary are read from one of its entries, a cubin if there is one
 * (every entry of one nvcc run holds the same kernels, and a cubin gives the exact parameter layout), else PTX;
 * the driver still gets the whole fatbinary, as it was given, and picks the entry for the device itself.
 */
final class PrecompiledImage {

    /** What an image is. */
    enum Kind {
        PTX("PTX"), CUBIN("cubin"), FATBIN("fatbinary");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private final Kind kind;
    private final String fileName;
    private final byte[] driverImage;
    private final String ptx;
    private final PtxText.Target target;
    private final int cubinSm;
    private final Fatbinary fatbin;
    /** Null for a fatbinary none of whose entries can be read. */
    private final List<ImageKernel> kernels;

    private PrecompiledImage(Kind kind, String fileName, byte[] driverImage, String ptx, PtxText.Target target,
            int cubinSm, Fatbinary fatbin, List<ImageKernel> kernels) {
        this.kind = kind;
        this.fileName = fileName;
        this.driverImage = driverImage;
        this.ptx = ptx;
        this.target = target;
        this.cubinSm = cubinSm;
        this.fatbin = fatbin;
        this.kernels = kernels == null ? null : List.copyOf(kernels);
    }

    /**
     * Reads {@code image}, named {@code fileName} in messages.
     *
     * @throws DeviceException INVALID_VALUE for a null image; INVALID_IMAGE for bytes that are no image, or a
     *         cubin or fatbinary that is malformed, saying what it looked like; INVALID_PTX for PTX whose kernels
     *         or target cannot be read
     */
    static PrecompiledImage read(byte[] image, String fileName) {
        String name = fileName == null || fileName.isBlank() ? "(unnamed image)" : fileName;
        if (image == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "the image of " + name + " is null");
        }
        if (image.length == 0) {
            throw new DeviceException(CudaError.INVALID_IMAGE, name + " is empty: expected PTX (nvcc -ptx), a"
                    + " cubin (nvcc -cubin) or a fatbinary (nvcc -fatbin)");
        }
        byte[] copy = image.clone(); // the caller may reuse its array; the driver reads it later
        if (Fatbinary.isFatbin(copy)) {
            Fatbinary fat = Fatbinary.read(copy, name);
            return new PrecompiledImage(Kind.FATBIN, name, copy, null, null, 0, fat, kernelsOf(fat, name));
        }
        if (CubinImage.isElf(copy)) {
            CubinImage cubin = CubinImage.read(copy, name);
            return new PrecompiledImage(Kind.CUBIN, name, copy, null, null, cubin.sm(), null, cubin.kernels());
        }
        if (PtxText.isPtx(copy)) {
            String text = ptxText(copy);
            return new PrecompiledImage(Kind.PTX, name, PtxText.nulTerminated(copy), text,
                    PtxText.target(text, name), 0, null, ptxKernels(text, name));
        }
        throw notAnImage(copy, name);
    }

    Kind kind() {
        return kind;
    }

    String fileName() {
        return fileName;
    }

    /** The bytes to hand to the driver: the image as given, PTX with the NUL the driver reads up to. */
    byte[] driverImage() {
        return driverImage;
    }

    /** The PTX text of a PTX image; null for a cubin or a fatbinary. */
    String ptx() {
        return ptx;
    }

    /**
     * The kernels, in the image's order.
     *
     * @throws DeviceException NOT_SUPPORTED for a fatbinary none of whose entries can be read (each compressed by
     *         a method polygpu does not know), saying why for each
     */
    List<ImageKernel> kernels() {
        if (kernels == null) {
            StringBuilder why = new StringBuilder();
            for (FatbinEntry e : fatbin.entries()) {
                why.append(why.isEmpty() ? "" : "; ").append(e.unreadable());
            }
            throw new DeviceException(CudaError.NOT_SUPPORTED, "fatbinary " + fileName + " holds no entry whose"
                    + " kernels polygpu can list (" + why + "); rebuild it with nvcc -fatbin (any -compress-mode"
                    + " nvcc 13 offers), or load the .cubin or .ptx instead");
        }
        return kernels;
    }

    /**
     * The kernel {@code requested} names: its {@code extern "C"} name, its mangled name, or its C++ name
     * ({@code aa::bb::inc_kernel}, {@code scale<float>}; {@link CxxNames#resolve}).
     *
     * @throws DeviceException NOT_FOUND listing the image's kernels (by source name where {@link
     *         CxxNames#demangledName} can tell it), and for a template instantiation, saying that an image cannot
     *         make one; NOT_FOUND too, naming them, when several overloads match
     */
    ImageKernel kernel(String requested) {
        Map<String, ImageKernel> byName = new LinkedHashMap<>();
        for (ImageKernel k : kernels()) {
            byName.put(k.name(), k);
        }
        try {
            return byName.get(CxxNames.resolve(fileName, requested, Map.of(), byName.keySet()));
        } catch (DeviceException e) {
            if (e.error() != CudaError.NOT_FOUND || !e.detail().contains("has no kernel")) {
                throw e; // overloads: CxxNames names them
            }
            StringBuilder has = new StringBuilder();
            for (String entry : byName.keySet()) {
                String source = CxxNames.demangledName(entry);
                has.append(has.isEmpty() ? "" : ", ").append(source == null ? entry : source + " (" + entry + ")");
            }
            String template = requested.indexOf('<') < 0 ? "" : "; it does not contain that instantiation, and"
                    + " precompiled code cannot instantiate a template: instantiate it in the source (template"
                    + " __global__ void " + requested + "(…);) and rebuild " + fileName + ", or use buildkernel";
            throw new DeviceException(CudaError.NOT_FOUND, kind.label + " " + fileName + " has no kernel '"
                    + requested + "'" + template + "; it has " + (has.isEmpty() ? "no kernels" : has), e);
        }
    }

    /** {@code PTX for sm_75}, {@code cubin for sm_90}, {@code fatbinary (sm_80 cubin, compute_90 PTX)}. */
    String describe() {
        return switch (kind) {
            case PTX -> "PTX for " + target;
            case CUBIN -> "cubin for sm_" + cubinSm;
            case FATBIN -> "fatbinary (" + fatbin.describe() + ")";
        };
    }

    /**
     * Checks that a device of compute capability {@code major}.{@code minor}, described as {@code device} in
     * messages, can run the image.
     *
     * @throws DeviceException NO_BINARY_FOR_GPU naming the image's and the device's architectures; for a fatbinary
     *         it can run but whose kernels cannot be read, NOT_SUPPORTED ({@link #kernels()})
     */
    void checkRunsOn(int major, int minor, String device) {
        String deviceArch = device + " (compute capability " + major + "." + minor + ", sm_" + major + minor + ")";
        switch (kind) {
            case PTX -> {
                if (!target.runsOn(major, minor)) {
                    String which = switch (target.suffix()) {
                        case 'a' -> ", code for exactly that architecture, which " + deviceArch + " is not";
                        case 'f' -> ", code for the sm_" + target.sm() / 10 + "x family from " + target + " on, which "
                                + deviceArch + " is not in";
                        default -> ", which is newer than " + deviceArch;
                    };
                    throw new DeviceException(CudaError.NO_BINARY_FOR_GPU, "PTX " + fileName + " targets " + target
                            + which + "; rebuild it with nvcc -ptx -arch=compute_" + major + minor + " (or older)");
                }
            }
            case CUBIN -> {
                if (!cubinRunsOn(cubinSm, major, minor)) {
                    throw new DeviceException(CudaError.NO_BINARY_FOR_GPU, "cubin " + fileName + " is machine code"
                            + " for sm_" + cubinSm + ", which " + deviceArch + " cannot run (a cubin runs only on"
                            + " its own major architecture, at its minor version or a later one); rebuild it with"
                            + " nvcc -cubin -arch=sm_" + major + minor + ", or load PTX (nvcc -ptx), which the"
                            + " driver compiles for the device");
                }
            }
            case FATBIN -> {
                boolean runnable = false;
                for (FatbinEntry e : fatbin.entries()) {
                    runnable |= e.isPtx() ? e.sm() <= major * 10 + minor : cubinRunsOn(e.sm(), major, minor);
                }
                if (!runnable) {
                    throw new DeviceException(CudaError.NO_BINARY_FOR_GPU, "fatbinary " + fileName + " holds "
                            + fatbin.describe() + ", none of which " + deviceArch + " can run; rebuild it with"
                            + " nvcc -fatbin -arch=sm_" + major + minor + " (cubin and PTX for that architecture)");
                }
                kernels();
            }
            default -> throw new IllegalStateException(kind.toString());
        }
    }

    /** Whether a cubin for {@code sm} runs on compute capability {@code major}.{@code minor}. */
    static boolean cubinRunsOn(int sm, int major, int minor) {
        return sm / 10 == major && sm % 10 <= minor;
    }

    private static List<ImageKernel> kernelsOf(Fatbinary fat, String name) {
        for (FatbinEntry e : fat.entries()) {
            if (!e.isPtx() && e.unreadable() == null) {
                return CubinImage.read(e.payload(), name + " (its " + e.describe() + " entry)").kernels();
            }
        }
        FatbinEntry ptx = fat.newestPtx();
        return ptx == null ? null : ptxKernels(ptx.text(), name + " (its " + ptx.describe() + " entry)");
    }

    private static List<ImageKernel> ptxKernels(String text, String name) {
        List<PtxEntry> entries;
        try {
            entries = PtxEntries.parse(text);
        } catch (DeviceException e) {
            throw new DeviceException(e.error(), "PTX " + name + ": " + e.detail(), e);
        }
        List<ImageKernel> kernels = new ArrayList<>();
        for (PtxEntry e : entries) {
            kernels.add(new ImageKernel(e.name(), e.params().stream().map(PtxParam::image).toList()));
        }
        return kernels;
    }

    /** PTX bytes as text, without the NULs that may end them. */
    private static String ptxText(byte[] bytes) {
        int n = bytes.length;
        while (n > 0 && bytes[n - 1] == 0) {
            n--;
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }

    /** INVALID_IMAGE (INVALID_PTX for text that looks like PTX) saying what the bytes looked like. */
    private static DeviceException notAnImage(byte[] bytes, String name) {
        String kinds = "PTX (text starting with .version, from nvcc -ptx), a cubin (nvcc -cubin) or a fatbinary"
                + " (nvcc -fatbin)";
        if (!isText(bytes)) {
            StringBuilder head = new StringBuilder();
            for (int i = 0; i < Math.min(8, bytes.length); i++) {
                head.append(i == 0 ? "" : " ").append(String.format("%02x", bytes[i] & 0xff));
            }
            return new DeviceException(CudaError.INVALID_IMAGE, name + " starts with bytes " + head + ", which is"
                    + " not " + kinds);
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        String first = firstLine(text);
        if (text.contains("__global__") || text.contains("#include")) {
            return new DeviceException(CudaError.INVALID_IMAGE, name + " starts with '" + first + "' — this is"
                    + " CUDA C source: use buildkernel, which compiles it, or compile it first with nvcc -ptx or"
                    + " -cubin");
        }
        String code = PtxEntries.stripComments(text);
        if (code.contains(".entry") || code.contains(".target")) {
            return new DeviceException(CudaError.INVALID_PTX, name + " looks like PTX but does not start with a"
                    + " .version directive (it starts with '" + first + "'); PTX must begin with .version and"
                    + " .target, as nvcc -ptx writes it");
        }
        return new DeviceException(CudaError.INVALID_IMAGE, name + " starts with '" + first + "', which is not "
                + kinds);
    }

    /** Whether the first 4 KiB hold no control characters other than white space (UTF-8 text). */
    private static boolean isText(byte[] bytes) {
        for (int i = 0; i < Math.min(bytes.length, 4096); i++) {
            int c = bytes[i] & 0xff;
            if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f') {
                return false;
            }
        }
        return true;
    }

    /** The first line that is not blank, shortened to 40 characters. */
    private static String firstLine(String text) {
        for (String line : text.split("\\R")) {
            String s = line.strip();
            if (!s.isEmpty()) {
                return s.length() > 40 ? s.substring(0, 40) + "…" : s;
            }
        }
        return "";
    }
}
