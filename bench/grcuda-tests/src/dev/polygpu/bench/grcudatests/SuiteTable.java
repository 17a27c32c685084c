package dev.polygpu.bench.grcudatests;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/**
 * Runs JUnit 4 test classes one after another with JUnit's own runner and prints one Markdown table row per
 * class: tests, passed, failed, skipped (ignored tests and failed assumptions, with their messages). Each
 * failure's test, message and first stack frames go to stderr, and so does a progress line every thousand tests
 * (GrCUDA's parametrized classes run tens of thousands). Used by {@code bench/grcuda-tests/run}.
 */
public final class SuiteTable {
    private static final int TRACE_LINES = 8;
    private static final int PROGRESS_EVERY = 1000;

    private SuiteTable() {
    }

    /** Arguments: fully qualified class names. Exit status 1 when a test failed, 0 otherwise. */
    public static void main(String[] args) throws ClassNotFoundException {
        boolean anyFailed = false;
        System.out.println("| class | tests | passed | failed | skipped (reason) |");
        System.out.println("|---|---|---|---|---|");
        for (String name : args) {
            Counts c = run(Class.forName(name));
            anyFailed |= c.failed > 0;
            String simple = name.substring(name.lastIndexOf('.') + 1);
            System.out.printf("| %s | %d | %d | %d | %s |%n", simple, c.finished, c.finished - c.failed - c.skipped,
                    c.failed, c.skipped == 0 ? "0" : c.skipped + " (" + String.join("; ", c.reasons) + ")");
            System.out.flush();
        }
        System.exit(anyFailed ? 1 : 0);
    }

    private static Counts run(Class<?> cls) {
        Counts c = new Counts();
        JUnitCore core = new JUnitCore();
        core.addListener(c);
        core.run(Request.aClass(cls));
        return c;
    }

    /** Counts what JUnit reports for one class. */
    private static final class Counts extends RunListener {
        int finished;
        int failed;
        int skipped;
        final Set<String> reasons = new LinkedHashSet<>();
        private final List<Description> failedNow = new ArrayList<>();

        @Override
        public void testFinished(Description d) {
            finished++;
            if (finished % PROGRESS_EVERY == 0) {
                System.err.printf("%s: %d tests run, %d failed, %d skipped%n", d.getClassName(), finished, failed,
                        skipped);
            }
        }

        @Override
        public void testFailure(Failure f) {
            if (f.getDescription().getMethodName() == null) {
                // A class-level failure (a @BeforeClass or the constructor of the parameters) runs no test.
                finished++;
            }
            failed++;
            failedNow.add(f.getDescription());
            System.err.println("FAILED " + f.getDescription().getDisplayName() + ": " + f.getMessage());
            String[] lines = f.getTrace().split("\n");
            for (int i = 1; i < Math.min(lines.length, TRACE_LINES); i++) {
                System.err.println("    " + lines[i].strip());
            }
        }

        @Override
        public void testAssumptionFailure(Failure f) {
            skipped++;
            reasons.add(testName(f.getDescription()) + ": " + f.getMessage());
        }

        /** The test method without a parametrized test's parameter index, so reasons are listed once per method. */
        private static String testName(Description d) {
            return d.getMethodName() == null ? d.getClassName() : d.getMethodName().replaceAll("\\[.*", "");
        }

        @Override
        public void testIgnored(Description d) {
            finished++;
            skipped++;
            reasons.add("@Ignore");
        }
    }
}
