package dev.polygpu.launcher.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code polygpu notebook …} command lines: what they print and the exit status. */
class NotebookCommandTest {
    @TempDir
    Path dir;

    /** Exit status, standard output and standard error of one command line. */
    private record Result(int status, String out, String err) {
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = NotebookCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpAndUsageErrors() {
        Result help = run("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().contains("polygpu notebook install [--user | --sys-prefix | --prefix DIR]"), help.out());
        assertEquals(2, run().status());
        Result unknown = run("frob");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().startsWith("polygpu notebook: unknown command 'frob'; write install or uninstall\n"),
                unknown.err());
        Result near = run("instal");
        assertTrue(near.err().startsWith("polygpu notebook: unknown command 'instal' (did you mean install?)"),
                near.err());
        Result kernel = run("kernel", "--language=ruby", "c.json");
        assertEquals(2, kernel.status());
        assertTrue(kernel.err().contains("--language must be python or js"), kernel.err());
        Result noFile = run("kernel", "--language=js", dir.resolve("missing.json").toString());
        assertEquals(2, noFile.status());
        assertTrue(noFile.err().contains("no connection file"), noFile.err());
        Result where = run("install", "--prefix");
        assertEquals(2, where.status());
        assertTrue(where.err().startsWith("polygpu notebook install: --prefix needs a value: write --prefix=DIR or "
                + "--prefix DIR\n"), where.err());
        Result two = run("install", "--user", "--prefix", dir.toString());
        assertEquals(2, two.status());
        assertTrue(two.err().contains("give one of --user, --sys-prefix and --prefix DIR, not two"), two.err());
        Result typo = run("install", "--prefx", dir.toString());
        assertTrue(typo.err().startsWith("polygpu notebook install: unknown option --prefx (did you mean --prefix?)"),
                typo.err());
    }

    @Test
    void installThenUninstallIntoAPrefix() {
        Result install = run("install", "--prefix", dir.toString());
        assertEquals(0, install.status(), install.err());
        Path kernels = dir.resolve("share/jupyter/kernels");
        assertTrue(Files.isRegularFile(kernels.resolve("polygpu-python/kernel.json")));
        assertTrue(install.out().contains("installed the Jupyter kernel polygpu-js in " + kernels.resolve("polygpu-js")),
                install.out());
        Result uninstall = run("uninstall", "--prefix", dir.toString());
        assertEquals(0, uninstall.status(), uninstall.err());
        assertFalse(Files.exists(kernels.resolve("polygpu-python")));
        assertTrue(run("uninstall", "--prefix", dir.toString()).out().contains("nothing to remove"));
    }

    @Tag("slow")
    @Test
    void bothSpellingsOfThePrefixAndOptionsPassedThroughAreWrittenIntoTheKernelspec() throws Exception {
        Path spaced = dir.resolve("spaced");
        Path attached = dir.resolve("attached");
        assertEquals(0, run("install", "--prefix", spaced.toString(), "--grcuda.CpuBlocks=2").status());
        assertEquals(0, run("install", "--grcuda.CpuBlocks", "2", "--prefix=" + attached).status());
        for (Path p : List.of(spaced, attached)) {
            String json = Files.readString(p.resolve("share/jupyter/kernels/polygpu-js/kernel.json"));
            assertTrue(json.contains("\"--grcuda.CpuBlocks=2\",\n    \"{connection_file}\""), json);
        }
    }

    @Tag("slow")
    @Test
    void anUnknownOptionIsRefusedAtInstallNotAtEachKernelStart() {
        Result bad = run("install", "--prefix", dir.toString(), "--grcuda.NoSuchOption=1");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("grcuda.NoSuchOption"), bad.err());
        assertFalse(Files.exists(dir.resolve("share/jupyter/kernels/polygpu-python")), "nothing is written");
        Result good = run("install", "--prefix", dir.toString(), "--grcuda.ExecutionPolicy=sync");
        assertEquals(0, good.status(), good.err());
    }
}
