package dev.polygpu.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One member's cluster counters since it joined.
 *
 * @param member          this member's id
 * @param members         members in the cluster now, this one included
 * @param stolen          elements this member took from others and ran (as a thief)
 * @param given           elements others took from this member (as a victim)
 * @param completedRemote elements of this member that ran elsewhere and whose results were accepted
 * @param rerun           elements of this member taken back from a thief that left, died, lost them or handed
 *                        them back (those handed back unstarted may be stolen again; the rest run here)
 * @param rejected        messages refused: bad or missing proof of the secret, malformed, stale or duplicate
 *                        replies, late results from members declared dead
 * @param requests        steal requests this member sent
 * @param rankRequests    of those, requests by rank: sent while not starving, for elements of a higher rank
 *                        than the work it would run next only ({@code StealSettings.rankFactor})
 * @param emptyReplies    of those, answered with nothing (or timed out)
 * @param forwarded       steal requests this member passed on because it had nothing to give
 * @param bytesSent       array bytes this member sent (inputs it gave, results it returned)
 * @param bytesReceived   array bytes this member received
 * @param inputBytesSaved input bytes this member did not send again because the thief kept them (it sent a
 *                        reference)
 * @param inputCacheMisses references this member received to inputs it no longer kept (their elements went back)
 * @param pushed          elements this member sent a thief unasked: the next link of a chain whose previous link
 *                        that thief had just run ({@code pushContinuations})
 * @param loadReports     load reports this member sent its directory ({@code directories})
 * @param directoryForwards steal requests this member, as a directory, forwarded to a member that reported work
 *                        (counted in {@code forwarded} too)
 * @param wakeUps         starving thieves this member had sent away with nothing and then told that it had work
 *                        (so they asked again at once instead of waiting out their back-off)
 * @param stealLatencyMedianNanos median time from a steal request to a reply with work
 * @param stealLatencyP99Nanos    99th percentile of the same
 * @param firstStolenNanos        time from joining (this member's Hazelcast member up and listening; the warm-up,
 *                                if it was still running then, included) to the first stolen element submitted
 *                                here, or -1
 * @param relativeSpeed   how fast this member's device is against the fastest other member's it has shared work
 *                        with, as it learnt it ({@code learnSpeeds}; 1 when alike, not yet known or not learning)
 * @param threshold       the steal threshold in force (scaled by {@code relativeSpeed} when it is below 1)
 * @param window          the scheduler's in-flight window in force (likewise)
 */
public record ClusterStats(String member, int members, long stolen, long given, long completedRemote, long rerun,
        long rejected, long requests, long rankRequests, long emptyReplies, long forwarded, long bytesSent,
        long bytesReceived, long inputBytesSaved, long inputCacheMisses, long pushed, long loadReports,
        long directoryForwards, long wakeUps, long stealLatencyMedianNanos, long stealLatencyP99Nanos, long firstStolenNanos,
        double relativeSpeed, int threshold, int window) {

    /** The counters by name, in declaration order (for the launcher's table and guest code). */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("member", member);
        m.put("members", members);
        m.put("stolen", stolen);
        m.put("given", given);
        m.put("completedRemote", completedRemote);
        m.put("rerun", rerun);
        m.put("rejected", rejected);
        m.put("requests", requests);
        m.put("rankRequests", rankRequests);
        m.put("emptyReplies", emptyReplies);
        m.put("forwarded", forwarded);
        m.put("bytesSent", bytesSent);
        m.put("bytesReceived", bytesReceived);
        m.put("inputBytesSaved", inputBytesSaved);
        m.put("inputCacheMisses", inputCacheMisses);
        m.put("pushed", pushed);
        m.put("loadReports", loadReports);
        m.put("directoryForwards", directoryForwards);
        m.put("wakeUps", wakeUps);
        m.put("stealLatencyMedianNanos", stealLatencyMedianNanos);
        m.put("stealLatencyP99Nanos", stealLatencyP99Nanos);
        m.put("firstStolenNanos", firstStolenNanos);
        m.put("relativeSpeed", relativeSpeed);
        m.put("threshold", threshold);
        m.put("window", window);
        return m;
    }

    /** A short table for people, one counter per line. */
    public String table() {
        StringBuilder b = new StringBuilder("cluster member ").append(member).append(" (").append(members)
                .append(" members)\n");
        row(b, "stolen (ran here for others)", stolen);
        row(b, "given (taken by others)", given);
        row(b, "results accepted", completedRemote);
        row(b, "re-run here", rerun);
        row(b, "messages rejected", rejected);
        row(b, "steal requests", requests);
        row(b, "steal requests by rank", rankRequests);
        row(b, "empty replies", emptyReplies);
        row(b, "requests forwarded", forwarded);
        row(b, "bytes sent", bytesSent);
        row(b, "bytes received", bytesReceived);
        row(b, "input bytes not resent", inputBytesSaved);
        row(b, "input cache misses", inputCacheMisses);
        row(b, "continuations pushed", pushed);
        row(b, "load reports sent", loadReports);
        row(b, "forwarded as a directory", directoryForwards);
        row(b, "thieves woken", wakeUps);
        b.append(String.format("  %-30s %s / %s%n", "steal latency median / p99", millis(stealLatencyMedianNanos),
                millis(stealLatencyP99Nanos)));
        b.append(String.format("  %-30s %s%n", "join to first stolen kernel", firstStolenNanos < 0 ? "-"
                : millis(firstStolenNanos)));
        b.append(String.format(java.util.Locale.ROOT, "  %-30s %.2f (threshold %d, window %d)%n",
                "speed against the fastest", relativeSpeed, threshold, window));
        return b.toString();
    }

    private static void row(StringBuilder b, String name, long value) {
        b.append(String.format("  %-30s %d%n", name, value));
    }

    private static String millis(long nanos) {
        return nanos <= 0 ? "-" : String.format("%.3f ms", nanos / 1e6);
    }
}
