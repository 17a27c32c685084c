package dev.polygpu.device.cpu.oracle.gen;

/**
 * Warp and block collectives inside expressions. Every one uses the full mask and is generated only where
 * control is uniform enough: warp intrinsics where the whole warp is converged (blocks are whole warps),
 * {@code __syncthreads_count} and its kin where the whole block is. A vote's result is the same in every lane
 * (level WARP), a block reduction's in every thread (BLOCK); a shuffle's differs per lane.
 */
final class Warps {
    static final String FULL = "0xffffffffu";

    private Warps() {
    }

    static Expr intExpr(ExprGen ex, Construct which, Prim t, Ctx c, int depth, Level max) {
        GenState g = ex.g;
        switch (which) {
            case BALLOT -> {
                g.cover(Construct.BALLOT);
                return Expr.op(Prim.UINT, "__ballot_sync(" + FULL + ", $0)", 32, pred(ex, c, depth))
                        .withLevel(Level.WARP);
            }
            case VOTE -> {
                g.cover(Construct.VOTE);
                String f = g.rng.coin() ? "__all_sync" : "__any_sync";
                return Expr.op(Prim.INT, f + "(" + FULL + ", $0)", 1, pred(ex, c, depth)).withLevel(Level.WARP);
            }
            case ACTIVEMASK -> {
                g.cover(Construct.ACTIVEMASK);
                // After a __syncwarp: code before it may diverge where the source does not (nvcc's powf has
                // branches for its special cases), and CUDA does not say which lanes __activemask sees then.
                return Expr.op(Prim.UINT, "(__syncwarp(), __activemask())", 32).withLevel(Level.WARP);
            }
            case REDUCE_SYNC -> {
                g.cover(Construct.REDUCE_SYNC);
                String op = g.rng.pick("add", "min", "max", "and", "or", "xor");
                Prim at = op.equals("min") || op.equals("max") ? g.rng.pick(Prim.INT, Prim.UINT) : Prim.UINT;
                Expr v = ex.gen(at, c, depth - 1, Level.THREAD);
                return Expr.op(at, "__reduce_" + op + "_sync(" + FULL + ", $0)", 32, v).withLevel(Level.WARP);
            }
            case SYNCTHREADS_COUNT -> {
                g.cover(Construct.SYNCTHREADS_COUNT);
                String f = g.rng.pick("__syncthreads_count", "__syncthreads_and", "__syncthreads_or");
                return Expr.op(Prim.INT, f + "($0)", f.endsWith("count") ? 11 : 1, pred(ex, c, depth))
                        .withLevel(Level.BLOCK);
            }
            default -> {
                return shuffle(ex, g.rng.pick(Prim.INT, Prim.UINT, Prim.LLONG, Prim.ULLONG), c, depth);
            }
        }
    }

    /** True if {@code e} calls a warp or block collective itself (not through a function). */
    static boolean callsCollective(Expr e) {
        String s = Printer.expr(e);
        return s.contains("_sync(") || s.contains("__syncthreads") || s.contains("__activemask(");
    }

    private static Expr pred(ExprGen ex, Ctx c, int depth) {
        return ex.predicate(c, depth - 1, Level.THREAD);
    }

    /** A shuffle of a value of type {@code t} (an int, long long, float or double type). */
    static Expr shuffle(ExprGen ex, Prim t, Ctx c, int depth) {
        GenState g = ex.g;
        Expr v = ex.gen(t, c, depth - 1, Level.THREAD);
        String width = g.rng.percent(60) ? "" : ", " + g.rng.pick(32, 16, 8, 4, 2, 1);
        Construct kind = pickKind(g);
        g.cover(kind);
        Expr lane = ex.gen(g.rng.pick(Prim.INT, Prim.UINT, g.intType()), c, Math.min(depth, 2) - 1, Level.THREAD);
        boolean wide = g.roll(Construct.WIDE_LANE_ARGS, 40);
        if (wide) {
            g.cover(Construct.WIDE_LANE_ARGS);
        }
        String laneText = wide ? "$1" : "($1) & 31";
        String f = switch (kind) {
            case SHFL_UP -> "__shfl_up_sync";
            case SHFL_DOWN -> "__shfl_down_sync";
            case SHFL_XOR -> "__shfl_xor_sync";
            default -> "__shfl_sync";
        };
        return Expr.op(t, f + "(" + FULL + ", $0, " + laneText + width + ")", v.bits(), v, lane)
                .withLevel(Level.THREAD);
    }

    private static Construct pickKind(GenState g) {
        Construct[] ks = {Construct.SHFL, Construct.SHFL_UP, Construct.SHFL_DOWN, Construct.SHFL_XOR};
        int[] w = new int[ks.length];
        for (int i = 0; i < ks.length; i++) {
            w[i] = g.weight(ks[i]);
        }
        int k = g.rng.weighted(w);
        return k < 0 ? Construct.SHFL : ks[k];
    }
}
