package dev.polygpu.device;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Kernel names as users write them ({@code saxpy}, {@code ns::k}, {@code k<float, 4>}) and the PTX entries they
 * stand for.
 *
 * <p>{@link #mangledPrefix} writes the start of the Itanium C++ ABI name of a function ({@link
 * ItaniumMangler#namePrefix}: {@code _Z}, the (nested) name, and for a template instantiation its template
 * arguments); what follows in the full name (the return type of a template, then the parameter types) is not
 * known from the name alone, so {@link #resolve} matches entries that start with the prefix. {@link
 * ItaniumMangler} says which names and template arguments are supported.
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
        return ItaniumMangler.namePrefix(requested);
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
}
