package dev.polygpu.cluster;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A transport that loses and delays outgoing messages as {@link FaultInjection} says, for testing that the
 * steal protocol survives both. Delayed messages may overtake each other, as on a real network.
 */
final class FaultyTransport implements Transport {
    private final Transport inner;
    private final FaultInjection faults;
    private final SplittableRandom random;
    private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "polygpu-cluster-faults");
        t.setDaemon(true);
        return t;
    });
    private long dropped;

    FaultyTransport(Transport inner, FaultInjection faults) {
        this.inner = inner;
        this.faults = faults;
        this.random = faults.random(inner.self());
    }

    @Override
    public String self() {
        return inner.self();
    }

    @Override
    public List<Peer> peers() {
        return inner.peers();
    }

    @Override
    public List<String> members() {
        return inner.members();
    }

    @Override
    public boolean send(String member, byte[] frame) {
        long delay;
        synchronized (this) {
            if (random.nextDouble() < faults.drop()) {
                dropped++;
                return true;
            }
            delay = faults.maxDelayMillis() == 0 ? 0 : random.nextLong(faults.maxDelayMillis() + 1);
        }
        if (delay == 0) {
            return inner.send(member, frame);
        }
        delays.schedule(() -> inner.send(member, frame), delay, TimeUnit.MILLISECONDS);
        return true;
    }

    Transport inner() {
        return inner;
    }

    /** Messages lost on purpose so far. */
    synchronized long dropped() {
        return dropped;
    }

    @Override
    public void close() {
        delays.shutdownNow();
        inner.close();
    }

    void kill() {
        delays.shutdownNow();
        if (inner instanceof HazelcastTransport h) {
            h.kill();
        } else {
            inner.close();
        }
    }
}
