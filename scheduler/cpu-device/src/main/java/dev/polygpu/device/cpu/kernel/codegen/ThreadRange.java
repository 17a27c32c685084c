package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Stmt;

/**
 * A region whose whole body is {@code if (tid < s) { … }} or {@code if (tid == k) { … }}, where {@code tid} is
 * {@code threadIdx.x} (or a variable the region form recomputes from it) and the bound is block-uniform: the tree
 * reduction's steps and its final {@code if (tid == 0)}. Its loop over the threads then visits only the
 * {@code threadIdx.x} that pass, not the whole block, checking the rest of the condition as before; the others would
 * only have evaluated it and skipped the body. In a kernel whose threads may return this is not done: a region
 * counts the threads that finish it to end the block when none is left.
 *
 * @param bound        the uniform bound {@code s} or {@code k}
 * @param equal        true for {@code ==}, false for {@code <}
 * @param operandType  the type the comparison is made in
 */
record ThreadRange(Expr bound, boolean equal, CType operandType) {

    /** The range of {@code r}, or null where its body is not such an {@code if}. */
    static ThreadRange of(RegionForm form, RegionForm.Region r, Uniformity u) {
        if (form.exits || r.predicate != null || r.loop != null || r.mask != null || r.deposit != null
                || r.result != null || r.statements.size() != 1
                || !(r.statements.get(0) instanceof Stmt.If i) || i.otherwise() != null
                || !(i.condition() instanceof Expr.Binary b)
                || b.op() != Expr.BinaryOp.LT && b.op() != Expr.BinaryOp.EQ
                || !(b.operandType() instanceof CType.Prim p) || !integer(p)
                || !threadX(form, b.left()) || !u.isUniform(b.right())) {
            return null;
        }
        return new ThreadRange(b.right(), b.op() == Expr.BinaryOp.EQ, b.operandType());
    }

    private static boolean integer(CType.Prim p) {
        return switch (p) {
            case INT, UINT, LONG, ULONG, LONGLONG, ULONGLONG -> true;
            default -> false;
        };
    }

    /** True if {@code e} is {@code threadIdx.x}, widened or not, or a variable recomputed from it. */
    private static boolean threadX(RegionForm form, Expr e) {
        while (e instanceof Expr.Cast k && k.type() instanceof CType.Prim p && integer(p)) {
            e = k.operand();
        }
        if (e instanceof Expr.VarRef v && form.recomputed.containsKey(v.var())) {
            return threadX(form, form.recomputed.get(v.var()));
        }
        return isThreadIdxX(e);
    }

    /** True if {@code e} is the builtin {@code threadIdx.x} itself. */
    static boolean isThreadIdxX(Expr e) {
        return e instanceof Expr.Builtin t && t.var() == Expr.BuiltinVar.THREAD_IDX && t.dim() == 0;
    }

    /** True if the comparison is made in a 64-bit type. */
    boolean wide() {
        return operandType.size() == 8;
    }

    /** True if the comparison is unsigned. */
    boolean unsigned() {
        return operandType == CType.Prim.UINT || operandType == CType.Prim.ULONG || operandType == CType.Prim.ULONGLONG;
    }
}
