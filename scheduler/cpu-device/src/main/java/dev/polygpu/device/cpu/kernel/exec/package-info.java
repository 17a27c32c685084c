/**
 * What generated kernel code calls at run time: bounds-checked loads and stores ({@link
 * dev.polygpu.device.cpu.kernel.exec.Mem}), a block's state, conversions, device-side printf, module globals,
 * the cooperative scheduling of a block's threads at barriers and warp operations, and {@code __nanosleep}'s
 * clock. {@link dev.polygpu.device.cpu.kernel.exec.KernelRunner} runs one block of a generated kernel. Public
 * only because generated classes call it; not an API.
 */
package dev.polygpu.device.cpu.kernel.exec;
