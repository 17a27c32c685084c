package dev.polygpu.bench.cluster;

import dev.polygpu.cluster.ClusterStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One measured run: its makespan (first submit to the end of {@code synchronize()}), where its kernels ran,
 * and the program member's cluster counters over the run.
 *
 * @param makespanNanos  first submit to synchronize returning
 * @param members        per member (by name: {@code program}, {@code worker-1} …), in order of first appearance
 * @param given          kernels the program gave away during the run
 * @param rerun          kernels given away and run at the program after all
 * @param bytesSent      array bytes the program sent (inputs of given kernels)
 * @param bytesReceived  array bytes the program received (results)
 * @param wakeUps        thieves the program had sent away and told it had work (at the run's start, mostly)
 */
record RunResult(long makespanNanos, Map<String, Share> members, long given, long rerun, long bytesSent,
        long bytesReceived, long wakeUps) {

    /**
     * What one member did in a run.
     *
     * @param kernels          kernels it ran
     * @param nominalMs        their device time by the sleeps asked for (per block)
     * @param firstStartNanos  its first kernel's start after the first submit (program's clock)
     * @param lastEndNanos     its last kernel's end after the first submit
     */
    record Share(int kernels, double nominalMs, long firstStartNanos, long lastEndNanos) {
    }

    /**
     * The run's result from its launches (placement filled in) and the program's counters before and after;
     * {@code nameOf} maps a member's short id (as the scheduler reports it) to its name, {@code program} for
     * kernels that ran on the program's device.
     */
    static RunResult of(long startNanos, long endNanos, List<Launch> launches, ClusterStats before,
            ClusterStats after, java.util.function.Function<String, String> nameOf) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, double[]> times = new LinkedHashMap<>();
        Map<String, long[]> spans = new LinkedHashMap<>();
        for (Launch l : launches) {
            String who = l.member == null ? "program" : nameOf.apply(l.member);
            counts.computeIfAbsent(who, k -> new int[1])[0]++;
            times.computeIfAbsent(who, k -> new double[1])[0] += l.nominalMs;
            long[] span = spans.computeIfAbsent(who, k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            span[0] = Math.min(span[0], l.startNanos - startNanos);
            span[1] = Math.max(span[1], l.endNanos - startNanos);
        }
        Map<String, Share> members = new LinkedHashMap<>();
        for (String who : counts.keySet()) {
            members.put(who, new Share(counts.get(who)[0], times.get(who)[0], spans.get(who)[0], spans.get(who)[1]));
        }
        return new RunResult(endNanos - startNanos, members, after.given() - before.given(),
                after.rerun() - before.rerun(), after.bytesSent() - before.bytesSent(),
                after.bytesReceived() - before.bytesReceived(), after.wakeUps() - before.wakeUps());
    }
}
