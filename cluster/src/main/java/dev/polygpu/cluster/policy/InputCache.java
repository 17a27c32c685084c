package dev.polygpu.cluster.policy;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A thief's cache of the input arrays it received with stolen work, so that an owner may send a reference (the
 * array's id and fingerprint) instead of bytes the thief already holds. Entries are keyed by owner and the
 * owner's array id, and hold the fingerprint of the contents they were received with: a lookup hits only when
 * the owner's fingerprint now is the same, so an array the owner changed since is never served from here.
 *
 * <p>Bounded by bytes: the least recently used entries are evicted when a new one would exceed the capacity; an
 * entry larger than the whole capacity is not kept. A capacity of 0 keeps nothing. The owner cannot see
 * evictions (a thief's cache is shared by all the owners it steals from), so a reference may miss; the thief
 * then hands the work back and its owner forgets what it believed the thief holds ({@link SentInputs#forget}),
 * and sends bytes again.
 *
 * <p>Thread-safe: every method holds the instance's lock.
 *
 * @param <F> the fingerprint of an array's contents (compared with {@code equals})
 * @param <V> what is kept for an entry (the bytes, or nothing in a simulation)
 */
public final class InputCache<F, V> {

    /** The default capacity of a member's cache: 256 MiB. */
    public static final long DEFAULT_CAPACITY_BYTES = 256L << 20;

    private record Key(String owner, long arrayId) {
    }

    private record Entry<F, V>(F fingerprint, V value, long bytes) {
    }

    private final long capacityBytes;
    private final LinkedHashMap<Key, Entry<F, V>> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long usedBytes;
    private long hits;
    private long misses;
    private long evictions;

    /**
     * An empty cache.
     *
     * @param capacityBytes the most bytes of entries kept at once; 0 keeps nothing
     * @throws IllegalArgumentException if {@code capacityBytes} is negative
     */
    public InputCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("capacityBytes must be >= 0, was " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    /**
     * The value kept for {@code owner}'s array {@code arrayId} with contents {@code fingerprint}, or null: a miss
     * (nothing kept for that array, or contents with another fingerprint, which is dropped). A hit makes the
     * entry the most recently used.
     *
     * @param owner the member that owns the array; not null
     * @param arrayId the owner's id of the array
     * @param fingerprint the fingerprint the owner sent; not null
     * @return the kept value, or null
     */
    public synchronized V get(String owner, long arrayId, F fingerprint) {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Key k = new Key(Objects.requireNonNull(owner, "owner"), arrayId);
        Entry<F, V> e = entries.get(k);
        if (e != null && e.fingerprint.equals(fingerprint)) {
            hits++;
            return e.value;
        }
        if (e != null) {
            entries.remove(k);
            usedBytes -= e.bytes;
        }
        misses++;
        return null;
    }

    /**
     * Keeps {@code value} as {@code owner}'s array {@code arrayId} with contents {@code fingerprint}, replacing
     * what was kept for that array and evicting the least recently used entries until it fits. Not kept if it is
     * larger than the capacity.
     *
     * @param owner the member that owns the array; not null
     * @param arrayId the owner's id of the array
     * @param fingerprint the fingerprint of the contents; not null
     * @param value what to keep (the caller must not change it afterwards)
     * @param bytes the size of the contents; at least 0
     * @return true if it was kept
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public synchronized boolean put(String owner, long arrayId, F fingerprint, V value, long bytes) {
        Objects.requireNonNull(fingerprint, "fingerprint");
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
        }
        Key k = new Key(Objects.requireNonNull(owner, "owner"), arrayId);
        Entry<F, V> old = entries.remove(k);
        if (old != null) {
            usedBytes -= old.bytes;
        }
        if (bytes > capacityBytes) {
            return false;
        }
        Iterator<Entry<F, V>> it = entries.values().iterator();
        while (usedBytes + bytes > capacityBytes && it.hasNext()) {
            usedBytes -= it.next().bytes;
            it.remove();
            evictions++;
        }
        entries.put(k, new Entry<>(fingerprint, value, bytes));
        usedBytes += bytes;
        return true;
    }

    /**
     * Drops everything kept for {@code owner} (it left the cluster).
     *
     * @param owner the member; null drops nothing
     */
    public synchronized void forgetOwner(String owner) {
        for (Iterator<Map.Entry<Key, Entry<F, V>>> it = entries.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Key, Entry<F, V>> e = it.next();
            if (e.getKey().owner().equals(owner)) {
                usedBytes -= e.getValue().bytes;
                it.remove();
            }
        }
    }

    /** {@return the capacity in bytes} */
    public long capacityBytes() {
        return capacityBytes;
    }

    /** {@return the bytes of the entries kept now} */
    public synchronized long usedBytes() {
        return usedBytes;
    }

    /** {@return how many entries are kept now} */
    public synchronized int size() {
        return entries.size();
    }

    /** {@return lookups that found the contents asked for} */
    public synchronized long hits() {
        return hits;
    }

    /** {@return lookups that did not} */
    public synchronized long misses() {
        return misses;
    }

    /** {@return entries evicted to make room} */
    public synchronized long evictions() {
        return evictions;
    }

    @Override
    public synchronized String toString() {
        return "InputCache[" + entries.size() + " arrays, " + usedBytes + " of " + capacityBytes + " bytes, hits "
                + hits + ", misses " + misses + ", evictions " + evictions + "]";
    }
}
