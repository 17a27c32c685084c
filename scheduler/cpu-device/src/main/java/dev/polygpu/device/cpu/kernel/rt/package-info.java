/**
 * Runtime support called by the JVM bytecode that the CPU kernel engine generates from CUDA C:
 * {@link dev.polygpu.device.cpu.kernel.rt.CudaMath} (device math library and integer intrinsics) and
 * {@link dev.polygpu.device.cpu.kernel.rt.Atomics} (atomic functions on memory segments).
 *
 * <p>Internal to the kernel engine, no compatibility promised to other callers; but the code generator
 * binds to the exact method names and descriptors here, so renaming or retyping a public method is a
 * change to the generator's contract too. Depends on nothing outside the JDK.
 */
package dev.polygpu.device.cpu.kernel.rt;
