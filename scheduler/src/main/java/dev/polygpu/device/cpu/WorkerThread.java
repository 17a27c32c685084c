package dev.polygpu.device.cpu;

/** A thread of the CPU device's {@link WorkerPool}; it owns its {@link RunnerCache}. */
final class WorkerThread extends Thread {
    private final RunnerCache runners = new RunnerCache(RunnerCache.DEFAULT_CAPACITY);

    WorkerThread(Runnable task, String name) {
        super(task, name);
        setDaemon(true);
    }

    /** The runner cache of the calling thread, which must be a worker thread. */
    static RunnerCache currentRunners() {
        return ((WorkerThread) Thread.currentThread()).runners;
    }
}
