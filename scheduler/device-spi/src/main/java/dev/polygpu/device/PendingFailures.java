package dev.polygpu.device;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A device's stream failures not reported yet, for backends to share: each stream keeps its own first
 * unreported {@link Failure} (thrown by its next {@code synchronize}); a closed stream hands what it could not
 * report to the device ({@link #orphan}); {@link #takeFirst} removes and returns the earliest of all of them, for
 * {@code Device.synchronize}, so every failure is reported exactly once, in the order the failures happened.
 *
 * <p>Implementation notes: the orphans are guarded by their list; streams have their own locks, and this class
 * never holds the list's lock while calling into a stream, so there is no lock order. A failure moving from a
 * stream being closed to the orphans may be missed by a concurrent {@link #takeFirst}; the next one reports it.
 */
public final class PendingFailures {
    /** A failed stream operation waiting to be reported; {@code seq} orders failures across the device's streams. */
    public record Failure(long seq, int streamId, DeviceException error) {
    }

    /** A stream as seen from here: its first unreported failure, and removing that one if it still is. */
    public interface Source {
        /** The stream's unreported failure, or null. */
        Failure peekFailure();

        /** Removes {@code f} if it still is the stream's failure; false when something reported it meanwhile. */
        boolean takeFailure(Failure f);
    }

    private final AtomicLong nextSeq = new AtomicLong();
    private final List<Failure> orphans = new ArrayList<>();

    /** A new failure of stream {@code streamId}, ordered after every failure made before. */
    public Failure failure(int streamId, DeviceException error) {
        return new Failure(nextSeq.getAndIncrement(), streamId, error);
    }

    /** Keeps the failure a closed stream could no longer report; null is ignored. */
    public void orphan(Failure unreported) {
        if (unreported != null) {
            synchronized (orphans) {
                orphans.add(unreported);
            }
        }
    }

    /** Removes and returns the earliest unreported failure of {@code streams} and the orphans, or null. */
    public DeviceException takeFirst(Iterable<? extends Source> streams) {
        while (true) {
            Failure best = null;
            Source owner = null;
            for (Source s : streams) {
                Failure f = s.peekFailure();
                if (f != null && (best == null || f.seq() < best.seq())) {
                    best = f;
                    owner = s;
                }
            }
            synchronized (orphans) {
                for (Failure f : orphans) {
                    if (best == null || f.seq() < best.seq()) {
                        best = f;
                        owner = null;
                    }
                }
                if (best == null) {
                    return null;
                }
                if (owner == null) {
                    orphans.remove(best);
                    return best.error();
                }
            }
            if (owner.takeFailure(best)) {
                return best.error();
            }
            // The stream's own synchronize reported it meanwhile; look again.
        }
    }
}
