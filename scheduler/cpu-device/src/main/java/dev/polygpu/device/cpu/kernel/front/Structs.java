package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.CType.Struct;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the front end does with plain C structs besides defining them ({@link Parser} parses definitions,
 * {@link Program} lays them out): member access ({@code s.m}, {@code p[i].m}, {@code p->m}), aggregate
 * initializers with C++'s brace elision ({@code Particle q = {{0, 1, 2}, 3.5f};}, missing members zero), and
 * the error for operators, which C++ structs have none of without user-defined operators (not supported).
 */
final class Structs {
    private Structs() {
    }

    /** {@code object.member} on a struct value or lvalue: the member, or an error naming the members it has. */
    static Expr member(ExprSema es, Pos pos, Expr object, String name) {
        Struct st = (Struct) object.type();
        Struct.Member m = st.member(name);
        if (m == null) {
            String has = st.members().stream().map(Struct.Member::name).collect(Collectors.joining(", "));
            throw es.diags.fail(pos, "no member named '" + name + "' in struct '" + st + "' (its members are "
                    + has + ")");
        }
        return new Expr.Field(pos, m.type(), object, m);
    }

    /**
     * The variable or memory access that a chain of member, component and array-element selections starts from
     * ({@code p[i]} in {@code p[i].pos.x}, {@code s} in {@code s.w[2]}).
     */
    static Expr root(Expr e) {
        Expr x = e;
        while (true) {
            switch (x) {
                case Expr.Field f -> x = f.struct();
                case Expr.Component c -> x = c.vector();
                default -> {
                    return x;
                }
            }
        }
    }

    /** The message for an operator applied to a struct. */
    static String noOperators(String operator, CType type) {
        return "invalid operand of type '" + type + "' to '" + operator + "': structs have no operators but "
                + "assignment (user-defined operators are not supported by the CPU device's kernel engine); operate "
                + "on the members";
    }

    /** The aggregate initializer {@code {…}} of a struct (or a braced element of an array of structs). */
    static Expr aggregate(ExprSema es, Syntax.InitList list, Struct type) {
        Init in = new Init(es, list.items());
        List<Expr> parts = new ArrayList<>();
        in.members(type, parts, list.pos());
        if (in.more()) {
            throw es.diags.fail(in.pos(), "excess elements in initializer of struct '" + type + "'");
        }
        return new Expr.MakeStruct(list.pos(), type, parts);
    }

    /** The zero value of a struct (every leaf zero), as a missing element of an array initializer gets. */
    static Expr zero(Struct type, Pos pos) {
        List<Expr> parts = new ArrayList<>();
        zero(type, pos, parts);
        return new Expr.MakeStruct(pos, type, parts);
    }

    private static void zero(CType t, Pos pos, List<Expr> out) {
        for (CType.Leaf l : CType.leaves(t)) {
            out.add(ExprSema.cast(new Expr.IntConst(pos, Prim.INT, 0), l.type()));
        }
    }

    /**
     * A cursor over one braced list. Each item initializes the next scalar, or a whole member of struct or vector
     * type when it is one; a nested braced list initializes one whole member (or array element); without braces
     * a member of aggregate type takes as many items as it has scalars (brace elision).
     */
    private static final class Init {
        final ExprSema es;
        final List<Object> items;
        final Map<Integer, Expr> analyzed = new HashMap<>();
        int at;

        Init(ExprSema es, List<Object> items) {
            this.es = es;
            this.items = items;
        }

        boolean more() {
            return at < items.size();
        }

        Pos pos() {
            Object item = items.get(at);
            return item instanceof Expr e ? e.pos() : ((Syntax.InitList) item).pos();
        }

        Expr value(int i) {
            return analyzed.computeIfAbsent(i, j -> es.value((Expr) items.get(j)));
        }

        void members(Struct st, List<Expr> out, Pos pos) {
            for (Struct.Member m : st.members()) {
                one(m.type(), out, pos, "member '" + m.name() + "' of '" + st + "'");
            }
        }

        /** Initializes one object of type {@code t} from the next item(s); zero when the list has ended. */
        void one(CType t, List<Expr> out, Pos pos, String what) {
            if (!more()) {
                zero(t, pos, out);
                return;
            }
            if (items.get(at) instanceof Syntax.InitList sub) {
                at++;
                braced(t, sub, out, what);
                return;
            }
            Expr v = value(at);
            if (t instanceof Prim) {
                at++;
                out.add(es.convert(v, t, "in initializer of " + what));
                return;
            }
            if (v.type().equals(t)) {
                at++;
                out.add(v);
                return;
            }
            elided(t, out, pos, what);
        }

        /** The scalars of an aggregate {@code t} taken one by one from this list (braces elided). */
        void elided(CType t, List<Expr> out, Pos pos, String what) {
            switch (t) {
                case CType.Vector v -> {
                    for (int i = 0; i < v.length(); i++) {
                        one(v.component(), out, pos, what);
                    }
                }
                case CType.Array a -> {
                    for (int i = 0; i < a.length(); i++) {
                        one(a.element(), out, pos, what);
                    }
                }
                case Struct s -> members(s, out, pos);
                default -> one(t, out, pos, what);
            }
        }

        /** {@code t} initialized by a braced list of its own. */
        void braced(CType t, Syntax.InitList sub, List<Expr> out, String what) {
            if (t instanceof Prim) {
                if (sub.items().size() != 1 || !(sub.items().getFirst() instanceof Expr e)) {
                    throw es.diags.fail(sub.pos(), "scalar initializer of " + what + " must be a single expression");
                }
                out.add(es.convert(es.value(e), t, "in initializer of " + what));
                return;
            }
            if (t instanceof CType.Vector v) {
                out.add(VectorTypes.aggregate(es, sub, v));
                return;
            }
            Init in = new Init(es, sub.items());
            in.elided(t, out, sub.pos(), what);
            if (in.more()) {
                throw es.diags.fail(in.pos(), "excess elements in initializer of " + what);
            }
        }
    }
}
