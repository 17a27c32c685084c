package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;

/**
 * Entry point of the kernel engine (CUDA C to JVM bytecode). Placeholder until the engine is merged: it
 * reports that no engine is available, so the CPU device can be built and tested with a fake compiler.
 */
public final class KernelEngine {

    private KernelEngine() {
    }

    /** Compiles {@code source} ({@code fileName} names it in diagnostics) into a module. */
    public static CompiledModule compile(String source, String fileName) {
        throw new DeviceException(CudaError.NOT_SUPPORTED, "kernel engine not available");
    }
}
