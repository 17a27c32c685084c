package dev.polygpu.bench.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counters a worker process printed (its {@code ClusterStats.table()}), read back from its output: times in
 * nanoseconds, -1 where the table shows "-". The benchmark sees a worker only through its output, as a person
 * would.
 */
record WorkerTable(String worker, String member, long stolen, long requests, long emptyReplies, long bytesSent,
        long bytesReceived, long latencyMedianNanos, long latencyP99Nanos, long firstStolenNanos) {

    private static final Pattern HEADER = Pattern.compile("^cluster member (\\S+) \\((\\d+) members\\)$");
    private static final Pattern ROW = Pattern.compile("^  (.+?)\\s+(\\S+( ms)?( / \\S+( ms)?)?)$");

    /**
     * The last table in {@code lines}.
     *
     * @throws IllegalStateException if there is none or a row it needs is missing or unreadable
     */
    static WorkerTable parseLast(String worker, List<String> lines) {
        int start = -1;
        for (int x = lines.size() - 1; x >= 0 && start < 0; x--) {
            if (HEADER.matcher(lines.get(x)).matches()) {
                start = x;
            }
        }
        if (start < 0) {
            throw new IllegalStateException("worker " + worker + " printed no counters table; its output:\n"
                    + String.join("\n", lines));
        }
        Matcher h = HEADER.matcher(lines.get(start));
        h.matches();
        Map<String, String> rows = new HashMap<>();
        for (int x = start + 1; x < lines.size(); x++) {
            Matcher m = ROW.matcher(lines.get(x));
            if (!m.matches()) {
                break;
            }
            rows.put(m.group(1).strip(), m.group(2).strip());
        }
        String[] latency = need(worker, rows, "steal latency median / p99").split(" / ");
        if (latency.length != 2) {
            throw new IllegalStateException("worker " + worker + ": cannot read the steal latency row '"
                    + rows.get("steal latency median / p99") + "'");
        }
        return new WorkerTable(worker, h.group(1), count(worker, rows, "stolen (ran here for others)"),
                count(worker, rows, "steal requests"), count(worker, rows, "empty replies"),
                count(worker, rows, "bytes sent"), count(worker, rows, "bytes received"), nanos(worker, latency[0]),
                nanos(worker, latency[1]), nanos(worker, need(worker, rows, "join to first stolen kernel")));
    }

    private static String need(String worker, Map<String, String> rows, String name) {
        String v = rows.get(name);
        if (v == null) {
            throw new IllegalStateException("worker " + worker + ": its counters table has no row '" + name
                    + "' (rows: " + rows.keySet() + ")");
        }
        return v;
    }

    private static long count(String worker, Map<String, String> rows, String name) {
        String v = need(worker, rows, name);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("worker " + worker + ": row '" + name + "' is not a count: '" + v + "'");
        }
    }

    /** "1.234 ms" to nanoseconds; "-" to -1. */
    static long nanos(String worker, String v) {
        String s = v.strip();
        if (s.equals("-")) {
            return -1;
        }
        if (!s.endsWith(" ms")) {
            throw new IllegalStateException("worker " + worker + ": expected a time in ms, got '" + v + "'");
        }
        try {
            return Math.round(Double.parseDouble(s.substring(0, s.length() - 3)) * 1e6);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("worker " + worker + ": expected a time in ms, got '" + v + "'");
        }
    }
}
