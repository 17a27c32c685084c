package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;

/** Kernel sources written with {@code NAME} for the kernel's name, as the code generator's oracle tests keep them. */
final class NamedKernels {
    private NamedKernels() {
    }

    /** {@code source} with its kernel called {@code name}. */
    static String named(String source, String name) {
        return source.replace("NAME", name);
    }

    /** {@code source}'s kernel, called {@code name}, compiled by the code generator alone. */
    static CompiledKernel compile(String source, String name) {
        return KernelCompiler.compile(FrontEnd.compile(named(source, name), "t.cu").kernel(name));
    }
}
