package dev.polygpu.device;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Kernel names as users write them ({@code saxpy}, {@code ns::k}, {@code k<float, 4>}) and the PTX entries they
 * stand for.
 *
 * <p>{@link #mangledPrefix} writes the start of the Itanium C++ ABI name of a function: {@code _Z}, the
 * (nested) name, and for a template instantiation its template arguments; what follows in the full name (the
 * return type of a template, then the parameter types) is not known from the name alone, so {@link #resolve}
 * matches entries that start with the prefix. Supported template arguments: the builtin arithmetic types and
 * {@code void}, {@code <stdint.h>} aliases and {@code size_t}, class names (qualified or not), pointers and
 * {@code const}/{@code volatile}; non-type arguments that are integer literals (type {@code int}, or as their
 * suffix says: {@code 4u} unsigned, {@code 4l} long, {@code 4ul}, {@code 4ll}, {@code 4ull}), {@code true},
 * {@code false} and plain character literals ({@code 'a'}). Substitutions ({@code S_}, {@code S0_} …) are
 * written as the ABI says. An integer argument is mangled with the type of its literal, so {@code k<4>} of a
 * {@code template<unsigned N>} is written {@code k<4u>}.
 */
public final class CxxNames {
    private CxxNames() {
    }

    /**
     * The Itanium ABI prefix of the kernel {@code requested}: {@code square} → {@code _Z6square}, {@code ns::k} →
     * {@code _ZN2ns1kE}, {@code k<float>} → {@code _Z1kIfE}, {@code k<float, 4>} → {@code _Z1kIfLi4EE}. Null when
     * the name is not one this class can mangle.
     */
    public static String mangledPrefix(String requested) {
        if (requested == null) {
            return null;
        }
        try {
            return new Mangler(requested).function();
        } catch (Unsupported e) {
            return null;
        }
    }

    /** {@link #resolve(String, String, Map, Collection)} for a module without a name. */
    public static String resolve(String requested, Map<String, String> loweredNames, Collection<String> entryNames) {
        return resolve(null, requested, loweredNames, entryNames);
    }

    /**
     * The PTX entry for {@code requested}: the entry of that exact name ({@code extern "C"} kernels, or a mangled
     * name given as is), else the lowered name the compiler gave for that name expression, else the one entry
     * that starts with {@link #mangledPrefix} followed by a type (so {@code k} does not find {@code k<float>}).
     *
     * @param moduleName the module's file name for messages, or null
     * @throws DeviceException NOT_FOUND, listing the module's kernels, when there is no such entry or when several
     *         overloads match
     */
    public static String resolve(String moduleName, String requested, Map<String, String> loweredNames,
            Collection<String> entryNames) {
        String module = moduleName == null ? "module" : "module '" + moduleName + "'";
        if (requested == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel name is null");
        }
        if (entryNames.contains(requested)) {
            return requested;
        }
        String lowered = loweredNames == null ? null : loweredNames.get(requested);
        if (lowered == null && loweredNames != null) {
            lowered = loweredNames.get(requested.strip());
        }
        if (lowered != null && entryNames.contains(lowered)) {
            return lowered;
        }
        String prefix = mangledPrefix(requested);
        List<String> matches = new ArrayList<>();
        if (prefix != null) {
            for (String e : entryNames) {
                if (e.length() > prefix.length() && e.startsWith(prefix) && isTypeStart(e.charAt(prefix.length()))) {
                    matches.add(e);
                }
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.size() > 1) {
            throw new DeviceException(CudaError.NOT_FOUND, module + " has several kernels named '" + requested
                    + "' (overloads): " + matches + "; give the one you mean by its entry name, or make the"
                    + " kernels extern \"C\" with different names");
        }
        throw new DeviceException(CudaError.NOT_FOUND, module + " has no kernel '" + requested + "'; it has "
                + List.copyOf(entryNames));
    }

    /**
     * The source name of a mangled kernel name, without its parameter types, for messages: {@code
     * _ZN2aa2bb10inc_kernelEPii} → {@code aa::bb::inc_kernel}, {@code _Z5scaleIfEvPT_S0_i} → {@code scale<float>}.
     * Covers what {@link #mangledPrefix} writes except substitutions; null for anything else ({@code extern "C"}
     * names included).
     */
    public static String demangledName(String mangled) {
        if (mangled == null || !mangled.startsWith("_Z")) {
            return null;
        }
        try {
            Demangler d = new Demangler(mangled);
            return d.name();
        } catch (Unsupported | RuntimeException e) {
            return null;
        }
    }

    /** Reads the {@code <name>} of an Itanium mangled function name (the inverse of {@link Mangler}, partly). */
    private static final class Demangler {
        private static final Map<Character, String> BUILTIN = Map.ofEntries(Map.entry('v', "void"),
                Map.entry('b', "bool"), Map.entry('c', "char"), Map.entry('a', "signed char"),
                Map.entry('h', "unsigned char"), Map.entry('s', "short"), Map.entry('t', "unsigned short"),
                Map.entry('i', "int"), Map.entry('j', "unsigned int"), Map.entry('l', "long"),
                Map.entry('m', "unsigned long"), Map.entry('x', "long long"), Map.entry('y', "unsigned long long"),
                Map.entry('n', "__int128"), Map.entry('o', "unsigned __int128"), Map.entry('f', "float"),
                Map.entry('d', "double"), Map.entry('e', "long double"));
        private final String s;
        private int pos = 2;

        Demangler(String s) {
            this.s = s;
        }

        String name() throws Unsupported {
            if (peek() != 'N') {
                return sourceName() + templateArgs();
            }
            pos++;
            StringBuilder sb = new StringBuilder();
            while (peek() != 'E') {
                if (peek() == 'I') {
                    sb.append(templateArgs());
                } else {
                    sb.append(sb.isEmpty() ? "" : "::").append(sourceName());
                }
            }
            pos++;
            return sb.toString();
        }

        private String templateArgs() throws Unsupported {
            if (peek() != 'I') {
                return "";
            }
            pos++;
            StringBuilder sb = new StringBuilder("<");
            while (peek() != 'E') {
                sb.append(sb.length() == 1 ? "" : ", ").append(templateArg());
            }
            pos++;
            return sb.append('>').toString();
        }

        private String templateArg() throws Unsupported {
            if (peek() != 'L') {
                return type();
            }
            pos++;
            char t = next();
            boolean negative = peek() == 'n';
            if (negative) {
                pos++;
            }
            int start = pos;
            while (Character.isDigit(peek())) {
                pos++;
            }
            String digits = s.substring(start, pos);
            if (digits.isEmpty() || next() != 'E') {
                throw new Unsupported();
            }
            return switch (t) {
                case 'b' -> digits.equals("0") ? "false" : "true";
                case 'c' -> "'" + (char) Integer.parseInt(digits) + "'";
                case 'i' -> (negative ? "-" : "") + digits;
                case 'j' -> digits + "u";
                case 'l' -> (negative ? "-" : "") + digits + "l";
                case 'm' -> digits + "ul";
                case 'x' -> (negative ? "-" : "") + digits + "ll";
                case 'y' -> digits + "ull";
                default -> throw new Unsupported();
            };
        }

        private String type() throws Unsupported {
            char c = peek();
            if (c == 'P') {
                pos++;
                return type() + "*";
            }
            if (c == 'K') {
                pos++;
                return "const " + type();
            }
            if (c == 'V') {
                pos++;
                return "volatile " + type();
            }
            if (Character.isDigit(c)) {
                return sourceName();
            }
            if (c == 'N') {
                pos++;
                StringBuilder sb = new StringBuilder();
                while (peek() != 'E') {
                    sb.append(sb.isEmpty() ? "" : "::").append(sourceName());
                }
                pos++;
                return sb.toString();
            }
            String builtin = BUILTIN.get(c);
            if (builtin == null) {
                throw new Unsupported(); // substitutions, function types, std:: abbreviations …
            }
            pos++;
            return builtin;
        }

        private String sourceName() throws Unsupported {
            int start = pos;
            while (Character.isDigit(peek())) {
                pos++;
            }
            if (start == pos || pos - start > 6) {
                throw new Unsupported();
            }
            int length = Integer.parseInt(s.substring(start, pos));
            if (length == 0 || pos + length > s.length()) {
                throw new Unsupported();
            }
            pos += length;
            return s.substring(pos - length, pos);
        }

        private char peek() throws Unsupported {
            if (pos >= s.length()) {
                throw new Unsupported();
            }
            return s.charAt(pos);
        }

        private char next() throws Unsupported {
            char c = peek();
            pos++;
            return c;
        }
    }

    /** Whether {@code c} can start an Itanium {@code <type>} (a parameter type, or a template's return type). */
    private static boolean isTypeStart(char c) {
        return (c >= '0' && c <= '9') || "vwbcahstijlmxynofdegzDuPROKVrNSTFAMCG".indexOf(c) >= 0;
    }

    private static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false);
        }
    }

    /** A recursive-descent reader of one kernel name that writes its mangling as it goes. */
    private static final class Mangler {
        private final String s;
        private int pos;
        /** Substitution candidates in the order the ABI numbers them, as canonical source spellings. */
        private final List<String> substitutions = new ArrayList<>();

        Mangler(String s) {
            this.s = s;
        }

        String function() throws Unsupported {
            skipSpace();
            if (s.startsWith("::", pos)) {
                pos += 2;
            }
            List<String> parts = new ArrayList<>();
            parts.add(identifier());
            skipSpace();
            while (s.startsWith("::", pos)) {
                pos += 2;
                parts.add(identifier());
                skipSpace();
            }
            if (parts.get(0).equals("std")) {
                throw new Unsupported(); // std:: has its own abbreviations (St, Sa …)
            }
            StringBuilder out = new StringBuilder("_Z");
            boolean nested = parts.size() > 1;
            if (nested) {
                out.append('N');
            }
            String qualified = "";
            for (int i = 0; i < parts.size(); i++) {
                qualified = qualified.isEmpty() ? parts.get(i) : qualified + "::" + parts.get(i);
                out.append(parts.get(i).length()).append(parts.get(i));
                if (i < parts.size() - 1) {
                    substitutions.add(qualified); // a namespace prefix
                }
            }
            if (pos < s.length() && s.charAt(pos) == '<') {
                substitutions.add(qualified); // the template name (unscoped) or template prefix
                pos++;
                out.append('I');
                skipSpace();
                if (peek() != '>') {
                    out.append(templateArgument());
                    skipSpace();
                    while (peek() == ',') {
                        pos++;
                        out.append(templateArgument());
                        skipSpace();
                    }
                }
                expect('>');
                out.append('E');
            }
            if (nested) {
                out.append('E');
            }
            skipSpace();
            if (pos != s.length()) {
                throw new Unsupported();
            }
            return out.toString();
        }

        private String templateArgument() throws Unsupported {
            skipSpace();
            char c = peek();
            if (c == '-' || c == '+' || Character.isDigit(c)) {
                return integerLiteral();
            }
            if (c == '\'') {
                pos++;
                char v = next();
                if (v == '\\' || v == '\'') {
                    throw new Unsupported();
                }
                expect('\'');
                return "Lc" + (int) v + "E";
            }
            int save = pos;
            String word = isIdentStart(c) ? identifier() : "";
            if (word.equals("true") || word.equals("false")) {
                return "Lb" + (word.equals("true") ? 1 : 0) + "E";
            }
            pos = save;
            return type();
        }

        private String integerLiteral() throws Unsupported {
            boolean negative = false;
            if (peek() == '-' || peek() == '+') {
                negative = next() == '-';
                skipSpace();
            }
            int start = pos;
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '\'')) {
                pos++;
            }
            String lit = s.substring(start, pos).replace("'", "").toLowerCase();
            int suffix = lit.length();
            while (suffix > 0 && (lit.charAt(suffix - 1) == 'u' || lit.charAt(suffix - 1) == 'l')) {
                suffix--;
            }
            String digits = lit.substring(0, suffix);
            String sfx = lit.substring(suffix);
            BigInteger value;
            try {
                if (digits.startsWith("0x")) {
                    value = new BigInteger(digits.substring(2), 16);
                } else if (digits.startsWith("0b")) {
                    value = new BigInteger(digits.substring(2), 2);
                } else if (digits.length() > 1 && digits.startsWith("0")) {
                    value = new BigInteger(digits.substring(1), 8);
                } else {
                    value = new BigInteger(digits);
                }
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                throw new Unsupported();
            }
            String type = switch (sfx) {
                case "" -> "i";
                case "u" -> "j";
                case "l" -> "l";
                case "ul", "lu" -> "m";
                case "ll" -> "x";
                case "ull", "llu" -> "y";
                default -> throw new Unsupported();
            };
            int bits = type.equals("i") || type.equals("j") ? 32 : 64;
            boolean unsigned = type.equals("j") || type.equals("m") || type.equals("y");
            if (value.bitLength() > (unsigned ? bits : bits - 1) || (negative && unsigned)) {
                throw new Unsupported(); // C++ would pick a wider type or wrap; not guessed here
            }
            if (negative && value.signum() == 0) {
                negative = false;
            }
            return "L" + type + (negative ? "n" : "") + value + "E";
        }

        /** A type: cv-qualifiers, a builtin or class name, then {@code *} and cv-qualifiers of each pointer. */
        private String type() throws Unsupported {
            boolean isConst = false;
            boolean isVolatile = false;
            List<String> words = new ArrayList<>();
            List<String> qualifiedName = null;
            while (true) {
                skipSpace();
                if (!isIdentStart(peek()) && !s.startsWith("::", pos)) {
                    break;
                }
                int save = pos;
                if (s.startsWith("::", pos)) {
                    pos += 2;
                }
                String w = identifier();
                if (w.equals("const")) {
                    isConst = true;
                } else if (w.equals("volatile")) {
                    isVolatile = true;
                } else if (BUILTIN_WORDS.contains(w)) {
                    if (qualifiedName != null) {
                        throw new Unsupported();
                    }
                    words.add(w);
                } else {
                    if (qualifiedName != null || !words.isEmpty()) {
                        pos = save;
                        throw new Unsupported();
                    }
                    qualifiedName = new ArrayList<>();
                    qualifiedName.add(w);
                    skipSpace();
                    while (s.startsWith("::", pos)) {
                        pos += 2;
                        qualifiedName.add(identifier());
                        skipSpace();
                    }
                    if (peek() == '<') {
                        throw new Unsupported(); // a class template as an argument
                    }
                    if (qualifiedName.get(0).equals("std")) {
                        throw new Unsupported(); // std:: has its own abbreviations
                    }
                }
            }
            String code;
            String canonical;
            if (qualifiedName != null) {
                String alias = qualifiedName.size() == 1 ? ALIASES.get(qualifiedName.get(0)) : null;
                if (alias != null) {
                    code = alias;
                    canonical = null;
                } else {
                    code = className(qualifiedName);
                    canonical = String.join("::", qualifiedName);
                }
            } else if (!words.isEmpty()) {
                code = builtin(words);
                canonical = null;
            } else {
                throw new Unsupported();
            }
            // cv-qualified types are substitution candidates; builtin types are not.
            String cv = (isVolatile ? "V" : "") + (isConst ? "K" : "");
            if (!cv.isEmpty()) {
                String key = cv + "(" + (canonical == null ? code : canonical) + ")";
                code = substitute(key, cv + code);
                canonical = key;
            }
            while (true) {
                skipSpace();
                if (peek() == '*') {
                    pos++;
                    String key = "P(" + (canonical == null ? code : canonical) + ")";
                    code = substitute(key, "P" + code);
                    canonical = key;
                } else if (peek() == '&') {
                    throw new Unsupported();
                } else if (isIdentStart(peek())) {
                    int save = pos;
                    String w = identifier();
                    String q = w.equals("const") ? "K" : w.equals("volatile") ? "V" : null;
                    if (q == null || canonical == null || !canonical.startsWith("P(")) {
                        pos = save;
                        throw new Unsupported();
                    }
                    String key = q + "(" + canonical + ")";
                    code = substitute(key, q + code);
                    canonical = key;
                } else {
                    return code;
                }
            }
        }

        /**
         * The mangling of a class name: {@code 1S}, {@code N2ns1SE}, with the longest known prefix replaced by
         * its substitution; the name and its namespace prefixes become candidates.
         */
        private String className(List<String> parts) {
            String whole = String.join("::", parts);
            int known = substitutions.indexOf(whole);
            if (known >= 0) {
                return seqId(known);
            }
            StringBuilder sb = new StringBuilder();
            int start = 0;
            for (int i = parts.size() - 1; i > 0; i--) {
                int at = substitutions.indexOf(String.join("::", parts.subList(0, i)));
                if (at >= 0) {
                    sb.append(seqId(at));
                    start = i;
                    break;
                }
            }
            String qualified = start == 0 ? "" : String.join("::", parts.subList(0, start));
            for (int i = start; i < parts.size(); i++) {
                qualified = qualified.isEmpty() ? parts.get(i) : qualified + "::" + parts.get(i);
                sb.append(parts.get(i).length()).append(parts.get(i));
                substitutions.add(qualified);
            }
            return parts.size() > 1 ? "N" + sb + "E" : sb.toString();
        }

        /** {@code mangled}, or its substitution if {@code key} was seen; records {@code key} when new. */
        private String substitute(String key, String mangled) {
            int known = substitutions.indexOf(key);
            if (known >= 0) {
                return seqId(known);
            }
            substitutions.add(key);
            return mangled;
        }

        private static String seqId(int index) {
            if (index == 0) {
                return "S_";
            }
            return "S" + Integer.toString(index - 1, 36).toUpperCase() + "_";
        }

        private static String builtin(List<String> words) throws Unsupported {
            CTypeWords t = CTypeWords.of(words);
            if (t == null) {
                throw new Unsupported();
            }
            boolean plain = t.plain();
            boolean signed = t.signed();
            boolean unsigned = t.unsigned();
            int longs = t.longs();
            String base = t.base();
            String code = switch (base) {
                case "void" -> plain ? "v" : null;
                case "bool" -> plain ? "b" : null;
                case "float" -> plain ? "f" : null;
                case "double" -> signed || unsigned || longs > 1 ? null : longs == 1 ? "e" : "d";
                case "char" -> longs > 0 ? null : signed ? "a" : unsigned ? "h" : "c";
                case "short" -> longs > 0 ? null : unsigned ? "t" : "s";
                case "int" -> switch (longs) {
                    case 0 -> unsigned ? "j" : "i";
                    case 1 -> unsigned ? "m" : "l";
                    default -> unsigned ? "y" : "x";
                };
                case "__int128" -> longs > 0 || signed ? null : unsigned ? "o" : "n";
                default -> null;
            };
            if (code == null) {
                throw new Unsupported();
            }
            return code;
        }

        private String identifier() throws Unsupported {
            skipSpace();
            int start = pos;
            if (!isIdentStart(peek())) {
                throw new Unsupported();
            }
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                pos++;
            }
            String id = s.substring(start, pos);
            if (id.equals("operator")) {
                throw new Unsupported();
            }
            return id;
        }

        private static boolean isIdentStart(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        }

        private void expect(char c) throws Unsupported {
            skipSpace();
            if (peek() != c) {
                throw new Unsupported();
            }
            pos++;
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private char next() throws Unsupported {
            if (pos >= s.length()) {
                throw new Unsupported();
            }
            return s.charAt(pos++);
        }

        private void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }
    }

    private static final java.util.Set<String> BUILTIN_WORDS = java.util.Set.of("void", "bool", "char", "short",
            "int", "long", "float", "double", "signed", "unsigned", "__int128");
    /** The {@code <stdint.h>} aliases as they are defined for the device (LP64 Linux). */
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("int8_t", "a"), Map.entry("uint8_t", "h"), Map.entry("int16_t", "s"),
            Map.entry("uint16_t", "t"), Map.entry("int32_t", "i"), Map.entry("uint32_t", "j"),
            Map.entry("int64_t", "l"), Map.entry("uint64_t", "m"), Map.entry("size_t", "m"),
            Map.entry("ptrdiff_t", "l"));
}
