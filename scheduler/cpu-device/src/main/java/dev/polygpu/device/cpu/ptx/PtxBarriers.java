package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.ptx.PtxSyntax.Imm;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import java.util.List;

/**
 * {@code bar.red} (and {@code barrier.red}): a block barrier that also reduces a predicate over the block, as
 * nvcc compiles {@code __syncthreads_count}, {@code __syncthreads_and} and {@code __syncthreads_or}:
 * {@code bar.red.popc.u32 d, a, {!}c} and {@code bar.red.and|or.pred p, a, {!}c}. It decodes to a BAR
 * {@link Insn} carrying an {@link Insn.BarrierReduction}, which the {@link PtxBlockRunner} evaluates when the
 * barrier opens. As for {@code bar.sync}, only barrier numbers given as immediates and whole blocks (no thread
 * count) are supported.
 */
final class PtxBarriers {
    private PtxBarriers() {
    }

    static void decodeReduction(PtxOps ops, String base) {
        int op = -1;
        String type = null;
        for (String m : ops.mods()) {
            switch (m) {
                case "red", "aligned", "cta" -> {
                }
                case "popc" -> op = Insn.BarrierReduction.POPC;
                case "and" -> op = Insn.BarrierReduction.AND;
                case "or" -> op = Insn.BarrierReduction.OR;
                case "u32", "pred" -> type = m;
                default -> throw ops.unsupportedHere(base + ".red." + m);
            }
        }
        if (op < 0 || type == null || (op == Insn.BarrierReduction.POPC) != type.equals("u32")) {
            throw ops.invalidHere(base + ".red needs .popc.u32, .and.pred or .or.pred");
        }
        List<Operand> o = ops.operands();
        if (o.size() == 4) {
            throw ops.unsupportedHere(base + ".red with a thread count (named barriers for part of a block)");
        }
        if (o.size() != 3) {
            throw ops.invalidHere(base + ".red takes a destination, a barrier number and a predicate");
        }
        if (!(o.get(1) instanceof Imm)) {
            throw ops.unsupportedHere(base + ".red with a barrier number in a register");
        }
        int dst = ops.dstReg(0);
        int pred = ops.predReg(o.get(2));
        boolean negate = pred < 0;
        ops.fn().markCooperative();
        Insn in = ops.fn().emit(ops.instr(), Insn.BAR, null);
        in.reduction = new Insn.BarrierReduction(op, dst, negate ? ~pred : pred, negate);
    }
}
