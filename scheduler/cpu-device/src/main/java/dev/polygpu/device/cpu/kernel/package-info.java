/**
 * The kernel engine: CUDA C source in, kernels that run on the CPU device out
 * ({@link dev.polygpu.device.cpu.kernel.KernelEngine#compile}). It runs three stages, one sub-package each:
 * {@code front} (preprocessor, parser, semantic analysis into the typed AST of {@code ast}), {@code codegen}
 * (each kernel becomes a hidden JVM class) and {@code exec} (the runtime the generated code calls; {@code rt}
 * holds CUDA's math library and atomics). This package holds what the CPU device sees of a compiled module:
 * {@link dev.polygpu.device.cpu.kernel.CompiledModule}, kernels, block runners, launch frames, kernel faults and
 * printf output. Used by the CPU device only; no compatibility promised outside the scheduler module.
 */
package dev.polygpu.device.cpu.kernel;
