package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import java.util.List;

/**
 * The syntax of a PTX module as the {@link PtxParser} reads it, before any instruction is checked: tokens,
 * operands, statements and function bodies. Immutable values; the {@link PtxDecoder} gives them meaning.
 */
final class PtxSyntax {
    private PtxSyntax() {
    }

    enum Kind { WORD, NUMBER, STRING, PUNCT }

    /** One token; {@code line} is 1-based in the PTX text. */
    record Token(Kind kind, String text, int line) {
        boolean is(String s) {
            return text.equals(s);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** An operand of an instruction. */
    sealed interface Operand permits Name, Imm, Mem, Vec, Paren, Sink {
    }

    /** A register, special register, label, function or variable name ({@code %r1}, {@code %tid.x}, {@code $L__BB0_2}). */
    record Name(String name) implements Operand {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A numeric literal as written ({@code -1}, {@code 0x7f}, {@code 0f3F800000}, {@code 1.5}). */
    record Imm(String text) implements Operand {
        @Override
        public String toString() {
            return text;
        }
    }

    /** {@code [base+offset]}: base is a register or variable name, or null for an absolute address. */
    record Mem(String base, long offset) implements Operand {
        @Override
        public String toString() {
            return "[" + (base == null ? "" : base) + (offset == 0 && base != null ? "" : (offset >= 0 && base != null
                    ? "+" : "") + offset) + "]";
        }
    }

    /** {@code {%f1, %f2}}: a vector of registers ({@code _} for a sink). */
    record Vec(List<Operand> elements) implements Operand {
    }

    /** {@code (param0, param1)}: the argument or return list of a call. */
    record Paren(List<Operand> elements) implements Operand {
    }

    /** {@code _}: a result that is thrown away. */
    record Sink() implements Operand {
    }

    /** A statement of a function body. */
    sealed interface Stmt permits Instr, Decl, Label, Open, Close {
        int line();
    }

    /**
     * An instruction: {@code guard} is the predicate register or null, {@code negated} for {@code @!%p};
     * {@code opcode} is the dotted name ({@code ld.global.nc.f32}); a second result register
     * ({@code setp … %p|%q}) appears as {@code pairWith}.
     */
    record Instr(String guard, boolean negated, String opcode, List<Operand> operands, String pairWith, int line,
            String text) implements Stmt {
    }

    /** A declaration inside a body ({@code .reg}, {@code .local}, {@code .shared}, {@code .param}, …) as tokens. */
    record Decl(List<Token> tokens, int line) implements Stmt {
    }

    record Label(String name, int line) implements Stmt {
    }

    /** {@code {}: a nested scope opens. */
    record Open(int line) implements Stmt {
    }

    record Close(int line) implements Stmt {
    }

    /** A parameter of an entry or function (or a function's return value). */
    record Param(String name, String type, int align, int count, boolean array, String declaredAs) {
        int bytes() {
            return PtxTypes.size(type) * count;
        }
    }

    /** A module-scope or body variable: {@code .global .align 4 .b8 name[24] = {…}}. */
    record Var(String space, String name, String type, int align, long count, boolean unsized, long[] init,
            int line) {
        long bytes() {
            return PtxTypes.size(type) * count;
        }
    }

    /** An {@code .entry} or {@code .func} with its body (null for a declaration without one). */
    record Function(String name, boolean entry, List<Param> params, List<Param> returns, List<Stmt> body,
            int line) {
    }

    /** A whole module. */
    record Module(String fileName, String version, String target, List<Var> variables, List<Function> functions) {
    }

    /** INVALID_PTX naming the file, line and what is wrong. */
    static DeviceException invalid(String file, int line, String what) {
        return new DeviceException(CudaError.INVALID_PTX, file + ":" + line + ": " + what);
    }

    /** NOT_SUPPORTED naming the file, line and the construct the CPU device cannot run. */
    static DeviceException unsupported(String file, int line, String what) {
        return new DeviceException(CudaError.NOT_SUPPORTED, file + ":" + line + ": " + what
                + " is not supported by the CPU device's PTX interpreter (see docs/ptx.md for what it runs);"
                + " pass the kernel's CUDA C source to buildkernel instead");
    }
}
