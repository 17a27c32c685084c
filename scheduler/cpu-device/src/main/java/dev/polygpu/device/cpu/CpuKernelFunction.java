package dev.polygpu.device.cpu;

import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.Module;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import java.util.List;

/** A kernel of a {@link CpuModule}: the kernel engine's {@link CompiledKernel} under the SPI. Immutable. */
final class CpuKernelFunction implements KernelFunction {
    private final CpuModule module;
    private final CompiledKernel kernel;

    CpuKernelFunction(CpuModule module, CompiledKernel kernel) {
        this.module = module;
        this.kernel = kernel;
    }

    @Override
    public String name() {
        return kernel.name();
    }

    @Override
    public Module module() {
        return module;
    }

    @Override
    public List<KernelParam> parameters() {
        return kernel.parameters();
    }

    @Override
    public List<ImageParam> imageParameters() {
        return kernel.imageParameters();
    }

    @Override
    public int staticSharedBytes() {
        return kernel.staticSharedBytes();
    }

    CompiledKernel compiled() {
        return kernel;
    }

    /** Throws INVALID_HANDLE once the module was closed. */
    void ensureUsable() {
        module.ensureOpen();
    }

    @Override
    public String toString() {
        return "kernel '" + name() + "'";
    }
}
