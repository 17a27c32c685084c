package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.LaunchCancellation;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import dev.polygpu.device.cpu.kernel.PrintfOutput;
import dev.polygpu.device.cpu.kernel.ast.GlobalVariable;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The scratch state of one {@link KernelRunner}: the block's shared memory, local arrays, the saved registers
 * of a cooperative kernel's threads, the values threads exchange at warp intrinsics and barriers, and the
 * coordinates of the running thread for fault messages, and the block's {@code __nanosleep} clocks. Generated
 * code reads and writes the public fields.
 *
 * <p>Implementation notes: owned by one worker thread at a time (a runner is never shared), so nothing here
 * is synchronized. Memory comes from automatic arenas: it is released by the garbage collector once the
 * runner is dropped. Shared memory is not cleared between blocks (CUDA leaves it uninitialized too).
 */
public final class BlockState {
    private final KernelInfo info;
    private final Arena arena = Arena.ofAuto();

    /**
     * Coordinates of the current block and thread. Generated code keeps tx/ty/tz current for kernels
     * without yield points, and {@link #tid} (the linear index) for cooperative ones.
     */
    public int bx, by, bz, tx, ty, tz;
    public int tid = -1;
    /**
     * True while the running code names the running thread by {@link #tid} (cooperative and region code), false
     * while it keeps {@code tx}, {@code ty}, {@code tz} current (the thread loop); the runner of a kernel with a swept
     * form sets it for the method it runs.
     */
    public boolean byTid;
    /** The most passes a sweep of the running block took ({@link GeneratedKernel#runBlockSwept}). */
    public int sweepPasses;
    /**
     * Threads the blocks of the running chunk ran as SIMD lanes, which generated code adds to (a plain field: one
     * worker owns this state); the runner hands the sum to {@link LaneRange} when the chunk ends.
     */
    public long laneThreads;
    /** Blocks of the running chunk that ran in stretches ({@link GeneratedKernel#runBlocks}), handed on likewise. */
    long blocksTogether;
    /** Block extents of the current launch. */
    public int bdx, bdy, bdz;
    private LaunchFrame frame;
    /** The current launch's stop request, which generated code polls at loop back-edges. */
    public LaunchCancellation cancel;

    private final SleepClock sleepClock = new SleepClock();

    /** Where this block's printf records go ({@link DevicePrint}); null unless the kernel prints. */
    public PrintfOutput.Writer printf;

    private MemorySegment sharedMemory = MemorySegment.NULL;
    private final MemorySegment[] sharedSlices;
    private MemorySegment[] locals = new MemorySegment[0];
    private int threadsPerBlock;

    /** Saved registers of cooperative threads: thread t's slot i is at t * slots + i. */
    public long[] prims = new long[0];
    public Object[] refs = new Object[0];
    /** Per thread: 0 = not started, k + 1 = resume after yield site k. */
    public int[] resumePoint = new int[0];
    /** Per thread: 0 = runnable, 1 = waiting at {@link #site}, 2 = exited (cooperative kernels). */
    public byte[] status = new byte[0];
    /** Per thread: the yield site it waits at. */
    public int[] site = new int[0];
    /** Per thread: its threadIdx, precomputed for the block shape of the launch. */
    public int[] threadX = new int[0];
    public int[] threadY = new int[0];
    public int[] threadZ = new int[0];

    /** What each thread deposited at its current yield site, and the result it receives. */
    public int[] xMask = new int[0];
    public long[] xValue = new long[0];
    public int[] xLane = new int[0];
    public int[] xWidth = new int[0];
    public long[] xResult = new long[0];

    public BlockState(KernelInfo info) {
        this.info = info;
        this.byTid = info.regions() || info.cooperative();
        this.sharedSlices = new MemorySegment[info.sharedNames().size()];
    }

    public KernelInfo info() {
        return info;
    }

    LaunchFrame frame() {
        return frame;
    }

    /** Prepares for a block of {@code frame}: shared memory sized for the launch, per-thread arrays. */
    void beginBlock(LaunchFrame f, int bx, int by, int bz) {
        this.bx = bx;
        this.by = by;
        this.bz = bz;
        if (f != frame) {
            beginLaunch(f);
        }
        sleepClock.newBlock();
        sleepClock.newPhase();
    }

    private void beginLaunch(LaunchFrame f) {
        frame = f;
        cancel = f.cancellation();
        bdx = f.block().x();
        bdy = f.block().y();
        bdz = f.block().z();
        long needShared = (long) info.staticShared() + f.dynamicSharedBytes();
        // never the NULL segment, even for no shared memory: an access of an empty extern __shared__ array is
        // then reported as what it is, not as a null pointer dereference
        if (sharedMemory.byteSize() < Math.max(needShared, 16)) {
            sharedMemory = arena.allocate(Math.max(needShared, 16), 16);
        }
        for (int i = 0; i < sharedSlices.length; i++) {
            int off = info.sharedOffsets()[i];
            sharedSlices[i] = off < 0
                    ? sharedMemory.asSlice(info.staticShared(), f.dynamicSharedBytes())
                    : sharedMemory.asSlice(off, info.sharedSizes()[i]);
        }
        int threads = (int) f.block().volume();
        if (threads != threadsPerBlock) {
            threadsPerBlock = threads;
            int localThreads = info.perThread() ? threads : 1;
            locals = new MemorySegment[localThreads * info.localSizes().length];
            if (info.perThread()) {
                prims = new long[threads * info.primSlots()];
                refs = new Object[threads * info.refSlots()];
                resumePoint = new int[threads];
                status = new byte[threads];
                site = new int[threads];
                threadX = new int[threads];
                threadY = new int[threads];
                threadZ = new int[threads];
                xMask = new int[threads];
                xValue = new long[threads];
                xLane = new int[threads];
                xWidth = new int[threads];
                xResult = new long[threads];
            }
        }
        if (info.perThread()) {
            for (int t = 0; t < threads; t++) {
                threadX[t] = t % bdx;
                threadY[t] = t / bdx % bdy;
                threadZ[t] = t / bdx / bdy;
            }
        }
    }

    /** The segment of shared slot {@code slot} for the current launch. */
    public MemorySegment shared(int slot) {
        return sharedSlices[slot];
    }

    /** The memory of the module's {@code __device__}/{@code __constant__} variable in {@code slot}. */
    public MemorySegment global(int slot) {
        return info.memory().segment(slot);
    }

    /**
     * The local array {@code slot} of thread {@code tid} (tid is 0 for non-cooperative kernels, whose threads
     * run one after another). Allocated once per runner and reused; contents are stale, as C leaves them.
     */
    public MemorySegment local(int tid, int slot) {
        int i = tid * info.localSizes().length + slot;
        MemorySegment s = locals[i];
        if (s == null) {
            s = arena.allocate(Math.max(info.localSizes()[slot], 1), 16);
            locals[i] = s;
        }
        return s;
    }

    /** Makes every thread runnable from its start, before a block of a cooperative kernel. */
    void resetThreads() {
        Arrays.fill(resumePoint, 0);
        Arrays.fill(status, (byte) 0);
    }

    /**
     * CUDA's {@code __nanosleep(ns)} for the running thread ({@code ns} is an {@code unsigned int}): see
     * {@link SleepClock} for how the threads of a block sleep side by side. Then polls the launch's stop request
     * (the call at {@code pos}), so a kernel that sleeps in a loop stops within a sleep, however seldom its loop
     * polls ({@code codegen.LoopPolls}).
     */
    public void nanosleep(int ns, int pos) {
        int t = byTid ? tid : tx + bdx * (ty + bdy * tz);
        sleepClock.sleep(t, threadsPerBlock, Integer.toUnsignedLong(ns));
        if (cancel.requested()) {
            throw stopped(pos);
        }
    }

    /**
     * CUDA's {@code clock64()} (and {@code clock()}) for the running thread: nanoseconds of {@link System#nanoTime()}
     * plus the sleeps the thread shared with its block ({@link SleepClock#clock}); increasing within a thread.
     */
    public long clock64() {
        int t = byTid ? tid : tx + bdx * (ty + bdy * tz);
        return sleepClock.clock(t);
    }

    /** The {@code __nanosleep} clocks of the running block, for the cooperative scheduler. */
    SleepClock sleepClock() {
        return sleepClock;
    }

    /** Sets tx/ty/tz (and {@link #tid}) from a linear thread index. */
    public void setThread(int tid) {
        this.tid = tid;
        tx = tid % bdx;
        int rest = tid / bdx;
        ty = rest % bdy;
        tz = rest / bdy;
    }

    // ---- faults ---------------------------------------------------------------------------------------

    /** The fault for an access of {@code size} bytes at {@code offset} of {@code seg} outside its bounds. */
    public KernelFault outOfBounds(MemorySegment seg, long offset, int size, boolean write, int pos) {
        String what = (write ? "write" : "read") + " of " + size + " bytes";
        if (seg == null || seg.equals(MemorySegment.NULL) || seg.byteSize() == 0 && seg.address() == 0) {
            return fault(CudaError.ILLEGAL_ADDRESS, "null pointer dereference (" + what + ")", pos);
        }
        return fault(CudaError.ILLEGAL_ADDRESS, "out-of-bounds " + what + " " + describe(seg, offset, size), pos);
    }

    /**
     * The fault that ends a launch whose {@link #cancel stop} was requested, raised where the running thread
     * noticed it ({@code pos} is the loop or barrier, 0 if unknown).
     */
    public KernelFault stopped(int pos) {
        LaunchCancellation.Stop stop = cancel.stop();
        return fault(stop.error(), "stopped: " + stop.reason(), pos);
    }

    /**
     * The fault for a scalar load or store of {@code size} bytes at an address that is not a multiple of
     * {@code size}, as a GPU raises it (cudaErrorMisalignedAddress).
     */
    public KernelFault misalignedScalar(MemorySegment seg, long offset, int size, int pos) {
        long past = (seg.address() + offset) & (size - 1);
        return fault(CudaError.MISALIGNED_ADDRESS, "misaligned access of " + size + " bytes " + describe(seg, offset,
                size) + ": the address is " + past + " byte" + (past == 1 ? "" : "s") + " past a multiple of " + size
                + " (a pointer made by a cast from another pointer type, or moved by a number of bytes, must point to a"
                + " multiple of the accessed type's size)", pos);
    }

    /** The fault for an atomic operation on an address that is not a multiple of its size. */
    public KernelFault misaligned(MemorySegment seg, long offset, int size, int pos) {
        return fault(CudaError.MISALIGNED_ADDRESS, "misaligned atomic access of " + size + " bytes "
                + describe(seg, offset, size), pos);
    }

    /**
     * The fault for a load or store of a whole vector ({@code float4} …) at an address that is not a multiple of
     * the type's alignment, which a GPU's vector access requires.
     */
    public KernelFault misalignedVector(MemorySegment seg, long offset, int size, int align, String type,
            boolean write, int pos) {
        long past = (seg.address() + offset) & (align - 1);
        return fault(CudaError.MISALIGNED_ADDRESS, "misaligned " + (write ? "write" : "read") + " of " + type + " ("
                + size + " bytes, which need " + align + "-byte alignment) " + describe(seg, offset, size)
                + ": the address is " + past + " byte" + (past == 1 ? "" : "s") + " past a multiple of " + align
                + " (a vector pointer made from a scalar one must point to a multiple of " + align + " bytes)", pos);
    }

    /**
     * The fault for a load or store of a whole struct at an address that is not a multiple of the struct's
     * alignment (its largest member's), which a GPU's accesses of its members require.
     */
    public KernelFault misalignedStruct(MemorySegment seg, long offset, int size, int align, String type,
            boolean write, int pos) {
        long past = (seg.address() + offset) & (align - 1);
        return fault(CudaError.MISALIGNED_ADDRESS, "misaligned " + (write ? "write" : "read") + " of struct " + type
                + " (" + size + " bytes, which need " + align + "-byte alignment) " + describe(seg, offset, size)
                + ": the address is " + past + " byte" + (past == 1 ? "" : "s") + " past a multiple of " + align
                + " (a struct pointer made from another pointer must point to a multiple of " + align + " bytes)",
                pos);
    }

    /**
     * The fault for a store (or an atomic) through {@code seg}, a pointer parameter that the launch passed
     * read-only, or one derived from it.
     */
    public KernelFault readOnlyWrite(MemorySegment seg, int pos) {
        GlobalVariable g = moduleVariable(seg);
        if (g != null) {
            return fault(CudaError.NOT_PERMITTED, "wrote through a pointer to " + g.describe() + ", which is "
                    + (g.var().kind == Var.Kind.CONSTANT ? "constant memory, read-only in kernel code; declare it"
                            + " __device__ if kernels change it" : "declared const"), pos);
        }
        return fault(CudaError.NOT_PERMITTED, KernelFault.readOnlyWrite(frame.readOnlyParameters(seg)), pos);
    }

    /** A fault with the kernel, block and thread named, as compute-sanitizer reports them. */
    public KernelFault fault(CudaError error, String what, int pos) {
        if (byTid && tid >= 0) {
            setThread(tid);
        }
        StringBuilder sb = new StringBuilder();
        sb.append("kernel '").append(info.kernelName()).append("' ");
        if (pos != 0) {
            sb.append("(line ").append(pos >>> 16).append(", column ").append(pos & 0xFFFF).append(") ");
        }
        sb.append("at blockIdx (").append(bx).append(',').append(by).append(',').append(bz)
                .append(") threadIdx (").append(tx).append(',').append(ty).append(',').append(tz).append("): ")
                .append(what);
        return new KernelFault(error, sb.toString());
    }

    private String describe(MemorySegment seg, long offset, int size) {
        LaunchFrame f = frame;
        if (f != null) {
            for (int i = 0; i < f.segments().length; i++) {
                MemorySegment a = f.segments()[i];
                if (a != null && sameMemory(a, seg)) {
                    long base = f.values()[i];
                    long rel = offset - base;
                    String index = rel % size == 0 ? "index " + rel / size : "byte " + rel;
                    return "at " + index + " of argument '" + f.names()[i] + "' (buffer #" + f.bufferIds()[i]
                            + ", " + (a.byteSize() - base) + " bytes from the pointer passed, "
                            + (a.byteSize() - base) / size + " elements of " + size + " bytes)";
                }
            }
        }
        for (int i = 0; i < sharedSlices.length; i++) {
            if (sharedSlices[i] != null && sameMemory(sharedSlices[i], seg)) {
                if (info.sharedOffsets()[i] < 0) {
                    return "at " + indexText(offset, size) + " of extern __shared__ array '"
                            + info.sharedNames().get(i) + "', which has the launch's dynamic shared memory size: "
                            + seg.byteSize() + " bytes" + (seg.byteSize() == 0 ? " (the launch gave none: pass the"
                            + " bytes the kernel needs as the shared-memory size of the launch configuration)" : "");
                }
                return "at " + indexText(offset, size) + " of __shared__ array '" + info.sharedNames().get(i)
                        + "' (" + seg.byteSize() + " bytes)";
            }
        }
        GlobalVariable g = moduleVariable(seg);
        if (g != null) {
            return "at " + indexText(offset, size) + " of " + g.describe() + " (" + seg.byteSize() + " bytes)";
        }
        for (int i = 0; i < locals.length; i++) {
            if (locals[i] != null && sameMemory(locals[i], seg)) {
                int slot = i % info.localSizes().length;
                return "at " + indexText(offset, size) + " of local array '" + info.localNames().get(slot)
                        + "' (" + info.localSizes()[slot] + " bytes)";
            }
        }
        return "at byte offset " + offset + " of a " + seg.byteSize() + "-byte region";
    }

    /** The module variable whose memory {@code seg} is, or null. */
    private GlobalVariable moduleVariable(MemorySegment seg) {
        ModuleMemory m = info.memory();
        for (int i = 0; i < m.variables().size(); i++) {
            if (sameMemory(m.segment(i), seg)) {
                return m.variables().get(i);
            }
        }
        return null;
    }

    private static String indexText(long offset, int size) {
        return offset % size == 0 ? "index " + offset / size : "byte " + offset;
    }

    private static boolean sameMemory(MemorySegment a, MemorySegment b) {
        return a == b || a.address() == b.address() && a.byteSize() == b.byteSize() && a.isNative() == b.isNative();
    }
}
