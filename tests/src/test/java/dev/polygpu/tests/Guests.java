package dev.polygpu.tests;

import dev.polygpu.launcher.Main;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.Source;

/**
 * One polyglot {@link Engine} for the whole test JVM (GraalPy's first context costs seconds; contexts on a
 * shared engine cost a tenth of that), and helpers that run guest code or the launcher with captured output.
 */
final class Guests {
    private static final Engine ENGINE = Engine.newBuilder("python", "js", "grcuda")
            .allowExperimentalOptions(true)
            .option("engine.WarnInterpreterOnly", "false")
            .out(System.out).err(System.err)
            .build();

    private Guests() {
    }

    static Engine engine() {
        return ENGINE;
    }

    /** The repository root (the surefire configuration passes it; the working folder is tests/). */
    static Path root() {
        return Path.of(System.getProperty("polygpu.root", "..")).toAbsolutePath().normalize();
    }

    /** What the launcher printed and returned for a command line. */
    record Run(int status, String out, String err) {
        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static Run launch(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = new Main(InputStream.nullInputStream(), o, e, ENGINE).run(args);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Runs {@code code} in a fresh context on the shared engine and returns what it printed; guest errors
     * propagate as {@link org.graalvm.polyglot.PolyglotException}.
     */
    static String eval(String language, String code) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Context context = Context.newBuilder("python", "js", "grcuda")
                .engine(ENGINE)
                .allowAllAccess(true)
                .allowPolyglotAccess(PolyglotAccess.ALL)
                .out(out)
                .build()) {
            context.eval(Source.create(language, code));
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
