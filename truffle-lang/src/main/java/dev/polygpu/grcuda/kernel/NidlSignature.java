package dev.polygpu.grcuda.kernel;

import dev.polygpu.runtime.AccessMode;
import dev.polygpu.device.ElementType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A kernel's or host function's signature: its name (C++ namespaces and a template instantiation such as {@code
 * k<float>} included), its parameters with their kind, C type and {@link AccessMode}, whether the name is a C++
 * name ({@code cxx}) and what the function returns. Parsed from GrCUDA's two notations:
 * <ul>
 * <li>NIDL, {@link #parse}: {@code "square(x: inout pointer float, y: out pointer float, n: sint32)"};
 * directions {@code in}/{@code const} (read), {@code out} (write-only), {@code inout}; a pointer needs one.
 * {@code "cxx aa::bb::inc(x: inout pointer sint32, n: sint32): sint32"}: {@code cxx} marks a C++ function
 * (its name is mangled; without it the name is a C name), and {@code : type} (or {@code : void}) is the return
 * type of a host function.</li>
 * <li>legacy, {@link #parseLegacy}: a name and {@code "pointer, const pointer, sint32"}; {@code const pointer}
 * or {@code pointer const} is read-only, a plain {@code pointer} read-write and untyped; parameters are named
 * {@code arg1}, {@code arg2}… until {@link #withNames} gives them the kernel's names.</li>
 * </ul>
 * Immutable.
 */
public record NidlSignature(String name, List<Param> params, boolean legacy, boolean cxx, ElementType returns) {

    /** One parameter; {@code type} is the pointee type of a pointer (null for an untyped legacy pointer). */
    public record Param(String name, boolean pointer, ElementType type, AccessMode access) {
        @Override
        public String toString() {
            if (!pointer) {
                return name + ": " + typeName(type);
            }
            String direction = switch (access) {
                case READ -> "in";
                case WRITE -> "out";
                case READ_WRITE -> "inout";
            };
            return name + ": " + direction + " pointer" + (type == null ? "" : " " + typeName(type));
        }
    }

    private static final Map<String, ElementType> TYPES = Map.ofEntries(
            Map.entry("sint8", ElementType.INT8), Map.entry("sint16", ElementType.INT16),
            Map.entry("sint32", ElementType.INT32), Map.entry("sint64", ElementType.INT64),
            Map.entry("uint8", ElementType.UINT8), Map.entry("uint16", ElementType.UINT16),
            Map.entry("uint32", ElementType.UINT32), Map.entry("uint64", ElementType.UINT64),
            Map.entry("float", ElementType.FLOAT), Map.entry("double", ElementType.DOUBLE),
            Map.entry("char", ElementType.INT8), Map.entry("bool", ElementType.BOOL));
    private static final String TYPE_LIST = "sint8, sint16, sint32, sint64, uint8, uint16, uint32, uint64, "
            + "float, double, char, bool";

    public NidlSignature {
        params = List.copyOf(params);
    }

    /** A C-named signature that returns nothing (every kernel's). */
    public NidlSignature(String name, List<Param> params, boolean legacy) {
        this(name, params, legacy, false, null);
    }

    /**
     * Whether a value of type {@code a} may stand where {@code b} is expected: the same size and both integer
     * or both floating point (signedness and {@code bool} vs an 8-bit integer do not change the bytes).
     */
    public static boolean sameRepresentation(ElementType a, ElementType b) {
        return a.size == b.size && a.isFloating() == b.isFloating();
    }

    /** The NIDL name of a C type ({@code sint32}, {@code float}). */
    public static String typeName(ElementType t) {
        return switch (t) {
            case BOOL -> "bool";
            case INT8 -> "sint8";
            case UINT8 -> "uint8";
            case INT16 -> "sint16";
            case UINT16 -> "uint16";
            case INT32 -> "sint32";
            case UINT32 -> "uint32";
            case INT64 -> "sint64";
            case UINT64 -> "uint64";
            case FLOAT -> "float";
            case DOUBLE -> "double";
        };
    }

    /**
     * Runs {@code parser}, turning a {@link SignatureException} into a guest error whose message starts with
     * {@code prefix} (empty, or e.g. {@code "bind: "}).
     */
    static NidlSignature parseOrFail(String prefix, java.util.function.Supplier<NidlSignature> parser) {
        try {
            return parser.get();
        } catch (SignatureException e) {
            throw dev.polygpu.grcuda.GrError.of(prefix + e.getMessage());
        }
    }

    /** Parses a NIDL signature; throws {@link SignatureException} naming the column of the problem. */
    public static NidlSignature parse(String text) {
        Scanner s = new Scanner(text);
        s.skipSpaces();
        boolean cxx = s.cxxKeyword();
        String name = s.kernelName();
        s.skipSpaces();
        s.expect('(', "expected '(' after kernel name '" + name + "'");
        List<Param> params = new ArrayList<>();
        s.skipSpaces();
        if (!s.at(')')) {
            do {
                s.skipSpaces();
                params.add(s.nidlParam(params));
                s.skipSpaces();
            } while (s.accept(','));
        }
        s.expect(')', params.isEmpty() ? "expected a parameter or ')'" : "expected ',' or ')' after parameter '"
                + params.getLast().name() + "'");
        s.skipSpaces();
        ElementType returns = s.returnType();
        s.skipSpaces();
        s.expectEnd();
        return new NidlSignature(name, params, false, cxx, returns);
    }

    /**
     * Parses the legacy form of a host function's signature ({@code bind(library, name, signature)}): the
     * parameter types as {@link #parseLegacy} takes them, optionally in parentheses and followed by {@code :
     * type}, as in NFI's {@code "(pointer, sint32): sint32"}.
     */
    public static NidlSignature parseLegacyFunction(String name, String types) {
        String t = types.strip();
        ElementType returns = null;
        if (t.startsWith("(")) {
            int close = t.lastIndexOf(')');
            if (close < 0) {
                throw new SignatureException(1, "unclosed '(' in the parameter list", types);
            }
            Scanner r = new Scanner(t.substring(close + 1));
            r.skipSpaces();
            returns = r.returnType();
            r.skipSpaces();
            r.expectEnd();
            t = t.substring(1, close);
        }
        NidlSignature s = parseLegacy(name, t);
        return new NidlSignature(s.name(), s.params(), true, false, returns);
    }

    /** Parses the legacy form: {@code name} and a comma-separated type list such as {@code "pointer, sint32"}. */
    public static NidlSignature parseLegacy(String name, String types) {
        Scanner n = new Scanner(name);
        n.skipSpaces();
        String kernel = n.kernelName();
        n.skipSpaces();
        n.expectEnd();
        Scanner s = new Scanner(types);
        List<Param> params = new ArrayList<>();
        s.skipSpaces();
        if (!s.atEnd()) {
            do {
                s.skipSpaces();
                params.add(s.legacyParam("arg" + (params.size() + 1)));
                s.skipSpaces();
            } while (s.accept(','));
            s.expectEnd();
        }
        return new NidlSignature(kernel, params, true);
    }

    /** This signature with its parameters renamed (the kernel's own names for a legacy signature). */
    public NidlSignature withNames(List<String> names) {
        List<Param> renamed = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            renamed.add(new Param(names.get(i), p.pointer(), p.type(), p.access()));
        }
        return new NidlSignature(name, renamed, legacy, cxx, returns);
    }

    /** The name without its C++ namespaces ({@code inc} for {@code aa::bb::inc}), as bindall registers it. */
    public String simpleName() {
        int template = name.indexOf('<');
        String plain = template < 0 ? name : name.substring(0, template);
        int colons = plain.lastIndexOf("::");
        return colons < 0 ? name : name.substring(colons + 2);
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(", ", (cxx ? "cxx " : "") + name + "(", ")");
        for (Param p : params) {
            j.add(p.toString());
        }
        return j + (returns == null ? "" : ": " + typeName(returns));
    }

    /** Where the identifier that starts at {@code pos} of {@code text} ends; {@code pos} if none starts there. */
    static int identifierEnd(String text, int pos) {
        if (pos < text.length() && Character.isJavaIdentifierStart(text.charAt(pos))) {
            pos++;
            while (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) {
                pos++;
            }
        }
        return pos;
    }

    /** A hand-written scanner over one signature text; positions are 0-based, messages 1-based. */
    private static final class Scanner {
        private final String text;
        private int pos;

        Scanner(String text) {
            this.text = text;
        }

        boolean atEnd() {
            return pos >= text.length();
        }

        boolean at(char c) {
            return pos < text.length() && text.charAt(pos) == c;
        }

        boolean accept(char c) {
            if (at(c)) {
                pos++;
                return true;
            }
            return false;
        }

        void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        void expect(char c, String problem) {
            if (!accept(c)) {
                throw error(pos, problem);
            }
        }

        void expectEnd() {
            if (!atEnd()) {
                throw error(pos, "unexpected '" + text.charAt(pos) + "' after the signature");
            }
        }

        SignatureException error(int at, String problem) {
            return new SignatureException(at + 1, problem, text);
        }

        /** An identifier, or null (position unchanged) if there is none here. */
        String identifier() {
            int start = pos;
            pos = identifierEnd(text, pos);
            return start == pos ? null : text.substring(start, pos);
        }

        /** True (and past it) if the text goes on with the keyword {@code cxx} followed by a name. */
        boolean cxxKeyword() {
            int save = pos;
            if ("cxx".equals(identifier()) && pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                skipSpaces();
                if (pos < text.length() && Character.isJavaIdentifierStart(text.charAt(pos))) {
                    return true;
                }
            }
            pos = save;
            return false;
        }

        /** After the parameters: {@code : type} or {@code : void} (null), or nothing (null). */
        ElementType returnType() {
            if (!accept(':')) {
                return null;
            }
            skipSpaces();
            int at = pos;
            String word = identifier();
            return "void".equals(word) ? null : type(word, at, "the return value");
        }

        /**
         * A kernel name, C++ namespaces ({@code aa::bb::k}) and an optional template argument list included, kept
         * as written ({@code reduce<float, 256>}).
         */
        String kernelName() {
            int start = pos;
            do {
                if (identifier() == null) {
                    throw error(pos, atEnd() ? "expected a kernel name" : "expected a kernel name, got '"
                            + text.charAt(pos) + "'");
                }
            } while (acceptColons());
            skipSpaces();
            if (!at('<')) {
                return text.substring(start, pos).strip();
            }
            int open = pos;
            int depth = 0;
            do {
                if (atEnd()) {
                    throw error(open, "unclosed '<' in the template name");
                }
                char c = text.charAt(pos++);
                depth += c == '<' ? 1 : c == '>' ? -1 : 0;
            } while (depth > 0);
            return text.substring(start, pos);
        }

        private boolean acceptColons() {
            if (text.startsWith("::", pos)) {
                pos += 2;
                return true;
            }
            return false;
        }

        Param nidlParam(List<Param> earlier) {
            int start = pos;
            String name = identifier();
            if (name == null) {
                throw error(pos, "expected a parameter name");
            }
            for (Param p : earlier) {
                if (p.name().equals(name)) {
                    throw error(start, "parameter '" + name + "' appears twice");
                }
            }
            skipSpaces();
            expect(':', "expected ':' after parameter name '" + name + "'");
            skipSpaces();
            int wordAt = pos;
            String word = identifier();
            AccessMode access = null;
            if (word != null) {
                access = switch (word) {
                    case "in", "const" -> AccessMode.READ;
                    case "out" -> AccessMode.WRITE;
                    case "inout" -> AccessMode.READ_WRITE;
                    default -> null;
                };
                if (access != null) {
                    skipSpaces();
                    wordAt = pos;
                    word = identifier();
                }
            }
            if ("pointer".equals(word)) {
                if (access == null) {
                    throw error(wordAt, "pointer parameter '" + name + "' needs a direction: in, out or inout");
                }
                skipSpaces();
                int typeAt = pos;
                return new Param(name, true, type(identifier(), typeAt, "pointer parameter '" + name + "'"),
                        access);
            }
            if (access != null && access != AccessMode.READ) {
                throw error(start, "scalar parameter '" + name + "' cannot be '"
                        + (access == AccessMode.WRITE ? "out" : "inout") + "'; only pointers can be written");
            }
            return new Param(name, false, type(word, wordAt, "parameter '" + name + "'"), AccessMode.READ);
        }

        Param legacyParam(String name) {
            int start = pos;
            String word = identifier();
            boolean constant = false;
            if ("const".equals(word)) {
                constant = true;
                skipSpaces();
                start = pos;
                word = identifier();
                if (!"pointer".equals(word)) {
                    throw error(start, "expected 'pointer' after 'const'");
                }
            }
            if ("pointer".equals(word)) {
                skipSpaces();
                int save = pos;
                if ("const".equals(identifier())) {
                    constant = true;
                } else {
                    pos = save;
                }
                return new Param(name, true, null, constant ? AccessMode.READ : AccessMode.READ_WRITE);
            }
            return new Param(name, false, type(word, start, "parameter " + name.substring(3)),
                    AccessMode.READ);
        }

        private ElementType type(String word, int at, String what) {
            if (word == null) {
                throw error(at, "expected a type for " + what + " (" + TYPE_LIST + ")");
            }
            ElementType t = TYPES.get(word);
            if (t == null) {
                throw error(at, "unknown type '" + word + "' for " + what + "; types are " + TYPE_LIST);
            }
            return t;
        }
    }
}
