package dev.polygpu.launcher;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Takes the language options, {@code --<lang>.<Name>=value} or {@code --<lang>.<Name> value} (such as
 * {@code --grcuda.ExecutionPolicy=sync}, {@code --engine.Mode latency}, a boolean one alone for true:
 * {@code --js.commonjs-require}), out of a command line before picocli reads
 * the command's own options: they go to GraalVM polyglot unchanged, so their names are polyglot's to check. A
 * command that runs a program ({@link Target#optionsEndAtProgram}) takes none after the program's file (the first
 * argument that is no option, or the one after {@code --}): those are the program's arguments.
 */
public final class PolyglotArgs implements IParameterPreprocessor {

    /** A command whose user object collects the language options. */
    public interface Target {
        /** {@return where the options go, name (without {@code --}) to value, in the order written} */
        Map<String, String> polyglotOptions();

        /** {@return whether the first argument that is no option is the program, after which nothing is parsed} */
        boolean optionsEndAtProgram();

        /**
         * {@return whether the polyglot option {@code name} (without {@code --}) takes true or false, so that it
         * may be written alone to mean true ({@code --js.commonjs-require}), as GraalVM's own launchers allow}
         */
        boolean isBooleanOption(String name);
    }

    @Override
    public boolean preprocess(Stack<String> args, CommandSpec spec, ArgSpec argSpec, Map<String, Object> info) {
        Target target = (Target) spec.userObject();
        // The top of picocli's stack is the first argument.
        List<String> in = new ArrayList<>(args);
        Collections.reverse(in);
        List<String> kept = new ArrayList<>();
        int i = 0;
        for (; i < in.size(); i++) {
            String a = in.get(i);
            boolean option = a.startsWith("-") && !a.equals("--") && a.length() > 1;
            if (!option) {
                if (target.optionsEndAtProgram()) {
                    break;
                }
                kept.add(a);
                continue;
            }
            int eq = a.indexOf('=');
            String name = eq < 0 ? a : a.substring(0, eq);
            OptionSpec own = spec.findOption(name);
            String next = i + 1 < in.size() ? in.get(i + 1) : null;
            if (own != null) {
                kept.add(a);
                if (eq < 0 && own.arity().max() > 0 && next != null
                        && (own.arity().min() > 0 || next.equalsIgnoreCase("true") || next.equalsIgnoreCase("false"))) {
                    checkNotTheProgram(spec, target, name, own.paramLabel(), next);
                    kept.add(in.get(++i));
                }
            } else if (name.startsWith("--") && name.indexOf('.') > 2) {
                String value;
                if (eq >= 0) {
                    value = a.substring(eq + 1);
                } else if (target.isBooleanOption(name.substring(2))) {
                    boolean given = next != null && (next.equalsIgnoreCase("true") || next.equalsIgnoreCase("false"));
                    value = given ? in.get(++i) : "true";
                } else {
                    if (next == null || next.startsWith("-")) {
                        throw new ParameterException(spec.commandLine(), needsValue(name, "VALUE", target));
                    }
                    checkNotTheProgram(spec, target, name, "VALUE", next);
                    value = in.get(++i);
                }
                target.polyglotOptions().put(name.substring(2), value);
            } else {
                // Neither the command's nor a language option: picocli reports it, with the closest name.
                kept.add(a);
            }
        }
        kept.addAll(in.subList(i, in.size()));
        args.clear();
        for (int k = kept.size() - 1; k >= 0; k--) {
            args.push(kept.get(k));
        }
        return false;
    }

    /**
     * Refuses to take a program's file as the value of {@code --name} ({@code polygpu --cluster app.py}): the value
     * was left out, and the file would not run.
     */
    private static void checkNotTheProgram(CommandSpec spec, Target target, String name, String label, String value) {
        if (target.optionsEndAtProgram() && Main.languageOf(value.toLowerCase(Locale.ROOT)) != null) {
            throw new ParameterException(spec.commandLine(), needsValue(name, label, target));
        }
    }

    private static String needsValue(String name, String label, Target target) {
        return name + " needs a value: write " + name + "=" + label + " or " + name + " " + label
                + (target.optionsEndAtProgram() ? " before the file" : "");
    }
}
