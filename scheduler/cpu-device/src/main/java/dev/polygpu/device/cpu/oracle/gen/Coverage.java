package dev.polygpu.device.cpu.oracle.gen;

import java.util.EnumMap;
import java.util.Map;

/** How often each {@link Construct} was emitted: per kernel while generating, summed over a run. Not thread-safe. */
public final class Coverage {
    private final EnumMap<Construct, Long> counts = new EnumMap<>(Construct.class);

    public void add(Construct c) {
        counts.merge(c, 1L, Long::sum);
    }

    public void addAll(Coverage o) {
        o.counts.forEach((c, n) -> counts.merge(c, n, Long::sum));
    }

    public long count(Construct c) {
        return counts.getOrDefault(c, 0L);
    }

    /** The counts, constructs never emitted left out. */
    public Map<Construct, Long> counts() {
        return Map.copyOf(counts);
    }
}
