package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The statement layer of the CUDA C parser: blocks, statements, local declarations and initializer lists.
 */
abstract class StmtParser extends TypeParser {
    StmtParser(List<Token> ts, Diagnostics diags, Map<String, CType> typedefs, Set<String> templateNames) {
        super(ts, diags, typedefs, templateNames);
    }
    /**
     * The condition of an {@code if}, {@code while}, {@code for} or {@code switch}: an expression. C++ also
     * allows a declaration there ({@code while (int r = n - k)}), which this engine does not.
     */
    private Expr condition(String statement) {
        if (startsDeclaration()) {
            throw diags.fail(tok().pos(), "a declaration in the condition of '" + statement + "' is not supported"
                    + " by the CPU device's kernel engine; declare the variable before the '" + statement + "'");
        }
        return expr();
    }

    // ---------------------------------------------------------------- statements

    PStmt.Block block() {
        Pos pos = expect("{", "expected '{'").pos();
        List<PStmt> items = new ArrayList<>();
        openScope();
        while (!at("}")) {
            if (atEof()) {
                throw diags.fail(tok().pos(), "expected '}'");
            }
            items.add(statement());
        }
        closeScope();
        k++;
        return new PStmt.Block(pos, items);
    }

    PStmt statement() {
        nest(tok().pos());
        try {
            return statementBody();
        } finally {
            unnest(1);
        }
    }

    private PStmt statementBody() {
        cxx.skipAttributes();
        Token t = tok();
        Pos pos = t.pos();
        if (t.kind == Token.Kind.IDENT) {
            switch (t.text) {
                case "if" -> {
                    k++;
                    boolean isConstexpr = accept("constexpr");
                    expect("(", "expected '(' after 'if'");
                    Expr c = condition("if");
                    expect(")", "expected ')'");
                    PStmt then = statement();
                    PStmt otherwise = accept("else") ? statement() : null;
                    return isConstexpr ? new PStmt.IfConstexpr(pos, c, then, otherwise)
                            : new PStmt.If(pos, c, then, otherwise);
                }
                case "while" -> {
                    k++;
                    expect("(", "expected '(' after 'while'");
                    Expr c = condition("while");
                    expect(")", "expected ')'");
                    return new PStmt.While(pos, c, statement());
                }
                case "do" -> {
                    k++;
                    PStmt body = statement();
                    expect("while", "expected 'while' in do/while loop");
                    expect("(", "expected '(' after 'while'");
                    Expr c = expr();
                    expect(")", "expected ')'");
                    expect(";", "expected ';' after do/while statement");
                    return new PStmt.DoWhile(pos, body, c);
                }
                case "for" -> {
                    k++;
                    expect("(", "expected '(' after 'for'");
                    cxx.refuseRangeFor();
                    // The init's declarations are in scope in the condition, the step and the body only.
                    openScope();
                    PStmt init = null;
                    if (!accept(";")) {
                        if (startsDecl()) {
                            init = declaration();
                        } else {
                            Pos ep = tok().pos();
                            init = new PStmt.ExprStmt(ep, expr());
                            expect(";", "expected ';' in 'for' statement specifier");
                        }
                    }
                    Expr c = at(";") ? null : condition("for");
                    expect(";", "expected ';' in 'for' statement specifier");
                    Expr u = at(")") ? null : expr();
                    expect(")", "expected ')'");
                    PStmt body = statement();
                    closeScope();
                    return new PStmt.For(pos, init, c, u, body);
                }
                case "switch" -> {
                    k++;
                    expect("(", "expected '(' after 'switch'");
                    Expr c = condition("switch");
                    expect(")", "expected ')'");
                    return new PStmt.Switch(pos, c, statement());
                }
                case "case" -> {
                    k++;
                    Expr v = conditional();
                    expect(":", "expected ':' after 'case'");
                    return new PStmt.Case(pos, v, at("}") ? new PStmt.Empty(tok().pos()) : statement());
                }
                case "default" -> {
                    k++;
                    expect(":", "expected ':' after 'default'");
                    return new PStmt.Case(pos, null, at("}") ? new PStmt.Empty(tok().pos()) : statement());
                }
                case "break" -> {
                    k++;
                    expect(";", "expected ';' after break statement");
                    return new PStmt.Break(pos);
                }
                case "continue" -> {
                    k++;
                    expect(";", "expected ';' after continue statement");
                    return new PStmt.Continue(pos);
                }
                case "return" -> {
                    k++;
                    Expr v = at(";") ? null : expr();
                    expect(";", "expected ';' after return statement");
                    return new PStmt.Return(pos, v);
                }
                case "goto" -> throw diags.fail(pos, "goto is not supported by the CPU device's kernel engine");
                case "asm", "__asm__", "__asm" ->
                        throw diags.fail(pos, "inline assembly is not supported by the CPU device's kernel engine");
                case "try", "throw", "catch" ->
                        throw diags.fail(pos, "exceptions are not supported by the CPU device's kernel engine");
                case "typedef" -> {
                    typedefDecl();
                    return new PStmt.Empty(pos);
                }
                case "using" -> {
                    cxx.aliasDeclaration();
                    return new PStmt.Empty(pos);
                }
                case "static_assert" -> {
                    return new PStmt.StaticAssert(pos, cxx.staticAssert());
                }
                default -> {
                    if (peek(1).is(":")) {
                        throw diags.fail(pos, "labels are not supported by the CPU device's kernel engine");
                    }
                    if (startsDeclaration()) {
                        return declaration();
                    }
                }
            }
        }
        if (t.is("{")) {
            return block();
        }
        if (accept(";")) {
            return new PStmt.Empty(pos);
        }
        Expr e = expr();
        expect(";", "expected ';' after expression");
        return new PStmt.ExprStmt(pos, e);
    }

    private PStmt.Decl declaration() {
        Pos pos = tok().pos();
        DeclSpec sp = declSpec(true);
        if (sp.constant) {
            throw diags.fail(sp.pos, "__constant__ variables must be declared at file scope, outside functions");
        }
        if (sp.extern && !sp.shared) {
            throw diags.fail(sp.pos, "extern local variables are not supported (only 'extern __shared__' arrays)");
        }
        Syntax.Storage storage = sp.shared ? (sp.extern ? Syntax.Storage.EXTERN_SHARED : Syntax.Storage.SHARED)
                : Syntax.Storage.LOCAL;
        List<Syntax.Declarator> ds = new ArrayList<>();
        do {
            Decl d = declarator(sp.type, sp.isConst, true);
            declareName(d.name());
            Expr init = null;
            Syntax.InitList list = null;
            if (accept("=")) {
                if (at("{")) {
                    list = initList();
                } else {
                    init = assign();
                }
            } else if (at("{")) {
                list = initList();
                if (d.type() == null && list.items().size() == 1 && list.items().getFirst() instanceof Expr only) {
                    init = only; // auto z{v}: deduced from the one value, as C++17 does
                    list = null;
                }
            } else if (at("(")) {
                init = cxx.parenInitializer(d);
            }
            if (sp.isStatic && !sp.shared && (!d.isConst() || init == null && list == null)) {
                // A static const local with an initializer is a constant, the same in every thread: a local.
                // A __shared__ variable has static storage anyway (one per block), so 'static' adds nothing.
                throw diags.fail(sp.pos, "static local variables are not supported by the CPU device's kernel "
                        + "engine unless they are const and initialized ('static const float w[3] = {…};'); declare "
                        + "a __device__ variable at file scope instead");
            }
            ds.add(new Syntax.Declarator(d.pos(), d.name(), d.type(), d.dims(), storage, d.isConst(), sp.isVolatile,
                    init, list));
        } while (accept(","));
        expect(";", "expected ';' at end of declaration");
        return new PStmt.Decl(pos, ds);
    }

    Syntax.InitList initList() {
        Pos pos = expect("{", "expected '{'").pos();
        List<Object> items = new ArrayList<>();
        while (!at("}")) {
            if (cxx.atDesignator()) {
                throw cxx.designator();
            }
            if (at("{")) {
                nest(tok().pos());
                try {
                    items.add(initList());
                } finally {
                    unnest(1);
                }
            } else {
                items.add(assign());
            }
            if (!accept(",")) {
                break;
            }
        }
        expect("}", "expected '}' at end of initializer list");
        return new Syntax.InitList(pos, items);
    }
}
