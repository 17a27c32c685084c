package dev.polygpu.runtime.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A layered (Sugiyama-style) drawing of a DAG whose nodes come in a topological order: each node goes to the
 * layer one below its lowest parent (longest path from a source), an edge that spans several layers is routed
 * through one invisible point per layer it crosses, nodes of a layer are ordered by the barycentre of their
 * neighbours (a few sweeps down and up, which removes most crossings), and each node is then placed under its
 * parents as far as its neighbours in the layer allow.
 *
 * <p>Coordinates are in pixels: {@link #x(int)} is a node's centre, {@link #y(int)} its top. Not thread-safe
 * while it is built; immutable afterwards.
 */
final class LayeredLayout {
    static final double NODE_HEIGHT = 34;
    static final double LAYER_GAP = 40;
    static final double NODE_GAP = 18;
    static final double MARGIN = 12;
    private static final int SWEEPS = 4;

    private final int realCount;
    /** Widths of the nodes: real ones first, then the routing points (width 0). */
    private final List<Double> widths = new ArrayList<>();
    private final List<Integer> layerOf = new ArrayList<>();
    /** Up and down neighbours of every node (routing points included). */
    private final List<List<Integer>> ups = new ArrayList<>();
    private final List<List<Integer>> downs = new ArrayList<>();
    /** Every edge as the nodes it passes through, parent first and child last. */
    private final List<int[]> paths = new ArrayList<>();
    private final List<List<Integer>> layers = new ArrayList<>();
    private double[] xs;
    private double width;
    private final double top;

    /**
     * Lays out {@code widths.length} nodes given in topological order with these {@code edges} ({@code {parent,
     * child}} indices, parent before child), starting {@code top} pixels down.
     */
    LayeredLayout(double[] nodeWidths, List<int[]> edges, double top) {
        this.realCount = nodeWidths.length;
        this.top = top;
        for (double w : nodeWidths) {
            addNode(w, 0);
        }
        List<List<Integer>> parents = new ArrayList<>();
        for (int i = 0; i < realCount; i++) {
            parents.add(new ArrayList<>());
        }
        for (int[] e : edges) {
            if (e[0] < 0 || e[0] >= e[1] || e[1] >= realCount) {
                throw new IllegalArgumentException("edge " + e[0] + "->" + e[1] + " is not parent before child");
            }
            parents.get(e[1]).add(e[0]);
        }
        for (int i = 0; i < realCount; i++) {
            int layer = 0;
            for (int p : parents.get(i)) {
                layer = Math.max(layer, layerOf.get(p) + 1);
            }
            layerOf.set(i, layer);
        }
        for (int[] e : edges) {
            route(e[0], e[1]);
        }
        for (int n = 0; n < widths.size(); n++) {
            int layer = layerOf.get(n);
            while (layers.size() <= layer) {
                layers.add(new ArrayList<>());
            }
            layers.get(layer).add(n);
        }
        order();
        place();
    }

    private int addNode(double w, int layer) {
        widths.add(w);
        layerOf.add(layer);
        ups.add(new ArrayList<>());
        downs.add(new ArrayList<>());
        return widths.size() - 1;
    }

    /** Adds the edge parent → child with a routing point on every layer between them. */
    private void route(int parent, int child) {
        int from = layerOf.get(parent);
        int to = layerOf.get(child);
        int[] path = new int[to - from + 1];
        path[0] = parent;
        for (int k = 1; k < path.length - 1; k++) {
            path[k] = addNode(0, from + k);
        }
        path[path.length - 1] = child;
        for (int k = 0; k + 1 < path.length; k++) {
            downs.get(path[k]).add(path[k + 1]);
            ups.get(path[k + 1]).add(path[k]);
        }
        paths.add(path);
    }

    /** Barycentre ordering: sweeps down (by up-neighbours) and up (by down-neighbours). */
    private void order() {
        int[] position = new int[widths.size()];
        refreshPositions(position);
        for (int sweep = 0; sweep < SWEEPS; sweep++) {
            for (int l = 1; l < layers.size(); l++) {
                sortByBarycentre(layers.get(l), ups, position);
            }
            for (int l = layers.size() - 2; l >= 0; l--) {
                sortByBarycentre(layers.get(l), downs, position);
            }
        }
    }

    private void sortByBarycentre(List<Integer> layer, List<List<Integer>> neighbours, int[] position) {
        double[] key = new double[widths.size()];
        for (int n : layer) {
            List<Integer> ns = neighbours.get(n);
            if (ns.isEmpty()) {
                key[n] = position[n];
            } else {
                double sum = 0;
                for (int m : ns) {
                    sum += position[m];
                }
                key[n] = sum / ns.size();
            }
        }
        layer.sort(Comparator.comparingDouble(n -> key[n]));
        for (int i = 0; i < layer.size(); i++) {
            position[layer.get(i)] = i;
        }
    }

    private void refreshPositions(int[] position) {
        for (List<Integer> layer : layers) {
            for (int i = 0; i < layer.size(); i++) {
                position[layer.get(i)] = i;
            }
        }
    }

    /**
     * Horizontal placement: each layer after the first wants its nodes under the mean of their parents, then
     * is pushed apart left to right so that no two overlap; finally everything is shifted to the margin.
     */
    private void place() {
        xs = new double[widths.size()];
        for (int l = 0; l < layers.size(); l++) {
            List<Integer> layer = layers.get(l);
            double cursor = 0;
            for (int n : layer) {
                double wanted = cursor + widths.get(n) / 2;
                if (l > 0 && !ups.get(n).isEmpty()) {
                    double sum = 0;
                    for (int p : ups.get(n)) {
                        sum += xs[p];
                    }
                    wanted = Math.max(wanted, sum / ups.get(n).size());
                }
                xs[n] = wanted;
                cursor = wanted + widths.get(n) / 2 + NODE_GAP;
            }
        }
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (int n = 0; n < xs.length; n++) {
            min = Math.min(min, xs[n] - widths.get(n) / 2);
            max = Math.max(max, xs[n] + widths.get(n) / 2);
        }
        if (xs.length == 0) {
            min = 0;
            max = 0;
        }
        for (int n = 0; n < xs.length; n++) {
            xs[n] += MARGIN - min;
        }
        width = max - min + 2 * MARGIN;
    }

    /** The centre of node {@code n} (routing points included). */
    double x(int n) {
        return xs[n];
    }

    /** The width node {@code n} was given (0 for a routing point). */
    double nodeWidth(int n) {
        return widths.get(n);
    }

    /** The top of node {@code n}. */
    double y(int n) {
        return top + layerOf.get(n) * (NODE_HEIGHT + LAYER_GAP);
    }

    int layer(int n) {
        return layerOf.get(n);
    }

    int layerCount() {
        return layers.size();
    }

    int realCount() {
        return realCount;
    }

    /** The edges as node paths, parent first, in the order they were given. */
    List<int[]> paths() {
        return paths;
    }

    double width() {
        return width;
    }

    /** The bottom of the lowest layer plus the margin. */
    double height() {
        return top + layers.size() * (NODE_HEIGHT + LAYER_GAP) - LAYER_GAP + MARGIN;
    }
}
