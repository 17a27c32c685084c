package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.cpu.kernel.BlockRunner;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.LaunchCancellation;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import dev.polygpu.device.cpu.kernel.PrintfOutput;
import java.lang.foreign.MemorySegment;

/**
 * Interprets the blocks of one PTX kernel on one worker thread.
 *
 * <p>Implementation notes. Each CUDA thread of the block is a {@link PtxThread} with its own register file
 * (copied from the entry's template: zeros and constants). A kernel without barriers or warp collectives runs
 * its threads one after the other, each to its end. A cooperative kernel runs them round-robin: each thread
 * runs until it reaches {@code bar.sync}, a warp collective, its exit, or a slice of {@link #SLICE}
 * instructions (so that a thread spinning on shared memory another thread of the block writes lets that one
 * run). When no thread can run: a collective whose lanes are all there (every live lane its member mask names,
 * each waiting at this or another instruction of the same operation with the same mask) is evaluated for them
 * at once; else, if every live thread waits at the same barrier, the barrier opens
 * (exited threads do not count, as in CUDA); else the block can never finish — threads wait at different
 * barriers, or a collective waits for a lane that is at a barrier — and the runner raises a fault naming both
 * sides instead of hanging.
 *
 * <p>A kernel that accesses non-local memory as {@code volatile} (warp-synchronous code that exchanges values
 * through {@code volatile __shared__} memory without {@code __syncwarp}) runs its warps in <em>lock step</em>
 * instead, as a GPU before Volta does: at each step the lanes of a warp at the earliest position in the program
 * (by call site, then by instruction index, which in nvcc's layout puts a branch's reconvergence point after
 * both its sides and a loop's exit after its body) execute one instruction each, so lanes that skipped a branch
 * wait for the others at the reconvergence point, and every lane of a converged warp executes a load before
 * any executes the next store. The layout is not always so: nvcc puts some rarely taken blocks (the special
 * cases of an inlined {@code powf}, for one) after the point where they rejoin, and the lanes that did not take
 * them run on from there alone until they reach a collective, a barrier or the end, which CUDA allows (it
 * guarantees no reconvergence without {@code __syncwarp}); an {@code activemask} there sees only them. Lanes at a barrier do not hold the warp back; lanes at a collective hold it until
 * it completes, unless its mask names lanes that are elsewhere, in which case the next lanes run, as above.
 * Each warp runs {@link #SLICE} steps before the next warp's turn, so warps that wait on each other's memory
 * progress. A lane that spins on a value another lane of its warp writes later in the program never lets that
 * lane run, as on a GPU before Volta.
 *
 * <p>State: everything here belongs to the worker thread that owns the runner (see {@code RunnerCache}); the
 * only memory shared with other workers is global memory, which instructions access through segments
 * (atomics through var handles). Faults of single instructions ({@link PtxTrap}) and accesses to a buffer
 * freed meanwhile ({@link IllegalStateException} from its closed arena) become a {@link KernelFault} naming
 * kernel, PTX line and instruction, block and thread.
 */
final class PtxBlockRunner implements BlockRunner {
    /** Instructions a thread of a cooperative block runs before the next one gets its turn. */
    static final int SLICE = 4096;

    private final PtxKernel kernel;
    private final PtxMemory mem;
    private PtxThread[] threads = new PtxThread[0];
    private long[][] regFiles = new long[0][];
    private LaunchFrame lastFrame;
    private final PtxThread[] group = new PtxThread[32];
    /** Where vprintf records go; null unless the module prints. */
    private PrintfOutput.Writer printf;

    PtxBlockRunner(PtxKernel kernel) {
        this.kernel = kernel;
        this.mem = new PtxMemory(kernel.global(), kernel.moduleRegions());
    }

    @Override
    public void printTo(PrintfOutput.Writer writer) {
        this.printf = writer;
    }

    @Override
    public void runBlock(LaunchFrame frame, int bx, int by, int bz) {
        if (frame != lastFrame) {
            setUp(frame);
        }
        mem.ctaX = bx;
        mem.ctaY = by;
        mem.ctaZ = bz;
        int n = mem.ntX * mem.ntY * mem.ntZ;
        PtxFunction entry = kernel.entry();
        long[] template = entry.registerTemplate;
        for (int i = 0; i < n; i++) {
            PtxThread t = threads[i];
            long[] regs = regFiles[i];
            System.arraycopy(template, 0, regs, 0, template.length);
            t.start(entry, regs, i % mem.ntX, (i / mem.ntX) % mem.ntY, i / (mem.ntX * mem.ntY),
                    (long) i * mem.localPerThread);
        }
        if (entry.lockstep) {
            scheduleLockstep(n);
            return;
        }
        if (!entry.cooperative) {
            for (int i = 0; i < n; i++) {
                PtxThread t = threads[i];
                while (t.state == PtxThread.RUNNABLE) {
                    run(t, SLICE);
                }
            }
            return;
        }
        schedule(n);
    }

    private void setUp(LaunchFrame frame) {
        Dim3 block = frame.block();
        Dim3 grid = frame.grid();
        mem.ntX = block.x();
        mem.ntY = block.y();
        mem.ntZ = block.z();
        mem.nctaX = grid.x();
        mem.nctaY = grid.y();
        mem.nctaZ = grid.z();
        int n = block.x() * block.y() * block.z();
        if (threads.length < n) {
            PtxThread[] more = new PtxThread[n];
            long[][] files = new long[n][];
            for (int i = 0; i < n; i++) {
                more[i] = i < threads.length ? threads[i] : new PtxThread(mem, i);
                files[i] = i < regFiles.length ? regFiles[i] : new long[kernel.entry().registerTemplate.length];
            }
            threads = more;
            regFiles = files;
        }
        mem.staticEnd = kernel.staticSharedBytes();
        mem.dynBase = frame.dynamicSharedBytes() > 0 ? kernel.dynamicSharedBase() : mem.staticEnd;
        mem.dynEnd = mem.dynBase + frame.dynamicSharedBytes();
        long sharedBytes = Math.max(mem.staticEnd, mem.dynEnd);
        if (mem.shared == null || mem.shared.byteSize() < sharedBytes) {
            mem.shared = MemorySegment.ofArray(new long[(int) ((sharedBytes + 7) / 8)]);
        }
        mem.localPerThread = kernel.localPerThread();
        long localBytes = mem.localPerThread * n;
        if (mem.local == null || mem.local.byteSize() < localBytes) {
            mem.local = MemorySegment.ofArray(new long[(int) ((localBytes + 7) / 8)]);
        }
        mem.kernelParams = kernel.parameterBlock(frame);
        mem.beginLaunch(frame);
        lastFrame = frame;
    }

    /** Round-robin over the block's threads until all have exited (see the class notes). */
    private void schedule(int n) {
        while (true) {
            int runnable = 0;
            int live = 0;
            int atWarp = 0;
            for (int i = 0; i < n; i++) {
                PtxThread t = threads[i];
                if (t.state == PtxThread.RUNNABLE) {
                    run(t, SLICE);
                }
                int s = t.state;
                if (s == PtxThread.RUNNABLE) {
                    runnable++;
                } else if (s == PtxThread.AT_WARP) {
                    atWarp++;
                }
                if (s != PtxThread.EXITED) {
                    live++;
                }
            }
            if (runnable > 0) {
                continue;
            }
            if (live == 0) {
                return;
            }
            if (atWarp > 0 && resolveCollectives(n)) {
                continue;
            }
            if (atWarp == 0) {
                releaseBarrier(n);
                continue;
            }
            throw stuckCollective(n);
        }
    }

    /** Runs the warps of a {@code volatile} kernel in lock step until all threads have exited (class notes). */
    private void scheduleLockstep(int n) {
        while (true) {
            boolean moved = false;
            for (int first = 0; first < n; first += 32) {
                moved |= runWarpLockstep(first, Math.min(n, first + 32));
            }
            if (moved) {
                continue;
            }
            int live = 0;
            int atWarp = 0;
            for (int i = 0; i < n; i++) {
                int s = threads[i].state;
                live += s != PtxThread.EXITED ? 1 : 0;
                atWarp += s == PtxThread.AT_WARP ? 1 : 0;
            }
            if (live == 0) {
                return;
            }
            if (atWarp > 0) {
                throw stuckCollective(n);
            }
            releaseBarrier(n);
        }
    }

    /**
     * Runs the warp of threads {@code [first, end)} for up to {@link #SLICE} steps; true if any lane moved. A step
     * runs one instruction of each lane at the earliest position, or completes the collective they all wait at.
     */
    private boolean runWarpLockstep(int first, int end) {
        long present = 0;
        for (int i = first; i < end; i++) {
            if (threads[i].state != PtxThread.EXITED) {
                present |= 1L << (i - first);
            }
        }
        // Lanes waiting at a collective that cannot complete yet: the lanes after them may run meanwhile.
        long parked = 0;
        boolean moved = false;
        int budget = SLICE;
        while (budget > 0) {
            int count = earliest(first, end, parked);
            if (count == 0) {
                return moved;
            }
            boolean ran = false;
            for (int k = 0; k < count; k++) {
                if (group[k].state == PtxThread.RUNNABLE) {
                    run(group[k], 1);
                    ran = true;
                    present &= group[k].state == PtxThread.EXITED ? ~(1L << group[k].lane) : -1L;
                }
            }
            if (!ran) {
                long earliestLanes = 0;
                for (int k = 0; k < count; k++) {
                    earliestLanes |= 1L << group[k].lane;
                }
                int together = gather(group[0], first, end);
                long members = lanes(together);
                if (!ready(together, members, present)) {
                    parked |= earliestLanes;
                    continue;
                }
                complete(together);
            }
            parked = 0;
            moved = true;
            budget--;
        }
        return moved;
    }

    /**
     * Puts into {@link #group} the runnable lanes and those waiting at a collective (not {@code parked}) that are
     * at the earliest position of the warp {@code [first, end)}; returns how many.
     */
    private int earliest(int first, int end, long parked) {
        int count = 0;
        PtxThread lead = null;
        for (int i = first; i < end; i++) {
            PtxThread t = threads[i];
            if (t.state != PtxThread.RUNNABLE && t.state != PtxThread.AT_WARP || (parked & (1L << t.lane)) != 0) {
                continue;
            }
            int c = lead == null ? -1 : compare(t, lead);
            if (c < 0) {
                lead = t;
                count = 0;
            }
            if (c <= 0) {
                group[count++] = t;
            }
        }
        return count;
    }

    /**
     * Orders two threads of a warp by where they are in the program: the call sites of their frames, outermost
     * first, then the instruction; a thread at a call comes before those already inside it.
     */
    private static int compare(PtxThread a, PtxThread b) {
        if (a.depth == 0 && b.depth == 0) {
            return Integer.compare(a.pc, b.pc);
        }
        int d = Math.min(a.depth, b.depth);
        for (int i = 0; i < d; i++) {
            int c = Integer.compare(a.callPc(i), b.callPc(i));
            if (c != 0) {
                return c;
            }
        }
        int pa = a.depth > d ? a.callPc(d) : a.pc;
        int pb = b.depth > d ? b.callPc(d) : b.pc;
        return pa != pb ? Integer.compare(pa, pb) : Integer.compare(a.depth, b.depth);
    }

    /**
     * Evaluates, in each warp, the first collective (by its lowest waiting lane) whose lanes are all there; true
     * if one was.
     */
    private boolean resolveCollectives(int n) {
        boolean any = false;
        for (int w = 0; w * 32 < n; w++) {
            int first = w * 32;
            int end = Math.min(n, first + 32);
            long present = 0;
            for (int i = first; i < end; i++) {
                if (threads[i].state != PtxThread.EXITED) {
                    present |= 1L << (i - first);
                }
            }
            long tried = 0;
            for (int i = first; i < end; i++) {
                PtxThread t = threads[i];
                if (t.state != PtxThread.AT_WARP || (tried & (1L << t.lane)) != 0) {
                    continue;
                }
                int count = gather(t, first, end);
                long members = lanes(count);
                tried |= members;
                if (ready(count, members, present)) {
                    complete(count);
                    any = true;
                    break; // one collective per warp per round: the others may move meanwhile
                }
            }
        }
        return any;
    }

    /**
     * Puts into {@link #group} the lanes of the warp {@code [first, end)} that execute a collective together with
     * {@code leader}: those waiting at one that meets the leader's with the same member mask; returns how many.
     */
    private int gather(PtxThread leader, int first, int end) {
        Insn.Collective c = leader.code[leader.pc].collective;
        long mask = maskOf(leader);
        int count = 0;
        for (int i = first; i < end; i++) {
            PtxThread u = threads[i];
            if (u.state == PtxThread.AT_WARP && c.meets(u.code[u.pc].collective) && maskOf(u) == mask) {
                group[count++] = u;
            }
        }
        return count;
    }

    /** The member mask of the collective {@code t} waits at; -1 for one without a mask. */
    private static long maskOf(PtxThread t) {
        int reg = t.code[t.pc].collective.maskRegister();
        return reg < 0 ? -1 : t.regs[reg] & 0xFFFF_FFFFL;
    }

    private long lanes(int count) {
        long members = 0;
        for (int k = 0; k < count; k++) {
            members |= 1L << group[k].lane;
        }
        return members;
    }

    /** Executes the collective the first {@code count} lanes of {@link #group} wait at, and moves them on. */
    private void complete(int count) {
        PtxCollectives.execute(group, count);
        for (int k = 0; k < count; k++) {
            group[k].pc++;
            group[k].state = PtxThread.RUNNABLE;
        }
    }

    /**
     * True if every live lane the members' (common) mask names is a member. Lanes that exited or lie past the
     * end of a partial warp are not waited for.
     */
    private boolean ready(int count, long members, long present) {
        long mask = maskOf(group[0]);
        if (mask == -1) {
            return true;
        }
        for (int k = 0; k < count; k++) {
            PtxThread u = group[k];
            if ((mask & (1L << u.lane)) == 0) {
                throw fault(u, CudaError.ILLEGAL_INSTRUCTION, "the member mask 0x" + Long.toHexString(mask)
                        + " of a warp collective does not name the lane itself (lane " + u.lane + ")");
            }
        }
        return (mask & present & ~members) == 0;
    }

    private void releaseBarrier(int n) {
        PtxThread first = null;
        for (int i = 0; i < n; i++) {
            PtxThread t = threads[i];
            if (t.state != PtxThread.AT_BARRIER) {
                continue;
            }
            if (first == null) {
                first = t;
            } else if (t.code[t.pc] != first.code[first.pc]) {
                throw fault(t, CudaError.ILLEGAL_INSTRUCTION, "barrier divergence: this thread waits at the"
                        + " barrier on line " + t.code[t.pc].line + " while thread " + dims(first) + " waits at"
                        + " the one on line " + first.code[first.pc].line + "; the block can never go on (CUDA"
                        + " requires every thread of a block to reach the same __syncthreads)");
            }
        }
        Insn.BarrierReduction red = first == null ? null : first.code[first.pc].reduction;
        if (red != null) {
            reduce(red, n);
        }
        for (int i = 0; i < n; i++) {
            PtxThread t = threads[i];
            if (t.state == PtxThread.AT_BARRIER) {
                t.pc++;
                t.state = PtxThread.RUNNABLE;
            }
        }
    }

    /** {@code bar.red}: every waiting thread's predicate read before any result is written. */
    private void reduce(Insn.BarrierReduction red, int n) {
        int arrived = 0;
        int trueCount = 0;
        for (int i = 0; i < n; i++) {
            PtxThread t = threads[i];
            if (t.state == PtxThread.AT_BARRIER) {
                arrived++;
                if ((t.regs[red.pred()] != 0) != red.negate()) {
                    trueCount++;
                }
            }
        }
        long value = red.result(trueCount, arrived);
        for (int i = 0; i < n; i++) {
            if (threads[i].state == PtxThread.AT_BARRIER) {
                threads[i].regs[red.dst()] = value;
            }
        }
    }

    private KernelFault stuckCollective(int n) {
        for (int i = 0; i < n; i++) {
            PtxThread t = threads[i];
            if (t.state != PtxThread.AT_WARP) {
                continue;
            }
            long mask = Math.max(0, maskOf(t));
            for (int lane = 0; lane < 32; lane++) {
                int k = t.warp * 32 + lane;
                if ((mask & (1L << lane)) == 0 || k >= n || threads[k].state == PtxThread.EXITED) {
                    continue;
                }
                PtxThread o = threads[k];
                boolean meets = o.state == PtxThread.AT_WARP && t.code[t.pc].collective.meets(o.code[o.pc].collective);
                if (meets && maskOf(o) != mask) {
                    return fault(t, CudaError.ILLEGAL_INSTRUCTION, "the warp collective's member mask 0x"
                            + Long.toHexString(mask) + " names lane " + lane + " (thread " + dims(o) + "), which"
                            + " waits at line " + o.code[o.pc].line + " ('" + o.code[o.pc].text + "') with mask 0x"
                            + Long.toHexString(maskOf(o)) + "; every lane a mask names must give the same mask");
                }
                if (!meets) {
                    return fault(t, CudaError.ILLEGAL_INSTRUCTION, "the warp collective waits for lane " + lane
                            + " (thread " + dims(o) + "), which waits at line " + o.code[o.pc].line + " ('"
                            + o.code[o.pc].text + "') and can never reach it");
                }
            }
        }
        return fault(threads[0], CudaError.LAUNCH_FAILED, "the block's threads wait for each other");
    }

    /** Runs {@code t} until it blocks or exits, or for {@code budget} instructions. */
    private void run(PtxThread t, int budget) {
        // Each slice (and each lock-step instruction) first polls the launch's stop request.
        LaunchCancellation.Stop stop = lastFrame.cancellation().stop();
        if (stop != null) {
            throw fault(t, stop.error(), "stopped: " + stop.reason());
        }
        Insn[] code = t.code;
        long[] r = t.regs;
        int pc = t.pc;
        try {
            while (budget-- > 0) {
                Insn in = code[pc];
                if (in.guard >= 0 && (r[in.guard] != 0) == in.guardNeg) {
                    pc++;
                    continue;
                }
                switch (in.kind) {
                    case Insn.STEP -> {
                        in.step.run(t, r);
                        pc++;
                    }
                    case Insn.BRA -> pc = in.target;
                    case Insn.BAR -> {
                        t.pc = pc;
                        t.state = PtxThread.AT_BARRIER;
                        return;
                    }
                    case Insn.WARP -> {
                        t.pc = pc;
                        t.state = PtxThread.AT_WARP;
                        return;
                    }
                    case Insn.CALL -> {
                        t.pc = pc;
                        if (in.call.builtin != 0) {
                            PtxPrintf.call(t, in.call, printf);
                            pc++;
                            continue;
                        }
                        t.call(in.call, mem.localPerThread);
                        code = t.code;
                        r = t.regs;
                        pc = t.pc;
                    }
                    case Insn.RET -> {
                        t.pc = pc;
                        if (!t.ret()) {
                            t.state = PtxThread.EXITED;
                            return;
                        }
                        code = t.code;
                        r = t.regs;
                        pc = t.pc;
                    }
                    default -> {
                        t.pc = pc;
                        t.state = PtxThread.EXITED;
                        return;
                    }
                }
            }
            t.pc = pc;
        } catch (PtxTrap e) {
            t.pc = pc;
            throw fault(t, e.error, e.getMessage());
        } catch (IllegalStateException e) {
            t.pc = pc;
            throw fault(t, CudaError.ILLEGAL_ADDRESS, "access to a buffer that was freed while the kernel ran ("
                    + e.getMessage() + ")");
        } catch (IndexOutOfBoundsException e) {
            t.pc = pc;
            throw fault(t, CudaError.ILLEGAL_ADDRESS, "access outside a memory region (" + e.getMessage() + ")");
        }
    }

    private String dims(PtxThread t) {
        return "(" + t.tx + "," + t.ty + "," + t.tz + ")";
    }

    private KernelFault fault(PtxThread t, CudaError error, String what) {
        Insn in = t.pc < t.code.length ? t.code[t.pc] : null;
        StringBuilder sb = new StringBuilder("kernel '").append(kernel.name()).append("' (")
                .append(kernel.fileName());
        if (in != null) {
            sb.append(" line ").append(in.line).append(": ").append(in.text);
        }
        if (t.depth > 0) {
            sb.append(", in function ").append(t.where());
        }
        sb.append(") at blockIdx (").append(mem.ctaX).append(',').append(mem.ctaY).append(',').append(mem.ctaZ)
                .append(") threadIdx ").append(dims(t)).append(": ").append(what);
        return new KernelFault(error, sb.toString());
    }
}
