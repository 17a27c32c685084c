/**
 * The CPU device's PTX interpreter: what lets {@code Device.load} (GrCUDA's {@code bindkernel('k.ptx', …)}) run
 * the PTX nvcc writes on a machine without a GPU. {@link dev.polygpu.device.cpu.ptx.PtxModule#load} reads the
 * text ({@code PtxParser}), checks and decodes every instruction into compact steps ({@code PtxDecoder},
 * {@code PtxOps}, {@code PtxCollectives}) — refusing what it does not support at load time, with file and line —
 * and its kernels ({@code PtxKernel}) run on the device's worker pool through the same launch path as kernels
 * compiled from CUDA C, one {@code PtxBlockRunner} per worker thread. {@link dev.polygpu.device.cpu.ptx.GlobalMemory}
 * is how the device lets kernels resolve raw 64-bit addresses to its buffers.
 *
 * <p>Public: {@code PtxModule} (for the device) and {@code GlobalMemory}; everything else is internal (private,
 * no compatibility). The supported subset, fault messages and speed are described in {@code docs/ptx.md}.
 */
package dev.polygpu.device.cpu.ptx;
