package dev.polygpu.device.cpu.oracle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles many cases' sources with few nvcc runs: nvcc takes about a second to start, far longer than a
 * generated kernel takes to compile, so the cases are concatenated into one translation unit (each after a
 * {@code #line 1 "caseN.cu"} directive, so every diagnostic names the case it is about) and compiled at once.
 * Cases with the same source (one file's kernels, or one kernel with several inputs) put it in once.
 *
 * <p>When a batch does not compile, the cases its errors name are compiled alone (their own message is the one
 * reported, free of any clash with the others) and the rest is compiled again as a batch; when the errors name
 * no case or every case, the batch is halved. A batch whose PTX the interpreter refuses to load is handled
 * alike: the case whose kernel holds the refused line is compiled alone and the rest again, or the batch is
 * halved when the line is in a device function. A case alone that still fails is refused with nvcc's output
 * or the load error.
 *
 * <p>Not thread-safe: one oracle compiles from one thread.
 */
final class PtxBatches {
    /**
     * An error line of nvcc's output and the case it names: the compiler's {@code caseN.cu(12): error: …} or the
     * preprocessor's {@code caseN.cu:12:3: error: …} (a preprocessing error stops nvcc before it compiles).
     */
    private static final Pattern ERROR_LINE = Pattern.compile(
            "^case(\\d+)\\.cu(?:\\(\\d+\\)|:\\d+:\\d+): (?:fatal |catastrophic )?error", Pattern.MULTILINE);

    /** Where a PTX load error names its line: {@code nvcc.ptx:123: …}. */
    private static final Pattern LOAD_ERROR_LINE = Pattern.compile("\\.ptx:(\\d+): ");
    private static final Pattern ENTRY = Pattern.compile("^\\s*(?:\\.\\w+\\s+)*\\.entry\\s+([\\w$]+)");
    private static final Pattern FUNC = Pattern.compile("^\\s*(?:\\.\\w+\\s+)*\\.func\\b");
    private static final String BATCH_FILE = "batch.cu";

    /** The PTX of one nvcc run, shared by the cases compiled in it. */
    static final class Unit {
        final String ptx;

        Unit(String ptx) {
            this.ptx = ptx;
        }
    }

    /** What became of one case: compiled into a unit, or failed on the PTX side. */
    sealed interface Compiled {
    }

    record Ok(Unit unit) implements Compiled {
    }

    /** nvcc or the interpreter refused the case ({@link SideRun.Refused}) or broke on it ({@link SideRun.Broke}). */
    record Failed(SideRun.Outcome outcome) implements Compiled {
    }

    /** Turns a CUDA C source into PTX: {@link Nvcc}, or runs of it started ahead ({@link NvccAhead}). */
    interface Compiler {
        Nvcc.Output compile(String source, String fileName);
    }

    /** Loads a unit's PTX where the cases will run. */
    interface Loader {
        /** Null when {@code unit} loads, else what went wrong (a {@link SideRun.Refused} or {@link SideRun.Broke}). */
        SideRun.Outcome problem(Unit unit);
    }

    private final Compiler nvcc;
    private final Loader loader;
    private final int maxBatch;
    private int runs;

    PtxBatches(Compiler nvcc, Loader loader, int maxBatch) {
        this.nvcc = nvcc;
        this.loader = loader;
        this.maxBatch = maxBatch;
    }

    /** How many times nvcc has run so far. */
    int nvccRuns() {
        return runs;
    }

    /** One distinct source text, the name of the first case that has it, and the kernels its cases run. */
    private record Source(String text, String name, Set<String> kernels) {
    }

    /**
     * What became of each case, in the order of {@code cases}. Cases with the same source text share its
     * compilation: the text goes into a batch once.
     */
    List<Compiled> compile(List<OracleCase> cases) {
        int[] sourceOf = new int[cases.size()];
        List<Source> sources = sources(cases, sourceOf);
        Compiled[] bySource = new Compiled[sources.size()];
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            all.add(i);
        }
        for (int from = 0; from < all.size(); from += maxBatch) {
            group(sources, all.subList(from, Math.min(all.size(), from + maxBatch)), bySource);
        }
        List<Compiled> out = new ArrayList<>(cases.size());
        for (int i = 0; i < cases.size(); i++) {
            out.add(bySource[sourceOf[i]]);
        }
        return out;
    }

    /**
     * The texts and file names of the nvcc runs that {@link #compile} starts with for {@code cases} (before any
     * fallback to smaller batches), in order, so that they can be compiled ahead.
     */
    static List<Map.Entry<String, String>> firstRuns(List<OracleCase> cases, int maxBatch) {
        List<Source> sources = sources(cases, new int[cases.size()]);
        List<Map.Entry<String, String>> runs = new ArrayList<>();
        for (int from = 0; from < sources.size(); from += maxBatch) {
            int to = Math.min(sources.size(), from + maxBatch);
            runs.add(to - from == 1 ? Map.entry(sources.get(from).text(), fileName(sources.get(from).name()))
                    : Map.entry(batchText(sources, range(from, to)), BATCH_FILE));
        }
        return runs;
    }

    /** The distinct sources of {@code cases} in order of first use; {@code sourceOf[i]} is case i's. */
    private static List<Source> sources(List<OracleCase> cases, int[] sourceOf) {
        Map<String, Integer> index = new LinkedHashMap<>();
        List<Source> sources = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            OracleCase c = cases.get(i);
            Integer at = index.get(c.source());
            if (at == null) {
                at = sources.size();
                index.put(c.source(), at);
                sources.add(new Source(c.source(), c.name(), new LinkedHashSet<>()));
            }
            sources.get(at).kernels().add(c.kernel());
            sourceOf[i] = at;
        }
        return sources;
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> r = new ArrayList<>();
        for (int i = from; i < to; i++) {
            r.add(i);
        }
        return r;
    }

    /** One translation unit of {@code members}' sources, each under its own file name for diagnostics. */
    private static String batchText(List<Source> sources, List<Integer> members) {
        StringBuilder text = new StringBuilder();
        for (int i : members) {
            text.append("#line 1 \"case").append(i).append(".cu\"\n").append(sources.get(i).text()).append('\n');
        }
        return text.toString();
    }

    private void group(List<Source> sources, List<Integer> members, Compiled[] out) {
        if (members.isEmpty()) {
            return;
        }
        if (members.size() == 1) {
            int i = members.get(0);
            out[i] = alone(sources.get(i));
            return;
        }
        runs++;
        Nvcc.Output r = nvcc.compile(batchText(sources, members), BATCH_FILE);
        Set<Integer> blamed;
        if (r.ok()) {
            Unit unit = new Unit(r.ptx());
            SideRun.Outcome problem = loader.problem(unit);
            if (problem == null) {
                for (int i : members) {
                    out[i] = new Ok(unit);
                }
                return;
            }
            blamed = problem instanceof SideRun.Refused refused
                    ? blamedByLoad(refused.message(), r.ptx(), sources, members) : Set.of();
        } else {
            blamed = blamed(r.log(), members);
        }
        if (blamed.isEmpty() || blamed.size() == members.size()) {
            halve(sources, members, out);
            return;
        }
        List<Integer> rest = new ArrayList<>();
        for (int i : members) {
            if (blamed.contains(i)) {
                out[i] = alone(sources.get(i));
            } else {
                rest.add(i);
            }
        }
        group(sources, rest, out);
    }

    private void halve(List<Source> sources, List<Integer> members, Compiled[] out) {
        int mid = members.size() / 2;
        group(sources, members.subList(0, mid), out);
        group(sources, members.subList(mid, members.size()), out);
    }

    /** The members that the error lines of {@code log} name. */
    private static Set<Integer> blamed(String log, List<Integer> members) {
        Set<Integer> found = new LinkedHashSet<>();
        Matcher m = ERROR_LINE.matcher(log);
        while (m.find()) {
            int i = Integer.parseInt(m.group(1));
            if (members.contains(i)) {
                found.add(i);
            }
        }
        return found;
    }

    /**
     * The members whose kernel holds the PTX line that a load error names ({@code nvcc.ptx:123: …}); empty
     * when the line lies outside every kernel (in a device function, which may belong to any case).
     */
    private static Set<Integer> blamedByLoad(String message, String ptx, List<Source> sources,
            List<Integer> members) {
        Matcher m = LOAD_ERROR_LINE.matcher(message);
        if (!m.find()) {
            return Set.of();
        }
        String[] lines = ptx.split("\n", -1);
        int line = Math.min(Integer.parseInt(m.group(1)), lines.length);
        for (int k = line - 1; k >= 0; k--) {
            Matcher e = ENTRY.matcher(lines[k]);
            if (e.find()) {
                Set<Integer> found = new LinkedHashSet<>();
                for (int i : members) {
                    if (sources.get(i).kernels().contains(e.group(1))) {
                        found.add(i);
                    }
                }
                return found;
            }
            if (FUNC.matcher(lines[k]).find()) {
                return Set.of();
            }
        }
        return Set.of();
    }

    /** One case compiled on its own, under a file name made from its name so that nvcc's messages name it. */
    private Compiled alone(Source s) {
        runs++;
        Nvcc.Output r = nvcc.compile(s.text(), fileName(s.name()));
        if (!r.ok()) {
            return new Failed(new SideRun.Refused("nvcc: " + r.log()));
        }
        Unit unit = new Unit(r.ptx());
        SideRun.Outcome problem = loader.problem(unit);
        return problem == null ? new Ok(unit) : new Failed(problem);
    }

    /** {@code name} with characters other than letters, digits, '.', '_' and '-' replaced, ending in .cu. */
    static String fileName(String name) {
        String base = name.replaceAll("[^A-Za-z0-9._-]", "_");
        if (base.isEmpty() || base.startsWith("-") || base.startsWith(".")) {
            base = "case" + base;
        }
        if (base.length() > 100) {
            base = base.substring(0, 100);
        }
        return base.endsWith(".cu") ? base : base + ".cu";
    }
}
