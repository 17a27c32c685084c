package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.List;

/**
 * Statements as parsed, before name resolution and typing (their expressions are {@link Expr} trees with null
 * types). Semantic analysis turns them into {@link dev.polygpu.device.cpu.kernel.ast.Stmt}.
 */
sealed interface PStmt {
    Pos pos();

    record Block(Pos pos, List<PStmt> items) implements PStmt {}

    /** One declaration statement: {@code int a = 1, *p, b[4];}. */
    record Decl(Pos pos, List<Syntax.Declarator> declarators) implements PStmt {}

    record ExprStmt(Pos pos, Expr expr) implements PStmt {}

    record If(Pos pos, Expr condition, PStmt then, PStmt otherwise) implements PStmt {}

    /**
     * {@code if constexpr (condition) then else otherwise}: the condition must be a constant, and only the branch
     * it selects is analyzed (the other may be invalid for a template's arguments, as C++ allows).
     */
    record IfConstexpr(Pos pos, Expr condition, PStmt then, PStmt otherwise) implements PStmt {}

    /** {@code static_assert(…);} in a function body. */
    record StaticAssert(Pos pos, Syntax.StaticAssert check) implements PStmt {}

    record While(Pos pos, Expr condition, PStmt body) implements PStmt {}

    record DoWhile(Pos pos, PStmt body, Expr condition) implements PStmt {}

    record For(Pos pos, PStmt init, Expr condition, Expr update, PStmt body) implements PStmt {}

    record Break(Pos pos) implements PStmt {}

    record Continue(Pos pos) implements PStmt {}

    record Return(Pos pos, Expr value) implements PStmt {}

    record Switch(Pos pos, Expr selector, PStmt body) implements PStmt {}

    /** {@code case value: stmt} ({@code value == null}: {@code default}). */
    record Case(Pos pos, Expr value, PStmt stmt) implements PStmt {}

    record Empty(Pos pos) implements PStmt {}
}
