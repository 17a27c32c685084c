package dev.polygpu.device.cpu.oracle.gen;

import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.oracle.OracleArg;
import java.util.List;

/**
 * A generated kernel as a tree: file-scope items, the kernel's parameters with the arguments it is launched
 * with, its body and its launch. Immutable; the shrinker makes smaller copies. {@link Printer} turns it into
 * CUDA C with a given name prefix, so the same program can go into one nvcc batch many times under different
 * prefixes.
 */
public record Program(List<Item> items, List<Param> params, Stmt.Block body, LaunchConfig launch) {
    public Program {
        items = List.copyOf(items);
        params = List.copyOf(params);
    }

    /**
     * A file-scope item named {@code name} (without prefix): verbatim {@code text} (a struct, a helper, a macro,
     * a table), or a function whose {@code text} is the signature and {@code body} its statements.
     */
    public record Item(String name, String text, Stmt.Block body) {
    }

    /** A kernel parameter and the argument the case passes. */
    public record Param(Var var, OracleArg arg) {
    }

    Program withItems(List<Item> i) {
        return new Program(i, params, body, launch);
    }

    Program withParams(List<Param> p) {
        return new Program(items, p, body, launch);
    }

    Program withBody(Stmt.Block b) {
        return new Program(items, params, b, launch);
    }

    Program withLaunch(LaunchConfig l) {
        return new Program(items, params, body, l);
    }
}
