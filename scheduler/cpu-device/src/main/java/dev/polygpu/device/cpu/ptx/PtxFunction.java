package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.ImageParam;
import java.util.List;

/**
 * A decoded {@code .entry} or {@code .func}: its instructions, the initial register file (registers zero,
 * then the constants the instructions read, which the decoder placed in registers of their own), the layout of
 * its parameter area and its {@code .local} bytes. Immutable once the decoder has linked calls.
 */
final class PtxFunction {
    final String name;
    final boolean entry;
    final Insn[] code;
    final long[] registerTemplate;
    /** Bytes of the frame's parameter area: formal parameters, results, then the arguments of its calls. */
    final int paramBytes;
    final int[] paramOffsets;
    final int[] paramSizes;
    final int[] returnOffsets;
    final int[] returnSizes;
    final int localBytes;
    /** For an entry: its parameters as declared, and their offsets in the launch's parameter block. */
    final List<ImageParam> imageParams;
    final int kernelParamBytes;
    /** Bytes of the entry's own {@code .shared} variables (module-scope ones are the module's). */
    final int ownSharedBytes;
    /** True if the function (or one it calls) has barriers or warp collectives. */
    boolean cooperative;
    /**
     * True if the function (or one it calls) accesses non-local memory as {@code volatile}, the mark of
     * warp-synchronous code: its warps run in lock step ({@link PtxBlockRunner}). Implies {@link #cooperative}.
     */
    boolean lockstep;

    PtxFunction(String name, boolean entry, Insn[] code, long[] registerTemplate, int paramBytes,
            int[] paramOffsets, int[] paramSizes, int[] returnOffsets, int[] returnSizes, int localBytes,
            List<ImageParam> imageParams, int kernelParamBytes, int ownSharedBytes, boolean cooperative,
            boolean lockstep) {
        this.name = name;
        this.entry = entry;
        this.code = code;
        this.registerTemplate = registerTemplate;
        this.paramBytes = paramBytes;
        this.paramOffsets = paramOffsets;
        this.paramSizes = paramSizes;
        this.returnOffsets = returnOffsets;
        this.returnSizes = returnSizes;
        this.localBytes = localBytes;
        this.imageParams = imageParams;
        this.kernelParamBytes = kernelParamBytes;
        this.ownSharedBytes = ownSharedBytes;
        this.cooperative = cooperative;
        this.lockstep = lockstep;
    }
}
