/**
 * Reading fatbinaries ({@code nvcc -fatbin}) without a driver: their entries (PTX and cubins for several
 * architectures) with compressed payloads decompressed. Both devices use it: the CUDA device to list the kernels
 * and parameters of a fatbinary it hands to the driver, the CPU device to run its PTX. Depends only on
 * {@code dev.polygpu.device} (for {@code DeviceException}); no JCuda, no native code.
 *
 * <p>Public: {@link dev.polygpu.device.fatbin.Fatbinary} and {@link dev.polygpu.device.fatbin.FatbinEntry}.
 * Internal (private, no compatibility): the decoders of the two methods nvcc 13 compresses with, an LZ4 block
 * ({@code Lz4Block}) and zstd frames ({@code ZstdFrame} with {@code FseTable}, {@code Huffman},
 * {@code BackwardBits}, {@code XxHash64}), written from the formats' specifications (the LZ4 block format, RFC
 * 8878), and the bounded output buffer they write into ({@code Output}).
 */
package dev.polygpu.device.fatbin;
