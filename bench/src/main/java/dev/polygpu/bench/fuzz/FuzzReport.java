package dev.polygpu.bench.fuzz;

import dev.polygpu.device.cpu.oracle.gen.Construct;
import dev.polygpu.device.cpu.oracle.gen.Coverage;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The summary {@code bench/fuzz} prints on stdout: results by kind, findings, throughput and coverage. */
final class FuzzReport {
    /** One finding for the table: its case, category, what happened and where its files are. */
    record Finding(long index, String category, String result, int reducedLines, int originalLines, String file) {
    }

    private final Map<Triage.Kind, Integer> kinds = new EnumMap<>(Triage.Kind.class);
    private final Coverage coverage = new Coverage();
    private final Map<Construct, Integer> kernelsWith = new EnumMap<>(Construct.class);
    private final List<Finding> findings = new ArrayList<>();
    private int kernels;

    void add(Triage.Kind k, Coverage c) {
        kinds.merge(k, 1, Integer::sum);
        kernels++;
        if (c != null) {
            coverage.addAll(c);
            for (Construct x : c.counts().keySet()) {
                kernelsWith.merge(x, 1, Integer::sum);
            }
        }
    }

    void finding(Finding f) {
        findings.add(f);
    }

    int count(Triage.Kind k) {
        return kinds.getOrDefault(k, 0);
    }

    /** How many kernels had each kind of result, by the kind's label. */
    Map<String, Integer> byLabel() {
        Map<String, Integer> m = new LinkedHashMap<>();
        kinds.forEach((k, n) -> m.put(k.label, n));
        return m;
    }

    /** Findings nobody has explained: differences, refusals of one side, internal errors. */
    int unexplained() {
        int n = 0;
        for (Map.Entry<Triage.Kind, Integer> e : kinds.entrySet()) {
            if (!e.getKey().explained) {
                n += e.getValue();
            }
        }
        return n;
    }

    void print(PrintStream out, String title, double checkSeconds, double shrinkSeconds, int nvccRuns) {
        out.println("## " + title);
        out.println();
        out.println("| result | kernels |");
        out.println("|---|---:|");
        for (Triage.Kind k : Triage.Kind.values()) {
            if (kinds.containsKey(k)) {
                out.println("| " + k.label + " | " + kinds.get(k) + " |");
            }
        }
        out.println("| **total** | " + kernels + " |");
        out.println();
        out.println("| kernels | checking (s) | kernels/minute | nvcc runs | shrinking (s) |");
        out.println("|---:|---:|---:|---:|---:|");
        out.printf("| %d | %.1f | %.1f | %d | %.1f |%n", kernels, checkSeconds,
                checkSeconds > 0 ? kernels * 60.0 / checkSeconds : 0.0, nvccRuns, shrinkSeconds);
        out.println();
        if (!findings.isEmpty()) {
            out.println("| case | category (hint) | result | lines (reduced / original) | file |");
            out.println("|---:|---|---|---|---|");
            for (Finding f : findings) {
                out.println("| " + f.index() + " | " + f.category() + " | " + f.result().replace("|", "\\|")
                        .replace("\n", " ") + " | " + f.reducedLines() + " / " + f.originalLines() + " | "
                        + f.file() + " |");
            }
            out.println();
        }
        if (kernels > 0 && !coverage.counts().isEmpty()) {
            out.println("| group | construct | times emitted | kernels with it |");
            out.println("|---|---|---:|---:|");
            for (Construct c : Construct.values()) {
                out.println("| " + c.group.name().toLowerCase(java.util.Locale.ROOT) + " | " + c.flagName() + " | "
                        + coverage.count(c) + " | " + kernelsWith.getOrDefault(c, 0) + " |");
            }
            out.println();
        }
    }
}
