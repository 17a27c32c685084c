package dev.polygpu.device.fatbin;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The entries of a fatbinary ({@code nvcc -fatbin}): cubins and PTX for several architectures, of which a
 * device picks one, with compressed payloads decompressed. Reads bytes only (no driver), so both the CUDA device
 * (which reads kernel names and parameters from an entry, then hands the whole fatbinary to the driver) and the
 * CPU device (which runs a PTX entry) use it. A defect is INVALID_IMAGE naming the file and the entry, never
 * another exception.
 *
 * <p>Layout, as nvcc 13.0 writes it (checked on its output for every {@code -compress-mode}): a 16-byte header
 * (magic {@code 0xBA55ED50}, a 16-bit version, a 16-bit header size, the 64-bit size of the entries that follow),
 * then entries, each a header followed by its payload. An entry header (64 bytes; nvcc writes 80 for PTX) holds
 * at byte 0 the 16-bit kind (1 PTX, 2 cubin), at 4 the 32-bit header size, at 8 the 64-bit size of the stored
 * payload (padded to 8 bytes), at 16 the 32-bit compressed size (0 when not compressed), at 28 the 32-bit
 * architecture (75 for sm_75), at 40 the 64-bit flags and at 56 the 64-bit uncompressed size. Flag {@code 0x2000}
 * marks an LZ4 block ({@code -compress-mode=speed}; {@link Lz4Block}), {@code 0x8000} a zstd frame (the default,
 * {@code size} and {@code balance} modes; {@link ZstdFrame}); {@code none} and {@code -no-compress} set neither.
 * By default nvcc compresses PTX only; {@code -Xfatbin -compress-all} compresses cubins too. The PTX nvcc stores
 * is its {@code -ptx} output without comments and with white space reduced: the same lines, the same tokens.
 *
 * <p>Sizes are bounded before anything is allocated: an entry may declare at most {@link #MAX_ENTRY_BYTES}
 * uncompressed, and the decoders grow their output only as real data decodes, so a size field that lies costs
 * nothing.
 */
public final class Fatbinary {
    /** The fatbinary magic number, as a little-endian 32-bit word. */
    public static final int MAGIC = 0xBA55ED50;
    /** The most an entry may declare uncompressed: 256 MiB, far above any kernel image nvcc writes. */
    public static final int MAX_ENTRY_BYTES = 256 << 20;
    private static final int KIND_PTX = 1;
    private static final int KIND_CUBIN = 2;
    private static final int ENTRY_HEADER = 64;
    private static final long FLAG_LZ4 = 0x2000;
    private static final long FLAG_ZSTD = 0x8000;

    private final String fileName;
    private final List<FatbinEntry> entries;

    private Fatbinary(String fileName, List<FatbinEntry> entries) {
        this.fileName = fileName;
        this.entries = List.copyOf(entries);
    }

    /** Whether {@code image} starts with the fatbinary magic number. */
    public static boolean isFatbin(byte[] image) {
        return image != null && image.length >= 4 && le32(image, 0) == MAGIC;
    }

    /**
     * Reads the entries of {@code image}, decompressing their payloads, naming it {@code fileName} in messages.
     *
     * @throws DeviceException INVALID_IMAGE, saying what is wrong and in which entry, for a malformed fatbinary
     *         or a compressed payload that does not decode to the size its entry declares; INVALID_VALUE for null
     */
    public static Fatbinary read(byte[] image, String fileName) {
        String where = "fatbinary " + fileName;
        if (image == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "the image of " + where + " is null");
        }
        if (image.length < 16 || !isFatbin(image)) {
            throw new DeviceException(CudaError.INVALID_IMAGE, where + " is shorter than its 16-byte header"
                    + " or lacks the magic number 50 ed 55 ba");
        }
        int headerSize = le16(image, 6);
        long entriesSize = le64(image, 8);
        if (headerSize < 16 || entriesSize < 0 || headerSize > image.length
                || entriesSize > image.length - headerSize) {
            throw new DeviceException(CudaError.INVALID_IMAGE, where + " declares a " + headerSize + "-byte header"
                    + " and " + Long.toUnsignedString(entriesSize) + " bytes of entries, but has " + image.length
                    + " bytes (truncated?)");
        }
        List<FatbinEntry> entries = new ArrayList<>();
        long at = headerSize;
        long end = headerSize + entriesSize;
        while (at < end) {
            entries.add(entry(image, (int) at, end, where));
            at += (le32(image, (int) at + 4) & 0xffffffffL) + le64(image, (int) at + 8);
        }
        if (entries.isEmpty()) {
            throw new DeviceException(CudaError.INVALID_IMAGE, where + " has no entries");
        }
        return new Fatbinary(fileName, entries);
    }

    /** The entry whose header starts at {@code at}, which {@link #read} advances past (header plus payload). */
    private static FatbinEntry entry(byte[] image, int at, long end, String where) {
        if (end - at < ENTRY_HEADER) {
            throw new DeviceException(CudaError.INVALID_IMAGE, where + " ends in the middle of an entry header at"
                    + " byte " + at + " (an entry header has " + ENTRY_HEADER + " bytes)");
        }
        int kind = le16(image, at);
        long headerSize = le32(image, at + 4) & 0xffffffffL;
        long stored = le64(image, at + 8);
        int sm = le32(image, at + 28);
        if (headerSize < ENTRY_HEADER || stored < 0 || headerSize > end - at || stored > end - at - headerSize) {
            throw new DeviceException(CudaError.INVALID_IMAGE, where + " has an entry at byte " + at + " whose header"
                    + " (" + headerSize + " bytes) and payload (" + Long.toUnsignedString(stored) + " bytes) run"
                    + " past its end");
        }
        if (kind != KIND_PTX && kind != KIND_CUBIN) {
            throw new DeviceException(CudaError.INVALID_IMAGE, where + " has an entry of unknown kind " + kind
                    + " at byte " + at + " (1 is PTX, 2 a cubin)");
        }
        FatbinEntry.Kind k = kind == KIND_PTX ? FatbinEntry.Kind.PTX : FatbinEntry.Kind.CUBIN;
        int from = (int) (at + headerSize);
        long flags = le64(image, at + 40);
        boolean lz4 = (flags & FLAG_LZ4) != 0;
        boolean zstd = (flags & FLAG_ZSTD) != 0;
        if (!lz4 && !zstd) {
            return new FatbinEntry(k, sm, FatbinEntry.Compression.NONE,
                    Arrays.copyOfRange(image, from, (int) (from + stored)), null);
        }
        if (lz4 && zstd) {
            return new FatbinEntry(k, sm, FatbinEntry.Compression.UNKNOWN, null, "its " + FatbinEntry.name(k, sm)
                    + " entry has both compression flags set (flags 0x" + Long.toHexString(flags) + "; 0x2000 is"
                    + " LZ4, 0x8000 zstd), a format polygpu does not know");
        }
        FatbinEntry.Compression method = lz4 ? FatbinEntry.Compression.LZ4 : FatbinEntry.Compression.ZSTD;
        String entry = where + ": its " + FatbinEntry.name(k, sm) + " entry (" + (lz4 ? "LZ4" : "zstd") + ", at"
                + " byte " + at + ")";
        long compressed = le32(image, at + 16) & 0xffffffffL;
        long size = le64(image, at + 56);
        if (compressed == 0 || compressed > stored) {
            throw new DeviceException(CudaError.INVALID_IMAGE, entry + " declares " + compressed + " compressed"
                    + " bytes in a payload of " + stored);
        }
        if (size <= 0 || size > MAX_ENTRY_BYTES) {
            throw new DeviceException(CudaError.INVALID_IMAGE, entry + " declares " + Long.toUnsignedString(size)
                    + " bytes uncompressed; polygpu reads from 1 byte to " + (MAX_ENTRY_BYTES >> 20) + " MiB");
        }
        byte[] payload;
        try {
            payload = lz4 ? Lz4Block.decode(image, from, (int) compressed, (int) size)
                    : ZstdFrame.decode(image, from, (int) compressed, (int) size);
        } catch (CorruptPayload e) {
            throw new DeviceException(CudaError.INVALID_IMAGE, entry + " is corrupt: its " + compressed
                    + "-byte compressed payload " + e.getMessage());
        } catch (IndexOutOfBoundsException e) {
            // Every read is checked before it is made; this is the JVM's bounds check catching one that was not.
            throw new DeviceException(CudaError.INVALID_IMAGE, entry + " is corrupt: decoding it read out of"
                    + " bounds (" + e.getMessage() + "), a defect the decoder should have named", e);
        }
        return new FatbinEntry(k, sm, method, payload, null);
    }

    public String fileName() {
        return fileName;
    }

    /** The entries in the file's order. */
    public List<FatbinEntry> entries() {
        return entries;
    }

    /**
     * The readable PTX entry for the newest architecture: every entry of one nvcc run holds the same kernels, and
     * the newest PTX is what the source compiled to with the most features enabled (its {@code __CUDA_ARCH__}
     * branches for the newest hardware); null when there is none.
     */
    public FatbinEntry newestPtx() {
        FatbinEntry best = null;
        for (FatbinEntry e : entries) {
            if (e.isPtx() && e.unreadable() == null && (best == null || e.sm() > best.sm())) {
                best = e;
            }
        }
        return best;
    }

    /** {@code sm_80 cubin, compute_90 PTX (zstd)}. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (FatbinEntry e : entries) {
            sb.append(sb.isEmpty() ? "" : ", ").append(e.describe());
        }
        return sb.toString();
    }

    static int le16(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    static int le32(byte[] b, int at) {
        return le16(b, at) | le16(b, at + 2) << 16;
    }

    static long le64(byte[] b, int at) {
        return (le32(b, at) & 0xffffffffL) | (long) le32(b, at + 4) << 32;
    }
}
