package dev.polygpu.device.cpu.kernel.exec;

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
    /** {@link #whereIs}, made once: the warp exchange asks it only for a fault's message. */
    private final WarpExchange.Whereabouts whereabouts = (state, t) -> whereIs(t);

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
        KernelInfo.Site s = sites[site];
        WarpExchange.serve(st, s.intrinsic(), lo, hi, group, s.line() << 16 | s.column(), whereabouts);
        byte[] status = st.status;
        for (int t = lo; t < hi; t++) {
            if ((group & (1 << (t - lo))) != 0) {
                status[t] = RUNNABLE;
            }
        }
        st.sleepClock().join(lo, group);
    }

    private String whereIs(int t) {
        if (st.status[t] == EXITED) {
            return "has already exited";
        }
        return "is waiting at " + sites[st.site[t]].describe() + " instead";
    }
}
