package dev.polygpu.device.cpu.ptx;

/**
 * One decoded PTX instruction: its kind, for those the interpreter's loop handles itself (branches, calls,
 * returns, barriers, warp collectives), or a {@link Step} for everything else; its guard predicate; and the
 * source line and text for fault messages. Immutable once the decoder has patched branch targets.
 */
final class Insn {
    static final int STEP = 0;
    static final int BRA = 1;
    static final int RET = 2;
    static final int EXIT = 3;
    static final int BAR = 4;
    static final int WARP = 5;
    static final int CALL = 6;

    final int kind;
    final Step step;
    /** The guard predicate's register, or -1. */
    final int guard;
    final boolean guardNeg;
    final int line;
    final String text;
    /** Branch target (BRA), patched once labels are known. */
    int target;
    /** The collective (WARP). */
    Collective collective;
    /** The call (CALL), its callee patched once every function is decoded. */
    CallSite call;
    /** For a BAR that also reduces a predicate over the block ({@code bar.red}), the reduction; null otherwise. */
    BarrierReduction reduction;

    Insn(int kind, Step step, int guard, boolean guardNeg, int line, String text) {
        this.kind = kind;
        this.step = step;
        this.guard = guard;
        this.guardNeg = guardNeg;
        this.line = line;
        this.text = text;
    }

    /** An operation on one thread's registers and memory. */
    @FunctionalInterface
    interface Step {
        void run(PtxThread t, long[] r);
    }

    /**
     * An operation that needs the lanes of a warp together ({@code shfl.sync}, {@code vote.sync},
     * {@code redux.sync}, {@code bar.warp.sync}, {@code activemask}). The runner gathers every lane's
     * {@link #input} before any lane's {@link #complete} writes its results, as the lanes execute it together.
     */
    interface Collective {
        /** The register holding the member mask, or -1 for an instruction without one ({@code activemask}). */
        int maskRegister();

        /**
         * True if lanes waiting here and lanes waiting at {@code other} execute together. From sm_70 on, the
         * lanes a mask names may meet at different instructions of the same operation (nvcc duplicates blocks
         * that hold a {@code shfl.sync}); each lane then uses its own instruction's operands.
         */
        boolean meets(Collective other);

        /** The value lane {@code t} contributes (the shuffled value, the vote's predicate, the reduced value). */
        long input(PtxThread t);

        /** Writes lane {@code t}'s results from the {@code inputs} of the lanes in {@code here}, by lane. */
        void complete(PtxThread t, long[] inputs, long here);
    }

    /**
     * {@code bar.red}: when the barrier opens, every thread's predicate (register {@code pred}, negated if
     * {@code negate}) is combined over the threads of the block by {@code op} and the result written to each
     * one's register {@code dst}: {@link #POPC} counts the true ones ({@code __syncthreads_count}), {@link #AND}
     * and {@link #OR} give 1 or 0 ({@code __syncthreads_and/_or}).
     */
    record BarrierReduction(int op, int dst, int pred, boolean negate) {
        static final int POPC = 0;
        static final int AND = 1;
        static final int OR = 2;

        /** The result for {@code trueCount} true predicates among {@code arrived} threads. */
        long result(int trueCount, int arrived) {
            return switch (op) {
                case POPC -> trueCount;
                case AND -> trueCount == arrived ? 1 : 0;
                default -> trueCount > 0 ? 1 : 0;
            };
        }
    }

    /**
     * A call: the callee, and where the arguments and results lie in the caller's and callee's parameter areas
     * ({@code argOffsets[i]}, {@code sizes[i]} bytes, to the callee's parameter {@code i}).
     */
    static final class CallSite {
        final String callee;
        final int[] argOffsets;
        final int[] retOffsets;
        PtxFunction function;
        /** A runtime function the interpreter implements ({@link PtxPrintf#VPRINTF}…), or 0 for a PTX function. */
        int builtin;

        CallSite(String callee, int[] argOffsets, int[] retOffsets) {
            this.callee = callee;
            this.argOffsets = argOffsets;
            this.retOffsets = retOffsets;
        }
    }
}
