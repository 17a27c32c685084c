package dev.polygpu.runtime;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Stream;

/**
 * The failure of one element, kept until it is reported once: by the host access that waits for the element
 * or reads an array it wrote, by a stream or device synchronization (guarded by the scheduler's lock).
 */
final class Failure {
    final DeviceException error;
    /** The user's stream the element ran on, or null (for {@code cudaStreamSynchronize}). */
    Stream stream;
    /**
     * The id the next submitted element got when this failure was reported; elements with smaller ids were
     * submitted before the user learned of it and inherit it, later ones do not. MAX_VALUE while unreported.
     */
    long reportedBefore = Long.MAX_VALUE;

    Failure(DeviceException error) {
        this.error = error;
    }

    /** The element's own failure, with the element named in front of the device's message. */
    static Failure own(Vertex v, DeviceException cause) {
        return new Failure(new DeviceException(cause.error(), v.describe() + " failed: " + cause.detail(), cause));
    }

    /** A failure inherited from a parent: the element ran on what a failed element left behind. */
    static Failure inherited(Vertex v, Vertex parent, Failure parentFailure) {
        DeviceException root = parentFailure.error;
        return new Failure(new DeviceException(root.error(), v.describe() + " ran after " + parent.describe()
                + ", which did not complete successfully; its results are not valid: " + root.detail(), root));
    }

    boolean reported() {
        return reportedBefore != Long.MAX_VALUE;
    }

    /** Marks the failure reported when {@code nextElementId} is the id of the next element; returns it. */
    DeviceException report(long nextElementId) {
        if (!reported()) {
            reportedBefore = nextElementId;
        }
        return error;
    }
}
