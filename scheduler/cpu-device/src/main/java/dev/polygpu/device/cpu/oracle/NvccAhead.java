package dev.polygpu.device.cpu.oracle;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * nvcc runs started ahead of need: while the oracle runs one batch of cases, the next batch's sources can be
 * compiled in a background thread ({@link #ahead}), so that the nvcc process and the cases' runs use different
 * cores. {@link #compile} answers from a run started ahead for the same source and file name, and runs nvcc
 * itself otherwise. At most {@link #MAX_AHEAD} runs are kept; a source that is never asked for is dropped when
 * newer ones come.
 *
 * <p>Thread-safety: {@link #ahead} and {@link #compile} may be called from different threads; the runs ahead
 * happen on one daemon thread of this object.
 */
final class NvccAhead implements PtxBatches.Compiler, AutoCloseable {
    /** How many runs ahead are kept (a batch the caller skipped must not hold memory forever). */
    static final int MAX_AHEAD = 8;

    private record Key(String source, String fileName) {
    }

    private final PtxBatches.Compiler nvcc;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "polygpu-oracle-nvcc-ahead");
        t.setDaemon(true);
        return t;
    });
    private final Map<Key, Future<Nvcc.Output>> started = new LinkedHashMap<>();

    NvccAhead(PtxBatches.Compiler nvcc) {
        this.nvcc = nvcc;
    }

    /** Starts compiling {@code source} as {@code fileName} in the background, unless it already is. */
    synchronized void ahead(String source, String fileName) {
        Key k = new Key(source, fileName);
        if (started.containsKey(k)) {
            return;
        }
        if (started.size() >= MAX_AHEAD) {
            Key oldest = started.keySet().iterator().next();
            started.remove(oldest).cancel(true);
        }
        started.put(k, worker.submit(() -> nvcc.compile(source, fileName)));
    }

    @Override
    public Nvcc.Output compile(String source, String fileName) {
        Future<Nvcc.Output> f;
        synchronized (this) {
            f = started.remove(new Key(source, fileName));
        }
        if (f == null) {
            return nvcc.compile(source, fileName);
        }
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("nvcc run ahead failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for nvcc", e);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            started.values().forEach(f -> f.cancel(true));
            started.clear();
        }
        worker.shutdownNow();
    }
}
