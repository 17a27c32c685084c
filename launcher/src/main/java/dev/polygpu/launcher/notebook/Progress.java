package dev.polygpu.launcher.notebook;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.util.Locale;
import java.util.UUID;

/**
 * A progress bar in a cell's output, made by {@code polygpu.progress(total, label)}: shown at once, then
 * redrawn in place ({@code update_display_data} on its display id) as {@link #step()} or {@link #update(long)}
 * move it, at most every {@value #MIN_REDRAW_MILLIS} ms and always when it reaches the end. HTML (a
 * {@code <progress>} element, no scripts) with a text fallback.
 */
public final class Progress {
    static final long MIN_REDRAW_MILLIS = 100;
    private static final int TEXT_WIDTH = 30;

    private final long total;
    private final String label;
    private final NotebookHelpers.Publisher publisher;
    private final String id = "polygpu-progress-" + UUID.randomUUID();
    private long done;
    private long lastDrawn;

    Progress(long total, String label, NotebookHelpers.Publisher publisher) {
        this.total = total;
        this.label = label;
        this.publisher = publisher;
        publisher.publish(render(), false);
        lastDrawn = System.nanoTime();
    }

    /** One more step done. */
    public void step() {
        update(done + 1);
    }

    /** {@code n} steps done (0 to total). */
    public void update(long n) {
        if (n < 0 || n > total) {
            throw new IllegalArgumentException("update(n): n must be between 0 and " + total + ", got " + n);
        }
        done = n;
        long now = System.nanoTime();
        if (n == total || now - lastDrawn >= MIN_REDRAW_MILLIS * 1_000_000) {
            publisher.publish(render(), true);
            lastDrawn = now;
        }
    }

    /** Steps done so far. */
    public long done() {
        return done;
    }

    private DisplayData render() {
        int percent = (int) (100 * done / total);
        DisplayData d = new DisplayData();
        String safe = label.replace("&", "&amp;").replace("<", "&lt;");
        d.putHTML(String.format(Locale.ROOT, "<div><progress value=\"%d\" max=\"%d\" style=\"width: 20em\"></progress>"
                + " %s: %d/%d (%d%%)</div>", done, total, safe, done, total, percent));
        int filled = (int) (TEXT_WIDTH * done / total);
        d.putText(String.format(Locale.ROOT, "%s: [%s%s] %d/%d (%d%%)", label, "#".repeat(filled),
                "-".repeat(TEXT_WIDTH - filled), done, total, percent));
        d.setDisplayId(id);
        return d;
    }

    @Override
    public String toString() {
        return label + ": " + done + "/" + total;
    }
}
