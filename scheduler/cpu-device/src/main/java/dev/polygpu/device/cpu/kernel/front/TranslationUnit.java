package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.GlobalVariable;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A compiled CUDA C source: its kernels, analyzed on demand (template instantiations) and cached.
 * Thread-safe.
 */
public final class TranslationUnit {
    private final Program program;
    private final List<String> kernelNames;
    private final List<GlobalVariable> globals;
    private final Map<String, Function> byName = new ConcurrentHashMap<>();

    TranslationUnit(Program program) {
        this.program = program;
        this.kernelNames = List.copyOf(program.kernelNames());
        this.globals = program.globals();
    }

    /**
     * The file-scope {@code __device__} and {@code __constant__} variables, in source order: what a module
     * allocates once, and what every kernel of it (template instantiations included) refers to.
     */
    public List<GlobalVariable> globals() {
        return globals;
    }

    /** Kernel (__global__) names: plain ones as written, templates as "name<…>" (literally with the … character). */
    public List<String> kernelNames() {
        return kernelNames;
    }

    /**
     * The analyzed kernel. name: "saxpy", or a template instantiation "k<float>", "reduce<256>",
     * "k<double, 128>" (whitespace-insensitive). Calls inside refer to analyzed __device__ functions.
     *
     * @throws dev.polygpu.device.DeviceException with {@code CudaError.NOT_FOUND} (listing
     *         {@link #kernelNames()}) if there is no such kernel
     * @throws dev.polygpu.device.CompileException if a template instantiation does not analyze
     */
    public Function kernel(String name) {
        Function f = byName.get(name);
        if (f != null) {
            return f;
        }
        synchronized (program) {
            f = program.kernel(name);
        }
        byName.put(name, f);
        return f;
    }
}
