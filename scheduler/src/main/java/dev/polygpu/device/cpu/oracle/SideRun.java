package dev.polygpu.device.cpu.oracle;

import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One side of one case: builds the kernel, gives it fresh copies of the case's buffers, launches it once,
 * waits for it and reads the buffers back; or says why it could not.
 */
final class SideRun {
    /** How many stack frames an internal error's text keeps. */
    private static final int FRAMES = 8;

    /** What a side did with a case. */
    sealed interface Outcome {
    }

    /** The kernel ran; the final bytes of each buffer argument, in parameter order. */
    record Ran(List<byte[]> buffers) implements Outcome {
    }

    /** The side refused the case as CUDA allows (a compile error, a kernel fault): its message. */
    record Refused(String message) implements Outcome {
    }

    /** The side failed in a way it never should (an internal error): the exception and where it came from. */
    record Broke(String text) implements Outcome {
    }

    /** The side did not finish within the case's time limit. */
    record Hung(String text) implements Outcome {
    }

    private SideRun() {
    }

    /**
     * Runs {@code c} on {@code stream} of {@code device} with the kernel {@code kernel} supplies (building it
     * may throw like the launch may) and returns what happened; never throws.
     */
    static Outcome run(Device device, Stream stream, Supplier<KernelFunction> kernel, OracleCase c) {
        List<UnifiedBuffer> buffers = new ArrayList<>();
        try {
            KernelFunction fn = kernel.get();
            KernelArgs.Builder args = KernelArgs.builder();
            for (OracleArg a : c.args()) {
                switch (a) {
                    case OracleArg.Buffer b -> {
                        UnifiedBuffer u = device.allocate(Math.max(1, b.initial().length));
                        buffers.add(u);
                        MemorySegment.copy(b.initial(), 0, u.hostView(), ValueLayout.JAVA_BYTE, 0,
                                b.initial().length);
                        args.pointer(u);
                    }
                    case OracleArg.Scalar s -> args.add(scalar(s));
                }
            }
            stream.launch(fn, c.config(), args.build());
            stream.synchronize();
            List<byte[]> out = new ArrayList<>();
            int next = 0;
            for (OracleArg a : c.args()) {
                if (a instanceof OracleArg.Buffer b) {
                    byte[] bytes = new byte[b.initial().length];
                    MemorySegment.copy(buffers.get(next++).hostView(), ValueLayout.JAVA_BYTE, 0, bytes, 0,
                            bytes.length);
                    out.add(bytes);
                }
            }
            return new Ran(out);
        } catch (RuntimeException | Error e) {
            return classify(e);
        } finally {
            for (UnifiedBuffer u : buffers) {
                u.free();
            }
        }
    }

    /**
     * A device error is a refusal unless it carries a cause that is not a device error (a bug caught and
     * wrapped by the device, such as an exception thrown inside a kernel's code); anything else is a bug.
     */
    static Outcome classify(Throwable t) {
        if (t instanceof DeviceException d && (d.getCause() == null || d.getCause() instanceof DeviceException)) {
            return new Refused(d.getMessage());
        }
        return new Broke(head(t));
    }

    /** The exception, its first stack frames and those of its causes. */
    static String head(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable x = t; x != null; x = x.getCause() == x ? null : x.getCause()) {
            sb.append(x == t ? "" : "Caused by: ").append(x).append('\n');
            StackTraceElement[] frames = x.getStackTrace();
            for (int i = 0; i < Math.min(FRAMES, frames.length); i++) {
                sb.append("    at ").append(frames[i]).append('\n');
            }
            if (frames.length > FRAMES) {
                sb.append("    … ").append(frames.length - FRAMES).append(" more\n");
            }
        }
        return sb.toString().strip();
    }

    /** The launch argument for a scalar: its bits extended to 64 as {@link KernelArg.Scalar} wants them. */
    static KernelArg.Scalar scalar(OracleArg.Scalar s) {
        long v = s.bits();
        return switch (s.type()) {
            case I8 -> new KernelArg.Scalar(ElementType.INT8, (byte) v);
            case U8 -> new KernelArg.Scalar(ElementType.UINT8, v & 0xff);
            case I16 -> new KernelArg.Scalar(ElementType.INT16, (short) v);
            case U16, F16 -> new KernelArg.Scalar(ElementType.UINT16, v & 0xffff);
            case I32 -> new KernelArg.Scalar(ElementType.INT32, (int) v);
            case U32 -> new KernelArg.Scalar(ElementType.UINT32, v & 0xffff_ffffL);
            case I64 -> new KernelArg.Scalar(ElementType.INT64, v);
            case U64 -> new KernelArg.Scalar(ElementType.UINT64, v);
            case F32 -> new KernelArg.Scalar(ElementType.FLOAT, (int) v);
            case F64 -> new KernelArg.Scalar(ElementType.DOUBLE, v);
        };
    }
}
