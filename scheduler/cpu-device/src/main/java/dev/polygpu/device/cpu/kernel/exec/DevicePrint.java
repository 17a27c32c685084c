package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.rt.CFormat;
import java.lang.foreign.MemorySegment;

/**
 * What generated code calls for {@code printf} and a failed {@code assert}: formats the call with
 * {@link CFormat} into the running block's {@link BlockState#printf} writer. The front end has checked the
 * arguments against the literal format, so they match it: integers and pointer addresses come boxed as
 * {@link Long}, floating values (promoted to double) as {@link Double}, {@code %s} string literals as byte
 * strings.
 */
public final class DevicePrint {
    private DevicePrint() {
    }

    /** CUDA's printf: writes one record and returns the number of arguments after the format. */
    public static int printf(BlockState st, String format, Object[] args) {
        String text = CFormat.format(format, new BoxedArgs(args));
        st.printf.record(text);
        return args.length;
    }

    /** The address a pointer ({@code seg}, {@code offset}) prints as with {@code %p}; 0 for a null pointer. */
    public static long address(MemorySegment seg, long offset) {
        return seg.address() + offset;
    }

    /**
     * A failed {@code assert}: writes CUDA's message ({@code file:line: function: block: [x,y,z], thread: [x,y,z]
     * Assertion `expr` failed.}) and returns the ASSERT fault (cudaErrorAssert, 710) that the generated code
     * throws, which stops the launch.
     */
    public static KernelFault assertFailed(BlockState st, String expr, String file, int line, String function,
            int pos) {
        if (st.info().perThread() && st.tid >= 0) {
            st.setThread(st.tid);
        }
        String where = "block: [" + st.bx + "," + st.by + "," + st.bz + "], thread: [" + st.tx + "," + st.ty + ","
                + st.tz + "]";
        if (st.printf != null) {
            st.printf.record(file + ":" + line + ": " + function + ": " + where + " Assertion `" + expr
                    + "` failed.\n");
        }
        return st.fault(CudaError.ASSERT, "device-side assert triggered: Assertion `" + expr + "` failed ("
                + file + ":" + line + ", in " + function + ")", pos);
    }

    /** {@code __trap()}: the fault a GPU reports for a trap, cudaErrorLaunchFailure (719). */
    public static KernelFault trap(BlockState st, int pos) {
        return st.fault(CudaError.LAUNCH_FAILED, "__trap() was called (the kernel aborted itself)", pos);
    }

    private static final class BoxedArgs implements CFormat.Args {
        private final Object[] args;
        private int next;

        BoxedArgs(Object[] args) {
            this.args = args;
        }

        @Override
        public long nextInt(boolean wide) {
            return (Long) args[next++];
        }

        @Override
        public double nextDouble() {
            return (Double) args[next++];
        }

        @Override
        public String nextString() {
            return (String) args[next++];
        }

        @Override
        public long nextPointer() {
            return (Long) args[next++];
        }
    }
}
