package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.PrintfOutput;
import dev.polygpu.device.cpu.kernel.rt.CFormat;
import java.lang.foreign.ValueLayout;

/**
 * The two runtime functions nvcc's PTX calls for {@code printf} and {@code assert}, which the interpreter
 * implements itself: {@code vprintf(format, args)} (the format's generic address and that of a buffer holding the
 * arguments, each at an offset aligned to its size: 4 bytes for an int, 8 for a double, a 64-bit integer or a
 * pointer; null when there are none) returns the number of arguments, and
 * {@code __assertfail(message, file, line, function, charSize)}. Both format with the kernel engine's
 * {@link CFormat} and write into the launch's {@link PrintfOutput}, so output and caps are the same for both
 * engines. Unlike the kernel engine, {@code %s} here reads a NUL-terminated string at any address.
 */
final class PtxPrintf {
    static final int VPRINTF = 1;
    static final int ASSERTFAIL = 2;
    /** The longest string read for a format, {@code %s} argument or assertion text. */
    static final int MAX_STRING = 1 << 16;

    private PtxPrintf() {
    }

    /** The builtin the name calls, or 0. */
    static int builtin(String name) {
        return switch (name) {
            case "vprintf" -> VPRINTF;
            case "__assertfail" -> ASSERTFAIL;
            default -> 0;
        };
    }

    /** Checks a call of a builtin against its declaration as nvcc writes it, and marks the call. */
    static void link(String file, Insn in) {
        Insn.CallSite site = in.call;
        int kind = builtin(site.callee);
        int args = kind == VPRINTF ? 2 : 5;
        int rets = kind == VPRINTF ? 1 : 0;
        if (site.argOffsets.length != args || site.retOffsets.length > rets) {
            throw PtxSyntax.invalid(file, in.line, "call of " + site.callee + " with " + site.argOffsets.length
                    + " arguments and " + site.retOffsets.length + " results; it takes " + args + " and returns "
                    + rets);
        }
        site.builtin = kind;
    }

    /** Runs the builtin call {@code site} for thread {@code t}. */
    static void call(PtxThread t, Insn.CallSite site, PrintfOutput.Writer out) {
        long a0 = t.params.get(ValueLayout.JAVA_LONG_UNALIGNED, site.argOffsets[0]);
        long a1 = t.params.get(ValueLayout.JAVA_LONG_UNALIGNED, site.argOffsets[1]);
        if (site.builtin == VPRINTF) {
            int n = vprintf(t, a0, a1, out);
            if (site.retOffsets.length == 1) {
                t.params.set(ValueLayout.JAVA_INT_UNALIGNED, site.retOffsets[0], n);
            }
            return;
        }
        int line = t.params.get(ValueLayout.JAVA_INT_UNALIGNED, site.argOffsets[2]);
        long function = t.params.get(ValueLayout.JAVA_LONG_UNALIGNED, site.argOffsets[3]);
        String message = cString(t, a0, "assertion text");
        String file = cString(t, a1, "file name");
        String fn = cString(t, function, "function name");
        if (out != null) {
            out.record(file + ":" + line + ": " + fn + ": block: [" + t.mem.ctaX + "," + t.mem.ctaY + ","
                    + t.mem.ctaZ + "], thread: [" + t.tx + "," + t.ty + "," + t.tz + "] Assertion `" + message
                    + "` failed.\n");
        }
        throw new PtxTrap(CudaError.ASSERT, "device-side assert triggered: Assertion `" + message + "` failed ("
                + file + ":" + line + ", in " + fn + ")");
    }

    private static int vprintf(PtxThread t, long format, long args, PrintfOutput.Writer out) {
        String f = cString(t, format, "format");
        java.util.List<Object> parsed;
        try {
            parsed = CFormat.parse(f);
        } catch (IllegalArgumentException e) {
            throw new PtxTrap(CudaError.LAUNCH_FAILED, "vprintf: " + e.getMessage());
        }
        MemoryArgs values = new MemoryArgs(t, args);
        String text = CFormat.format(parsed, values);
        if (out != null) {
            out.record(text);
        }
        return values.count;
    }

    /** The NUL-terminated string at generic address {@code addr}, as a byte string. */
    private static String cString(PtxThread t, long addr, String what) {
        StringBuilder sb = new StringBuilder();
        for (long a = addr; ; a++) {
            if (sb.length() >= MAX_STRING) {
                throw new PtxTrap(CudaError.LAUNCH_FAILED, "the " + what + " at 0x" + Long.toHexString(addr)
                        + " has no terminating NUL in its first " + MAX_STRING + " bytes");
            }
            long off = t.mem.at(PtxMemory.GENERIC, t, a, 1);
            byte b = t.mem.seg.get(ValueLayout.JAVA_BYTE, off);
            if (b == 0) {
                return sb.toString();
            }
            sb.append((char) (b & 0xFF));
        }
    }

    /** The arguments of a vprintf call, read from its buffer in order, each aligned to its size. */
    private static final class MemoryArgs implements CFormat.Args {
        private final PtxThread t;
        private final long base;
        private long offset;
        int count;

        MemoryArgs(PtxThread t, long base) {
            this.t = t;
            this.base = base;
        }

        private long read(int size) {
            offset = (offset + size - 1) & -size;
            long off = t.mem.at(PtxMemory.GENERIC, t, base + offset, size);
            offset += size;
            count++;
            return size == 4 ? t.mem.seg.get(ValueLayout.JAVA_INT_UNALIGNED, off)
                    : t.mem.seg.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        }

        @Override
        public long nextInt(boolean wide) {
            return read(wide ? 8 : 4);
        }

        @Override
        public double nextDouble() {
            return Double.longBitsToDouble(read(8));
        }

        @Override
        public String nextString() {
            return cString(t, read(8), "%s argument");
        }

        @Override
        public long nextPointer() {
            return read(8);
        }
    }
}
