package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrBuiltin;
import dev.polygpu.grcuda.objects.GrNamespace;
import dev.polygpu.runtime.WorkExchange;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code getClusterStats()}: a polygpu extension (not GrCUDA API) returning this member's cluster counters as a
 * read-only record, one member per counter of {@link WorkExchange#stats()} in its order ({@code member},
 * {@code members}, {@code stolen}, {@code given}, {@code rerun}, {@code bytesSent}, … as
 * {@code docs/cluster.md} lists them), a snapshot taken at the call. Joins the cluster first if the program has
 * not used the device yet. Without {@code grcuda.Cluster} the record is {@code {member: "", members: 1}}: no
 * member id, and this program alone.
 */
final class GetClusterStatsBuiltin extends GrBuiltin {
    private final GrContext context;

    GetClusterStatsBuiltin(GrContext context) {
        super("getClusterStats");
        this.context = context;
    }

    @Override
    protected Object call(Object[] args) throws ArityException {
        Args.arity(args, 0, 0);
        WorkExchange exchange = context.exchange();
        return GrNamespace.record("clusterStats", exchange == null ? alone() : guestValues(exchange.stats()));
    }

    private static Map<String, Object> alone() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("member", "");
        m.put("members", 1);
        return m;
    }

    /** Strings, numbers and booleans as they are (interop primitives); anything else as its text. */
    @TruffleBoundary
    private static Map<String, Object> guestValues(Map<String, Object> stats) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : stats.entrySet()) {
            Object v = e.getValue();
            boolean primitive = v instanceof String || v instanceof Boolean || v instanceof Integer
                    || v instanceof Long || v instanceof Double || v instanceof Float || v instanceof Short
                    || v instanceof Byte;
            m.put(e.getKey(), primitive ? v : String.valueOf(v));
        }
        return m;
    }
}
