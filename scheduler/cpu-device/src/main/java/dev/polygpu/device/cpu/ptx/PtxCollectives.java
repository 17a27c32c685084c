package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import java.util.List;

/**
 * The warp collectives: {@code shfl.sync}, {@code vote.sync}, {@code redux.sync}, {@code activemask} and
 * {@code bar.warp.sync}. Each decodes to a WARP {@link Insn}; the {@link PtxBlockRunner} runs a warp's lanes up
 * to the instruction and then evaluates it for all of them at once, after checking that the lanes each member
 * mask names are the lanes that are there. Inputs are read from every lane before any result is written, as
 * the lanes of a warp execute the instruction together.
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
            case "activemask" -> {
                ops.checkMods();
                if (!"b32".equals(ops.oneType()) || o.size() != 1) {
                    throw ops.invalidHere("activemask.b32 takes one register");
                }
                int d = ops.dstReg(0);
                yield new Collective(-1) {
                    @Override
                    public void run(PtxThread[] lanes, int count) {
                        long m = 0;
                        for (int i = 0; i < count; i++) {
                            m |= 1L << lanes[i].lane;
                        }
                        for (int i = 0; i < count; i++) {
                            lanes[i].regs[d] = m;
                        }
                    }
                };
            }
            default -> { // bar.warp.sync mask
                if (o.size() != 1) {
                    throw ops.invalidHere("bar.warp.sync takes a member mask");
                }
                yield new Collective(ops.srcReg(0, "b32")) {
                    @Override
                    public void run(PtxThread[] lanes, int count) {
                    }
                };
            }
        };
        fd.markCooperative();
        Insn in = fd.emit(ops.instr(), Insn.WARP, null);
        in.collective = c;
    }

    private abstract static class Collective implements Insn.Collective {
        private final int mask;

        Collective(int mask) {
            this.mask = mask;
        }

        @Override
        public int maskRegister() {
            return mask;
        }
    }

    private static void requireSync(PtxOps ops, List<String> mods) {
        if (!mods.contains("sync")) {
            throw ops.unsupportedHere(ops.instr().opcode() + " without .sync (the pre-Volta form)");
        }
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
        return new Collective(ops.srcReg(4, "b32")) {
            @Override
            public void run(PtxThread[] lanes, int count) {
                long[] val = new long[32];
                boolean[] here = new boolean[32];
                for (int i = 0; i < count; i++) {
                    val[lanes[i].lane] = lanes[i].regs[a];
                    here[lanes[i].lane] = true;
                }
                long[] out = new long[count];
                boolean[] ok = new boolean[count];
                for (int i = 0; i < count; i++) {
                    long[] r = lanes[i].regs;
                    int lane = lanes[i].lane;
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
                    // a source lane that is not there (past the end of a partial warp) is undefined in CUDA: the
                    // lane keeps its own value
                    out[i] = here[j] ? val[j] : val[lane];
                    ok[i] = pval;
                }
                for (int i = 0; i < count; i++) {
                    lanes[i].regs[d] = out[i];
                    if (p >= 0) {
                        lanes[i].regs[p] = ok[i] ? 1 : 0;
                    }
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
        return new Collective(maskReg) {
            @Override
            public void run(PtxThread[] lanes, int count) {
                long ballot = 0;
                for (int i = 0; i < count; i++) {
                    if ((lanes[i].regs[p] != 0) != neg) {
                        ballot |= 1L << lanes[i].lane;
                    }
                }
                long[] out = new long[count];
                for (int i = 0; i < count; i++) {
                    long mask = lanes[i].regs[maskReg] & 0xFFFF_FFFFL;
                    long mine = ballot & mask;
                    out[i] = switch (m) {
                        case "ballot" -> mine;
                        case "all" -> mine == mask ? 1 : 0;
                        case "any" -> mine != 0 ? 1 : 0;
                        default -> (mine == 0 || mine == mask) ? 1 : 0;
                    };
                }
                for (int i = 0; i < count; i++) {
                    lanes[i].regs[d] = out[i];
                }
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
        boolean signed = type.equals("s32");
        String f = op;
        return new Collective(ops.srcReg(2, "b32")) {
            @Override
            public void run(PtxThread[] lanes, int count) {
                long acc = switch (f) {
                    case "and" -> -1L;
                    case "min" -> signed ? Integer.MAX_VALUE : 0xFFFF_FFFFL;
                    case "max" -> signed ? Integer.MIN_VALUE : 0;
                    default -> 0;
                };
                for (int i = 0; i < count; i++) {
                    long v = signed ? (int) lanes[i].regs[a] : lanes[i].regs[a] & 0xFFFF_FFFFL;
                    acc = switch (f) {
                        case "add" -> acc + v;
                        case "min" -> Math.min(acc, v);
                        case "max" -> Math.max(acc, v);
                        case "and" -> acc & v;
                        case "or" -> acc | v;
                        default -> acc ^ v;
                    };
                }
                for (int i = 0; i < count; i++) {
                    lanes[i].regs[d] = acc;
                }
            }
        };
    }
}
