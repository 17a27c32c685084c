package dev.polygpu.device.cpu.kernel.ast;

/**
 * A variable of a kernel or {@code __device__} function: parameter, local, {@code __shared__} array, or a
 * file-scope {@code __device__}/{@code __constant__} variable of the module ({@link GlobalVariable}). Identity is the object (two variables may share a name in different scopes). Created by the front end;
 * {@link #addressTaken} is set by semantic analysis when {@code &var} appears, in which case the code
 * generator keeps the variable in memory rather than in a JVM local.
 */
public final class Var {
    /**
     * Where a variable lives. {@code DEVICE} and {@code CONSTANT} are the file-scope {@code __device__} and
     * {@code __constant__} variables: one instance in the module's memory, shared by every launch.
     */
    public enum Kind { PARAM, LOCAL, SHARED, EXTERN_SHARED, DEVICE, CONSTANT }

    public final String name;
    public final CType type;
    public final Kind kind;
    public final Pos pos;
    /** Unique within one function after inlining; stable order of declaration. */
    public final int id;
    public boolean addressTaken;
    /**
     * Declared {@code volatile} ({@code volatile float* s}, {@code volatile __shared__ int a[32]}): memory
     * accessed through it is shared by the lanes of a warp that rely on running in lock step, as
     * warp-synchronous code written before CUDA 9 does. Semantic analysis makes each statement that uses it a
     * step of the warp.
     */
    public boolean volatileAccess;

    public Var(String name, CType type, Kind kind, Pos pos, int id) {
        this.name = name;
        this.type = type;
        this.kind = kind;
        this.pos = pos;
        this.id = id;
    }

    /** True for a file-scope {@code __device__} or {@code __constant__} variable (in the module's memory). */
    public boolean inModuleMemory() {
        return kind == Kind.DEVICE || kind == Kind.CONSTANT;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase() + " " + type + " " + name;
    }
}
