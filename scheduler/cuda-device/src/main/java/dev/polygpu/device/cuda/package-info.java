/**
 * The CUDA device: a GPU behind the device SPI over JCuda's driver API ({@link dev.polygpu.device.cuda.CudaDevice},
 * opened after {@link dev.polygpu.device.cuda.CudaProbe} says a GPU is usable), with CUDA C compiled to PTX by
 * NVRTC or nvcc ({@link dev.polygpu.device.cuda.PtxCompiler}, with a PTX cache) and precompiled PTX, cubins and
 * fatbinaries loaded as they are. The only package that uses JCuda. Public: the device, the probe and the PTX
 * compiler; buffers, streams, events, modules and the PTX readers are internals (private, no compatibility).
 */
package dev.polygpu.device.cuda;
