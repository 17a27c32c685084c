package dev.polygpu.device.cpu;

import dev.polygpu.device.Checks;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.LaunchCancellation;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Checks a launch's arguments against its kernel's parameters, as {@code cuLaunchKernel} would before queueing,
 * and builds the {@link LaunchFrame} the generated code reads. A pointer the launch passes {@linkplain
 * KernelArgs#isReadOnly read-only} is bound as its buffer's read-only view, which both engines check stores
 * against. Stateless.
 */
final class LaunchFrames {

    private LaunchFrames() {
    }

    /** The frame of launching {@code kernel} with {@code args}; INVALID_VALUE naming the argument when one does not fit. */
    static LaunchFrame build(CpuDevice device, CompiledKernel kernel, LaunchConfig config, KernelArgs args) {
        String name = kernel.name();
        if (!kernel.imageParameters().isEmpty()) {
            return buildForImage(device, kernel, config, args);
        }
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
                segments[i] = args.isReadOnly(i) ? b.readOnlyView() : b.hostView();
                values[i] = ptr.offset();
                bufferIds[i] = b.id();
            } else {
                values[i] = ((KernelArg.Scalar) a).bits();
            }
        }
        return new LaunchFrame(name, segments, values, names, bufferIds, config.grid(), config.block(),
                config.dynamicSharedBytes(), new LaunchCancellation());
    }

    /**
     * The frame of a kernel of precompiled code, whose parameters are known by size only ({@link ImageParam}): a
     * pointer needs an 8-byte parameter, a scalar one of its type's size (and kind, where the image declares a
     * float or an integer type).
     */
    private static LaunchFrame buildForImage(CpuDevice device, CompiledKernel kernel, LaunchConfig config,
            KernelArgs args) {
        String name = kernel.name();
        List<ImageParam> params = kernel.imageParameters();
        if (args == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "launch of kernel '" + name + "' without arguments");
        }
        int n = params.size();
        if (args.size() != n) {
            StringBuilder sig = new StringBuilder("(");
            for (int i = 0; i < n; i++) {
                sig.append(i == 0 ? "" : ", ").append(params.get(i).declaredAs()).append(' ').append(params.get(i).name());
            }
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel '" + name + "' takes " + n + " argument"
                    + (n == 1 ? "" : "s") + " " + sig + ") as its PTX declares them, got " + args.size());
        }
        MemorySegment[] segments = new MemorySegment[n];
        long[] values = new long[n];
        String[] names = new String[n];
        long[] bufferIds = new long[n];
        for (int i = 0; i < n; i++) {
            ImageParam p = params.get(i);
            KernelArg a = args.get(i);
            String role = "argument " + (i + 1) + " ('" + p.name() + "') of kernel '" + name + "'";
            names[i] = p.name();
            bufferIds[i] = -1;
            String declared = p.declaredAs();
            if (declared.contains("[")) {
                throw new DeviceException(CudaError.INVALID_VALUE, role + " is a " + p.bytes() + "-byte aggregate ("
                        + declared + ") in the PTX, a struct passed by value, which a launch cannot pass; pass its"
                        + " fields through a buffer instead");
            }
            boolean floatParam = declared.contains(".f");
            boolean intParam = declared.contains(".s") || declared.contains(".u");
            if (a instanceof KernelArg.Pointer ptr) {
                if (p.bytes() != 8 || floatParam) {
                    throw new DeviceException(CudaError.INVALID_VALUE, role + " is declared " + declared + " ("
                            + p.bytes() + " bytes) in the PTX; a pointer takes an 8-byte integer parameter");
                }
                values[i] = ptr.offset();
                if (ptr.buffer() == null) {
                    segments[i] = MemorySegment.NULL;
                    continue;
                }
                CpuBuffer b = CpuBuffer.check(ptr.buffer(), device, role);
                Checks.pointerOffset(role, ptr);
                segments[i] = args.isReadOnly(i) ? b.readOnlyView() : b.hostView();
                bufferIds[i] = b.id();
            } else if (a instanceof KernelArg.Scalar sc) {
                if (sc.type().size != p.bytes() || (floatParam && !sc.type().isFloating())
                        || (intParam && sc.type().isFloating())) {
                    throw new DeviceException(CudaError.INVALID_VALUE, role + " is declared " + declared + " ("
                            + p.bytes() + " bytes) in the PTX, got " + sc + " (" + sc.type().size + " bytes)");
                }
                values[i] = sc.bits();
            } else {
                throw new DeviceException(CudaError.INVALID_VALUE, role + " is null");
            }
        }
        return new LaunchFrame(name, segments, values, names, bufferIds, config.grid(), config.block(),
                config.dynamicSharedBytes(), new LaunchCancellation());
    }
}
