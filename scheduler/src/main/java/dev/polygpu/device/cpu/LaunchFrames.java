package dev.polygpu.device.cpu;

import dev.polygpu.device.Checks;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Checks a launch's arguments against its kernel's parameters, as {@code cuLaunchKernel} would before queueing,
 * and builds the {@link LaunchFrame} the generated code reads. Stateless.
 */
final class LaunchFrames {

    private LaunchFrames() {
    }

    /** The frame of launching {@code kernel} with {@code args}; INVALID_VALUE naming the argument when one does not fit. */
    static LaunchFrame build(CpuDevice device, CompiledKernel kernel, LaunchConfig config, KernelArgs args) {
        String name = kernel.name();
        List<KernelParam> params = kernel.parameters();
        Checks.argumentCount(name, params, args);
        int n = params.size();
        MemorySegment[] segments = new MemorySegment[n];
        long[] values = new long[n];
        String[] names = new String[n];
        long[] bufferIds = new long[n];
        for (int i = 0; i < n; i++) {
            KernelParam p = params.get(i);
            KernelArg a = Checks.argument(name, i, p, args.get(i));
            names[i] = p.name();
            bufferIds[i] = -1;
            if (a instanceof KernelArg.Pointer ptr) {
                if (ptr.buffer() == null) {
                    segments[i] = MemorySegment.NULL;
                    values[i] = ptr.offset();
                    continue;
                }
                String role = Checks.argumentRole(name, i, p);
                CpuBuffer b = CpuBuffer.check(ptr.buffer(), device, role);
                Checks.pointerOffset(role, ptr);
                segments[i] = b.hostView();
                values[i] = ptr.offset();
                bufferIds[i] = b.id();
            } else {
                values[i] = ((KernelArg.Scalar) a).bits();
            }
        }
        return new LaunchFrame(name, segments, values, names, bufferIds, config.grid(), config.block(),
                config.dynamicSharedBytes());
    }
}
