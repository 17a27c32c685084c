package dev.polygpu.device.cpu.ptx;

/** PTX fundamental types ({@code .u32}, {@code .f64}, {@code .pred}…): their size and kind. Stateless. */
final class PtxTypes {
    private PtxTypes() {
    }

    /** True for a type name this interpreter knows (without the leading dot). */
    static boolean isType(String t) {
        return switch (t) {
            case "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "b8", "b16", "b32", "b64", "f16", "f32",
                 "f64", "pred" -> true;
            default -> false;
        };
    }

    /** Size in bytes (a predicate counts as 1); -1 for a type that is not known. */
    static int size(String t) {
        return switch (t) {
            case "u8", "s8", "b8", "pred" -> 1;
            case "u16", "s16", "b16", "f16" -> 2;
            case "u32", "s32", "b32", "f32" -> 4;
            case "u64", "s64", "b64", "f64" -> 8;
            default -> -1;
        };
    }

    static boolean isFloat(String t) {
        return t.equals("f32") || t.equals("f64");
    }

    static boolean isSigned(String t) {
        return t.startsWith("s");
    }

    /** Bits of an integer type. */
    static int bits(String t) {
        return size(t) * 8;
    }
}
