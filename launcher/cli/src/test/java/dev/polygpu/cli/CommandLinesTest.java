package dev.polygpu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** How every polygpu command line reads options and reports mistakes, on a small command. */
class CommandLinesTest {

    @Command(name = "demo", sortOptions = false, synopsisHeading = "Usage: ", customSynopsis = "demo [options]")
    static final class Demo implements Callable<Integer> {
        @Option(names = "--join", paramLabel = "HOST:PORT,...", description = "members")
        String join;
        @Option(names = "--count", paramLabel = "N", description = "how many")
        int count = 1;
        @Option(names = "--quiet", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
                converter = YesNo.class, description = "no progress")
        boolean quiet;
        @Option(names = "--loud", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
                converter = YesNo.class, description = "on by default")
        boolean loud = true;
        @Option(names = "--check", description = "a flag")
        boolean check;
        @Option(names = "--size", paramLabel = "N", description = "checked by the command")
        String size;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;
        @Parameters(paramLabel = "ARG", description = "arguments")
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() {
            if (size != null && !size.matches("\\d+")) {
                throw new IllegalArgumentException("--size must be a whole number, got '" + size + "'");
            }
            return 0;
        }
    }

    /** What a run of the demo printed and returned, and the command it parsed. */
    record Run(int status, String out, String err, Demo demo) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Demo demo = new Demo();
        CommandLine commandLine = CommandLines.create(demo, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        CommandLines.optionSections(commandLine, Map.of("--check", "flags"));
        int status = CommandLines.execute(commandLine, args);
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), demo);
    }

    @Test
    void aValueFollowsItsOptionAfterEqualsOrASpaceAndTheLastOneCounts() {
        Run attached = run("--join=127.0.0.1:5701", "--count=3");
        Run spaced = run("--join", "127.0.0.1:5701", "--count", "3");
        for (Run r : List.of(attached, spaced)) {
            assertEquals(0, r.status(), r.err());
            assertEquals("127.0.0.1:5701", r.demo().join);
            assertEquals(3, r.demo().count);
        }
        assertEquals(7, run("--count=3", "--count", "7").demo().count);
        assertEquals(-2, run("--count", "-2").demo().count, "a negative number is a value, not an option");
    }

    @Test
    void anOnOffOptionAloneIsOnAndTakesYesNoTrueFalseOnOff() {
        assertTrue(run("--quiet").demo().quiet);
        assertTrue(run("--loud").demo().loud, "alone is on, whatever the default");
        assertEquals(false, run("--loud=no").demo().loud);
        assertEquals(false, run("--loud", "false").demo().loud);
        assertTrue(run("--quiet=ON").demo().quiet);
        Run bad = run("--quiet=maybe");
        assertEquals(2, bad.status());
        assertEquals("demo: --quiet must be true or false, got 'maybe'\nrun 'demo --help' for the options\n",
                bad.err());
        assertEquals(List.of("yes"), run("--quiet", "yes").demo().args, "only true and false follow after a space");
    }

    @Test
    void mistakesSayWhatWasWrongAndWhatToWrite() {
        String[][] cases = {
            {"--jion=x", "demo: unknown option --jion (did you mean --join?)"},
            {"--jion", "demo: unknown option --jion (did you mean --join?)"},
            {"--frobnicate", "demo: unknown option --frobnicate"},
            {"--join", "demo: --join needs a value: write --join=HOST:PORT,... or --join HOST:PORT,..."},
            {"--check=yes", "demo: --check takes no value"},
            {"--help=yes", "demo: --help takes no value"},
            {"--size=big", "demo: --size must be a whole number, got 'big'"},
        };
        for (String[] c : cases) {
            Run r = run(c[0]);
            assertEquals(2, r.status(), c[0]);
            assertEquals(c[1] + "\nrun 'demo --help' for the options\n", r.err(), c[0]);
            assertEquals("", r.out(), c[0]);
        }
    }

    @Test
    void anArgumentThatStartsWithAtIsNoFileOfArguments() {
        assertEquals(List.of("@args.txt"), run("@args.txt").demo().args);
    }

    @Test
    void helpIsGeneratedInSections() {
        Run r = run("--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: demo [options]\n"), r.out());
        int join = r.out().indexOf("--join=HOST:PORT,...");
        int flags = r.out().indexOf("\nflags\n      --check");
        assertTrue(join > 0 && flags > join, r.out());
        assertTrue(r.out().contains("--quiet[=true|false]"), r.out());
    }

    @Test
    void theSuggestionIsTheClosestNameAtMostTwoEditsAway() {
        List<String> known = List.of("--join", "--check", "--chunk", "--stats-every");
        assertEquals("--check", Suggestion.closest("--chek", known));
        assertEquals("--join", Suggestion.closest("--jion", known), "a swap is two edits");
        assertEquals("--stats-every", Suggestion.closest("--stats-evry", known));
        assertNull(Suggestion.closest("--verbose", known));
        assertEquals(3, Suggestion.editDistance("kitten", "sitting"), "the textbook example");
    }
}
