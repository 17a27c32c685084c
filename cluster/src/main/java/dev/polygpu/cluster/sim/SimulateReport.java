package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.ThiefCap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What {@code polygpu simulate} prints and writes about its runs ({@link SimulateCommand}): the line that describes
 * the workload and the settings, a Markdown table row per run with the lines that follow it (host CPU, central list
 * schedule, the spread over seeds), the CSV and the SVG plot of efficiency against members.
 */
final class SimulateReport {
    private SimulateReport() {
    }

    /**
     * One run: whether stealing was on, what happened, its seed, the central list schedule's makespan of its
     * workload (-1 without {@code --central}) and how many members owned its tasks.
     */
    record Row(boolean stealing, SimResult result, long seed, long centralNanos, int owners) {

        /** {@return the central schedule's lower bound / makespan, or NaN without it} */
        double centralEfficiency() {
            return centralNanos < 0 ? Double.NaN : (double) result.lowerBoundNanos() / centralNanos;
        }
    }

    /** The line after a run with {@code --central}: the central schedule against the bound and the run. */
    static String centralLine(Row row, int slots) {
        SimResult r = row.result();
        return String.format(Locale.ROOT, "central list schedule on %,d slots (highest rank first, nothing moves): "
                        + "makespan %s, %.1f%% of the lower bound; the run%s reached %.1f%% of it",
                (long) r.members() * slots, Units.nanos(row.centralNanos()), 100 * row.centralEfficiency(),
                row.stealing() ? "" : " without stealing", 100.0 * row.centralNanos() / r.makespanNanos());
    }

    /** The line after a member count run with several seeds: the efficiency's spread over them. */
    static String seedsLine(List<Row> rows, boolean stealing, SimulateOptions o) {
        double sum = 0;
        double centralSum = 0;
        Row min = null;
        Row max = null;
        int count = 0;
        for (Row row : rows) {
            if (row.stealing() != stealing) {
                continue;
            }
            double e = row.result().efficiency();
            sum += e;
            centralSum += row.centralEfficiency();
            count++;
            if (min == null || e < min.result().efficiency()) {
                min = row;
            }
            if (max == null || e > max.result().efficiency()) {
                max = row;
            }
        }
        return String.format(Locale.ROOT, "%d members%s, %d seeds: efficiency mean %.1f%%, min %.1f%% (seed %d), "
                        + "max %.1f%% (seed %d)%s", min.result().members(), stealing ? "" : " without stealing", count,
                100 * sum / count, 100 * min.result().efficiency(), min.seed(), 100 * max.result().efficiency(),
                max.seed(), o.central ? String.format(Locale.ROOT, "; central list schedule mean %.1f%%",
                        100 * centralSum / count) : "");
    }

    private static String owned(SimulateOptions o) {
        return o.owners > 0 && !o.workload.startsWith("trace:") ? ", owned by the first " + o.owners + " members"
                : "";
    }

    static String describe(SimulateOptions o, Workload w, Network network) {
        StealSettings s = o.settings();
        String settings = "threshold " + s.threshold() + ", chunk " + s.chunk() + ", max hops " + s.maxHops()
                + ", order " + orderName(o.order) + (o.order == SimConfig.Order.RANK_AND_PRIORITIES
                ? " (" + o.priorityLevels + " levels)" : "") + (o.order == SimConfig.Order.SUBMISSION ? ""
                : s.rankFactor() == 0 ? ", no requests by rank" : ", requests by rank above " + s.rankFactor()
                + " x the floor rank" + (s.rankChunk() == s.chunk() ? "" : " for " + s.rankChunk() + " at most")) + (o.stolenOverflow > 0 ? ", stolen tasks up to " + o.stolenOverflow
                + " beyond the window" : "") + (o.forgetAfter > 0 ? ", thieves forget their first victim "
                + "after " + o.forgetAfter + " empty replies through it" : "") + (o.randomEvery > 0
                ? ", every " + o.randomEvery + "th request to a random member" : "") + (o.thiefCap == ThiefCap.OFF
                ? "" : ", thief cap " + o.thiefCap.name().toLowerCase(Locale.ROOT)) + (o.directories > 0 ? ", "
                + o.directories + " directories" : "") + (o.pushContinuations
                ? ", continuations pushed" : "") + (o.wakeThieves ? ", thieves woken" : "")
;
        return String.format(Locale.ROOT, "Workload %s: %,d tasks, work %s, critical path %s; tile time %s, "
                        + "tile %s%s. Members: %d slots, window %d, %s%s, %s. Network: %s.%s",
                o.workload, w.tasks(), Units.nanos(w.totalWorkNanos()), Units.nanos(w.criticalPathNanos()),
                o.tileTime, Units.bytes(o.tileBytes), o.workload.startsWith("bspgemm") ? ", density " + o.density
                        + ", skew " + o.skew + owned(o) : owned(o), o.slots, o.window, o.speeds.uniform() ? ""
                        : "speeds " + o.speeds + (o.scaleBySpeed ? " (threshold and window scaled by speed)"
                        : o.learnSpeeds ? " (threshold and window scaled by the speed each member learns)" : "")
                        + ", ", settings, o.inputCache == 0 ? "no input cache"
                        : "input cache " + Units.bytes(o.inputCache), network,
                o.events.isEmpty() ? "" : " Membership: " + o.events + ", failure noticed after "
                        + Units.nanos(o.failAfter) + ".") + (o.hostCpu().on() ? " Host CPU per message: "
                + o.hostCpu() + ", taken from the member's kernels." : "");
    }

    /** The host CPU members spent on messages and what their kernels lost to it (with the host CPU model). */
    static String hostCpuLine(SimResult r) {
        return String.format(Locale.ROOT, "host CPU on messages: %s per member (mean), %s at the busiest; kernels "
                        + "ended %s later in all (%.1f%% of the work)", Units.nanos((long) r.hostCpuPerMember().mean()),
                Units.nanos(r.hostCpuPerMember().max()), Units.nanos(r.kernelDelayNanos()),
                100.0 * r.kernelDelayNanos() / Math.max(1, r.totalWorkNanos()));
    }

    static String tableRow(Row row) {
        SimResult r = row.result();
        boolean stealing = row.stealing();
        return String.format(Locale.ROOT, "| %d | %,d | %s | %s | %s | %.1f%% | %,d | %,d (%,d) | %,d | %,d | %,.0f / %,d "
                        + "| %s / %s | %.1f%% | %s / %s | %,d | %,d | %s / %s | %,d / %,d | %.1f s | %d |",
                r.members(), r.tasks(), stealing ? "yes" : "no", Units.nanos(r.makespanNanos()),
                Units.nanos(r.lowerBoundNanos()), 100 * r.efficiency(), r.stolen(), r.requests(), r.rankRequests(), r.emptyReplies(),
                r.forwards(), r.messagesPerMember().mean(), r.messagesPerMember().max(),
                Units.bytes((long) r.bytesPerMember().mean()), Units.bytes(r.bytesPerMember().max()),
                100 * r.idleFraction(), r.stealLatencyMedianNanos() < 0 ? "-" : Units.nanos(r.stealLatencyMedianNanos()),
                r.stealLatencyP99Nanos() < 0 ? "-" : Units.nanos(r.stealLatencyP99Nanos()), r.reruns(),
                r.gateRefusals(), Units.bytes(r.inputBytesSent()), Units.bytes(r.inputBytesSaved()),
                r.cacheMisses(), r.missingInputHandBacks(), r.wallNanos() / 1e9, row.seed());
    }

    static String csv(List<Row> rows, Network network, SimulateOptions o) {
        StringBuilder b = new StringBuilder("workload,tasks,members,members_ever,slots,window,stealing,makespan_ns,"
                + "lower_bound_ns,efficiency,total_work_ns,critical_path_ns,moved,requests,empty_replies,forwards,"
                + "timeouts,stale_replies,reruns,lost_messages,messages_per_member_mean,messages_per_member_max,"
                + "bytes_per_member_mean,bytes_per_member_max,idle_fraction,steal_latency_median_ns,"
                + "steal_latency_p99_ns,events,wall_ns,latency_ns,bandwidth_bytes_per_s,per_message_ns,seed,gate_refusals,"
                + "input_cache_bytes,input_bytes_sent,input_bytes_saved,cache_misses,missing_input_hand_backs,order,"
                + "rank_factor,rank_requests,priority_levels,host_cpu_per_message_ns,host_cpu_per_byte_ns,"
                + "host_cpu_per_member_mean_ns,host_cpu_per_member_max_ns,kernel_delay_ns,central_makespan_ns,directories,"
                + "speeds,owners,scaled_by_speed,learnt_speeds\n");
        for (Row row : rows) {
            SimResult r = row.result();
            b.append(String.join(",", List.of(csvText(r.workload()), Long.toString(r.tasks()),
                    Integer.toString(r.members()), Integer.toString(r.membersEver()), Integer.toString(r.slots()),
                    Integer.toString(o.window), Boolean.toString(row.stealing()), Long.toString(r.makespanNanos()),
                    Long.toString(r.lowerBoundNanos()), String.format(Locale.ROOT, "%.6f", r.efficiency()),
                    Long.toString(r.totalWorkNanos()), Long.toString(r.criticalPathNanos()),
                    Long.toString(r.stolen()), Long.toString(r.requests()), Long.toString(r.emptyReplies()),
                    Long.toString(r.forwards()), Long.toString(r.timeouts()), Long.toString(r.staleReplies()),
                    Long.toString(r.reruns()), Long.toString(r.lostMessages()),
                    String.format(Locale.ROOT, "%.1f", r.messagesPerMember().mean()),
                    Long.toString(r.messagesPerMember().max()),
                    String.format(Locale.ROOT, "%.1f", r.bytesPerMember().mean()),
                    Long.toString(r.bytesPerMember().max()), String.format(Locale.ROOT, "%.6f", r.idleFraction()),
                    Long.toString(r.stealLatencyMedianNanos()), Long.toString(r.stealLatencyP99Nanos()),
                    Long.toString(r.events()), Long.toString(r.wallNanos()), Long.toString(network.latencyNanos()),
                    String.format(Locale.ROOT, "%.0f", network.bytesPerSecond()),
                    Long.toString(network.perMessageNanos()), Long.toString(row.seed()),
                    Long.toString(r.gateRefusals()), Long.toString(o.inputCache), Long.toString(r.inputBytesSent()),
                    Long.toString(r.inputBytesSaved()), Long.toString(r.cacheMisses()),
                    Long.toString(r.missingInputHandBacks()), orderName(o.order),
                    Double.toString(o.settings().rankFactor()), Long.toString(r.rankRequests()),
                    Integer.toString(o.order == SimConfig.Order.RANK_AND_PRIORITIES ? o.priorityLevels : 1),
                    Long.toString(o.hostCpuPerMessage), Specs.number(o.hostCpuPerByte),
                    String.format(Locale.ROOT, "%.0f", r.hostCpuPerMember().mean()),
                    Long.toString(r.hostCpuPerMember().max()), Long.toString(r.kernelDelayNanos()),
                    Long.toString(row.centralNanos()), Integer.toString(o.directories), csvText(o.speeds.toString()),
                    Integer.toString(row.owners()), Boolean.toString(o.scaleBySpeed),
                    Boolean.toString(o.learnSpeeds))))
                    .append('\n');
        }
        return b.toString();
    }

    private static String csvText(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    static String plot(List<Row> rows, SimulateOptions o) {
        SvgPlot p = new SvgPlot("Work stealing, simulated: " + o.workload + " (" + rows.getFirst().result().tasks()
                + " tasks" + (o.seeds.size() > 1 ? ", mean of " + o.seeds.size() + " seeds" : "") + ")", "members",
                "efficiency (lower bound / makespan)");
        for (boolean stealing : new boolean[] {true, false}) {
            List<double[]> points = meanPerMemberCount(rows, stealing, row -> row.result().efficiency());
            if (!points.isEmpty()) {
                p.add(new SvgPlot.Series(stealing ? "stealing" : "no stealing", points));
            }
        }
        if (o.central) {
            p.add(new SvgPlot.Series("central list schedule",
                    meanPerMemberCount(rows, o.stealing(), Row::centralEfficiency)));
        }
        return p.goal(0.98, "goal: 98%").render();
    }

    /** One point per member count, in the order run: the mean of {@code value} over that count's seeds. */
    private static List<double[]> meanPerMemberCount(List<Row> rows, boolean stealing,
            ToDoubleFunction<Row> value) {
        Map<Integer, double[]> sums = new LinkedHashMap<>();
        for (Row row : rows) {
            if (row.stealing() == stealing) {
                double[] sum = sums.computeIfAbsent(row.result().members(), m -> new double[2]);
                sum[0] += value.applyAsDouble(row);
                sum[1]++;
            }
        }
        List<double[]> points = new ArrayList<>();
        sums.forEach((members, sum) -> points.add(new double[] {members, sum[0] / sum[1]}));
        return points;
    }

    private static String orderName(SimConfig.Order order) {
        return switch (order) {
            case SUBMISSION -> "submission";
            case RANK -> "rank";
            case RANK_AND_STREAMS -> "rank+streams";
            case RANK_AND_PRIORITIES -> "rank+priorities";
        };
    }
}
