/**
 * The CPU device: runs CUDA C kernels on the host's cores with CUDA's semantics behind the device SPI.
 * {@link dev.polygpu.device.cpu.CpuDevice} and its chaos-mode settings {@link dev.polygpu.device.cpu.Chaos}
 * are the only public types; buffers, streams, events, modules and the worker pool are internals (private, no
 * compatibility). Kernels come from the kernel engine in {@code dev.polygpu.device.cpu.kernel}, or from PTX
 * text that {@code dev.polygpu.device.cpu.ptx} decodes and interprets; this package runs both the same way and
 * owns nothing of their compilation.
 */
package dev.polygpu.device.cpu;
