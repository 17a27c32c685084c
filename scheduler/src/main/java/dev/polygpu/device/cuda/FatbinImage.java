package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The entries of a fatbinary ({@code nvcc -fatbin}): cubins and PTX for several architectures, of which the driver
 * picks the one for the device. Reads bytes only (no driver); a defect is INVALID_IMAGE, never another exception.
 *
 * <p>Layout, as nvcc 13.0 writes it (checked on its output): a 16-byte header (magic {@code 0xBA55ED50}, a 16-bit
 * version, a 16-bit header size, the 64-bit size of the entries that follow), then entries, each a header (16-bit
 * kind: 1 PTX, 2 cubin; 16-bit version; 32-bit header size; 64-bit payload size; the 32-bit SM number at byte 28)
 * followed by its payload. Payloads may be compressed (nvcc compresses PTX by default); an entry counts as
 * readable when its payload is a plain cubin (the ELF magic) or plain PTX text.
 */
final class FatbinImage {
    static final int MAGIC = 0xBA55ED50;
    private static final int KIND_PTX = 1;
    private static final int KIND_CUBIN = 2;

    /** One entry: PTX or a cubin for SM {@code sm}, its payload when readable (null when compressed). */
    record Entry(boolean ptx, int sm, byte[] payload) {
        /** {@code sm_80 cubin}, {@code compute_90 PTX (compressed)}. */
        String describe() {
            return (ptx ? "compute_" + sm + " PTX" : "sm_" + sm + " cubin") + (payload == null ? " (compressed)" : "");
        }
    }

    private final List<Entry> entries;

    private FatbinImage(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Whether {@code image} starts with the fatbinary magic number. */
    static boolean isFatbin(byte[] image) {
        return image.length >= 4 && le32(image, 0) == MAGIC;
    }

    /**
     * Reads the entries of {@code image}, naming it {@code fileName} in messages.
     *
     * @throws DeviceException INVALID_IMAGE, saying what is wrong, for a malformed fatbinary
     */
    static FatbinImage read(byte[] image, String fileName) {
        String where = "fatbinary " + fileName;
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
        List<Entry> entries = new ArrayList<>();
        long at = headerSize;
        long end = headerSize + entriesSize;
        while (at < end) {
            if (end - at < 32) {
                throw new DeviceException(CudaError.INVALID_IMAGE, where + " ends in the middle of an entry"
                        + " header at byte " + at);
            }
            int kind = le16(image, (int) at);
            long entryHeader = le32(image, (int) at + 4) & 0xffffffffL;
            long payloadSize = le64(image, (int) at + 8);
            int sm = le32(image, (int) at + 28);
            if (entryHeader < 32 || payloadSize < 0 || entryHeader > end - at
                    || payloadSize > end - at - entryHeader) {
                throw new DeviceException(CudaError.INVALID_IMAGE, where + " has an entry at byte " + at
                        + " whose header (" + entryHeader + " bytes) and payload (" + Long.toUnsignedString(payloadSize)
                        + " bytes) run past its end");
            }
            if (kind != KIND_PTX && kind != KIND_CUBIN) {
                throw new DeviceException(CudaError.INVALID_IMAGE, where + " has an entry of unknown kind " + kind
                        + " at byte " + at + " (1 is PTX, 2 a cubin)");
            }
            int from = (int) (at + entryHeader);
            byte[] payload = Arrays.copyOfRange(image, from, (int) (from + payloadSize));
            boolean readable = kind == KIND_CUBIN ? CubinImage.isElf(payload) : PtxText.isPtx(payload);
            entries.add(new Entry(kind == KIND_PTX, sm, readable ? payload : null));
            at += entryHeader + payloadSize;
        }
        if (entries.isEmpty()) {
            throw new DeviceException(CudaError.INVALID_IMAGE, where + " has no entries");
        }
        return new FatbinImage(entries);
    }

    List<Entry> entries() {
        return entries;
    }

    /** {@code sm_80 cubin, compute_90 PTX (compressed)}. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
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

    /** The PTX of a readable entry as text. */
    static String text(Entry e) {
        int n = e.payload().length;
        while (n > 0 && e.payload()[n - 1] == 0) {
            n--;
        }
        return new String(e.payload(), 0, n, StandardCharsets.UTF_8);
    }
}
