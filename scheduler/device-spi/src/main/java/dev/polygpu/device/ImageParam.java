package dev.polygpu.device;

/**
 * A kernel parameter as precompiled code declares it (a PTX {@code .param}, a cubin's parameter table): its
 * name where the image keeps one (PTX does, a cubin does not: null), its size and alignment in bytes, and the
 * declaration as the image writes it ({@code .u64}, {@code .f32}, {@code .align 8 .b8[16]}, or for a cubin
 * {@code 8 bytes}) for messages. Precompiled code does not say whether 8 bytes hold a pointer or an integer, or
 * which type a pointer points to; a signature gives that.
 */
public record ImageParam(String name, int bytes, int align, String declaredAs) {
    public ImageParam {
        if (bytes <= 0 || align <= 0 || declaredAs == null) {
            throw new IllegalArgumentException("an image parameter needs a positive size and alignment and a"
                    + " declaration, got " + bytes + ", " + align + ", " + declaredAs);
        }
    }
}
