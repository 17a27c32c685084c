package dev.polygpu.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** A script of this checkout's {@code dev/} folder, sourced into bash to run one of its functions in a test. */
public final class BashScript {
    private final Path script;

    /** {@code dev/NAME} of this checkout (the tests run in a module's folder, below it). */
    public BashScript(String name) {
        Path found = null;
        for (Path dir = Path.of("").toAbsolutePath(); dir != null && found == null; dir = dir.getParent()) {
            Path s = dir.resolve("dev").resolve(name);
            if (Files.isRegularFile(s)) {
                found = s;
            }
        }
        if (found == null) {
            throw new AssertionError("no dev/" + name + " above " + Path.of("").toAbsolutePath());
        }
        this.script = found;
    }

    /** What a command printed and its status. */
    public record Result(int status, String out, String err) {
    }

    /** Runs {@code command} in bash ({@code set -u}) with the script sourced and {@code env} added. */
    public Result run(String command, Map<String, String> env) {
        ProcessBuilder b = new ProcessBuilder("bash", "-c", "set -u; source \"$SCRIPT\"; " + command);
        b.environment().put("SCRIPT", script.toString());
        b.environment().putAll(env);
        try {
            // stderr to a file: read after stdout from a pipe, a long one could block the script
            Path errFile = Files.createTempFile("bash-script", ".err");
            try {
                Process p = b.redirectError(errFile.toFile()).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                int status = p.waitFor();
                return new Result(status, out, Files.readString(errFile, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(errFile);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run bash", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
