package dev.polygpu.device.cpu.kernel;

import java.util.List;

/** The result of compiling one CUDA C source with the kernel engine; kernels are compiled on first lookup. */
public interface CompiledModule {

    /** Kernel names: plain and {@code extern "C"} kernels, and templates as {@code name<…>}. */
    List<String> kernelNames();

    /**
     * The kernel called {@code name} ({@code saxpy}, {@code k<float>}, {@code reduce<256>}), compiled once and
     * cached. Throws {@code DeviceException} NOT_FOUND (listing {@link #kernelNames()}) or {@code CompileException}
     * (for a template whose instantiation does not compile).
     */
    CompiledKernel kernel(String name);

    /**
     * The module was closed: frees what it holds for its kernels (the memory of its {@code __device__} and
     * {@code __constant__} variables) once no queued launch uses it. Never waits. Nothing to free by default.
     */
    default void release() {
    }
}
