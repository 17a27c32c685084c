package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;

/**
 * Runs one block of a cooperative kernel (one with barriers or warp intrinsics) by interleaving its threads.
 *
 * <p>A kernel whose only yield points are block barriers runs the whole block, thread after thread, up to
 * the next barrier in one call of the generated code. A kernel with warp-level yield points (warp intrinsics,
 * the warp steps of {@code volatile} code, loop reconvergence points) runs warp by warp: the lanes of a warp run
 * to their next yield point; then only the lanes waiting at the warp-level site that comes <em>first in the
 * program</em> are served together (values exchanged as the 32-lane hardware would) and run on, and so on. When
 * every live thread waits at a block barrier the barrier opens; threads that have exited do not count, so an
 * early {@code return} cannot hang the block.
 *
 * <p><b>Reconvergence.</b> The code generator numbers the sites in layout order, where a branch's reconvergence
 * point follows both its sides and a loop's exit follows its body, and gives loops that could otherwise let a
 * lane overtake the others a site where each iteration ends ({@code codegen.Reconvergence}). Serving the
 * earliest site first (the "thread frontier", or min-PC, schedule) then lets lanes that took a branch run until
 * they reach the point where the others wait, so the lanes of a warp that reach a site together are those a
 * GPU's warp executes it with when it reconverges at each branch's immediate post-dominator (as GPUs before
 * Volta do, and nvcc's code for warp-synchronous kernels expects): a lane that skipped {@code if (lane < 2)}
 * reads the slots those two lanes write only after they wrote them. Which side of a divergent branch runs first
 * is not defined (nor is it on a GPU). {@code __activemask()} is a warp-level site too: it returns the lanes
 * served there together, so in a branch it names the lanes that took the branch.
 *
 * <p>A warp intrinsic's mask names the lanes that must meet there: one that names a lane that cannot arrive
 * (exited, or waiting at a later yield point) is a fault, as compute-sanitizer's synccheck would report it,
 * rather than a silent wrong value or a hang; a partial mask in divergent code works when the lanes it names
 * reach the site together. Barriers and warp intrinsics also keep the block's {@code __nanosleep} clocks as a
 * GPU would: a block barrier starts a new sleep phase, and lanes leaving a warp-level site share their latest
 * clock ({@link SleepClock}).
 *
 * <p>Implementation notes: single-threaded; all state lives in the runner's {@link BlockState}, whose
 * {@code status} and {@code site} arrays the generated code updates.
 */
final class CoopScheduler {
    private static final byte RUNNABLE = 0;
    private static final byte WAITING = 1;
    private static final byte EXITED = 2;

    private final GeneratedKernel kernel;
    private final BlockState st;
    private final KernelInfo.Site[] sites;
    private final boolean warpLevel;
    /** Per site: true for a warp-level one (not a block barrier). */
    private final boolean[] warpSite;
    /** Per site: true for a warp step or reconvergence point (warp-level, no mask, nothing exchanged). */
    private final boolean[] stepSite;
    /** True if some barrier is __syncthreads_count/and/or, whose predicates must be combined. */
    private final boolean predicates;

    CoopScheduler(GeneratedKernel kernel, BlockState st) {
        this.kernel = kernel;
        this.st = st;
        this.sites = st.info().sites().toArray(KernelInfo.Site[]::new);
        boolean any = false;
        this.warpSite = new boolean[sites.length];
        this.stepSite = new boolean[sites.length];
        for (int i = 0; i < sites.length; i++) {
            Intrinsic op = sites[i].intrinsic();
            warpSite[i] = !op.isBlockBarrier();
            stepSite[i] = op == Intrinsic.WARP_STEP || op == Intrinsic.WARP_RECONVERGE;
            any |= warpSite[i];
        }
        this.warpLevel = any;
        boolean pred = false;
        for (KernelInfo.Site s : sites) {
            pred |= s.intrinsic().isBlockBarrier() && s.intrinsic() != Intrinsic.SYNCTHREADS;
        }
        this.predicates = pred;
    }

    void runBlock(LaunchFrame f, int bx, int by, int bz) {
        int n = (int) f.block().volume();
        st.resetThreads();
        int warps = (n + 31) >>> 5;
        while (true) {
            if (warpLevel) {
                for (int w = 0; w < warps; w++) {
                    runWarp(f, bx, by, bz, w << 5, Math.min(n, (w << 5) + 32));
                }
            } else {
                kernel.resumeThreads(f, st, bx, by, bz, 0, n);
            }
            if (!openBarrier(n)) {
                return;
            }
            if (st.cancel.requested()) {
                throw st.stopped(0);
            }
            st.sleepClock().newPhase();
        }
    }

    /**
     * Runs the lanes of one warp until each has exited or waits at a block barrier. Each round serves only the
     * lanes waiting at the warp-level site that comes first in the program ({@link KernelInfo#sites()} are
     * numbered in layout order): the lanes still behind catch up with the others before those go on, which is
     * where a GPU's warp reconverges after a branch (see the class notes).
     */
    private void runWarp(LaunchFrame f, int bx, int by, int bz, int lo, int hi) {
        byte[] status = st.status;
        int[] at = st.site;
        boolean[] warpSite = this.warpSite;
        while (true) {
            if (st.cancel.requested()) {
                throw st.stopped(0);
            }
            kernel.resumeThreads(f, st, bx, by, bz, lo, hi);
            int first = Integer.MAX_VALUE;
            int group = 0;
            for (int t = lo; t < hi; t++) {
                if (status[t] == WAITING && warpSite[at[t]]) {
                    int site = at[t];
                    if (site < first) {
                        first = site;
                        group = 1 << (t - lo);
                    } else if (site == first) {
                        group |= 1 << (t - lo);
                    }
                }
            }
            if (group == 0) {
                return;
            }
            if (stepSite[first]) {
                // A warp step or reconvergence point has no mask and exchanges nothing: the lanes there go on.
                for (int g = group; g != 0; g &= g - 1) {
                    status[lo + Integer.numberOfTrailingZeros(g)] = RUNNABLE;
                }
                st.sleepClock().join(lo, group);
            } else {
                serveWarpSite(lo, hi, first, group);
            }
        }
    }

    /** Opens the block barrier if any thread waits at it; false when all threads have exited. */
    private boolean openBarrier(int n) {
        byte[] status = st.status;
        if (!predicates) {
            boolean any = false;
            for (int t = 0; t < n; t++) {
                if (status[t] == WAITING) {
                    status[t] = RUNNABLE;
                    any = true;
                }
            }
            return any;
        }
        int[] at = st.site;
        int live = 0;
        int count = 0;
        for (int t = 0; t < n; t++) {
            if (status[t] == WAITING) {
                live++;
                if (sites[at[t]].intrinsic() != Intrinsic.SYNCTHREADS && st.xValue[t] != 0) {
                    count++;
                }
            }
        }
        if (live == 0) {
            return false;
        }
        for (int t = 0; t < n; t++) {
            if (status[t] == WAITING) {
                st.xResult[t] = switch (sites[at[t]].intrinsic()) {
                    case SYNCTHREADS_COUNT -> count;
                    case SYNCTHREADS_AND -> count == live ? 1 : 0;
                    case SYNCTHREADS_OR -> count > 0 ? 1 : 0;
                    default -> 0;
                };
                status[t] = RUNNABLE;
            }
        }
        return true;
    }

    /** Serves the lanes {@code group} of the warp [lo, hi), which wait at warp intrinsic {@code site}. */
    private void serveWarpSite(int lo, int hi, int site, int group) {
        byte[] status = st.status;
        int exist = hi - lo == 32 ? -1 : (1 << (hi - lo)) - 1;
        Intrinsic op = sites[site].intrinsic();
        for (int t = lo; t < hi; t++) {
            if ((group & (1 << (t - lo))) == 0) {
                continue;
            }
            int lane = t - lo;
            // A warp step and __activemask have no mask of their own: the lanes that reach them together are
            // the ones that take part.
            int mask = takesArrivals(op) ? group : st.xMask[t] & exist;
            if ((mask & (1 << lane)) == 0) {
                throw fault(t, site, "lane " + lane + " is not in its own mask 0x" + Integer.toHexString(st.xMask[t]));
            }
            int missing = mask & ~group;
            if (missing != 0) {
                int other = lo + Integer.numberOfTrailingZeros(missing);
                throw fault(t, site, "mask 0x" + Integer.toHexString(st.xMask[t]) + " names lane "
                        + (other - lo) + " (threadIdx " + threadText(other) + "), which " + whereIs(other));
            }
            int width = st.xWidth[t];
            if (isShuffle(op) && (width <= 0 || width > 32 || (width & (width - 1)) != 0)) {
                throw fault(t, site, "width " + width + " is not a power of 2 between 1 and 32");
            }
            st.xResult[t] = result(op, t, lo, lane, group, group & mask);
        }
        for (int t = lo; t < hi; t++) {
            if ((group & (1 << (t - lo))) != 0) {
                status[t] = RUNNABLE;
            }
        }
        st.sleepClock().join(lo, group);
    }

    /** Whether {@code op}'s lanes are those that arrive at it, not those of a mask. */
    private static boolean takesArrivals(Intrinsic op) {
        return op == Intrinsic.WARP_STEP || op == Intrinsic.ACTIVEMASK;
    }

    private static boolean isShuffle(Intrinsic op) {
        return op == Intrinsic.SHFL || op == Intrinsic.SHFL_UP || op == Intrinsic.SHFL_DOWN
                || op == Intrinsic.SHFL_XOR;
    }

    /**
     * What lane {@code t} gets from {@code op}. Shuffles follow PTX's {@code shfl.sync}, which uses only the low 5
     * bits of its lane or offset operand (so {@code __shfl_down_sync(m, v, 33)} moves by 1); CUDA's width {@code w}
     * becomes its segment mask {@code 32 - w}, so a segment is the {@code w} lanes from {@code base}.
     */
    private long result(Intrinsic op, int t, int lo, int lane, int group, int members) {
        int width = st.xWidth[t];
        int base = lane & ~(width - 1);
        int b = st.xLane[t] & 31;
        int src;
        switch (op) {
            case SHFL -> src = base + (b & (width - 1));
            case SHFL_UP -> {
                src = lane - b;
                if (src < base) {
                    return st.xValue[t];
                }
            }
            case SHFL_DOWN -> {
                src = lane + b;
                if (src >= base + width) {
                    return st.xValue[t];
                }
            }
            case SHFL_XOR -> {
                src = lane ^ b;
                if (src >= base + width) {
                    return st.xValue[t];
                }
            }
            case BALLOT, ANY, ALL -> {
                int ballot = 0;
                for (int j = 0; j < 32; j++) {
                    if ((members & (1 << j)) != 0 && st.xValue[lo + j] != 0) {
                        ballot |= 1 << j;
                    }
                }
                return switch (op) {
                    case BALLOT -> Integer.toUnsignedLong(ballot);
                    case ANY -> ballot != 0 ? 1 : 0;
                    default -> ballot == members ? 1 : 0;
                };
            }
            case ACTIVEMASK -> {
                return Integer.toUnsignedLong(group);
            }
            case REDUCE_ADD, REDUCE_MIN, REDUCE_MAX, REDUCE_AND, REDUCE_OR, REDUCE_XOR -> {
                return reduce(op, lo, members);
            }
            default -> {
                return 0;
            }
        }
        // A source lane that is not taking part (inactive, or past the end of a partial warp) yields the
        // caller's own value; CUDA leaves it undefined.
        return src >= 0 && src < 32 && (group & (1 << src)) != 0 ? st.xValue[lo + src] : st.xValue[t];
    }

    /**
     * The reduction {@code op} of the values of lanes {@code members} of the warp starting at thread {@code lo}.
     * Values were deposited as longs (ints sign-extended, unsigneds zero-extended), so a long comparison orders
     * either kind right; the caller keeps the low 32 bits, which makes the sum wrap.
     */
    private long reduce(Intrinsic op, int lo, int members) {
        long acc = op == Intrinsic.REDUCE_AND ? -1L : 0L;
        boolean first = true;
        for (int j = 0; j < 32; j++) {
            if ((members & (1 << j)) == 0) {
                continue;
            }
            long v = st.xValue[lo + j];
            acc = switch (op) {
                case REDUCE_ADD -> acc + v;
                case REDUCE_MIN -> first ? v : Math.min(acc, v);
                case REDUCE_MAX -> first ? v : Math.max(acc, v);
                case REDUCE_AND -> acc & v;
                case REDUCE_OR -> acc | v;
                default -> acc ^ v;
            };
            first = false;
        }
        return acc;
    }

    private String whereIs(int t) {
        if (st.status[t] == EXITED) {
            return "has already exited";
        }
        return "is waiting at " + sites[st.site[t]].describe() + " instead";
    }

    private String threadText(int t) {
        return "(" + st.threadX[t] + "," + st.threadY[t] + "," + st.threadZ[t] + ")";
    }

    private KernelFault fault(int t, int site, String what) {
        st.setThread(t);
        KernelInfo.Site s = sites[site];
        return st.fault(CudaError.ILLEGAL_INSTRUCTION, s.intrinsic().cudaName + ": " + what,
                s.line() << 16 | s.column());
    }
}
