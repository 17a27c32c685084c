package dev.polygpu.runtime.trace;

import java.util.List;

/**
 * A {@link RecordedDag} as int adjacency arrays for the graph algorithms: vertex {@code i} is the {@code i}-th
 * element in submission order, which is a topological order (every parent index is below its child's).
 */
final class IndexedDag {
    final int size;
    final int[][] parents;
    final int[][] children;

    IndexedDag(RecordedDag dag) {
        size = dag.size();
        int[] parentCount = new int[size];
        int[] childCount = new int[size];
        List<Dependency> edges = dag.dependencies();
        int[] from = new int[edges.size()];
        int[] to = new int[edges.size()];
        for (int e = 0; e < edges.size(); e++) {
            from[e] = dag.indexOf(edges.get(e).parentId());
            to[e] = dag.indexOf(edges.get(e).childId());
            childCount[from[e]]++;
            parentCount[to[e]]++;
        }
        parents = new int[size][];
        children = new int[size][];
        for (int v = 0; v < size; v++) {
            parents[v] = new int[parentCount[v]];
            children[v] = new int[childCount[v]];
        }
        for (int e = 0; e < edges.size(); e++) {
            children[from[e]][--childCount[from[e]]] = to[e];
            parents[to[e]][--parentCount[to[e]]] = from[e];
        }
    }

    /**
     * The level of each vertex: 0 for sources, else one more than its highest parent (the number of vertices
     * on the longest path ending at it, minus one).
     */
    int[] levels() {
        int[] level = new int[size];
        for (int v = 0; v < size; v++) {
            for (int p : parents[v]) {
                level[v] = Math.max(level[v], level[p] + 1);
            }
        }
        return level;
    }
}
