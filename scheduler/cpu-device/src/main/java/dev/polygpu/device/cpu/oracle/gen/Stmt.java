package dev.polygpu.device.cpu.oracle.gen;

import java.util.List;

/**
 * A statement of a generated program. Every statement has an id, unique in its program, by which the shrinker
 * names it. Templates use {@code $i} for argument {@code i} and {@code @} for the case prefix, as {@link Expr}
 * does; a {@link Simple} template may span several lines (a shared-memory exchange with its two barriers is
 * one statement, so no reduction can separate a read from the barrier that orders it).
 */
public sealed interface Stmt {
    int id();

    /**
     * {@code T v = init;}, {@code T v = {…};}, {@code T v{};} or {@code T v;} (arrays filled by what follows);
     * {@code quals} go before the type ({@code "__shared__ "}, {@code "const "}, or empty); null for a
     * file-scope variable declared elsewhere, whose {@code AFTER} initialization alone stands here.
     */
    record Decl(int id, String quals, Var var, Expr init, Init form) implements Stmt {
    }

    /** How a declaration initializes. */
    enum Init {
        /** {@code = init}. */
        EXPR,
        /** {@code = {…}}: init is an OP whose template is the braced list. */
        LIST,
        /** {@code {}}: value-initialized (zero). */
        VALUE,
        /** No initializer. */
        NONE,
        /** No initializer, then the lines of {@code init}'s template, which write every element before any read. */
        AFTER
    }

    /** {@code return value;} ({@code value} null in a void function). Never removed by the shrinker. */
    record Return(int id, Expr value) implements Stmt {
    }

    /**
     * An expression statement, assignment, barrier or a fixed multi-statement construct. Arguments that are
     * written (lvalues) are {@linkplain Expr#fixed() fixed}: the shrinker simplifies inside them, never them.
     * A {@code kept} statement is never deleted alone (the step at the end of a {@code while} body, without
     * which the loop would not end); it goes with the loop.
     */
    record Simple(int id, String template, List<Expr> args, boolean kept) implements Stmt {
        public Simple {
            args = List.copyOf(args);
        }

        public Simple(int id, String template, List<Expr> args) {
            this(id, template, args, false);
        }
    }

    /** {@code if (cond) then else els}; {@code els} may be null. */
    record If(int id, Expr cond, Block then, Block els) implements Stmt {
    }

    /**
     * A loop. {@code FOR}: {@code header} is the whole {@code for (…)} line; {@code WHILE}: the {@code while (…)}
     * line; {@code DO}: {@code header} is the {@code while (…);} after the body. {@code declares}: the counters
     * the header declares (a FOR's).
     */
    record Loop(int id, LoopKind kind, String header, List<Expr> args, List<Var> declares, Block body)
            implements Stmt {
        public Loop {
            args = List.copyOf(args);
            declares = List.copyOf(declares);
        }
    }

    /** The kinds of loops. */
    enum LoopKind {
        FOR, WHILE, DO
    }

    /** {@code switch (sel) { case …: … }}. */
    record Switch(int id, Expr sel, List<Case> cases) implements Stmt {
        public Switch {
            cases = List.copyOf(cases);
        }
    }

    /** One arm of a switch: its labels ({@code isDefault} adds {@code default:}) and statements. */
    record Case(List<Integer> labels, boolean isDefault, Block body) {
        public Case {
            labels = List.copyOf(labels);
        }
    }

    /** {@code break;} or {@code continue;}. */
    record Jump(int id, boolean isBreak) implements Stmt {
    }

    /** A nested {@code { … }}. */
    record Scope(int id, Block body) implements Stmt {
    }

    /** A statement list. */
    record Block(List<Stmt> stmts) {
        public Block {
            stmts = List.copyOf(stmts);
        }
    }
}
