package dev.polygpu.device.fatbin;

import java.nio.charset.StandardCharsets;

/**
 * One entry of a {@link Fatbinary}: PTX for a virtual architecture ({@code compute_75}) or a cubin for a real one
 * ({@code sm_75}), how nvcc stored it, and its payload, decompressed. An entry compressed by a method polygpu
 * does not know has no payload, and {@link #unreadable()} says why.
 */
public final class FatbinEntry {

    /** What an entry holds. */
    public enum Kind {
        PTX, CUBIN
    }

    /** How an entry's payload is stored: as is, as an LZ4 block (flag {@code 0x2000}), or as zstd ({@code 0x8000}). */
    public enum Compression {
        NONE(""), LZ4(" (LZ4)"), ZSTD(" (zstd)"), UNKNOWN(" (compressed by an unknown method)");

        private final String label;

        Compression(String label) {
            this.label = label;
        }

        /** {@code " (zstd)"}; empty for NONE. */
        String label() {
            return label;
        }
    }

    private final Kind kind;
    private final int sm;
    private final Compression compression;
    private final byte[] payload;
    private final String unreadable;

    FatbinEntry(Kind kind, int sm, Compression compression, byte[] payload, String unreadable) {
        this.kind = kind;
        this.sm = sm;
        this.compression = compression;
        this.payload = payload;
        this.unreadable = unreadable;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isPtx() {
        return kind == Kind.PTX;
    }

    /** The architecture as a number: 75 for {@code sm_75} or {@code compute_75}. */
    public int sm() {
        return sm;
    }

    public Compression compression() {
        return compression;
    }

    /** The payload, decompressed (a copy); null when {@link #unreadable()}. */
    public byte[] payload() {
        return payload == null ? null : payload.clone();
    }

    /** Why the payload cannot be read; null when it can. */
    public String unreadable() {
        return unreadable;
    }

    /** The PTX of a readable PTX entry as text, without the NULs that end it. */
    public String text() {
        if (kind != Kind.PTX || payload == null) {
            throw new IllegalStateException(describe() + " has no readable PTX");
        }
        int n = payload.length;
        while (n > 0 && payload[n - 1] == 0) {
            n--;
        }
        return new String(payload, 0, n, StandardCharsets.UTF_8);
    }

    /** {@code sm_80 cubin}, {@code compute_90 PTX (zstd)}. */
    public String describe() {
        return name(kind, sm) + compression.label;
    }

    /** {@code sm_80 cubin}, {@code compute_90 PTX}. */
    static String name(Kind kind, int sm) {
        return kind == Kind.PTX ? "compute_" + sm + " PTX" : "sm_" + sm + " cubin";
    }

    @Override
    public String toString() {
        return describe();
    }
}
