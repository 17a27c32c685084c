package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * What a cubin (an ELF64 image of machine code for one GPU architecture, what {@code nvcc -cubin} writes) says
 * about itself: its SM architecture, its kernels and each kernel's parameters. Reads bytes only and touches no
 * driver, so it works where there is no GPU; every defect of the image is a {@link DeviceException} with
 * INVALID_IMAGE saying what is wrong and where, never another exception.
 *
 * <p>What is read, as nvcc 13.0 writes it (checked against {@code readelf} on its output for sm_75 to sm_120):
 * <ul>
 * <li>the ELF header: class ELF64, little-endian, machine {@code EM_CUDA} (190); the section and program
 * headers, and the bytes of each section and segment, must lie within the image. The SM number sits in
 * {@code e_flags}: bits 8–15 in images of ELF ABI version 8 ({@code 0x6004b04} for sm_75, {@code 0x6005a04}
 * for sm_90, {@code 0x6007802} for sm_120; what CUDA 13 writes for every architecture), bits 0–7 in older ones
 * ({@code 0x4b054b} for sm_75: {@code EF_CUDA_SM75}, the virtual architecture in bits 16–23, as cuobjdump of
 * CUDA 12 prints them). CUDA 12.8 already writes the new layout for sm_100 and later ({@code 0x6006402}); as the
 * low byte of that layout (2 or 4) is no SM number, a low byte below 20 also selects it.
 * <li>kernels: the symbols of type {@code STT_FUNC} marked as entries ({@code st_other} bit {@code 0x10};
 * {@code __device__} functions lack it) whose section is {@code .text.<name>}.
 * <li>parameters: the {@code EIATTR_KPARAM_INFO} attributes (code {@code 0x17}) of section
 * {@code .nv.info.<name>}. That section is a sequence of attributes, each a format byte, an attribute byte and
 * two bytes that are either the value ({@code EIFMT_NVAL} 1, {@code EIFMT_BVAL} 2, {@code EIFMT_HVAL} 3) or the
 * length of the value that follows ({@code EIFMT_SVAL} 4). A parameter's value is 12 bytes: a 32-bit index, a
 * 16-bit ordinal, a 16-bit offset into the parameter block and a 32-bit word whose bits 18–31 are the size in
 * bytes. A kernel without parameters has none.
 * </ul>
 * A cubin keeps neither parameter names nor alignments: the alignment given is the largest power of two (at most
 * 16) that divides both the size and the offset, which is the true alignment for scalars and pointers and an
 * upper bound of it for structs.
 */
final class CubinImage {
    static final int EM_CUDA = 190;
    private static final int SHT_SYMTAB = 2;
    private static final int SHT_NOBITS = 8;
    private static final int STT_FUNC = 2;
    private static final int STO_CUDA_ENTRY = 0x10;
    private static final int EIFMT_SVAL = 4;
    private static final int EIATTR_KPARAM_INFO = 0x17;
    private static final int EIATTR_CBANK_PARAM_SIZE = 0x19;

    private final String fileName;
    private final byte[] b;
    private final int sm;
    private final List<ImageKernel> kernels;

    private record Section(int index, String name, int type, long offset, long size, int link) {
    }

    private CubinImage(byte[] image, String fileName) {
        this.fileName = fileName;
        this.b = image;
        if (image.length < 64) {
            throw invalid("is " + image.length + " bytes long, shorter than an ELF64 header (64 bytes)");
        }
        if (image[0] != 0x7f || image[1] != 'E' || image[2] != 'L' || image[3] != 'F') {
            throw invalid("does not start with the ELF magic number 7f 45 4c 46");
        }
        if (image[4] != 2) {
            throw invalid("is a " + (image[4] == 1 ? "32-bit" : "class " + image[4]) + " ELF file; a cubin is ELF64");
        }
        if (image[5] != 1) {
            throw invalid("is a big-endian ELF file; a cubin is little-endian");
        }
        int machine = u16(18);
        if (machine != EM_CUDA) {
            throw new DeviceException(CudaError.INVALID_IMAGE, fileName + " is an ELF file for machine " + machine
                    + machineName(machine) + ", not a cubin (machine "
                    + EM_CUDA + ", NVIDIA CUDA): a host object or library holds device code only embedded; build "
                    + "the kernels with nvcc -cubin, -ptx or -fatbin");
        }
        int abiVersion = image[8] & 0xff;
        long flags = u32(48);
        boolean newLayout = abiVersion >= 8 || (flags & 0xff) < 20;
        this.sm = (int) (newLayout ? flags >>> 8 & 0xff : flags & 0xff);
        if (sm < 10) {
            throw invalid("names no GPU architecture in its ELF flags (0x" + Long.toHexString(flags) + ", ELF ABI"
                    + " version " + abiVersion + ")");
        }
        List<Section> sections = sections();
        checkSegments();
        this.kernels = kernels(sections);
    }

    /**
     * Reads {@code image}, naming it {@code fileName} in messages.
     *
     * @throws DeviceException INVALID_IMAGE, saying what is wrong, for anything that is not a well-formed cubin
     */
    static CubinImage read(byte[] image, String fileName) {
        return new CubinImage(image, fileName);
    }

    /** Whether {@code image} starts with the ELF magic number. */
    static boolean isElf(byte[] image) {
        return image.length >= 4 && image[0] == 0x7f && image[1] == 'E' && image[2] == 'L' && image[3] == 'F';
    }

    /** The SM architecture as a number: 75 for sm_75, 120 for sm_120. */
    int sm() {
        return sm;
    }

    /** The kernels, in the order of the symbol table. */
    List<ImageKernel> kernels() {
        return kernels;
    }

    private List<Section> sections() {
        long shoff = u64(0x28);
        int shentsize = u16(0x3a);
        int shnum = u16(0x3c);
        int shstrndx = u16(0x3e);
        if (shnum == 0) {
            throw invalid("has no section headers (e_shnum is 0)");
        }
        if (shentsize != 64) {
            throw invalid("has section headers of " + shentsize + " bytes; ELF64 ones are 64");
        }
        if (shoff < 0 || shoff > b.length || (long) shnum * 64 > b.length - shoff) {
            throw invalid("has its " + shnum + " section headers at offset " + Long.toUnsignedString(shoff)
                    + ", beyond its " + b.length + " bytes (truncated?)");
        }
        if (shstrndx >= shnum) {
            throw invalid("names section " + shstrndx + " as its section name table, but has " + shnum + " sections");
        }
        int[] nameOffsets = new int[shnum];
        List<Section> raw = new ArrayList<>();
        for (int i = 0; i < shnum; i++) {
            int h = (int) (shoff + 64L * i);
            nameOffsets[i] = (int) Math.min(u32(h), Integer.MAX_VALUE);
            int type = (int) u32(h + 4);
            long offset = u64(h + 24);
            long size = u64(h + 32);
            int link = (int) Math.min(u32(h + 40), Integer.MAX_VALUE);
            if (type != SHT_NOBITS && (offset < 0 || size < 0 || offset > b.length
                    || size > b.length - offset)) {
                throw invalid("has section " + i + " at bytes " + Long.toUnsignedString(offset) + "+"
                        + Long.toUnsignedString(size) + ", beyond its " + b.length + " bytes (truncated?)");
            }
            raw.add(new Section(i, null, type, offset, size, link));
        }
        Section names = raw.get(shstrndx);
        List<Section> sections = new ArrayList<>();
        for (Section s : raw) {
            sections.add(new Section(s.index(), string(names, nameOffsets[s.index()], "section " + s.index()
                    + "'s name"), s.type(), s.offset(), s.size(), s.link()));
        }
        return sections;
    }

    /** The program headers (what the driver loads) and the file bytes of each segment lie within the image. */
    private void checkSegments() {
        long phoff = u64(0x20);
        int phentsize = u16(0x36);
        int phnum = u16(0x38);
        if (phnum == 0) {
            return;
        }
        if (phentsize != 56) {
            throw invalid("has program headers of " + phentsize + " bytes; ELF64 ones are 56");
        }
        if (phoff < 0 || phoff > b.length || (long) phnum * 56 > b.length - phoff) {
            throw invalid("has its " + phnum + " program headers at offset " + Long.toUnsignedString(phoff)
                    + ", beyond its " + b.length + " bytes (truncated?)");
        }
        for (int i = 0; i < phnum; i++) {
            int h = (int) (phoff + 56L * i);
            long offset = u64(h + 8);
            long fileBytes = u64(h + 32);
            if (offset < 0 || fileBytes < 0 || offset > b.length || fileBytes > b.length - offset) {
                throw invalid("has segment " + i + " at bytes " + Long.toUnsignedString(offset) + "+"
                        + Long.toUnsignedString(fileBytes) + ", beyond its " + b.length + " bytes (truncated?)");
            }
        }
    }

    private List<ImageKernel> kernels(List<Section> sections) {
        Section symtab = null;
        for (Section s : sections) {
            if (s.type() == SHT_SYMTAB) {
                symtab = s;
            }
        }
        if (symtab == null) {
            throw invalid("has no symbol table, so no kernels");
        }
        if (symtab.link() >= sections.size()) {
            throw invalid("links its symbol table to section " + symtab.link() + ", but has " + sections.size());
        }
        Section strtab = sections.get(symtab.link());
        List<ImageKernel> found = new ArrayList<>();
        for (long at = 24; at + 24 <= symtab.size(); at += 24) { // symbol 0 is the null symbol
            int sym = (int) (symtab.offset() + at);
            int info = b[sym + 4] & 0xff;
            int other = b[sym + 5] & 0xff;
            int shndx = u16(sym + 6);
            if ((info & 0xf) != STT_FUNC || (other & STO_CUDA_ENTRY) == 0) {
                continue;
            }
            String name = string(strtab, (int) Math.min(u32(sym), Integer.MAX_VALUE), "a symbol's name");
            if (shndx >= sections.size() || !sections.get(shndx).name().equals(".text." + name)) {
                throw invalid("has kernel '" + name + "' in section " + shndx + (shndx < sections.size()
                        ? " (" + sections.get(shndx).name() + ")" : "") + " instead of its own .text." + name);
            }
            Section table = null;
            for (Section s : sections) {
                if (s.name().equals(".nv.info." + name)) {
                    table = s;
                }
            }
            if (table == null || table.type() == SHT_NOBITS) {
                throw invalid("has no section .nv.info." + name + ", the parameter table of kernel '" + name + "'");
            }
            found.add(new ImageKernel(name, params(name, table)));
        }
        return List.copyOf(found);
    }

    /** The parameters recorded in {@code info}, the {@code .nv.info.<kernel>} section. */
    private List<ImageParam> params(String kernel, Section info) {
        TreeMap<Integer, int[]> byOrdinal = new TreeMap<>();
        long blockBytes = -1;
        long end = info.offset() + info.size();
        long at = info.offset();
        while (at < end) {
            if (end - at < 4) {
                throw invalid("ends the attributes of kernel '" + kernel + "' (.nv.info." + kernel + ") in the"
                        + " middle of one, at byte " + (at - info.offset()));
            }
            int format = b[(int) at] & 0xff;
            int attribute = b[(int) at + 1] & 0xff;
            int value = u16((int) at + 2);
            if (format < 1 || format > EIFMT_SVAL) {
                throw invalid("has an attribute of unknown format " + format + " in .nv.info." + kernel
                        + " at byte " + (at - info.offset()));
            }
            long next = at + 4 + (format == EIFMT_SVAL ? value : 0);
            if (next > end) {
                throw invalid("has an attribute of " + value + " bytes in .nv.info." + kernel + " at byte "
                        + (at - info.offset()) + " that runs past the section's end");
            }
            if (attribute == EIATTR_CBANK_PARAM_SIZE && format != EIFMT_SVAL) {
                blockBytes = value;
            } else if (attribute == EIATTR_KPARAM_INFO) {
                if (format != EIFMT_SVAL || value < 12) {
                    throw invalid("has a parameter record of kernel '" + kernel + "' that is not 12 bytes long");
                }
                int v = (int) at + 4;
                int ordinal = u16(v + 4);
                int offset = u16(v + 6);
                int size = (int) (u32(v + 8) >>> 18);
                if (size == 0) {
                    throw invalid("gives kernel '" + kernel + "' a parameter " + ordinal + " of 0 bytes");
                }
                if (byOrdinal.put(ordinal, new int[] {offset, size}) != null) {
                    throw invalid("describes parameter " + ordinal + " of kernel '" + kernel + "' twice");
                }
            }
            at = next;
        }
        List<ImageParam> params = new ArrayList<>();
        for (var e : byOrdinal.entrySet()) {
            if (e.getKey() != params.size()) {
                throw invalid("describes parameter " + e.getKey() + " of kernel '" + kernel + "' but not parameter "
                        + params.size());
            }
            int offset = e.getValue()[0];
            int size = e.getValue()[1];
            if (blockBytes >= 0 && offset + size > blockBytes) {
                throw invalid("places parameter " + e.getKey() + " of kernel '" + kernel + "' at bytes " + offset
                        + "+" + size + ", beyond the kernel's " + blockBytes + "-byte parameter block");
            }
            params.add(new ImageParam(null, size, alignment(offset, size), size + (size == 1 ? " byte" : " bytes")));
        }
        return params;
    }

    /** The largest power of two, at most 16, that divides {@code size} and {@code offset}. */
    static int alignment(int offset, int size) {
        int align = 16;
        while (align > 1 && (size % align != 0 || offset % align != 0)) {
            align /= 2;
        }
        return align;
    }

    /** The NUL-terminated string at {@code offset} of string table {@code table}. */
    private String string(Section table, int offset, String what) {
        if (table.type() == SHT_NOBITS || offset >= table.size()) {
            throw invalid("has " + what + " at offset " + offset + " of section " + table.index() + ", which has "
                    + table.size() + " bytes");
        }
        int start = (int) (table.offset() + offset);
        int end = start;
        int limit = (int) (table.offset() + table.size());
        while (end < limit && b[end] != 0) {
            end++;
        }
        if (end == limit) {
            throw invalid("has " + what + " running past the end of section " + table.index());
        }
        return new String(b, start, end - start, StandardCharsets.ISO_8859_1);
    }

    private int u16(int at) {
        check(at, 2);
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    private long u32(int at) {
        check(at, 4);
        return (u16(at) | (long) u16(at + 2) << 16) & 0xffffffffL;
    }

    /** An unsigned 64-bit field; values beyond a long's range come back negative and fail the range checks. */
    private long u64(int at) {
        check(at, 8);
        return u32(at) | u32(at + 4) << 32;
    }

    private void check(int at, int bytes) {
        if (at < 0 || at > b.length - bytes) {
            throw invalid("is truncated: it needs bytes " + at + "+" + bytes + " but has " + b.length);
        }
    }

    private DeviceException invalid(String what) {
        return new DeviceException(CudaError.INVALID_IMAGE, "cubin " + fileName + " " + what);
    }

    private static String machineName(int machine) {
        return switch (machine) {
            case 62 -> " (x86-64)";
            case 183 -> " (AArch64)";
            case 21 -> " (PowerPC64)";
            case 224 -> " (AMD GPU)";
            default -> "";
        };
    }
}
