package dev.polygpu.device.cpu.kernel.front;

/**
 * The CUDA C front end of the CPU device's kernel engine: preprocessor, parser and semantic analysis,
 * producing the typed AST of {@code dev.polygpu.device.cpu.kernel.ast} that the code generator compiles.
 */
public final class FrontEnd {
    private FrontEnd() {}

    /**
     * Preprocesses, parses and analyzes all non-template code; throws CompileException listing every problem
     * found (line:col in the user's source).
     */
    public static TranslationUnit compile(String source, String fileName) {
        return new TranslationUnit(Program.compile(source, fileName));
    }
}
