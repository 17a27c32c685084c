package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Module;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.CompiledModule;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A module of the CPU device: a {@link CompiledModule} of the kernel engine or a loaded PTX module, with its
 * functions looked up once.
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
    /** The PTX text of a loaded PTX module; null for one compiled from CUDA C. */
    private final String intermediateCode;
    private final ConcurrentMap<String, CpuKernelFunction> functions = new ConcurrentHashMap<>();
    private volatile boolean closed;

    CpuModule(CpuDevice device, CompiledModule compiled, String fileName) {
        this(device, compiled, fileName, null);
    }

    CpuModule(CpuDevice device, CompiledModule compiled, String fileName, String intermediateCode) {
        this.device = device;
        this.compiled = compiled;
        this.fileName = fileName;
        this.intermediateCode = intermediateCode;
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

    @Override
    public String intermediateCode() {
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
