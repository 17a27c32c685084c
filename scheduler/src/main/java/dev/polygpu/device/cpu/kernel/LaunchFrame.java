package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.Dim3;
import java.lang.foreign.MemorySegment;

/**
 * The immutable description of one launch as the generated code reads it. Parameter {@code i} is a pointer
 * when {@code segments[i] != null} ({@link MemorySegment#NULL} for a null pointer), with its byte offset in
 * {@code values[i]}; otherwise {@code values[i]} holds the scalar's bits as {@code KernelArg.Scalar} defines
 * them. {@code names[i]} and {@code bufferIds[i]} serve fault messages only.
 */
public record LaunchFrame(
        String kernelName,
        MemorySegment[] segments,
        long[] values,
        String[] names,
        long[] bufferIds,
        Dim3 grid,
        Dim3 block,
        int dynamicSharedBytes) {
}
