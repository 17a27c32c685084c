package dev.polygpu.device.cpu.oracle.gen;

import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import java.util.ArrayList;
import java.util.List;

/**
 * A generated kernel: its program tree, what it covers, and where it came from (the run's seed and the case's
 * index, which regenerate it with the same profile).
 */
public record GeneratedKernel(long seed, long index, Profile profile, Program program, Coverage coverage) {
    /** The case's name in reports: {@code seed:index}. */
    public String name() {
        return seed + ":" + index;
    }

    /** The oracle case, every file-scope name prefixed with {@code prefix}. */
    public OracleCase toCase(String prefix) {
        return toCase(name(), program, prefix);
    }

    /** The oracle case of any program (the shrinker's reduced ones too). */
    public static OracleCase toCase(String name, Program p, String prefix) {
        List<OracleArg> args = new ArrayList<>();
        for (Program.Param par : p.params()) {
            args.add(par.arg());
        }
        return new OracleCase(name, Printer.print(p, prefix), prefix + "kernel", p.launch(), args);
    }
}
