package dev.polygpu.device.cuda;

import dev.polygpu.device.Checks;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelParam;
import java.util.List;
import java.util.function.ToLongBiFunction;

/**
 * Turns a launch's arguments into the bytes {@code cuLaunchKernel} copies, one array per parameter, each as the
 * C type is laid out on the device (little-endian, the parameter's own size; a pointer is the 64-bit address of
 * its buffer plus the offset). Checked first, so that a mismatch is an error naming the argument and never
 * garbage in a kernel: against the C parameter list when the source gave one ({@link KernelSignatures}), else
 * against the parameters the compiled code declares ({@link ImageParam}: a PTX entry's, or a cubin's parameter
 * table), which always exist. Sizes are checked always; the kind (integer or floating point) where the declaration
 * has a PTX type that says it ({@code .u32}, {@code .f32}; not {@code .b32}, nor a cubin's {@code 4 bytes}).
 * Stateless.
 */
final class ArgPacking {
    private ArgPacking() {
    }

    /**
     * The bytes of each argument. {@code params} is the kernel's C parameter list, empty when unknown;
     * {@code image} its parameters as the compiled code declares them; {@code address} gives the device address of
     * a pointer argument's buffer (checking that it is usable; {@code role} names the argument), and is not called
     * for null pointers.
     */
    static byte[][] pack(String kernel, List<KernelParam> params, List<ImageParam> image, KernelArgs args,
            ToLongBiFunction<KernelArg.Pointer, String> address) {
        if (!params.isEmpty()) {
            Checks.argumentCount(kernel, params, args);
        } else {
            checkAgainstImage(kernel, image, args);
        }
        byte[][] packed = new byte[args.size()][];
        for (int i = 0; i < args.size(); i++) {
            KernelArg a = args.get(i);
            String role;
            if (!params.isEmpty()) {
                KernelParam p = params.get(i);
                Checks.argument(kernel, i, p, a);
                role = Checks.argumentRole(kernel, i, p);
            } else {
                role = "argument " + (i + 1) + " of kernel '" + kernel + "'";
            }
            if (a instanceof KernelArg.Pointer ptr) {
                long base = 0;
                if (ptr.buffer() != null) {
                    base = address.applyAsLong(ptr, role);
                    Checks.pointerOffset(role, ptr);
                }
                packed[i] = littleEndian(base + ptr.offset(), 8);
            } else {
                KernelArg.Scalar s = (KernelArg.Scalar) a;
                packed[i] = littleEndian(s.bits(), s.type().size);
            }
        }
        return packed;
    }

    /** The low {@code size} bytes of {@code bits}, least significant first. */
    static byte[] littleEndian(long bits, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (bits >>> (8 * i));
        }
        return b;
    }

    /** Count, size and kind (integer or floating point, where a PTX type says) of each argument. */
    private static void checkAgainstImage(String kernel, List<ImageParam> declared, KernelArgs args) {
        if (args == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "launch of kernel '" + kernel + "' without arguments");
        }
        if (args.size() != declared.size()) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel '" + kernel + "' takes " + declared.size()
                    + " argument" + (declared.size() == 1 ? "" : "s") + " " + describe(declared) + ", got "
                    + args.size());
        }
        for (int i = 0; i < declared.size(); i++) {
            ImageParam p = declared.get(i);
            KernelArg a = args.get(i);
            String which = "argument " + (i + 1) + " of kernel '" + kernel + "'";
            if (a == null) {
                throw new DeviceException(CudaError.INVALID_VALUE, which + " is null");
            }
            int size = a instanceof KernelArg.Scalar s ? s.type().size : 8;
            String got = a instanceof KernelArg.Pointer ptr ? "pointer " + ptr : a.toString();
            if (size != p.bytes()) {
                throw new DeviceException(CudaError.INVALID_VALUE, which + " is " + got + " (" + size + " byte"
                        + (size == 1 ? "" : "s") + "), but the kernel's parameter " + (i + 1) + " is a " + p.bytes()
                        + "-byte " + (p.declaredAs().startsWith(".") ? p.declaredAs() : "parameter")
                        + "; check the kernel's signature");
            }
            boolean floating = a instanceof KernelArg.Scalar s && s.type().isFloating();
            boolean declaredFloating = p.declaredAs().startsWith(".f");
            boolean declaredInteger = p.declaredAs().startsWith(".u") || p.declaredAs().startsWith(".s");
            if (floating ? declaredInteger : declaredFloating) {
                throw new DeviceException(CudaError.INVALID_VALUE, which + " is " + got + ", but the kernel's"
                        + " parameter " + (i + 1) + " is " + (declaredFloating ? "floating point" : "an integer") + " ("
                        + p.declaredAs() + "); check the kernel's signature");
            }
        }
    }

    private static String describe(List<ImageParam> declared) {
        StringBuilder sb = new StringBuilder("(declared:");
        for (int i = 0; i < declared.size(); i++) {
            sb.append(i == 0 ? " " : ", ").append(declared.get(i).declaredAs());
        }
        return sb.append(')').toString();
    }
}
