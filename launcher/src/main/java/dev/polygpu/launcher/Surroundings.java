package dev.polygpu.launcher;

import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.io.ProcessHandler;

/**
 * Where a program runs when that is not this JVM's own process: the folder relative paths start from, the
 * environment variables, and how subprocesses are started. The daemon ({@code dev.polygpu.launcher.daemon}) runs
 * each client's program with the client's; a run in the launcher's own JVM has none ({@link #PROCESS}) and the
 * program sees the process's.
 *
 * @param cwd the working directory, or null for the process's
 * @param environment the environment variables, or null for the process's
 * @param processes starts the program's subprocesses, or null for polyglot's default (this process's streams)
 */
public record Surroundings(Path cwd, Map<String, String> environment, ProcessHandler processes) {
    /** The process's own: nothing is set on the context. */
    public static final Surroundings PROCESS = new Surroundings(null, null, null);

    /** Sets these surroundings on {@code builder}; call after {@code allowAllAccess}, which they narrow. */
    Context.Builder applyTo(Context.Builder builder) {
        if (cwd != null) {
            builder.currentWorkingDirectory(cwd);
        }
        if (environment != null) {
            // only the given variables: NONE keeps the daemon's own environment out, environment(map) adds these
            builder.allowEnvironmentAccess(EnvironmentAccess.NONE).environment(environment);
        }
        if (processes != null) {
            builder.processHandler(processes);
        }
        return builder;
    }

    /** {@code file} as the program's working directory resolves it (the process's when there is none). */
    File resolve(File file) {
        return cwd == null || file.isAbsolute() ? file : cwd.resolve(file.getPath()).toFile();
    }
}
