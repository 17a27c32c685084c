package dev.polygpu.device;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The Itanium C++ ABI mangling of function names, as nvcc and the host C++ compilers write it: the one mangler
 * of the project, used for kernel names ({@link CxxNames}) and for C++ host functions bound by signature.
 *
 * <p>{@link #namePrefix} writes {@code _Z}, the (nested) name and, for a template instantiation, its template
 * arguments: everything the name alone fixes. {@link #function} writes a whole non-template function's name,
 * its parameter types after the prefix ({@code v} for none), with top-level {@code const}/{@code volatile} of a
 * parameter dropped as C++ drops it from the function's type.
 *
 * <p>Supported types (template arguments and parameters): the builtin arithmetic types and {@code void}, the
 * {@code <stdint.h>} aliases and {@code size_t} as LP64 Linux defines them, class names (qualified or not), and
 * pointers and {@code const}/{@code volatile} at any level. Non-type template arguments: integer literals (type
 * {@code int}, or as their suffix says: {@code 4u} unsigned, {@code 4l} long, {@code 4ul}, {@code 4ll},
 * {@code 4ull}), {@code true}, {@code false} and plain character literals ({@code 'a'}); an integer argument is
 * mangled with the type of its literal, so {@code k<4>} of a {@code template<unsigned N>} is written
 * {@code k<4u>}. Not supported (the methods return null): {@code std::} names (they have their own
 * abbreviations), operators, references, arrays, function types, class templates as arguments.
 *
 * <p>Implementation notes: one recursive-descent reader per name writes the mangling as it reads and keeps the
 * ABI's substitution candidates in the order it numbers them ({@code S_}, {@code S0_}, …): each namespace or
 * class prefix, the template name of an instantiation, and every pointer or cv-qualified type, inner
 * components first; builtin types never are. A repeated candidate is written as its reference.
 */
public final class ItaniumMangler {
    private ItaniumMangler() {
    }

    /**
     * The part of {@code name}'s mangling the name alone fixes: {@code square} → {@code _Z6square}, {@code ns::k}
     * → {@code _ZN2ns1kE}, {@code k<float>} → {@code _Z1kIfE}, {@code k<float, 4>} → {@code _Z1kIfLi4EE}. A
     * template instantiation's full name goes on with its return type, a plain function's with its parameter
     * types. Null when the name is null or not one this class can mangle.
     */
    public static String namePrefix(String name) {
        if (name == null) {
            return null;
        }
        try {
            Reader r = new Reader(name);
            String prefix = r.name();
            r.end();
            return prefix;
        } catch (Unsupported e) {
            return null;
        }
    }

    /**
     * The mangled name of the non-template function {@code name} with parameters of the given C++ types
     * ({@code "const int*"}, {@code "unsigned long long"}, {@code "ns::S *"}): {@code aa::bb::inc} with
     * {@code int*, int} → {@code _ZN2aa2bb3incEPii}; {@code f} with {@code int*, int*} → {@code _Z1fPiS_}.
     * Null when the name is a template instantiation (its mangling holds the return type, which a name and
     * parameters do not give) or anything here is not one this class can mangle.
     */
    public static String function(String name, List<String> parameterTypes) {
        if (name == null || parameterTypes == null) {
            return null;
        }
        try {
            Reader r = new Reader(name);
            StringBuilder out = new StringBuilder(r.name());
            r.end();
            if (r.templated) {
                return null;
            }
            if (parameterTypes.isEmpty()) {
                out.append('v');
            }
            for (String t : parameterTypes) {
                out.append(r.parameter(t));
            }
            return out.toString();
        } catch (Unsupported e) {
            return null;
        }
    }

    /** Thrown inside the reader for what it does not mangle; the public methods turn it into null. */
    private static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false);
        }
    }

    /** A type as read: its unqualified base and the cv-qualifiers of the base and of each pointer level. */
    private record ParsedType(String baseCode, String baseCanonical, String baseCv, List<String> pointerCvs) {
    }

    /** Reads one function name, then parameter types, sharing one substitution table. */
    private static final class Reader {
        /** The text being read: the name, then each parameter type in turn. */
        private String s;
        private int pos;
        /** Whether the name was a template instantiation. */
        boolean templated;
        /** Substitution candidates in the order the ABI numbers them, as canonical source spellings. */
        private final List<String> substitutions = new ArrayList<>();

        Reader(String name) {
            this.s = name;
        }

        /** {@code _Z}, the name and template arguments of {@link #s}. */
        String name() throws Unsupported {
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
                throw new Unsupported();
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
                    substitutions.add(qualified); // a namespace prefix; the function's own name is none
                }
            }
            if (pos < s.length() && s.charAt(pos) == '<') {
                templated = true;
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
            return out.toString();
        }

        /** Fails unless all of the text was read. */
        void end() throws Unsupported {
            skipSpace();
            if (pos != s.length()) {
                throw new Unsupported();
            }
        }

        /** The mangling of one parameter type, its top-level cv-qualifiers dropped. */
        String parameter(String type) throws Unsupported {
            s = type;
            pos = 0;
            ParsedType t = type();
            end();
            List<String> levels = new ArrayList<>(t.pointerCvs());
            String baseCv = t.baseCv();
            if (levels.isEmpty()) {
                baseCv = "";
            } else {
                levels.set(levels.size() - 1, "");
            }
            if ("v".equals(t.baseCode()) && levels.isEmpty()) {
                throw new Unsupported(); // a void parameter is written as an empty list
            }
            return encode(new ParsedType(t.baseCode(), t.baseCanonical(), baseCv, levels));
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
            return encode(type());
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
            String lit = s.substring(start, pos).replace("'", "").toLowerCase(Locale.ROOT);
            int suffix = lit.length();
            while (suffix > 0 && (lit.charAt(suffix - 1) == 'u' || lit.charAt(suffix - 1) == 'l')) {
                suffix--;
            }
            BigInteger value = integerValue(lit.substring(0, suffix));
            String type = switch (lit.substring(suffix)) {
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

        private static BigInteger integerValue(String digits) throws Unsupported {
            try {
                if (digits.startsWith("0x")) {
                    return new BigInteger(digits.substring(2), 16);
                } else if (digits.startsWith("0b")) {
                    return new BigInteger(digits.substring(2), 2);
                } else if (digits.length() > 1 && digits.startsWith("0")) {
                    return new BigInteger(digits.substring(1), 8);
                }
                return new BigInteger(digits);
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                throw new Unsupported();
            }
        }

        /** A type: cv-qualifiers, a builtin or class name, then {@code *} and cv-qualifiers of each pointer. */
        private ParsedType type() throws Unsupported {
            Cv baseCv = new Cv();
            List<String> words = new ArrayList<>();
            List<String> qualifiedName = null;
            while (true) {
                skipSpace();
                if (!isIdentStart(peek()) && !s.startsWith("::", pos)) {
                    break;
                }
                if (s.startsWith("::", pos)) {
                    pos += 2;
                }
                String w = identifier();
                if (baseCv.read(w)) {
                    continue;
                }
                if (BUILTIN_WORDS.contains(w)) {
                    if (qualifiedName != null) {
                        throw new Unsupported();
                    }
                    words.add(w);
                } else {
                    if (qualifiedName != null || !words.isEmpty()) {
                        throw new Unsupported();
                    }
                    qualifiedName = qualifiedName(w);
                }
            }
            String code;
            String canonical = null;
            if (qualifiedName != null) {
                String alias = qualifiedName.size() == 1 ? ALIASES.get(qualifiedName.get(0)) : null;
                if (alias != null) {
                    code = alias;
                } else {
                    code = null; // a class name: encoded with substitutions when the whole type is written
                    canonical = String.join("::", qualifiedName);
                }
            } else if (!words.isEmpty()) {
                code = builtin(words);
            } else {
                throw new Unsupported();
            }
            List<String> pointerCvs = new ArrayList<>();
            while (true) {
                skipSpace();
                if (peek() == '*') {
                    pos++;
                    pointerCvs.add("");
                } else if (peek() == '&') {
                    throw new Unsupported();
                } else if (isIdentStart(peek()) && !pointerCvs.isEmpty()) {
                    Cv cv = Cv.of(pointerCvs.getLast());
                    if (!cv.read(identifier())) {
                        throw new Unsupported();
                    }
                    pointerCvs.set(pointerCvs.size() - 1, cv.code());
                } else if (isIdentStart(peek())) {
                    throw new Unsupported();
                } else {
                    return new ParsedType(code, canonical, baseCv.code(), pointerCvs);
                }
            }
        }

        /** The rest of a qualified class name that starts with {@code first}. */
        private List<String> qualifiedName(String first) throws Unsupported {
            List<String> name = new ArrayList<>();
            name.add(first);
            skipSpace();
            while (s.startsWith("::", pos)) {
                pos += 2;
                name.add(identifier());
                skipSpace();
            }
            if (peek() == '<') {
                throw new Unsupported(); // a class template as an argument
            }
            if (name.get(0).equals("std")) {
                throw new Unsupported(); // std:: has its own abbreviations
            }
            return name;
        }

        /** Writes a parsed type, using and recording substitution candidates inner components first. */
        private String encode(ParsedType t) {
            String code;
            String canonical;
            if (t.baseCode() == null) {
                code = className(List.of(t.baseCanonical().split("::")));
                canonical = t.baseCanonical();
            } else {
                code = t.baseCode();
                canonical = t.baseCode();
            }
            if (!t.baseCv().isEmpty()) {
                String key = t.baseCv() + "(" + canonical + ")";
                code = substitute(key, t.baseCv() + code);
                canonical = key;
            }
            for (String cv : t.pointerCvs()) {
                String key = "P(" + canonical + ")";
                code = substitute(key, "P" + code);
                canonical = key;
                if (!cv.isEmpty()) {
                    key = cv + "(" + canonical + ")";
                    code = substitute(key, cv + code);
                    canonical = key;
                }
            }
            return code;
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
            return "S" + Integer.toString(index - 1, 36).toUpperCase(Locale.ROOT) + "_";
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
            String code = switch (t.base()) {
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

    /** The cv-qualifiers read at one level, written in the ABI's order ({@code V} before {@code K}). */
    private static final class Cv {
        private boolean isConst;
        private boolean isVolatile;

        static Cv of(String code) {
            Cv cv = new Cv();
            cv.isVolatile = code.contains("V");
            cv.isConst = code.contains("K");
            return cv;
        }

        /** Takes {@code word} if it is a cv-qualifier. */
        boolean read(String word) {
            switch (word) {
                case "const" -> isConst = true;
                case "volatile" -> isVolatile = true;
                default -> {
                    return false;
                }
            }
            return true;
        }

        String code() {
            return (isVolatile ? "V" : "") + (isConst ? "K" : "");
        }
    }

    private static final Set<String> BUILTIN_WORDS = Set.of("void", "bool", "char", "short", "int", "long",
            "float", "double", "signed", "unsigned", "__int128");
    /** The {@code <stdint.h>} aliases as they are defined for the device (LP64 Linux). */
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("int8_t", "a"), Map.entry("uint8_t", "h"), Map.entry("int16_t", "s"),
            Map.entry("uint16_t", "t"), Map.entry("int32_t", "i"), Map.entry("uint32_t", "j"),
            Map.entry("int64_t", "l"), Map.entry("uint64_t", "m"), Map.entry("size_t", "m"),
            Map.entry("ptrdiff_t", "l"));
}
