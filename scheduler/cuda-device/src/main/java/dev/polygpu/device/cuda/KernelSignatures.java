package dev.polygpu.device.cuda;

import dev.polygpu.device.CTypeWords;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelParam;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The C parameter lists of the {@code __global__} functions of CUDA C source, read without compiling it, so
 * that launches can check argument kinds and types against what the user wrote (PTX only has sizes).
 *
 * <p>What it understands: comments, string and character literals and preprocessor lines are skipped; the
 * prefixes {@code extern "C"}, {@code static}, {@code inline}, {@code template<…>} and
 * {@code __launch_bounds__(…)} are passed over; a parameter is a scalar or pointer of a builtin arithmetic type
 * (or a {@code <stdint.h>} / {@code size_t} alias), with {@code const}, {@code volatile}, {@code __restrict__},
 * {@code restrict} and {@code __grid_constant__} ignored; {@code T a[]} is a pointer; a pointer to anything
 * else ({@code void*}, {@code T*}, {@code float**}, a struct) is a pointer with a null element type.
 *
 * <p>What it leaves out of the map: a function with a parameter it cannot type (a template's {@code T} or a
 * struct by value, a reference, a function pointer), a name declared with different parameter types more than
 * once (overloads, or the same name in two namespaces), explicit specializations ({@code k<float>(…)}), and
 * kernels whose {@code __global__} comes from a macro. The caller then falls back to the sizes in the PTX. A
 * declaration and a definition with the same types count once (the definition's parameter names win).
 */
final class KernelSignatures {
    private KernelSignatures() {
    }

    /** The kernels of {@code source} by their unqualified name, in source order. */
    static Map<String, List<KernelParam>> parse(String source) {
        List<String> tokens = tokenize(blankOut(source));
        Map<String, List<KernelParam>> found = new LinkedHashMap<>();
        Set<String> dropped = new HashSet<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (!tokens.get(i).equals("__global__")) {
                continue;
            }
            Kernel k = kernelAt(tokens, i + 1);
            if (k == null || dropped.contains(k.name)) {
                continue;
            }
            if (k.params == null) {
                dropped.add(k.name);
                found.remove(k.name);
                continue;
            }
            List<KernelParam> before = found.get(k.name);
            if (before == null) {
                found.put(k.name, k.params);
            } else if (sameTypes(before, k.params)) {
                if (k.hasBody) {
                    found.put(k.name, k.params);
                }
            } else {
                dropped.add(k.name);
                found.remove(k.name);
            }
        }
        return found;
    }

    /** A kernel's name and parameters (null when one cannot be typed); null for a specialization or no name. */
    private record Kernel(String name, List<KernelParam> params, boolean hasBody) {
    }

    private static Kernel kernelAt(List<String> t, int i) {
        // Return type and specifiers up to the name: the identifier before the first '(' that is not an attribute.
        String name = null;
        while (i < t.size()) {
            String tok = t.get(i);
            if (tok.equals("__launch_bounds__") || tok.equals("__attribute__") || tok.equals("__declspec")
                    || tok.equals("alignas")) {
                i = skipGroup(t, i + 1, "(", ")");
            } else if (tok.equals("[") && i + 1 < t.size() && t.get(i + 1).equals("[")) {
                i = skipGroup(t, i, "[", "]");
            } else if (tok.equals("(")) {
                break;
            } else if (tok.equals("<")) {
                return null; // explicit specialization k<float>(…) or something not a plain declarator
            } else if (tok.equals(";") || tok.equals("{") || tok.equals("}")) {
                return null;
            } else {
                name = isIdentifier(tok) ? tok : name;
                i++;
            }
        }
        if (name == null || i >= t.size()) {
            return null;
        }
        int close = skipGroup(t, i, "(", ")");
        List<String> inner = t.subList(i + 1, Math.max(i + 1, close - 1));
        boolean hasBody = close < t.size() && t.get(close).equals("{");
        return new Kernel(name, params(inner), hasBody);
    }

    /** The index after the group that opens at {@code t[i]} (which must be {@code open}); {@code i} if it does not. */
    private static int skipGroup(List<String> t, int i, String open, String close) {
        if (i >= t.size() || !t.get(i).equals(open)) {
            return i;
        }
        int depth = 0;
        for (; i < t.size(); i++) {
            if (t.get(i).equals(open)) {
                depth++;
            } else if (t.get(i).equals(close) && --depth == 0) {
                return i + 1;
            }
        }
        return t.size();
    }

    private static List<KernelParam> params(List<String> tokens) {
        List<List<String>> split = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        int depth = 0;
        for (String tok : tokens) {
            switch (tok) {
                case "(", "[", "<", "{" -> depth++;
                case ")", "]", ">", "}" -> depth--;
                default -> { }
            }
            if (tok.equals(",") && depth == 0) {
                split.add(cur);
                cur = new ArrayList<>();
            } else {
                cur.add(tok);
            }
        }
        split.add(cur);
        if (split.size() == 1 && (cur.isEmpty() || cur.equals(List.of("void")))) {
            return List.of();
        }
        List<KernelParam> out = new ArrayList<>();
        for (List<String> p : split) {
            KernelParam kp = param(p);
            if (kp == null) {
                return null;
            }
            out.add(kp);
        }
        return List.copyOf(out);
    }

    private static final Set<String> IGNORED = Set.of("const", "volatile", "__restrict__", "__restrict", "restrict",
            "__grid_constant__", "register", "struct", "class");
    private static final Set<String> TYPE_WORDS = Set.of("void", "bool", "char", "short", "int", "long", "float",
            "double", "signed", "unsigned");
    private static final Map<String, ElementType> ALIASES = Map.ofEntries(
            Map.entry("int8_t", ElementType.INT8), Map.entry("uint8_t", ElementType.UINT8),
            Map.entry("int16_t", ElementType.INT16), Map.entry("uint16_t", ElementType.UINT16),
            Map.entry("int32_t", ElementType.INT32), Map.entry("uint32_t", ElementType.UINT32),
            Map.entry("int64_t", ElementType.INT64), Map.entry("uint64_t", ElementType.UINT64),
            Map.entry("size_t", ElementType.UINT64), Map.entry("ptrdiff_t", ElementType.INT64));

    /** One parameter declaration; null if it cannot be typed. */
    private static KernelParam param(List<String> decl) {
        int eq = decl.indexOf("=");
        if (eq >= 0) {
            decl = decl.subList(0, eq); // a default argument
        }
        List<String> words = new ArrayList<>();
        int stars = 0;
        boolean array = false;
        for (int i = 0; i < decl.size(); i++) {
            String tok = decl.get(i);
            if (IGNORED.contains(tok)) {
                continue;
            }
            if (tok.equals("*")) {
                stars++;
            } else if (tok.equals("[")) {
                if (skipGroup(decl, i, "[", "]") != decl.size()) {
                    return null; // a multi-dimensional array or something after the brackets
                }
                array = true;
                break;
            } else if (isIdentifier(tok)) {
                words.add(tok);
            } else {
                return null; // '&', '(', '::', a template argument list …
            }
        }
        if (words.isEmpty()) {
            return null;
        }
        String name = "";
        String last = words.get(words.size() - 1);
        if (words.size() >= 2 && !TYPE_WORDS.contains(last)) {
            name = last;
            words = words.subList(0, words.size() - 1);
        }
        boolean pointer = stars > 0 || array;
        ElementType type;
        if (TYPE_WORDS.containsAll(words)) {
            type = builtin(words);
            if (type == null && !(pointer && words.equals(List.of("void")))) {
                return null;
            }
        } else if (words.size() == 1 && ALIASES.containsKey(words.get(0))) {
            type = ALIASES.get(words.get(0));
        } else if (pointer && words.size() == 1) {
            type = null; // a pointer to a struct, typedef or template parameter
        } else {
            return null; // such a type by value, or words that do not make a type
        }
        if (stars > 1 || (stars == 1 && array)) {
            type = null; // a pointer to pointers: its elements are addresses
        }
        return new KernelParam(name, pointer, type);
    }

    /** The element type named by a combination of builtin type words; null when they do not name one. */
    private static ElementType builtin(List<String> words) {
        CTypeWords t = CTypeWords.of(words);
        if (t == null) {
            return null;
        }
        boolean plain = t.plain();
        boolean unsigned = t.unsigned();
        int longs = t.longs();
        String base = t.base();
        return switch (base) {
            case "bool" -> plain ? ElementType.BOOL : null;
            case "float" -> plain ? ElementType.FLOAT : null;
            case "double" -> plain ? ElementType.DOUBLE : null; // long double has no element type
            case "char" -> longs > 0 ? null : unsigned ? ElementType.UINT8 : ElementType.INT8;
            case "short" -> longs > 0 ? null : unsigned ? ElementType.UINT16 : ElementType.INT16;
            case "int" -> longs == 0 ? (unsigned ? ElementType.UINT32 : ElementType.INT32)
                    : (unsigned ? ElementType.UINT64 : ElementType.INT64);
            default -> null; // void as a scalar
        };
    }

    private static boolean sameTypes(List<KernelParam> a, List<KernelParam> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).pointer() != b.get(i).pointer() || a.get(i).type() != b.get(i).type()) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIdentifier(String tok) {
        char c = tok.charAt(0);
        return Character.isLetter(c) || c == '_';
    }

    /**
     * The source with comments, string and character literals and preprocessor lines (with their continuations)
     * replaced by spaces; newlines are kept.
     */
    static String blankOut(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') {
                    if (s.charAt(i) == '\\' && i + 1 < n && s.charAt(i + 1) == '\n') {
                        i++; // a continued line comment
                        sb.append('\n');
                    } else {
                        sb.append(' ');
                    }
                    i++;
                }
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                for (; i < end; i++) {
                    sb.append(s.charAt(i) == '\n' ? '\n' : ' ');
                }
            } else if (c == '"' || c == '\'') {
                int start = i;
                i++;
                while (i < n && s.charAt(i) != c && s.charAt(i) != '\n') {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
                i = Math.min(n, i + 1);
                for (int j = start; j < i; j++) {
                    sb.append(s.charAt(j) == '\n' ? '\n' : ' ');
                }
            } else if (c == '#' && atLineStart(sb)) {
                while (i < n && s.charAt(i) != '\n') {
                    if (s.charAt(i) == '\\' && i + 1 < n && s.charAt(i + 1) == '\n') {
                        sb.append(' ');
                        i++;
                    }
                    sb.append(s.charAt(i) == '\n' ? '\n' : ' ');
                    i++;
                }
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }

    /** Whether only whitespace follows the last newline of {@code sb}. */
    private static boolean atLineStart(StringBuilder sb) {
        for (int j = sb.length() - 1; j >= 0 && sb.charAt(j) != '\n'; j--) {
            if (!Character.isWhitespace(sb.charAt(j))) {
                return false;
            }
        }
        return true;
    }

    private static List<String> tokenize(String s) {
        List<String> out = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else if (Character.isDigit(c)) {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '.')) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else if (c == ':' && i + 1 < n && s.charAt(i + 1) == ':') {
                out.add("::");
                i += 2;
            } else {
                out.add(String.valueOf(c));
                i++;
            }
        }
        return out;
    }
}
