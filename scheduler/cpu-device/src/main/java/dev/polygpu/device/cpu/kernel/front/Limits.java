package dev.polygpu.device.cpu.kernel.front;

/**
 * The kernel engine's limits on what one source may ask of the compiler. Each keeps a runaway source (a macro
 * that doubles forty times, a type that doubles sixty times, nesting a hundred thousand deep) from running the
 * compiler out of time, memory or stack; a source over one gets a compile error at its line and column that
 * names the limit. All are far above what hand-written or generated kernels use.
 */
public final class Limits {
    /**
     * Tokens that macro expansion may produce in one source, all expansions together (the source's own tokens
     * are not counted).
     */
    public static final int MAX_EXPANDED_TOKENS = 1_000_000;
    /**
     * Nesting of statements, parentheses, unary operators, assignments and chains of binary operators (each
     * operator of {@code a + b + c} nests its left side one deeper): the depth of the syntax tree the compiler
     * walks recursively.
     */
    public static final int MAX_NESTING = 10_000;
    /**
     * Template instantiations in progress at once, each started inside the previous one: nvcc's default
     * ({@code --pending_instantiations=200}), past which it reports "excessive recursion at instantiation".
     */
    public static final int MAX_TEMPLATE_DEPTH = 200;
    /** Bytes of one object (a variable, an array, a struct): 2 GiB, what a 32-bit offset into it can reach. */
    public static final long MAX_OBJECT_BYTES = Integer.MAX_VALUE;

    /**
     * Scalars in one struct (array members count each element's): a struct value is one JVM value per scalar in
     * generated code, so a larger one belongs in global memory behind a pointer.
     */
    public static final long MAX_STRUCT_SCALARS = 1 << 20;

    private Limits() {
    }
}
