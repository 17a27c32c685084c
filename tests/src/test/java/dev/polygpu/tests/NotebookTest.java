package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The notebook kernel end to end, with Jupyter's own tools (Debian's {@code jupyter-nbconvert},
 * {@code python3-nbclient}, {@code jupyter-client}): the kernelspecs are installed into a temporary prefix by
 * {@code polygpu notebook install} run as a process, every sample notebook is executed headlessly by
 * {@code jupyter nbconvert --execute}, and the executed notebooks' outputs are checked; a protocol-level script
 * ({@code notebook/protocol_check.py}, jupyter_client) checks errors, interrupts, shared arrays and completion.
 * Without the tools the tests are skipped with the reason, unless {@code POLYGPU_REQUIRE_JUPYTER=1} (CI), which
 * makes a missing tool a failure.
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NotebookTest {
    private static final Duration NOTEBOOK_TIMEOUT = Duration.ofMinutes(4);

    /** The test class's folder: Jupyter's folders, the kernelspecs and the executed notebooks. */
    private Path dir;
    private Path python;
    private Map<String, String> env;
    /** Why the tests are skipped (the Jupyter tools are missing), or null. */
    private String skipReason;

    @BeforeAll
    void installKernelspecs(@TempDir Path classDir) throws Exception {
        dir = classDir;
        String missing = missingTools();
        if (missing != null) {
            if ("1".equals(System.getenv("POLYGPU_REQUIRE_JUPYTER"))) {
                fail("POLYGPU_REQUIRE_JUPYTER=1 but " + missing);
            }
            skipReason = missing + " (on Debian: apt-get install jupyter-nbconvert python3-nbclient jupyter-client)";
            return;
        }
        Path prefix = dir.resolve("prefix");
        env = new HashMap<>();
        env.put("JUPYTER_PATH", prefix.resolve("share/jupyter").toString());
        env.put("JUPYTER_DATA_DIR", dir.resolve("data").toString());
        env.put("JUPYTER_RUNTIME_DIR", dir.resolve("runtime").toString());
        env.put("JUPYTER_CONFIG_DIR", dir.resolve("config").toString());
        env.put("IPYTHONDIR", dir.resolve("ipython").toString());
        env.put("PYDEVD_DISABLE_FILE_VALIDATION", "1");
        try (PolygpuProcess install = PolygpuProcess.start("install", env,
                List.of("notebook", "install", "--prefix", prefix.toString()))) {
            assertEquals(0, install.awaitExit(Duration.ofMinutes(1), List.of(install)), install.toString());
            assertTrue(install.out().contains("installed the Jupyter kernel polygpu-js"), install.toString());
        }
        String list = run(List.of("jupyter", "kernelspec", "list"), dir, Duration.ofMinutes(1));
        assertTrue(list.contains("polygpu-python") && list.contains("polygpu-js"), list);
    }

    /** Null when nbconvert, nbclient and jupyter_client can be run; else what is missing. */
    private String missingTools() throws IOException, InterruptedException {
        Path jupyter = null;
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, "jupyter");
            if (Files.isExecutable(p)) {
                jupyter = p;
                break;
            }
        }
        if (jupyter == null) {
            return "no 'jupyter' command on the PATH";
        }
        // jupyter_client and nbclient are imported by the Python that runs 'jupyter'
        String first = Files.readAllLines(jupyter, StandardCharsets.ISO_8859_1).stream().findFirst().orElse("");
        python = Path.of(first.startsWith("#!") ? first.substring(2).trim().split("\\s+")[0] : "python3");
        Process p = new ProcessBuilder(python.toString(), "-c", "import jupyter_client, nbclient, nbconvert")
                .redirectErrorStream(true).start();
        String why = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            return python + " cannot import jupyter_client, nbclient and nbconvert: " + why.strip();
        }
        return null;
    }

    /** Runs {@code command} in {@code cwd} with the test's Jupyter folders; fails unless it exits 0. */
    private String run(List<String> command, Path cwd, Duration timeout) throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().putAll(env);
        Path log = Files.createTempFile(dir, "run", ".log");
        b.redirectOutput(log.toFile());
        Process p = b.start();
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not end within " + timeout.toSeconds() + " s:\n"
                    + Files.readString(log));
        }
        String output = Files.readString(log);
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + output);
        return output;
    }

    /** One sample and what its executed outputs must hold. */
    private record Sample(String path, List<String> expected) {
    }

    private static final List<Sample> SAMPLES = List.of(
            new Sample("samples-python/getting_started.ipynb", List.of(
                    "DeviceArray(float, 8)[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]",
                    "y = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]",
                    "sum of a*a - b*b: 8550000.0 expected: 8550000",
                    "Chrome trace written to ", "squaring: [##############################] 20/20 (100%)",
                    "done: 20 of 20", "DAG: 66 elements")),
            new Sample("samples-js/getting_started.ipynb", List.of(
                    "DeviceArray(float, 8)[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]",
                    "y = 1, 2, 3, 4, 5, 6, 7, 8",
                    "sum of a*a - b*b: 8550000 expected: 8550000",
                    "Chrome trace written to ", "squaring: [##############################] 20/20 (100%)",
                    "done: 20 of 20", "DAG: 66 elements")),
            new Sample("samples-python/mixed_languages.ipynb", List.of(
                    "Python made 1000 values; data[10] = 10.0",
                    "JavaScript scaled it: data[10] = 30",
                    "data[10] = 30.0 and mean(data) = 1498.5",
                    "DAG: 4 elements")));

    @TestFactory
    Stream<DynamicTest> sampleNotebooksRunHeadlessWithoutErrors() {
        Assumptions.assumeTrue(skipReason == null, skipReason);
        return SAMPLES.stream().map(s -> DynamicTest.dynamicTest(s.path(), () -> execute(s)));
    }

    private void execute(Sample sample) throws Exception {
        // a copy in a folder of its own: the notebook writes its Chrome trace beside itself
        Path source = Guests.root().resolve(sample.path());
        Path work = Files.createDirectories(dir.resolve(sample.path().replace('/', '-')));
        Path copy = Files.copy(source, work.resolve(source.getFileName()));
        run(List.of("jupyter", "nbconvert", "--to", "notebook", "--execute",
                "--ExecutePreprocessor.timeout=" + NOTEBOOK_TIMEOUT.toSeconds(), "--output", "executed.ipynb",
                copy.getFileName().toString()), work, NOTEBOOK_TIMEOUT.plusMinutes(1));
        JsonObject executed = JsonParser.parseString(Files.readString(work.resolve("executed.ipynb")))
                .getAsJsonObject();
        StringBuilder texts = new StringBuilder();
        int svgs = 0;
        int code = 0;
        for (JsonElement c : executed.getAsJsonArray("cells")) {
            JsonObject cell = c.getAsJsonObject();
            if (!cell.get("cell_type").getAsString().equals("code")) {
                continue;
            }
            code++;
            assertEquals(code, cell.get("execution_count").getAsInt(), sample.path() + ": cells run in order");
            for (JsonElement o : cell.getAsJsonArray("outputs")) {
                JsonObject output = o.getAsJsonObject();
                String type = output.get("output_type").getAsString();
                if (type.equals("error")) {
                    fail(sample.path() + ": a cell failed: " + output);
                }
                if (type.equals("stream")) {
                    texts.append(joined(output.get("text"))).append('\n');
                } else {
                    JsonObject data = output.getAsJsonObject("data");
                    if (data.has("text/plain")) {
                        texts.append(joined(data.get("text/plain"))).append('\n');
                    }
                    if (data.has("image/svg+xml")) {
                        String svg = joined(data.get("image/svg+xml"));
                        assertTrue(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.contains("<rect"),
                                sample.path() + ": an SVG picture");
                        assertTrue(!svg.contains("<script"), "no scripts in the SVG");
                        svgs++;
                    }
                }
            }
        }
        assertTrue(svgs >= 1, sample.path() + ": no image/svg+xml output");
        for (String e : sample.expected()) {
            assertTrue(texts.toString().contains(e), sample.path() + ": no output with '" + e + "' in\n" + texts);
        }
        if (sample.path().endsWith("getting_started.ipynb")) {
            // the progress bar was redrawn in place, not shown again at each step
            assertTrue(!texts.toString().contains(" 0/20 (0%)"), texts.toString());
            String trace = Files.readString(work.resolve("polygpu-timeline.json"));
            assertTrue(trace.startsWith("{\"traceEvents\":[") && trace.contains("\"name\":\"diff_sum\""), trace);
        }
    }

    private static String joined(JsonElement text) {
        if (text.isJsonArray()) {
            StringBuilder b = new StringBuilder();
            for (JsonElement line : (JsonArray) text) {
                b.append(line.getAsString());
            }
            return b.toString();
        }
        return text.getAsString();
    }

    /** The IOPub messages of a step of the transcript, of one type. */
    private static List<JsonObject> messages(JsonObject step, String type) {
        List<JsonObject> found = new ArrayList<>();
        for (JsonElement m : step.getAsJsonArray("iopub")) {
            if (m.getAsJsonObject().get("msg_type").getAsString().equals(type)) {
                found.add(m.getAsJsonObject().getAsJsonObject("content"));
            }
        }
        return found;
    }

    private static String result(JsonObject step) {
        List<JsonObject> results = messages(step, "execute_result");
        assertEquals(1, results.size(), "one execute_result in " + step);
        return results.get(0).getAsJsonObject("data").get("text/plain").getAsString();
    }

    private static String status(JsonObject step) {
        return step.getAsJsonObject("reply").get("status").getAsString();
    }

    @Test
    void protocolErrorsInterruptsSharedArraysAndCompletion() throws Exception {
        Assumptions.assumeTrue(skipReason == null, skipReason);
        Path script = dir.resolve("protocol_check.py");
        try (var in = NotebookTest.class.getResourceAsStream("/notebook/protocol_check.py")) {
            Files.copy(in, script);
        }
        Path json = dir.resolve("transcript.json");
        String out = run(List.of(python.toString(), script.toString(), "polygpu-python", json.toString()), dir,
                Duration.ofMinutes(4));
        JsonArray transcript = JsonParser.parseString(Files.readString(json)).getAsJsonArray();
        List<JsonObject> steps = new ArrayList<>();
        transcript.forEach(s -> steps.add(s.getAsJsonObject()));
        assertEquals(19, steps.size(), out);

        // an array made in Python is the same array in JavaScript, and back
        assertEquals("DeviceArray(float, 8)[0.0, 1.5, 3.0, 4.5, 6.0, 7.5, 9.0, 10.5]", result(steps.get(0)));
        assertEquals("filled 8\n", messages(steps.get(0), "stream").get(0).get("text").getAsString());
        assertEquals("44.5", result(steps.get(1)));
        assertEquals("40.0", result(steps.get(2)));

        // an error cell, then a working one: execution counts go on
        JsonObject error = steps.get(3).getAsJsonObject("reply");
        assertEquals("error", error.get("status").getAsString());
        assertEquals("ZeroDivisionError", error.get("ename").getAsString());
        String traceback = messages(steps.get(3), "error").get(0).get("traceback").toString();
        assertTrue(traceback.contains("<cell 4>") && traceback.contains("ZeroDivisionError: division by zero"),
                traceback);
        assertEquals("42", result(steps.get(4)));
        assertEquals(5, messages(steps.get(4), "execute_result").get(0).get("execution_count").getAsInt());
        assertEquals("TypeError", steps.get(5).getAsJsonObject("reply").get("ename").getAsString());
        assertTrue(messages(steps.get(5), "error").get(0).get("traceback").toString().contains("<cell 6>:2"));
        assertEquals("UsageError", steps.get(6).getAsJsonObject("reply").get("ename").getAsString());

        // interrupts stop busy guest loops in both languages; the kernel stays usable
        for (int i : new int[] {7, 9}) {
            assertEquals("interrupt", steps.get(i).get("kind").getAsString());
            assertEquals("error", status(steps.get(i)));
            assertEquals("KeyboardInterrupt", steps.get(i).getAsJsonObject("reply").get("ename").getAsString());
        }
        assertEquals("'usable after interrupt'", result(steps.get(8)));
        assertEquals("js usable after interrupt", result(steps.get(10)));
        // a cell waiting for a running kernel stops too, and so does the kernel: its loop is counted, which is not
        // polled, but its __nanosleep is (docs/api.md, Stopping kernels); a later read reports the stopped kernel
        assertEquals("ok", status(steps.get(11)));
        assertEquals("KeyboardInterrupt", steps.get(12).getAsJsonObject("reply").get("ename").getAsString());
        assertEquals("4.5", result(steps.get(13)));
        JsonObject stopped = steps.get(18).getAsJsonObject("reply");
        assertEquals("error", stopped.get("status").getAsString());
        String why = stopped.get("evalue").getAsString();
        assertTrue(why.contains("kernel 'nap'") && why.contains("stopped")
                && why.contains("the guest call waiting for it was interrupted"), why);

        // %%time and both streams
        assertEquals("ok", status(steps.get(14)));
        List<JsonObject> streams = messages(steps.get(14), "stream");
        assertTrue(streams.stream().anyMatch(s -> s.get("name").getAsString().equals("stderr")
                && s.get("text").getAsString().equals("to stderr\n")), streams.toString());
        assertTrue(streams.stream().anyMatch(s -> s.get("name").getAsString().equals("stdout")
                && s.get("text").getAsString().startsWith("Wall time: ")), streams.toString());
        assertEquals("499500", result(steps.get(14)));

        // completion of names in the CU namespace, through a Python variable and by its own name in JavaScript
        assertEquals("[\"buildkernel\"]", steps.get(15).getAsJsonObject("reply").get("matches").toString());
        assertEquals("[\"cudaDeviceCanAccessPeer\",\"cudaDeviceDisablePeerAccess\",\"cudaDeviceEnablePeerAccess\","
                + "\"cudaDeviceGetAttribute\",\"cudaDeviceReset\",\"cudaDeviceSynchronize\"]",
                steps.get(16).getAsJsonObject("reply").get("matches").toString());
        assertEquals("%%js\nCU.cudaDevice".length(),
                steps.get(16).getAsJsonObject("reply").get("cursor_end").getAsInt());
        assertEquals("%%js\nCU.".length(), steps.get(16).getAsJsonObject("reply").get("cursor_start").getAsInt());

        // a progress bar is one display, redrawn in place: update_display_data with its display id
        List<JsonObject> shown = messages(steps.get(17), "display_data");
        List<JsonObject> updates = messages(steps.get(17), "update_display_data");
        assertEquals(1, shown.size(), steps.get(17).toString());
        assertTrue(!updates.isEmpty(), steps.get(17).toString());
        String id = shown.get(0).getAsJsonObject("transient").get("display_id").getAsString();
        JsonObject last = updates.get(updates.size() - 1);
        assertEquals(id, last.getAsJsonObject("transient").get("display_id").getAsString());
        assertTrue(last.getAsJsonObject("data").get("text/plain").getAsString().endsWith("3/3 (100%)"), last.toString());
    }
}
