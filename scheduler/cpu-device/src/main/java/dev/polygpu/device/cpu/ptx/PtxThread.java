package dev.polygpu.device.cpu.ptx;

import java.lang.foreign.MemorySegment;

/**
 * One CUDA thread of a block being interpreted: its registers, program counter and call stack, and where its
 * local memory and current frame's parameters are. Owned by the {@link PtxBlockRunner} of one worker thread.
 */
final class PtxThread {
    static final int RUNNABLE = 0;
    static final int AT_BARRIER = 1;
    static final int AT_WARP = 2;
    static final int EXITED = 3;

    final PtxMemory mem;
    /** Linear index in the block (x fastest), lane and warp. */
    final int index;
    final int lane;
    final int warp;
    int tx;
    int ty;
    int tz;
    int state;
    PtxFunction fn;
    Insn[] code;
    long[] regs;
    int pc;
    /** The carry flag CC.CF (0 or 1) of the carry-chain instructions ({@link PtxIntegerOps}). */
    int carry;
    /** The current frame's parameter area (formal parameters, results and call arguments). */
    MemorySegment params;
    /** Local-space address of the current frame's {@code .local} variables. */
    long localBase;
    /** Where this thread's local memory begins in the block's local segment. */
    long localStart;
    private Frame[] stack = new Frame[4];
    int depth;

    PtxThread(PtxMemory mem, int index) {
        this.mem = mem;
        this.index = index;
        this.lane = index & 31;
        this.warp = index >>> 5;
    }

    /** Starts the thread at the entry of {@code entry}. */
    void start(PtxFunction entry, long[] regs, int tx, int ty, int tz, long localStart) {
        this.fn = entry;
        this.code = entry.code;
        this.regs = regs;
        this.pc = 0;
        this.carry = 0;
        this.state = RUNNABLE;
        this.tx = tx;
        this.ty = ty;
        this.tz = tz;
        this.localStart = localStart;
        this.localBase = 0;
        this.params = entry.paramBytes == 0 ? null : MemorySegment.ofArray(new long[(entry.paramBytes + 7) / 8]);
        this.depth = 0;
    }

    /** Enters {@code callee} from the CALL at {@link #pc}; arguments are copied into its parameter area. */
    void call(Insn.CallSite site, long stackLimit) {
        PtxFunction callee = site.function;
        long newLocal = localBase + fn.localBytes;
        if (newLocal + callee.localBytes > stackLimit) {
            throw new PtxTrap(dev.polygpu.device.CudaError.LAUNCH_FAILED, "stack overflow calling " + callee.name
                    + ": the call chain needs more than the " + stackLimit + " bytes of local memory per thread");
        }
        if (depth == stack.length) {
            stack = java.util.Arrays.copyOf(stack, depth * 2);
        }
        stack[depth++] = new Frame(fn, regs, pc, params, localBase, site);
        MemorySegment calleeParams = MemorySegment.ofArray(new long[(callee.paramBytes + 7) / 8 + 1]);
        for (int i = 0; i < site.argOffsets.length; i++) {
            MemorySegment.copy(params, site.argOffsets[i], calleeParams, callee.paramOffsets[i],
                    callee.paramSizes[i]);
        }
        fn = callee;
        code = callee.code;
        regs = callee.registerTemplate.clone();
        pc = 0;
        params = calleeParams;
        localBase = newLocal;
    }

    /** Returns from a function to its caller, copying its results; false at the entry (the thread exits). */
    boolean ret() {
        if (depth == 0) {
            return false;
        }
        Frame f = stack[--depth];
        stack[depth] = null;
        for (int i = 0; i < f.site.retOffsets.length; i++) {
            MemorySegment.copy(params, fn.returnOffsets[i], f.params, f.site.retOffsets[i], fn.returnSizes[i]);
        }
        fn = f.fn;
        code = f.fn.code;
        regs = f.regs;
        pc = f.pc + 1;
        params = f.params;
        localBase = f.localBase;
        return true;
    }

    /** The instruction of the call that made frame {@code i + 1} (frame 0 is the entry's), for i < depth. */
    int callPc(int i) {
        return stack[i].pc();
    }

    /** The function the thread is in, for messages. */
    String where() {
        return fn.name;
    }

    private record Frame(PtxFunction fn, long[] regs, int pc, MemorySegment params, long localBase,
            Insn.CallSite site) {
    }
}
