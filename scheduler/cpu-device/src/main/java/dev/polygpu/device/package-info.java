/**
 * The device SPI, mirroring the CUDA driver API so that the CPU device ({@code device.cpu}) and the CUDA device
 * ({@code device.cuda}) implement it without translation: {@link dev.polygpu.device.Device}, streams, events,
 * unified buffers, modules and kernel functions, launch configurations and arguments. Errors are
 * {@link dev.polygpu.device.DeviceException}s carrying a {@link dev.polygpu.device.CudaError}. Also the kernel
 * names both devices look up: {@link dev.polygpu.device.CxxNames} (user names to PTX entries) over the one
 * Itanium C++ mangler, {@link dev.polygpu.device.ItaniumMangler}. Public API of the scheduler module; it
 * depends on nothing but the JDK.
 */
package dev.polygpu.device;
