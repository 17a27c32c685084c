package dev.polygpu.device.cpu.kernel.ast;

import java.util.ArrayList;
import java.util.List;

/** Generic traversal helpers over the typed expression tree. */
public final class Exprs {
    private Exprs() {
    }

    /** The direct sub-expressions of {@code e}, in evaluation order. */
    public static List<Expr> children(Expr e) {
        return switch (e) {
            case Expr.Unary u -> List.of(u.operand());
            case Expr.Binary b -> List.of(b.left(), b.right());
            case Expr.Assign a -> List.of(a.target(), a.value());
            case Expr.CompoundAssign a -> List.of(a.target(), a.value());
            case Expr.IncDec i -> List.of(i.target());
            case Expr.Conditional c -> List.of(c.condition(), c.ifTrue(), c.ifFalse());
            case Expr.Cast c -> List.of(c.operand());
            case Expr.BitCast c -> List.of(c.operand());
            case Expr.Deref d -> List.of(d.pointer());
            case Expr.AddrOf a -> List.of(a.operand());
            case Expr.Decay d -> List.of(d.array());
            case Expr.PtrAdd p -> List.of(p.pointer(), p.index());
            case Expr.PtrDiff p -> List.of(p.left(), p.right());
            case Expr.Call c -> c.args();
            case Expr.IntrinsicCall c -> c.args();
            case Expr.Comma c -> List.of(c.left(), c.right());
            case Expr.Component v -> List.of(v.vector());
            case Expr.MakeVector v -> v.components();
            case Expr.Field f -> List.of(f.struct());
            case Expr.MakeStruct m -> m.parts();
            default -> {
                List<Expr> other = other(e);
                yield other;
            }
        };
    }

    private static List<Expr> other(Expr e) {
        List<Expr> list = new ArrayList<>();
        if (e instanceof Expr.Index i) {
            list.add(i.base());
            list.add(i.index());
        } else if (e instanceof Expr.Member m) {
            list.add(m.object());
        } else if (e instanceof Expr.CallByName c) {
            list.addAll(c.args());
        } else if (e instanceof Expr.BracedInit b) {
            list.addAll(b.items());
        }
        return list;
    }
}
