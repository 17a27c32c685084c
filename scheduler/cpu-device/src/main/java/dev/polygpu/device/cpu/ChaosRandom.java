package dev.polygpu.device.cpu;

import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The random choices of chaos mode made by one thread: a stream's dispatcher (pauses before operations, the
 * chunk order of its launches) or a worker (pauses between chunks). Each is seeded from the device's
 * {@link Chaos#seed()} and the owner's role and number, so the choices of one owner do not depend on the others.
 *
 * <p>Implementation notes: not thread-safe; each instance is used only by the thread that owns it (it is
 * created before that thread starts, which publishes it).
 */
final class ChaosRandom {
    private static final long STREAM_SALT = 0x5354_5245_414DL;
    private static final long WORKER_SALT = 0x574F_524BL;

    private final SplittableRandom random;
    private final long maxDelayNanos;

    private ChaosRandom(Chaos chaos, long salt, long index) {
        this.random = new SplittableRandom(mix(mix(chaos.seed() ^ salt) + index));
        this.maxDelayNanos = chaos.maxDelayMicros() * 1_000;
    }

    /** The choices of stream {@code streamId}'s dispatcher. */
    static ChaosRandom forStream(Chaos chaos, int streamId) {
        return new ChaosRandom(chaos, STREAM_SALT, streamId);
    }

    /** The choices of worker {@code index} of the pool. */
    static ChaosRandom forWorker(Chaos chaos, int index) {
        return new ChaosRandom(chaos, WORKER_SALT, index);
    }

    /** Pauses the calling thread for a random time up to the maximum delay (none when it is 0). */
    void pause() {
        pauseUpTo(maxDelayNanos);
    }

    /** With probability 1/4, pauses for up to 1/16 of the maximum delay or, when that is 0, yields. */
    void maybeBriefPause() {
        if (random.nextInt(4) != 0) {
            return;
        }
        if (maxDelayNanos >= 16) {
            pauseUpTo(maxDelayNanos / 16);
        } else {
            Thread.yield();
        }
    }

    /** A uniformly random number in {@code [0, bound)}; {@code bound} must be positive. */
    long nextLong(long bound) {
        return random.nextLong(bound);
    }

    private void pauseUpTo(long maxNanos) {
        if (maxNanos <= 0) {
            return;
        }
        long nanos = random.nextLong(maxNanos + 1);
        long deadline = System.nanoTime() + nanos;
        // parkNanos may return early (spuriously or on an unpark): park again for the rest. An interrupt ends
        // the pause, as parking would no longer wait; the flag stays set for the owner to see.
        for (long left = nanos; left > 0 && !Thread.currentThread().isInterrupted();
                left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** The splitmix64 finalizer: spreads nearby seeds over the whole range. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
