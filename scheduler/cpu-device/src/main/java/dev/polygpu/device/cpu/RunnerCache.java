package dev.polygpu.device.cpu;

import dev.polygpu.device.cpu.kernel.BlockRunner;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@link BlockRunner}s of one worker thread, one per kernel, least recently used first. The cache is
 * bounded so that compiling many kernels does not pin their runners (and their shared-memory scratch) for
 * the life of the pool; an evicted runner is simply created again. A bound rather than weak keys, because a
 * runner may well hold its kernel strongly, which would keep a weak key alive forever.
 *
 * <p>Not thread-safe: owned by one {@link WorkerThread}.
 */
final class RunnerCache {
    /** Runners kept per worker thread. */
    static final int DEFAULT_CAPACITY = 32;

    private final Map<CompiledKernel, BlockRunner> runners;
    private int created;

    RunnerCache(int capacity) {
        this.runners = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<CompiledKernel, BlockRunner> eldest) {
                return size() > capacity;
            }
        };
    }

    /** This thread's runner for {@code kernel}, created on first use. */
    BlockRunner runner(CompiledKernel kernel) {
        BlockRunner r = runners.get(kernel);
        if (r == null) {
            r = kernel.newRunner();
            created++;
            runners.put(kernel, r);
        }
        return r;
    }

    int size() {
        return runners.size();
    }

    /** Runners created so far (for tests of the bound). */
    int created() {
        return created;
    }
}
