package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a valid generated kernel into one that should not compile: a token dropped or duplicated, a name
 * made undeclared, a statement with a type error, a bad template argument, a jump or return where none is
 * allowed, an unterminated comment or preprocessor block. The engine must answer every such program with a
 * compile error at a line and column, never with another exception; a mutation now and then leaves the
 * program valid (nvcc decides which).
 */
public final class InvalidMutator {
    /** A mutated source and what was done to it. */
    public record Mutation(String source, String kind) {
    }

    private static final Pattern LOCAL = Pattern.compile("\\b(v|a|p|i|j|w)[0-9]+\\b");
    private static final Pattern TEMPLATE_CALL = Pattern.compile("(\\w+_t[0-9]+)(<[^>]*>)?\\(");
    private static final Pattern INT_TEMPLATE_CALL = Pattern.compile("(\\w+_tn[0-9]+)<[0-9]+>\\(");
    private static final Pattern FUNCTION_CALL = Pattern.compile("\\b(\\w+_f[0-9]+)\\(");
    private static final List<String> BAD_STATEMENTS = List.of(
            "int bad0 = make_int2(1, 2);", "float2 bad1 = 1.0f;", "undeclared_function(3);",
            "int bad2[2] = {1, 2, 3};", "break;", "continue;", "return 5;", "int bad3 = ;",
            "__syncthreads(1);", "int bad4 = 3; bad4.x = 1;", "*5 = 3;", "const int bad5 = 1; bad5 = 2;",
            "int bad6 = sizeof(struct nonexistent);", "int bad7 = \"abc\";", "int bad8 = 1 +;",
            "unsigned int tid = 0u;", "float bad9 = 1.0f; bad9 %= 2.0f;", "int bad10 = (int;",
            "goto nowhere;", "int bad11 = 1; int bad11 = 2;", "double bad12 = 1.0 << 2;",
            "int bad13 = __shfl_sync(0xffffffffu);", "int4 bad14 = make_int4(1, 2);", "int bad15 = bad15x;");

    private InvalidMutator() {
    }

    /** One mutation of {@code source}, chosen by {@code seed}. */
    public static Mutation mutate(String source, long seed) {
        Rng r = new Rng(seed);
        for (int attempt = 0; attempt < 8; attempt++) {
            Mutation m = switch (r.below(9)) {
                case 0 -> dropChar(source, r, ';', "missing semicolon");
                case 1 -> dropChar(source, r, r.pick(')', '(', '}', ']'), "unbalanced bracket");
                case 2 -> undeclare(source, r);
                case 3, 4 -> insert(source, r, r.pick(BAD_STATEMENTS), "bad statement");
                case 5 -> badTemplate(source, r);
                case 6 -> wrongArity(source, r);
                case 7 -> tokenNoise(source, r);
                default -> insert(source, r, r.pick("/* unterminated", "#if 1", "#endif", "#define", "'",
                        "\"unterminated"), "broken lexeme");
            };
            if (m != null && !m.source().equals(source)) {
                return m;
            }
        }
        return insert(source, r, "int bad = ;", "bad statement");
    }

    private static Mutation dropChar(String s, Rng r, char c, String kind) {
        List<Integer> at = new ArrayList<>();
        int body = s.indexOf("__global__");
        for (int i = Math.max(0, body); i < s.length(); i++) {
            if (s.charAt(i) == c) {
                at.add(i);
            }
        }
        if (at.isEmpty()) {
            return null;
        }
        int i = r.pick(at);
        return new Mutation(s.substring(0, i) + s.substring(i + 1), kind + " ('" + c + "' removed)");
    }

    private static Mutation undeclare(String s, Rng r) {
        List<int[]> uses = matches(LOCAL, s);
        if (uses.isEmpty()) {
            return null;
        }
        int[] u = r.pick(uses);
        return new Mutation(s.substring(0, u[1]) + "_undeclared" + s.substring(u[1]), "undeclared name");
    }

    /** {@code stmt} put on its own line somewhere inside the kernel's body. */
    private static Mutation insert(String s, Rng r, String stmt, String kind) {
        int open = s.indexOf('{', s.indexOf("__global__"));
        int close = s.lastIndexOf('}');
        if (open < 0 || close <= open) {
            return null;
        }
        List<Integer> lineStarts = new ArrayList<>();
        for (int i = open + 1; i < close; i++) {
            if (s.charAt(i - 1) == '\n') {
                lineStarts.add(i);
            }
        }
        int at = lineStarts.isEmpty() ? open + 1 : r.pick(lineStarts);
        return new Mutation(s.substring(0, at) + "    " + stmt + "\n" + s.substring(at), kind + " (" + stmt + ")");
    }

    private static Mutation badTemplate(String s, Rng r) {
        Matcher m = TEMPLATE_CALL.matcher(s);
        if (m.find()) {
            return new Mutation(s.substring(0, m.start()) + m.group(1) + r.pick("<3>", "<int, int>", "<>", "<void>")
                    + "(" + s.substring(m.end()), "bad template argument");
        }
        m = INT_TEMPLATE_CALL.matcher(s);
        if (m.find()) {
            return new Mutation(s.substring(0, m.start()) + m.group(1) + r.pick("<int>", "<1.5f>", "<>")
                    + "(" + s.substring(m.end()), "bad template argument");
        }
        return null;
    }

    private static Mutation wrongArity(String s, Rng r) {
        Matcher m = FUNCTION_CALL.matcher(s);
        List<int[]> calls = new ArrayList<>();
        while (m.find()) {
            if (s.lastIndexOf('\n', m.start()) > s.indexOf("__global__")) {
                calls.add(new int[] {m.start(), m.end()});
            }
        }
        if (calls.isEmpty()) {
            return null;
        }
        int[] c = r.pick(calls);
        return new Mutation(s.substring(0, c[1]) + "1, 2, 3, 4, 5, 6, " + s.substring(c[1]), "wrong argument count");
    }

    /** A random token of the kernel duplicated, or the source cut short. */
    private static Mutation tokenNoise(String s, Rng r) {
        if (r.percent(30)) {
            int body = s.indexOf("__global__");
            int cut = body + r.below(Math.max(1, s.length() - body));
            return new Mutation(s.substring(0, cut), "truncated source");
        }
        List<int[]> tokens = matches(Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[-+*/%&|^<>=!]+"), s);
        if (tokens.isEmpty()) {
            return null;
        }
        int[] t = r.pick(tokens);
        String tok = s.substring(t[0], t[1]);
        return new Mutation(s.substring(0, t[1]) + " " + tok + s.substring(t[1]), "duplicated token '" + tok + "'");
    }

    private static List<int[]> matches(Pattern p, String s) {
        List<int[]> out = new ArrayList<>();
        Matcher m = p.matcher(s);
        int body = s.indexOf("__global__");
        while (m.find()) {
            if (m.start() > body) {
                out.add(new int[] {m.start(), m.end()});
            }
        }
        return out;
    }
}
