package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.CType.Vector;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CUDA's built-in vector types ({@code char1} … {@code double4}, 48 in all) and what the front end does with
 * them: their names (known to every kernel, as nvcc's headers make them), the {@code make_float4(…)}
 * constructors, aggregate initializers ({@code float2 v = {1, 2};}) and component access ({@code v.x},
 * {@code p[i].y}, {@code p->z}). CUDA defines no operators on them, so neither does the engine.
 */
final class VectorTypes {
    private VectorTypes() {
    }

    private static final String[] BASES = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
        "longlong", "ulonglong", "float", "double"};
    private static final Prim[] COMPONENTS = {Prim.SCHAR, Prim.UCHAR, Prim.SHORT, Prim.USHORT, Prim.INT, Prim.UINT,
        Prim.LONG, Prim.ULONG, Prim.LONGLONG, Prim.ULONGLONG, Prim.FLOAT, Prim.DOUBLE};
    private static final String COMPONENT_NAMES = "xyzw";

    /** Every vector type by its CUDA name. */
    static final Map<String, Vector> TYPES;

    static {
        Map<String, Vector> m = new LinkedHashMap<>();
        for (int i = 0; i < BASES.length; i++) {
            for (int n = 1; n <= 4; n++) {
                m.put(BASES[i] + n, new Vector(COMPONENTS[i], n));
            }
        }
        TYPES = Collections.unmodifiableMap(m);
    }

    /** The type that {@code make_<name>} constructs, or null if {@code name} is no such function. */
    static Vector constructed(String function) {
        return function.startsWith("make_") ? TYPES.get(function.substring(5)) : null;
    }

    /** {@code make_float4(a, b, c, d)}: each argument converted to the component type. */
    static Expr make(ExprSema es, Pos pos, String function, Vector type, List<Expr> args) {
        if (args.size() != type.length()) {
            throw es.diags.fail(pos, "function '" + function + "' expects " + type.length() + " argument"
                    + (type.length() == 1 ? "" : "s") + ", but " + args.size() + (args.size() == 1 ? " was" : " were")
                    + " given");
        }
        List<Expr> conv = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            conv.add(es.convert(args.get(i), type.component(), "for argument " + (i + 1) + " of '" + function + "'"));
        }
        return new Expr.MakeVector(pos, type, conv);
    }

    /**
     * The components of {@code float4 v = {a, b, c, d};} (or a braced element of an array of vectors): at most
     * one per component, the missing ones zero, as C's aggregate initialization gives.
     */
    static Expr aggregate(ExprSema es, Syntax.InitList list, Vector type) {
        if (list.items().size() > type.length()) {
            throw es.diags.fail(list.pos(), "excess elements in initializer of '" + type + "' (it has "
                    + type.length() + " component" + (type.length() == 1 ? "" : "s") + ")");
        }
        List<Expr> values = new ArrayList<>(type.length());
        for (Object item : list.items()) {
            if (!(item instanceof Expr e)) {
                throw es.diags.fail(((Syntax.InitList) item).pos(), "a component of '" + type
                        + "' must be initialized by a single expression");
            }
            values.add(es.value(e));
        }
        return fromComponents(es, list.pos(), values, type);
    }

    /**
     * The vector of analyzed {@code values} (at most one per component), each converted to the component type,
     * the missing ones zero.
     */
    static Expr fromComponents(ExprSema es, Pos pos, List<Expr> values, Vector type) {
        List<Expr> conv = new ArrayList<>(type.length());
        for (Expr value : values) {
            conv.add(es.convert(value, type.component(), "in initializer of '" + type + "'"));
        }
        while (conv.size() < type.length()) {
            conv.add(ExprSema.cast(new Expr.IntConst(pos, Prim.INT, 0), type.component()));
        }
        return new Expr.MakeVector(pos, type, conv);
    }

    /** {@code object.member} on a vector value or lvalue: its component, or an error naming the ones it has. */
    static Expr component(ExprSema es, Pos pos, Expr object, String member) {
        Vector v = (Vector) object.type();
        int index = member.length() == 1 ? COMPONENT_NAMES.indexOf(member.charAt(0)) : -1;
        if (index < 0 || index >= v.length()) {
            String has = String.join(", ", COMPONENT_NAMES.substring(0, v.length()).chars()
                    .mapToObj(ch -> "." + (char) ch).toList());
            throw es.diags.fail(pos, "no member named '" + member + "' in '" + v + "' (its component"
                    + (v.length() == 1 ? " is " : "s are ") + has + ")");
        }
        return new Expr.Component(pos, v.component(), object, index);
    }

    /** The message for an operator applied to a vector: CUDA has none, and what to write instead. */
    static String noOperators(String operator, CType type) {
        return "invalid operand of type '" + type + "' to '" + operator + "': CUDA defines no arithmetic, comparison "
                + "or logical operators on vector types (helper_math.h from the CUDA samples adds some, and is not "
                + "built in); operate on the components (.x, .y, .z, .w)";
    }

    static boolean isVector(CType t) {
        return t instanceof Vector;
    }
}
