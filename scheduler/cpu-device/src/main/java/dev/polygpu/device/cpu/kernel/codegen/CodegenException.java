package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.Pos;

/**
 * Source the front end accepts but the code generator cannot run (for example a pointer stored in memory).
 * The engine turns it into a {@code CompileException} at {@link #pos()}.
 */
public final class CodegenException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Pos pos;

    public CodegenException(Pos pos, String message) {
        super(message);
        this.pos = pos;
    }

    public Pos pos() {
        return pos;
    }
}
