package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import dev.polygpu.device.Stream;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link StreamPool}s of a scheduler's devices, one each: an element goes on a stream of its own device
 * ({@link Vertex#device}), a stream's slot knows its device. With one device it is that device's pool.
 *
 * <p>Implementation notes: not thread-safe on its own; as {@link StreamPool}, every method runs under the owning
 * scheduler's lock.
 */
final class StreamPools {
    private final StreamPool[] pools;

    StreamPools(List<Device> devices, SchedulerConfig config) {
        pools = new StreamPool[devices.size()];
        for (int i = 0; i < pools.length; i++) {
            pools[i] = new StreamPool(devices.get(i), i, config);
        }
    }

    /** How many priority levels the owned streams use; the devices of one scheduler are alike. */
    int levels() {
        int levels = pools[0].levels();
        for (StreamPool p : pools) {
            levels = Math.min(levels, p.levels());
        }
        return levels;
    }

    int ownedCount() {
        int n = 0;
        for (StreamPool p : pools) {
            n += p.ownedCount();
        }
        return n;
    }

    boolean busy(Stream stream) {
        for (StreamPool p : pools) {
            if (p.busy(stream)) {
                return true;
            }
        }
        return false;
    }

    /** Makes {@code stream} wait on the device for every element on the other streams, of every device. */
    void joinAll(Stream stream) {
        for (StreamPool p : pools) {
            p.joinAll(stream);
        }
    }

    StreamSlot pickStream(Vertex v, int level) {
        return pools[v.device].pickStream(v, level);
    }

    void releaseIfIdle(StreamSlot slot) {
        pools[slot.device].releaseIfIdle(slot);
    }

    List<StreamSlot> removeOwned() {
        List<StreamSlot> all = new ArrayList<>();
        for (StreamPool p : pools) {
            all.addAll(p.removeOwned());
        }
        return all;
    }
}
