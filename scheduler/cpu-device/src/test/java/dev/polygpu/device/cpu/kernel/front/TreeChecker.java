package dev.polygpu.device.cpu.kernel.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Stmt;

import java.util.HashSet;
import java.util.Set;

/** Asserts the invariants of the typed tree (see Expr's Javadoc) on analyzed functions. */
final class TreeChecker {
    private final Set<Function> seen = new HashSet<>();

    static void check(Function f) {
        new TreeChecker().function(f);
    }

    private void function(Function f) {
        if (!seen.add(f)) {
            return;
        }
        assertNotNull(f.body(), f.name);
        Set<Integer> ids = new HashSet<>();
        f.params.forEach(p -> assertTrue(ids.add(p.id), "duplicate var id"));
        stmt(f.body(), f, ids);
    }

    private void stmt(Stmt s, Function f, Set<Integer> ids) {
        switch (s) {
            case Stmt.Block b -> b.statements().forEach(x -> stmt(x, f, ids));
            case Stmt.VarDecl d -> {
                assertTrue(ids.add(d.var().id), "duplicate var id " + d.var());
                if (d.init() != null) {
                    expr(d.init(), false);
                    assertEquals(d.var().type, d.init().type(), "initializer type");
                }
                if (d.arrayInit() != null) {
                    CType el = d.var().type;
                    while (el instanceof CType.Array a) {
                        el = a.element();
                    }
                    for (Expr e : d.arrayInit()) {
                        expr(e, false);
                        assertEquals(el, e.type());
                    }
                }
            }
            case Stmt.ExprStmt e -> expr(e.expr(), false);
            case Stmt.If i -> {
                scalar(i.condition());
                stmt(i.then(), f, ids);
                if (i.otherwise() != null) {
                    stmt(i.otherwise(), f, ids);
                }
            }
            case Stmt.While w -> {
                scalar(w.condition());
                stmt(w.body(), f, ids);
            }
            case Stmt.DoWhile d -> {
                scalar(d.condition());
                stmt(d.body(), f, ids);
            }
            case Stmt.For fo -> {
                fo.init().forEach(x -> stmt(x, f, ids));
                if (fo.condition() != null) {
                    scalar(fo.condition());
                }
                if (fo.update() != null) {
                    expr(fo.update(), false);
                }
                stmt(fo.body(), f, ids);
            }
            case Stmt.Return r -> {
                if (r.value() != null) {
                    expr(r.value(), false);
                    if (f.returnType != CType.Prim.VOID) {
                        assertEquals(f.returnType, r.value().type());
                    }
                }
            }
            case Stmt.Switch sw -> {
                expr(sw.selector(), false);
                CType t = sw.selector().type();
                assertTrue(t == CType.Prim.INT || (t instanceof CType.Prim p && p.is64()), "selector " + t);
                sw.cases().forEach(c -> c.statements().forEach(x -> stmt(x, f, ids)));
            }
            case Stmt.Break b -> { }
            case Stmt.Continue c -> { }
            case Stmt.Empty e -> { }
        }
    }

    private void scalar(Expr e) {
        expr(e, false);
        assertTrue(e.type().isScalar(), "condition must be scalar: " + e);
    }

    private void expr(Expr e, boolean arrayOk) {
        assertNotNull(e.type(), () -> "untyped " + e);
        if (e.type() instanceof CType.Array && !arrayOk) {
            fail("array-typed expression outside Decay/AddrOf: " + e);
        }
        switch (e) {
            case Expr.Name n -> fail("Name left: " + n);
            case Expr.Index n -> fail("Index left: " + n);
            case Expr.Member n -> fail("Member left: " + n);
            case Expr.CallByName n -> fail("CallByName left: " + n);
            case Expr.SizeOf n -> fail("SizeOf left: " + n);
            case Expr.BracedInit n -> fail("BracedInit left: " + n);
            case Expr.IntConst c -> { }
            case Expr.FloatConst c -> { }
            case Expr.StrConst c -> { }
            case Expr.VarRef r -> assertEquals(r.var().type, r.type());
            case Expr.Builtin b -> { }
            case Expr.Unary u -> {
                expr(u.operand(), false);
                if (u.op() != Expr.UnaryOp.NOT) {
                    assertEquals(u.type(), u.operand().type());
                }
            }
            case Expr.Binary b -> {
                expr(b.left(), false);
                expr(b.right(), false);
                switch (b.op()) {
                    case LOGICAL_AND, LOGICAL_OR -> assertEquals(CType.Prim.BOOL, b.type());
                    case SHL, SHR -> {
                        assertEquals(b.operandType(), b.left().type());
                        assertEquals(b.type(), b.left().type());
                    }
                    default -> {
                        assertEquals(b.operandType(), b.left().type(), () -> "left of " + b);
                        assertEquals(b.operandType(), b.right().type(), () -> "right of " + b);
                        if (b.op().isComparison()) {
                            assertEquals(CType.Prim.BOOL, b.type());
                        } else {
                            assertEquals(b.operandType(), b.type());
                        }
                    }
                }
            }
            case Expr.Assign a -> {
                expr(a.target(), false);
                expr(a.value(), false);
                assertEquals(a.target().type(), a.value().type());
                assertEquals(a.target().type(), a.type());
            }
            case Expr.CompoundAssign c -> {
                expr(c.target(), false);
                expr(c.value(), false);
                if (c.target().type().isPointer()) {
                    assertEquals(CType.Prim.LONG, c.value().type());
                } else if (c.op() != Expr.BinaryOp.SHL && c.op() != Expr.BinaryOp.SHR) {
                    assertEquals(c.operandType(), c.value().type());
                }
            }
            case Expr.IncDec i -> expr(i.target(), false);
            case Expr.Conditional c -> {
                scalar(c.condition());
                expr(c.ifTrue(), false);
                expr(c.ifFalse(), false);
                assertEquals(c.type(), c.ifTrue().type());
                assertEquals(c.type(), c.ifFalse().type());
            }
            case Expr.Cast c -> expr(c.operand(), false);
            case Expr.BitCast c -> {
                expr(c.operand(), false);
                assertEquals(c.type().size(), c.operand().type().size());
            }
            case Expr.Deref d -> {
                expr(d.pointer(), false);
                assertEquals(((CType.Pointer) d.pointer().type()).pointee(), d.type());
            }
            case Expr.AddrOf a -> expr(a.operand(), true);
            case Expr.Decay d -> {
                expr(d.array(), true);
                assertTrue(d.array().type() instanceof CType.Array);
            }
            case Expr.PtrAdd p -> {
                expr(p.pointer(), false);
                expr(p.index(), false);
                assertEquals(CType.Prim.LONG, p.index().type());
                assertTrue(p.pointer().type().isPointer());
                assertEquals(p.pointer().type(), p.type());
            }
            case Expr.PtrDiff p -> {
                expr(p.left(), false);
                expr(p.right(), false);
                assertEquals(CType.Prim.LONG, p.type());
            }
            case Expr.Call c -> {
                assertEquals(c.function().params.size(), c.args().size());
                for (int i = 0; i < c.args().size(); i++) {
                    expr(c.args().get(i), false);
                    assertEquals(c.function().params.get(i).type, c.args().get(i).type());
                }
                function(c.function());
            }
            case Expr.IntrinsicCall c -> c.args().forEach(a -> expr(a, false));
            case Expr.Comma c -> {
                expr(c.left(), false);
                expr(c.right(), false);
            }
            case Expr.Component v -> {
                expr(v.vector(), false);
                CType.Vector vt = (CType.Vector) v.vector().type();
                assertEquals(vt.component(), v.type());
                assertTrue(v.index() >= 0 && v.index() < vt.length(), () -> "component index of " + v);
            }
            case Expr.MakeVector m -> {
                CType.Vector vt = (CType.Vector) m.type();
                assertEquals(vt.length(), m.components().size());
                for (Expr c : m.components()) {
                    expr(c, false);
                    assertEquals(vt.component(), c.type());
                }
            }
            case Expr.Field f -> {
                expr(f.struct(), false);
                CType.Struct st = (CType.Struct) f.struct().type();
                assertTrue(st.members().contains(f.member()), () -> "member of another struct: " + f);
                assertEquals(f.member().type(), f.type());
            }
            case Expr.MakeStruct m -> {
                // The parts' leaves, one after another, are the struct's leaves.
                java.util.List<CType.Prim> leaves = new java.util.ArrayList<>();
                for (Expr p : m.parts()) {
                    expr(p, false);
                    CType.leaves(p.type()).forEach(l -> leaves.add(l.type()));
                }
                assertEquals(CType.leaves(m.type()).stream().map(CType.Leaf::type).toList(), leaves,
                        () -> "leaves of " + m);
            }
        }
    }
}
