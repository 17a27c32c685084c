package dev.polygpu.bench.async;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The dependency graph of a recorded run ({@link Trace}), built with the rules of GrCUDA's scheduler (see
 * GRCUDA-COMPAT.md), and what it allows: the number of kernels, the width (the largest set of kernels no two
 * of which are ordered, by Dilworth's theorem: kernels minus a maximum matching of the reachability
 * relation), the total kernel time and the critical path, from the per-kernel times measured under sync.
 *
 * <p>Rules: under {@code no-const} any array two kernels share orders them; under {@code with-const} a
 * reader depends on the last writer, and a writer on the last writer and on every reader since. A host read
 * waits for the array's last writer, a host write also for its readers; the host thread then submits
 * everything after it, so every later element depends on the host access (a host sync point).
 *
 * @param kernels      kernel launches in the run
 * @param width        the largest number of kernels that may run at once
 * @param workMs       the sum of the kernels' times
 * @param criticalMs   the longest chain of dependent kernels, in time
 */
record DagModel(int kernels, int width, double workMs, double criticalMs) {

    /** The speedup over running the kernels one after another that {@code cores} cores allow at best. */
    double boundSpeedup(int cores) {
        return workMs / Math.max(criticalMs, workMs / cores);
    }

    /** The model of {@code nodes} (from one or more runs of the same program: times are per node, in ns). */
    static DagModel of(List<Trace.Node> nodes, boolean withConst) {
        int n = nodes.size();
        List<BitSet> parents = dependencies(nodes, withConst);
        // reachability (ancestors) in program order, which is a topological order
        BitSet[] ancestors = new BitSet[n];
        double[] finish = new double[n];
        double critical = 0;
        double work = 0;
        for (int i = 0; i < n; i++) {
            ancestors[i] = new BitSet(n);
            double start = 0;
            for (int p = parents.get(i).nextSetBit(0); p >= 0; p = parents.get(i).nextSetBit(p + 1)) {
                ancestors[i].or(ancestors[p]);
                ancestors[i].set(p);
                start = Math.max(start, finish[p]);
            }
            double ms = nodes.get(i).nanos() / 1e6;
            finish[i] = start + ms;
            critical = Math.max(critical, finish[i]);
            work += ms;
        }
        List<Integer> kernelIds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!nodes.get(i).host()) {
                kernelIds.add(i);
            }
        }
        return new DagModel(kernelIds.size(), kernelIds.size() - maxMatching(kernelIds, ancestors), work, critical);
    }

    /** Each node's parents (indices of earlier nodes) under the rules above. */
    static List<BitSet> dependencies(List<Trace.Node> nodes, boolean withConst) {
        Map<Integer, Integer> lastWriter = new HashMap<>();
        Map<Integer, List<Integer>> readers = new HashMap<>();
        Map<Integer, Integer> lastUser = new HashMap<>();
        List<BitSet> parents = new ArrayList<>();
        int lastHost = -1;
        for (int i = 0; i < nodes.size(); i++) {
            Trace.Node node = nodes.get(i);
            BitSet deps = new BitSet();
            if (lastHost >= 0) {
                deps.set(lastHost);
            }
            for (Trace.Use use : node.uses()) {
                int a = use.array();
                List<Integer> rs = readers.computeIfAbsent(a, k -> new ArrayList<>());
                if (!node.host() && !withConst) {
                    setIfPresent(deps, lastUser.get(a));
                } else {
                    setIfPresent(deps, lastWriter.get(a));
                    if (use.mode().writes()) {
                        rs.forEach(deps::set);
                    }
                }
                lastUser.put(a, i);
                if (use.mode().writes()) {
                    lastWriter.put(a, i);
                    rs.clear();
                } else {
                    rs.add(i);
                }
            }
            deps.clear(i);
            parents.add(deps);
            if (node.host()) {
                lastHost = i;
            }
        }
        return parents;
    }

    private static void setIfPresent(BitSet deps, Integer node) {
        if (node != null) {
            deps.set(node);
        }
    }

    /** Maximum matching of "u reaches v" between kernels (Kuhn's augmenting paths; graphs have tens of nodes). */
    private static int maxMatching(List<Integer> kernels, BitSet[] ancestors) {
        int k = kernels.size();
        int[] matchOfRight = new int[k];
        java.util.Arrays.fill(matchOfRight, -1);
        int matched = 0;
        for (int u = 0; u < k; u++) {
            if (augment(u, kernels, ancestors, matchOfRight, new boolean[k])) {
                matched++;
            }
        }
        return matched;
    }

    private static boolean augment(int u, List<Integer> kernels, BitSet[] ancestors, int[] matchOfRight,
            boolean[] seen) {
        for (int v = 0; v < kernels.size(); v++) {
            if (!seen[v] && ancestors[kernels.get(v)].get(kernels.get(u))) {
                seen[v] = true;
                if (matchOfRight[v] < 0 || augment(matchOfRight[v], kernels, ancestors, matchOfRight, seen)) {
                    matchOfRight[v] = u;
                    return true;
                }
            }
        }
        return false;
    }
}
