package dev.polygpu.device.cpu.kernel.ast;

import java.util.List;

/** Statements of the kernel language. After semantic analysis conditions are scalars of any type. */
public sealed interface Stmt {
    Pos pos();

    record Block(Pos pos, List<Stmt> statements) implements Stmt {}

    /**
     * Declaration of one local or {@code __shared__} variable. {@code init} is a single initializer
     * (converted to the variable's type), {@code arrayInit} the elements of {@code = {a, b, …}} for arrays
     * (each converted to the element type; missing elements are zero). Both null: uninitialized.
     */
    record VarDecl(Pos pos, Var var, Expr init, List<Expr> arrayInit) implements Stmt {}

    record ExprStmt(Pos pos, Expr expr) implements Stmt {}

    record If(Pos pos, Expr condition, Stmt then, Stmt otherwise) implements Stmt {}

    record While(Pos pos, Expr condition, Stmt body) implements Stmt {}

    record DoWhile(Pos pos, Stmt body, Expr condition) implements Stmt {}

    /**
     * {@code for (init; condition; update) body}. {@code init} holds the statements of the for-init (an
     * expression statement, or one declaration per declarator of {@code int a = 0, b = 0}), empty when there is
     * none; what they declare belongs to the loop's own scope, which also holds the condition, update and body.
     * Condition and update may be null (no condition: loop forever).
     */
    record For(Pos pos, List<Stmt> init, Expr condition, Expr update, Stmt body) implements Stmt {
        public For {
            init = List.copyOf(init);
        }
    }

    record Break(Pos pos) implements Stmt {}

    record Continue(Pos pos) implements Stmt {}

    /** {@code return [value]}; value converted to the function's return type. */
    record Return(Pos pos, Expr value) implements Stmt {}

    /**
     * {@code switch (selector) { case …: … }}: the selector is promoted to int or a 64-bit type; cases run
     * in order with C fall-through; {@code value == null} marks {@code default}.
     */
    record Switch(Pos pos, Expr selector, List<Case> cases) implements Stmt {}

    record Case(Pos pos, Long value, List<Stmt> statements) {}

    /** {@code ;} */
    record Empty(Pos pos) implements Stmt {}
}
