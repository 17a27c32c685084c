package dev.polygpu.device.cpu.kernel.ast;

import java.util.List;

/**
 * A {@code __global__} kernel or {@code __device__} function after template instantiation and semantic
 * analysis. {@code name} is the name used to look the kernel up: the source name for plain and
 * {@code extern "C"} kernels, {@code name<args>} for a template instantiation (for example {@code k<float>},
 * {@code reduce<256>}). {@code body} is mutable only so that a recursive reference can be set up.
 */
public final class Function {
    public final String name;
    public final CType returnType;
    public final List<Var> params;
    public final boolean kernel;
    public final Pos pos;
    private Stmt.Block body;

    public Function(String name, CType returnType, List<Var> params, boolean kernel, Pos pos) {
        this.name = name;
        this.returnType = returnType;
        this.params = List.copyOf(params);
        this.kernel = kernel;
        this.pos = pos;
    }

    public Stmt.Block body() {
        return body;
    }

    public void setBody(Stmt.Block body) {
        this.body = body;
    }

    @Override
    public String toString() {
        return (kernel ? "__global__ " : "__device__ ") + returnType + " " + name + params;
    }
}
