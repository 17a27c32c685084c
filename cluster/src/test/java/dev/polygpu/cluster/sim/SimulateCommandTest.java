package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.trace.ChromeTraceWriter;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;

/** {@code polygpu simulate} end to end through {@link SimulateCommand#run}, with small sizes. */
class SimulateCommandTest {
    @TempDir
    Path dir;

    /** What the command printed and returned. */
    private record Run(int status, String out, String err) {
        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }

        /** The Markdown table's data rows, split into cells. */
        List<String[]> rows() {
            List<String[]> rows = new ArrayList<>();
            for (String line : out.split("\n")) {
                if (line.startsWith("| ") && Character.isDigit(line.charAt(2))) {
                    String[] cells = line.substring(1, line.length() - 1).split("\\|");
                    for (int i = 0; i < cells.length; i++) {
                        cells[i] = cells[i].strip();
                    }
                    rows.add(cells);
                }
            }
            return rows;
        }
    }

    private static Run simulate(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = SimulateCommand.run(args, o, e);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The CSV's rows as column name → value, in order. */
    private static List<Map<String, String>> csv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.getFirst().split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = cells(line);
            assertEquals(header.length, cells.size(), line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells.get(i));
            }
            rows.add(row);
        }
        return rows;
    }

    /** One CSV line's cells: commas inside double quotes (the workload's name, the speeds) do not split. */
    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells;
    }

    private static long number(String cell) {
        return Long.parseLong(cell.replace(",", ""));
    }

    private static Document xml(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    }

    /** A trace of {@code kernels} independent kernels of 2 ms each, each reading its own 64 KB array. */
    private Path trace(int kernels) throws IOException {
        ScheduleRecorder recorder = new ScheduleRecorder();
        for (int i = 0; i < kernels; i++) {
            long id = i + 1;
            recorder.submitted(new ElementInfo(id, ElementKind.KERNEL, "k",
                    List.of(new ArrayUse(100 + i, "a" + i, AccessMode.READ_WRITE, 64 * 1024))), new long[0]);
            recorder.launched(id, "gpu0", 1, 0);
            recorder.completed(id, 0, 2_000_000, null);
        }
        Path file = dir.resolve("trace.json");
        new ChromeTraceWriter().write(recorder.snapshot(), file);
        return file;
    }

    @Test
    void aSweepPrintsOneRowPerMemberCountThatAgreesWithTheCsvAndThePlot() throws Exception {
        Path csv = dir.resolve("out/runs.csv");
        Path svg = dir.resolve("out/plot.svg");
        Run r = simulate("--workload=gemm", "--tiles=8", "--members=2,4", "--csv=" + csv, "--plot=" + svg,
                "--quiet");
        assertEquals(0, r.status(), r::toString);
        assertEquals("", r.err(), "--quiet prints nothing on stderr");
        assertTrue(r.out().contains("| members | tasks | stealing | makespan | lower bound | efficiency | moved |"),
                r::toString);
        List<String[]> rows = r.rows();
        List<Map<String, String>> lines = csv(csv);
        assertEquals(2, rows.size(), r::toString);
        assertEquals(2, lines.size());
        int[] members = {2, 4};
        for (int i = 0; i < 2; i++) {
            String[] row = rows.get(i);
            Map<String, String> line = lines.get(i);
            assertEquals(members[i], Integer.parseInt(row[0]));
            assertEquals(members[i], Integer.parseInt(line.get("members")));
            assertEquals(8 * 8 * 8, number(row[1]), "a gemm of 8 tiles a side has 8³ tasks");
            assertEquals(8 * 8 * 8, Long.parseLong(line.get("tasks")));
            assertEquals("yes", row[2]);
            assertEquals("true", line.get("stealing"));
            long makespan = Long.parseLong(line.get("makespan_ns"));
            long lower = Long.parseLong(line.get("lower_bound_ns"));
            double efficiency = Double.parseDouble(line.get("efficiency"));
            assertTrue(makespan >= lower, line::toString);
            assertTrue(lower >= Long.parseLong(line.get("critical_path_ns")), line::toString);
            assertTrue(lower >= Long.parseLong(line.get("total_work_ns")) / (2L * members[i]), line::toString);
            assertTrue(efficiency > 0 && efficiency <= 1, line::toString);
            assertEquals((double) lower / makespan, efficiency, 1e-6);
            assertEquals(String.format(java.util.Locale.ROOT, "%.1f%%", 100 * efficiency), row[5]);
            assertEquals(Long.parseLong(line.get("moved")), number(row[6]));
            assertEquals(String.format(java.util.Locale.ROOT, "%,d (%,d)", Long.parseLong(line.get("requests")),
                    Long.parseLong(line.get("rank_requests"))), row[7]);
            assertEquals("rank+priorities", line.get("order"));
            assertEquals("6", line.get("priority_levels"));
            assertEquals("2.0", line.get("rank_factor"));
            assertEquals(Long.parseLong(line.get("reruns")), number(row[14]));
            assertEquals(Units.nanos(makespan), row[3]);
            assertEquals(Units.nanos(lower), row[4]);
        }
        Document plot = xml(svg);
        assertEquals("svg", plot.getDocumentElement().getTagName());
        assertEquals(1, plot.getElementsByTagName("polyline").getLength(), "one series: stealing");
        assertEquals(2, plot.getElementsByTagName("circle").getLength(), "one point per member count");
    }

    @Test
    void theBaselineAddsARowWithoutStealingForEachMemberCount() throws Exception {
        Path csv = dir.resolve("runs.csv");
        Path svg = dir.resolve("plot.svg");
        Run r = simulate("--workload=gemm", "--tiles=6", "--members=2,4", "--baseline", "--quiet",
                "--csv=" + csv, "--plot=" + svg);
        assertEquals(0, r.status(), r::toString);
        List<String[]> rows = r.rows();
        assertEquals(4, rows.size(), r::toString);
        String[][] expected = {{"2", "no"}, {"2", "yes"}, {"4", "no"}, {"4", "yes"}};
        for (int i = 0; i < 4; i++) {
            assertEquals(expected[i][0], rows.get(i)[0], r::toString);
            assertEquals(expected[i][1], rows.get(i)[2], r::toString);
            if (expected[i][1].equals("no")) {
                assertEquals("0", rows.get(i)[6], "nothing moves without stealing");
                assertEquals("0 (0)", rows.get(i)[7], "no request without stealing");
            }
        }
        List<Map<String, String>> lines = csv(csv);
        assertEquals(List.of("false", "true", "false", "true"), lines.stream().map(l -> l.get("stealing")).toList());
        assertEquals(2, xml(svg).getElementsByTagName("polyline").getLength(), "stealing and no stealing");
    }

    @Test
    void severalSeedsRunEachMemberCountOncePerSeedWithTheirSpreadAndTheCentralSchedule() throws Exception {
        Path csv = dir.resolve("seeds.csv");
        Path svg = dir.resolve("seeds.svg");
        Run r = simulate("--workload=bspgemm", "--tiles=10", "--density=0.3", "--members=4,8", "--seed=2-3,7",
                "--central", "--quiet", "--csv=" + csv, "--plot=" + svg);
        assertEquals(0, r.status(), r::toString);
        List<String[]> rows = r.rows();
        List<Map<String, String>> lines = csv(csv);
        assertEquals(6, rows.size(), r::toString);
        long[] seeds = {2, 3, 7, 2, 3, 7};
        String[] out = r.out().split("\n");
        for (int i = 0; i < 6; i++) {
            String[] row = rows.get(i);
            Map<String, String> line = lines.get(i);
            assertEquals(seeds[i], Long.parseLong(row[row.length - 1]), "the table's last column is the seed");
            assertEquals(seeds[i], Long.parseLong(line.get("seed")));
            assertTrue(line.get("workload").contains("seed=" + seeds[i]), line::toString);
            long central = Long.parseLong(line.get("central_makespan_ns"));
            long lower = Long.parseLong(line.get("lower_bound_ns"));
            assertTrue(central >= lower, line::toString);
            // The line after each run states the central schedule's makespan and its ratios, from the CSV's values.
            String expected = String.format(java.util.Locale.ROOT, "central list schedule on %,d slots (highest rank "
                    + "first, nothing moves): makespan %s, %.1f%% of the lower bound; the run reached %.1f%% of it",
                    2L * Integer.parseInt(line.get("members")), Units.nanos(central), 100.0 * lower / central,
                    100.0 * central / Long.parseLong(line.get("makespan_ns")));
            assertTrue(List.of(out).contains(expected), expected + "\n" + r);
        }
        assertTrue(Long.parseLong(lines.get(0).get("central_makespan_ns"))
                != Long.parseLong(lines.get(1).get("central_makespan_ns")), "another seed, another workload");
        for (int m = 0; m < 2; m++) {
            List<Map<String, String>> runs = lines.subList(3 * m, 3 * m + 3);
            double mean = runs.stream().mapToDouble(l -> Double.parseDouble(l.get("efficiency"))).average()
                    .orElseThrow();
            Map<String, String> worst = runs.stream().min(java.util.Comparator.comparingDouble(
                    l -> Double.parseDouble(l.get("efficiency")))).orElseThrow();
            String prefix = String.format(java.util.Locale.ROOT, "%d members, 3 seeds: efficiency mean %.1f%%, min "
                    + "%.1f%% (seed %s)", 4 * (m + 1), 100 * mean, 100 * Double.parseDouble(worst.get("efficiency")),
                    worst.get("seed"));
            assertTrue(r.out().contains(prefix), prefix + "\n" + r);
        }
        Document plot = xml(svg);
        assertEquals(2, plot.getElementsByTagName("polyline").getLength(), "stealing and the central schedule");
        assertEquals(4, plot.getElementsByTagName("circle").getLength(), "one mean point per member count each");
    }

    @Test
    void withoutCentralTheCsvSaysNotComputed() throws Exception {
        Path csv = dir.resolve("plain.csv");
        Run r = simulate("--workload=gemm", "--tiles=4", "--members=2", "--quiet", "--csv=" + csv);
        assertEquals(0, r.status(), r::toString);
        assertEquals("-1", csv(csv).getFirst().get("central_makespan_ns"));
        assertFalse(r.out().contains("central list schedule"), r::toString);
        assertFalse(r.out().contains("seeds:"), "one seed: no spread line");
    }

    @Test
    void theFivePoliciesOfTheGoalAreTheDefaultsAsInTheClusterAndEachTurnsOff() {
        Run r = simulate("--members=16", "--tiles=24", "--quiet", "--directories=4");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().contains("requests by rank above 2.0 x the floor rank for 1 at most, stolen tasks up to 1 "
                + "beyond the window, every 8th request to a random member, 4 directories, continuations pushed, "
                + "thieves woken"),
                r::toString);
        assertTrue(r.out().contains("4 directories: "), r::toString);
        assertTrue(r.out().contains(" continuations pushed to their thieves"), r::toString);
        assertTrue(r.out().contains(" thieves woken by the programs that had sent them away"), r::toString);
        Run defaults = simulate("--members=16", "--tiles=24", "--quiet");
        assertTrue(defaults.out().contains("16 directories"), defaults::toString);
        Run off = simulate("--members=16", "--tiles=24", "--quiet", "--directories=0", "--stolen-overflow=0",
                "--random-every=0", "--rank-chunk=0", "--push-continuations=false", "--wake-thieves=false");
        assertEquals(0, off.status(), off::toString);
        assertFalse(off.out().contains("at most"), off::toString);
        assertFalse(off.out().contains("beyond the window"), off::toString);
        assertFalse(off.out().contains("random member"), off::toString);
        assertFalse(off.out().contains("directories"), off::toString);
        assertFalse(off.out().contains("continuations"), off::toString);
        assertFalse(off.out().contains("woken"), off::toString);
    }

    @Test
    void membersOfSeveralSpeedsAndWorkersWithoutTasksShowInTheHeaderTheNotesAndTheCsv() throws Exception {
        Path csv = dir.resolve("speeds.csv");
        Run r = simulate("--workload=bspgemm-tiles", "--tiles=12", "--members=4", "--owners=1",
                "--speeds=1,0.5*3", "--quiet", "--central", "--csv=" + csv);
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().contains("owned by the first 1 members"), r::toString);
        assertTrue(r.out().contains("speeds 1,0.5*3 (threshold and window scaled by the speed each member learns), "),
                r::toString);
        assertTrue(r.out().contains("note: 3 members of speed 0.5 (0.50 of the fastest) learnt "), r::toString);
        assertTrue(r.out().contains("note: 3 members of speed 0.5: busy "), r::toString);
        assertTrue(r.out().contains("note: 1 members of speed 1: busy "), r::toString);
        Map<String, String> line = csv(csv).getFirst();
        assertEquals("1,0.5*3", line.get("speeds"));
        assertEquals("1", line.get("owners"));
        assertEquals("true", line.get("learnt_speeds"));
        assertEquals("false", line.get("scaled_by_speed"));
        // Capacity is 2 slots x (1 + 3 x 0.5) = 5 reference slots: the bound is the work over 5, or the critical
        // path (one task here) on the fastest member.
        long work = Long.parseLong(line.get("total_work_ns"));
        long bound = Math.max((long) Math.ceil(work / 5.0), Long.parseLong(line.get("critical_path_ns")));
        assertEquals(bound, Long.parseLong(line.get("lower_bound_ns")), 1, line::toString);
        // Every task is member 0's: the others ran only what they stole.
        String slow = r.out().lines().filter(l -> l.startsWith("note: 3 members of speed 0.5")).findFirst()
                .orElseThrow();
        assertTrue(slow.endsWith("(100.0% stolen)"), slow);
        Run plain = simulate("--workload=bspgemm-tiles", "--tiles=12", "--members=4", "--quiet");
        assertFalse(plain.out().contains("owned by"), plain::toString);
        assertFalse(plain.out().contains(": busy "), "no note per speed when all are alike: " + plain);
        Run told = simulate("--workload=bspgemm-tiles", "--tiles=12", "--members=4", "--speeds=1,0.5",
                "--scale-by-speed", "--quiet");
        assertTrue(told.out().contains("(threshold and window scaled by speed)"), told::toString);
        assertFalse(told.out().contains("learnt"), "told their speed, members do not learn it: " + told);
        Run both = simulate("--workload=bspgemm-tiles", "--tiles=12", "--members=4", "--scale-by-speed",
                "--learn-speeds");
        assertEquals(2, both.status(), both::toString);
        assertTrue(both.err().contains("give one of them"), both::toString);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "--seed=5-2;                    --seed range 5-2 must go up",
        "--seed=1-1000;                 --seed range 1-1000 must go up, with at most 100 seeds",
        "--seed=x;                      --seed",
        "--central --crash=1s:1;        --central compares with a cluster of fixed size",
        "--directories=-1;              --directories must be a whole number >= 0",
        "--rank-chunk=-1;               --rank-chunk",
        "--push-continuations=maybe;    --push-continuations",
        "--wake-thieves=often;          --wake-thieves",
        "--speeds=1,0;                  --speeds: '0' in '1,0': a speed must be a finite number above 0",
        "--speeds=fast;                 --speeds: 'fast' in 'fast' is not a speed",
        "--speeds=1*0;                  --speeds: '1*0' in '1*0': a repeat count must be from 1",
        "--speeds=;                     --speeds",
        "--owners=0;                    --owners",
        "--bogus=1;                     unknown option --bogus",
        "--bogus;                       unknown option --bogus",
        "--members=0;                   --members",
        "--members=2,x;                 --members",
        "--density=2;                   --density",
        "--window=1 --slots=2;          --window",
        "--tile-time=bogus;             --tile-time",
        "--latency=fast;                --latency",
        "--tile-bytes=3XB;              --tile-bytes",
        "--expand=abc;                  --expand",
        "--crash=1s:0;                  --crash",
        "--workload=nope;               --workload",
        "--tiles;                       --tiles needs a value: write --tiles=N or --tiles N",
        "--quiet=maybe;                 --quiet",
        "--input-cache=lots;            --input-cache",
        "--input-cache=-1MB;            --input-cache",
        "--input-cache;                 --input-cache",
        "--order=fastest;               --order must be rank+priorities, rank, rank+streams or submission",
        "--priority-levels=17;          --priority-levels must be 1 to 16",
        "--priority-levels=0;           --priority-levels",
        "--rank-factor=0.5;             --rank-factor must be 0 (no requests by rank) or a number >= 1",
        "--rank-factor=x;               --rank-factor",
        "--host-cpu-per-message=-1us;   --host-cpu-per-message",
        "--host-cpu-per-message=x;      --host-cpu-per-message",
        "--host-cpu-per-byte=-1;        --host-cpu-per-byte must be nanoseconds per byte",
        "--host-cpu-per-byte=4.8us;     --host-cpu-per-byte must be nanoseconds per byte",
        "--host-cpu-per-byte;           --host-cpu-per-byte",
        "--thief-cap=some;              --thief-cap must be off, all or repeat",
        "--thief-cap;                   --thief-cap",
        "gemm;                          'gemm'",
    })
    void badArgumentsExit2NamingTheOption(String args, String named) {
        Run r = simulate(args.split(" "));
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().startsWith("polygpu simulate: "), r::toString);
        assertTrue(r.err().contains(named), r::toString);
        assertFalse(r.err().contains("\tat "), r::toString);
        assertEquals("", r.out(), "nothing is simulated");
    }

    @Test
    void aMissingTraceIsAnErrorNamingThePath() {
        Path missing = dir.resolve("does/not/exist.json");
        Run r = simulate("--workload=trace:" + missing, "--members=2", "--quiet");
        assertEquals(1, r.status(), r::toString);
        assertTrue(r.err().contains("could not read the trace " + missing + ": no such file"), r::toString);
        assertFalse(r.err().contains("\tat "), r::toString);
    }

    @Test
    void aFileThatIsNotATraceExits2NamingIt() throws IOException {
        Path notATrace = Files.writeString(dir.resolve("notes.json"), "{\"hello\": 1}");
        Run r = simulate("--workload=trace:" + notATrace, "--members=2", "--quiet");
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().contains(notATrace.toString()), r::toString);
        assertTrue(r.err().contains("traceEvents"), r::toString);
    }

    @Test
    void helpPrintsTheUsage() {
        Run r = simulate("--members=2", "--help");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().startsWith("Usage: polygpu simulate [options]"), r::toString);
        for (String option : List.of("--workload=", "--members=", "--baseline", "--crash=", "--csv=", "--plot=")) {
            assertTrue(r.out().contains(option), option);
        }
        assertEquals("", r.err());
    }

    /** Every row but the time it took to simulate (the column before the seed). */
    private static List<List<String>> rowsWithoutTime(Run r) {
        List<List<String>> rows = new ArrayList<>();
        for (String[] row : r.rows()) {
            List<String> cells = new ArrayList<>(List.of(row));
            cells.remove(cells.size() - 2);
            rows.add(cells);
        }
        return rows;
    }

    @Test
    void everyValueMayFollowItsOptionWithEqualsOrASpace() {
        Run attached = simulate("--workload=gemm", "--tiles=4", "--members=2,3", "--seed=7", "--crash=3ms:1",
                "--expand=1ms:2", "--baseline=no", "--quiet");
        Run spaced = simulate("--workload", "gemm", "--tiles", "4", "--members", "2,3", "--seed", "7", "--crash",
                "3ms:1", "--expand", "1ms:2", "--baseline", "false", "--quiet");
        assertEquals(0, attached.status(), attached::toString);
        assertEquals(0, spaced.status(), spaced::toString);
        assertEquals(2, attached.rows().size(), "one run per member count, no baseline: " + attached);
        assertEquals(rowsWithoutTime(attached), rowsWithoutTime(spaced));
        // The membership events keep the order they were written in, whatever their kind.
        assertTrue(attached.out().contains("Membership: [crash 1 at 3.00 ms, expand 2 at 1.00 ms]"), attached::toString);
    }

    @Test
    void aMisspeltOptionNamesTheClosestOne() {
        Run near = simulate("--memebrs=4");
        assertEquals(2, near.status(), near::toString);
        assertEquals("polygpu simulate: unknown option --memebrs (did you mean --members?)\n"
                + "run 'polygpu simulate --help' for the options\n", near.err());
        Run spaced = simulate("--tile-tme", "2ms");
        assertTrue(spaced.err().startsWith("polygpu simulate: unknown option --tile-tme (did you mean --tile-time?)"),
                spaced::toString);
        Run far = simulate("--frobnicate");
        assertTrue(far.err().startsWith("polygpu simulate: unknown option --frobnicate\n"), far::toString);
    }

    @Test
    void helpListsTheOptionsInSections() {
        Run r = simulate("-h");
        assertEquals(0, r.status(), r::toString);
        int workload = r.out().indexOf("\nworkload\n      --workload=");
        int cluster = r.out().indexOf("\ncluster\n      --members=N,N,...");
        int output = r.out().indexOf("\noutput\n      --csv=FILE");
        assertTrue(workload > 0 && cluster > workload && output > cluster, r::toString);
        assertTrue(r.out().contains("--crash=TIME:N"), r::toString);
    }

    @Test
    void progressGoesToStderrUnlessQuiet() {
        Run r = simulate("--workload=gemm", "--tiles=4", "--members=2");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.err().contains("simulating gemm"), r::toString);
        assertEquals(1, r.rows().size(), r::toString);
    }

    @Test
    void aTraceReplayedOnMoreMembersThanCopiesHasWorkersThatStealAndCrash() throws IOException {
        Path trace = trace(40);
        Run r = simulate("--workload=trace:" + trace, "--copies=1", "--members=4", "--crash=5ms:5",
                "--fail-after=50ms", "--latency=1us", "--per-message=0", "--quiet");
        assertEquals(0, r.status(), r::toString);
        List<String[]> rows = r.rows();
        assertEquals(1, rows.size(), r::toString);
        assertEquals(40, number(rows.getFirst()[1]));
        // One owner, three workers: they steal in the first 5 ms, then all three crash while holding tasks.
        assertTrue(number(rows.getFirst()[6]) > 0, r::toString);
        assertTrue(number(rows.getFirst()[14]) > 0, "the crashed workers' tasks run again: " + r);
        assertTrue(r.out().contains("note: crash 5 at 5.00 ms: only 3 workers (members without tasks of their own) "
                + "were there to go"), r::toString);
    }

    @Test
    void aCrashWithoutWorkersIsANoteNotAFailure() throws IOException {
        Path trace = trace(8);
        Run r = simulate("--workload=trace:" + trace, "--copies=2", "--members=2", "--crash=1ms:1", "--quiet");
        assertEquals(0, r.status(), r::toString);
        assertEquals("0", r.rows().getFirst()[14], "nobody crashed, nothing reran");
        assertTrue(r.out().contains("note: crash 1 at 1.00 ms: only 0 workers"), r::toString);
    }

    @Test
    void theInputCacheIsAnOptionShownInTheHeaderTableAndCsv() throws Exception {
        Path on = dir.resolve("on.csv");
        Path off = dir.resolve("off.csv");
        Run cached = simulate("--workload=gemm", "--tiles=8", "--members=4", "--input-cache=16MB", "--csv=" + on,
                "--quiet");
        Run uncached = simulate("--workload=gemm", "--tiles=8", "--members=4", "--input-cache=0", "--csv=" + off,
                "--quiet");
        assertEquals(0, cached.status(), cached::toString);
        assertEquals(0, uncached.status(), uncached::toString);
        assertTrue(cached.out().contains(", input cache 16.0 MB. Network:"), cached::toString);
        assertTrue(uncached.out().contains(", no input cache. Network:"), uncached::toString);
        assertTrue(cached.out().contains("| inputs sent / saved | cache misses / handed back | simulated in |"),
                cached::toString);
        Map<String, String> c = csv(on).getFirst();
        Map<String, String> u = csv(off).getFirst();
        assertEquals(Long.toString(16L << 20), c.get("input_cache_bytes"));
        assertEquals("0", u.get("input_cache_bytes"));
        assertEquals("0", u.get("input_bytes_saved"), "no cache, nothing saved");
        assertEquals("0", u.get("cache_misses"));
        // A gemm's tasks share the tiles of A and B: a thief that steals twice from one owner gets references.
        assertTrue(Long.parseLong(c.get("input_bytes_saved")) > 0, cached::toString);
        String[] row = cached.rows().getFirst();
        assertEquals(Units.bytes(Long.parseLong(c.get("input_bytes_sent"))) + " / "
                + Units.bytes(Long.parseLong(c.get("input_bytes_saved"))), row[16]);
        assertEquals(number(c.get("cache_misses")) + " / " + number(c.get("missing_input_hand_backs")), row[17]);
    }

    @Test
    void theThiefCapIsAnOptionOffByDefaultAndShownInTheHeader() throws Exception {
        String[] common = {"--workload=bspgemm", "--tasks=20000", "--members=16", "--seed=3", "--quiet"};
        Run byDefault = simulate(common);
        List<String> off = new ArrayList<>(List.of(common));
        off.add("--thief-cap=off");
        Run explicitOff = simulate(off.toArray(String[]::new));
        assertEquals(0, byDefault.status(), byDefault::toString);
        // Every column but the time the run took (the one before the seed).
        assertEquals(1, byDefault.rows().size(), byDefault::toString);
        List<String> d = new ArrayList<>(List.of(byDefault.rows().getFirst()));
        List<String> o = new ArrayList<>(List.of(explicitOff.rows().getFirst()));
        d.remove(d.size() - 2);
        o.remove(o.size() - 2);
        assertEquals(d, o, "off is the default");
        assertFalse(byDefault.out().contains("thief cap"), byDefault::toString);
        for (String cap : List.of("all", "repeat")) {
            List<String> on = new ArrayList<>(List.of(common));
            on.add("--thief-cap=" + cap);
            Run capped = simulate(on.toArray(String[]::new));
            assertEquals(0, capped.status(), capped::toString);
            assertTrue(capped.out().contains(", thief cap " + cap + ","), capped::toString);
            assertEquals(1, capped.rows().size(), capped::toString);
        }
    }

    /**
     * Runs from before the host CPU model, as the build before it gave them (makespan, requests, events, tasks
     * moved, reruns; CSV): without the model's options the simulator still gives them to the event. The
     * policies that became the defaults later are turned off, as they were then.
     */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "--workload=gemm --tiles=8 --members=4 --seed=3; 141181439; 52; 749; 8; 0",
        "--workload=bspgemm --tasks=20000 --members=8 --crash=20ms:2 --fail-after=30ms --seed=5; 2789841748; 7366; "
                + "58308; 4991; 0",
        "--workload=cholesky --tiles=10 --members=6 --per-message=0 --input-cache=1MB --seed=2; 59061169; 53; 479; "
                + "1; 0",
        "--workload=bspgemm-tiles --tiles=40 --members=6 --seed=4 --expand=20ms:3 --crash=60ms:2 --fail-after=100ms "
                + "--input-cache=4MB; 1297264467; 706; 4655; 500; 12",
    })
    void withoutHostCpuRunsAreAsBeforeTheModel(String args, long makespan, long requests, long events, long moved,
                                               long reruns) throws Exception {
        Path csv = dir.resolve("pinned.csv");
        List<String> all = new ArrayList<>(List.of(args.split(" ")));
        all.addAll(List.of("--quiet", "--csv=" + csv, "--directories=0", "--stolen-overflow=0", "--random-every=0",
                "--rank-chunk=0", "--push-continuations=false", "--wake-thieves=false", "--learn-speeds=false"));
        Run r = simulate(all.toArray(String[]::new));
        assertEquals(0, r.status(), r::toString);
        assertFalse(r.out().contains("host CPU"), r::toString);
        Map<String, String> row = csv(csv).getFirst();
        assertEquals(makespan, Long.parseLong(row.get("makespan_ns")), r::toString);
        assertEquals(requests, Long.parseLong(row.get("requests")));
        assertEquals(events, Long.parseLong(row.get("events")));
        assertEquals(moved, Long.parseLong(row.get("moved")));
        assertEquals(reruns, Long.parseLong(row.get("reruns")));
        for (String column : List.of("host_cpu_per_message_ns", "host_cpu_per_byte_ns", "host_cpu_per_member_mean_ns",
                "host_cpu_per_member_max_ns", "kernel_delay_ns")) {
            assertEquals("0", row.get(column), column);
        }
    }

    @Test
    void hostCpuIsAnOptionShownInTheHeaderALineAfterEachRowAndTheCsv() throws Exception {
        Path on = dir.resolve("on.csv");
        Path off = dir.resolve("off.csv");
        Run charged = simulate("--workload=gemm", "--tiles=8", "--members=2,4", "--host-cpu-per-message=50us",
                "--host-cpu-per-byte=4.5ns", "--csv=" + on, "--quiet");
        Run free = simulate("--workload=gemm", "--tiles=8", "--members=2,4", "--csv=" + off, "--quiet");
        assertEquals(0, charged.status(), charged::toString);
        assertTrue(charged.out().contains(" Host CPU per message: 50.0 us per message + 4.5 ns per byte, taken from "
                + "the member's kernels."), charged::toString);
        String[] lines = charged.out().split("\n");
        int rows = 0;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("| ") && Character.isDigit(lines[i].charAt(2))) {
                rows++;
                assertTrue(lines[i + 1].startsWith("host CPU on messages: "), charged::toString);
                assertTrue(lines[i + 1].contains(" at the busiest; kernels ended "), charged::toString);
            }
        }
        assertEquals(2, rows, charged::toString);
        List<Map<String, String>> c = csv(on);
        List<Map<String, String>> u = csv(off);
        for (int i = 0; i < 2; i++) {
            assertEquals("50000", c.get(i).get("host_cpu_per_message_ns"));
            assertEquals("4.5", c.get(i).get("host_cpu_per_byte_ns"));
            long mean = Long.parseLong(c.get(i).get("host_cpu_per_member_mean_ns"));
            long max = Long.parseLong(c.get(i).get("host_cpu_per_member_max_ns"));
            assertTrue(mean > 0 && max >= mean, c.get(i)::toString);
            // Kernels lose at most what the members spent, in all.
            long members = Long.parseLong(c.get(i).get("members"));
            assertTrue(Long.parseLong(c.get(i).get("kernel_delay_ns")) <= max * members, c.get(i)::toString);
            assertTrue(Long.parseLong(c.get(i).get("makespan_ns")) >= Long.parseLong(u.get(i).get("makespan_ns")),
                    c.get(i) + " against " + u.get(i));
        }
    }
}
