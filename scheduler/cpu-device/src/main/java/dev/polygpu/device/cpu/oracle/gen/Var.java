package dev.polygpu.device.cpu.oracle.gen;

/**
 * A variable of a generated program (a local, a parameter, a loop counter, a {@code __shared__} array). Compared
 * by identity: the shrinker asks which statements still use it. {@code level} is fixed when it is declared;
 * the generator assigns only values at least as uniform in control flow at least as uniform, so a uniform
 * variable stays uniform on every path. {@code writable} is false for counters and read-only names.
 */
public final class Var {
    final String name;
    final Ty type;
    final Level level;
    final boolean writable;
    /** True if the name is file-scope (printed with the case prefix). */
    final boolean global;
    /** Where the variable lives, which decides how it may be indexed. */
    Storage storage = Storage.LOCAL;

    /** Where a variable lives. */
    enum Storage {
        /** A local or parameter: any element. */
        LOCAL,
        /** {@code __shared__}: outside an exchange, only the thread's own element ({@code [tid]}). */
        SHARED,
        /** A {@code volatile} pointer to a shared array: own element, or the warp's across {@code __syncwarp}. */
        VOLATILE_SHARED,
        /** {@code __constant__}: read-only, any element. */
        CONSTANT,
        /** {@code __device__}: only the thread's own element ({@code [gid]}). */
        DEVICE,
        /** A kernel input: read-only, any element. */
        INPUT,
        /** A kernel output buffer: written by dedicated statements only. */
        OUTPUT,
        /** tid, gid, lane and the like: read-only. */
        SPECIAL
    }

    Var(String name, Ty type, Level level, boolean writable, boolean global) {
        this.name = name;
        this.type = type;
        this.level = level;
        this.writable = writable;
        this.global = global;
    }

    Var in(Storage s) {
        this.storage = s;
        return this;
    }

    static Var local(String name, Ty type, Level level) {
        return new Var(name, type, level, true, false);
    }

    /** The name as printed, {@code @} standing for the case prefix of a file-scope one. */
    String ref() {
        return global ? "@" + name : name;
    }

    @Override
    public String toString() {
        return name + ": " + type.c() + " (" + level + ")";
    }
}
