/**
 * Kernels and devices of the grcuda language: signatures ({@link dev.polygpu.grcuda.kernel.NidlSignature}),
 * {@code buildkernel} ({@link dev.polygpu.grcuda.kernel.KernelBuilder}), the kernel interop objects, argument
 * conversion, and the one launch path ({@link dev.polygpu.grcuda.kernel.KernelLauncher}) where the scheduler
 * will slot in. Owns no memory: pointers come from {@link dev.polygpu.grcuda.objects.GrDeviceMemory}, which the
 * array package implements. Talks to the device only through the {@code dev.polygpu.device} SPI. Internal to
 * the language; no compatibility promised to other modules.
 */
package dev.polygpu.grcuda.kernel;
