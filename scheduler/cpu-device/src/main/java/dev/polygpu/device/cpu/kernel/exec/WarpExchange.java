package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;

/**
 * What the lanes of a warp get from a warp intrinsic they meet at together: the values they deposited in
 * {@link BlockState}'s {@code x*} arrays are exchanged as the 32-lane hardware would, each lane's result left in
 * {@code xResult}. Both kernel forms serve their warp intrinsics here: the cooperative scheduler for the lanes it
 * found waiting at one site, and the barrier-region form ({@code codegen.RegionForm}) for the live lanes of a warp
 * that its generated code runs up to the intrinsic.
 *
 * <p>A mask that names a lane not taking part (exited, or elsewhere in the program) is a fault, as
 * compute-sanitizer's synccheck would report it, rather than a silent wrong value or a hang.
 */
public final class WarpExchange {
    /** The status of a lane in the region form that did not take the branch holding the running warp-level code. */
    public static final byte SKIPPED = 3;
    private static final byte EXITED = 2;
    private static final Intrinsic[] OPS = Intrinsic.values();

    /** Where a lane named by a mask but not taking part is, for a fault's message. */
    @FunctionalInterface
    interface Whereabouts {
        String of(BlockState st, int thread);
    }

    /** In the region form: exited, or skipped by a thread-dependent {@code if} ({@link #SKIPPED}). */
    private static final Whereabouts IN_REGIONS = (st, t) -> st.status[t] == EXITED ? "has already exited"
            : "does not take part: it did not take the branch that holds this call";

    private WarpExchange() {
    }

    /**
     * Serves intrinsic {@code op} (its ordinal), in the barrier-region form, for the lanes that are live and not
     * skipped ({@code status} 0) of each warp of the threads {@code [lo, hi)} (one warp, or the block);
     * {@code pos} is the call's line and column.
     */
    public static void serveLive(BlockState st, int op, int lo, int hi, int pos) {
        byte[] status = st.status;
        for (int w = lo; w < hi; w += 32) {
            int end = Math.min(w + 32, hi);
            int group = 0;
            for (int t = w; t < end; t++) {
                if (status[t] == 0) {
                    group |= 1 << (t - w);
                }
            }
            if (group == -1 && fullWarpShuffle(st, OPS[op], w)) {
                continue;
            }
            if (group != 0) {
                serve(st, OPS[op], w, end, group, pos, IN_REGIONS);
            }
        }
    }

    /**
     * Serves {@code op} for lanes {@code group} of the warp {@code [lo, hi)}, which all reached it; {@code whereIs}
     * says, for a fault message, where a lane named by a mask but not in the group is.
     */
    static void serve(BlockState st, Intrinsic op, int lo, int hi, int group, int pos, Whereabouts whereIs) {
        int exist = hi - lo == 32 ? -1 : (1 << (hi - lo)) - 1;
        for (int t = lo; t < hi; t++) {
            if ((group & (1 << (t - lo))) == 0) {
                continue;
            }
            int lane = t - lo;
            // A warp step and __activemask have no mask of their own: the lanes that reach them together are
            // the ones that take part.
            int mask = takesArrivals(op) ? group : st.xMask[t] & exist;
            if ((mask & (1 << lane)) == 0) {
                throw fault(st, t, op, pos, "lane " + lane + " is not in its own mask 0x"
                        + Integer.toHexString(st.xMask[t]));
            }
            int missing = mask & ~group;
            if (missing != 0) {
                int other = lo + Integer.numberOfTrailingZeros(missing);
                throw fault(st, t, op, pos, "mask 0x" + Integer.toHexString(st.xMask[t]) + " names lane "
                        + (other - lo) + " (threadIdx " + threadText(st, other) + "), which " + whereIs.of(st, other));
            }
            int width = st.xWidth[t];
            if (isShuffle(op) && (width <= 0 || width > 32 || (width & (width - 1)) != 0)) {
                throw fault(st, t, op, pos, "width " + width + " is not a power of 2 between 1 and 32");
            }
            st.xResult[t] = result(st, op, t, lo, lane, group, group & mask);
        }
    }

    /**
     * The common case of a shuffle, served without {@link #serve}'s per-lane checks: all 32 lanes of the warp from
     * {@code lo} take part, each with the full mask and width 32 (the warp reductions and scans). False, having done
     * nothing, for any other case; the results are those {@link #result} gives.
     */
    private static boolean fullWarpShuffle(BlockState st, Intrinsic op, int lo) {
        if (!isShuffle(op)) {
            return false;
        }
        int[] mask = st.xMask;
        int[] width = st.xWidth;
        for (int t = lo; t < lo + 32; t++) {
            if (mask[t] != -1 || width[t] != 32) {
                return false;
            }
        }
        long[] value = st.xValue;
        long[] out = st.xResult;
        int[] operand = st.xLane;
        for (int lane = 0; lane < 32; lane++) {
            int b = operand[lo + lane] & 31;
            int src = switch (op) {
                case SHFL -> b;
                case SHFL_UP -> lane - b;
                case SHFL_DOWN -> lane + b;
                default -> lane ^ b;
            };
            out[lo + lane] = src >= 0 && src < 32 ? value[lo + src] : value[lo + lane];
        }
        return true;
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
    private static long result(BlockState st, Intrinsic op, int t, int lo, int lane, int group, int members) {
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
                return reduce(st, op, lo, members);
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
    private static long reduce(BlockState st, Intrinsic op, int lo, int members) {
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

    private static String threadText(BlockState st, int t) {
        return "(" + st.threadX[t] + "," + st.threadY[t] + "," + st.threadZ[t] + ")";
    }

    private static KernelFault fault(BlockState st, int t, Intrinsic op, int pos, String what) {
        st.setThread(t);
        return st.fault(CudaError.ILLEGAL_INSTRUCTION, op.cudaName + ": " + what, pos);
    }

    /** In the region form, after the {@code then} side of a branch: the lanes that skipped it run, the others wait. */
    public static void flipSkipped(BlockState st, int lo, int hi) {
        byte[] status = st.status;
        for (int t = lo; t < hi; t++) {
            if (status[t] == 0) {
                status[t] = SKIPPED;
            } else if (status[t] == SKIPPED) {
                status[t] = 0;
            }
        }
    }

    /**
     * In the region form, after a branch or a sweep: every lane marked {@code mark} (skipped, or done with a loop) is
     * live again.
     */
    public static void clearMark(BlockState st, int lo, int hi, int mark) {
        byte[] status = st.status;
        for (int t = lo; t < hi; t++) {
            if (status[t] == mark) {
                status[t] = 0;
            }
        }
    }

    /** True if some thread of the block's first {@code n} has not exited. */
    public static boolean anyLive(BlockState st, int n) {
        byte[] status = st.status;
        for (int t = 0; t < n; t++) {
            if (status[t] != EXITED) {
                return true;
            }
        }
        return false;
    }
}
