package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.List;

/** The declarations of a parsed source, before semantic analysis. */
final class Syntax {
    private Syntax() {}

    /** Where a declared variable lives; {@code DEVICE} and {@code CONSTANT} only at file scope. */
    enum Storage { LOCAL, SHARED, EXTERN_SHARED, DEVICE, CONSTANT }

    /**
     * One declared variable. {@code type} is the type as written without the array dimensions (pointers
     * included), null for {@code auto}; {@code dims} are the dimension expressions, outermost first (an
     * element is null for {@code []}). {@code isConst}: the variable itself is const.
     */
    record Declarator(Pos pos, String name, CType type, List<Expr> dims, Storage storage, boolean isConst,
                      boolean isVolatile, Expr init, InitList initList) {}

    /** {@code { a, b, { c } }}: each item is an {@link Expr} or a nested {@link InitList}. */
    record InitList(Pos pos, List<Object> items) {
        /** The items as expressions, a nested list as an {@link Expr.BracedInit} without a type. */
        List<Expr> asExprs() {
            List<Expr> out = new ArrayList<>(items.size());
            for (Object item : items) {
                out.add(item instanceof InitList sub ? new Expr.BracedInit(sub.pos, null, sub.asExprs()) : (Expr) item);
            }
            return out;
        }

        /** The list of {@code T{…}}'s items, back in the form declarations use. */
        static InitList of(Pos pos, List<Expr> items) {
            List<Object> out = new ArrayList<>(items.size());
            for (Expr item : items) {
                out.add(item instanceof Expr.BracedInit b && b.type() == null ? of(b.pos(), b.items()) : item);
            }
            return new InitList(pos, out);
        }
    }

    /** {@code static_assert(condition, "message");} ({@code message} null when omitted): checked when analyzed. */
    record StaticAssert(Pos pos, Expr condition, String message) {}

    /** {@code isVolatile}: declared with {@code volatile} in its specifiers ({@code volatile float* s}). */
    record Param(Pos pos, String name, CType type, boolean isConst, boolean isVolatile) {}

    /** A function definition ({@code body != null}) or prototype. */
    record FuncDecl(Pos pos, String name, CType returnType, List<Param> params, boolean kernel,
                    PStmt.Block body) {}

    /**
     * A file-scope struct definition: its type (laid out by semantic analysis once the members' array sizes are
     * evaluated) and its data members, each a declarator with its dimensions. {@code constsBefore}: how many
     * file-scope constants precede it, which its array sizes may use.
     */
    record StructDecl(Pos pos, CType.Struct type, List<Declarator> members, int constsBefore) {}

    /** A file-scope {@code const} scalar: a compile-time constant. */
    record ConstDecl(Pos pos, String name, CType type, Expr init) {}

    /** A template parameter: a type ({@code typename T}) or a value of {@code valueType} ({@code int N}). */
    record TParam(String name, boolean isType, CType valueType) {}

    /**
     * A function template, kept as tokens and parsed again for each instantiation with its parameters bound.
     * {@code paramTypes} are the tokens of each function parameter's declaration, for argument deduction.
     */
    record TemplateDecl(Pos pos, String name, boolean kernel, List<TParam> params, List<Token> tokens,
                        List<List<Token>> paramDecls) {}
}
