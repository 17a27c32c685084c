package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.Dim3;
import java.lang.foreign.MemorySegment;

/**
 * The immutable description of one launch as the generated code reads it. Parameter {@code i} is a pointer
 * when {@code segments[i] != null} ({@link MemorySegment#NULL} for a null pointer), with its byte offset in
 * {@code values[i]}; otherwise {@code values[i]} holds the scalar's bits as {@code KernelArg.Scalar} defines
 * them. A pointer the launch passes read-only has a {@linkplain MemorySegment#isReadOnly() read-only}
 * segment, which the engines check stores against. {@code names[i]} and {@code bufferIds[i]} serve fault
 * messages only. {@code cancellation} is the launch's stop request, which the running code polls.
 */
public record LaunchFrame(
        String kernelName,
        MemorySegment[] segments,
        long[] values,
        String[] names,
        long[] bufferIds,
        Dim3 grid,
        Dim3 block,
        int dynamicSharedBytes,
        LaunchCancellation cancellation) {

    /**
     * How fault messages name the parameters bound read-only to the memory of {@code seg}: {@code parameter 'x'
     * (argument 1, buffer #4)}, several joined with "and" (aliases of one buffer); a plain phrase if none is.
     */
    public String readOnlyParameters(MemorySegment seg) {
        StringBuilder sb = new StringBuilder();
        int count = 0;
        for (int i = 0; i < segments.length; i++) {
            MemorySegment a = segments[i];
            if (a != null && a.isReadOnly() && a.address() == seg.address() && a.byteSize() == seg.byteSize()) {
                sb.append(count++ == 0 ? "" : " and ").append('\'').append(names[i]).append("' (argument ")
                        .append(i + 1).append(", buffer #").append(bufferIds[i]).append(')');
            }
        }
        if (count == 0) {
            return "read-only pointer parameter";
        }
        return (count == 1 ? "parameter " : "parameters ") + sb;
    }
}
