package dev.polygpu.cluster.policy;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An owner's record of the input arrays it sent to each thief, and with which contents (a fingerprint), so that
 * the next element that reads the same unchanged array goes with a reference instead of its bytes: the thief
 * keeps what it received in its {@link InputCache}. Per thief the record is bounded as a thief's cache is
 * (least recently used first, by bytes and by count), so it forgets roughly what the thief evicts; what it
 * cannot see (the thief's cache is shared with other owners), a miss corrects: the thief hands the work back
 * and the owner {@link #forget forgets} that thief's record.
 *
 * <p>Only a matching fingerprint counts: an array the owner changed since it was sent (by a kernel, a copy or
 * the host) is sent again whatever the record says.
 *
 * <p>Thread-safe: every method holds the instance's lock.
 *
 * @param <F> the fingerprint of an array's contents (compared with {@code equals})
 */
public final class SentInputs<F> {

    /** The most arrays remembered per thief, whatever their size. */
    public static final int MAX_ARRAYS_PER_THIEF = 1 << 16;

    private record Sent<F>(F fingerprint, long bytes) {
    }

    private static final class PerThief<F> {
        final LinkedHashMap<Long, Sent<F>> arrays = new LinkedHashMap<>(16, 0.75f, true);
        long bytes;
    }

    private final long capacityBytes;
    private final Map<String, PerThief<F>> thieves = new HashMap<>();

    /**
     * An empty record.
     *
     * @param capacityBytes the bytes remembered per thief: the thieves' cache capacity; 0 remembers nothing (every
     *     input is sent)
     * @throws IllegalArgumentException if {@code capacityBytes} is negative
     */
    public SentInputs(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("capacityBytes must be >= 0, was " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    /**
     * Whether {@code thief} holds array {@code arrayId} with contents {@code fingerprint} as far as this owner
     * knows: then a reference may go instead of the bytes. A hit makes the array the thief's most recently used.
     *
     * @param thief the member; not null
     * @param arrayId this owner's id of the array
     * @param fingerprint the contents now; not null
     * @return true to send a reference
     */
    public synchronized boolean holds(String thief, long arrayId, F fingerprint) {
        Objects.requireNonNull(fingerprint, "fingerprint");
        PerThief<F> p = thieves.get(Objects.requireNonNull(thief, "thief"));
        if (p == null) {
            return false;
        }
        Sent<F> s = p.arrays.get(arrayId);
        return s != null && s.fingerprint.equals(fingerprint);
    }

    /**
     * Records that {@code thief} was sent array {@code arrayId} with contents {@code fingerprint}, forgetting the
     * least recently used arrays of that thief beyond the capacity. Larger than the capacity: not remembered.
     *
     * @param thief the member; not null
     * @param arrayId this owner's id of the array
     * @param fingerprint the contents sent; not null
     * @param bytes their size; at least 0
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public synchronized void sent(String thief, long arrayId, F fingerprint, long bytes) {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(thief, "thief");
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
        }
        PerThief<F> p = thieves.computeIfAbsent(thief, t -> new PerThief<>());
        Sent<F> old = p.arrays.remove(arrayId);
        if (old != null) {
            p.bytes -= old.bytes;
        }
        if (bytes > capacityBytes) {
            return;
        }
        Iterator<Sent<F>> it = p.arrays.values().iterator();
        while ((p.bytes + bytes > capacityBytes || p.arrays.size() >= MAX_ARRAYS_PER_THIEF) && it.hasNext()) {
            p.bytes -= it.next().bytes;
            it.remove();
        }
        p.arrays.put(arrayId, new Sent<>(fingerprint, bytes));
        p.bytes += bytes;
    }

    /**
     * Forgets all that {@code thief} was sent: its cache missed (it evicted what this record still had), it could
     * not be reached, or it left.
     *
     * @param thief the member; null forgets nothing
     */
    public synchronized void forget(String thief) {
        thieves.remove(thief);
    }

    /** {@return how many arrays this owner believes {@code thief} holds} */
    public synchronized int arraysHeldBy(String thief) {
        PerThief<F> p = thieves.get(thief);
        return p == null ? 0 : p.arrays.size();
    }

    /** {@return the per-thief capacity in bytes} */
    public long capacityBytes() {
        return capacityBytes;
    }
}
