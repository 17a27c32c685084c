package dev.polygpu.bench.cluster;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Markdown tables of {@code bench/cluster}: the workload, makespans against perfect balance, where the
 * kernels ran, the stealing counters, join-to-work, and the goals. Prints to the stream it is given.
 */
final class Report {
    private final BenchOptions options;
    private final BlockSparse matrices;
    /** Each kernel's device time per block, in submission order. */
    private final double[] nominal;
    private final PrintStream out;

    Report(BenchOptions options, BlockSparse matrices, double[] nominal, PrintStream out) {
        this.options = options;
        this.matrices = matrices;
        this.nominal = nominal.clone();
        this.out = out;
    }

    /** Σ device time / (members × concurrent kernels per member). */
    private double perfectNominal() {
        return Balance.perfect(nominal, (options.workers() + 1) * options.slotsPerMember());
    }

    /** The program-alone median spread over all members. */
    private double perfectMeasured(Measured alone) {
        return Stats.median(alone.makespansMs()) / (options.workers() + 1);
    }

    private static double sum(double[] xs) {
        double s = 0;
        for (double x : xs) {
            s += x;
        }
        return s;
    }

    /** The matrices, the kernels' device times and the members. */
    void workload() {
        int t = options.tiles();
        int[] products = new int[t];
        for (int i = 0; i < t; i++) {
            products[i] = matrices.products(i);
        }
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double x : nominal) {
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        out.println("| tiles | tile | zero tiles of A | products per C tile, rows 0.." + (t - 1) + " | kernels | ms per "
                + "product | kernel device time | total device time | members x blocks | blocks per kernel |");
        out.println("|---|---|---:|---|---:|---:|---|---:|---|---:|");
        out.printf("| %d x %d | %d x %d floats | %d of %d | %s | %d | %d | %.0f–%.0f ms | %.0f ms | %d x %d | %d |%n",
                t, t, options.tileSize(), options.tileSize(), matrices.zeroTiles(), t * t,
                Arrays.toString(products).replace("[", "").replace("]", ""), t * t, options.msPerProduct(),
                min, max, sum(nominal) * options.kernelBlocks(), options.workers() + 1, options.cpuBlocks(),
                options.kernelBlocks());
        out.println();
    }

    /** Makespans of the configurations; the last is the one with stealing. The first is the program alone. */
    void makespans(List<Measured> configs) {
        int members = options.workers() + 1;
        double perfectNominal = perfectNominal();
        double perfectMeasured = perfectMeasured(configs.get(0));
        double listBound = Balance.listSchedule(nominal, members * options.slotsPerMember());
        double slotTotal = sum(nominal) * options.kernelBlocks();
        out.println("| configuration | runs | makespan ms, median | min–max | perfect balance ms | makespan / perfect "
                + "| efficiency (perfect / makespan) | load average before → after |");
        out.println("|---|---:|---:|---|---:|---:|---:|---|");
        for (Measured m : configs) {
            double[] ms = m.makespansMs();
            double med = Stats.median(ms);
            double perfect = m.members() == 1 ? Balance.perfect(nominal, options.slotsPerMember())
                    : perfectMeasured;
            out.printf("| %s | %d | %.1f | %.1f–%.1f | %.1f%s | %.2fx | %.0f%% | %.1f → %.1f |%n", m.label(), ms.length,
                    med, Stats.min(ms), Stats.max(ms), perfect, m.members() == 1 ? " (nominal)" : " (measured)",
                    med / perfect, 100 * perfect / med, m.loadBefore(), m.loadAfter());
        }
        out.printf("| perfect balance, nominal: %.0f ms device time / (%d members x %d) | | %.1f | | | | | |%n",
                slotTotal, members, options.cpuBlocks(), perfectNominal);
        out.printf("| perfect balance, measured: 1-member median / %d | | %.1f | | | | | |%n", members,
                perfectMeasured);
        out.printf("| greedy list schedule in submission order, zero latency (%d slots) | | %.1f | | | %.2fx nominal "
                + "| | |%n", members * options.slotsPerMember(), listBound, listBound / perfectNominal);
        out.println();
        Measured steal = configs.get(configs.size() - 1);
        double med = Stats.median(steal.makespansMs());
        out.printf("Stealing on %d members: %.0f%% of perfect balance against the measured total, %.0f%% against the "
                + "nominal device time.%n%n", members, 100 * perfectMeasured / med, 100 * perfectNominal / med);
    }

    /** Where the kernels of {@code m}'s runs ran, member by member (medians over the runs it worked in). */
    void placement(Measured m) {
        Map<String, List<RunResult.Share>> byMember = new LinkedHashMap<>();
        Map<String, List<Double>> busy = new LinkedHashMap<>();
        Map<String, List<Double>> idle = new LinkedHashMap<>();
        for (RunResult r : m.runs()) {
            for (Map.Entry<String, RunResult.Share> e : r.members().entrySet()) {
                byMember.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
                idle.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add((r.makespanNanos()
                        - e.getValue().lastEndNanos()) / 1e6);
                // The share of the member's blocks that its kernels' device time filled over the run.
                busy.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(100 * e.getValue().nominalMs()
                        * options.kernelBlocks() / (options.cpuBlocks() * r.makespanNanos() / 1e6));
            }
        }
        double total = sum(nominal);
        out.println("| " + m.label() + ": member | runs it worked in | kernels, median | device time share, median | "
                + "blocks busy (device time / run), median | first kernel starts, ms after submit | last kernel ends, "
                + "ms after submit | idle before the run ends, ms |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (Map.Entry<String, List<RunResult.Share>> e : byMember.entrySet()) {
            List<RunResult.Share> s = e.getValue();
            double[] kernels = new double[s.size()];
            double[] share = new double[s.size()];
            double[] first = new double[s.size()];
            double[] last = new double[s.size()];
            for (int x = 0; x < s.size(); x++) {
                kernels[x] = s.get(x).kernels();
                share[x] = 100 * s.get(x).nominalMs() / total;
                first[x] = s.get(x).firstStartNanos() / 1e6;
                last[x] = s.get(x).lastEndNanos() / 1e6;
            }
            double[] b = busy.get(e.getKey()).stream().mapToDouble(Double::doubleValue).toArray();
            double[] before = idle.get(e.getKey()).stream().mapToDouble(Double::doubleValue).toArray();
            out.printf("| %s | %d | %.0f | %.1f%% | %.0f%% | %.1f | %.1f | %.1f |%n", e.getKey(), s.size(),
                    Stats.median(kernels), Stats.median(share), Stats.median(b), Stats.median(first),
                    Stats.median(last), Stats.median(before));
        }
        out.println();
    }

    /** The workers' final counters and the program's per-run counters of each configuration. */
    void counters(List<Measured> configs) {
        out.println("| configuration | member | stolen | steal requests | empty replies | steal latency median | "
                + "p99 | join → first stolen | bytes sent | bytes received |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Measured m : configs) {
            for (WorkerTable w : m.workers()) {
                out.printf("| %s | %s (all %d runs) | %d | %d | %d | %s | %s | %s | %s | %s |%n", m.label(), w.worker(),
                        m.warmups() + options.reps(), w.stolen(), w.requests(), w.emptyReplies(),
                        ms(w.latencyMedianNanos()), ms(w.latencyP99Nanos()), ms(w.firstStolenNanos()),
                        bytes(w.bytesSent()), bytes(w.bytesReceived()));
            }
            double[] given = new double[m.runs().size()];
            double[] rerun = new double[m.runs().size()];
            double[] sent = new double[m.runs().size()];
            double[] received = new double[m.runs().size()];
            double[] woken = new double[m.runs().size()];
            for (int r = 0; r < given.length; r++) {
                RunResult x = m.runs().get(r);
                given[r] = x.given();
                rerun[r] = x.rerun();
                sent[r] = x.bytesSent();
                received[r] = x.bytesReceived();
                woken[r] = x.wakeUps();
            }
            out.printf("| %s | program (per run, median) | given %.0f (re-run %.0f, thieves woken %.0f) | | | | | | %s "
                    + "| %s |%n", m.label(), Stats.median(given), Stats.median(rerun), Stats.median(woken),
                    bytes((long) Stats.median(sent)),
                    bytes((long) Stats.median(received)));
        }
        out.println();
    }

    /** Each join-to-work try; nothing if there were none. */
    void joins(List<JoinResult> joins, Duration timeout) {
        if (joins.isEmpty()) {
            return;
        }
        out.println("| join to work | worker process started → program sees the member | member seen → its first "
                + "kernel starts | worker's own join → first stolen (firstStolenNanos) | process started → first kernel "
                + "| kernels on the late worker | rounds run |");
        out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (int x = 0; x < joins.size(); x++) {
            JoinResult j = joins.get(x);
            out.printf("| %d | %s | %s | %s | %s | %d | %d |%n", x + 1, millis(j.spawnToSeenMs(), 0, timeout),
                    millis(j.seenToFirstStartMs(), 1, timeout), millis(j.workerFirstStolenMs(), 1, timeout),
                    millis(j.spawnToFirstStartMs(), 0, timeout), j.lateKernels(), j.rounds());
        }
        out.println();
    }

    /** The three goals against what was measured. */
    void goalsHeader() {
        out.println("| goal (issue #8) | target | measured | met? |");
        out.println("|---|---|---|---|");
    }

    void balanceAndLatencyGoals(Measured alone, Measured steal) {
        double perfectNominal = perfectNominal();
        double perfectMeasured = perfectMeasured(alone);
        double med = Stats.median(steal.makespansMs());
        int members = options.workers() + 1;
        out.printf("| balance on %d members | makespan ≤ 1.10 x perfect | %.2fx measured perfect, %.2fx nominal | %s |%n",
                members, med / perfectMeasured, med / perfectNominal, med <= 1.10 * perfectMeasured ? "yes" : "no");
        List<Double> medians = new ArrayList<>();
        long p99 = -1;
        for (WorkerTable w : steal.workers()) {
            if (w.latencyMedianNanos() >= 0) {
                medians.add(w.latencyMedianNanos() / 1e6);
            }
            p99 = Math.max(p99, w.latencyP99Nanos());
        }
        if (medians.isEmpty()) {
            out.println("| steal latency, median | ≤ 2 ms | no steal succeeded | no |");
        } else {
            double m = Stats.median(medians.stream().mapToDouble(Double::doubleValue).toArray());
            out.printf("| steal latency, median | ≤ 2 ms | %.3f ms (median of the workers' medians; worst p99 %s) | %s |%n",
                    m, ms(p99), m <= 2 ? "yes" : "no");
        }
    }

    void joinGoal(List<JoinResult> joins, Duration timeout) {
        if (joins.isEmpty()) {
            out.println("| join to work | ≤ 1 s | not measured (--no-join) | |");
        } else {
            long missed = joins.stream().filter(j -> !j.gotWork()).count();
            double[] seenToWork = joins.stream().filter(JoinResult::gotWork).mapToDouble(JoinResult::seenToFirstStartMs).toArray();
            double[] own = joins.stream().filter(JoinResult::gotWork).mapToDouble(JoinResult::workerFirstStolenMs).toArray();
            if (seenToWork.length == 0) {
                out.printf("| join to work | ≤ 1 s | the late worker got no kernel within %d s in any of %d tries | no |%n",
                        timeout.toSeconds(), joins.size());
            } else {
                double a = Stats.median(seenToWork);
                double b = Stats.median(own);
                double worst = Arrays.stream(seenToWork).max().orElseThrow();
                out.printf("| join to work | ≤ 1 s | %.0f ms from the program seeing the member to its first kernel "
                        + "(worst %.0f ms); %.0f ms by the worker's firstStolenNanos (from its Hazelcast member being "
                        + "up) (medians of %d)%s | %s |%n", a, worst, b, seenToWork.length, missed == 0 ? ""
                        : "; no work within " + timeout.toSeconds() + " s in " + missed + " of " + joins.size()
                        + " tries", missed == 0 && a <= 1000 ? worst <= 1000 ? "yes" : "median yes, not every try"
                        : "no");
            }
        }
        out.println();
    }

    private static String millis(double ms, int decimals, Duration timeout) {
        return Double.isNaN(ms) ? "no work in " + timeout.toSeconds() + " s" : String.format("%." + decimals
                + "f ms", ms);
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "-" : String.format("%.3f ms", nanos / 1e6);
    }

    private static String bytes(long b) {
        if (b >= 10L << 20) {
            return String.format("%.1f MB", b / (double) (1 << 20));
        }
        if (b >= 10L << 10) {
            return String.format("%.1f KB", b / 1024.0);
        }
        return b + " B";
    }
}
