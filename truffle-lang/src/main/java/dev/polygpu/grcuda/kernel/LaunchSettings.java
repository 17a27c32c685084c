package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.builtins.Args;

/**
 * What {@code k(grid, block[, sharedMemBytes[, stream]])} or {@code k(grid, block, stream)} says about a launch:
 * grid and block (an int or a sequence of 1 to 3 ints), dynamic shared memory, and the user's stream, or null for
 * "the runtime chooses". As in GrCUDA, a third argument that is not a number is the stream.
 */
public record LaunchSettings(LaunchConfig config, Stream stream) {
    private static final InteropLibrary INTEROP = InteropLibrary.getUncached();

    /** Reads the settings of a launch of {@code kernel} from the arguments of its configuration call. */
    @TruffleBoundary
    public static LaunchSettings of(GrContext context, String kernel, Object[] args)
            throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 4);
        Dim3 grid = dim3(args, 0, kernel, "grid");
        Dim3 block = dim3(args, 1, kernel, "block");
        String who = "kernel '" + kernel + "'";
        if (args.length == 3 && !INTEROP.isNumber(args[2])) {
            if (Handles.unwrap(context, args[2]) instanceof GrStream s) {
                return new LaunchSettings(new LaunchConfig(grid, block, 0), s.stream());
            }
            // a guest error rather than an interop type error, whose message GraalPy does not show
            throw GrError.of(who + ": argument 3 must be a number of shared memory bytes or a stream from"
                    + " cudaStreamCreate(), got " + Args.display(args[2]));
        }
        int shared = 0;
        if (args.length > 2) {
            long bytes = Args.integer(args, 2, "kernel '" + kernel + "'", "shared memory bytes");
            if (bytes < 0 || bytes > Integer.MAX_VALUE) {
                throw GrError.of("kernel '" + kernel + "': shared memory bytes must be between 0 and "
                        + Integer.MAX_VALUE + ", got " + bytes);
            }
            shared = (int) bytes;
        }
        Stream stream = null;
        if (args.length > 3) {
            stream = Handles.stream(context, args, 3, who).stream();
        }
        return new LaunchSettings(new LaunchConfig(grid, block, shared), stream);
    }

    private static Dim3 dim3(Object[] args, int i, String kernel, String what) throws UnsupportedTypeException {
        Object a = args[i];
        int[] extents;
        try {
            if (INTEROP.fitsInInt(a)) {
                extents = new int[] {INTEROP.asInt(a)};
            } else if (INTEROP.hasArrayElements(a) && INTEROP.getArraySize(a) >= 1 && INTEROP.getArraySize(a) <= 3) {
                extents = new int[(int) INTEROP.getArraySize(a)];
                for (int d = 0; d < extents.length; d++) {
                    Object e = INTEROP.readArrayElement(a, d);
                    if (!INTEROP.fitsInInt(e)) {
                        throw notDim3(args, i, kernel, what);
                    }
                    extents[d] = INTEROP.asInt(e);
                }
            } else {
                throw notDim3(args, i, kernel, what);
            }
        } catch (UnsupportedMessageException | InvalidArrayIndexException e) {
            throw notDim3(args, i, kernel, what);
        }
        for (int e : extents) {
            if (e <= 0) {
                throw GrError.of("kernel '" + kernel + "': " + what + " extents must be positive, got "
                        + Args.display(a));
            }
        }
        return new Dim3(extents[0], extents.length > 1 ? extents[1] : 1, extents.length > 2 ? extents[2] : 1);
    }

    private static UnsupportedTypeException notDim3(Object[] args, int i, String kernel, String what) {
        return UnsupportedTypeException.create(args, "kernel '" + kernel + "': " + what
                + " must be an int or a sequence of 1 to 3 ints, got " + Args.display(args[i]));
    }
}
