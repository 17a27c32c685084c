package dev.polygpu.device.cpu;

/**
 * A thread of the CPU device's {@link WorkerPool}; it owns its {@link RunnerCache} and, in chaos mode, its
 * {@link ChaosRandom}.
 */
final class WorkerThread extends Thread {
    private final RunnerCache runners = new RunnerCache(RunnerCache.DEFAULT_CAPACITY);
    private final ChaosRandom chaos;

    /** {@code chaos} is null unless the device is in chaos mode. */
    WorkerThread(Runnable task, String name, ChaosRandom chaos) {
        super(task, name);
        this.chaos = chaos;
        setDaemon(true);
    }

    /** The runner cache of the calling thread, which must be a worker thread. */
    static RunnerCache currentRunners() {
        return ((WorkerThread) Thread.currentThread()).runners;
    }

    /** The chaos choices of the calling thread, which must be a worker thread; null unless in chaos mode. */
    static ChaosRandom currentChaos() {
        return ((WorkerThread) Thread.currentThread()).chaos;
    }
}
