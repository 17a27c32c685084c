package dev.polygpu.launcher.notebook;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/**
 * The global {@code polygpu} of notebook cells, in both languages: draws what ran, inline, from the
 * {@code grcuda} language's recorded schedule ({@code polygpu_schedule}), and shows progress of long cells.
 * <ul>
 *   <li>{@code polygpu.dag()}: the DAG of the computations so far, as SVG;</li>
 *   <li>{@code polygpu.timeline()} / {@code polygpu.timeline(file)}: their timeline as SVG, and the same as a
 *   Chrome trace JSON file (default {@code polygpu-timeline.json} in the notebook's folder) with a link, to
 *   open in Perfetto;</li>
 *   <li>{@code polygpu.summary()}: the DAG's size, width, critical path and makespan, as a string;</li>
 *   <li>{@code polygpu.clear()}: forget what ran, so the next drawing shows only what follows;</li>
 *   <li>{@code polygpu.progress(total[, label])}: a progress bar that {@code step()} and {@code update(n)}
 *   move, redrawn in place.</li>
 * </ul>
 * Methods are called from guest code on the thread that runs the cell.
 */
public final class NotebookHelpers {
    /** Where displays go: the cell that runs now. */
    interface Publisher {
        void publish(DisplayData data, boolean update);
    }

    static final String DEFAULT_TRACE = "polygpu-timeline.json";

    private final Context context;
    private final Publisher publisher;

    NotebookHelpers(Context context, Publisher publisher) {
        this.context = context;
        this.publisher = publisher;
    }

    private String schedule(String format) {
        Value cu = context.eval("grcuda", "CU");
        return cu.getMember("polygpu_schedule").execute(format).asString();
    }

    /** Shows the DAG of the computations recorded so far. */
    public void dag() {
        DisplayData d = new DisplayData();
        d.putData("image/svg+xml", schedule("dag-svg"));
        d.putText(summary());
        publisher.publish(d, false);
    }

    /** Shows the timeline and writes the Chrome trace to {@value #DEFAULT_TRACE}. */
    public void timeline() {
        timeline(DEFAULT_TRACE);
    }

    /** Shows the timeline and writes the Chrome trace to {@code file} (relative to the notebook's folder). */
    public void timeline(String file) {
        if (file == null || file.isBlank()) {
            throw new IllegalArgumentException("timeline(file): the file name is empty");
        }
        Path trace = Path.of(file);
        try {
            Files.writeString(trace, schedule("chrome-trace"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("timeline: cannot write the Chrome trace to " + trace.toAbsolutePath(), e);
        }
        DisplayData picture = new DisplayData();
        picture.putData("image/svg+xml", schedule("timeline-svg"));
        picture.putText(summary());
        publisher.publish(picture, false);
        String href = file.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
        DisplayData link = new DisplayData();
        link.putHTML("Chrome trace: <a href=\"" + href + "\" download>" + href + "</a> (open it in"
                + " <a href=\"https://ui.perfetto.dev\" target=\"_blank\">ui.perfetto.dev</a>)");
        link.putText("Chrome trace written to " + trace.toAbsolutePath() + " (open it in https://ui.perfetto.dev)");
        publisher.publish(link, false);
    }

    /** One line: computations, dependencies, width, critical path and makespan of what was recorded. */
    public String summary() {
        return schedule("summary");
    }

    /** Forgets the computations recorded so far. */
    public void clear() {
        context.eval("grcuda", "CU").getMember("polygpu_schedule_clear").execute();
    }

    /** A progress bar of {@code total} steps. */
    public Progress progress(long total) {
        return progress(total, "progress");
    }

    /** A progress bar of {@code total} steps named {@code label}. */
    public Progress progress(long total, String label) {
        if (total <= 0) {
            throw new IllegalArgumentException("progress(total): total must be positive, got " + total);
        }
        return new Progress(total, label == null ? "progress" : label, publisher);
    }

    @Override
    public String toString() {
        return "polygpu notebook helpers: dag(), timeline([file]), summary(), clear(), progress(total[, label])";
    }
}
