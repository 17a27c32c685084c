package dev.polygpu.runtime;

import dev.polygpu.device.UnifiedBuffer;
import java.util.Arrays;

/**
 * What a scheduler with several devices knows of one array's copies: a buffer on each device (allocated when the
 * array first goes there; the array's own buffer is the host's copy), which locations hold the up-to-date contents
 * as of the elements submitted so far (bit {@code d} for device {@code d}, bit N for the host), and per location the
 * element that made its copy up to date (a transfer or a writer), for later users there to wait for. The state
 * follows program order, not execution: it changes when elements are submitted, so it is the same whatever the
 * devices' timing. Guarded by the scheduler's lock.
 */
final class Replicas {
    /** Per device, its copy, or null until the array first goes there. */
    final UnifiedBuffer[] buffers;
    /** Per location (devices, then the host), the element whose completion makes its copy up to date, or null. */
    final Vertex[] producers;
    /** The locations holding the up-to-date contents. */
    long valid;
    private final long hostBit;

    Replicas(int devices) {
        buffers = new UnifiedBuffer[devices];
        producers = new Vertex[devices + 1];
        hostBit = 1L << devices;
        valid = hostBit;
    }

    boolean holds(int location) {
        return (valid & (1L << location)) != 0;
    }

    /** Only {@code location} holds the contents now, made so by {@code producer} (a writer there). */
    void onlyAt(int location, Vertex producer) {
        valid = 1L << location;
        Arrays.fill(producers, null);
        producers[location] = producer;
    }

    /** {@code location} holds the contents too, once {@code producer} (a transfer there) completes. */
    void alsoAt(int location, Vertex producer) {
        valid |= 1L << location;
        producers[location] = producer;
    }

    /**
     * The {@link TrackedArray} state bits: {@link TrackedArray#HOST_STALE} while the host's copy is not up to date
     * or not there yet (a transfer home outstanding), {@link TrackedArray#DEVICE_COPIES} while a device holds one.
     */
    int hostBits() {
        int bits = 0;
        Vertex home = producers[producers.length - 1];
        if ((valid & hostBit) == 0 || (home != null && !home.done())) {
            bits |= TrackedArray.HOST_STALE;
        }
        if ((valid & ~hostBit) != 0) {
            bits |= TrackedArray.DEVICE_COPIES;
        }
        return bits;
    }
}
