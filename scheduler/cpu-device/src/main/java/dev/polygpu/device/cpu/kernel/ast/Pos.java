package dev.polygpu.device.cpu.kernel.ast;

/** A position in the user's kernel source: 1-based line and column, as a compiler reports them. */
public record Pos(int line, int column) {
    public static final Pos NONE = new Pos(0, 0);

    @Override
    public String toString() {
        return line + ":" + column;
    }
}
