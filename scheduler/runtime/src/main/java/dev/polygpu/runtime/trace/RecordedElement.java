package dev.polygpu.runtime.trace;

import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import java.util.List;
import java.util.Locale;

/**
 * One computational element as a {@link ScheduleRecorder} saw it: what was submitted, where it was placed (null
 * for host elements and for elements not launched yet) and when it ran (null until it completed).
 *
 * @param info      the element as submitted
 * @param parents   the ids of the elements it had to follow, as the scheduler gave them
 * @param placement the device and stream it was launched on, or null
 * @param run       its measured start, end and failure, or null
 * @param move      where it ran when another cluster member took it, or null
 */
public record RecordedElement(ElementInfo info, List<Long> parents, Placement placement, Run run, Move move) {

    /** An element of this process's schedule that ran here (or has not run yet). */
    public RecordedElement(ElementInfo info, List<Long> parents, Placement placement, Run run) {
        this(info, parents, placement, run, null);
    }

    /**
     * An element another cluster member took: from {@code ownerDevice} at {@code takenNanos}, run on
     * {@code member} from {@code startNanos} to {@code endNanos}; its {@link Run} spans the whole time away.
     */
    public record Move(String ownerDevice, String member, long takenNanos, long startNanos, long endNanos) {
    }

    /** Where a device element was launched: device, stream, and when it was handed to the stream. */
    public record Placement(String deviceName, int streamId, long launchNanos) {
    }

    /**
     * When an element ran ({@link System#nanoTime()} values, as the observer got them) and the error message
     * it failed with, or null.
     */
    public record Run(long startNanos, long endNanos, String failure) {
        /** End minus start, never negative. */
        public long durationNanos() {
            return Math.max(0, endNanos - startNanos);
        }
    }

    public RecordedElement {
        parents = List.copyOf(parents);
    }

    public long id() {
        return info.id();
    }

    public ElementKind kind() {
        return info.kind();
    }

    public String label() {
        return info.label();
    }

    public List<ArrayUse> arrays() {
        return info.arrays();
    }

    /** The label, or the kind in words (e.g. {@code host read}) when the label is empty. */
    public String displayName() {
        String label = info.label();
        return label == null || label.isBlank() ? kindName(info.kind()) : label;
    }

    /** True if another cluster member ran it. */
    public boolean moved() {
        return move != null;
    }

    public boolean completed() {
        return run != null;
    }

    public boolean failed() {
        return run != null && run.failure() != null;
    }

    /** The measured duration, 0 if the element has not completed. */
    public long durationNanos() {
        return run == null ? 0 : run.durationNanos();
    }

    /** The kind in lower-case words: {@code kernel}, {@code copy}, {@code host read}. */
    static String kindName(ElementKind kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
