package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Module;
import dev.polygpu.device.PtxTranslator;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.CompiledModule;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A module of the CPU device: a {@link CompiledModule} of the kernel engine or a loaded PTX module, with its
 * functions looked up once. The intermediate code of a module compiled from CUDA C is the PTX the device's
 * {@link PtxTranslator} makes of the source, asked for on first use and kept (the kernels still run on the
 * engine); without a translator, or one without a compiler, it is null.
 *
 * <p>Implementation notes: {@link #functions} is a concurrent map, so lookups from several threads are safe
 * and each name is resolved once (the engine compiles a kernel on first lookup). Closing forbids new
 * lookups and launches; launches already queued keep their kernel and run, and the memory of the module's
 * {@code __device__}/{@code __constant__} variables is freed once they have (each launch pins it).
 */
final class CpuModule implements Module {
    private final CpuDevice device;
    private final CompiledModule compiled;
    private final String fileName;
    /** The PTX text of a loaded PTX module; for one compiled from CUDA C, once translated. */
    private String intermediateCode;
    /** The CUDA C source of a module compiled from it, null for a loaded one. */
    private final String source;
    /** The kernel names {@link #intermediateCode} was translated with. */
    private List<String> translatedNames = List.of();
    private final ConcurrentMap<String, CpuKernelFunction> functions = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private CpuModule(CpuDevice device, CompiledModule compiled, String fileName, String intermediateCode,
            String source) {
        this.device = device;
        this.compiled = compiled;
        this.fileName = fileName;
        this.intermediateCode = intermediateCode;
        this.source = source;
    }

    /** A module the engine compiled from {@code source}. */
    static CpuModule compiled(CpuDevice device, CompiledModule compiled, String fileName, String source) {
        return new CpuModule(device, compiled, fileName, null, source);
    }

    /** A module of loaded PTX text. */
    static CpuModule loaded(CpuDevice device, CompiledModule compiled, String fileName, String ptx) {
        return new CpuModule(device, compiled, fileName, ptx, null);
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public KernelFunction function(String name) {
        ensureOpen();
        if (name == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel name is null");
        }
        // NOT_FOUND and CompileException from the engine pass through; nothing is cached for them.
        return functions.computeIfAbsent(name, n -> {
            CompiledKernel k = compiled.kernel(n);
            if (k == null) {
                throw new DeviceException(CudaError.NOT_FOUND, "module '" + fileName + "' has no kernel '" + n
                        + "'; it has " + compiled.kernelNames());
            }
            return new CpuKernelFunction(this, k);
        });
    }

    /**
     * The loaded PTX, or the PTX of the source: translated on the first call, and again only when a template
     * kernel has been looked up since (its instantiation is part of the PTX).
     */
    @Override
    public synchronized String intermediateCode() {
        if (source == null) {
            return intermediateCode;
        }
        PtxTranslator translator = device.ptxTranslator();
        if (translator == null) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (String n : functions.keySet()) {
            if (n.indexOf('<') >= 0) {
                names.add(n);
            }
        }
        names.sort(null);
        if (intermediateCode == null || !names.equals(translatedNames)) {
            var p = device.properties();
            intermediateCode = translator.translate(source, fileName, p.computeCapabilityMajor(),
                    p.computeCapabilityMinor(), names);
            translatedNames = List.copyOf(names);
        }
        return intermediateCode;
    }

    void ensureOpen() {
        if (closed) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "module '" + fileName + "' was closed");
        }
    }

    @Override
    public void close() {
        closed = true;
        compiled.release();
    }

    @Override
    public String toString() {
        return "cpu module '" + fileName + "'";
    }
}
