package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import dev.polygpu.device.Event;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * Measures the link bandwidths of several devices and the host, for {@link MultiDeviceConfig#bandwidth()} where no
 * bandwidth file is given: host to device, device to host and device to device, every ordered pair, each by timing
 * {@link Stream#copy} with the devices' own events. Each copy runs where the scheduler runs that transfer
 * ({@code Coherence}): on a stream of the destination device, or for a copy to the host, of the source; the host's
 * memory is what the caller allocates for it (where the arrays' own buffers live), so the figures are those of the
 * scheduler's transfers.
 *
 * <p>The whole measurement aims at a time budget ({@link #DEFAULT_BUDGET}): each link in turn gets an equal share
 * of it, or of what is left of it if that is more (the warm-up below included). Per
 * link, copies start at {@link #FIRST_COPY_BYTES} and grow (at most {@link #MAX_COPY_BYTES}) until one takes a
 * quarter of the link's share at the best rate seen, so that the fixed cost of a copy (the link's latency, the
 * stream's overhead) is small beside it; more copies of that size follow while the share lasts, and the fastest
 * counts, since a copy can only be slowed (by memory touched for the first time, or a busy machine), never sped up.
 * A link gets two copies at least, whatever its share; before all, one small copy of each kind per device warms the
 * streams up, uncounted. With a share of some
 * tens of milliseconds (two or three devices) the fixed cost is under 1% of the copy; with many devices each share
 * is smaller and the figures rougher; a link whose latency exceeds its share gets one copy, which may take longer.
 *
 * <p>Not thread-safe: one measurement at a time per probe. It uses the devices while it runs: measure before work
 * is submitted to them, or the figures include the wait for it.
 */
public final class BandwidthProbe {
    /** The time the whole measurement aims at. */
    public static final Duration DEFAULT_BUDGET = Duration.ofMillis(250);
    /** The first copy of each link (one page). */
    public static final long FIRST_COPY_BYTES = 4096;
    /** The largest copy: at 50 GB/s it takes 1.3 ms, where a GPU's per-copy overhead of some microseconds is small. */
    public static final long MAX_COPY_BYTES = 64L << 20;

    /** Told after each link measured, on the measuring thread: for a progress line. */
    @FunctionalInterface
    public interface Progress {
        /** {@code done} links of {@code total} are measured, {@code elapsedNanos} after the start. */
        void measured(int done, int total, long elapsedNanos);
    }

    private final List<Device> devices;
    private final LongFunction<UnifiedBuffer> hostMemory;
    private Duration budget = DEFAULT_BUDGET;
    private Progress progress = (done, total, nanos) -> {
    };

    /**
     * A probe of {@code devices} and the host, whose memory {@code hostMemory} allocates (a buffer of the given size
     * where the host's copies of arrays live).
     */
    public BandwidthProbe(List<Device> devices, LongFunction<UnifiedBuffer> hostMemory) {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("a bandwidth measurement needs at least one device");
        }
        this.devices = List.copyOf(devices);
        this.hostMemory = Objects.requireNonNull(hostMemory, "hostMemory");
    }

    /** Sets the time the whole measurement aims at; positive. */
    public BandwidthProbe budget(Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("the measurement's time budget must be positive, got " + d);
        }
        this.budget = d;
        return this;
    }

    public BandwidthProbe progress(Progress p) {
        this.progress = Objects.requireNonNull(p, "progress");
        return this;
    }

    public List<Device> devices() {
        return devices;
    }

    /** How many links a measurement times: every ordered pair of distinct locations. */
    public int links() {
        int n = devices.size();
        return n * (n + 1);
    }

    /** Measures every link; a device failure is thrown as it is, after the buffers, events and streams are freed. */
    public BandwidthMeasurement measure() {
        long start = System.nanoTime();
        int n = devices.size();
        double[][] gbps = new double[n + 1][n + 1];
        long[][] bytes = new long[n + 1][n + 1];
        double[][] millis = new double[n + 1][n + 1];
        try (Copies copies = new Copies(devices, hostMemory)) {
            warmUp(copies, n);
            int done = 0;
            for (int from = 0; from <= n; from++) {
                for (int to = 0; to <= n; to++) {
                    if (from == to) {
                        continue;
                    }
                    // An equal share of the budget, or of what is left of it when earlier links left time unused;
                    // never less, so that links measured after one that overran are not starved.
                    long left = budget.toNanos() - (System.nanoTime() - start);
                    long share = Math.max(budget.toNanos() / links(), left / (links() - done));
                    long[] size = {0};
                    double ms = measureLink(copies, from, to, share, size);
                    bytes[from][to] = size[0];
                    millis[from][to] = ms;
                    gbps[from][to] = size[0] / (ms * 1e6);
                    progress.measured(++done, links(), System.nanoTime() - start);
                }
            }
        }
        return new BandwidthMeasurement(gbps, bytes, millis, System.nanoTime() - start);
    }

    /**
     * One small copy of each kind on each device's stream, not counted: the first use of a stream, and of each copy
     * path, pays for starting threads and loading code, which would otherwise land in the first links' figures.
     */
    private static void warmUp(Copies copies, int n) {
        for (int d = 0; d < n; d++) {
            copies.time(n, d, FIRST_COPY_BYTES);
            copies.time(d, n, FIRST_COPY_BYTES);
            if (n > 1) {
                copies.time((d + 1) % n, d, FIRST_COPY_BYTES);
            }
        }
    }

    /**
     * Times copies from {@code from} to {@code to} of growing size within {@code shareNanos}; returns the
     * milliseconds of the fastest copy of the final size, which it leaves in {@code size[0]}.
     */
    private static double measureLink(Copies copies, int from, int to, long shareNanos, long[] size) {
        long start = System.nanoTime();
        double aim = shareNanos / 4e6;
        long bytes = FIRST_COPY_BYTES;
        long previousBytes = 0;
        double previousMs = 0;
        double bestRate = 0;
        double ms;
        while (true) {
            ms = copies.time(from, to, bytes);
            bestRate = Math.max(bestRate, bytes / Math.max(ms, MIN_MILLIS));
            // What this size takes at the best rate seen: a copy slowed by a busy machine (a stream's wake-up late
            // by milliseconds) does not end the growth when an earlier, faster copy shows it should not.
            double expected = bytes / bestRate;
            // Time that grew with the size (half as much at least) says the copies are past their fixed cost (or a
            // stall of the same length in each, which a copy of one size alone cannot tell from a slow link).
            boolean grew = previousBytes > 0 && ms >= previousMs * bytes / previousBytes / 2;
            long spent = System.nanoTime() - start;
            if (bytes == MAX_COPY_BYTES || (grew && expected >= aim) || (previousBytes > 0 && spent >= 2 * shareNanos)) {
                break;
            }
            // Copies whose time did not grow with their size are mostly fixed cost, and the rate seen understates
            // the link: grow by 8 at least then, to get past it in few steps.
            double least = grew ? 2.0 : 8.0;
            previousBytes = bytes;
            previousMs = ms;
            bytes = Math.min(MAX_COPY_BYTES, pages((long) (bytes * Math.clamp(aim / expected, least, 64.0))));
        }
        // More copies of the final size while the share lasts: the fastest counts.
        for (double last = ms; System.nanoTime() - start + last * 1e6 <= shareNanos; ) {
            last = copies.time(from, to, bytes);
            ms = Math.min(ms, last);
        }
        size[0] = bytes;
        return Math.max(ms, MIN_MILLIS);
    }

    /** The least time a copy counts as taking: no clock reads a copy as free, but a bandwidth must be finite. */
    private static final double MIN_MILLIS = 1e-6;

    private static long pages(long bytes) {
        return (bytes + FIRST_COPY_BYTES - 1) / FIRST_COPY_BYTES * FIRST_COPY_BYTES;
    }

    /**
     * The buffers (one per location, grown as copies grow), and per device a stream and two timing events, of one
     * measurement; closing frees them all.
     */
    private static final class Copies implements AutoCloseable {
        private final List<Device> devices;
        private final LongFunction<UnifiedBuffer> hostMemory;
        private final UnifiedBuffer[] buffers;
        private final Stream[] streams;
        private final Event[] starts;
        private final Event[] ends;

        Copies(List<Device> devices, LongFunction<UnifiedBuffer> hostMemory) {
            this.devices = devices;
            this.hostMemory = hostMemory;
            int n = devices.size();
            buffers = new UnifiedBuffer[n + 1];
            streams = new Stream[n];
            starts = new Event[n];
            ends = new Event[n];
            try {
                for (int d = 0; d < n; d++) {
                    streams[d] = devices.get(d).createStream();
                    starts[d] = devices.get(d).createEvent(true);
                    ends[d] = devices.get(d).createEvent(true);
                }
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        /** Milliseconds one copy of {@code bytes} from {@code from} to {@code to} takes, on the device's events. */
        double time(int from, int to, long bytes) {
            UnifiedBuffer src = buffer(from, bytes);
            UnifiedBuffer dst = buffer(to, bytes);
            int d = to == devices.size() ? from : to;
            Stream s = streams[d];
            s.record(starts[d]);
            s.copy(dst, 0, src, 0, bytes);
            s.record(ends[d]);
            s.synchronize();
            return ends[d].elapsedMillisSince(starts[d]);
        }

        private UnifiedBuffer buffer(int location, long bytes) {
            UnifiedBuffer b = buffers[location];
            if (b == null || b.byteSize() < bytes) {
                if (b != null) {
                    buffers[location] = null;
                    b.free();
                }
                b = location == devices.size() ? hostMemory.apply(bytes) : devices.get(location).allocate(bytes);
                buffers[location] = b;
            }
            return b;
        }

        /** Frees what was made; the first failure is thrown after the rest is freed. */
        @Override
        public void close() {
            RuntimeException first = null;
            for (AutoCloseable c : closeables()) {
                try {
                    c.close();
                } catch (Exception e) {
                    if (first == null) {
                        first = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }

        private List<AutoCloseable> closeables() {
            List<AutoCloseable> all = new java.util.ArrayList<>();
            for (AutoCloseable[] group : new AutoCloseable[][] {buffers, starts, ends, streams}) {
                for (AutoCloseable c : group) {
                    if (c != null) {
                        all.add(c);
                    }
                }
            }
            return all;
        }
    }
}
