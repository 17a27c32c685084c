package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.ElementType;
import dev.polygpu.device.ItaniumMangler;
import dev.polygpu.runtime.AccessMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The symbol names a C++ host function of a {@code cxx} signature may have in a shared library: its Itanium C++
 * ABI mangled name ({@code aa::bb::inc(int*, int)} is {@code _ZN2aa2bb3incEPii}), written by {@link
 * ItaniumMangler}. A signature does not say everything the C++ declaration does, so {@link #candidates} lists
 * each spelling it allows, most likely first: an {@code in} pointer may point to {@code const} or not, {@code
 * sint64} is {@code long} or {@code long long}, {@code sint8} is {@code signed char} or {@code char}. The caller
 * looks them up in order. Template functions are not supported (their mangled names hold the return type);
 * {@link #unsupported} says so and callers ask for the mangled name.
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
        if (ItaniumMangler.function(name, List.of()) == null) {
            return "this C++ name cannot be mangled here (std:: names and operators are not supported); bind the"
                    + " function by its mangled name (nm -D --defined-only <library>) without 'cxx'";
        }
        return null;
    }

    /**
     * The mangled names of {@code signature}'s function, most likely first, without repeats.
     *
     * @throws IllegalArgumentException when the name is one {@link #unsupported} rejects
     */
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
            String mangled = ItaniumMangler.function(signature.name(), types);
            if (mangled == null) {
                throw new IllegalArgumentException(signature.name() + ": " + unsupported(signature.name()));
            }
            out.add(mangled);
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

    /** The C++ spellings of a parameter's type, most likely first. */
    private static List<String> spellings(NidlSignature.Param p) {
        List<String> base = p.type() == null ? List.of("void") : cTypes(p.type());
        if (!p.pointer()) {
            return base;
        }
        List<String> out = new ArrayList<>();
        boolean readOnly = p.access() == AccessMode.READ;
        for (String b : base) {
            out.add((readOnly ? "const " : "") + b + "*");
        }
        for (String b : base) {
            out.add((readOnly ? "" : "const ") + b + "*");
        }
        return out;
    }

    /** The C types a signature type may stand for, most likely first. */
    private static List<String> cTypes(ElementType t) {
        return switch (t) {
            case BOOL -> List.of("bool");
            case INT8 -> List.of("signed char", "char");
            case UINT8 -> List.of("unsigned char");
            case INT16 -> List.of("short");
            case UINT16 -> List.of("unsigned short");
            case INT32 -> List.of("int");
            case UINT32 -> List.of("unsigned int");
            case INT64 -> List.of("long", "long long");
            case UINT64 -> List.of("unsigned long", "unsigned long long");
            case FLOAT -> List.of("float");
            case DOUBLE -> List.of("double");
        };
    }
}
