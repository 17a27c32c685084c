package dev.polygpu.device;

import java.util.List;

/**
 * Turns CUDA C into the PTX a CUDA compiler makes of it, for a device that runs kernels its own way but shows
 * programs their PTX (the CPU device's {@link Module#intermediateCode()}, GrCUDA's {@code kernel.ptx}). The CUDA
 * device's compiler is one; a device gets it from whoever creates it, so that devices do not depend on each other.
 */
@FunctionalInterface
public interface PtxTranslator {
    /**
     * The PTX of {@code source} for the lowest architecture the compiler targets at or above compute capability
     * {@code ccMajor.ccMinor}; null when there is no compiler.
     *
     * @param fileName the name diagnostics give the source
     * @param nameExpressions kernel names to instantiate ({@code k<float>}); may be empty
     * @throws CompileException when the compiler refuses the source
     * @throws DeviceException when the compiler fails for another reason
     */
    String translate(String source, String fileName, int ccMajor, int ccMinor, List<String> nameExpressions);
}
