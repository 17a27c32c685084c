package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.LatencyHistogram;
import java.util.concurrent.atomic.AtomicLong;

/** The counters of one {@link ClusterNode} since it joined, which {@link ClusterStats} reports. Thread-safe. */
final class NodeCounters {
    final AtomicLong stolen = new AtomicLong();
    final AtomicLong given = new AtomicLong();
    final AtomicLong completedRemote = new AtomicLong();
    final AtomicLong rerun = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final AtomicLong rankRequests = new AtomicLong();
    final AtomicLong emptyReplies = new AtomicLong();
    final AtomicLong forwarded = new AtomicLong();
    final AtomicLong bytesSent = new AtomicLong();
    final AtomicLong bytesReceived = new AtomicLong();
    final AtomicLong inputBytesSaved = new AtomicLong();
    final AtomicLong inputCacheMisses = new AtomicLong();
    final AtomicLong pushed = new AtomicLong();
    final AtomicLong loadReports = new AtomicLong();
    final AtomicLong directoryForwards = new AtomicLong();
    final AtomicLong wakeUps = new AtomicLong();
    /** Steal latencies: from a request to its reply with work. */
    final LatencyHistogram latency = new LatencyHistogram();
    /** From joining to the first stolen element submitted here, or -1. */
    volatile long firstStolenNanos = -1;

    /**
     * The counters now, with what the node knows besides them.
     *
     * @param member this member's id
     * @param members members in the cluster, this one included
     * @param relativeSpeed this member's learnt speed
     * @param threshold the steal threshold in force
     * @param window the scheduler's in-flight window in force
     */
    ClusterStats stats(String member, int members, double relativeSpeed, int threshold, int window) {
        boolean none = latency.count() == 0;
        return new ClusterStats(member, members, stolen.get(), given.get(), completedRemote.get(), rerun.get(),
                rejected.get(), requests.get(), rankRequests.get(), emptyReplies.get(), forwarded.get(),
                bytesSent.get(), bytesReceived.get(), inputBytesSaved.get(), inputCacheMisses.get(), pushed.get(),
                loadReports.get(), directoryForwards.get(), wakeUps.get(), none ? -1 : latency.percentile(50),
                none ? -1 : latency.percentile(99), firstStolenNanos, relativeSpeed, threshold, window);
    }
}
