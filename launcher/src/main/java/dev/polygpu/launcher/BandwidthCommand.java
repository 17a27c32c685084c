package dev.polygpu.launcher;

import dev.polygpu.cli.CommandLines;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import picocli.CommandLine;

/**
 * {@code polygpu --bandwidth-matrix[=cached|measure] [language options]}: prints the link bandwidths between the
 * host and the devices the options select, in GrCUDA's CSV on standard output (so that {@code > bw.csv} makes a
 * file {@code --grcuda.BandwidthMatrix=bw.csv} reads back) and as a table on standard error, with the device line
 * and where the figures came from. The grcuda language finds them ({@code polygpu_bandwidth}): from
 * {@code grcuda.BandwidthMatrix}, the cache, or measured; {@code measure} measures again and replaces the cache's.
 */
final class BandwidthCommand {
    private final PrintStream out;
    private final PrintStream err;
    private final Engine engine;
    private final Surroundings surroundings;
    private final CommandLine commandLine;

    BandwidthCommand(PrintStream out, PrintStream err, Engine engine, Surroundings surroundings,
            CommandLine commandLine) {
        this.out = out;
        this.err = err;
        this.engine = engine;
        this.surroundings = surroundings;
        this.commandLine = commandLine;
    }

    /** Prints the matrix for {@code options}; returns the exit status. */
    int run(LauncherCommand command, Map<String, String> options, Map<String, String> written) {
        String mode = command.bandwidthMatrix;
        // picocli takes the word after the option as its value: a program's file may land there.
        String file = command.file != null ? command.file
                : Main.languageOf(mode.toLowerCase(Locale.ROOT)) != null ? mode : null;
        if (file != null) {
            return CommandLines.usageError(commandLine, "--bandwidth-matrix prints the link bandwidths and runs no "
                    + "file: run " + file + " without it");
        }
        if (!mode.equals("cached") && !mode.equals("measure")) {
            return CommandLines.usageError(commandLine, "--bandwidth-matrix takes cached (the default: measure only "
                    + "when no figures are cached) or measure (measure again), got '" + mode + "'");
        }
        Context context;
        try {
            Context.Builder b = Context.newBuilder(Main.GRCUDA).allowAllAccess(true).err(err).out(err)
                    .options(options);
            if (engine != null) {
                b.engine(engine);
            }
            context = surroundings.applyTo(b).build();
        } catch (IllegalArgumentException e) {
            err.println("polygpu: " + Main.withHelpHint(Main.asWritten(e.getMessage(), written)));
            return CommandLines.EXIT_USAGE;
        }
        try (context) {
            err.println("polygpu: " + Main.deviceLine(context));
            Value cu = context.eval(Main.GRCUDA, "CU");
            if (mode.equals("measure")) {
                cu.getMember("polygpu_bandwidth_measure").execute();
            }
            err.print(cu.getMember("polygpu_bandwidth").execute("table").asString());
            out.print(cu.getMember("polygpu_bandwidth").execute("csv").asString());
            return 0;
        } catch (PolyglotException e) {
            if (e.isGuestException() && !e.isExit() && !e.isInterrupted() && !e.isCancelled()) {
                // The language's message names the option and says what to do; no guest frames here.
                err.println("polygpu: " + Main.asWritten(e.getMessage(), written));
                return 1;
            }
            return Main.report(e, err);
        } finally {
            out.flush();
            err.flush();
        }
    }
}
