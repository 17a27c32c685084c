package dev.polygpu.runtime;

/**
 * The device selection heuristics ({@link DeviceSelectionPolicy}) as pure decisions over what the scheduler knows
 * when an element is submitted: per array the element touches, its size and the locations that hold an up-to-date
 * copy (a bit per device, bit N for the host), and per device its outstanding elements. Keeps the round-robin
 * counter, the only state. Under the scheduler's lock; not thread-safe on its own.
 *
 * <p>With {@code total} the bytes of the element's arrays and {@code present[d]} the bytes of those up to date on
 * device {@code d}: {@code min-transfer-size} takes the device with the largest {@code present[d]} (ties: lowest
 * index) if any has {@code present[d] / total > threshold}, else the next in round-robin order. The transfer-time
 * policies estimate for each device {@code d} the time {@code sum(bytes / bw)} over the arrays not on {@code d},
 * with {@code bw} the highest (minmin) or lowest (minmax) bandwidth of a link into {@code d} from a location holding
 * the array, and take the device of least time among those with {@code present[d] / total > threshold} (ties:
 * lowest index); if no device holds any array, or none enough, round-robin. These are GrCUDA's rules.
 *
 * <p>Restricted to some devices ({@link #choose(long[], long[], long[], long)}, for {@code multigpu-disjoint}),
 * each policy chooses as above among them only, and round-robin takes, of those devices in index order, the one at
 * the counter modulo their number, then advances the counter over all devices; {@code single-gpu} still takes the
 * current device. These are GrCUDA's {@code retrieve(vertex, devices)}.
 */
final class DevicePlacement {
    private final MultiDeviceConfig config;
    private final int devices;
    private int next;
    /** The device {@link DeviceSelectionPolicy#SINGLE_GPU} places everything on. */
    private int current;

    DevicePlacement(MultiDeviceConfig config, int devices) {
        if (devices < 1 || devices > 63) {
            throw new IllegalArgumentException("a scheduler runs on 1 to 63 devices, got " + devices);
        }
        config.checkFor(devices);
        this.config = config;
        this.devices = devices;
    }

    /** Makes {@code device} the current one (what {@code single-gpu} places everything on). */
    void setCurrent(int device) {
        if (device < 0 || device >= devices) {
            throw new IllegalArgumentException("there is no device " + device + "; devices are 0 to " + (devices - 1));
        }
        current = device;
    }

    int current() {
        return current;
    }

    /** The bit of the host among the locations. */
    long hostBit() {
        return 1L << devices;
    }

    /**
     * The device for an element touching arrays of {@code bytes[i]} bytes held up to date at the locations of
     * {@code valid[i]}, with {@code outstanding[d]} elements placed on device {@code d} and not complete.
     */
    int choose(long[] bytes, long[] valid, long[] outstanding) {
        return choose(bytes, valid, outstanding, (1L << devices) - 1);
    }

    /** As {@link #choose(long[], long[], long[])}, among the devices of {@code allowed} (a bit each, not none). */
    int choose(long[] bytes, long[] valid, long[] outstanding, long allowed) {
        if (allowed == 0 || (allowed >>> devices) != 0) {
            throw new IllegalArgumentException("devices to choose from must be some of 0 to " + (devices - 1)
                    + ", got bits " + Long.toBinaryString(allowed));
        }
        return switch (config.policy()) {
            case SINGLE_GPU -> current;
            case ROUND_ROBIN -> roundRobin(allowed);
            case STREAM_AWARE -> leastLoaded(outstanding, allowed);
            case MIN_TRANSFER_SIZE -> mostData(bytes, valid, allowed);
            case MINMIN_TRANSFER_TIME -> leastTransferTime(bytes, valid, true, allowed);
            case MINMAX_TRANSFER_TIME -> leastTransferTime(bytes, valid, false, allowed);
        };
    }

    private static boolean in(long allowed, int d) {
        return (allowed & (1L << d)) != 0;
    }

    private int roundRobin(long allowed) {
        int skip = next % Long.bitCount(allowed);
        next = (next + 1) % devices;
        long rest = allowed;
        for (int i = 0; i < skip; i++) {
            rest &= rest - 1;
        }
        return Long.numberOfTrailingZeros(rest);
    }

    private int leastLoaded(long[] outstanding, long allowed) {
        int best = -1;
        for (int d = 0; d < devices; d++) {
            if (in(allowed, d) && (best < 0 || outstanding[d] < outstanding[best])) {
                best = d;
            }
        }
        return best;
    }

    private long[] present(long[] bytes, long[] valid) {
        long[] present = new long[devices];
        for (int i = 0; i < bytes.length; i++) {
            for (int d = 0; d < devices; d++) {
                if ((valid[i] & (1L << d)) != 0) {
                    present[d] += bytes[i];
                }
            }
        }
        return present;
    }

    private static long total(long[] bytes) {
        long total = 0;
        for (long b : bytes) {
            total += b;
        }
        return total;
    }

    private boolean enough(long present, long total) {
        // As GrCUDA: strictly more than the threshold; no arrays (total 0) is never enough.
        return total > 0 && (double) present / total > config.dataThreshold();
    }

    private int mostData(long[] bytes, long[] valid, long allowed) {
        long[] present = present(bytes, valid);
        long total = total(bytes);
        int best = -1;
        for (int d = 0; d < devices; d++) {
            if (in(allowed, d) && enough(present[d], total) && (best < 0 || present[d] > present[best])) {
                best = d;
            }
        }
        return best >= 0 ? best : roundRobin(allowed);
    }

    private int leastTransferTime(long[] bytes, long[] valid, boolean fastestSource, long allowed) {
        long[] present = present(bytes, valid);
        long total = total(bytes);
        int best = -1;
        double bestTime = 0;
        for (int d = 0; d < devices; d++) {
            if (!in(allowed, d) || !enough(present[d], total)) {
                continue;
            }
            double time = transferTime(bytes, valid, d, fastestSource);
            if (best < 0 || time < bestTime) {
                best = d;
                bestTime = time;
            }
        }
        return best >= 0 ? best : roundRobin(allowed);
    }

    /** Seconds to bring every array not on device {@code d} there (GB/s in the matrix; the unit cancels out). */
    double transferTime(long[] bytes, long[] valid, int d, boolean fastestSource) {
        double time = 0;
        for (int i = 0; i < bytes.length; i++) {
            if ((valid[i] & (1L << d)) != 0) {
                continue;
            }
            double bw = fastestSource ? 0 : Double.POSITIVE_INFINITY;
            for (int from = 0; from <= devices; from++) {
                if ((valid[i] & (1L << from)) != 0) {
                    double link = config.link(from, d);
                    bw = fastestSource ? Math.max(bw, link) : Math.min(bw, link);
                }
            }
            time += bytes[i] / (bw * 1e9);
        }
        return time;
    }

    /** The location to copy an array held at {@code valid} from, to location {@code to}: the fastest link, ties lowest. */
    int source(long valid, int to) {
        int best = -1;
        for (int from = 0; from <= devices; from++) {
            if ((valid & (1L << from)) != 0 && (best < 0 || config.link(from, to) > config.link(best, to))) {
                best = from;
            }
        }
        if (best < 0) {
            throw new IllegalStateException("an array is up to date nowhere");
        }
        return best;
    }
}
