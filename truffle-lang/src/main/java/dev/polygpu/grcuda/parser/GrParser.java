package dev.polygpu.grcuda.parser;

import com.oracle.truffle.api.source.Source;
import dev.polygpu.grcuda.GrError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses GrCUDA's expression language. Grammar (whitespace between tokens is free):
 * <pre>
 * expr     := name ('::' name)*                       -- CU, DeviceArray, BLAS::cublasSaxpy
 *           | type ('[' const ']')+                   -- float[100], int[10*100], double[10][20]
 *           | qname '(' [arg (',' arg)*] ')'          -- DeviceArray("float", 1000)
 * arg      := string | const | qname
 * const    := term (('+' | '-') term)* ; term := factor (('*' | '/' | '%') factor)*
 * factor   := integer | '(' const ')' | '-' factor
 * </pre>
 * Errors name the position (line:column) and what was expected.
 */
public final class GrParser {
    /** Element types an array expression may name (GrCUDA's, plus bool and the unsigned ones). */
    public static final Set<String> ARRAY_TYPES = Set.of("char", "short", "int", "long", "float", "double",
            "bool", "boolean", "uchar", "ushort", "uint", "ulong", "sint8", "sint16", "sint32", "sint64", "uint8",
            "uint16", "uint32", "uint64");

    private final String text;
    private int pos;

    private GrParser(String text) {
        this.text = text;
    }

    public static GrExpression parse(Source source) {
        return parse(source.getCharacters().toString());
    }

    public static GrExpression parse(String text) {
        GrParser p = new GrParser(text);
        GrExpression e = p.expression();
        p.skipSpace();
        if (p.pos < text.length()) {
            throw p.error("unexpected '" + text.charAt(p.pos) + "' after the expression");
        }
        return e;
    }

    private GrExpression expression() {
        skipSpace();
        if (pos >= text.length()) {
            throw error("empty grcuda expression; expected a name such as CU or DeviceArray, an array such as"
                    + " float[100], or a call such as DeviceArray(\"float\", 100)");
        }
        int start = pos;
        GrExpression.Name name = qualifiedName();
        skipSpace();
        if (peek('[')) {
            if (name.path().size() != 1 || !ARRAY_TYPES.contains(name.path().get(0))) {
                pos = start;
                throw error("'" + String.join("::", name.path()) + "' is not an element type; array expressions"
                        + " look like float[100] with one of " + new java.util.TreeSet<>(ARRAY_TYPES));
            }
            List<Long> dims = new ArrayList<>();
            while (peek('[')) {
                pos++;
                long d = constant();
                if (d <= 0) {
                    throw error("array dimension must be positive, got " + d);
                }
                dims.add(d);
                skipSpace();
                expect(']');
                skipSpace();
            }
            return new GrExpression.ArrayExpr(name.path().get(0), List.copyOf(dims));
        }
        if (peek('(')) {
            pos++;
            List<Object> args = new ArrayList<>();
            skipSpace();
            if (!peek(')')) {
                do {
                    skipSpace();
                    args.add(argument());
                    skipSpace();
                } while (consume(','));
            }
            expect(')');
            return new GrExpression.Call(name, List.copyOf(args));
        }
        return name;
    }

    private Object argument() {
        if (peek('"') || peek('\'')) {
            return string();
        }
        if (pos < text.length() && Character.isJavaIdentifierStart(text.charAt(pos))) {
            return qualifiedName();
        }
        return constant();
    }

    private GrExpression.Name qualifiedName() {
        List<String> parts = new ArrayList<>();
        parts.add(identifier());
        while (true) {
            skipSpace();
            if (text.startsWith("::", pos)) {
                pos += 2;
                skipSpace();
                parts.add(identifier());
            } else {
                return new GrExpression.Name(List.copyOf(parts));
            }
        }
    }

    private String identifier() {
        int start = pos;
        if (pos >= text.length() || !Character.isJavaIdentifierStart(text.charAt(pos))) {
            throw error("expected a name");
        }
        while (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private String string() {
        char quote = text.charAt(pos++);
        StringBuilder sb = new StringBuilder();
        while (pos < text.length() && text.charAt(pos) != quote) {
            char ch = text.charAt(pos++);
            if (ch == '\\' && pos < text.length()) {
                ch = text.charAt(pos++);
            }
            sb.append(ch);
        }
        if (pos >= text.length()) {
            throw error("unterminated string");
        }
        pos++;
        return sb.toString();
    }

    private long constant() {
        long v = term();
        while (true) {
            skipSpace();
            if (consume('+')) {
                v = Math.addExact(v, term());
            } else if (consume('-')) {
                v = Math.subtractExact(v, term());
            } else {
                return v;
            }
        }
    }

    private long term() {
        long v = factor();
        while (true) {
            skipSpace();
            if (consume('*')) {
                v = Math.multiplyExact(v, factor());
            } else if (consume('/')) {
                long d = factor();
                if (d == 0) {
                    throw error("division by zero in a constant expression");
                }
                v /= d;
            } else if (consume('%')) {
                long d = factor();
                if (d == 0) {
                    throw error("division by zero in a constant expression");
                }
                v %= d;
            } else {
                return v;
            }
        }
    }

    private long factor() {
        skipSpace();
        if (consume('(')) {
            long v = constant();
            skipSpace();
            expect(')');
            return v;
        }
        if (consume('-')) {
            return -factor();
        }
        int start = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        if (start == pos) {
            throw error("expected an integer constant");
        }
        try {
            return Long.parseLong(text.substring(start, pos));
        } catch (NumberFormatException e) {
            pos = start;
            throw error("integer constant too large");
        }
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private boolean consume(char c) {
        if (peek(c)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!consume(c)) {
            throw error("expected '" + c + "'");
        }
    }

    private GrError error(String what) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < pos && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return GrError.of("grcuda syntax error at " + line + ":" + col + ": " + what + " in \"" + text + "\"");
    }
}
