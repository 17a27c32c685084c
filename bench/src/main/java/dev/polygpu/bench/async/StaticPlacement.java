package dev.polygpu.bench.async;

import dev.polygpu.device.cpu.CpuLink;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The best static placement of a recorded DAG ({@link Trace}) on {@code n} devices, computed offline: the
 * kernel → device assignment that minimizes the modelled makespan, against which the device selection policies'
 * measured makespans are compared ({@link MultiDeviceDagBench}).
 *
 * <p><b>The model.</b> Nodes are taken in program order. A kernel on device {@code d} starts when {@code d} has
 * finished the kernels placed on it before (one kernel at a time per device, in program order), its parents
 * ({@link DagModel#dependencies}) have finished, the host has submitted it (after the last host access), and each
 * of its arrays, whatever the access, is up to date on {@code d}: an array held elsewhere arrives from the location
 * where it comes soonest, {@code latency + bytes / bandwidth} of the link after it was up to date there (transfers
 * do not contend with each other or with kernels, as the CPU devices' simulated link parks no core). It then takes
 * its time measured under sync on one device. A write leaves its array up to date on the writer's device only; a
 * transfer adds a copy. A host access waits for its parents and brings the array home if the host's copy is stale;
 * a host write leaves only the host's copy. Every array starts on the host. On CPU devices the host's copies are
 * device 0's buffers, so copies between the host and device 0 cost nothing; with one device nothing is copied.
 * The makespan is the last kernel's or host access's end.
 *
 * <p><b>The search.</b> Depth-first over the kernels in program order, trying each device in the order of the
 * kernel's modelled end (so the first leaf is the greedy earliest-finish placement), with devices 1 … n-1
 * interchangeable (a kernel goes to a device above 0 only if it is used already or the lowest unused one), and
 * pruning a partial placement whose lower bound reaches the best makespan found: the largest of the ends so far,
 * (the devices' busy time + the remaining kernels' time) / n, and the longest path through the remaining nodes.
 * It stops after {@code budget} partial placements; the result then says it is the best found, not a proven optimum,
 * and gives the root's lower bound.
 *
 * <p>Not thread-safe.
 */
final class StaticPlacement {
    /** The best placement found: each kernel's device (in program order), its modelled makespan and transfers. */
    record Best(int[] devices, double makespanMs, boolean exact, double lowerBoundMs, long searched, int transfers,
            long bytes) {
    }

    private final int n;
    private final CpuLink link;
    private final List<Trace.Node> nodes;
    private final long[] bytes;
    private final int[][] parents;
    private final int[] kernelNodes;
    private final double[] ms;
    private final double[] workFrom;
    private final int arrays;
    private final double[] est;
    private State[][] levels;
    private double bestMs;
    private int[] bestDevices;
    private long searched;
    private long budget;

    /**
     * The model of {@code nodes} (kernel times in ns, measured under sync) on {@code devices} devices joined by
     * {@code link}, dependencies under {@code with-const} or not; {@code bytes[a]} is array {@code a}'s size.
     */
    StaticPlacement(List<Trace.Node> nodes, long[] bytes, int devices, CpuLink link, boolean withConst) {
        if (devices < 1) {
            throw new IllegalArgumentException("devices must be at least 1, got " + devices);
        }
        this.n = devices;
        this.link = link;
        this.nodes = List.copyOf(nodes);
        this.bytes = bytes.clone();
        List<BitSet> deps = DagModel.dependencies(this.nodes, withConst);
        this.parents = new int[deps.size()][];
        for (int i = 0; i < parents.length; i++) {
            parents[i] = deps.get(i).stream().toArray();
        }
        this.kernelNodes = java.util.stream.IntStream.range(0, this.nodes.size())
                .filter(i -> !this.nodes.get(i).host()).toArray();
        this.ms = this.nodes.stream().mapToDouble(node -> node.host() ? 0 : node.nanos() / 1e6).toArray();
        this.workFrom = new double[kernelNodes.length + 1];
        for (int k = kernelNodes.length - 1; k >= 0; k--) {
            workFrom[k] = workFrom[k + 1] + ms[kernelNodes[k]];
        }
        int maxArray = -1;
        for (Trace.Node node : this.nodes) {
            for (Trace.Use u : node.uses()) {
                maxArray = Math.max(maxArray, u.array());
            }
        }
        if (maxArray >= bytes.length) {
            throw new IllegalArgumentException("array " + maxArray + " is used but only " + bytes.length
                    + " sizes were given");
        }
        this.arrays = maxArray + 1;
        this.est = new double[this.nodes.size()];
    }

    int kernels() {
        return kernelNodes.length;
    }

    /** The modelled makespan (ms) of placing kernel {@code k} (program order) on {@code devices[k]}. */
    double makespan(int[] devices) {
        return simulate(devices).end;
    }

    /** The transfers of that placement, and their bytes: {count, bytes}. */
    long[] transfers(int[] devices) {
        State s = simulate(devices);
        return new long[] {s.transfers, s.moved};
    }

    private State simulate(int[] devices) {
        if (devices.length != kernelNodes.length) {
            throw new IllegalArgumentException(kernelNodes.length + " kernels, " + devices.length + " devices given");
        }
        State s = root();
        for (int k = 0; k < devices.length; k++) {
            if (devices[k] < 0 || devices[k] >= n) {
                throw new IllegalArgumentException("kernel " + k + " on device " + devices[k] + " of " + n);
            }
            advance(s, k, devices[k]);
        }
        return s;
    }

    /** The best placement, searching at most {@code budget} partial placements. */
    Best search(long budget) {
        this.budget = budget;
        this.searched = 0;
        this.bestMs = Double.POSITIVE_INFINITY;
        this.bestDevices = null;
        int k = kernelNodes.length;
        levels = new State[k + 1][n];
        for (State[] level : levels) {
            for (int d = 0; d < n; d++) {
                level[d] = new State(n, arrays, nodes.size());
            }
        }
        State root = root();
        double rootBound = lowerBound(root, 0);
        dfs(root, 0, new int[k], 0);
        boolean exact = searched < budget;
        long[] moved = transfers(bestDevices);
        return new Best(bestDevices.clone(), bestMs, exact, exact ? bestMs : rootBound, searched, (int) moved[0],
                moved[1]);
    }

    private void dfs(State s, int k, int[] chosen, int maxUsed) {
        if (k == kernelNodes.length) {
            if (s.end < bestMs) {
                bestMs = s.end;
                bestDevices = chosen.clone();
            }
            return;
        }
        int allowed = Math.min(n - 1, maxUsed + 1);
        State[] children = levels[k + 1];
        Integer[] order = new Integer[allowed + 1];
        for (int d = 0; d <= allowed; d++) {
            children[d].copyFrom(s);
            advance(children[d], k, d);
            order[d] = d;
        }
        double[] ends = new double[allowed + 1];
        for (int d = 0; d <= allowed; d++) {
            ends[d] = children[d].finish[kernelNodes[k]];
        }
        Arrays.sort(order, (a, b) -> Double.compare(ends[a], ends[b]));
        for (int d : order) {
            if (searched >= budget && bestDevices != null) {
                return;
            }
            searched++;
            State child = children[d];
            if (lowerBound(child, k + 1) >= bestMs - 1e-9) {
                continue;
            }
            chosen[k] = d;
            // children[d] is overwritten by deeper levels only at k + 2 and beyond, so it stays valid here
            dfs(child, k + 1, chosen, Math.max(maxUsed, d));
        }
    }

    private State root() {
        State s = new State(n, arrays, nodes.size());
        Arrays.fill(s.avail, Double.POSITIVE_INFINITY);
        for (int a = 0; a < arrays; a++) {
            s.avail[a * (n + 1) + n] = 0;
        }
        int first = kernelNodes.length == 0 ? nodes.size() : kernelNodes[0];
        for (int i = 0; i < first; i++) {
            host(s, i);
        }
        return s;
    }

    /** Places kernel {@code k} on {@code d}, then the host accesses up to the next kernel. */
    private void advance(State s, int k, int d) {
        kernel(s, kernelNodes[k], d);
        int next = k + 1 < kernelNodes.length ? kernelNodes[k + 1] : nodes.size();
        for (int i = kernelNodes[k] + 1; i < next; i++) {
            host(s, i);
        }
    }

    private void kernel(State s, int node, int d) {
        double start = Math.max(s.devFree[d], s.host);
        for (int p : parents[node]) {
            start = Math.max(start, s.finish[p]);
        }
        List<Trace.Use> uses = nodes.get(node).uses();
        for (Trace.Use u : uses) {
            start = Math.max(start, bring(s, u.array(), d));
        }
        double end = start + ms[node];
        for (Trace.Use u : uses) {
            if (u.mode().writes()) {
                only(s, u.array(), d, end);
            }
        }
        s.finish[node] = end;
        s.devFree[d] = end;
        s.end = Math.max(s.end, end);
    }

    private void host(State s, int node) {
        double t = s.host;
        for (int p : parents[node]) {
            t = Math.max(t, s.finish[p]);
        }
        for (Trace.Use u : nodes.get(node).uses()) {
            t = Math.max(t, bring(s, u.array(), n));
        }
        for (Trace.Use u : nodes.get(node).uses()) {
            if (u.mode().writes()) {
                only(s, u.array(), n, t);
            }
        }
        s.finish[node] = t;
        s.host = t;
        s.end = Math.max(s.end, t);
    }

    /** When array {@code a} is up to date at {@code loc}, copying it there (and counting the copy) if needed. */
    private double bring(State s, int a, int loc) {
        int base = a * (n + 1);
        if (s.avail[base + loc] < Double.POSITIVE_INFINITY) {
            return s.avail[base + loc];
        }
        double arrival = Double.POSITIVE_INFINITY;
        for (int from = 0; from <= n; from++) {
            double at = s.avail[base + from];
            if (at < Double.POSITIVE_INFINITY) {
                arrival = Math.min(arrival, at + copyMs(from, loc, bytes[a]));
            }
        }
        s.avail[base + loc] = arrival;
        if (n > 1) {
            s.transfers++;
            s.moved += bytes[a];
        }
        return arrival;
    }

    private void only(State s, int a, int loc, double at) {
        int base = a * (n + 1);
        Arrays.fill(s.avail, base, base + n + 1, Double.POSITIVE_INFINITY);
        s.avail[base + loc] = at;
    }

    /** Locations 0 … n-1 are devices, n the host, whose memory is device 0's. */
    private double copyMs(int from, int to, long size) {
        if (n == 1 || from == to || (from == 0 && to == n) || (from == n && to == 0)) {
            return 0;
        }
        return link.nanosFor(size) / 1e6;
    }

    /** A lower bound on the makespan of any completion of {@code s}, whose next kernel is {@code k}. */
    private double lowerBound(State s, int k) {
        double busy = 0;
        for (double f : s.devFree) {
            busy += f;
        }
        double bound = Math.max(s.end, (busy + workFrom[k]) / n);
        int first = k < kernelNodes.length ? kernelNodes[k] : nodes.size();
        for (int j = first; j < nodes.size(); j++) {
            double start = s.host;
            for (int p : parents[j]) {
                start = Math.max(start, p < first ? s.finish[p] : est[p] + ms[p]);
            }
            est[j] = start;
            bound = Math.max(bound, start + ms[j]);
        }
        return bound;
    }

    /** What a partial placement has come to: per device, node and array (×location). */
    private static final class State {
        final double[] devFree;
        final double[] finish;
        final double[] avail;
        double host;
        double end;
        int transfers;
        long moved;

        State(int devices, int arrays, int nodes) {
            devFree = new double[devices];
            finish = new double[nodes];
            avail = new double[arrays * (devices + 1)];
        }

        void copyFrom(State o) {
            System.arraycopy(o.devFree, 0, devFree, 0, devFree.length);
            System.arraycopy(o.finish, 0, finish, 0, finish.length);
            System.arraycopy(o.avail, 0, avail, 0, avail.length);
            host = o.host;
            end = o.end;
            transfers = o.transfers;
            moved = o.moved;
        }
    }
}
