package dev.polygpu.runtime.trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Figures that say how much parallelism a recorded schedule had and where its time went:
 * <ul>
 *   <li>the <b>width</b>, the most elements with no path between any two (that could all run at once), and the
 *   <b>degree of asynchronicity</b>, width − 1. Exact up to {@link #DEFAULT_EXACT_WIDTH_LIMIT} elements
 *   (Dilworth/König, see {@code Antichains}: O(n·m/64 + E·√n) time, n²/8 bytes); above it the most elements on
 *   one topological level, a lower bound, which {@link #widthExact()} and {@link #summary()} say;</li>
 *   <li>the <b>critical path</b>: the path whose measured durations (end − start, host elements included, 0 for
 *   elements that did not complete) add up to the most, and the <b>longest chain</b>, the path with the most
 *   elements;</li>
 *   <li>the <b>makespan</b>: from the first start to the last end among completed elements.</li>
 * </ul>
 * Instances are immutable; {@link #of(RecordedDag)} computes them.
 */
public final class DagMetrics {
    /** Above this many elements the width is bounded from below instead of computed exactly. */
    public static final int DEFAULT_EXACT_WIDTH_LIMIT = 20_000;

    private static final int LABELS_IN_SUMMARY = 5;

    private final int elements;
    private final int edges;
    private final int width;
    private final boolean widthExact;
    private final List<RecordedElement> criticalPath;
    private final long criticalPathNanos;
    private final List<RecordedElement> longestChain;
    private final long makespanNanos;
    private final int incomplete;
    private final int failed;
    /** Transfers between devices and the host (several devices only), their bytes and their summed durations. */
    private final int transfers;
    private final long transferredBytes;
    private final long transferNanos;

    private DagMetrics(RecordedDag dag, int exactWidthLimit) {
        IndexedDag graph = new IndexedDag(dag);
        elements = dag.size();
        edges = dag.dependencies().size();
        widthExact = elements <= exactWidthLimit;
        width = widthExact ? Antichains.exactWidth(graph) : Antichains.levelWidth(graph);
        long[] weight = new long[elements];
        long[] unit = new long[elements];
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        int notDone = 0;
        int failures = 0;
        int moves = 0;
        long moved = 0;
        long moveNanos = 0;
        for (int v = 0; v < elements; v++) {
            RecordedElement element = dag.elements().get(v);
            weight[v] = element.durationNanos();
            if (element.kind() == dev.polygpu.runtime.ElementKind.TRANSFER) {
                moves++;
                moved += element.arrays().isEmpty() ? 0 : element.arrays().get(0).bytes();
                moveNanos += element.durationNanos();
            }
            unit[v] = 1;
            if (element.completed()) {
                first = Math.min(first, element.run().startNanos());
                last = Math.max(last, element.run().endNanos());
                failures += element.failed() ? 1 : 0;
            } else {
                notDone++;
            }
        }
        incomplete = notDone;
        failed = failures;
        transfers = moves;
        transferredBytes = moved;
        transferNanos = moveNanos;
        makespanNanos = first <= last ? last - first : 0;
        int[] heaviest = heaviestPath(graph, weight);
        criticalPath = elementsOf(dag, heaviest);
        long total = 0;
        for (int v : heaviest) {
            total += weight[v];
        }
        criticalPathNanos = total;
        longestChain = elementsOf(dag, heaviestPath(graph, unit));
    }

    /** The metrics of {@code dag}, exact width up to {@link #DEFAULT_EXACT_WIDTH_LIMIT} elements. */
    public static DagMetrics of(RecordedDag dag) {
        return of(dag, DEFAULT_EXACT_WIDTH_LIMIT);
    }

    /** The metrics of {@code dag}, computing the width exactly when it has at most {@code exactWidthLimit} elements. */
    public static DagMetrics of(RecordedDag dag, int exactWidthLimit) {
        if (exactWidthLimit < 0) {
            throw new IllegalArgumentException("exactWidthLimit must not be negative");
        }
        return new DagMetrics(dag, exactWidthLimit);
    }

    /**
     * The vertices of a path maximizing the sum of {@code weight}, source first; ties go to the earliest
     * submitted parent and end vertex. Linear in the edges: submission order is topological.
     */
    private static int[] heaviestPath(IndexedDag graph, long[] weight) {
        long[] best = new long[graph.size];
        int[] via = new int[graph.size];
        int end = -1;
        for (int v = 0; v < graph.size; v++) {
            via[v] = -1;
            for (int p : graph.parents[v]) {
                if (via[v] < 0 || best[p] > best[via[v]] || best[p] == best[via[v]] && p < via[v]) {
                    via[v] = p;
                }
            }
            best[v] = weight[v] + (via[v] < 0 ? 0 : best[via[v]]);
            if (end < 0 || best[v] > best[end]) {
                end = v;
            }
        }
        List<Integer> path = new ArrayList<>();
        for (int v = end; v >= 0; v = via[v]) {
            path.add(v);
        }
        Collections.reverse(path);
        return path.stream().mapToInt(Integer::intValue).toArray();
    }

    private static List<RecordedElement> elementsOf(RecordedDag dag, int[] path) {
        List<RecordedElement> result = new ArrayList<>(path.length);
        for (int v : path) {
            result.add(dag.elements().get(v));
        }
        return List.copyOf(result);
    }

    public int elementCount() {
        return elements;
    }

    public int edgeCount() {
        return edges;
    }

    /** The size of the largest antichain, or a lower bound of it when {@link #widthExact()} is false. */
    public int width() {
        return width;
    }

    /** True if {@link #width()} is exact, false if it is the topological-level lower bound. */
    public boolean widthExact() {
        return widthExact;
    }

    /** {@link #width()} − 1 (0 for an empty DAG): how many elements could run beside any one of them. */
    public int degreeOfAsynchronicity() {
        return Math.max(0, width - 1);
    }

    /** The elements of the critical path by measured duration, first to last; empty for an empty DAG. */
    public List<RecordedElement> criticalPath() {
        return criticalPath;
    }

    /** The ids along {@link #criticalPath()}. */
    public long[] criticalPathIds() {
        return criticalPath.stream().mapToLong(RecordedElement::id).toArray();
    }

    /** The sum of the measured durations along {@link #criticalPath()}. */
    public long criticalPathNanos() {
        return criticalPathNanos;
    }

    public double criticalPathMillis() {
        return criticalPathNanos / 1e6;
    }

    /** The elements of a path with the most elements (the critical path in vertex count), first to last. */
    public List<RecordedElement> longestChain() {
        return longestChain;
    }

    /** Last end − first start over the completed elements, 0 if none completed. */
    public long makespanNanos() {
        return makespanNanos;
    }

    public double makespanMillis() {
        return makespanNanos / 1e6;
    }

    /** The elements that had not completed when the DAG was recorded. */
    public int incompleteCount() {
        return incomplete;
    }

    public int failedCount() {
        return failed;
    }

    /** How many transfers between devices and the host the DAG holds (only with several devices). */
    public int transferCount() {
        return transfers;
    }

    /** The bytes those transfers moved. */
    public long transferredBytes() {
        return transferredBytes;
    }

    /** The time those transfers took, summed (they may overlap each other and kernels). */
    public long transferNanos() {
        return transferNanos;
    }

    /**
     * One line for people, e.g. {@code DAG: 42 elements, 57 edges, width 4 (degree of asynchronicity 3), critical
     * path 12.3 ms over 9 elements (square → reduce → …), makespan 20.1 ms}; with several devices also {@code , 6
     * transfers of 2400 bytes taking 0.310 ms}.
     */
    public String summary() {
        StringBuilder text = new StringBuilder("DAG: ");
        text.append(elements).append(elements == 1 ? " element, " : " elements, ");
        text.append(edges).append(edges == 1 ? " edge, " : " edges, ");
        if (widthExact) {
            text.append("width ").append(width)
                    .append(" (degree of asynchronicity ").append(degreeOfAsynchronicity()).append(')');
        } else {
            text.append("width ≥ ").append(width).append(" (lower bound from topological levels; degree of ")
                    .append("asynchronicity ≥ ").append(degreeOfAsynchronicity()).append(')');
        }
        text.append(", critical path ").append(millis(criticalPathNanos)).append(" over ")
                .append(criticalPath.size()).append(criticalPath.size() == 1 ? " element" : " elements");
        if (!criticalPath.isEmpty()) {
            text.append(" (").append(pathLabels()).append(')');
        }
        if (longestChain.size() > criticalPath.size()) {
            text.append(", longest chain ").append(longestChain.size()).append(" elements");
        }
        text.append(", makespan ").append(millis(makespanNanos));
        if (transfers > 0) {
            text.append(", ").append(transfers).append(transfers == 1 ? " transfer of " : " transfers of ")
                    .append(transferredBytes).append(" bytes taking ").append(millis(transferNanos));
        }
        if (failed > 0) {
            text.append(", ").append(failed).append(" failed");
        }
        if (incomplete > 0) {
            text.append(", ").append(incomplete).append(" not completed");
        }
        return text.toString();
    }

    private String pathLabels() {
        StringBuilder labels = new StringBuilder();
        for (int i = 0; i < criticalPath.size(); i++) {
            if (i > 0) {
                labels.append(" → ");
            }
            if (i == LABELS_IN_SUMMARY && criticalPath.size() > LABELS_IN_SUMMARY + 1) {
                return labels.append('…').toString();
            }
            labels.append(criticalPath.get(i).displayName());
        }
        return labels.toString();
    }

    /** Three significant digits for durations from microseconds up, e.g. 0.012 ms, 1.23 ms, 12.3 ms, 123 ms. */
    static String millis(long nanos) {
        double ms = nanos / 1e6;
        String pattern = ms >= 100 || ms == 0 ? "%.0f ms" : ms >= 10 ? "%.1f ms" : ms >= 1 ? "%.2f ms" : "%.3f ms";
        return String.format(Locale.ROOT, pattern, ms);
    }

    @Override
    public String toString() {
        return summary();
    }
}
