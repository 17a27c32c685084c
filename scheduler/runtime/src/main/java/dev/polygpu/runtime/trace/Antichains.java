package dev.polygpu.runtime.trace;

import java.util.Arrays;

/**
 * The width of a DAG: the size of its largest antichain (set of vertices with no path between any two).
 *
 * <p>{@link #exactWidth} uses Dilworth's theorem: the width equals the minimum number of chains covering the
 * vertices, which by König's theorem is {@code n} minus a maximum matching in the bipartite graph that links
 * {@code u} (left) to {@code v} (right) whenever there is a path from {@code u} to {@code v}. The transitive
 * closure is one bit row per vertex ({@code long} words, n²/8 bytes: 50 MB at 20 000 vertices), built in
 * reverse topological order in O(m·n/64). The closure is dense (a chain of n has n²/2 pairs), so the matching
 * works on 64 right vertices per word operation rather than edge by edge: a greedy start (which already matches
 * chains and series-parallel shapes), then phases of one alternating breadth-first search from all free left
 * vertices at once, in which each right vertex is visited at most once and every tree that reaches a free right
 * vertex augments along its path. A phase costs O(n²/64) and augments at least once while the matching is not
 * maximum, so the worst case is O(n³/64); in practice a handful of phases suffice (20 000 vertices: well under a
 * second).
 *
 * <p>{@link #levelWidth} is the linear-time lower bound for larger DAGs: the most vertices on one topological
 * level (vertices of a level have no path between them, but the largest antichain may span levels).
 */
final class Antichains {
    private static final int FREE = -1;

    private Antichains() {
    }

    /** The size of the largest antichain. */
    static int exactWidth(IndexedDag dag) {
        return dag.size - new Matching(closure(dag), dag.size).maximum();
    }

    /** The most vertices on one topological level: a lower bound of the width. */
    static int levelWidth(IndexedDag dag) {
        int[] perLevel = new int[Math.max(1, dag.size)];
        int widest = 0;
        for (int level : dag.levels()) {
            widest = Math.max(widest, ++perLevel[level]);
        }
        return widest;
    }

    /** Row {@code u} has bit {@code v} set iff a non-empty path leads from {@code u} to {@code v}. */
    static long[][] closure(IndexedDag dag) {
        int words = (dag.size + 63) >>> 6;
        long[][] reach = new long[dag.size][];
        for (int u = dag.size - 1; u >= 0; u--) {
            long[] row = new long[words];
            for (int c : dag.children[u]) {
                if ((row[c >>> 6] & 1L << c) == 0) {
                    row[c >>> 6] |= 1L << c;
                    long[] below = reach[c];
                    for (int i = 0; i < words; i++) {
                        row[i] |= below[i];
                    }
                }
            }
            reach[u] = row;
        }
        return reach;
    }

    /** Maximum matching in the bipartite graph {@code u → v for each bit v of row u}. */
    private static final class Matching {
        private final long[][] rows;
        private final int n;
        private final int words;
        private final int[] matchLeft;
        private final int[] matchRight;
        private final int[] discoveredBy;
        private final int[] rootOf;
        private final boolean[] rootDone;
        private final int[] queue;
        private final long[] visited;

        Matching(long[][] rows, int n) {
            this.rows = rows;
            this.n = n;
            this.words = (n + 63) >>> 6;
            matchLeft = new int[n];
            matchRight = new int[n];
            discoveredBy = new int[n];
            rootOf = new int[n];
            rootDone = new boolean[n];
            queue = new int[n];
            visited = new long[words];
            Arrays.fill(matchLeft, FREE);
            Arrays.fill(matchRight, FREE);
        }

        int maximum() {
            int size = greedy();
            for (int augmented = phase(); augmented > 0; augmented = phase()) {
                size += augmented;
            }
            return size;
        }

        private int greedy() {
            long[] free = new long[words];
            for (int v = 0; v < n; v++) {
                free[v >>> 6] |= 1L << v;
            }
            int size = 0;
            for (int u = 0; u < n; u++) {
                for (int i = 0; i < words; i++) {
                    long candidates = rows[u][i] & free[i];
                    if (candidates != 0) {
                        int v = i << 6 | Long.numberOfTrailingZeros(candidates);
                        free[i] &= ~(1L << v);
                        matchLeft[u] = v;
                        matchRight[v] = u;
                        size++;
                        break;
                    }
                }
            }
            return size;
        }

        /**
         * One alternating breadth-first search from every free left vertex. A tree that reaches a free right
         * vertex augments along its path and stops growing (its vertices changed partners); what it visited
         * stays visited, so the paths of one phase are vertex-disjoint. Returns the number of augmentations.
         */
        private int phase() {
            Arrays.fill(visited, 0);
            int tail = 0;
            for (int u = 0; u < n; u++) {
                if (matchLeft[u] == FREE) {
                    rootOf[u] = u;
                    rootDone[u] = false;
                    queue[tail++] = u;
                }
            }
            int augmented = 0;
            for (int head = 0; head < tail; head++) {
                int u = queue[head];
                if (rootDone[rootOf[u]]) {
                    continue;
                }
                scan:
                for (int i = 0; i < words; i++) {
                    long candidates = rows[u][i] & ~visited[i];
                    while (candidates != 0) {
                        int v = i << 6 | Long.numberOfTrailingZeros(candidates);
                        candidates &= candidates - 1;
                        visited[i] |= 1L << v;
                        discoveredBy[v] = u;
                        int w = matchRight[v];
                        if (w == FREE) {
                            augment(v);
                            rootDone[rootOf[u]] = true;
                            augmented++;
                            break scan;
                        }
                        rootOf[w] = rootOf[u];
                        queue[tail++] = w;
                    }
                }
            }
            return augmented;
        }

        /** Flips the tree path that ends at free right vertex {@code v}: each left vertex takes the next right. */
        private void augment(int v) {
            while (v != FREE) {
                int u = discoveredBy[v];
                int previous = matchLeft[u];
                matchLeft[u] = v;
                matchRight[v] = u;
                v = previous;
            }
        }
    }
}
