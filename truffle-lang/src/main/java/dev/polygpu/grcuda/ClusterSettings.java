package dev.polygpu.grcuda;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.graalvm.options.OptionKey;
import org.graalvm.options.OptionValues;

/**
 * The {@code grcuda.Cluster*} options of one context, read once when it is created: whether the context's
 * scheduler joins a cluster, and the options {@link dev.polygpu.runtime.WorkExchange#attach} gets for it.
 * Immutable. Never shows the secret ({@link #toString}, {@link #display}).
 *
 * @param members         {@code grcuda.Cluster}: the member addresses to look for; empty = no cluster
 * @param exchangeOptions what the exchange is attached with, in the cluster's names ({@code members},
 *                        {@code name}, {@code bind}, {@code port}, {@code secret}, {@code role},
 *                        {@code heartbeat}, {@code failAfter}, {@code stealing}, {@code threshold},
 *                        {@code chunk}, {@code rankFactor}, {@code inputCache}, {@code stolenOverflow},
 *                        {@code randomEvery}, {@code rankChunk}, {@code directories},
 *                        {@code pushContinuations}, {@code wakeThieves}, {@code faults}): {@code members},
 *                        {@code role=program} and only the
 *                        options that were given, so the cluster's own defaults (and its rule that failure
 *                        detection follows the heartbeat) apply to the rest. Empty when there is no cluster.
 * @param display         every option by its {@code grcuda.} name with its value, the secret masked
 * @param secretSource    where the secret came from: {@code grcuda.ClusterSecret}, the
 *                        {@code POLYGPU_CLUSTER_SECRET} environment variable, or null when there is none
 * @param printStats      {@code grcuda.ClusterStats}: print the counters table when the context closes
 * @param stolenOverflow  {@code grcuda.ClusterStolenOverflow}, which the context's scheduler is created with
 *                        ({@link dev.polygpu.runtime.SchedulerConfig#stolenOverflow()}); 0 when there is no
 *                        cluster
 */
public record ClusterSettings(String members, Map<String, String> exchangeOptions, Map<String, String> display,
        String secretSource, boolean printStats, int stolenOverflow) {

    /** The environment variable that holds the secret when {@code grcuda.ClusterSecret} is empty. */
    public static final String SECRET_VARIABLE = "POLYGPU_CLUSTER_SECRET";

    public ClusterSettings {
        exchangeOptions = Collections.unmodifiableMap(new LinkedHashMap<>(exchangeOptions));
        display = Collections.unmodifiableMap(new LinkedHashMap<>(display));
    }

    /**
     * Reads the options; {@code environment} is the context's view of the process environment (where the
     * secret may come from when the option is empty).
     */
    static ClusterSettings of(OptionValues o, Map<String, String> environment) {
        String members = o.get(GrOptions.Cluster);
        String secret = o.get(GrOptions.ClusterSecret);
        String secretSource = null;
        if (!secret.isEmpty()) {
            secretSource = "grcuda.ClusterSecret";
        } else {
            String fromEnvironment = environment.get(SECRET_VARIABLE);
            if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
                secret = fromEnvironment;
                secretSource = "the " + SECRET_VARIABLE + " environment variable";
            }
        }

        Map<String, String> exchange = new LinkedHashMap<>();
        if (!members.isEmpty()) {
            exchange.put("members", members);
            exchange.put("role", "program");
            putIfSet(exchange, o, "name", GrOptions.ClusterName);
            putIfSet(exchange, o, "bind", GrOptions.ClusterBind);
            putIfSet(exchange, o, "port", GrOptions.ClusterPort);
            if (secretSource != null) {
                exchange.put("secret", secret);
            }
            // heartbeat before failAfter: the cluster raises failure detection to two heartbeats unless told
            putIfSet(exchange, o, "heartbeat", GrOptions.ClusterHeartbeat);
            putIfSet(exchange, o, "failAfter", GrOptions.ClusterFailAfter);
            putIfSet(exchange, o, "stealing", GrOptions.ClusterStealing);
            putIfSet(exchange, o, "threshold", GrOptions.ClusterThreshold);
            putIfSet(exchange, o, "chunk", GrOptions.ClusterChunk);
            putIfSet(exchange, o, "rankFactor", GrOptions.ClusterRankFactor);
            putIfSet(exchange, o, "inputCache", GrOptions.ClusterInputCache);
            putIfSet(exchange, o, "stolenOverflow", GrOptions.ClusterStolenOverflow);
            putIfSet(exchange, o, "randomEvery", GrOptions.ClusterRandomEvery);
            putIfSet(exchange, o, "rankChunk", GrOptions.ClusterRankChunk);
            putIfSet(exchange, o, "directories", GrOptions.ClusterDirectories);
            putIfSet(exchange, o, "pushContinuations", GrOptions.ClusterPushContinuations);
            putIfSet(exchange, o, "wakeThieves", GrOptions.ClusterWakeThieves);
            putIfSet(exchange, o, "learnSpeeds", GrOptions.ClusterLearnSpeeds);
            String faults = o.get(GrOptions.ClusterFaults).strip();
            if (!faults.isEmpty()) {
                exchange.put("faults", faults);
            }
        }

        Map<String, String> display = new LinkedHashMap<>();
        display.put("grcuda.Cluster", members);
        display.put("grcuda.ClusterName", o.get(GrOptions.ClusterName));
        display.put("grcuda.ClusterBind", o.get(GrOptions.ClusterBind));
        display.put("grcuda.ClusterPort", Integer.toString(o.get(GrOptions.ClusterPort)));
        display.put("grcuda.ClusterSecret", secretSource == null ? "" : "****");
        display.put("grcuda.ClusterHeartbeat", o.get(GrOptions.ClusterHeartbeat));
        display.put("grcuda.ClusterFailAfter", o.get(GrOptions.ClusterFailAfter));
        display.put("grcuda.ClusterStealing", Boolean.toString(o.get(GrOptions.ClusterStealing)));
        display.put("grcuda.ClusterThreshold", Integer.toString(o.get(GrOptions.ClusterThreshold)));
        display.put("grcuda.ClusterChunk", Integer.toString(o.get(GrOptions.ClusterChunk)));
        display.put("grcuda.ClusterRankFactor", Double.toString(o.get(GrOptions.ClusterRankFactor)));
        display.put("grcuda.ClusterInputCache", o.get(GrOptions.ClusterInputCache));
        display.put("grcuda.ClusterStolenOverflow", Integer.toString(o.get(GrOptions.ClusterStolenOverflow)));
        display.put("grcuda.ClusterRandomEvery", Integer.toString(o.get(GrOptions.ClusterRandomEvery)));
        display.put("grcuda.ClusterRankChunk", Integer.toString(o.get(GrOptions.ClusterRankChunk)));
        display.put("grcuda.ClusterDirectories", Integer.toString(o.get(GrOptions.ClusterDirectories)));
        display.put("grcuda.ClusterPushContinuations", Boolean.toString(o.get(GrOptions.ClusterPushContinuations)));
        display.put("grcuda.ClusterWakeThieves", Boolean.toString(o.get(GrOptions.ClusterWakeThieves)));
        display.put("grcuda.ClusterLearnSpeeds", Boolean.toString(o.get(GrOptions.ClusterLearnSpeeds)));
        display.put("grcuda.ClusterFaults", o.get(GrOptions.ClusterFaults));
        display.put("grcuda.ClusterStats", Boolean.toString(o.get(GrOptions.ClusterStats)));
        return new ClusterSettings(members, exchange, display, secretSource, o.get(GrOptions.ClusterStats),
                members.isEmpty() ? 0 : o.get(GrOptions.ClusterStolenOverflow));
    }

    private static void putIfSet(Map<String, String> exchange, OptionValues o, String name, OptionKey<?> key) {
        if (o.hasBeenSet(key)) {
            exchange.put(name, String.valueOf(o.get(key)));
        }
    }

    /** Whether the context joins a cluster. */
    public boolean enabled() {
        return !members.isEmpty();
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "ClusterSettings" + display;
    }
}
