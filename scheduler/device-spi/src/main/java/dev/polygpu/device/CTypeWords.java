package dev.polygpu.device;

import java.util.List;

/**
 * A C builtin type as its words spell it ({@code unsigned long long int}, {@code short}, {@code signed char}),
 * reduced to a base word, how many {@code long}s and the signedness words: what both the kernel signature
 * reader and the C++ name mangler need before mapping it to their own codes. A base is one of the words that
 * are not {@code int}, {@code long}, {@code signed} or {@code unsigned}; {@code int} alone or implied is "int".
 */
public record CTypeWords(String base, int longs, boolean signed, boolean unsigned) {

    /** The words as one builtin type, or null when they do not name one (two bases, {@code int int}, …). */
    public static CTypeWords of(List<String> words) {
        int longs = 0;
        boolean signed = false;
        boolean unsigned = false;
        int ints = 0;
        String base = null;
        for (String w : words) {
            switch (w) {
                case "int" -> ints++;
                case "long" -> longs++;
                case "signed" -> signed = true;
                case "unsigned" -> unsigned = true;
                default -> {
                    if (base != null) {
                        return null;
                    }
                    base = w;
                }
            }
        }
        if (ints > 1 || (ints == 1 && base != null && !base.equals("short"))) {
            return null;
        }
        if (signed && unsigned || longs > 2) {
            return null;
        }
        if (base == null) {
            if (ints == 0 && !signed && !unsigned && longs == 0) {
                return null;
            }
            base = "int";
        }
        return new CTypeWords(base, longs, signed, unsigned);
    }

    /** No {@code long}, {@code signed} or {@code unsigned}: the only form {@code bool}, {@code float} take. */
    public boolean plain() {
        return !signed && !unsigned && longs == 0;
    }
}
