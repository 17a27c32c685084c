package dev.polygpu.device.cuda;

import dev.polygpu.device.Checks;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
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
 * against the sizes and kinds of the PTX entry's parameters ({@link PtxParam}), which always exist. Stateless.
 */
final class ArgPacking {
    private ArgPacking() {
    }

    /**
     * The bytes of each argument. {@code params} is the kernel's C parameter list, empty when unknown;
     * {@code ptx} its PTX parameters; {@code address} gives the device address of a pointer argument's buffer
     * (checking that it is usable; {@code role} names the argument), and is not called for null pointers.
     */
    static byte[][] pack(String kernel, List<KernelParam> params, List<PtxParam> ptx, KernelArgs args,
            ToLongBiFunction<KernelArg.Pointer, String> address) {
        if (!params.isEmpty()) {
            Checks.argumentCount(kernel, params, args);
        } else {
            checkAgainstPtx(kernel, ptx, args);
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

    /** Count, size and kind (integer or floating point, where the PTX type says) of each argument. */
    private static void checkAgainstPtx(String kernel, List<PtxParam> ptx, KernelArgs args) {
        if (args == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "launch of kernel '" + kernel + "' without arguments");
        }
        if (args.size() != ptx.size()) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel '" + kernel + "' takes " + ptx.size()
                    + " argument" + (ptx.size() == 1 ? "" : "s") + " " + describe(ptx) + ", got " + args.size());
        }
        for (int i = 0; i < ptx.size(); i++) {
            PtxParam p = ptx.get(i);
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
                        + "-byte " + p.ptxType() + "; check the kernel's signature");
            }
            boolean floating = a instanceof KernelArg.Scalar s && s.type().isFloating();
            boolean ptxFloating = p.ptxType().startsWith(".f");
            boolean ptxInteger = p.ptxType().startsWith(".u") || p.ptxType().startsWith(".s");
            if (floating ? ptxInteger : ptxFloating) {
                throw new DeviceException(CudaError.INVALID_VALUE, which + " is " + got + ", but the kernel's"
                        + " parameter " + (i + 1) + " is " + (ptxFloating ? "floating point" : "an integer") + " ("
                        + p.ptxType() + "); check the kernel's signature");
            }
        }
    }

    private static String describe(List<PtxParam> ptx) {
        StringBuilder sb = new StringBuilder("(PTX:");
        for (int i = 0; i < ptx.size(); i++) {
            sb.append(i == 0 ? " " : ", ").append(ptx.get(i).ptxType());
        }
        return sb.append(')').toString();
    }
}
