package dev.polygpu.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DagMetricsTest {
    private static final long SEED = 20_240_611L;

    private final ScheduleRecorder recorder = new ScheduleRecorder();
    private final SyntheticSchedule schedule = new SyntheticSchedule(recorder);

    private DagMetrics metrics() {
        return DagMetrics.of(recorder.snapshot());
    }

    @Test
    void chain() {
        long x = schedule.array("x");
        long a = schedule.kernel("init").writes(x).takes(100).submit();
        long b = schedule.kernel("square").readsWrites(x).takes(200).submit();
        long c = schedule.kernel("square").readsWrites(x).takes(300).submit();
        long d = schedule.element(ElementKind.HOST_READ, "").reads(x).takes(50).submit();

        DagMetrics m = metrics();
        assertEquals(4, m.elementCount());
        assertEquals(3, m.edgeCount());
        assertEquals(1, m.width());
        assertTrue(m.widthExact());
        assertEquals(0, m.degreeOfAsynchronicity());
        assertArrayEquals(new long[] {a, b, c, d}, m.criticalPathIds());
        assertEquals(650_000, m.criticalPathNanos(), "host elements count with their duration");
        assertEquals(0.65, m.criticalPathMillis(), 1e-12);
        assertEquals(4, m.longestChain().size());
        assertEquals(650_000, m.makespanNanos());
    }

    @Test
    void forkJoin() {
        long in = schedule.array("in");
        long sum = schedule.array("sum");
        long fill = schedule.kernel("fill").writes(in).takes(10).submit();
        long[] parts = new long[4];
        List<Long> branches = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            parts[i] = schedule.array("part" + i);
            branches.add(schedule.kernel("partial").reads(in).writes(parts[i]).on(1 + i).takes(100 + 50 * i).submit());
        }
        long join = schedule.kernel("combine").reads(parts).writes(sum).takes(20).submit();

        DagMetrics m = metrics();
        assertEquals(6, m.elementCount());
        assertEquals(8, m.edgeCount());
        assertEquals(4, m.width());
        assertEquals(3, m.degreeOfAsynchronicity());
        assertArrayEquals(new long[] {fill, branches.get(3), join}, m.criticalPathIds());
        assertEquals(280_000, m.criticalPathNanos());
        assertEquals(3, m.longestChain().size());
        assertEquals(280_000, m.makespanNanos(), "the branches ran on four streams");
    }

    @Test
    void diamond() {
        long x = schedule.array("x");
        long y = schedule.array("y");
        long z = schedule.array("z");
        long a = schedule.kernel("a").writes(x).submit();
        long b = schedule.kernel("b").reads(x).writes(y).takes(30).submit();
        long c = schedule.kernel("c").reads(x).writes(z).on(2).takes(40).submit();
        long w = schedule.array("w");
        long d = schedule.kernel("d").reads(y, z).writes(w).submit();

        DagMetrics m = metrics();
        assertEquals(4, recorder.snapshot().dependencies().size());
        assertEquals(2, m.width());
        assertArrayEquals(new long[] {a, c, d}, m.criticalPathIds());
        assertEquals(60_000, m.criticalPathNanos());
        assertEquals(60_000, m.makespanNanos());
        assertEquals(List.of("a", "b", "d"), m.longestChain().stream().map(RecordedElement::label).toList(),
                "ties go to the earliest submitted parent");
    }

    @Test
    void twoIndependentChains() {
        long x = schedule.array("x");
        long y = schedule.array("y");
        for (int i = 0; i < 3; i++) {
            schedule.kernel("x" + i).readsWrites(x).on(1).takes(10).submit();
        }
        List<Long> ys = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ys.add(schedule.kernel("y" + i).readsWrites(y).on(2).takes(40).submit());
        }

        DagMetrics m = metrics();
        assertEquals(2, m.width());
        assertEquals(ys, m.criticalPath().stream().map(RecordedElement::id).toList(), "the longer by time");
        assertEquals(80_000, m.criticalPathNanos());
        assertEquals(List.of("x0", "x1", "x2"), m.longestChain().stream().map(RecordedElement::label).toList(),
                "the longer by count");
        assertEquals(80_000, m.makespanNanos());
        assertTrue(m.summary().contains("longest chain 3 elements"), m.summary());
    }

    /**
     * The pattern of HITS (hubs and authorities): per iteration two sparse matrix-vector products, two sums and
     * two normalizations that pair up, each step reading the other vector of the previous iteration.
     */
    @Test
    void hitsLikeIterations() {
        long matrix = schedule.array("A");
        long transposed = schedule.array("At");
        long[] hub = {schedule.array("hub0"), schedule.array("hub1")};
        long[] auth = {schedule.array("auth0"), schedule.array("auth1")};
        long hubSum = schedule.array("hubSum");
        long authSum = schedule.array("authSum");
        schedule.element(ElementKind.HOST_WRITE, "init").writes(hub[0], auth[0], matrix, transposed).submit();
        int iterations = 5;
        for (int i = 0; i < iterations; i++) {
            int from = i % 2;
            int to = 1 - from;
            schedule.kernel("spmv").reads(transposed, hub[from]).writes(auth[to]).on(1).takes(50).submit();
            schedule.kernel("spmv").reads(matrix, auth[from]).writes(hub[to]).on(2).takes(60).submit();
            schedule.kernel("sum").reads(auth[to]).writes(authSum).on(1).takes(5).submit();
            schedule.kernel("sum").reads(hub[to]).writes(hubSum).on(2).takes(5).submit();
            schedule.kernel("divide").reads(authSum).readsWrites(auth[to]).on(1).takes(3).submit();
            schedule.kernel("divide").reads(hubSum).readsWrites(hub[to]).on(2).takes(3).submit();
        }
        schedule.element(ElementKind.HOST_READ, "result").reads(hub[iterations % 2]).submit();

        DagMetrics m = metrics();
        assertEquals(2 + 6 * iterations, m.elementCount());
        assertEquals(2, m.width());
        assertEquals(1, m.degreeOfAsynchronicity());
        assertEquals(1 + 3 * iterations + 1, m.criticalPath().size());
        // Each product reads the vector the other half made, so the path alternates between them.
        assertEquals(10_000 + (60_000 + 50_000 + 60_000 + 50_000 + 60_000) + iterations * 8_000L + 10_000,
                m.criticalPathNanos());
        assertEquals(10_000 + iterations * 68_000L + 10_000, m.makespanNanos(),
                "longer than the critical path: stream 2 runs all the 60 µs products one after another");
    }

    @Test
    void emptyDag() {
        DagMetrics m = metrics();
        assertEquals(0, m.width());
        assertEquals(0, m.degreeOfAsynchronicity());
        assertTrue(m.criticalPath().isEmpty());
        assertEquals(0, m.makespanNanos());
        assertEquals("DAG: 0 elements, 0 edges, width 0 (degree of asynchronicity 0), critical path 0 ms over 0 "
                + "elements, makespan 0 ms", m.summary());
    }

    @Test
    void summaryNamesTheCriticalPath() {
        long x = schedule.array("x");
        long y = schedule.array("y");
        for (int i = 0; i < 8; i++) {
            schedule.kernel(i == 0 ? "square" : "reduce").readsWrites(x).takes(1_000).submit();
        }
        schedule.kernel("other").readsWrites(y).on(2).takes(1_500).fails("boom").submit();
        recorder.submitted(new ElementInfo(999, ElementKind.KERNEL, "pending", List.of()), new long[0]);

        assertEquals("DAG: 10 elements, 7 edges, width 3 (degree of asynchronicity 2), critical path 8.00 ms over 8 "
                + "elements (square → reduce → reduce → reduce → reduce → …), makespan 8.00 ms, 1 failed, "
                + "1 not completed", metrics().summary());
    }

    @Test
    void largeDagsGetALowerBoundThatSaysSo() {
        int chains = 5;
        int length = (DagMetrics.DEFAULT_EXACT_WIDTH_LIMIT + chains) / chains;
        long[] arrays = new long[chains];
        for (int c = 0; c < chains; c++) {
            arrays[c] = schedule.array("x" + c);
        }
        for (int i = 0; i < length; i++) {
            for (int c = 0; c < chains; c++) {
                schedule.kernel("k").readsWrites(arrays[c]).on(c).takes(1).submit();
            }
        }

        DagMetrics m = metrics();
        assertTrue(m.elementCount() > DagMetrics.DEFAULT_EXACT_WIDTH_LIMIT);
        assertFalse(m.widthExact());
        assertEquals(chains, m.width());
        assertEquals(length, m.longestChain().size());
        assertTrue(m.summary().contains("width ≥ 5 (lower bound from topological levels; degree of "
                + "asynchronicity ≥ 4)"), m.summary());
    }

    /** r → y, r → s → z, and x alone: {x, y, z} is an antichain across three levels, each level has two. */
    @Test
    void theLevelBoundCanBeBelowTheWidth() {
        long r = schedule.kernel("r").after().submit();
        schedule.kernel("x").after().submit();
        schedule.kernel("y").after(r).submit();
        long s = schedule.kernel("s").after(r).submit();
        schedule.kernel("z").after(s).submit();

        RecordedDag dag = recorder.snapshot();
        assertEquals(3, DagMetrics.of(dag).width());
        assertEquals(2, DagMetrics.of(dag, 0).width());
        assertFalse(DagMetrics.of(dag, 4).widthExact());
        assertTrue(DagMetrics.of(dag, 5).widthExact());
    }

    @Test
    void widthMatchesBruteForceOnRandomDags() {
        Random random = new Random(SEED);
        for (int round = 0; round < 400; round++) {
            int n = 1 + random.nextInt(12);
            double density = random.nextDouble() * 0.6;
            ScheduleRecorder dagRecorder = new ScheduleRecorder();
            boolean[][] edge = new boolean[n][n];
            for (int v = 0; v < n; v++) {
                List<Long> parents = new ArrayList<>();
                for (int u = 0; u < v; u++) {
                    if (random.nextDouble() < density) {
                        edge[u][v] = true;
                        parents.add((long) u + 1);
                    }
                }
                dagRecorder.submitted(new ElementInfo(v + 1, ElementKind.KERNEL, "k", List.of()),
                        parents.stream().mapToLong(Long::longValue).toArray());
            }
            int expected = bruteForceWidth(edge);
            assertEquals(expected, DagMetrics.of(dagRecorder.snapshot()).width(),
                    "round " + round + ", n " + n + " (seed " + SEED + ")");
            assertTrue(DagMetrics.of(dagRecorder.snapshot(), 0).width() <= expected,
                    "the level bound, round " + round + " (seed " + SEED + ")");
        }
    }

    /** Larger DAGs, where matching needs several phases, against Kuhn's augmenting paths on the closure. */
    @Test
    void widthMatchesAReferenceMatchingOnLargerRandomDags() {
        Random random = new Random(SEED + 1);
        for (int round = 0; round < 30; round++) {
            int n = 50 + random.nextInt(250);
            int window = 1 + random.nextInt(n);
            double density = random.nextDouble() * 4 / window;
            ScheduleRecorder dagRecorder = new ScheduleRecorder();
            boolean[][] edge = new boolean[n][n];
            for (int v = 0; v < n; v++) {
                List<Long> parents = new ArrayList<>();
                for (int u = Math.max(0, v - window); u < v; u++) {
                    if (random.nextDouble() < density) {
                        edge[u][v] = true;
                        parents.add((long) u + 1);
                    }
                }
                dagRecorder.submitted(new ElementInfo(v + 1, ElementKind.KERNEL, "k", List.of()),
                        parents.stream().mapToLong(Long::longValue).toArray());
            }
            assertEquals(n - kuhnMatching(transitiveClosure(edge)), DagMetrics.of(dagRecorder.snapshot()).width(),
                    "round " + round + ", n " + n + " (seed " + (SEED + 1) + ")");
        }
    }

    private static int kuhnMatching(boolean[][] path) {
        int[] matchRight = new int[path.length];
        Arrays.fill(matchRight, -1);
        int size = 0;
        for (int u = 0; u < path.length; u++) {
            if (tryKuhn(u, path, matchRight, new boolean[path.length])) {
                size++;
            }
        }
        return size;
    }

    private static boolean tryKuhn(int u, boolean[][] path, int[] matchRight, boolean[] seen) {
        for (int v = 0; v < path.length; v++) {
            if (path[u][v] && !seen[v]) {
                seen[v] = true;
                if (matchRight[v] < 0 || tryKuhn(matchRight[v], path, matchRight, seen)) {
                    matchRight[v] = u;
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean[][] transitiveClosure(boolean[][] edge) {
        int n = edge.length;
        boolean[][] path = new boolean[n][];
        for (int u = 0; u < n; u++) {
            path[u] = edge[u].clone();
        }
        for (int k = 0; k < n; k++) {
            for (int u = 0; u < n; u++) {
                if (path[u][k]) {
                    for (int v = 0; v < n; v++) {
                        path[u][v] |= path[k][v];
                    }
                }
            }
        }
        return path;
    }

    private static int bruteForceWidth(boolean[][] edge) {
        int n = edge.length;
        boolean[][] path = transitiveClosure(edge);
        int best = 0;
        for (int set = 1; set < 1 << n; set++) {
            if (Integer.bitCount(set) > best && isAntichain(set, path)) {
                best = Integer.bitCount(set);
            }
        }
        return best;
    }

    private static boolean isAntichain(int set, boolean[][] path) {
        for (int u = 0; u < path.length; u++) {
            for (int v = 0; v < path.length; v++) {
                if ((set >> u & 1) == 1 && (set >> v & 1) == 1 && path[u][v]) {
                    return false;
                }
            }
        }
        return true;
    }
}
