package dev.polygpu.device.cpu.oracle;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Module;
import java.util.HashMap;
import java.util.Map;

/**
 * The CUDA C engine's side of one check: one module per distinct source, compiled on first use (the engine
 * compiles every kernel of a source at once, so cases that share a file share that work), and each case's
 * kernel looked up in it. A source that does not compile fails every case that has it, with the same error.
 * As on the PTX side, where cases with the same source share one module of nvcc's output, the module's
 * {@code __device__} variables carry over from one such case to the next.
 *
 * <p>Thread-safety: the side threads call {@link #function} one case after another; it is synchronized so that
 * a thread that gave up waiting for a hung case cannot race the next.
 */
final class EngineModules {
    /** A source's module, or what compiling it threw. */
    private record Build(Module module, RuntimeException failure) {
    }

    private final Device device;
    private final Map<String, Build> builds = new HashMap<>();

    EngineModules(Device device) {
        this.device = device;
    }

    /** The kernel of {@code c}, compiling its source if no earlier case had it; throws as the compiler does. */
    synchronized KernelFunction function(OracleCase c) {
        Build b = builds.get(c.source());
        if (b == null) {
            try {
                b = new Build(device.compile(c.source(), PtxBatches.fileName(c.name())), null);
            } catch (RuntimeException e) {
                b = new Build(null, e);
            }
            builds.put(c.source(), b);
        }
        if (b.failure() != null) {
            throw b.failure();
        }
        return b.module().function(c.kernel());
    }

    /** Closes the modules (each frees its memory once its launches have run). */
    synchronized void close() {
        for (Build b : builds.values()) {
            if (b.module() != null) {
                b.module().close();
            }
        }
        builds.clear();
    }
}
