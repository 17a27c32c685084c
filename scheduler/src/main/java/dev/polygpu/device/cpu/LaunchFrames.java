package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
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
        if (args == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "launch of kernel '" + name + "' without arguments");
        }
        if (args.size() != params.size()) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel '" + name + "' takes " + params.size()
                    + " argument" + (params.size() == 1 ? "" : "s") + " " + signature(params) + ", got "
                    + args.size());
        }
        int n = params.size();
        MemorySegment[] segments = new MemorySegment[n];
        long[] values = new long[n];
        String[] names = new String[n];
        long[] bufferIds = new long[n];
        for (int i = 0; i < n; i++) {
            KernelParam p = params.get(i);
            KernelArg a = args.get(i);
            names[i] = p.name();
            bufferIds[i] = -1;
            if (p.pointer()) {
                if (!(a instanceof KernelArg.Pointer ptr)) {
                    throw mismatch(name, i, p, "a pointer to a buffer", a);
                }
                if (ptr.buffer() == null) {
                    segments[i] = MemorySegment.NULL;
                    values[i] = ptr.offset();
                    continue;
                }
                String role = "argument " + (i + 1) + " ('" + p.name() + "') of kernel '" + name + "'";
                CpuBuffer b = CpuBuffer.check(ptr.buffer(), device, role);
                if (ptr.offset() < 0 || ptr.offset() > b.byteSize()) {
                    throw new DeviceException(CudaError.INVALID_VALUE, role + " points at offset " + ptr.offset()
                            + " of buffer #" + b.id() + ", which has " + b.byteSize() + " bytes");
                }
                segments[i] = b.hostView();
                values[i] = ptr.offset();
                bufferIds[i] = b.id();
            } else {
                if (!(a instanceof KernelArg.Scalar s) || !fits(s.type(), p.type())) {
                    throw mismatch(name, i, p, article(p.type().cName), a);
                }
                values[i] = s.bits();
            }
        }
        return new LaunchFrame(name, segments, values, names, bufferIds, config.grid(), config.block(),
                config.dynamicSharedBytes());
    }

    /** A scalar fits a parameter of the same size and the same kind (integer or floating point). */
    private static boolean fits(ElementType arg, ElementType param) {
        return arg.size == param.size && arg.isFloating() == param.isFloating();
    }

    private static DeviceException mismatch(String kernel, int i, KernelParam p, String expected, KernelArg got) {
        String actual = got == null ? "null" : got instanceof KernelArg.Pointer ptr ? "pointer " + ptr : got.toString();
        return new DeviceException(CudaError.INVALID_VALUE, "argument " + (i + 1) + " ('" + p.name()
                + "') of kernel '" + kernel + "' must be " + expected + ", got " + actual);
    }

    private static String article(String cName) {
        return ("aeiou".indexOf(cName.charAt(0)) >= 0 ? "an " : "a ") + cName;
    }

    private static String signature(List<KernelParam> params) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < params.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(params.get(i));
        }
        return sb.append(')').toString();
    }
}
