package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr.BinaryOp;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The expression layer of the CUDA C parser: assignment, conditional and binary expressions by precedence level,
 * unary and postfix operators, call arguments, template arguments and primary expressions.
 */
abstract class ExprParser extends ParserCore {
    ExprParser(List<Token> ts, Diagnostics diags, Map<String, CType> typedefs, Set<String> templateNames) {
        super(ts, diags, typedefs, templateNames);
    }
    // ---------------------------------------------------------------- expressions

    Expr expr() {
        Expr e = assign();
        while (at(",")) {
            Pos p = ts.get(k++).pos();
            e = new Expr.Comma(p, null, e, assign());
        }
        return e;
    }

    private static final Map<String, BinaryOp> COMPOUND = Map.of("+=", BinaryOp.ADD, "-=", BinaryOp.SUB,
            "*=", BinaryOp.MUL, "/=", BinaryOp.DIV, "%=", BinaryOp.MOD, "<<=", BinaryOp.SHL, ">>=", BinaryOp.SHR,
            "&=", BinaryOp.BIT_AND, "|=", BinaryOp.BIT_OR, "^=", BinaryOp.BIT_XOR);

    Expr assign() {
        Expr lhs = conditional();
        Token t = tok();
        if (t.kind == Token.Kind.PUNCT) {
            if (t.text.equals("=")) {
                k++;
                return new Expr.Assign(t.pos(), null, lhs, nestedAssign(t.pos()));
            }
            BinaryOp op = COMPOUND.get(t.text);
            if (op != null) {
                k++;
                return new Expr.CompoundAssign(t.pos(), null, op, null, lhs, nestedAssign(t.pos()));
            }
        }
        return lhs;
    }

    /** The right side of an assignment, one level deeper ({@code a = b = c = …} nests). */
    private Expr nestedAssign(Pos pos) {
        nest(pos);
        try {
            return assign();
        } finally {
            unnest(1);
        }
    }

    Expr conditional() {
        Expr c = binary(0);
        if (at("?")) {
            Pos p = ts.get(k++).pos();
            nest(p);
            try {
                Expr a = expr();
                expect(":", "expected ':'");
                Expr b = assign();
                return new Expr.Conditional(p, null, c, a, b);
            } finally {
                unnest(1);
            }
        }
        return c;
    }

    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"},
        {"*", "/", "%"},
    };
    private static final Map<String, BinaryOp> BINOPS = new HashMap<>();

    static {
        for (BinaryOp op : BinaryOp.values()) {
            BINOPS.put(op.symbol, op);
        }
    }

    /** Binary operators from precedence level {@code level} up (0 = {@code ||}). */
    Expr binary(int level) {
        if (level == LEVELS.length) {
            return unary();
        }
        Expr e = binary(level + 1);
        // each operator of a chain puts the chain so far one level deeper (the tree is walked recursively)
        int chained = 0;
        try {
            outer:
            while (true) {
                for (String op : LEVELS[level]) {
                    if (at(op) && tok().kind == Token.Kind.PUNCT) {
                        Pos p = ts.get(k++).pos();
                        nest(p);
                        chained++;
                        e = new Expr.Binary(p, null, BINOPS.get(op), null, e, binary(level + 1));
                        continue outer;
                    }
                }
                return e;
            }
        } finally {
            unnest(chained);
        }
    }

    private Expr unary() {
        nest(tok().pos());
        try {
            return unaryBody();
        } finally {
            unnest(1);
        }
    }

    private Expr unaryBody() {
        Token t = tok();
        Pos p = t.pos();
        if (t.kind == Token.Kind.PUNCT) {
            switch (t.text) {
                case "(" -> {
                    int save = k;
                    k++;
                    cxx.refuseFunctionTypeCast();
                    if (cxx.typeNameInParens()) {
                        CType type = typeName();
                        expect(")", "expected ')'");
                        if (at("{")) {
                            throw diags.fail(tok().pos(), "compound literals ('(" + type + "){…}') are not supported"
                                    + ENGINE + "; write '" + type + "{…}'");
                        }
                        return new Expr.Cast(p, type, unary());
                    }
                    k = save;
                    return postfix(primary());
                }
                case "-", "+", "!", "~" -> {
                    k++;
                    Expr.UnaryOp op = switch (t.text) {
                        case "-" -> Expr.UnaryOp.NEG;
                        case "+" -> Expr.UnaryOp.PLUS;
                        case "!" -> Expr.UnaryOp.NOT;
                        default -> Expr.UnaryOp.BIT_NOT;
                    };
                    return new Expr.Unary(p, null, op, unary());
                }
                case "*" -> {
                    k++;
                    return new Expr.Deref(p, null, unary());
                }
                case "&" -> {
                    k++;
                    return new Expr.AddrOf(p, null, unary());
                }
                case "++", "--" -> {
                    k++;
                    return new Expr.IncDec(p, null, unary(), true, t.text.equals("++"));
                }
                default -> { }
            }
        } else if (t.is("sizeof")) {
            k++;
            if (at("...")) {
                throw cxx.sizeofPack(p);
            }
            if (at("(")) {
                int save = k;
                k++;
                if (cxx.typeNameInParens()) {
                    CType type = typeName();
                    expect(")", "expected ')'");
                    return new Expr.SizeOf(p, null, type, null);
                }
                k = save;
            }
            return new Expr.SizeOf(p, null, null, unary());
        } else if (t.is("new") || t.is("delete")) {
            throw diags.fail(p, "'" + t.text + "' is not supported by the CPU device's kernel engine; use a local "
                    + "array of constant size, __shared__ memory, or a buffer passed as a kernel argument");
        }
        return postfix(primary());
    }

    private Expr postfix(Expr e) {
        while (true) {
            Token t = tok();
            Pos p = t.pos();
            if (accept("[")) {
                Expr i = expr();
                expect("]", "expected ']'");
                e = new Expr.Index(p, null, e, i);
            } else if (at("(")) {
                if (!(e instanceof Expr.Name n) || n.name().startsWith("\"")) {
                    throw diags.fail(p, "called object is not a function");
                }
                e = new Expr.CallByName(e.pos(), null, n.name(), null, args());
            } else if (accept(".")) {
                e = new Expr.Member(p, null, e, ident("member name after '.'"));
            } else if (accept("->")) {
                // p->x is (*p).x; semantic analysis accepts it on pointers to vector types
                e = new Expr.Member(p, null, new Expr.Deref(p, null, e), ident("member name after '->'"));
            } else if (at("++") || at("--")) {
                k++;
                e = new Expr.IncDec(p, null, e, false, t.text.equals("++"));
            } else {
                return e;
            }
        }
    }

    List<Expr> args() {
        expect("(", "expected '('");
        List<Expr> args = new ArrayList<>();
        if (!at(")")) {
            do {
                args.add(assign());
            } while (accept(","));
        }
        expect(")", "expected ')'");
        return args;
    }

    /** Template arguments after the {@code <} has been seen: types or constant expressions. */
    List<Expr.TemplateArg> templateArgs() {
        expect("<", "expected '<'");
        List<Expr.TemplateArg> targs = new ArrayList<>();
        if (!at(">")) {
            do {
                if (startsType()) {
                    targs.add(new Expr.TemplateArg(typeName(), null));
                } else {
                    targs.add(new Expr.TemplateArg(null, binary(7))); // above relational: '>' ends the list
                }
            } while (accept(","));
        }
        expectCloseAngle();
        return targs;
    }

    private Expr primary() {
        Token t = tok();
        Pos p = t.pos();
        switch (t.kind) {
            case NUMBER -> {
                k++;
                try {
                    if (Literals.isFloating(t.text)) {
                        Literals.FloatLit f = Literals.parseFloat(t.text);
                        return new Expr.FloatConst(p, f.type(), f.value());
                    }
                    Literals.IntLit i = Literals.parseInt(t.text);
                    return new Expr.IntConst(p, i.type(), i.value());
                } catch (IllegalArgumentException e) {
                    throw diags.fail(p, e.getMessage());
                }
            }
            case CHAR -> {
                k++;
                try {
                    // C++ (nvcc compiles .cu files as C++): a character literal is a char, not an int as in C.
                    return new Expr.IntConst(p, Prim.CHAR, Literals.parseChar(t.text));
                } catch (IllegalArgumentException e) {
                    throw diags.fail(p, e.getMessage());
                }
            }
            case STRING -> {
                StringBuilder sb = new StringBuilder();
                while (tok().kind == Token.Kind.STRING) {
                    sb.append(ts.get(k++).text);
                }
                return new Expr.Name(p, null, sb.toString());
            }
            case IDENT -> {
                switch (t.text) {
                    case "true", "false" -> {
                        k++;
                        return new Expr.IntConst(p, Prim.BOOL, t.text.equals("true") ? 1 : 0);
                    }
                    case "__builtin_inff", "__builtin_nanf", "__builtin_inf", "__builtin_nan" -> {
                        k++;
                        Prim type = t.text.endsWith("f") ? Prim.FLOAT : Prim.DOUBLE;
                        return new Expr.FloatConst(p, type, t.text.contains("inf") ? Double.POSITIVE_INFINITY
                                : Double.NaN);
                    }
                    case "static_cast", "reinterpret_cast", "const_cast" -> {
                        k++;
                        expect("<", "expected '<' after '" + t.text + "'");
                        CType type = typeName();
                        expectCloseAngle();
                        expect("(", "expected '('");
                        Expr e = expr();
                        expect(")", "expected ')'");
                        return new Expr.Cast(p, type, e);
                    }
                    default -> { }
                }
                if (startsType()) {
                    return cxx.functionalCast();
                }
                Diagnostics.Abort refused = cxx.unsupportedWord(t);
                if (refused != null) {
                    throw refused;
                }
                if (peek(1).is("::")) {
                    throw cxx.qualifiedName();
                }
                k++;
                if (templateNames.contains(t.text) && at("<")) {
                    List<Expr.TemplateArg> targs = templateArgs();
                    if (!at("(")) {
                        throw diags.fail(tok().pos(), "expected '(' after template arguments");
                    }
                    return new Expr.CallByName(p, null, t.text, targs, args());
                }
                return new Expr.Name(p, null, t.text);
            }
            case PUNCT -> {
                if (at("(")) {
                    k++;
                    Expr e = expr();
                    expect(")", "expected ')'");
                    return e;
                }
                if (at("::") && peek(1).kind == Token.Kind.IDENT) {
                    k++; // ::sqrtf(x): the global scope is the only scope
                    return primary();
                }
                if (at("[")) {
                    throw cxx.lambda();
                }
                if (at("{")) {
                    // return {a, b}; and s = {a, b};: the type comes from the context
                    return new Expr.BracedInit(p, null, initList().asExprs());
                }
            }
            default -> { }
        }
        throw diags.fail(p, "expected expression");
    }
}
