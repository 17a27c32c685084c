package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import java.util.Arrays;

/**
 * Runs one block of a cooperative kernel (one with barriers or warp intrinsics) by interleaving its threads.
 *
 * <p>Each warp's lanes run, one after another, to their next yield point. Lanes waiting at a warp intrinsic
 * are grouped by site and served together: values are exchanged as the 32-lane hardware would, and the
 * lanes go on. When every live thread waits at a block barrier the barrier opens (threads that have exited
 * do not count, so an early {@code return} cannot hang the block). A warp intrinsic whose mask names a lane
 * that cannot arrive (exited, or waiting at a different yield point) is a fault, as compute-sanitizer's
 * synccheck would report it, rather than a silent wrong value or a hang.
 *
 * <p>Implementation notes: single-threaded; all state lives in the runner's {@link BlockState}.
 */
final class CoopScheduler {
    private static final byte RUNNABLE = 0;
    private static final byte WAITING = 1;
    private static final byte EXITED = 2;

    private final GeneratedKernel kernel;
    private final BlockState st;
    private final KernelInfo.Site[] sites;
    private byte[] status = new byte[0];
    private int[] at = new int[0];

    CoopScheduler(GeneratedKernel kernel, BlockState st) {
        this.kernel = kernel;
        this.st = st;
        this.sites = st.info().sites().toArray(KernelInfo.Site[]::new);
    }

    void runBlock(LaunchFrame f, int bx, int by, int bz) {
        int n = (int) f.block().volume();
        if (status.length != n) {
            status = new byte[n];
            at = new int[n];
        }
        Arrays.fill(status, RUNNABLE);
        st.resetThreads();
        int warps = (n + 31) >>> 5;
        while (true) {
            for (int w = 0; w < warps; w++) {
                runWarp(f, bx, by, bz, w << 5, Math.min(n, (w << 5) + 32));
            }
            if (!openBarrier(n)) {
                return;
            }
        }
    }

    /** Runs the lanes of one warp until each has exited or waits at a block barrier. */
    private void runWarp(LaunchFrame f, int bx, int by, int bz, int lo, int hi) {
        while (true) {
            for (int t = lo; t < hi; t++) {
                if (status[t] == RUNNABLE) {
                    st.setThread(t);
                    int site = kernel.resume(f, st, bx, by, bz, t);
                    if (site < 0) {
                        status[t] = EXITED;
                    } else {
                        status[t] = WAITING;
                        at[t] = site;
                    }
                }
            }
            boolean served = false;
            for (int t = lo; t < hi; t++) {
                if (status[t] == WAITING && !sites[at[t]].intrinsic().isBlockBarrier()) {
                    serveWarpSite(lo, hi, at[t]);
                    served = true;
                }
            }
            if (!served) {
                return;
            }
        }
    }

    /** Opens the block barrier if any thread waits at it; false when all threads have exited. */
    private boolean openBarrier(int n) {
        int live = 0;
        int count = 0;
        for (int t = 0; t < n; t++) {
            if (status[t] == WAITING) {
                live++;
                if (st.xValue[t] != 0) {
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

    /** Serves every lane of the warp [lo, hi) that waits at warp-level site {@code site}. */
    private void serveWarpSite(int lo, int hi, int site) {
        int group = 0;
        for (int t = lo; t < hi; t++) {
            if (status[t] == WAITING && at[t] == site) {
                group |= 1 << (t - lo);
            }
        }
        int exist = hi - lo == 32 ? -1 : (1 << (hi - lo)) - 1;
        Intrinsic op = sites[site].intrinsic();
        for (int t = lo; t < hi; t++) {
            if ((group & (1 << (t - lo))) == 0) {
                continue;
            }
            int lane = t - lo;
            int mask = st.xMask[t] & exist;
            if ((mask & (1 << lane)) == 0) {
                throw fault(t, site, "lane " + lane + " is not in its own mask 0x" + Integer.toHexString(st.xMask[t]));
            }
            int missing = mask & ~group;
            if (missing != 0) {
                int other = lo + Integer.numberOfTrailingZeros(missing);
                throw fault(t, site, "mask 0x" + Integer.toHexString(st.xMask[t]) + " names lane "
                        + (other - lo) + " (threadIdx " + threadText(other) + "), which " + whereIs(other, site));
            }
            st.xResult[t] = result(op, t, lo, lane, group, group & mask);
        }
        for (int t = lo; t < hi; t++) {
            if ((group & (1 << (t - lo))) != 0) {
                status[t] = RUNNABLE;
            }
        }
    }

    private long result(Intrinsic op, int t, int lo, int lane, int group, int members) {
        int width = st.xWidth[t];
        int base = lane & ~(width - 1);
        int src;
        switch (op) {
            case SHFL -> src = base + (st.xLane[t] & (width - 1));
            case SHFL_UP -> {
                src = lane - st.xLane[t];
                if (src < base) {
                    return st.xValue[t];
                }
            }
            case SHFL_DOWN -> {
                src = lane + st.xLane[t];
                if (src >= base + width) {
                    return st.xValue[t];
                }
            }
            case SHFL_XOR -> {
                src = lane ^ st.xLane[t];
                if (src >= base + width || src > 31) {
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
            default -> {
                return 0;
            }
        }
        // A source lane that is not taking part (inactive, or past the end of a partial warp) yields the
        // caller's own value; CUDA leaves it undefined.
        return src >= 0 && src < 32 && (group & (1 << src)) != 0 ? st.xValue[lo + src] : st.xValue[t];
    }

    private String whereIs(int t, int site) {
        if (status[t] == EXITED) {
            return "has already exited";
        }
        return "is waiting at " + sites[at[t]].describe() + " instead";
    }

    private String threadText(int t) {
        int x = t % st.bdx;
        int rest = t / st.bdx;
        return "(" + x + "," + rest % st.bdy + "," + rest / st.bdy + ")";
    }

    private KernelFault fault(int t, int site, String what) {
        st.setThread(t);
        KernelInfo.Site s = sites[site];
        return st.fault(CudaError.ILLEGAL_INSTRUCTION, s.intrinsic().cudaName + ": " + what,
                s.line() << 16 | s.column());
    }
}
