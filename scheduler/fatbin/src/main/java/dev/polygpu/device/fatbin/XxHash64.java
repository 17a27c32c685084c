package dev.polygpu.device.fatbin;

/**
 * XXH64 (seed 0), whose low 32 bits a zstd frame may carry as a checksum of its content. The algorithm: four
 * accumulators take 32-byte stripes (each lane: add it times prime 2, rotate left 31, times prime 1), are merged,
 * then the length and the remaining 8-, 4- and 1-byte pieces are mixed in, and a final avalanche spreads the bits.
 */
final class XxHash64 {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private XxHash64() {
    }

    static long hash(byte[] b, int from, int length) {
        int at = from;
        int end = from + length;
        long h;
        if (length >= 32) {
            long v1 = P1 + P2;
            long v2 = P2;
            long v3 = 0;
            long v4 = -P1;
            while (end - at >= 32) {
                v1 = round(v1, Fatbinary.le64(b, at));
                v2 = round(v2, Fatbinary.le64(b, at + 8));
                v3 = round(v3, Fatbinary.le64(b, at + 16));
                v4 = round(v4, Fatbinary.le64(b, at + 24));
                at += 32;
            }
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(h, v1);
            h = merge(h, v2);
            h = merge(h, v3);
            h = merge(h, v4);
        } else {
            h = P5;
        }
        h += length;
        while (end - at >= 8) {
            h ^= round(0, Fatbinary.le64(b, at));
            h = Long.rotateLeft(h, 27) * P1 + P4;
            at += 8;
        }
        if (end - at >= 4) {
            h ^= (Fatbinary.le32(b, at) & 0xffffffffL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            at += 4;
        }
        while (at < end) {
            h ^= (b[at++] & 0xffL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    private static long round(long acc, long lane) {
        return Long.rotateLeft(acc + lane * P2, 31) * P1;
    }

    private static long merge(long h, long v) {
        return (h ^ round(0, v)) * P1 + P4;
    }
}
