package dev.polygpu.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.MaxValuesExceededException;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Sets up and runs a picocli command the way every polygpu command line works: {@code --name=value} and
 * {@code --name value} both; {@code --help} generated from the options; an option given twice takes the last
 * value; no {@code @file} expansion (an argument that starts with {@code @} is an argument). A mistake is reported
 * on standard error in two lines, {@code "<command>: <what was wrong and what to write>"} and
 * {@code "run '<command> --help' for the options"}, with exit status {@link #EXIT_USAGE}: an unknown option names
 * the closest known one ({@link Suggestion}), an option without its value shows how to write it, and an
 * {@link IllegalArgumentException} from an option's setter or converter, or from the command's own checks, gives
 * its message, with the option's name in front where the message lacks it.
 */
public final class CommandLines {
    /** The exit status of a command line that cannot be run as written. */
    public static final int EXIT_USAGE = 2;
    private static final int HELP_WIDTH = 110;
    private static final int LONG_OPTIONS_WIDTH = 34;

    /** A command that says more than "unknown option" when one is not its own (the launcher: language options). */
    public interface UnknownOptionHint {
        /** {@return what follows "unknown option --x (did you mean --y?); " for this command} */
        String unknownOptionHint();
    }

    private CommandLines() {
    }

    /** A command line for {@code command} (a {@code @Command} object), set up by {@link #configure}. */
    public static CommandLine create(Object command, PrintStream out, PrintStream err) {
        return configure(new CommandLine(command), out, err);
    }

    /**
     * Sets {@code commandLine} and the subcommands already added to it up as every polygpu command line:
     * help on {@code out}, errors on {@code err}, the parser settings and error handling of this class.
     */
    public static CommandLine configure(CommandLine commandLine, PrintStream out, PrintStream err) {
        commandLine.setOut(new PrintWriter(new OutputStreamWriter(out, out.charset()), true));
        commandLine.setErr(new PrintWriter(new OutputStreamWriter(err, err.charset()), true));
        commandLine.setExpandAtFiles(false);
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setUsageHelpWidth(HELP_WIDTH);
        commandLine.setUsageHelpLongOptionsMaxWidth(LONG_OPTIONS_WIDTH);
        commandLine.setParameterExceptionHandler(CommandLines::parameterError);
        commandLine.setExecutionExceptionHandler(CommandLines::executionError);
        return commandLine;
    }

    /**
     * Lists {@code commandLine}'s options in sections in its {@code --help}: each key of {@code headings} names the
     * first option of a section (its longest name) and its value is the heading printed above it; the options keep
     * their order of declaration ({@code sortOptions = false}).
     */
    public static void optionSections(CommandLine commandLine, Map<String, String> headings) {
        commandLine.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> {
            StringBuilder text = new StringBuilder();
            List<OptionSpec> section = new ArrayList<>();
            for (OptionSpec o : help.commandSpec().options()) {
                if (o.hidden()) {
                    continue;
                }
                String heading = headings.get(o.longestName());
                if (heading != null) {
                    text.append(help.optionListExcludingGroups(section, help.createDefaultLayout(), null,
                            help.parameterLabelRenderer()));
                    section.clear();
                    text.append(System.lineSeparator()).append(heading).append(System.lineSeparator());
                }
                section.add(o);
            }
            return text.append(help.optionListExcludingGroups(section, help.createDefaultLayout(), null,
                    help.parameterLabelRenderer())).toString();
        });
    }

    /** Runs {@code command} with {@code args}, set up by {@link #configure}; returns the exit status. */
    public static int execute(Object command, PrintStream out, PrintStream err, String... args) {
        return execute(create(command, out, err), args);
    }

    /** Runs a configured command line with {@code args}; returns the exit status. */
    public static int execute(CommandLine commandLine, String... args) {
        try {
            return commandLine.execute(args);
        } finally {
            commandLine.getOut().flush();
            commandLine.getErr().flush();
        }
    }

    /** Prints {@code problem} as the usage error of {@code commandLine}'s command; returns {@link #EXIT_USAGE}. */
    public static int usageError(CommandLine commandLine, String problem) {
        String name = commandLine.getCommandSpec().qualifiedName();
        PrintWriter err = commandLine.getErr();
        err.println(name + ": " + problem);
        err.println("run '" + name + " --help' for the options");
        err.flush();
        return EXIT_USAGE;
    }

    private static int parameterError(ParameterException e, String[] args) {
        return usageError(e.getCommandLine(), problem(e, args));
    }

    /**
     * An exception out of a command: an IllegalArgumentException is a usage error (a value or a combination the
     * command refuses); an I/O error says what could not be read or written, exit status 1; anything else is a bug,
     * reported with its stack trace, exit status 1.
     */
    private static int executionError(Exception e, CommandLine commandLine, ParseResult parsed) {
        if (e instanceof IllegalArgumentException) {
            return usageError(commandLine, e.getMessage());
        }
        PrintWriter err = commandLine.getErr();
        String name = commandLine.getCommandSpec().qualifiedName();
        if (e instanceof IOException || e instanceof UncheckedIOException) {
            err.println(name + ": " + e.getMessage());
        } else {
            err.println(name + ": internal error (please report it):");
            e.printStackTrace(err);
        }
        err.flush();
        return 1;
    }

    /** What was wrong with the command line, in the user's terms, and what to write instead. */
    public static String problem(ParameterException e, String[] args) {
        CommandSpec spec = e.getCommandLine().getCommandSpec();
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String arg = u.getUnmatched().getFirst();
            if (u.isUnknownOption()) {
                return unknownOption(spec, arg);
            }
            return spec.subcommands().isEmpty() ? "unexpected argument '" + arg + "'" : unknownCommand(spec, arg);
        }
        if (e instanceof MissingParameterException m && !m.getMissing().isEmpty()) {
            ArgSpec missing = m.getMissing().getFirst();
            if (missing instanceof OptionSpec o) {
                String name = o.longestName();
                return name + " needs a value: write " + name + "=" + o.paramLabel() + " or " + name + " "
                        + o.paramLabel();
            }
            return "missing " + missing.paramLabel();
        }
        if (e.getArgSpec() instanceof OptionSpec o && o.arity().max() == 0) {
            // A flag given =value: picocli tries the value as a boolean (--check=yes)
            return o.longestName() + " takes no value";
        }
        if (e instanceof MaxValuesExceededException) {
            String flag = flagGivenAValue(spec, args);
            if (flag != null) {
                return flag + " takes no value";
            }
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException) {
                return named(e.getArgSpec(), t.getMessage());
            }
        }
        return e.getMessage();
    }

    /** "unknown option --jion (did you mean --join?)", and the command's hint if it has one. */
    static String unknownOption(CommandSpec spec, String arg) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg : arg.substring(0, eq);
        List<String> known = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                for (String n : o.names()) {
                    if (n.startsWith("--")) {
                        known.add(n);
                    }
                }
            }
        }
        String closest = Suggestion.closest(name, known);
        String problem = "unknown option " + name + (closest == null ? "" : " (did you mean " + closest + "?)");
        return spec.userObject() instanceof UnknownOptionHint hint ? problem + "; " + hint.unknownOptionHint()
                : problem;
    }

    /** "unknown command 'instal' (did you mean install?); write install or uninstall" for a command's commands. */
    static String unknownCommand(CommandSpec spec, String arg) {
        List<String> known = new ArrayList<>();
        spec.subcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().usageMessage().hidden()) {
                known.add(name);
            }
        });
        String closest = Suggestion.closest(arg, known);
        return "unknown command '" + arg + "'" + (closest == null ? "" : " (did you mean " + closest + "?)")
                + "; write " + String.join(" or ", known);
    }

    /**
     * {@code message} about {@code arg}, with its name in front (an option's longest name, a positional
     * parameter's label) when the message does not name it.
     */
    static String named(ArgSpec arg, String message) {
        if (arg == null || message == null) {
            return message;
        }
        String name = arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel();
        if (message.contains(name)) {
            return message;
        }
        return name + (message.startsWith("must ") ? " " : ": ") + message;
    }

    /** The first flag (an option that takes no value) written with {@code =value} in {@code args}, or null. */
    private static String flagGivenAValue(CommandSpec spec, String[] args) {
        for (String a : args) {
            int eq = a.indexOf('=');
            if (a.startsWith("-") && eq > 0) {
                OptionSpec o = spec.findOption(a.substring(0, eq));
                if (o != null && o.arity().max() == 0) {
                    return o.longestName();
                }
            }
        }
        return null;
    }
}
