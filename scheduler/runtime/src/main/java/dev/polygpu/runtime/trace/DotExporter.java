package dev.polygpu.runtime.trace;

import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a recorded DAG as a Graphviz DOT digraph ({@code dot -Tsvg dag.dot -o dag.svg}): one node per element,
 * labelled with its label (or kind), id and placement, e.g. {@code square #3} over {@code stream 2}; host
 * elements are ellipses, copies, fills and prefetches rounded boxes, kernels boxes; failed elements are filled
 * red with the error as a third line. Each edge goes parent → child, labelled with the arrays that cause it
 * ({@link Dependency#arrays()}). With {@link #clusterByStream(boolean)} the nodes of each stream (and those of
 * the host) are grouped in a box.
 *
 * <p>Immutable, so one exporter may be shared between threads.
 */
public final class DotExporter implements DagFormat {
    private static final int MAX_FAILURE_CHARS = 80;

    private final boolean clusters;

    /** An exporter that draws the DAG without stream groups. */
    public DotExporter() {
        this(false);
    }

    private DotExporter(boolean clusters) {
        this.clusters = clusters;
    }

    /** An exporter like this one that groups nodes per stream ({@code subgraph cluster_…}) if {@code on}. */
    public DotExporter clusterByStream(boolean on) {
        return new DotExporter(on);
    }

    /** Appends the DOT text of {@code dag} to {@code out}. */
    @Override
    public void write(RecordedDag dag, Appendable out) throws IOException {
        boolean severalDevices = deviceCount(dag) > 1;
        out.append("digraph schedule {\n");
        out.append("  graph [rankdir=TB, fontname=\"Helvetica\"];\n");
        out.append("  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n");
        out.append("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        if (clusters) {
            writeClusters(dag, severalDevices, out);
        } else {
            for (RecordedElement element : dag.elements()) {
                writeNode(element, severalDevices, "  ", out);
            }
        }
        for (Dependency edge : dag.dependencies()) {
            out.append("  ").append(nodeId(edge.parentId())).append(" -> ").append(nodeId(edge.childId()));
            if (!edge.arrays().isEmpty()) {
                out.append(" [label=").append(quote(List.of(arrayNames(edge.arrays())))).append(']');
            }
            out.append(";\n");
        }
        out.append("}\n");
    }

    private void writeClusters(RecordedDag dag, boolean severalDevices, Appendable out) throws IOException {
        Map<String, List<RecordedElement>> groups = new LinkedHashMap<>();
        List<RecordedElement> loose = new ArrayList<>();
        for (RecordedElement element : dag.elements()) {
            if (element.kind().onHost() || element.placement() != null) {
                groups.computeIfAbsent(where(element, severalDevices), k -> new ArrayList<>()).add(element);
            } else {
                loose.add(element);
            }
        }
        int cluster = 0;
        for (Map.Entry<String, List<RecordedElement>> group : groups.entrySet()) {
            out.append("  subgraph cluster_").append(Integer.toString(cluster++)).append(" {\n");
            out.append("    label=").append(quote(List.of(group.getKey())))
                    .append("; style=rounded; color=\"#999999\";\n");
            for (RecordedElement element : group.getValue()) {
                writeNode(element, severalDevices, "    ", out);
            }
            out.append("  }\n");
        }
        for (RecordedElement element : loose) {
            writeNode(element, severalDevices, "  ", out);
        }
    }

    private static void writeNode(RecordedElement element, boolean severalDevices, String indent, Appendable out)
            throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(element.displayName() + " #" + element.id());
        String where = where(element, severalDevices);
        String kind = RecordedElement.kindName(element.kind());
        boolean describeKind = element.kind() != ElementKind.KERNEL && !element.displayName().equals(kind);
        if (element.kind().onHost()) {
            lines.add(describeKind ? kind : where);
        } else {
            lines.add(describeKind ? kind + " on " + where : where);
        }
        List<String> styles = new ArrayList<>();
        String shape = "box";
        if (element.kind().onHost()) {
            shape = "ellipse";
        } else if (element.kind() != ElementKind.KERNEL) {
            styles.add("rounded");
        }
        if (element.failed()) {
            lines.add("failed: " + abbreviate(element.run().failure()));
            styles.add("filled");
        }
        out.append(indent).append(nodeId(element.id())).append(" [label=").append(quote(lines));
        if (!shape.equals("box")) {
            out.append(", shape=").append(shape);
        }
        if (!styles.isEmpty()) {
            out.append(", style=\"").append(String.join(",", styles)).append('"');
        }
        if (element.failed()) {
            out.append(", color=\"#c00000\", fillcolor=\"#f8d0d0\", penwidth=2");
        }
        out.append("];\n");
    }

    /** Where the element ran: {@code host}, {@code stream 2} (with the device if the DAG uses several). */
    private static String where(RecordedElement element, boolean severalDevices) {
        if (element.kind().onHost()) {
            return "host";
        }
        RecordedElement.Placement placement = element.placement();
        if (placement == null) {
            return "not launched";
        }
        String stream = "stream " + placement.streamId();
        return severalDevices ? placement.deviceName() + " " + stream : stream;
    }

    private static int deviceCount(RecordedDag dag) {
        Set<String> devices = new HashSet<>();
        for (RecordedElement element : dag.elements()) {
            if (element.placement() != null) {
                devices.add(element.placement().deviceName());
            }
        }
        return devices.size();
    }

    /** The arrays' names, with their ids when two of them would otherwise read the same. */
    private static String arrayNames(List<ArrayUse> arrays) {
        Set<String> seen = new HashSet<>();
        boolean ambiguous = false;
        for (ArrayUse use : arrays) {
            ambiguous |= !seen.add(use.arrayName());
        }
        List<String> names = new ArrayList<>();
        for (ArrayUse use : arrays) {
            names.add(ambiguous ? use.arrayName() + " #" + use.arrayId() : use.arrayName());
        }
        return String.join(", ", names);
    }

    private static String abbreviate(String text) {
        String line = text.strip();
        return line.length() <= MAX_FAILURE_CHARS ? line : line.substring(0, MAX_FAILURE_CHARS - 1) + "…";
    }

    private static String nodeId(long id) {
        return "\"e" + id + "\"";
    }

    /**
     * A DOT quoted string of {@code lines}, separated by Graphviz's centred line break {@code \n}. Backslashes
     * are doubled (Graphviz would read {@code \N}, {@code \l} … as escapes), quotes escaped, line breaks inside
     * a line become {@code \n}, other control characters spaces.
     */
    static String quote(List<String> lines) {
        StringBuilder quoted = new StringBuilder("\"");
        for (int i = 0; i < lines.size(); i++) {
            if (i > 0) {
                quoted.append("\\n");
            }
            String line = lines.get(i) == null ? "" : lines.get(i);
            for (int j = 0; j < line.length(); j++) {
                char c = line.charAt(j);
                switch (c) {
                    case '\\' -> quoted.append("\\\\");
                    case '"' -> quoted.append("\\\"");
                    case '\n' -> quoted.append("\\n");
                    case '\r' -> { }
                    default -> quoted.append(c < ' ' || c == 0x7f ? ' ' : c);
                }
            }
        }
        return quoted.append('"').toString();
    }
}
