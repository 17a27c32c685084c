package dev.polygpu.device;

import java.util.List;

/**
 * The checks every backend makes before it queues an operation, with the messages users see: byte ranges of
 * buffers, overlapping copies, launch arguments against a kernel's parameters. One place, so the CPU and CUDA
 * devices refuse the same mistakes with the same words. Stateless.
 */
public final class Checks {
    private Checks() {
    }

    /** INVALID_VALUE unless {@code [offset, offset + count)} lies in {@code buffer}; {@code what} names the operation. */
    public static void range(UnifiedBuffer buffer, String what, long offset, long count) {
        long bytes = buffer.byteSize();
        if (offset < 0 || count < 0 || offset > bytes || count > bytes - offset) {
            throw new DeviceException(CudaError.INVALID_VALUE, what + " of " + count + " bytes at offset "
                    + offset + " of buffer #" + buffer.id() + " (" + bytes + " bytes) is out of range");
        }
    }

    /** INVALID_VALUE when a copy within one buffer would read bytes it also writes (CUDA leaves that undefined). */
    public static void noOverlap(UnifiedBuffer dst, long dstOffset, UnifiedBuffer src, long srcOffset, long bytes) {
        if (dst == src && dstOffset < srcOffset + bytes && srcOffset < dstOffset + bytes && bytes > 0) {
            throw new DeviceException(CudaError.INVALID_VALUE, "copy of " + bytes + " bytes within buffer #"
                    + dst.id() + " from offset " + srcOffset + " to offset " + dstOffset + ": the regions overlap");
        }
    }

    /**
     * {@code buffer} as a buffer of {@code type} that belongs to {@code owner}; INVALID_VALUE naming {@code role}
     * when it is null or another device's. Whether it was freed is the backend's to check.
     */
    public static <B extends UnifiedBuffer> B ownBuffer(UnifiedBuffer buffer, Class<B> type, Device owner,
            String role) {
        if (buffer == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, role + " is null");
        }
        if (!type.isInstance(buffer) || buffer.device() != owner) {
            throw new DeviceException(CudaError.INVALID_VALUE, role + " (buffer #" + buffer.id()
                    + ") belongs to another device (" + buffer.device().backend() + " device "
                    + buffer.device().ordinal() + ")");
        }
        return type.cast(buffer);
    }

    /** {@code function} as a kernel of {@code type} compiled for {@code owner}; INVALID_HANDLE otherwise. */
    public static <F extends KernelFunction> F kernelOf(KernelFunction function, Class<F> type, Device owner) {
        if (!type.isInstance(function) || function.module().device() != owner) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "kernel function "
                    + (function == null ? "null" : "'" + function.name() + "'") + " does not belong to this device");
        }
        return type.cast(function);
    }

    /** INVALID_VALUE for a launch of {@code kernel} without a launch configuration. */
    public static LaunchConfig launchConfig(String kernel, LaunchConfig config) {
        if (config == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "launch of kernel '" + kernel
                    + "' without a launch configuration");
        }
        return config;
    }

    /** INVALID_VALUE unless {@code args} is not null and has one argument per parameter. */
    public static void argumentCount(String kernel, List<KernelParam> params, KernelArgs args) {
        if (args == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "launch of kernel '" + kernel + "' without arguments");
        }
        if (args.size() != params.size()) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel '" + kernel + "' takes " + params.size()
                    + " argument" + (params.size() == 1 ? "" : "s") + " " + signature(params) + ", got "
                    + args.size());
        }
    }

    /**
     * Checks argument {@code i} against parameter {@code p}: a pointer parameter needs a
     * {@link KernelArg.Pointer}, a scalar one a {@link KernelArg.Scalar} that {@linkplain #fits fits}. Returns
     * the argument; INVALID_VALUE naming the argument, the kernel, what it needs and what it got otherwise.
     * The buffer a pointer argument names is the caller's to check (it is backend-specific).
     */
    public static KernelArg argument(String kernel, int i, KernelParam p, KernelArg a) {
        if (p.pointer()) {
            if (!(a instanceof KernelArg.Pointer)) {
                throw mismatch(kernel, i, p, "a pointer to a buffer", a);
            }
        } else if (!(a instanceof KernelArg.Scalar s) || !fits(s.type(), p.type())) {
            throw mismatch(kernel, i, p, article(p.type().cName), a);
        }
        return a;
    }

    /**
     * INVALID_VALUE unless a pointer argument's offset lies in its buffer (the end included, as a one-past-the-end
     * pointer is valid C); {@code role} names the argument.
     */
    public static void pointerOffset(String role, KernelArg.Pointer ptr) {
        UnifiedBuffer b = ptr.buffer();
        if (ptr.offset() < 0 || ptr.offset() > b.byteSize()) {
            throw new DeviceException(CudaError.INVALID_VALUE, role + " points at offset " + ptr.offset()
                    + " of buffer #" + b.id() + ", which has " + b.byteSize() + " bytes");
        }
    }

    /** How an argument is named in messages: {@code argument 2 ('x') of kernel 'saxpy'}. */
    public static String argumentRole(String kernel, int i, KernelParam p) {
        return "argument " + (i + 1) + " ('" + p.name() + "') of kernel '" + kernel + "'";
    }

    /** A scalar fits a parameter of the same size and the same kind (integer or floating point). */
    public static boolean fits(ElementType arg, ElementType param) {
        return arg.size == param.size && arg.isFloating() == param.isFloating();
    }

    /** {@code (float* y, const float* x, …)}: a parameter list as messages show it. */
    public static String signature(List<KernelParam> params) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < params.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(params.get(i));
        }
        return sb.append(')').toString();
    }

    private static DeviceException mismatch(String kernel, int i, KernelParam p, String expected, KernelArg got) {
        String actual = got == null ? "null" : got instanceof KernelArg.Pointer ptr ? "pointer " + ptr : got.toString();
        return new DeviceException(CudaError.INVALID_VALUE, argumentRole(kernel, i, p) + " must be " + expected
                + ", got " + actual);
    }

    private static String article(String cName) {
        return ("aeiou".indexOf(cName.charAt(0)) >= 0 ? "an " : "a ") + cName;
    }
}
