package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.ptx.PtxSyntax.Close;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Decl;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Function;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Imm;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Instr;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Kind;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Label;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Mem;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Name;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Open;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Param;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Paren;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Sink;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Stmt;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Token;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Var;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Vec;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads PTX text into {@link PtxSyntax.Module}: the module directives ({@code .version}, {@code .target},
 * {@code .address_size}), module-scope variables and the {@code .entry}/{@code .func} definitions with their
 * bodies as statements. It checks the grammar only; what instructions mean is the {@link PtxDecoder}'s.
 *
 * <p>Implementation notes: a hand-written tokenizer (PTX words contain dots: {@code ld.global.u32} is one token)
 * and a recursive-descent reader over the token list. Debug information ({@code .file}, {@code .loc},
 * {@code .section .debug_…}) and {@code .pragma} are skipped: they do not change what a kernel computes. Performance directives after an entry's
 * parameters ({@code .maxntid}, {@code .reqntid}, {@code .minnctapersm}, {@code .maxnreg}) are read and dropped.
 * Anything else the reader does not know is INVALID_PTX or NOT_SUPPORTED with file and line.
 */
final class PtxParser {
    private final String file;
    private final String[] lines;
    private final List<Token> toks;
    private int pos;

    private PtxParser(String file, String text) {
        this.file = file;
        this.lines = text.split("\n", -1);
        this.toks = tokenize(text);
    }

    static PtxSyntax.Module parse(String text, String file) {
        return new PtxParser(file, text).module();
    }

    // ---- tokens ----

    private List<Token> tokenize(String s) {
        List<Token> out = new ArrayList<>();
        int line = 1;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                if (end < 0) {
                    throw PtxSyntax.invalid(file, line, "comment opened with /* is not closed");
                }
                for (int k = i; k < end; k++) {
                    if (s.charAt(k) == '\n') {
                        line++;
                    }
                }
                i = end + 2;
            } else if (c == '"') {
                int end = s.indexOf('"', i + 1);
                if (end < 0 || s.substring(i, end).indexOf('\n') >= 0) {
                    throw PtxSyntax.invalid(file, line, "string is not closed on its line");
                }
                out.add(new Token(Kind.STRING, s.substring(i, end + 1), line));
                i = end + 1;
            } else if (Character.isDigit(c)) {
                int start = i;
                while (i < n && (isWordChar(s.charAt(i)) || exponentSign(s, start, i))) {
                    i++;
                }
                out.add(new Token(Kind.NUMBER, s.substring(start, i), line));
            } else if (isWordStart(c)) {
                int start = i;
                while (i < n && isWordChar(s.charAt(i))) {
                    i++;
                }
                out.add(new Token(Kind.WORD, s.substring(start, i), line));
            } else if ("{}[]()<>,;:+-@!|=".indexOf(c) >= 0) {
                out.add(new Token(Kind.PUNCT, String.valueOf(c), line));
                i++;
            } else if (c == 0) {
                throw PtxSyntax.invalid(file, line, "the image has a NUL byte: it is not PTX text");
            } else {
                throw PtxSyntax.invalid(file, line, "unexpected character '" + c + "' (U+"
                        + Integer.toHexString(c).toUpperCase() + ")");
            }
        }
        return out;
    }

    private static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_' || c == '$' || c == '%' || c == '.';
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '%' || c == '.';
    }

    /** A sign right after the exponent letter of a decimal float literal ({@code 1.5e-3}). */
    private static boolean exponentSign(String s, int start, int i) {
        char c = s.charAt(i);
        if ((c != '-' && c != '+') || i == start) {
            return false;
        }
        char prev = s.charAt(i - 1);
        String sofar = s.substring(start, i).toLowerCase();
        return (prev == 'e' || prev == 'E') && !sofar.startsWith("0x") && !sofar.startsWith("0f")
                && !sofar.startsWith("0d") && sofar.indexOf('.') >= 0;
    }

    // ---- reading helpers ----

    private Token peek() {
        return pos < toks.size() ? toks.get(pos) : null;
    }

    private boolean at(String s) {
        Token t = peek();
        return t != null && t.is(s);
    }

    private Token next(String what) {
        Token t = peek();
        if (t == null) {
            throw PtxSyntax.invalid(file, lastLine(), "the text ends where " + what + " was expected");
        }
        pos++;
        return t;
    }

    private Token expect(String s) {
        Token t = next("'" + s + "'");
        if (!t.is(s)) {
            throw PtxSyntax.invalid(file, t.line(), "expected '" + s + "', found '" + t + "'");
        }
        return t;
    }

    private int lastLine() {
        return toks.isEmpty() ? 1 : toks.get(toks.size() - 1).line();
    }

    private void skipLine(int line) {
        while (peek() != null && peek().line() == line) {
            pos++;
        }
    }

    private void skipStatement() {
        while (!at(";")) {
            next("';'");
        }
        pos++;
    }

    /** The source line, without its comment, for messages. */
    String sourceLine(int line) {
        if (line < 1 || line > lines.length) {
            return "";
        }
        String l = lines[line - 1];
        int c = l.indexOf("//");
        return (c >= 0 ? l.substring(0, c) : l).strip().replaceAll("\\s+", " ");
    }

    // ---- module ----

    private PtxSyntax.Module module() {
        String version = null;
        String target = null;
        List<Var> vars = new ArrayList<>();
        List<Function> funcs = new ArrayList<>();
        while (peek() != null) {
            Token t = next("a directive");
            switch (t.text()) {
                case ".version" -> version = next("the PTX version").text();
                case ".target" -> {
                    target = next("the target").text();
                    while (at(",")) {
                        pos++;
                        next("a target option");
                    }
                }
                case ".address_size" -> {
                    Token a = next("the address size");
                    if (!a.is("64")) {
                        throw PtxSyntax.unsupported(file, a.line(), ".address_size " + a + " (32-bit PTX)");
                    }
                }
                case ".file" -> skipLine(t.line());
                case ".visible", ".extern", ".weak" -> {
                    // linkage: the entity follows; .extern .func is a declaration without a body
                    continue;
                }
                case ".entry", ".func" -> funcs.add(function(t));
                case ".global", ".const", ".shared" -> vars.add(variable(t, t.text().substring(1)));
                case ".section" -> skipSection(t);
                default -> {
                    if (t.text().startsWith(".")) {
                        throw PtxSyntax.unsupported(file, t.line(), "module directive " + t);
                    }
                    throw PtxSyntax.invalid(file, t.line(), "expected a directive, found '" + t + "'");
                }
            }
        }
        if (version == null) {
            throw PtxSyntax.invalid(file, 1, "no .version directive: this is not PTX text");
        }
        if (target == null) {
            throw PtxSyntax.invalid(file, 1, "no .target directive");
        }
        return new PtxSyntax.Module(file, version, target, vars, funcs);
    }

    /** {@code .global [.align N] [.v2|.v4] .type name[[N]]… [= init];} (the space already read). */
    /**
     * Skips {@code .section .debug_… { … }}: DWARF debug information (nvcc -G), which does not change what a
     * kernel computes. Other sections are refused.
     */
    private void skipSection(Token start) {
        Token name = next("a section name");
        if (!name.text().startsWith(".debug")) {
            throw PtxSyntax.unsupported(file, start.line(), "section " + name);
        }
        expect("{");
        int depth = 1;
        while (depth > 0) {
            Token t = next("'}' closing the section");
            if (t.is("{")) {
                depth++;
            } else if (t.is("}")) {
                depth--;
            }
        }
    }

    private Var variable(Token start, String space) {
        int align = 0;
        String type = null;
        while (peek() != null && peek().text().startsWith(".")) {
            Token m = next("a type");
            if (m.is(".align")) {
                align = (int) PtxNumbers.integer(file, m.line(), next("an alignment").text());
            } else if (PtxTypes.isType(m.text().substring(1))) {
                type = m.text().substring(1);
            } else {
                throw PtxSyntax.unsupported(file, m.line(), "variable qualifier " + m);
            }
        }
        if (type == null || type.equals("pred")) {
            throw PtxSyntax.invalid(file, start.line(), "variable without a data type");
        }
        Token name = next("a variable name");
        long count = 1;
        boolean unsized = false;
        while (at("[")) {
            pos++;
            if (at("]")) {
                unsized = true;
                count = 0;
            } else {
                count *= PtxNumbers.integer(file, name.line(), next("an array size").text());
            }
            expect("]");
        }
        long[] init = null;
        if (at("=")) {
            pos++;
            List<Long> vals = new ArrayList<>();
            if (at("{")) {
                pos++;
                while (!at("}")) {
                    vals.add(initValue(type, name.line()));
                    if (at(",")) {
                        pos++;
                    }
                }
                pos++;
            } else {
                vals.add(initValue(type, name.line()));
            }
            init = vals.stream().mapToLong(Long::longValue).toArray();
            if (unsized) {
                count = init.length;
                unsized = false;
            }
        }
        expect(";");
        int a = align == 0 ? PtxTypes.size(type) : align;
        return new Var(space, name.text(), type, a, count, unsized, init, start.line());
    }

    private long initValue(String type, int line) {
        boolean neg = false;
        if (at("-")) {
            pos++;
            neg = true;
        }
        Token t = next("an initial value");
        if (t.kind() != Kind.NUMBER) {
            throw PtxSyntax.unsupported(file, t.line(), "initializer '" + t + "' (only numbers are supported;"
                    + " addresses of variables are not)");
        }
        return PtxNumbers.bits(file, line, (neg ? "-" : "") + t.text(), type);
    }

    private Function function(Token start) {
        boolean entry = start.is(".entry");
        List<Param> returns = List.of();
        if (at("(")) {
            returns = params(start);
        }
        Token name = next("a function name");
        List<Param> params = at("(") ? params(start) : List.of();
        while (peek() != null && !at("{") && !at(";")) {
            Token d = next("a body");
            switch (d.text()) {
                case ".maxntid", ".reqntid", ".minnctapersm", ".maxnreg", ".maxnctapersm", ".noreturn",
                     ".pragma" -> {
                    while (peek() != null && (peek().kind() == Kind.NUMBER || peek().kind() == Kind.STRING
                            || at(","))) {
                        pos++;
                    }
                    if (at(";") && d.is(".pragma")) {
                        pos++;
                    }
                }
                default -> throw PtxSyntax.unsupported(file, d.line(), "function directive " + d);
            }
        }
        if (at(";")) {
            pos++;
            return new Function(name.text(), entry, params, returns, null, start.line());
        }
        expect("{");
        return new Function(name.text(), entry, params, returns, body(), start.line());
    }

    private List<Param> params(Token owner) {
        expect("(");
        List<Param> out = new ArrayList<>();
        while (!at(")")) {
            Token p = next("a parameter");
            if (!p.is(".param")) {
                throw PtxSyntax.unsupported(file, p.line(), "parameter declared as " + p + " (only .param)");
            }
            int align = 0;
            String type = null;
            StringBuilder decl = new StringBuilder();
            while (peek() != null && peek().text().startsWith(".")) {
                Token m = next("a type");
                if (m.is(".align")) {
                    String a = next("an alignment").text();
                    if (type == null) {
                        align = (int) PtxNumbers.integer(file, m.line(), a);
                        decl.append(".align ").append(a).append(' ');
                    }
                } else if (m.is(".ptr") || m.is(".global") || m.is(".shared") || m.is(".const")
                        || m.is(".local")) {
                    continue;
                } else if (PtxTypes.isType(m.text().substring(1)) && !m.is(".pred")) {
                    type = m.text().substring(1);
                    decl.append(m.text());
                } else {
                    throw PtxSyntax.unsupported(file, m.line(), "parameter qualifier " + m);
                }
            }
            if (type == null) {
                throw PtxSyntax.invalid(file, p.line(), "parameter without a type");
            }
            Token name = next("a parameter name");
            int count = 1;
            boolean array = false;
            if (at("[")) {
                pos++;
                count = (int) PtxNumbers.integer(file, name.line(), next("an array size").text());
                expect("]");
                array = true;
                decl.append('[').append(count).append(']');
            }
            int a = align == 0 ? PtxTypes.size(type) : align;
            out.add(new Param(name.text(), type, a, count, array, decl.toString()));
            if (at(",")) {
                pos++;
            } else if (!at(")")) {
                throw PtxSyntax.invalid(file, peek().line(), "expected ',' or ')' in the parameters of "
                        + owner.text().substring(1) + ", found '" + peek() + "'");
            }
        }
        pos++;
        return out;
    }

    private List<Stmt> body() {
        List<Stmt> out = new ArrayList<>();
        int depth = 1;
        while (true) {
            Token t = next("'}' closing the function body");
            if (t.is("{")) {
                depth++;
                out.add(new Open(t.line()));
            } else if (t.is("}")) {
                if (--depth == 0) {
                    return out;
                }
                out.add(new Close(t.line()));
            } else if (t.kind() == Kind.WORD && at(":")) {
                pos++;
                out.add(new Label(t.text(), t.line()));
            } else if (t.is(".loc") || t.is(".file")) {
                skipLine(t.line());
            } else if (t.is(".pragma")) {
                skipStatement();
            } else if (t.text().startsWith(".")) {
                List<Token> decl = new ArrayList<>();
                decl.add(t);
                while (!at(";")) {
                    decl.add(next("';' ending the declaration"));
                }
                pos++;
                out.add(new Decl(decl, t.line()));
            } else if (t.is("@")) {
                boolean neg = false;
                if (at("!")) {
                    pos++;
                    neg = true;
                }
                Token g = next("a guard predicate");
                out.add(instruction(g.text(), neg, next("an instruction")));
            } else if (t.kind() == Kind.WORD) {
                out.add(instruction(null, false, t));
            } else {
                throw PtxSyntax.invalid(file, t.line(), "unexpected '" + t + "' in a function body");
            }
        }
    }

    private Instr instruction(String guard, boolean neg, Token op) {
        List<Operand> operands = new ArrayList<>();
        String pair = null;
        while (!at(";")) {
            operands.add(operand(op));
            if (at("|")) {
                pos++;
                pair = next("a second predicate").text();
            }
            if (at(",")) {
                pos++;
            } else if (!at(";")) {
                throw PtxSyntax.invalid(file, peek().line(), "expected ',' or ';' after an operand of " + op
                        + ", found '" + peek() + "'");
            }
        }
        pos++;
        return new Instr(guard, neg, op.text(), operands, pair, op.line(), sourceLine(op.line()));
    }

    private Operand operand(Token op) {
        Token t = next("an operand");
        switch (t.text()) {
            case "[" -> {
                String base = null;
                long off = 0;
                if (peek() != null && peek().kind() == Kind.WORD) {
                    base = next("an address").text();
                }
                while (!at("]")) {
                    Token s = next("']'");
                    boolean minus = s.is("-");
                    if (!minus && !s.is("+") && !(base == null && s.kind() == Kind.NUMBER)) {
                        throw PtxSyntax.invalid(file, s.line(), "unexpected '" + s + "' in an address");
                    }
                    Token num = s.kind() == Kind.NUMBER ? s : next("an offset");
                    if (num.is("-")) {
                        minus = !minus;
                        num = next("an offset");
                    }
                    long v = PtxNumbers.integer(file, num.line(), num.text());
                    off += minus ? -v : v;
                }
                pos++;
                return new Mem(base, off);
            }
            case "{", "(" -> {
                String close = t.is("{") ? "}" : ")";
                List<Operand> els = new ArrayList<>();
                while (!at(close)) {
                    els.add(operand(op));
                    if (at(",")) {
                        pos++;
                    }
                }
                pos++;
                return t.is("{") ? new Vec(els) : new Paren(els);
            }
            case "-" -> {
                Token num = next("a number");
                if (num.kind() != Kind.NUMBER) {
                    throw PtxSyntax.invalid(file, num.line(), "expected a number after '-', found '" + num + "'");
                }
                return new Imm("-" + num.text());
            }
            case "!" -> {
                return new Name("!" + next("a predicate").text());
            }
            default -> {
                if (t.kind() == Kind.NUMBER) {
                    return new Imm(t.text());
                }
                if (t.is("_")) {
                    return new Sink();
                }
                if (t.kind() == Kind.WORD) {
                    return new Name(t.text());
                }
                throw PtxSyntax.invalid(file, t.line(), "unexpected '" + t + "' as an operand of " + op);
            }
        }
    }
}
