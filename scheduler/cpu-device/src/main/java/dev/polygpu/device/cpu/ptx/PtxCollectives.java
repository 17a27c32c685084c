package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import java.util.List;

/**
 * The warp collectives: {@code shfl.sync}, {@code vote.sync}, {@code redux.sync}, {@code activemask} and
 * {@code bar.warp.sync}. Each decodes to a WARP {@link Insn}; the {@link PtxBlockRunner} runs a warp's lanes up
 * to the instruction and then evaluates it for all of them at once, after checking that the lanes each member
 * mask names are the lanes that are there. Inputs are read from every lane before any result is written, as
 * the lanes of a warp execute the instruction together. Lanes at different instructions of the same operation
 * with the same mask execute together (sm_70 allows it, and nvcc's optimized code relies on it where it
 * duplicates a block), each with its own instruction's operands and modes.
 */
final class PtxCollectives {
    private PtxCollectives() {
    }

    static void decode(PtxOps ops, String base) {
        List<String> mods = ops.mods();
        List<Operand> o = ops.operands();
        PtxDecoder.FnDecoder fd = ops.fn();
        Insn.Collective c = switch (base) {
            case "shfl" -> shfl(ops, mods, o);
            case "vote" -> vote(ops, mods, o);
            case "redux" -> redux(ops, mods, o);
            case "activemask" -> activemask(ops, o);
            default -> { // bar.warp.sync mask
                if (o.size() != 1) {
                    throw ops.invalidHere("bar.warp.sync takes a member mask");
                }
                yield new Collective("bar.warp.sync", ops.srcReg(0, "b32")) {
                    @Override
                    public long input(PtxThread t) {
                        return 0;
                    }

                    @Override
                    public void complete(PtxThread t, long[] inputs, long here) {
                    }
                };
            }
        };
        fd.markCooperative();
        Insn in = fd.emit(ops.instr(), Insn.WARP, null);
        in.collective = c;
    }

    /**
     * Executes the collective that {@code lanes[0..count)} wait at (each at its own instruction), reading every
     * lane's input before writing any result.
     */
    static void execute(PtxThread[] lanes, int count) {
        long[] inputs = new long[32];
        long here = 0;
        for (int i = 0; i < count; i++) {
            PtxThread t = lanes[i];
            inputs[t.lane] = t.code[t.pc].collective.input(t);
            here |= 1L << t.lane;
        }
        for (int i = 0; i < count; i++) {
            PtxThread t = lanes[i];
            t.code[t.pc].collective.complete(t, inputs, here);
        }
    }

    private abstract static class Collective implements Insn.Collective {
        /** The operation lanes must share to meet; null where they must be at the same instruction. */
        private final String operation;
        private final int mask;

        Collective(String operation, int mask) {
            this.operation = operation;
            this.mask = mask;
        }

        @Override
        public int maskRegister() {
            return mask;
        }

        @Override
        public boolean meets(Insn.Collective other) {
            return other == this
                    || operation != null && other instanceof Collective c && operation.equals(c.operation);
        }
    }

    private static void requireSync(PtxOps ops, List<String> mods) {
        if (!mods.contains("sync")) {
            throw ops.unsupportedHere(ops.instr().opcode() + " without .sync (the pre-Volta form)");
        }
    }

    /** {@code activemask}: the lanes executing it together, so only those at this very instruction. */
    private static Insn.Collective activemask(PtxOps ops, List<Operand> o) {
        ops.checkMods();
        if (!"b32".equals(ops.oneType()) || o.size() != 1) {
            throw ops.invalidHere("activemask.b32 takes one register");
        }
        int d = ops.dstReg(0);
        return new Collective(null, -1) {
            @Override
            public long input(PtxThread t) {
                return 0;
            }

            @Override
            public void complete(PtxThread t, long[] inputs, long here) {
                t.regs[d] = here;
            }
        };
    }

    private static Insn.Collective shfl(PtxOps ops, List<String> mods, List<Operand> o) {
        requireSync(ops, mods);
        String mode = null;
        for (String m : mods) {
            switch (m) {
                case "up", "down", "bfly", "idx" -> mode = m;
                case "sync", "b32" -> {
                }
                default -> throw ops.unsupportedHere("shfl modifier ." + m);
            }
        }
        if (mode == null || o.size() != 5) {
            throw ops.invalidHere("shfl.sync needs a mode and 5 operands");
        }
        String pair = ops.instr().pairWith();
        int d = ops.dstReg(0);
        int p = pair == null ? -1 : ops.fn().lookup(pair, ops.instr().line()).reg();
        int a = ops.srcReg(1, "b32");
        int b = ops.srcReg(2, "b32");
        int c = ops.srcReg(3, "b32");
        int kind = switch (mode) {
            case "up" -> 0;
            case "down" -> 1;
            case "bfly" -> 2;
            default -> 3;
        };
        return new Collective("shfl", ops.srcReg(4, "b32")) {
            @Override
            public long input(PtxThread t) {
                return t.regs[a];
            }

            @Override
            public void complete(PtxThread t, long[] inputs, long here) {
                long[] r = t.regs;
                int lane = t.lane;
                int bval = (int) (r[b] & 31);
                int cval = (int) (r[c] & 31);
                int seg = (int) ((r[c] >>> 8) & 31);
                int maxLane = (lane & seg) | (cval & ~seg);
                int minLane = lane & seg;
                int j;
                boolean pval;
                switch (kind) {
                    case 0 -> {
                        j = lane - bval;
                        pval = j >= maxLane;
                    }
                    case 1 -> {
                        j = lane + bval;
                        pval = j <= maxLane;
                    }
                    case 2 -> {
                        j = lane ^ bval;
                        pval = j <= maxLane;
                    }
                    default -> {
                        j = minLane | (bval & ~seg);
                        pval = j <= maxLane;
                    }
                }
                if (!pval || j < 0 || j > 31) {
                    j = lane;
                }
                // a source lane that is not there (past the end of a partial warp) is undefined in CUDA: the lane
                // keeps its own value
                r[d] = (here & (1L << j)) != 0 ? inputs[j] : inputs[lane];
                if (p >= 0) {
                    r[p] = pval ? 1 : 0;
                }
            }
        };
    }

    private static Insn.Collective vote(PtxOps ops, List<String> mods, List<Operand> o) {
        requireSync(ops, mods);
        String mode = null;
        for (String m : mods) {
            switch (m) {
                case "all", "any", "uni", "ballot" -> mode = m;
                case "sync", "pred", "b32" -> {
                }
                default -> throw ops.unsupportedHere("vote modifier ." + m);
            }
        }
        if (mode == null || o.size() != 3) {
            throw ops.invalidHere("vote.sync needs a mode and 3 operands");
        }
        int d = ops.dstReg(0);
        int pr = ops.predReg(o.get(1));
        int p = pr < 0 ? ~pr : pr;
        boolean neg = pr < 0;
        int maskReg = ops.srcReg(2, "b32");
        String m = mode;
        return new Collective("vote", maskReg) {
            @Override
            public long input(PtxThread t) {
                return (t.regs[p] != 0) != neg ? 1 : 0;
            }

            @Override
            public void complete(PtxThread t, long[] inputs, long here) {
                long mask = t.regs[maskReg] & 0xFFFF_FFFFL;
                long mine = 0;
                for (long left = here & mask; left != 0; left &= left - 1) {
                    int lane = Long.numberOfTrailingZeros(left);
                    mine |= inputs[lane] << lane;
                }
                t.regs[d] = switch (m) {
                    case "ballot" -> mine;
                    case "all" -> mine == mask ? 1 : 0;
                    case "any" -> mine != 0 ? 1 : 0;
                    default -> (mine == 0 || mine == mask) ? 1 : 0;
                };
            }
        };
    }

    private static Insn.Collective redux(PtxOps ops, List<String> mods, List<Operand> o) {
        requireSync(ops, mods);
        String op = null;
        for (String m : mods) {
            switch (m) {
                case "add", "min", "max", "and", "or", "xor" -> op = m;
                case "sync", "u32", "s32", "b32" -> {
                }
                default -> throw ops.unsupportedHere("redux modifier ." + m);
            }
        }
        String type = ops.oneType();
        if (op == null || o.size() != 3) {
            throw ops.invalidHere("redux.sync needs an operation and 3 operands");
        }
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, type);
        int maskReg = ops.srcReg(2, "b32");
        boolean signed = type.equals("s32");
        String f = op;
        return new Collective("redux." + f + "." + (signed ? "s" : "u"), maskReg) {
            @Override
            public long input(PtxThread t) {
                return signed ? (int) t.regs[a] : t.regs[a] & 0xFFFF_FFFFL;
            }

            @Override
            public void complete(PtxThread t, long[] inputs, long here) {
                long acc = switch (f) {
                    case "and" -> -1L;
                    case "min" -> signed ? Integer.MAX_VALUE : 0xFFFF_FFFFL;
                    case "max" -> signed ? Integer.MIN_VALUE : 0;
                    default -> 0;
                };
                for (long left = here & t.regs[maskReg] & 0xFFFF_FFFFL; left != 0; left &= left - 1) {
                    long v = inputs[Long.numberOfTrailingZeros(left)];
                    acc = switch (f) {
                        case "add" -> acc + v;
                        case "min" -> Math.min(acc, v);
                        case "max" -> Math.max(acc, v);
                        case "and" -> acc & v;
                        case "or" -> acc | v;
                        default -> acc ^ v;
                    };
                }
                t.regs[d] = acc;
            }
        };
    }
}
