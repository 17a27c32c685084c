package dev.polygpu.grcuda;

import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.trace.ChromeTraceWriter;
import dev.polygpu.runtime.trace.DagMetrics;
import dev.polygpu.runtime.trace.DotExporter;
import dev.polygpu.runtime.trace.RecordedDag;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * What {@code grcuda.ExportDAG}, {@code grcuda.Timeline} and {@code grcuda.ScheduleReport} ask for: a recorder
 * on the scheduler that, when the context closes, writes the DAG as Graphviz DOT, the timeline as a Chrome
 * trace and prints a one-line summary (size, width, critical path, makespan) to the context's error stream.
 * {@code grcuda.RecordSchedule} installs the same recorder with nothing to write, for {@code polygpu_schedule}.
 * Nothing is recorded unless one of them is set; a recorder keeps every computation, so these are for
 * studying a run, not for long-running programs.
 */
final class ScheduleExports {
    private ScheduleExports() {
    }

    /**
     * Installs the recorder the options ask for on {@code scheduler} and returns it, or returns null when none
     * of them (nor {@code grcuda.RecordSchedule}, which keeps the recorder for {@code polygpu_schedule}) is set.
     */
    static ScheduleRecorder install(Scheduler scheduler, GrSettings settings, OutputStream err,
            UnaryOperator<Path> resolve) {
        Path dot = writable("ExportDAG", settings.exportDag(), resolve);
        Path trace = writable("Timeline", settings.timeline(), resolve);
        if (dot == null && trace == null && !settings.scheduleReport() && !settings.recordSchedule()) {
            return null;
        }
        PrintStream out = new PrintStream(err, true, StandardCharsets.UTF_8);
        ScheduleRecorder recorder = new ScheduleRecorder(dag -> write(dag, dot, trace, settings.scheduleReport(), out));
        scheduler.addObserver(recorder);
        return recorder;
    }

    /**
     * The file option {@code name} names, resolved against the program's working directory by {@code resolve},
     * or null when it is off; a file that cannot be written is an error now, not when the program ends.
     */
    private static Path writable(String name, String option, UnaryOperator<Path> resolve) {
        String t = option.trim();
        if (t.isEmpty() || t.equals("false")) {
            return null;
        }
        Path path = resolve.apply(Path.of(t));
        String why = GrOptions.unwritable(path);
        if (why != null) {
            throw GrError.of("grcuda." + name + "=" + option + " cannot be written: " + why);
        }
        return path;
    }

    /** An I/O failure in words: NoSuchFileException and its kin carry only the path as their message. */
    private static String reason(Exception e) {
        return e instanceof NoSuchFileException ? "no such file or folder: " + e.getMessage()
                : e instanceof AccessDeniedException ? "access denied: " + e.getMessage()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static void write(RecordedDag dag, Path dot, Path trace, boolean report, PrintStream out) {
        if (dot != null) {
            try {
                new DotExporter().write(dag, dot);
                out.println("polygpu: wrote the computation DAG to " + dot + " (render: dot -Tsvg " + dot + ")");
            } catch (IOException | RuntimeException e) {
                out.println("polygpu: could not write grcuda.ExportDAG=" + dot + ": " + reason(e));
            }
        }
        if (trace != null) {
            try {
                new ChromeTraceWriter().write(dag, trace);
                out.println("polygpu: wrote the timeline to " + trace + " (open it in https://ui.perfetto.dev)");
            } catch (IOException | RuntimeException e) {
                out.println("polygpu: could not write grcuda.Timeline=" + trace + ": " + reason(e));
            }
        }
        if (report) {
            out.println("polygpu: " + DagMetrics.of(dag).summary());
        }
    }
}
