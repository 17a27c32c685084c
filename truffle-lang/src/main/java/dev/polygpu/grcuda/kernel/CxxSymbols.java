package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.ElementType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The symbol names a C++ host function of a {@code cxx} signature may have in a shared library: its Itanium C++
 * ABI mangled name ({@code aa::bb::inc(int*, int)} is {@code _ZN2aa2bb3incEPii}). A signature does not say
 * everything the C++ declaration does, so {@link #candidates} lists each spelling it allows, most likely first:
 * an {@code in} pointer may point to {@code const} or not, {@code sint64} is {@code long} or {@code long long},
 * {@code sint8} is {@code signed char} or {@code char}. The caller looks them up in order.
 *
 * <p>Implementation notes: the mangling covers what signatures can say — namespaces, builtin types, pointers,
 * {@code const} pointees — with the ABI's substitutions: each namespace prefix and each pointer or
 * const-qualified type is a candidate ({@code S_}, {@code S0_}, … in order of appearance), and a repeated one is
 * written as its reference ({@code f(int*, int*)} is {@code _Z1fPiS_}). Template functions are not supported
 * (their mangled names hold the return type); {@link #supports} says so and callers ask for the mangled name.
 */
final class CxxSymbols {
    /** Past this many spellings only the most likely ones are tried. */
    static final int MAX_CANDIDATES = 256;

    private CxxSymbols() {
    }

    /** Why {@code name} cannot be mangled here, or null if it can. */
    static String unsupported(String name) {
        if (name.indexOf('<') >= 0) {
            return "template host functions are not supported; bind the instantiation by its mangled name (nm -D"
                    + " --defined-only <library>) without 'cxx'";
        }
        return null;
    }

    /** The mangled names of {@code signature}'s function, most likely first, without repeats. */
    static List<String> candidates(NidlSignature signature) {
        List<List<String>> choices = new ArrayList<>();
        for (NidlSignature.Param p : signature.params()) {
            choices.add(spellings(p));
        }
        Set<String> out = new LinkedHashSet<>();
        int[] pick = new int[choices.size()];
        while (out.size() < MAX_CANDIDATES) {
            List<String> types = new ArrayList<>(pick.length);
            for (int i = 0; i < pick.length; i++) {
                types.add(choices.get(i).get(pick[i]));
            }
            out.add(mangle(signature.name(), types));
            // Next combination, the last parameter varying fastest (the first ones keep their likeliest spelling).
            int i = pick.length - 1;
            while (i >= 0 && ++pick[i] == choices.get(i).size()) {
                pick[i] = 0;
                i--;
            }
            if (i < 0) {
                break;
            }
        }
        return List.copyOf(out);
    }

    /** The C++ spellings of a parameter's type, as an internal notation: {@code *}, {@code const } and a code. */
    private static List<String> spellings(NidlSignature.Param p) {
        List<String> base = p.type() == null ? List.of("v") : codes(p.type());
        if (!p.pointer()) {
            return base;
        }
        List<String> out = new ArrayList<>();
        boolean readOnly = p.access() == dev.polygpu.runtime.AccessMode.READ;
        for (String b : base) {
            out.add((readOnly ? "*const " : "*") + b);
        }
        for (String b : base) {
            out.add((readOnly ? "*" : "*const ") + b);
        }
        return out;
    }

    /** Itanium codes of the C types a signature type may stand for, most likely first. */
    private static List<String> codes(ElementType t) {
        return switch (t) {
            case BOOL -> List.of("b");
            case INT8 -> List.of("a", "c");
            case UINT8 -> List.of("h");
            case INT16 -> List.of("s");
            case UINT16 -> List.of("t");
            case INT32 -> List.of("i");
            case UINT32 -> List.of("j");
            case INT64 -> List.of("l", "x");
            case UINT64 -> List.of("m", "y");
            case FLOAT -> List.of("f");
            case DOUBLE -> List.of("d");
        };
    }

    /** {@code name}'s mangled name with parameters of the given types (internal notation). */
    static String mangle(String name, List<String> types) {
        StringBuilder sb = new StringBuilder("_Z");
        List<String> substitutions = new ArrayList<>();
        String[] parts = name.split("::", -1);
        if (parts.length == 1) {
            sb.append(parts[0].length()).append(parts[0]);
        } else {
            sb.append('N');
            StringBuilder prefix = new StringBuilder();
            for (int i = 0; i < parts.length; i++) {
                sb.append(parts[i].length()).append(parts[i]);
                prefix.append("::").append(parts[i]);
                if (i < parts.length - 1) {
                    // Each enclosing namespace prefix is a substitution candidate; the function's own name is not.
                    substitutions.add("ns" + prefix);
                }
            }
            sb.append('E');
        }
        if (types.isEmpty()) {
            sb.append('v');
        }
        for (String t : types) {
            sb.append(type(t, substitutions));
        }
        return sb.toString();
    }

    private static String type(String t, List<String> substitutions) {
        if (!t.startsWith("*") && !t.startsWith("const ")) {
            return t; // a builtin type: never a substitution candidate
        }
        int seen = substitutions.indexOf(t);
        if (seen >= 0) {
            return "S" + (seen == 0 ? "" : Integer.toString(seen - 1, 36).toUpperCase(java.util.Locale.ROOT)) + "_";
        }
        String encoded = t.startsWith("*") ? "P" + type(t.substring(1), substitutions)
                : "K" + type(t.substring("const ".length()), substitutions);
        substitutions.add(t);
        return encoded;
    }
}
